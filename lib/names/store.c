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
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include "store.h"

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

struct xbn_block {
	struct xbn_block	*next;
	uint32_t		n;		/* slots used */
	uint32_t		cap;
	uint64_t		data[];		/* slots */
};

void
xbn_layout_init(struct xbn_layout *l, uint32_t fields)
{
	uint16_t len, dst = sizeof(struct xbn_slot);
	size_t i;

	l->npieces = 0;
	/* 8-byte pieces first, then 4 */
	for (len = 8; len >= 4; len /= 2) {
		for (i = 0; i < NFIELD_PIECES; i++) {
			struct xbn_piece *p;

			if (!(fields & field_pieces[i].flag) ||
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

static void
free_blocks(struct xbn_store *s, struct xbn_block *b)
{
	while (b) {
		struct xbn_block *next = b->next;

		xbn_free_block(s->mem, b,
			       sizeof(*b) + (size_t)b->cap * s->lay.slot);
		b = next;
	}
}

static void
free_arenas(struct xbn_store *s, struct xbn_arena *a)
{
	while (a) {
		struct xbn_arena *next = a->next;

		free_blocks(s, a->blocks);
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
	free(s->runs);
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

static struct xbn_slot *
block_slot(const struct xbn_store *s, const struct xbn_block *b, uint32_t i)
{
	return (struct xbn_slot *)((char *)b->data + (size_t)i * s->lay.slot);
}

/* Note slot @sl of inode @ino in @a's runs: the last run goes on if @sl
 * follows its last slot and @ino is above its inodes in the same chunk. */
static int
note_run(struct xbn_store *s, struct xbn_arena *a, char *sl, uint64_t ino)
{
	struct xbn_run *r = a->nruns ? &a->runs[a->nruns - 1] : NULL;
	uint64_t chunk = ino >> 6, bit = ino & 63;

	if (r && r->chunk == chunk && !(r->mask >> bit) &&
	    sl == r->base + (size_t)xbn_popcount(r->mask) * s->lay.slot) {
		r->mask |= 1ULL << bit;
		return 0;
	}
	if (xbl_grow((void **)&a->runs, &a->runs_cap, a->nruns + 1,
		     sizeof(*a->runs)))
		return -ENOMEM;
	a->runs[a->nruns++] = (struct xbn_run){ chunk, 1ULL << bit, sl };
	return 0;
}

struct xbn_slot *
xbn_arena_add(struct xbn_store *s, struct xbn_arena *a, uint64_t ino)
{
	struct xbn_block *b = a->blocks;
	struct xbn_slot *sl;

	if (!b || b->n == b->cap) {
		/* the header inside the huge page: one more slot would take
		 * a second */
		uint32_t cap = (uint32_t)((BLOCK_BYTES - sizeof(*b)) /
					  s->lay.slot);
		size_t bytes;

		if (cap < BLOCK_MIN_SLOTS)
			cap = BLOCK_MIN_SLOTS;
		b = xbn_alloc_block(s->mem,
				    sizeof(*b) + (size_t)cap * s->lay.slot,
				    &bytes, true);
		if (!b)
			return NULL;
		cap = (uint32_t)((bytes - sizeof(*b)) / s->lay.slot);
		b->n = 0;
		b->cap = cap;
		b->next = a->blocks;
		a->blocks = b;
		__atomic_add_fetch(&s->bytes, bytes, __ATOMIC_RELAXED);
	}
	sl = block_slot(s, b, b->n);
	if (note_run(s, a, (char *)sl, ino))
		return NULL;
	b->n++;
	return sl;
}

static void
insert_run(struct xbn_store *s, const struct xbn_run *r)
{
	uint64_t h = (xbn_hash64(r->chunk) >> 20) & s->runmask;

	while (s->runs[h].mask)
		h = (h + 1) & s->runmask;
	s->runs[h] = *r;
}

int
xbn_store_index(struct xbn_store *s, uint64_t *kept, uint64_t *dropped)
{
	struct xbn_arena *a;
	uint64_t size = 16;
	size_t i;

	/* Every batch is over: all arenas are back in the pool. */
	s->all = s->pool;
	s->pool = NULL;
	*kept = *dropped = 0;
	s->nruns = 0;
	s->more_links = 0;
	for (a = s->all; a; a = a->next) {
		*kept += a->kept;
		*dropped += a->dropped;
		s->more_links += a->more_links;
		s->nruns += a->nruns;
	}
	while (size < 2 * s->nruns)
		size *= 2;
	s->runs = calloc(size, sizeof(*s->runs));
	if (!s->runs)
		return -ENOMEM;
	s->bytes += size * sizeof(*s->runs);
	s->runmask = size - 1;
	for (a = s->all; a; a = a->next) {
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
