// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The directory tree: each directory hangs on exactly one parent, so a
 * walk meets each directory once and can never loop.
 *
 * 1. Link: every entry of every listing that names a directory is an
 *    edge; the first becomes the directory's parent, others are kept
 *    aside.  The readers do it as they read (xbn_link_listing()).
 * 2. Check: a directory with one lister that its ".." names is settled.
 *    One seen under two parents, or whose ".." names another directory
 *    (a rename during the scan, or damage) is re-checked (recheck.c).
 * 3. Cycles: directories that no parent chain from the top reaches but
 *    whose parents loop are re-checked; a loop that stays is damage, and
 *    is cut.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "tree.h"

/* Look at the cancel flag once per this many directories. */
#define CANCEL_EVERY	1024

const uint8_t *
xbn_find_name(const struct xbn_dir *d, const char *name, size_t len)
{
	const uint8_t *e, *end = d->list + d->listlen;

	for (e = d->list; e && e < end; e = xbn_ent_next(e)) {
		if (xbn_ent_namelen(e) == len &&
		    !memcmp(xbn_ent_name(e), name, len))
			return e;
	}
	return NULL;
}

/* The directory an entry names, or NULL (no directory, or not kept). */
static struct xbn_dir *
entry_dir(const struct xbulk_names *nm, const uint8_t *e, uint32_t *c)
{
	unsigned int dt = xbn_ent_dtype(e);
	struct xbn_slot *slot;

	if (dt != DT_DIR && dt != DT_UNKNOWN)
		return NULL;
	slot = xbn_lookup(&nm->store, xbn_ent_ino(e));
	if (!slot || !S_ISDIR(slot->mode))
		return NULL;
	*c = slot->aux;
	return xbn_dir(&nm->dirs, slot->aux);
}

static int
edge_add(struct xbn_links *x, uint32_t c, uint32_t p, uint64_t off)
{
	if (xbl_grow((void **)&x->v, &x->cap, x->n + 1, sizeof(*x->v)))
		return -ENOMEM;
	x->v[x->n++] = (struct xbn_edge){ .c = c, .p = p, .off = off };
	return 0;
}

/* Step 1, for one listing: parents; a second lister goes to @links. */
int
xbn_link_listing(struct xbulk_names *nm, uint32_t p, struct xbn_links *links)
{
	const struct xbn_dir *pd = xbn_dir(&nm->dirs, p);
	const uint8_t *e, *end = pd->list + pd->listlen;

	for (e = pd->list; e && e < end; e = xbn_ent_next(e)) {
		uint64_t off = (uint64_t)(e - pd->list);
		struct xbn_dir *cd;
		uint32_t c;

		xbn_spill_tick(&nm->spill, 1);
		cd = entry_dir(nm, e, &c);
		if (!cd) {
			if (xbn_ent_dtype(e) == DT_DIR)
				links->stale++;
			continue;
		}
		if (__atomic_fetch_add(&cd->nlisters, 1, __ATOMIC_RELAXED)) {
			if (edge_add(links, c, p, off))
				return -ENOMEM;
			continue;
		}
		cd->parent = p;
		cd->entry_off = off;
	}
	return 0;
}

static int
cmp_edge(const void *a, const void *b)
{
	const struct xbn_edge *x = a, *y = b;

	if (x->c != y->c)
		return x->c < y->c ? -1 : 1;
	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* Is directory @c settled by its one lister and its ".."? */
static bool
settled(const struct xbulk_names *nm, uint32_t c, const struct xbn_dir *d)
{
	if (c == nm->root)
		return d->nlisters == 0;
	if (d->nlisters != 1)
		return d->nlisters == 0;	/* unlisted: nothing to check */
	/* ".." unknown (unreadable): its one lister is all there is */
	return !d->dotdot || xbn_dir(&nm->dirs, d->parent)->ino == d->dotdot;
}

/*
 * Re-check directory @c with its parent and the @n extra edges at @x
 * (sorted): all of them in (parent, offset) order, whichever lister the
 * readers linked first, so that the answer does not depend on timing.
 */
static int
recheck_one(struct xbulk_names *nm, struct xbulk_names_result *r, uint32_t c,
	    const struct xbn_edge *x, size_t n)
{
	struct xbn_edge e[XBN_MAX_EDGES];
	struct xbn_dir *d = xbn_dir(&nm->dirs, c);
	struct xbn_edge first = { c, d->parent, d->entry_off };
	bool put = d->parent == XBN_NONE;
	size_t k = 0, i = 0;

	while (k < XBN_MAX_EDGES && (i < n || !put)) {
		if (!put && (i == n || cmp_edge(&first, &x[i]) < 0)) {
			e[k++] = first;
			put = true;
		} else {
			e[k++] = x[i++];
		}
	}
	return xbn_recheck(nm, r, c, e, k);
}

/* Step 2. */
static int
check_all(struct xbulk_names *nm, struct xbulk_names_result *r,
	  struct xbn_links *extra)
{
	size_t x = 0;
	uint32_t c;
	int ret;

	if (extra->n)
		qsort(extra->v, extra->n, sizeof(*extra->v), cmp_edge);
	for (c = 0; c < nm->dirs.n; c++) {
		struct xbn_dir *d = xbn_dir(&nm->dirs, c);
		size_t x0 = x;

		while (x < extra->n && extra->v[x].c == c)
			x++;
		if (c % CANCEL_EVERY == 0 && xbl_cancelled(nm->cancel))
			return -EINTR;
		xbn_spill_tick(&nm->spill, 1);
		if (d->flags & XBN_DIR_GONE) {
			d->parent = XBN_NONE;
			continue;
		}
		if (settled(nm, c, d))
			continue;
		ret = recheck_one(nm, r, c, extra->v + x0, x - x0);
		if (ret)
			return ret;
	}
	return 0;
}

/* Mark @slot reached, unless it is a mount's on entry @off of @p. */
static void
reach_slot(const struct xbulk_names *nm, struct xbn_slot *slot, uint32_t p,
	   uint64_t off)
{
	size_t i;

	if (slot->flags & XBN_SLOT_MOUNT) {
		for (i = 0; i < nm->nmounts; i++) {
			if (nm->mounts[i].parent == p &&
			    nm->mounts[i].entry_off == off)
				return;
		}
	}
	slot->flags |= XBN_SLOT_REACHED;
}

void
xbn_reach(struct xbulk_names *nm, uint32_t mark, uint32_t *stack)
{
	struct xbn_dir *td = xbn_dir(&nm->dirs, nm->top);
	size_t sp = 0;

	td->mark = mark;
	xbn_lookup(&nm->store, td->ino)->flags |= XBN_SLOT_REACHED;
	stack[sp++] = nm->top;
	while (sp) {
		uint32_t p = stack[--sp];
		const struct xbn_dir *pd = xbn_dir(&nm->dirs, p);
		const uint8_t *e, *end = pd->list + pd->listlen;

		for (e = pd->list; e && e < end; e = xbn_ent_next(e)) {
			uint64_t off = (uint64_t)(e - pd->list);
			struct xbn_slot *slot;
			struct xbn_dir *cd;
			uint32_t c;

			xbn_spill_tick(&nm->spill, 1);
			if (xbn_ent_dtype(e) != DT_DIR) {
				slot = xbn_lookup(&nm->store, xbn_ent_ino(e));
				if (slot && !S_ISDIR(slot->mode))
					reach_slot(nm, slot, p, off);
			}
			cd = entry_dir(nm, e, &c);
			if (!cd || cd->mark == mark ||
			    !xbn_is_edge(cd, p, off) ||
			    (cd->flags & (XBN_DIR_MOUNT | XBN_DIR_GONE)))
				continue;
			slot = xbn_lookup(&nm->store, cd->ino);
			slot->flags |= XBN_SLOT_REACHED;
			cd->mark = mark;
			stack[sp++] = c;
		}
	}
}

/* Is @x on a parent loop of at most @len steps? */
static bool
on_loop(const struct xbulk_names *nm, uint32_t x, uint64_t len)
{
	uint32_t y = x;
	uint64_t i;

	for (i = 0; i < len; i++) {
		y = xbn_dir(&nm->dirs, y)->parent;
		if (y == XBN_NONE)
			return false;
		if (y == x)
			return true;
	}
	return false;
}

/* Re-check the loop through @x; if it stays, report and cut it. */
static int
settle_loop(struct xbulk_names *nm, struct xbulk_names_result *r,
	    const struct xbn_links *extra, uint32_t x, uint64_t len)
{
	uint32_t y = x, next;
	uint64_t i;
	int ret;

	for (i = 0; i < len; i++) {
		const struct xbn_edge key = { .c = y };
		const struct xbn_edge *v = extra->v;
		size_t lo = 0, hi = extra->n, n = 0;

		next = xbn_dir(&nm->dirs, y)->parent;
		/* y's extra edges: the first at or after (y, 0, 0) */
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (cmp_edge(&v[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		while (lo + n < extra->n && v[lo + n].c == y)
			n++;
		ret = recheck_one(nm, r, y, v + lo, n);
		if (ret)
			return ret;
		if (next == XBN_NONE || next == x)
			break;
		y = next;
	}
	if (!on_loop(nm, x, len))
		return 0;
	y = x;
	do {
		struct xbn_dir *d = xbn_dir(&nm->dirs, y);
		struct xbn_problem p = {
			.kind = XBULK_PROBLEM_CYCLE, .dir = y,
			.pdir = d->parent, .off = d->entry_off,
		};

		r->damage++;
		ret = xbn_problem_add(nm, &p);
		if (ret)
			return ret;
		y = d->parent;
	} while (y != x);
	xbn_dir(&nm->dirs, x)->parent = XBN_NONE;
	return 0;
}

/*
 * Step 3: parent loops.  Follow each directory's parents until the top,
 * a directory without a parent or one already followed: a chain that
 * comes back to itself is a loop.  Each directory is followed once.
 */
static int
check_loops(struct xbulk_names *nm, struct xbulk_names_result *r,
	    const struct xbn_links *extra)
{
	uint32_t c, color = 1;
	int ret = 0;

	for (c = 0; c < nm->dirs.n; c++)
		xbn_dir(&nm->dirs, c)->mark = 0;
	xbn_dir(&nm->dirs, nm->top)->mark = color;
	for (c = 0; c < nm->dirs.n && !ret; c++) {
		uint32_t x = c;
		uint64_t len = 0;

		if (xbn_dir(&nm->dirs, c)->mark)
			continue;
		color++;
		while (x != XBN_NONE && !xbn_dir(&nm->dirs, x)->mark) {
			xbn_dir(&nm->dirs, x)->mark = color;
			x = xbn_dir(&nm->dirs, x)->parent;
			len++;
		}
		if (x != XBN_NONE && xbn_dir(&nm->dirs, x)->mark == color)
			ret = settle_loop(nm, r, extra, x, len);
		if (c % CANCEL_EVERY == 0 && xbl_cancelled(nm->cancel))
			ret = -EINTR;
	}
	nm->pass = color;	/* marks in use: walks take the next ones */
	return ret;
}

int
xbn_tree_build(struct xbulk_names *nm, struct xbulk_names_result *r,
	       struct xbn_links *links)
{
	int ret;

	r->stale_names += links->stale;
	ret = check_all(nm, r, links);
	if (!ret)
		ret = check_loops(nm, r, links);
	return ret;
}

int
xbn_resolve(const struct xbulk_names *nm, uint32_t from, const char *rel,
	    uint32_t *dir, uint64_t *off)
{
	const char *s = rel;
	uint32_t cur = from;

	while (*s == '/')
		s++;
	if (!*s)
		return -ENOENT;
	for (;;) {
		const struct xbn_dir *d = xbn_dir(&nm->dirs, cur);
		size_t len = strcspn(s, "/");
		const uint8_t *e = xbn_find_name(d, s, len);
		struct xbn_dir *cd;
		uint32_t c;

		if (!e)
			return -ENOENT;
		s += len;
		while (*s == '/')
			s++;
		if (!*s) {
			*dir = cur;
			*off = (uint64_t)(e - d->list);
			return 0;
		}
		cd = entry_dir(nm, e, &c);
		if (!cd || !xbn_is_edge(cd, cur, (uint64_t)(e - d->list)))
			return -ENOENT;
		cur = c;
	}
}
