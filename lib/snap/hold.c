// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The changes a diff holds (hold.h): to hand them out in path order
 * (XBULK_DIFF_SORT_PATH), or with each created or deleted subtree folded
 * into its directory's change (XBULK_DIFF_FOLD), whose counts are whole
 * only once the last record was read.
 *
 * Folding.  A directory of OLD that NEW does not have (that number with
 * that generation) is gone; the subtree of a gone directory whose parent
 * is not gone is that directory and every gone directory below it
 * through gone ones.  Each is numbered once, from the two directory
 * tables, before the first record: 4 bytes per directory and side, 32 per
 * subtree.  A DELETED change of a name in a gone directory is then
 * counted into its subtree and dropped; the topmost directory's own
 * DELETED change is held and handed out with the counts.  Created
 * subtrees are the same with OLD and NEW swapped.  What survived in a
 * deleted subtree (RENAMED out, a name kept elsewhere: UNLINKED) and what
 * came into a created one (RENAMED, LINKED) keeps its change.
 *
 * Holding.  A change is copied into blocks of the memory budget
 * (lib/names/spill.c: anonymous memory, then the spill file): a header,
 * both records encoded as a snapshot does without their names (about 40
 * bytes each), the paths.  Sealing indexes them (8 bytes a change, in
 * the budget too) and sorts the index by path (qsort(): pointers stay
 * valid whether a block is in memory or spilled, at any budget, so the
 * order is the same at any budget).  Handing out decodes one at a time.
 */
#include <errno.h>
#include <stdlib.h>

#include "hold.h"
#include "../names/names.h"

#define NONE		UINT32_MAX
#define UNSET		(UINT32_MAX - 1)
#define CANCEL_EVERY	1024

/* A held change: this header, then OLD's and NEW's records encoded
 * (snap_encode_rec(), no names), @path and @old_path with their NULs. */
struct hent {
	uint64_t	seq;		/* its place in the stream */
	uint32_t	len;		/* bytes, header included, 8-aligned */
	uint32_t	sub;		/* the subtree it stands for, or NONE */
	uint32_t	kind;
	uint32_t	facets;
	uint32_t	flags;
	uint32_t	olen, nlen;	/* of the records; 0: none */
	uint32_t	plen, oplen;	/* of the paths and NUL; 0: NULL */
	uint32_t	pad;
	char		data[];
};

struct hblock {
	char		*p;
	size_t		cap, used;
};

/* What a folded line stands for. */
struct subtree {
	uint64_t	inodes, bytes;
	uint64_t	last;		/* the inode counted last */
	bool		changing;
};

/* One side's directories: by index in @t, the subtree each is in. */
struct side {
	const struct snap_dirtab *t;
	uint32_t		*sub;		/* NONE: not gone */
};

struct snap_hold {
	struct xbn_spill	own;		/* NEW is a file */
	bool			has_own;
	struct xbn_spill	*mem;
	uint32_t		flags;
	struct side		del, cre;	/* OLD's and NEW's */
	struct subtree		*subs;
	uint32_t		nsubs;
	struct hblock		*blk;
	size_t			nblk, blkcap;
	struct hent		**idx;
	size_t			idxbytes;
	uint64_t		n, pos;
	uint8_t			*enc;		/* OLD's, NEW's record:
						   SNAP_REC_MAX each */
	struct xbulk_snap_change c;		/* handed out */
	struct xfs_bulkstat	obs, nbs;
	struct xbulk_snap_link	*links;
	size_t			lcap;
};

/* Is directory @x of @t gone from @other?  The top never is. */
static bool
gone(const struct snap_dirtab *t, const struct snap_dirtab *other, uint32_t x)
{
	const struct snap_dir *d = &t->v[x];
	uint32_t k;

	if (d->ino == t->top)
		return false;
	k = snap_dirtab_find(other, d->ino);
	return k == UINT32_MAX || other->v[k].gen != d->gen;
}

/* Number the subtrees of @t's directories gone from @other (@s->sub). */
static int
side_init(struct snap_hold *h, struct side *s, const struct snap_dirtab *t,
	  const struct snap_dirtab *other)
{
	uint32_t *stack;
	size_t i;

	s->t = t;
	s->sub = malloc((t->n ? t->n : 1) * sizeof(*s->sub));
	stack = malloc((t->n ? t->n : 1) * sizeof(*stack));
	if (!s->sub || !stack) {
		free(stack);
		return -ENOMEM;
	}
	for (i = 0; i < t->n; i++)
		s->sub[i] = UNSET;
	/* Up from each directory to one settled or past the top (a sealed
	 * table has no cycle), then settle them from the topmost down. */
	for (i = 0; i < t->n; i++) {
		uint32_t x = (uint32_t)i;
		size_t len = 0;

		while (x != UINT32_MAX && s->sub[x] == UNSET) {
			stack[len++] = x;
			x = t->v[x].pidx;
		}
		while (len--) {
			uint32_t y = stack[len], p = t->v[y].pidx;

			if (!gone(t, other, y))
				s->sub[y] = NONE;
			else if (p != UINT32_MAX && s->sub[p] != NONE)
				s->sub[y] = s->sub[p];
			else
				s->sub[y] = h->nsubs++;
		}
	}
	free(stack);
	return 0;
}

int
snap_hold_new(const struct xbulk_snap *old, const struct xbulk_snap *new,
	      uint32_t flags, uint64_t memory, const char *tmpdir,
	      struct snap_hold **out)
{
	struct snap_hold *h = calloc(1, sizeof(*h));
	int ret = 0;

	*out = NULL;
	if (!h)
		return -ENOMEM;
	h->flags = flags;
	h->enc = malloc(2 * SNAP_REC_MAX);
	if (!h->enc)
		ret = -ENOMEM;
	/* A live NEW: one budget for its scan's cursor and for us (the
	 * names object is the scan's, which only we use now). */
	if (!ret && new->names) {
		h->mem = &((struct xbulk_names *)new->names)->spill;
	} else if (!ret) {
		/* no filesystem is scanned: any directory will do */
		ret = xbn_spill_init(&h->own, memory, tmpdir, (dev_t)-1);
		h->has_own = !ret;
		h->mem = &h->own;
	}
	if (!ret && (flags & XBULK_DIFF_FOLD)) {
		ret = side_init(h, &h->del, &old->dirs, &new->dirs);
		if (!ret)
			ret = side_init(h, &h->cre, &new->dirs, &old->dirs);
		if (!ret && !(h->subs = calloc(h->nsubs ? h->nsubs : 1,
					       sizeof(*h->subs))))
			ret = -ENOMEM;
	}
	if (ret) {
		snap_hold_free(h);
		return ret;
	}
	*out = h;
	return 0;
}

/* The subtree of the entry of @c in @parent, or of @c's directory if it
 * is the topmost of one: its number, or NONE. */
static uint32_t
subtree_of(const struct snap_hold *h, const struct xbulk_snap_change *c,
	   uint64_t parent, bool *top)
{
	bool del = c->kind == XBULK_CHANGE_DELETED;
	const struct side *s = del ? &h->del : &h->cre;
	const struct xfs_bulkstat *bs = del ? c->old : c->new;
	uint32_t k;

	*top = false;
	if (parent && (k = snap_dirtab_find(s->t, parent)) != UINT32_MAX &&
	    s->sub[k] != NONE)
		return s->sub[k];
	if (!snap_is_dir(bs) || (k = snap_dirtab_find(s->t, bs->bs_ino)) ==
				UINT32_MAX)
		return NONE;
	*top = s->sub[k] != NONE;
	return s->sub[k];
}

/* Count the inode of @c into subtree @s (once, whatever its names). */
static void
count(struct subtree *s, const struct xbulk_snap_change *c)
{
	const struct xfs_bulkstat *bs = c->new ? c->new : c->old;

	if (c->flags & XBULK_CHANGE_CHANGING)
		s->changing = true;
	if (s->inodes && s->last == bs->bs_ino)
		return;
	s->last = bs->bs_ino;
	s->inodes++;
	if (!snap_is_dir(bs))
		s->bytes += bs->bs_size;
}

/* Room for @len bytes in the last block, or a new block: 0 or the
 * budget's error. */
static int
room(struct snap_hold *h, size_t len)
{
	struct hblock *b = h->nblk ? &h->blk[h->nblk - 1] : NULL;
	size_t got;

	if (b && b->cap - b->used >= len)
		return 0;
	if (xbl_grow((void **)&h->blk, &h->blkcap, h->nblk + 1,
		     sizeof(*h->blk)))
		return -ENOMEM;
	b = &h->blk[h->nblk];
	b->p = xbn_alloc_block(h->mem, len > XBN_BLOCK_ALIGN ? len :
				       XBN_BLOCK_ALIGN, &got, true);
	if (!b->p)
		return h->mem->err ? h->mem->err : -ENOMEM;
	b->cap = got;
	b->used = 0;
	h->nblk++;
	return 0;
}

/* Encode @bs (no names, NULL: none) at @dst (SNAP_REC_MAX bytes): its
 * length. */
static uint32_t
encode(uint8_t *dst, const struct xfs_bulkstat *bs)
{
	struct xbulk_snap_rec r = { .bs = bs };
	uint32_t next = 0;

	return bs ? (uint32_t)snap_encode_rec(dst, 0, &r, &next) : 0;
}

int
snap_hold_put(struct snap_hold *h, const struct xbulk_snap_change *c,
	      uint64_t parent)
{
	uint32_t sub = NONE, olen, nlen, plen, oplen;
	struct hent *e;
	struct hblock *b;
	size_t len;
	bool top = false;
	char *p;
	int ret;

	if ((h->flags & XBULK_DIFF_FOLD) &&
	    (c->kind == XBULK_CHANGE_DELETED ||
	     c->kind == XBULK_CHANGE_CREATED)) {
		sub = subtree_of(h, c, parent, &top);
		if (sub != NONE)
			count(&h->subs[sub], c);
		if (sub != NONE && !top)
			return 0;		/* folded */
	}
	xbn_spill_tick(h->mem, 1);
	plen = c->path ? (uint32_t)strlen(c->path) + 1 : 0;
	oplen = c->old_path ? (uint32_t)strlen(c->old_path) + 1 : 0;
	olen = encode(h->enc, c->old);
	nlen = encode(h->enc + SNAP_REC_MAX, c->new);
	len = (sizeof(*e) + olen + nlen + plen + oplen + 7) & ~(size_t)7;
	ret = room(h, len);
	if (ret)
		return ret;
	b = &h->blk[h->nblk - 1];
	e = (struct hent *)(b->p + b->used);
	b->used += len;
	*e = (struct hent){ .seq = h->n++, .len = (uint32_t)len, .sub = sub,
			    .kind = c->kind, .facets = c->facets,
			    .flags = c->flags, .olen = olen, .nlen = nlen,
			    .plen = plen, .oplen = oplen };
	p = e->data;
	memcpy(p, h->enc, olen);
	memcpy(p + olen, h->enc + SNAP_REC_MAX, nlen);
	p += olen + nlen;
	memcpy(p, c->path ? c->path : "", plen);
	memcpy(p + plen, c->old_path ? c->old_path : "", oplen);
	return 0;
}

static const char *
path_of(const struct hent *e)
{
	return e->plen ? e->data + e->olen + e->nlen : NULL;
}

/* Path order (strcmp), no path last, then the stream's order. */
static int
ent_cmp(const void *x, const void *y, void *arg)
{
	const struct hent *a = *(struct hent *const *)x;
	const struct hent *b = *(struct hent *const *)y;
	const char *pa = path_of(a), *pb = path_of(b);
	int c = 0;

	xbn_spill_tick(arg, 1);
	if (pa && pb)
		c = strcmp(pa, pb);
	else if (pa || pb)
		c = pa ? -1 : 1;
	return c ? c : (a->seq > b->seq) - (a->seq < b->seq);
}

int
snap_hold_seal(struct snap_hold *h)
{
	size_t i, k = 0, got;
	uint64_t off;

	if (!h->n)
		return 0;
	h->idx = xbn_alloc_block(h->mem, h->n * sizeof(*h->idx), &got, true);
	if (!h->idx)
		return h->mem->err ? h->mem->err : -ENOMEM;
	h->idxbytes = got;
	for (i = 0; i < h->nblk; i++)
		for (off = 0; off < h->blk[i].used;
		     off += ((struct hent *)(h->blk[i].p + off))->len)
			h->idx[k++] = (struct hent *)(h->blk[i].p + off);
	if (h->flags & XBULK_DIFF_SORT_PATH)
		qsort_r(h->idx, h->n, sizeof(*h->idx), ent_cmp, h->mem);
	return 0;
}

/* Decode the record of @len bytes at @p into @bs: 0 or -ENOMEM. */
static int
decode(struct snap_hold *h, const char *p, uint32_t len,
       struct xfs_bulkstat *bs)
{
	const uint8_t *q = (const uint8_t *)p;
	struct snap_raw raw;
	uint32_t flags, n;
	int ret;

	ret = snap_split(&q, q + len, 0, &raw);
	if (!ret)
		ret = snap_decode_rec(&raw, bs, &flags, &h->links, &h->lcap,
				      &n);
	return ret == -EBADMSG ? -EIO : ret;	/* our own bytes */
}

int
snap_hold_next(struct snap_hold *h, const volatile int *cancel,
	       const struct xbulk_snap_change **c)
{
	const struct hent *e;
	int ret = 0;

	*c = NULL;
	if (h->pos >= h->n)
		return 0;
	if ((h->pos % CANCEL_EVERY) == CANCEL_EVERY - 1 &&
	    xbl_cancelled(cancel))
		return -EINTR;
	xbn_spill_tick(h->mem, 1);
	e = h->idx[h->pos++];
	h->c = (struct xbulk_snap_change){ .kind = e->kind,
		.facets = e->facets, .flags = e->flags, .path = path_of(e),
		.old_path = e->oplen ? e->data + e->olen + e->nlen + e->plen :
			    NULL };
	if (e->olen) {
		ret = decode(h, e->data, e->olen, &h->obs);
		h->c.old = &h->obs;
	}
	if (!ret && e->nlen) {
		ret = decode(h, e->data + e->olen, e->nlen, &h->nbs);
		h->c.new = &h->nbs;
	}
	if (ret)
		return ret;
	if (e->sub != NONE && h->subs[e->sub].inodes > 1) {
		const struct subtree *s = &h->subs[e->sub];

		h->c.flags |= XBULK_CHANGE_SUBTREE |
			      (s->changing ? XBULK_CHANGE_CHANGING : 0);
		h->c.inodes = s->inodes;
		h->c.bytes = s->bytes;
	}
	*c = &h->c;
	return 1;
}

void
snap_hold_free(struct snap_hold *h)
{
	size_t i;

	if (!h)
		return;
	for (i = 0; i < h->nblk; i++)
		xbn_free_block(h->mem, h->blk[i].p, h->blk[i].cap);
	if (h->idx)
		xbn_free_block(h->mem, h->idx, h->idxbytes);
	if (h->has_own)
		xbn_spill_fini(&h->own);
	free(h->blk);
	free(h->del.sub);
	free(h->cre.sub);
	free(h->subs);
	free(h->enc);
	free(h->links);
	free(h);
}
