// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The inode store: one slot per kept inode, holding the slot header
 * (mode, flags, generation or directory index) and only the bulkstat
 * fields the caller asked for, packed.  Slots go into blocks of arenas
 * during the scan (a batch takes an arena from a pool, so scan threads
 * never share one), each arena noting its runs as they come: slots of one
 * inode chunk, contiguous in a block, with a 64-bit mask of the inodes
 * they hold.  Afterwards a hash table of the runs on the inode chunk
 * number (ino >> 6) finds them: a lookup is one probe and a popcount, and
 * no slot holds its inode number.
 *
 * A store the inode-order cursor reads (XBN_F_LINK, a snapshot's) keeps
 * the fields out of the slot: each arena has a stream, where each run's
 * fields follow one another in slot order at variable width, read only by
 * the cursor as it steps through a run (inodes.c).  An inode's fields
 * there: a varint mask of those that differ from their reference (the
 * same field of the run's inode before, or this inode's ctime for the
 * other times), then for each, zigzag (value - reference) as a varint
 * (lib/varint.h).  Neighbours in a chunk mostly share owner, project,
 * link count and second of ctime, and a file's times are mostly equal:
 * an inode that differs from the one before in its ctime at most takes
 * 1 to 7 bytes; bench/populate --empty-files's inodes take 6.7 on
 * average (a fifth of them have random older atime and mtime), not 108.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include "store.h"
#include "../varint.h"

#define BS_OFF(f)	((uint16_t)offsetof(struct xfs_bulkstat, f))
#define BLOCK_BYTES	XBN_BLOCK_ALIGN
#define BLOCK_MIN_SLOTS	1024

/* Fields side by side in struct xfs_bulkstat are copied as one piece. */
_Static_assert(offsetof(struct xfs_bulkstat, bs_gid) ==
	       offsetof(struct xfs_bulkstat, bs_uid) + 4, "uid, gid");
_Static_assert(offsetof(struct xfs_bulkstat, bs_extsize_blks) ==
	       offsetof(struct xfs_bulkstat, bs_cowextsize_blks) + 4, "hints");
_Static_assert(offsetof(struct xfs_bulkstat, bs_checked) ==
	       offsetof(struct xfs_bulkstat, bs_version) + 6, "other");

static const struct {
	uint32_t	flag;
	uint16_t	src;
	uint16_t	len;
} field_pieces[] = {
	{ XBULK_F_SIZE, BS_OFF(bs_size), 8 },
	{ XBULK_F_BLOCKS, BS_OFF(bs_blocks), 8 },
	{ XBULK_F_BLOCKS, BS_OFF(bs_blksize), 4 },
	{ XBULK_F_ATIME, BS_OFF(bs_atime), 8 },
	{ XBULK_F_ATIME, BS_OFF(bs_atime_nsec), 4 },
	{ XBULK_F_MTIME, BS_OFF(bs_mtime), 8 },
	{ XBULK_F_MTIME, BS_OFF(bs_mtime_nsec), 4 },
	{ XBULK_F_CTIME, BS_OFF(bs_ctime), 8 },
	{ XBULK_F_CTIME, BS_OFF(bs_ctime_nsec), 4 },
	{ XBULK_F_BTIME, BS_OFF(bs_btime), 8 },
	{ XBULK_F_BTIME, BS_OFF(bs_btime_nsec), 4 },
	{ XBULK_F_OWNER, BS_OFF(bs_uid), 8 },		/* and bs_gid */
	{ XBULK_F_PROJID, BS_OFF(bs_projectid), 4 },
	{ XBULK_F_NLINK, BS_OFF(bs_nlink), 4 },
	{ XBULK_F_RDEV, BS_OFF(bs_rdev), 4 },
	{ XBULK_F_XFLAGS, BS_OFF(bs_xflags), 8 },
	{ XBULK_F_EXTENTS, BS_OFF(bs_extents64), 8 },
	{ XBULK_F_EXTENTS, BS_OFF(bs_aextents), 4 },
	{ XBULK_F_HINTS, BS_OFF(bs_cowextsize_blks), 8 }, /* and extsize */
	{ XBULK_F_OTHER, BS_OFF(bs_version), 8 },	/* to bs_checked */
};

#define NFIELD_PIECES	(sizeof(field_pieces) / sizeof(field_pieces[0]))
_Static_assert(NFIELD_PIECES <= XBN_MAX_PIECES, "pieces");

#define NO_REF	0xffff

/*
 * The fields of the stream, in the order of their bits in an inode's
 * mask: those that most often differ from their reference first, so that
 * the mask is mostly one byte.  Times other than ctime are coded against
 * ctime's, when the store has it.
 */
static const struct {
	uint32_t	flag;
	uint16_t	src;
	uint16_t	ref;		/* src of the reference; NO_REF */
	uint8_t		len;
} stream_fields[] = {
	{ XBULK_F_CTIME, BS_OFF(bs_ctime_nsec), NO_REF, 4 },
	{ XBULK_F_CTIME, BS_OFF(bs_ctime), NO_REF, 8 },
	{ XBULK_F_SIZE, BS_OFF(bs_size), NO_REF, 8 },
	{ XBULK_F_BLOCKS, BS_OFF(bs_blocks), NO_REF, 8 },
	{ XBULK_F_EXTENTS, BS_OFF(bs_extents64), NO_REF, 8 },
	{ XBULK_F_MTIME, BS_OFF(bs_mtime_nsec), BS_OFF(bs_ctime_nsec), 4 },
	{ XBULK_F_MTIME, BS_OFF(bs_mtime), BS_OFF(bs_ctime), 8 },
	{ XBULK_F_ATIME, BS_OFF(bs_atime_nsec), BS_OFF(bs_ctime_nsec), 4 },
	{ XBULK_F_ATIME, BS_OFF(bs_atime), BS_OFF(bs_ctime), 8 },
	{ XBULK_F_BTIME, BS_OFF(bs_btime_nsec), BS_OFF(bs_ctime_nsec), 4 },
	{ XBULK_F_BTIME, BS_OFF(bs_btime), BS_OFF(bs_ctime), 8 },
	{ XBULK_F_NLINK, BS_OFF(bs_nlink), NO_REF, 4 },
	{ XBULK_F_OWNER, BS_OFF(bs_uid), NO_REF, 4 },
	{ XBULK_F_OWNER, BS_OFF(bs_gid), NO_REF, 4 },
	{ XBULK_F_PROJID, BS_OFF(bs_projectid), NO_REF, 4 },
	{ XBULK_F_RDEV, BS_OFF(bs_rdev), NO_REF, 4 },
	{ XBULK_F_XFLAGS, BS_OFF(bs_xflags), NO_REF, 8 },
	{ XBULK_F_EXTENTS, BS_OFF(bs_aextents), NO_REF, 4 },
	{ XBULK_F_BLOCKS, BS_OFF(bs_blksize), NO_REF, 4 },
	{ XBULK_F_HINTS, BS_OFF(bs_cowextsize_blks), NO_REF, 4 },
	{ XBULK_F_HINTS, BS_OFF(bs_extsize_blks), NO_REF, 4 },
	{ XBULK_F_OTHER, BS_OFF(bs_version), NO_REF, 8 }, /* to bs_checked */
};

#define NSTREAM_FIELDS	(sizeof(stream_fields) / sizeof(stream_fields[0]))
_Static_assert(NSTREAM_FIELDS <= XBN_MAX_SFIELDS, "stream fields");

/* Slots, or the bytes of a stream. */
struct xbn_block {
	struct xbn_block	*next;
	uint32_t		n;		/* units used */
	uint32_t		cap;
	uint64_t		data[];
};

/* The stream's fields of the XBULK_F_* in @fields. */
static void
stream_layout(struct xbn_layout *l, uint32_t fields)
{
	size_t i;

	l->nsfields = 0;
	for (i = 0; i < NSTREAM_FIELDS; i++) {
		struct xbn_sfield *f = &l->sfield[l->nsfields];
		unsigned int j;

		if (!(fields & stream_fields[i].flag))
			continue;
		f->src = stream_fields[i].src;
		f->len = stream_fields[i].len;
		f->ref = XBN_REF_PREV;
		for (j = 0; j < l->nsfields; j++)
			if (l->sfield[j].src == stream_fields[i].ref)
				f->ref = (uint8_t)j;
		l->nsfields++;
	}
	l->stream_max = (uint32_t)(xbl_var_len((1ULL << l->nsfields) - 1) +
				   l->nsfields * XBL_VAR_MAX);
}

void
xbn_layout_init(struct xbn_layout *l, uint32_t fields)
{
	uint16_t len, dst = sizeof(struct xbn_slot);
	uint32_t in_slot = fields;
	size_t i;

	l->npieces = 0;
	l->nsfields = 0;
	l->stream_max = 0;
	if (fields & XBN_F_LINK) {
		stream_layout(l, fields);
		in_slot = 0;	/* the fields are in the stream */
	}
	/* 8-byte pieces first, then 4 */
	for (len = 8; len >= 4; len /= 2) {
		for (i = 0; i < NFIELD_PIECES; i++) {
			struct xbn_piece *p;

			if (!(in_slot & field_pieces[i].flag) ||
			    field_pieces[i].len != len)
				continue;
			p = &l->piece[l->npieces++];
			p->src = field_pieces[i].src;
			p->dst = dst;
			p->len = len;
			dst += len;
		}
	}
	l->link = 0;
	if (fields & XBN_F_LINK) {
		l->link = dst;
		dst += sizeof(struct xbn_slot_link);
	}
	/* the header's aux and the pieces are read with memcpy() or as
	 * 32-bit values: 4-byte alignment is enough */
	l->slot = (dst + 3u) & ~3u;
}

int
xbn_store_init(struct xbn_store *s, uint32_t fields, struct xbn_spill *mem)
{
	memset(s, 0, sizeof(*s));
	s->mem = mem;
	xbn_layout_init(&s->lay, fields);
	return -pthread_mutex_init(&s->lock, NULL);
}

/* Blocks of @unit bytes a unit (a slot; 1 for the stream). */
static void
free_blocks(struct xbn_store *s, struct xbn_block *b, uint32_t unit)
{
	while (b) {
		struct xbn_block *next = b->next;

		xbn_free_block(s->mem, b, sizeof(*b) + (size_t)b->cap * unit);
		b = next;
	}
}

static void
free_arenas(struct xbn_store *s, struct xbn_arena *a)
{
	while (a) {
		struct xbn_arena *next = a->next;

		free_blocks(s, a->blocks, s->lay.slot);
		free_blocks(s, a->stream, 1);
		free(a->runs);
		free(a);
		a = next;
	}
}

void
xbn_store_free(struct xbn_store *s)
{
	free_arenas(s, s->pool);
	free_arenas(s, s->all);
	xbn_free_block(s->mem, s->runs, s->runs_bytes);
	pthread_mutex_destroy(&s->lock);
	memset(s, 0, sizeof(*s));
}

struct xbn_arena *
xbn_arena_get(struct xbn_store *s)
{
	struct xbn_arena *a;

	pthread_mutex_lock(&s->lock);
	a = s->pool;
	if (a)
		s->pool = a->next;
	pthread_mutex_unlock(&s->lock);
	if (!a)
		a = calloc(1, sizeof(*a));
	return a;
}

void
xbn_arena_put(struct xbn_store *s, struct xbn_arena *a)
{
	pthread_mutex_lock(&s->lock);
	a->next = s->pool;
	s->pool = a;
	pthread_mutex_unlock(&s->lock);
}

/* A block of @want units of @unit bytes at least, first in *@list
 * (NULL: out of memory, or s->mem->err). */
static struct xbn_block *
new_block(struct xbn_store *s, struct xbn_block **list, uint32_t unit,
	  uint32_t want)
{
	/* the header inside the huge page: one more unit would take a
	 * second */
	uint32_t cap = (uint32_t)((BLOCK_BYTES - sizeof(struct xbn_block)) /
				  unit);
	struct xbn_block *b;
	size_t bytes;

	if (cap < want)
		cap = want;
	b = xbn_alloc_block(s->mem, sizeof(*b) + (size_t)cap * unit, &bytes,
			    true);
	if (!b)
		return NULL;
	b->n = 0;
	b->cap = (uint32_t)((bytes - sizeof(*b)) / unit);
	b->next = *list;
	*list = b;
	__atomic_add_fetch(&s->bytes, bytes, __ATOMIC_RELAXED);
	return b;
}

/* A value of @bs as a stream field: @f's bytes, zero-extended. */
static uint64_t
sfield_get(const struct xfs_bulkstat *bs, const struct xbn_sfield *f)
{
	const char *p = (const char *)bs + f->src;
	uint32_t v4;
	uint64_t v8;

	if (f->len == 8) {
		memcpy(&v8, p, 8);
		return v8;
	}
	memcpy(&v4, p, 4);
	return v4;
}

/* @bs's fields at @p, against @val (the run's inode before), which gets
 * them: xbn_stream_get() reads them back.  Return the byte after them. */
static uint8_t *
stream_put(const struct xbn_layout *l, uint8_t *p,
	   const struct xfs_bulkstat *bs, uint64_t *val)
{
	uint64_t delta[XBN_MAX_SFIELDS], mask = 0, m;
	unsigned int i;

	/* a reference of this inode's is before the field: in val now */
	for (i = 0; i < l->nsfields; i++) {
		const struct xbn_sfield *f = &l->sfield[i];
		uint64_t v = sfield_get(bs, f);

		delta[i] = v - val[f->ref == XBN_REF_PREV ? i : f->ref];
		val[i] = v;
		if (delta[i])
			mask |= 1ULL << i;
	}
	p = xbl_put_var(p, mask);
	for (m = mask; m; m &= m - 1)
		p = xbl_put_var(p, xbl_zig((int64_t)delta[__builtin_ctzll(m)]));
	return p;
}

const uint8_t *
xbn_stream_get(const struct xbn_layout *l, const uint8_t *p, uint64_t *val)
{
	uint64_t mask = xbl_read_var(&p);
	unsigned int i;

	for (i = 0; i < l->nsfields; i++) {
		const struct xbn_sfield *f = &l->sfield[i];

		val[i] = val[f->ref == XBN_REF_PREV ? i : f->ref];
		if (mask >> i & 1)
			val[i] += (uint64_t)xbl_unzig(xbl_read_var(&p));
	}
	return p;
}

void
xbn_stream_fill(const struct xbn_layout *l, struct xfs_bulkstat *bs,
		const uint64_t *val)
{
	unsigned int i;

	for (i = 0; i < l->nsfields; i++) {
		char *d = (char *)bs + l->sfield[i].src;
		uint32_t v4 = (uint32_t)val[i];

		if (l->sfield[i].len == 8)
			memcpy(d, &val[i], 8);
		else
			memcpy(d, &v4, 4);
	}
}

/*
 * Note slot @sl of inode @ino, its fields at @fields of the stream (NULL:
 * none), in @a's runs: the last run goes on if @sl follows its last slot,
 * @fields the last inode's fields, and @ino is above its inodes in the
 * same chunk.  *@first: @sl starts a run.
 */
static int
note_run(struct xbn_store *s, struct xbn_arena *a, char *sl,
	 const uint8_t *fields, uint64_t ino, bool *first)
{
	struct xbn_run *r = a->nruns ? &a->runs[a->nruns - 1] : NULL;
	uint64_t chunk = ino >> 6, bit = ino & 63;

	*first = false;
	if (r && r->chunk == chunk && !(r->mask >> bit) &&
	    fields == a->fields_end &&
	    sl == r->base + (size_t)xbn_popcount(r->mask) * s->lay.slot) {
		r->mask |= 1ULL << bit;
		return 0;
	}
	if (xbl_grow((void **)&a->runs, &a->runs_cap, a->nruns + 1,
		     sizeof(*a->runs)))
		return -ENOMEM;
	a->runs[a->nruns++] = (struct xbn_run){ chunk, 1ULL << bit, sl,
						fields };
	*first = true;
	return 0;
}

struct xbn_slot *
xbn_arena_add(struct xbn_store *s, struct xbn_arena *a,
	      const struct xfs_bulkstat *bs)
{
	const struct xbn_layout *l = &s->lay;
	struct xbn_block *b = a->blocks, *f = a->stream;
	uint8_t *fields = NULL;
	char *sl;
	bool first;

	if ((!b || b->n == b->cap) &&
	    !(b = new_block(s, &a->blocks, l->slot, BLOCK_MIN_SLOTS)))
		return NULL;
	if (l->nsfields) {
		if ((!f || f->cap - f->n < l->stream_max) &&
		    !(f = new_block(s, &a->stream, 1, l->stream_max)))
			return NULL;
		fields = (uint8_t *)f->data + f->n;
	}
	sl = (char *)b->data + (size_t)b->n * l->slot;
	if (note_run(s, a, sl, fields, bs->bs_ino, &first))
		return NULL;
	b->n++;
	if (fields) {
		if (first)
			memset(a->prev, 0, sizeof(a->prev));
		a->fields_end = stream_put(l, fields, bs, a->prev);
		f->n = (uint32_t)(a->fields_end - (uint8_t *)f->data);
	} else {
		xbn_pack(l, sl, bs);
	}
	return (struct xbn_slot *)sl;
}

static void
insert_run(struct xbn_store *s, const struct xbn_run *r)
{
	uint64_t h = (xbn_hash64(r->chunk) >> 20) & s->runmask;

	while (s->runs[h].mask)
		h = (h + 1) & s->runmask;
	s->runs[h] = *r;
}

/* A table of @size entries (a power of 2) for the runs, from the
 * budget too: about a byte per inode, which a walk looks up at random
 * (spilled, a lookup may fault its page back in).  The old table's runs
 * move into it. */
static int
grow_index(struct xbn_store *s, uint64_t size)
{
	struct xbn_run *old = s->runs;
	size_t old_bytes = s->runs_bytes, bytes = size * sizeof(*s->runs);
	uint64_t i, old_size = old ? s->runmask + 1 : 0;

	s->runs = xbn_alloc_block(s->mem, bytes, &s->runs_bytes,
				  bytes >= XBN_BLOCK_ALIGN);
	if (!s->runs) {
		s->runs = old;
		s->runs_bytes = old_bytes;
		return s->mem->err ? s->mem->err : -ENOMEM;
	}
	if (!xbn_spilled(s->mem, s->runs))	/* the file's are 0 */
		memset(s->runs, 0, bytes);
	s->bytes += s->runs_bytes;
	s->runmask = size - 1;
	for (i = 0; i < old_size; i++) {
		if (old[i].mask)
			insert_run(s, &old[i]);
	}
	if (old) {
		s->bytes -= old_bytes;
		xbn_free_block(s->mem, old, old_bytes);
	}
	return 0;
}

int
xbn_store_index(struct xbn_store *s, uint64_t *kept, uint64_t *dropped)
{
	struct xbn_arena *a, *fresh = s->pool, **tail = &s->all;
	uint64_t size = 16, nruns = s->nruns;
	size_t i;
	int ret;

	/* Every batch is over: all arenas are back in the pool.  Those
	 * filled since the last call join the others. */
	while (*tail)
		tail = &(*tail)->next;
	*tail = fresh;
	s->pool = NULL;
	*kept = *dropped = 0;
	s->more_links = 0;
	for (a = s->all; a; a = a->next) {
		*kept += a->kept;
		*dropped += a->dropped;
		s->more_links += a->more_links;
		nruns += a->nruns;
	}
	while (size < 2 * nruns)
		size *= 2;
	if (!s->runs || size > s->runmask + 1) {
		ret = grow_index(s, size);
		if (ret)
			return ret;
	}
	s->nruns = nruns;
	for (a = fresh; a; a = a->next) {
		for (i = 0; i < a->nruns; i++)
			insert_run(s, &a->runs[i]);
		free(a->runs);
		a->runs = NULL;
		a->nruns = a->runs_cap = 0;
	}
	return 0;
}

static int
cmp_run(const void *a, const void *b)
{
	const struct xbn_run *x = a, *y = b;

	if (x->chunk != y->chunk)
		return x->chunk < y->chunk ? -1 : 1;
	return __builtin_ctzll(x->mask) < __builtin_ctzll(y->mask) ? -1 : 1;
}

int
xbn_store_runs(const struct xbn_store *s, struct xbn_run **runs, size_t *n)
{
	uint64_t h;

	*n = 0;
	*runs = malloc((s->nruns ? s->nruns : 1) * sizeof(**runs));
	if (!*runs)
		return -ENOMEM;
	for (h = 0; s->runs && h <= s->runmask; h++)
		if (s->runs[h].mask)
			(*runs)[(*n)++] = s->runs[h];
	qsort(*runs, *n, sizeof(**runs), cmp_run);
	return 0;
}
