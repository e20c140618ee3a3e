// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The streaming diff of two snapshots: a merge of their records on
 * (inode number, generation), both in inode order, holding one record of
 * each and the two directory tables (for paths), never the records of
 * either whole.  Each step takes the inode(s) at the head and turns them
 * into a queue of changes (one per name for a created or deleted inode;
 * a rename; names added and removed; the attributes), then hands the
 * queue out before either side moves on.
 *
 * A renamed directory is one change: what lies below it keeps its
 * (parent, name) and so is not listed, unless XBULK_DIFF_EXPAND asks for
 * MOVED lines.  For that the NEW directory table is marked once: each
 * directory that OLD has (same number and generation) under another
 * parent or name, and each directory below one.  XBULK_DIFF_EVERY_NAME
 * (xbulk diff -0 and --deleted0) goes further: every name of NEW whose
 * entry or path changed gets a line of its own, with its OLD path where
 * it had one, so that the two path lists are whole.
 *
 * XBULK_DIFF_SORT_PATH and XBULK_DIFF_FOLD run this stream to its end
 * into a hold (hold.c) before the first change is handed out.
 */
#include <errno.h>
#include <stdlib.h>

#include "hold.h"

#define CANCEL_EVERY	1024

struct qent {
	struct xbulk_snap_change	c;
	size_t				path, old_path;	/* in strs, or -1 */
	uint64_t			parent;	/* of a CREATED or
						   DELETED entry, or 0 */
};

#define NOPATH	((size_t)-1)

struct xbulk_snap_diff {
	struct xbulk_snap		*old, *new;
	uint32_t			flags;
	bool				later;	/* NEW's scan started
						   after OLD's */
	const volatile int		*cancel;
	const struct xbulk_snap_rec	*a, *b;		/* heads, NULL: end */
	bool				started;
	int				took;	/* 1 OLD, 2 NEW: to
							   move past */
	uint64_t			steps;
	uint8_t				*moved;		/* by NEW dir index:
							   1 itself, 2 below */
	struct qent			*q;
	size_t				nq, qcap, qpos;
	char				*strs;
	size_t				slen, scap;
	char				*pbuf;
	size_t				pcap;
	struct snap_hold		*hold;	/* sorting or folding */
	bool				held;	/* the stream is in it */
};

/* Mark NEW's directories that moved, and those below them. */
static int
mark_moved(struct xbulk_snap_diff *d)
{
	const struct snap_dirtab *o = &d->old->dirs, *n = &d->new->dirs;
	size_t i;

	d->moved = calloc(n->n ? n->n : 1, 1);
	if (!d->moved)
		return -ENOMEM;
	for (i = 0; i < n->n; i++) {
		const struct snap_dir *nd = &n->v[i], *od;
		uint32_t k = snap_dirtab_find(o, nd->ino);

		if (k == UINT32_MAX)
			continue;
		od = &o->v[k];
		if (od->gen == nd->gen && (od->parent != nd->parent ||
		    od->namelen != nd->namelen ||
		    memcmp(o->names + od->name, n->names + nd->name,
			   nd->namelen)))
			d->moved[i] = 1;
	}
	for (i = 0; i < n->n && !d->moved[i]; i++)
		;
	if (i == n->n) {		/* none moved: nothing to mark */
		free(d->moved);
		d->moved = NULL;
		return 0;
	}
	/* Below: a walk up to the top or a marked directory (no cycles:
	 * the table is sealed). */
	for (i = 0; i < n->n; i++) {
		uint32_t x = n->v[i].pidx;

		while (x != UINT32_MAX && !d->moved[x])
			x = n->v[x].pidx;
		if (x != UINT32_MAX)
			d->moved[i] |= 2;
	}
	return 0;
}

int
xbulk_snap_diff_new(struct xbulk_snap *old, struct xbulk_snap *new,
		    const struct xbulk_snap_diff_opts *opts,
		    struct xbulk_snap_diff **out)
{
	struct xbulk_snap_diff_opts o = { 0 };
	struct xbulk_snap_diff *d;
	int ret = 0;

	*out = NULL;
	if (!opts)
		return -EINVAL;
	ret = xbl_sized_in(&o, sizeof(o), opts, sizeof(size_t));
	if (ret)
		return ret;
	/* paths start at the top: another top's do not compare (a bind
	 * mount of a directory: what lies outside has no names there) */
	if (!(o.flags & XBULK_DIFF_FORCE) &&
	    (memcmp(old->info.uuid, new->info.uuid, 16) ||
	     old->info.top != new->info.top))
		return -EXDEV;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->old = old;
	d->new = new;
	d->flags = o.flags;
	d->later = new->info.start_sec > old->info.start_sec ||
		   (new->info.start_sec == old->info.start_sec &&
		    new->info.start_nsec > old->info.start_nsec);
	d->cancel = o.cancel;
	if (o.flags & (XBULK_DIFF_EXPAND | XBULK_DIFF_EVERY_NAME))
		ret = mark_moved(d);
	if (!ret && (o.flags & (XBULK_DIFF_SORT_PATH | XBULK_DIFF_FOLD)))
		ret = snap_hold_new(old, new, o.flags, o.memory, o.tmpdir,
				    &d->hold);
	if (!ret)
		ret = xbulk_snap_rewind(old);
	if (!ret)
		ret = xbulk_snap_rewind(new);
	if (ret) {
		xbulk_snap_diff_free(d);
		return ret;
	}
	*out = d;
	return 0;
}

/* Move @s on: *@head is its record (maybe not decoded yet: snap.h), or
 * NULL at its end. */
static int
next_of(struct xbulk_snap *s, const struct xbulk_snap_rec **head)
{
	int ret = snap_next(s);

	*head = ret == 1 ? &s->rec : NULL;
	return ret < 0 ? ret : 0;
}

static int
next_old(struct xbulk_snap_diff *d)
{
	return next_of(d->old, &d->a);
}

static int
next_new(struct xbulk_snap_diff *d)
{
	return next_of(d->new, &d->b);
}

/* The same bytes in both files (the flags byte aside), OLD's record
 * not racy (see compare()): no change. */
static bool
same_bytes(const struct xbulk_snap_diff *d)
{
	const struct snap_raw *x = &d->old->raw, *y = &d->new->raw;

	return d->old->has_raw && d->new->has_raw && !d->old->decoded &&
	       !d->new->decoded && x->len == y->len && x->len &&
	       (!d->later || !(x->body[0] & XBULK_SNAP_CHANGING)) &&
	       !memcmp(x->body + 1, y->body + 1, x->len - 1);
}

/* Copy the path of @l in @s into the strings; its offset, or NOPATH. */
static int
keep_path(struct xbulk_snap_diff *d, const struct xbulk_snap *s,
	  const struct xbulk_snap_link *l, size_t *off)
{
	long len = xbulk_snap_path(s, l, &d->pbuf, &d->pcap);

	*off = NOPATH;
	if (len == -ENOENT)
		return 0;
	if (len < 0)
		return (int)len;
	if (xbl_grow((void **)&d->strs, &d->scap, d->slen + (size_t)len + 1, 1))
		return -ENOMEM;
	memcpy(d->strs + d->slen, d->pbuf, (size_t)len + 1);
	*off = d->slen;
	d->slen += (size_t)len + 1;
	return 0;
}

/* Queue a change: @ol a name in OLD (or NULL), @nl one in NEW; a record
 * without names gets NULL paths. */
static int
queue(struct xbulk_snap_diff *d, enum xbulk_change_kind kind, uint32_t facets,
      const struct xbulk_snap_link *ol, const struct xbulk_snap_link *nl)
{
	const struct xbulk_snap_rec *a = kind == XBULK_CHANGE_CREATED ? NULL :
					 d->a;
	const struct xbulk_snap_rec *b = kind == XBULK_CHANGE_DELETED ? NULL :
					 d->b;
	struct qent *e;
	size_t p = NOPATH, op = NOPATH;
	int ret = 0;

	/* the top has no name: its path is "." */
	if (kind == XBULK_CHANGE_DELETED || kind == XBULK_CHANGE_UNLINKED) {
		if (ol || a->bs->bs_ino == d->old->info.top)
			ret = keep_path(d, d->old, ol, &p);
	} else {
		if (nl || b->bs->bs_ino == d->new->info.top)
			ret = keep_path(d, d->new, nl, &p);
		if (!ret && ol)
			ret = keep_path(d, d->old, ol, &op);
	}
	if (!ret)
		ret = xbl_grow((void **)&d->q, &d->qcap, d->nq + 1, sizeof(*d->q));
	if (ret)
		return ret;
	e = &d->q[d->nq++];
	memset(e, 0, sizeof(*e));
	e->c.kind = kind;
	e->c.facets = facets;
	e->c.old = a ? a->bs : NULL;
	e->c.new = b ? b->bs : NULL;
	if ((a && (a->flags & XBULK_SNAP_CHANGING)) ||
	    (b && (b->flags & XBULK_SNAP_CHANGING)))
		e->c.flags |= XBULK_CHANGE_CHANGING;
	e->path = p;
	e->old_path = op;
	if (kind == XBULK_CHANGE_DELETED && ol)
		e->parent = ol->parent;
	else if (kind == XBULK_CHANGE_CREATED && nl)
		e->parent = nl->parent;
	return 0;
}

/* Every name of @r (or one NULL name if it has none). */
static int
queue_all(struct xbulk_snap_diff *d, enum xbulk_change_kind kind,
	  const struct xbulk_snap_rec *r)
{
	uint32_t i;
	int ret = 0;

	if (!r->nlinks)
		return queue(d, kind, 0, NULL, NULL);
	for (i = 0; i < r->nlinks && !ret; i++)
		ret = kind == XBULK_CHANGE_DELETED ?
		      queue(d, kind, 0, &r->links[i], NULL) :
		      queue(d, kind, 0, NULL, &r->links[i]);
	return ret;
}

/* Is @l one of the @n names at @v?  A record's names are in
 * snap_link_cmp() order (the decoder refuses others, the live scan sorts
 * them): a binary search, as an inode can have 100,000 names. */
static bool
has_link(const struct xbulk_snap_link *v, uint32_t n,
	 const struct xbulk_snap_link *l)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (snap_link_cmp(&v[mid], l) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !snap_link_cmp(&v[lo], l);
}

/* Is NEW's directory @parent one that moved or lies below one? */
static bool
below_moved(const struct xbulk_snap_diff *d, uint64_t parent)
{
	uint32_t k;

	if (!d->moved)
		return false;
	k = snap_dirtab_find(&d->new->dirs, parent);
	return k != UINT32_MAX && d->moved[k];
}

/* MOVED lines for the names of an unchanged inode below a moved
 * directory. */
static int
queue_moved(struct xbulk_snap_diff *d)
{
	const struct xbulk_snap_rec *b = d->b;
	uint32_t i;
	int ret = 0;

	for (i = 0; i < b->nlinks && !ret; i++)
		if (below_moved(d, b->links[i].parent))
			ret = queue(d, XBULK_CHANGE_MOVED, 0, &b->links[i],
				    &b->links[i]);
	return ret;
}

/*
 * XBULK_DIFF_EVERY_NAME, for the names NEW kept of an inode (those it
 * gained are linked lines): when @list (facets @f, OLD's record racy,
 * or a name gained), a modified (or entries) line for each (its path in OLD as
 * old_path); else a moved line for each below a moved directory.  The
 * top and inodes without names get one line.
 */
static int
queue_kept(struct xbulk_snap_diff *d, uint32_t f, bool list)
{
	const struct xbulk_snap_rec *a = d->a, *b = d->b;
	enum xbulk_change_kind kind = snap_entries_only(a->bs, b->bs, f) ?
				      XBULK_CHANGE_ENTRIES :
				      XBULK_CHANGE_MODIFIED;
	uint32_t i;
	int ret = 0;

	if (!b->nlinks)
		return list ? queue(d, kind, f, NULL, NULL) : 0;
	for (i = 0; i < b->nlinks && !ret; i++) {
		const struct xbulk_snap_link *l = &b->links[i];

		if (!has_link(a->links, a->nlinks, l))
			continue;
		if (list)
			ret = queue(d, kind, f, l, l);
		else if (below_moved(d, l->parent))
			ret = queue(d, XBULK_CHANGE_MOVED, 0, l, l);
	}
	return ret;
}

/* The inode's changes queued (all of them) are XBULK_CHANGE_LINK_ONLY. */
static void
mark_link_only(struct xbulk_snap_diff *d)
{
	size_t i;

	for (i = 0; i < d->nq; i++)
		d->q[i].c.flags |= XBULK_CHANGE_LINK_ONLY;
}

/*
 * One inode in both, same generation.  OLD's record read while the
 * inode changed (XBULK_SNAP_CHANGING) is racy: a write after that read
 * in the same clock tick left its times as they were (timestamps are
 * the clock's ticks), so the same record in a later NEW proves nothing;
 * it is listed as modified without facets, as git treats a racily clean
 * index entry.
 */
static int
compare(struct xbulk_snap_diff *d)
{
	const struct xbulk_snap_rec *a = d->a, *b = d->b;
	uint32_t f = snap_facets(a->bs, b->bs, d->flags), i, nrm = 0, nadd = 0;
	const struct xbulk_snap_link *rm = NULL, *add = NULL;
	bool every = d->flags & XBULK_DIFF_EVERY_NAME;
	bool racy = d->later && (a->flags & XBULK_SNAP_CHANGING);
	int ret = 0;

	for (i = 0; i < a->nlinks; i++)
		if (!has_link(b->links, b->nlinks, &a->links[i])) {
			nrm++;
			rm = &a->links[i];
		}
	for (i = 0; i < b->nlinks; i++)
		if (!has_link(a->links, a->nlinks, &b->links[i])) {
			nadd++;
			add = &b->links[i];
		}
	if (a->nlinks == 1 && b->nlinks == 1 && nrm == 1)
		/* ctime moves with any rename: not a facet of its own */
		return queue(d, XBULK_CHANGE_RENAMED, f & ~XBULK_FACET_CTIME,
			     rm, add);
	if (nrm || nadd) {
		/* a name added or removed moves nlink and ctime */
		f &= ~(XBULK_FACET_NLINK | XBULK_FACET_CTIME);
		for (i = 0; i < a->nlinks && !ret; i++)
			if (!has_link(b->links, b->nlinks, &a->links[i]))
				ret = queue(d, XBULK_CHANGE_UNLINKED, 0,
					    &a->links[i], NULL);
		for (i = 0; i < b->nlinks && !ret; i++)
			if (!has_link(a->links, a->nlinks, &b->links[i]))
				ret = queue(d, XBULK_CHANGE_LINKED,
					    every && nadd == b->nlinks ? f : 0,
					    NULL, &b->links[i]);
	}
	/* a name gained: the kept names too, so that a path list holds
	 * every name of the link (rsync -H links only names it lists) */
	if (every) {
		if (ret || (nadd && nadd == b->nlinks))
			return ret;
		ret = queue_kept(d, f, f || racy || nadd);
		if (!ret && nadd && !f &&
		    !((a->flags | b->flags) & XBULK_SNAP_CHANGING))
			mark_link_only(d);
		return ret;
	}
	if (!ret && (f || racy))
		ret = queue(d, snap_entries_only(a->bs, b->bs, f) ?
			       XBULK_CHANGE_ENTRIES : XBULK_CHANGE_MODIFIED,
			    f, NULL, b->nlinks ? &b->links[0] : NULL);
	if (!ret && !f && !racy && !nrm && !nadd && d->moved)
		ret = queue_moved(d);
	return ret;
}

/* Fill the queue from the heads; 1, 2, 3: which to move past. */
static int
step(struct xbulk_snap_diff *d)
{
	const struct xbulk_snap_rec *a = d->a, *b = d->b;
	uint64_t ai = a ? snap_head_ino(d->old) : 0;
	uint64_t bi = b ? snap_head_ino(d->new) : 0;
	int ret;

	d->nq = d->qpos = d->slen = 0;
	if (a && (!b || ai < bi)) {
		ret = snap_decode(d->old);
		if (!ret)
			ret = queue_all(d, XBULK_CHANGE_DELETED, a);
		return ret ? ret : 1;
	}
	if (!a || bi < ai) {
		ret = snap_decode(d->new);
		if (!ret)
			ret = queue_all(d, XBULK_CHANGE_CREATED, b);
		return ret ? ret : 2;
	}
	/* the same inode, most often unchanged: its bytes say so */
	if (!d->moved && same_bytes(d))
		return 3;
	ret = snap_decode(d->old);
	if (!ret)
		ret = snap_decode(d->new);
	if (ret)
		return ret;
	if (a->bs->bs_gen != b->bs->bs_gen ||
	    ((a->bs->bs_mode ^ b->bs->bs_mode) & 0170000)) {
		ret = queue_all(d, XBULK_CHANGE_DELETED, a);
		if (!ret)
			ret = queue_all(d, XBULK_CHANGE_CREATED, b);
	} else {
		ret = compare(d);
	}
	return ret ? ret : 3;
}

/* The next change of the stream, in inode order: 1 and *@e set, 0 at
 * the end, or an error. */
static int
stream_next(struct xbulk_snap_diff *d, struct qent **e)
{
	int ret;

	*e = NULL;
	if (!d->started) {
		d->started = true;
		ret = next_old(d);
		if (!ret)
			ret = next_new(d);
		if (ret)
			return ret;
	}
	while (d->qpos >= d->nq) {
		/* the queue is out: move past the records that made it */
		if ((d->took & 1) && (ret = next_old(d)))
			return ret;
		if ((d->took & 2) && (ret = next_new(d)))
			return ret;
		d->took = 0;
		if (!d->a && !d->b)
			return 0;
		if ((++d->steps % CANCEL_EVERY) == 0 &&
		    xbl_cancelled(d->cancel))
			return -EINTR;
		ret = step(d);
		if (ret < 0)
			return ret;
		d->took = ret;
	}
	*e = &d->q[d->qpos++];
	(*e)->c.path = (*e)->path == NOPATH ? NULL : d->strs + (*e)->path;
	(*e)->c.old_path = (*e)->old_path == NOPATH ? NULL :
			   d->strs + (*e)->old_path;
	return 1;
}

/* The whole stream into the hold, sealed. */
static int
hold_all(struct xbulk_snap_diff *d)
{
	struct qent *e;
	int ret;

	while ((ret = stream_next(d, &e)) == 1)
		if ((ret = snap_hold_put(d->hold, &e->c, e->parent)))
			return ret;
	return ret ? ret : snap_hold_seal(d->hold);
}

int
xbulk_snap_diff_next(struct xbulk_snap_diff *d,
		     const struct xbulk_snap_change **c)
{
	struct qent *e;
	int ret;

	*c = NULL;
	if (d->hold) {
		if (!d->held) {
			ret = hold_all(d);
			if (ret)
				return ret;
			d->held = true;
		}
		return snap_hold_next(d->hold, d->cancel, c);
	}
	ret = stream_next(d, &e);
	if (ret == 1)
		*c = &e->c;
	return ret;
}

void
xbulk_snap_diff_free(struct xbulk_snap_diff *d)
{
	if (!d)
		return;
	snap_hold_free(d->hold);
	free(d->moved);
	free(d->q);
	free(d->strs);
	free(d->pbuf);
	free(d);
}
