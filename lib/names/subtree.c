// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The walk strategy of the names (XBULK_STRATEGY_WALK, issue 26): read
 * the operands' subtrees only, and bulkstat only the inode chunks their
 * entries are in, into the same store, directory table and chunk index
 * as the scan's, so that linking, walks and every command's output stay
 * the same.  A subtree then costs what it holds, not what the
 * filesystem holds.
 *
 * 1. Each operand is looked up (statx; a symbolic link and its target
 *    both, for find -H), and a directory operand's parents by ".." up
 *    to the mount's top.  An operand that is the top leaves the names to
 *    the scan (XBULK_STRATEGY_AUTO), as does a chain of parents that
 *    leaves the mount; nothing is stored before that is known.
 * 2. Level by level from the operands down: the level's directories are
 *    read (travel.c's readers, each by name from its parent read
 *    before), then the chunks of the entries of those the walks go
 *    below are fetched (sorted; consecutive chunks in one call of up to
 *    CALL_CHUNKS, as bulkstat's startino and icount allow: XFS keeps a
 *    directory's files near it), the chunk index grown, and those
 *    listings linked; their subdirectories make the next level.  A
 *    directory at the walks' depth limit is read (its entry count: find
 *    -empty) but not gone below.
 * 3. The parents above the operands (read at the first level: their
 *    listings give the paths of problems and of the mounts inside) are
 *    linked last, once every fetch is in; the names they list that no
 *    fetch covered are not counted stale.
 *
 * During the build xbn_dir.mark holds how many levels below a directory
 * the walks may go, plus one (0: in no subtree; NO_LIMIT: no limit);
 * tree.c's passes reset it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "tree.h"

/* Chunks one bulkstat call covers at most: 4096 records, as the scan's
 * calls ask for. */
#define CALL_CHUNKS	64
/* Parents followed up from an operand before giving up on the top. */
#define MAX_UP		4096
/* xbn_dir.mark of a directory the walks go below without limit. */
#define NO_LIMIT	UINT32_MAX

struct subtree {
	struct xbulk_names		*nm;
	const struct xbulk_names_opts	*o;
	const struct xbulk_scan		*scan;	/* batch_fn, bad_inode_fn */
	struct xbulk_names_result	*r;
	struct xfs_bulkstat_req		*req;
	uint64_t	*inos;		/* to fetch */
	size_t		ninos, inos_cap;
	uint64_t	*done;		/* chunks fetched, sorted */
	size_t		ndone, done_cap;
	uint64_t	*ops;		/* directory operands' inodes */
	size_t		nops, ops_cap;
	uint64_t	*ups;		/* the parents above them */
	size_t		nups, ups_cap;
	struct xbn_edge	*read;		/* the level's directories to read */
	size_t		nread, read_cap;
	uint32_t	*cur, *next;	/* the level's in a subtree, and the
					   next level's */
	size_t		ncur, cur_cap, nnext, next_cap;
};

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Append @x to the vector *@v of *@n items; -ENOMEM. */
static int
push(void *v, size_t *n, size_t *cap, const void *x, size_t size)
{
	if (xbl_grow((void **)v, cap, *n + 1, size))
		return -ENOMEM;
	memcpy(*(char **)v + *n * size, x, size);
	(*n)++;
	return 0;
}

static int
push_u64(uint64_t **v, size_t *n, size_t *cap, uint64_t x)
{
	return push(v, n, cap, &x, sizeof(x));
}

/* Is @stx on the mount the names are built for? */
static bool
ours(const struct xbulk_names *nm, const struct statx *stx)
{
	return makedev(stx->stx_dev_major, stx->stx_dev_minor) == nm->dev &&
	       (!(stx->stx_mask & STATX_MNT_ID) ||
		stx->stx_mnt_id == nm->mnt_id);
}

/* The parents of directory @path (followed if @follow) up to the top
 * @top_ino into st->ups: 0, XBN_USE_SCAN if they leave the mount first,
 * -ENOMEM.  *@sole: every parent has one subdirectory (a link count of
 * 3), the one on the way: @path holds every directory below the top. */
static int
climb(struct subtree *st, const char *path, bool follow, uint64_t top_ino,
      bool *sole)
{
	struct statx stx;
	int fd, up, i, ret = XBN_USE_SCAN;

	*sole = true;
	fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC |
			(follow ? 0 : O_NOFOLLOW));
	for (i = 0; fd >= 0 && i < MAX_UP; i++) {
		if (statx(fd, "", AT_EMPTY_PATH,
			  STATX_INO | STATX_NLINK | STATX_MNT_ID, &stx) ||
		    !ours(st->nm, &stx))
			break;
		if (i && push_u64(&st->ups, &st->nups, &st->ups_cap,
				  stx.stx_ino)) {
			ret = -ENOMEM;
			break;
		}
		if (i && stx.stx_nlink != 3)
			*sole = false;
		if (stx.stx_ino == top_ino) {
			ret = 0;
			break;
		}
		up = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		close(fd);
		fd = up;
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

/*
 * Step 1: the operands' inodes into st->inos (directories also into
 * st->ops, their parents into st->ups).  An operand that cannot be
 * stat()ed or is on another mount is left to the walk, which says so.
 * Under XBULK_STRATEGY_AUTO the scan takes an operand that is the top,
 * or below a chain of directories that have no other subdirectory
 * (/mnt/data/...: it holds about every inode, which the walk, chunk by
 * chunk, fetches in twice the scan's time).
 * Return 0, XBN_USE_SCAN or -ENOMEM.
 */
static int
locate(struct subtree *st, uint64_t top_ino)
{
	const struct xbulk_names_opts *o = st->o;
	bool sole;
	size_t i;
	int k, ret;

	for (i = 0; i < o->npaths; i++) {
		uint64_t seen = 0;

		for (k = 0; k < 2; k++) {	/* the link, then its target */
			struct statx stx;

			if (statx(AT_FDCWD, o->paths[i], AT_NO_AUTOMOUNT |
				  (k ? 0 : AT_SYMLINK_NOFOLLOW),
				  STATX_TYPE | STATX_INO | STATX_MNT_ID,
				  &stx) ||
			    !ours(st->nm, &stx) || stx.stx_ino == seen)
				continue;
			seen = stx.stx_ino;
			if (stx.stx_ino == top_ino &&
			    o->strategy == XBULK_STRATEGY_AUTO)
				return XBN_USE_SCAN;
			if (push_u64(&st->inos, &st->ninos, &st->inos_cap,
				     stx.stx_ino))
				return -ENOMEM;
			if (!S_ISDIR(stx.stx_mode))
				continue;
			if (push_u64(&st->ops, &st->nops, &st->ops_cap,
				     stx.stx_ino))
				return -ENOMEM;
			ret = climb(st, o->paths[i], k, top_ino, &sole);
			if (ret)
				return ret;
			/* about the whole filesystem: the scan costs less */
			if (sole && o->strategy == XBULK_STRATEGY_AUTO)
				return XBN_USE_SCAN;
		}
	}
	for (i = 0; i < st->nups; i++) {
		if (push_u64(&st->inos, &st->ninos, &st->inos_cap,
			     st->ups[i]))
			return -ENOMEM;
	}
	return 0;
}

/* Errors of bulkstat that say an inode in the call cannot be read. */
static bool
bad_inode_err(int err)
{
	return err == -EUCLEAN || err == -EBADMSG || err == -EIO ||
	       err == -EPROTO;
}

/* A call failed at inode @from: the inodes asked for from there to
 * @end, one at a time (sorted st->inos), a bad one reported. */
static int
fetch_singles(struct subtree *st, uint64_t from, uint64_t end)
{
	const struct xbulk_scan *sc = st->scan;
	struct xfs_bulkstat bs;
	size_t i;
	int ret;

	for (i = 0; i < st->ninos; i++) {
		uint64_t ino = st->inos[i];

		if (ino < from || ino >= end || (i && ino == st->inos[i - 1]))
			continue;
		if (xbl_cancelled(st->nm->cancel))
			return -EINTR;
		ret = xbulk_bulkstat_single(st->nm->fs, ino, 0, &bs);
		st->r->scan_calls++;
		if (!ret) {
			st->r->scan_records++;
			ret = sc->batch_fn(sc->arg, NULL, NULL, &bs, 1);
		} else if (ret == -ENOENT) {
			ret = 0;	/* gone since its name was read */
		} else if (bad_inode_err(ret)) {
			sc->bad_inode_fn(sc->arg, ino, ret);
			ret = 0;
		}
		if (ret)
			return ret;
	}
	return 0;
}

/* The inodes of chunks @first to @last (consecutive), from bulkstat. */
static int
fetch_range(struct subtree *st, uint64_t first, uint64_t last)
{
	const struct xbulk_scan *sc = st->scan;
	struct xfs_bulkstat_req *req = st->req;
	uint64_t cur = first << 6, end = (last + 1) << 6;
	uint32_t n;
	int ret;

	/* each call moves the cursor strictly forward, or ends the loop */
	while (cur < end) {
		if (xbl_cancelled(st->nm->cancel))
			return -EINTR;
		memset(&req->hdr, 0, sizeof(req->hdr));
		req->hdr.ino = cur;
		req->hdr.icount = (uint32_t)(end - cur);
		ret = xbulk_bulkstat(st->nm->fs, req);
		st->r->scan_calls++;
		if (bad_inode_err(ret))
			return fetch_singles(st, cur, end);
		if (ret)
			return ret;
		for (n = 0; n < req->hdr.ocount &&
			    req->bulkstat[n].bs_ino < end; n++)
			;
		st->r->scan_records += n;
		if (n) {
			ret = sc->batch_fn(sc->arg, NULL, &req->hdr,
					   req->bulkstat, n);
			if (ret)
				return ret;
		}
		if (n < req->hdr.ocount || !req->hdr.ocount ||
		    req->hdr.ino <= cur)
			break;
		cur = req->hdr.ino;
	}
	return 0;
}

/* Is @chunk among the first @n fetched (sorted)? */
static bool
fetched(const struct subtree *st, size_t n, uint64_t chunk)
{
	/* (none yet: st->done may be NULL, which bsearch() may not take) */
	return n && bsearch(&chunk, st->done, n, sizeof(chunk), cmp_u64);
}

/*
 * Bulkstat the chunks of st->inos not fetched before, consecutive ones
 * in one call, into the store, and grow the chunk index.  Return 0,
 * -EINTR, -ENOMEM or bulkstat's error.
 */
static int
fetch(struct subtree *st)
{
	size_t i, j, n0 = st->ndone;
	double t0 = xbn_now_s();
	int ret = 0;

	qsort(st->inos, st->ninos, sizeof(*st->inos), cmp_u64);
	for (i = 0; i < st->ninos; i++) {
		uint64_t c = st->inos[i] >> 6;

		if ((st->ndone > n0 && st->done[st->ndone - 1] == c) ||
		    fetched(st, n0, c))
			continue;
		/* appended after the sorted ones, in order themselves */
		if (push_u64(&st->done, &st->ndone, &st->done_cap, c))
			return -ENOMEM;
	}
	for (i = n0; i < st->ndone && !ret; i = j) {
		for (j = i + 1; j < st->ndone && j - i < CALL_CHUNKS &&
				st->done[j] == st->done[j - 1] + 1; j++)
			;
		ret = fetch_range(st, st->done[i], st->done[j - 1]);
	}
	if (st->ndone > n0)
		qsort(st->done, st->ndone, sizeof(*st->done), cmp_u64);
	st->ninos = 0;
	if (!ret)
		ret = xbn_store_index(&st->nm->store, &st->r->inodes,
				      &st->r->dropped);
	st->r->scan_s += xbn_now_s() - t0;
	return ret;
}

/* The directory index of inode @ino, or XBN_NONE. */
static uint32_t
dir_of(const struct xbulk_names *nm, uint64_t ino)
{
	const struct xbn_slot *slot = xbn_lookup(&nm->store, ino);

	return slot && S_ISDIR(slot->mode) ? slot->aux : XBN_NONE;
}

/* Read directory @c at this level, unless it was read (or is being). */
static int
to_read(struct subtree *st, uint32_t c, uint32_t p, uint64_t off)
{
	struct xbn_dir *d = xbn_dir(&st->nm->dirs, c);

	if (d->claimed)
		return 0;
	d->claimed = 1;
	return push(&st->read, &st->nread, &st->read_cap,
		    &(struct xbn_edge){ .c = c, .p = p, .off = off },
		    sizeof(struct xbn_edge));
}

/* Put directory @c in the next level with @mark, if that is deeper than
 * the walks went below it so far. */
static int
reach(struct subtree *st, uint32_t c, uint32_t mark, uint32_t p,
      uint64_t off)
{
	struct xbn_dir *d = xbn_dir(&st->nm->dirs, c);

	if (d->mark >= mark)
		return 0;
	d->mark = mark;
	if (push(&st->next, &st->nnext, &st->next_cap, &c, sizeof(c)))
		return -ENOMEM;
	return to_read(st, c, p, off);
}

/* Do the walks go below directory @d, and was it read? */
static bool
below(const struct xbn_dir *d)
{
	return d->mark > 1 && (d->flags & (XBN_DIR_READ | XBN_DIR_UNREADABLE)) &&
	       !(d->flags & XBN_DIR_GONE);
}

/* The entries of the level's directories the walks go below: their
 * inodes, to fetch. */
static int
level_inos(struct subtree *st)
{
	size_t i;

	for (i = 0; i < st->ncur; i++) {
		const struct xbn_dir *d = xbn_dir(&st->nm->dirs, st->cur[i]);
		const uint8_t *e, *end = d->list + d->listlen;

		if (!below(d))
			continue;
		for (e = d->list; e < end; e = xbn_ent_next(e)) {
			xbn_spill_tick(&st->nm->spill, 1);
			if (push_u64(&st->inos, &st->ninos, &st->inos_cap,
				     xbn_ent_ino(e)))
				return -ENOMEM;
		}
	}
	return 0;
}

/* Link the level's listings the walks go below (each once) and put
 * their subdirectories in the next level. */
static int
level_next(struct subtree *st, struct xbn_links *links)
{
	struct xbulk_names *nm = st->nm;
	size_t i;
	int ret = 0;

	st->nnext = 0;
	for (i = 0; i < st->ncur && !ret; i++) {
		uint32_t p = st->cur[i];
		struct xbn_dir *d = xbn_dir(&nm->dirs, p);
		uint32_t mark = d->mark == NO_LIMIT ? NO_LIMIT : d->mark - 1;
		const uint8_t *e, *end = d->list + d->listlen;

		if (!below(d))
			continue;
		if (!(d->flags & XBN_DIR_LINKED)) {
			d->flags |= XBN_DIR_LINKED;
			ret = xbn_link_listing(nm, p, links);
		}
		for (e = d->list; e < end && !ret; e = xbn_ent_next(e)) {
			unsigned int dt = xbn_ent_dtype(e);
			uint32_t c;

			xbn_spill_tick(&nm->spill, 1);
			if (dt != DT_DIR && dt != DT_UNKNOWN)
				continue;
			c = dir_of(nm, xbn_ent_ino(e));
			if (c != XBN_NONE)
				ret = reach(st, c, mark, p,
					    (uint64_t)(e - d->list));
		}
	}
	return ret;
}

/* The first level: the operands and the parents above them. */
static int
first_level(struct subtree *st)
{
	struct xbulk_names *nm = st->nm;
	uint32_t mark = NO_LIMIT;
	size_t i;
	int ret = 0;

	if (st->o->has_max_depth && st->o->max_depth < NO_LIMIT - 1)
		mark = st->o->max_depth + 1;
	for (i = 0; i < st->nups && !ret; i++) {
		uint32_t c = dir_of(nm, st->ups[i]);

		if (c != XBN_NONE)
			ret = to_read(st, c, XBN_NONE, 0);
	}
	for (i = 0; i < st->nops && !ret; i++) {
		uint32_t c = dir_of(nm, st->ops[i]);

		if (c != XBN_NONE)
			ret = reach(st, c, mark, XBN_NONE, 0);
	}
	return ret;
}

/* Step 3: the parents above the operands, once every fetch is in. */
static int
link_ups(struct subtree *st, struct xbn_links *links)
{
	struct xbulk_names *nm = st->nm;
	uint64_t stale = links->stale;
	size_t i;
	int ret = 0;

	for (i = 0; i < st->nups && !ret; i++) {
		uint32_t c = dir_of(nm, st->ups[i]);
		struct xbn_dir *d;

		if (c == XBN_NONE)
			continue;
		d = xbn_dir(&nm->dirs, c);
		if (!(d->flags & (XBN_DIR_READ | XBN_DIR_UNREADABLE)) ||
		    (d->flags & XBN_DIR_LINKED))
			continue;
		d->flags |= XBN_DIR_LINKED;
		ret = xbn_link_listing(nm, c, links);
	}
	links->stale = stale;
	return ret;
}

/* Step 2, and 3. */
static int
levels(struct subtree *st, struct xbn_links *links)
{
	int ret = first_level(st);

	while (!ret && st->nread + st->nnext) {
		double t0 = xbn_now_s();
		uint32_t *v = st->cur;
		size_t cap = st->cur_cap;

		st->cur = st->next;
		st->cur_cap = st->next_cap;
		st->ncur = st->nnext;
		st->next = v;
		st->next_cap = cap;
		if (st->nread)
			ret = xbn_travel(st->nm, st->o->threads, links,
					 st->read, st->nread);
		st->nread = 0;
		st->r->read_s += xbn_now_s() - t0;
		if (!ret)
			ret = level_inos(st);
		if (!ret)
			ret = fetch(st);
		t0 = xbn_now_s();
		if (!ret)
			ret = level_next(st, links);
		st->r->read_s += xbn_now_s() - t0;
	}
	if (!ret)
		ret = link_ups(st, links);
	return ret;
}

int
xbn_subtree(struct xbulk_names *nm, const struct xbulk_names_opts *o,
	    const struct xbulk_scan *scan, uint64_t top_ino,
	    struct xbn_links *links, struct xbulk_names_result *r)
{
	struct subtree st = { .nm = nm, .o = o, .scan = scan, .r = r };
	int ret;

	ret = locate(&st, top_ino);
	if (!ret) {
		st.req = xbulk_bulkstat_req_alloc(CALL_CHUNKS * 64, 0);
		if (!st.req)
			ret = -ENOMEM;
	}
	if (!ret) {
		xbl_progress_phase(nm->progress, XBULK_PHASE_READ);
		r->scan_threads = 1;
		if (push_u64(&st.inos, &st.ninos, &st.inos_cap, top_ino))
			ret = -ENOMEM;
	}
	if (!ret)
		ret = fetch(&st);
	if (!ret) {
		nm->root = dir_of(nm, top_ino);
		if (nm->root == XBN_NONE)
			ret = -ESTALE;	/* the top went away */
	}
	if (!ret) {
		nm->top = nm->root;
		ret = levels(&st, links);
	}
	free(st.req);
	free(st.inos);
	free(st.done);
	free(st.ops);
	free(st.ups);
	free(st.read);
	free(st.cur);
	free(st.next);
	return ret;
}
