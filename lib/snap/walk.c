// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A snapshot file as a source of walk entries (struct xbulk_entry, the
 * names engine's vocabulary): what find's evaluation (xbulk_find_visit())
 * takes from a live walk, it takes from here, and du over a snapshot is
 * to take it too (xbulk/snapshot.h, xbulk_snap_tree_open()).
 *
 * A snapshot holds its records in inode order and its directories in a
 * table; it keeps no readdir order.  Opening reads every record once:
 * each is decoded (so that a damaged one is said before any entry is
 * handed out), the names of each directory are counted (-empty), and
 * the record of each directory is kept, encoded as in the file without
 * its name (about 40 bytes).  The directories are then linked to their children by a
 * counting sort on the parent (stable: inode order).  So memory grows
 * with the directories (about 70 bytes each, beside the table the
 * snapshot holds anyway), never with the other inodes: those stream.
 *
 * A walk of one operand then goes in two phases:
 *   1. its directories, depth first, each PRE before and POST after its
 *      subdirectories (XBULK_WALK_POST), as the names engine's walk
 *      does: a PRUNE (find -prune, -maxdepth) leaves the subtree out;
 *   2. one pass over the records, in inode order: each name of a
 *      non-directory whose directory phase 1 entered, with its path
 *      (the directory's, built by climbing the table, the last one
 *      kept) and depth.
 * The entries are those of the live walk taken at the snapshot's moment
 * (the same paths, depths, records as far as the snapshot holds them);
 * their order is not find's: the files of a directory come after its
 * POST visit.  Sorted, the output is the same.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "snap.h"

#define NONE		UINT32_MAX
#define CANCEL_EVERY	1024

struct xbulk_snap_tree {
	struct xbulk_snap	*s;		/* the caller's */
	const struct snap_dirtab *t;		/* &s->dirs */
	const volatile int	*cancel;
	unsigned int		blocklog;
	uint32_t		top;		/* the top's index */
	/* per directory, by its index in the table */
	uint64_t		*nentries;	/* names it holds */
	uint64_t		*recoff;	/* its record in @recs */
	uint32_t		*reclen;	/* 0: none seen */
	uint32_t		*first;		/* its children in @kids:
						   first[x] to first[x + 1] */
	uint32_t		*kids;
	uint32_t		*mark;		/* this walk: depth + 1 of its
						   entries; 0 not entered */
	uint8_t			*recs;
	size_t			recslen, recscap;
	/* a walk's */
	char			*path;
	size_t			pathcap;
	struct {
		uint32_t	x;		/* directory */
		uint32_t	next;		/* its next child in @kids */
		size_t		len;		/* path length at it */
	}			*stack;
	size_t			stackcap;
	struct xfs_bulkstat	bs;		/* a directory's, decoded */
	struct xbulk_snap_link	*links;
	size_t			lcap;
	uint64_t		visits;
};

struct walk {
	struct xbulk_snap_tree	*w;
	unsigned int		flags;
	xbulk_walk_fn		fn;
	void			*arg;
	struct xbulk_entry	e;
	size_t			startlen;	/* the operand's, in @path */
	bool			slash;		/* it ends with '/' */
	uint64_t		entered;	/* directories phase 1 entered */
};

/* The snapshot holds no bs_version: a birth time says v5 (a v1 scan
 * has none), which find's %B and -newerB read. */
static void
set_version(struct xfs_bulkstat *bs)
{
	bs->bs_version = bs->bs_btime || bs->bs_btime_nsec ?
			 XFS_BULKSTAT_VERSION_V5 : XFS_BULKSTAT_VERSION_V1;
}

static int
cancelled(struct xbulk_snap_tree *w)
{
	return ++w->visits % CANCEL_EVERY == 0 && xbl_cancelled(w->cancel) ?
	       -EINTR : 0;
}

/* Keep the record of directory @x (decoded in s->rec), encoded again
 * without its names (a walk takes a directory's name from the table):
 * the same bytes from a file and from a live scan. */
static int
keep_dir_rec(struct xbulk_snap_tree *w, uint32_t x)
{
	struct xbulk_snap_rec rec = w->s->rec;
	const uint8_t *p;
	struct snap_raw raw;
	uint32_t next = 0;
	size_t n;

	if (w->reclen[x])
		return snap_fail(w->s, -EBADMSG, "damaged: two records of "
				 "directory %llu",
				 (unsigned long long)rec.bs->bs_ino);
	if (xbl_grow((void **)&w->recs, &w->recscap,
		     w->recslen + SNAP_REC_MAX, 1))
		return -ENOMEM;
	rec.nlinks = 0;
	rec.links = NULL;
	p = w->recs + w->recslen;
	n = snap_encode_rec(w->recs + w->recslen, rec.bs->bs_ino, &rec, &next);
	if (snap_split(&p, p + n, rec.bs->bs_ino, &raw))
		return -EPROTO;		/* our own bytes */
	memmove(w->recs + w->recslen, raw.body, raw.len);
	w->recoff[x] = w->recslen;
	w->reclen[x] = (uint32_t)raw.len;
	w->recslen += raw.len;
	return 0;
}

/* One pass over the records: every one decoded, names counted,
 * directories' records kept. */
static int
gather(struct xbulk_snap_tree *w)
{
	struct xbulk_snap *s = w->s;
	const struct snap_dirtab *t = w->t;
	uint32_t i, x;
	int ret;

	ret = xbulk_snap_rewind(s);
	while (!ret && (ret = snap_next(s)) == 1) {
		ret = snap_decode(s);
		for (i = 0; !ret && i < s->rec.nlinks; i++) {
			x = snap_dirtab_find(t, s->links[i].parent);
			if (x != NONE)
				w->nentries[x]++;
		}
		if (!ret && snap_is_dir(&s->bs)) {
			x = snap_dirtab_find(t, s->bs.bs_ino);
			ret = x == NONE ? snap_fail(s, -EBADMSG, "damaged: "
						    "directory %llu is not in "
						    "the directory table",
						    (unsigned long long)
						    s->bs.bs_ino) :
			      keep_dir_rec(w, x);
		}
		if (!ret)
			ret = cancelled(w);
	}
	if (ret < 0)
		return ret;
	for (x = 0; x < t->n; x++)
		if (!w->reclen[x])
			return snap_fail(s, -EBADMSG, "damaged: directory "
					 "%llu has no record",
					 (unsigned long long)t->v[x].ino);
	return 0;
}

/* Children lists: a counting sort of the directories on their parent. */
static int
link_kids(struct xbulk_snap_tree *w)
{
	const struct snap_dirtab *t = w->t;
	uint32_t x, p, *pos;

	pos = calloc(t->n + 1, sizeof(*pos));
	if (!pos)
		return -ENOMEM;
	for (x = 0; x < t->n; x++)
		if ((p = t->v[x].pidx) != NONE)
			w->first[p + 1]++;
	for (x = 0; x < t->n; x++)
		w->first[x + 1] += w->first[x];
	memcpy(pos, w->first, (t->n + 1) * sizeof(*pos));
	for (x = 0; x < t->n; x++)
		if ((p = t->v[x].pidx) != NONE)
			w->kids[pos[p]++] = x;
	free(pos);
	return 0;
}

int
xbulk_snap_tree_open(struct xbulk_snap *s,
		     const struct xbulk_snap_tree_opts *opts,
		     struct xbulk_snap_tree **out)
{
	struct xbulk_snap_tree_opts o;
	struct xbulk_snap_tree *w;
	size_t n = s->dirs.n ? s->dirs.n : 1;
	uint32_t bs = s->info.blocksize;
	int ret;

	*out = NULL;
	if (!opts)
		return -EINVAL;
	ret = xbl_sized_in(&o, sizeof(o), opts, sizeof(size_t));
	if (ret)
		return ret;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->s = s;
	w->t = &s->dirs;
	w->cancel = o.cancel;
	for (w->blocklog = 9; bs > 512 && (1u << w->blocklog) < bs;)
		w->blocklog++;
	w->top = snap_dirtab_find(w->t, s->info.top);
	w->nentries = calloc(n, sizeof(*w->nentries));
	w->recoff = calloc(n, sizeof(*w->recoff));
	w->reclen = calloc(n, sizeof(*w->reclen));
	w->first = calloc(n + 1, sizeof(*w->first));
	w->kids = calloc(n, sizeof(*w->kids));
	w->mark = calloc(n, sizeof(*w->mark));
	if (!w->nentries || !w->recoff || !w->reclen || !w->first ||
	    !w->kids || !w->mark)
		ret = -ENOMEM;
	if (!ret)
		ret = gather(w);
	if (!ret)
		ret = link_kids(w);
	if (ret) {
		if (ret == -ENOMEM && !s->why[0])
			snap_fail(s, ret, "%s", strerror(ENOMEM));
		xbulk_snap_tree_free(w);
		return ret;
	}
	*out = w;
	return 0;
}

void
xbulk_snap_tree_free(struct xbulk_snap_tree *w)
{
	if (!w)
		return;
	free(w->nentries);
	free(w->recoff);
	free(w->reclen);
	free(w->first);
	free(w->kids);
	free(w->mark);
	free(w->recs);
	free(w->path);
	free(w->stack);
	free(w->links);
	free(w);
}

/* Make room for @len bytes of path and its NUL. */
static int
path_room(struct xbulk_snap_tree *w, size_t len)
{
	return xbl_grow((void **)&w->path, &w->pathcap, len + 1, 1);
}

/* Append "/name" (no '/' after an operand ending with one) at @len;
 * the new length, or -ENOMEM. */
static long
path_add(struct walk *k, size_t len, const char *name, size_t namelen)
{
	struct xbulk_snap_tree *w = k->w;
	bool slash = len != k->startlen || !k->slash;

	if (path_room(w, len + slash + namelen))
		return -ENOMEM;
	if (slash)
		w->path[len++] = '/';
	memcpy(w->path + len, name, namelen);
	len += namelen;
	w->path[len] = '\0';
	return (long)len;
}

static const char *
dir_name(const struct snap_dirtab *t, uint32_t x)
{
	return t->names + t->v[x].name;
}

/* The entry of directory @x at @depth, its path @len bytes of w->path. */
static int
dir_entry(struct walk *k, uint32_t x, unsigned int depth, size_t len,
	  size_t name_off)
{
	struct xbulk_snap_tree *w = k->w;
	struct snap_raw raw = {
		.ino = w->t->v[x].ino, .body = w->recs + w->recoff[x],
		.len = w->reclen[x],
	};
	uint32_t flags, nlinks;
	int ret;

	ret = snap_decode_rec(&raw, &w->bs, &flags, &w->links, &w->lcap,
			      &nlinks);
	if (ret)
		return ret == -EBADMSG ?
		       snap_fail(w->s, ret, "damaged record of directory "
				 "%llu", (unsigned long long)raw.ino) : ret;
	set_version(&w->bs);
	k->e.path = w->path;
	k->e.pathlen = len;
	k->e.name_off = name_off;
	k->e.depth = depth;
	k->e.bs = &w->bs;
	k->e.nentries = w->nentries[x];
	k->e.flags = 0;
	k->e.dtype = depth ? DT_DIR : DT_UNKNOWN;
	k->e.dino = raw.ino;
	return 0;
}

/* The PRE visit of the directory at w->stack[@sp] (depth @sp): 0 (a
 * PRUNE leaves its contents out), XBULK_WALK_STOP or a negative errno. */
static int
enter(struct walk *k, size_t sp)
{
	struct xbulk_snap_tree *w = k->w;
	uint32_t x = w->stack[sp].x;
	size_t len = w->stack[sp].len;
	int ret;

	w->stack[sp].next = w->first[x];
	ret = cancelled(w);
	if (!ret)
		ret = dir_entry(k, x, (unsigned int)sp, len,
				sp ? len - w->t->v[x].namelen : 0);
	if (!ret)
		ret = k->fn(k->arg, &k->e, XBULK_VISIT_PRE);
	if (ret == XBULK_WALK_PRUNE)	/* no contents; POST still */
		w->stack[sp].next = w->first[x + 1];
	else if (!ret && ++k->entered)
		w->mark[x] = (uint32_t)sp + 1;
	return ret == XBULK_WALK_PRUNE ? 0 : ret;
}

/* Phase 1: the directories under @d, depth first. */
static int
walk_dirs(struct walk *k, uint32_t d)
{
	struct xbulk_snap_tree *w = k->w;
	const struct snap_dirtab *t = w->t;
	size_t sp = 0, len;
	uint32_t x, c;
	long n;
	int ret;

	if (xbl_grow((void **)&w->stack, &w->stackcap, 1, sizeof(*w->stack)))
		return -ENOMEM;
	w->stack[0].x = d;
	w->stack[0].len = k->startlen;
	ret = enter(k, 0);
	for (sp = 1; !ret && sp;) {
		x = w->stack[sp - 1].x;
		len = w->stack[sp - 1].len;
		if (w->stack[sp - 1].next == w->first[x + 1]) {
			/* its contents are done */
			if (--sp, !(k->flags & XBULK_WALK_POST))
				continue;
			w->path[len] = '\0';
			ret = dir_entry(k, x, (unsigned int)sp, len,
					sp ? len - t->v[x].namelen : 0);
			if (!ret)
				ret = k->fn(k->arg, &k->e, XBULK_VISIT_POST);
			if (ret == XBULK_WALK_PRUNE)
				ret = 0;
			continue;
		}
		c = w->kids[w->stack[sp - 1].next++];
		n = path_add(k, len, dir_name(t, c), t->v[c].namelen);
		if (n < 0 || xbl_grow((void **)&w->stack, &w->stackcap, sp + 1,
				      sizeof(*w->stack)))
			return -ENOMEM;
		w->stack[sp].x = c;
		w->stack[sp].len = (size_t)n;
		ret = enter(k, sp++);
	}
	return ret;
}

/* w->path from the operand down to directory @x (marked): its length. */
static long
dir_path(struct walk *k, uint32_t x)
{
	struct xbulk_snap_tree *w = k->w;
	const struct snap_dirtab *t = w->t;
	size_t len = k->startlen, pos;
	uint32_t y, depth = w->mark[x] - 1, i;

	for (y = x, i = depth; i; i--, y = t->v[y].pidx)
		len += t->v[y].namelen + 1;
	if (depth && k->slash)
		len--;
	if (path_room(w, len))
		return -ENOMEM;
	pos = len;
	for (y = x, i = depth; i; i--, y = t->v[y].pidx) {
		pos -= t->v[y].namelen;
		memcpy(w->path + pos, dir_name(t, y), t->v[y].namelen);
		if (pos > k->startlen || !k->slash)
			w->path[--pos] = '/';
	}
	w->path[len] = '\0';
	return (long)len;
}

/*
 * Phase 2: one pass over the records, each name of a non-directory in a
 * directory phase 1 entered; or, with @name, only entry @name of
 * directory @p, the operand itself (*@found set).
 */
static int
walk_files(struct walk *k, uint32_t p, const char *name, size_t namelen,
	   bool *found)
{
	struct xbulk_snap_tree *w = k->w;
	struct xbulk_snap *s = w->s;
	uint32_t i, x, last = NONE;
	size_t dirlen = 0;
	int ret;

	ret = xbulk_snap_rewind(s);
	while (!ret && (ret = snap_next(s)) == 1) {
		ret = cancelled(w);
		if (!ret)
			ret = snap_decode(s);
		if (ret || snap_is_dir(&s->bs))
			continue;
		set_version(&s->bs);
		for (i = 0; !ret && i < s->rec.nlinks; i++) {
			const struct xbulk_snap_link *l = &s->links[i];
			long n;

			x = snap_dirtab_find(w->t, l->parent);
			if (x == NONE)
				continue;
			if (name) {
				if (x != p || l->namelen != namelen ||
				    memcmp(l->name, name, namelen))
					continue;
				*found = true;
				/* -H: its target is not in the snapshot */
				if ((k->flags & XBULK_WALK_FOLLOW) &&
				    S_ISLNK(s->bs.bs_mode))
					return -ENOTSUP;
				n = (long)k->startlen;
				k->e.depth = 0;
				k->e.name_off = 0;
				k->e.dtype = DT_UNKNOWN;
			} else {
				if (!w->mark[x])
					continue;
				if (x != last) {
					n = dir_path(k, x);
					if (n < 0)
						return (int)n;
					dirlen = (size_t)n;
					last = x;
				}
				n = path_add(k, dirlen, l->name, l->namelen);
				if (n < 0)
					return (int)n;
				k->e.depth = w->mark[x];
				k->e.name_off = (size_t)n - l->namelen;
				k->e.dtype = IFTODT(s->bs.bs_mode);
			}
			k->e.path = w->path;
			k->e.pathlen = (size_t)n;
			k->e.bs = &s->bs;
			k->e.nentries = 0;
			k->e.flags = s->bs.bs_nlink > 1 ? XBULK_ENTRY_LINKED :
				     0;
			k->e.dino = s->bs.bs_ino;
			ret = k->fn(k->arg, &k->e, XBULK_VISIT_PRE);
			if (ret == XBULK_WALK_PRUNE)
				ret = 0;
			if (ret || (name && *found))
				return ret;
		}
	}
	return ret;
}

/* The next component of *@p (its length; 0 at the end), "." skipped. */
static size_t
component(const char **p)
{
	size_t n;

	for (;;) {
		while (**p == '/')
			(*p)++;
		n = strcspn(*p, "/");
		if (n != 1 || **p != '.')
			return n;
		*p += 1;
	}
}

/* Where relative path @rel leads from the top: directory *@d, or entry
 * *@name (*@namelen bytes) of directory *@d, not a directory's. */
static int
resolve_rel(const struct xbulk_snap_tree *w, const char *rel, uint32_t *d,
	    const char **name, size_t *namelen)
{
	const struct snap_dirtab *t = w->t;
	uint32_t x = w->top, i;
	size_t n;

	*name = NULL;
	if (x == NONE)
		return -ENOENT;
	while ((n = component(&rel))) {
		if (n == 2 && rel[0] == '.' && rel[1] == '.') {
			if (x == w->top)
				return -EXDEV;	/* above the snapshot */
			x = t->v[x].pidx;
			rel += n;
			continue;
		}
		for (i = w->first[x]; i < w->first[x + 1]; i++) {
			uint32_t c = w->kids[i];

			if (t->v[c].namelen == n &&
			    !memcmp(dir_name(t, c), rel, n))
				break;
		}
		if (i == w->first[x + 1]) {
			const char *rest = rel + n;

			/* a non-directory: the last component, no '/' */
			if (*rest || n > 255)
				return -ENOENT;
			*name = rel;
			*namelen = n;
			break;
		}
		x = w->kids[i];
		rel += n;
	}
	*d = x;
	return 0;
}

/* @start's path below the snapshot's mount point, or NULL. */
static const char *
below_mountpoint(const struct xbulk_snap_tree *w, const char *start)
{
	const char *mp = w->s->info.mountpoint, *p = start;
	size_t n, m;

	if (*mp != '/')
		return NULL;
	while ((m = component(&mp))) {
		n = component(&p);
		if (n != m || memcmp(p, mp, n))
			return NULL;
		p += n;
		mp += m;
	}
	return p;
}

int
xbulk_snap_walk(struct xbulk_snap_tree *w, const char *start,
		unsigned int flags, xbulk_walk_fn fn, void *arg)
{
	struct walk k = {
		.w = w, .flags = flags, .fn = fn, .arg = arg,
		.e = { .start = start, .blocklog = w->blocklog,
		       .fstype = "xfs" },
	};
	const char *rel = start, *name;
	size_t namelen = 0;
	bool found = false;
	uint32_t d;
	int ret;

	k.startlen = strlen(start);
	k.slash = k.startlen && start[k.startlen - 1] == '/';
	k.e.startlen = k.startlen;
	if (*start == '/' && !(rel = below_mountpoint(w, start)))
		return -EXDEV;
	if (!*start)
		return -ENOENT;
	ret = resolve_rel(w, rel, &d, &name, &namelen);
	if (ret)
		return ret;
	if (path_room(w, k.startlen))
		return -ENOMEM;
	memcpy(w->path, start, k.startlen + 1);
	memset(w->mark, 0, w->t->n * sizeof(*w->mark));
	if (name) {
		ret = walk_files(&k, d, name, namelen, &found);
		return ret ? ret : found ? 0 : -ENOENT;
	}
	ret = walk_dirs(&k, d);
	/* no directory entered (-maxdepth 0, a pruned operand): no file */
	if (!ret && k.entered)
		ret = walk_files(&k, NONE, NULL, 0, NULL);
	return ret;
}
