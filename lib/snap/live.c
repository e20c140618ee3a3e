// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A live scan read as a snapshot: syncfs(), one xbulk_names_build() with
 * the fields a record holds, then the names engine's inode-order cursor
 * (lib/names/inodes.c).  A first pass over the cursor gathers the
 * directory table (paths need it before the first record), the second
 * hands out the records.  Memory is the names engine's: a slot of 16
 * bytes per inode (its header and the cursor's first name, XBN_F_LINK),
 * these fields at variable width in the store's stream (6.7 bytes an
 * inode on bench/populate --empty-files's tree, 108 at fixed width),
 * the listings (2 bytes, the inode number in as few bytes as it needs
 * and the name per entry), and the cursor's 16 bytes per name of an
 * inode past its first.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "snap.h"
#include "../names/inodes.h"

struct live {
	struct xbulk_snap	s;		/* first: what callers see */
	struct xbulk_names	*nm;
	struct xbn_inodes	*it;
	uint64_t		*exclude;	/* sorted */
	size_t			nexclude;
	void			(*problem)(void *arg,
					   const struct xbulk_names_problem *p);
	void			*arg;
};

/* The caller's problem hook, behind ours (keep needs our argument). */
static void
problem(void *arg, const struct xbulk_names_problem *p)
{
	struct live *l = arg;

	if (l->problem)
		l->problem(l->arg, p);
}

static bool
excluded(const struct live *l, uint64_t ino)
{
	size_t lo = 0, hi = l->nexclude;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->exclude[mid] < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < l->nexclude && l->exclude[lo] == ino;
}

/* The names engine's keep filter, from the scan's threads. */
static bool
keep(void *arg, const struct xfs_bulkstat *bs)
{
	return !excluded(arg, bs->bs_ino);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
live_next(struct xbulk_snap *s)
{
	struct live *l = (struct live *)s;
	const struct xfs_bulkstat *bs = &s->bs;
	const struct xbn_inode *in;
	size_t i;
	int ret;

	ret = xbn_inodes_next(l->it, &in);
	if (ret != 1)
		return ret;
	xbn_inodes_fill(l->it, &s->bs);
	if (in->nlinks > s->lcap) {
		void *p = realloc(s->links, in->nlinks * sizeof(*s->links));

		if (!p)
			return -ENOMEM;
		s->links = p;
		s->lcap = in->nlinks;
	}
	for (i = 0; i < in->nlinks; i++) {
		s->links[i].parent = in->links[i].parent;
		s->links[i].name = in->links[i].name;
		s->links[i].namelen = in->links[i].namelen;
	}
	/* the order a record keeps, and the diff's lookups need */
	if (in->nlinks > 1)
		qsort(s->links, in->nlinks, sizeof(*s->links), snap_link_cmp);
	s->rec.bs = bs;
	s->rec.links = s->links;
	s->rec.nlinks = (uint32_t)in->nlinks;
	s->decoded = true;
	s->rec.flags = bs->bs_ctime > s->info.start_sec ||
		       (bs->bs_ctime == s->info.start_sec &&
			bs->bs_ctime_nsec >= s->info.start_nsec) ?
		       XBULK_SNAP_CHANGING : 0;
	return 1;
}

static int
live_rewind(struct xbulk_snap *s)
{
	xbn_inodes_rewind(((struct live *)s)->it);
	return 0;
}

static void
live_close(struct xbulk_snap *s)
{
	struct live *l = (struct live *)s;

	xbn_inodes_free(l->it);
	xbulk_names_free(l->nm);
	free(l->exclude);
}

static const struct snap_ops live_ops = {
	.next = live_next,
	.rewind = live_rewind,
	.close = live_close,
};

/* First pass: the directory table and the counts. */
static int
gather_dirs(struct live *l)
{
	struct xbulk_snap *s = &l->s;
	const struct xbn_inode *in;
	int ret;

	while ((ret = xbn_inodes_next(l->it, &in)) == 1) {
		s->info.inodes++;
		s->info.links += in->nlinks;
		if ((in->mode & 0170000) != 0040000)
			continue;
		s->info.dirs++;
		if (in->top)
			s->dirs.top = s->info.top = in->ino;
		ret = snap_dirtab_add(&s->dirs, in->ino, in->gen,
				      in->nlinks ? in->links[0].parent : 0,
				      in->nlinks ? in->links[0].name : "",
				      in->nlinks ? in->links[0].namelen : 0);
		if (ret)
			return ret == -EBADMSG ? -EPROTO : ret;
	}
	if (ret)
		return ret;
	xbn_inodes_rewind(l->it);
	ret = snap_dirtab_seal(&s->dirs);
	return ret == -EBADMSG ? -EPROTO : ret;
}

static void
fill_info(struct live *l, const struct xbulk_fs *fs, unsigned int threads)
{
	struct xbulk_snap_info *i = &l->s.info;
	const char *mp = xbn_mountpoint(l->nm);
	struct utsname u;

	i->version = XBULK_SNAP_VERSION;
	memcpy(i->uuid, fs->geom.uuid, sizeof(i->uuid));
	i->blocksize = fs->geom.blocksize;
	i->agcount = fs->geom.agcount;
	i->agblocks = fs->geom.agblocks;
	i->inodesize = fs->geom.inodesize;
	i->datablocks = fs->geom.datablocks;
	i->threads = threads ? threads : 1;
	snprintf(i->xbulk_version, sizeof(i->xbulk_version), "%s",
		 XBULK_VERSION_STRING);
	if (!uname(&u))
		snprintf(i->host, sizeof(i->host), "%s", u.nodename);
	snprintf(i->mountpoint, sizeof(i->mountpoint), "%s",
		 mp ? mp : "");
}

int
xbulk_snap_scan(struct xbulk_fs *fs, const struct xbulk_snap_scan_opts *opts,
		struct xbulk_snap **out, struct xbulk_names_result *res)
{
	struct xbulk_names_result r0 = { .size = sizeof(r0) };
	struct xbulk_snap_scan_opts o;
	struct xbulk_names_opts no;
	struct timespec t;
	struct live *l;
	uint64_t placed;
	int ret;

	*out = NULL;
	if (!res)
		res = &r0;
	if (!opts)
		return -EINVAL;
	ret = xbl_sized_in(&o, sizeof(o), opts, sizeof(size_t));
	if (ret)
		return ret;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->s.ops = &live_ops;
	if (o.nexclude) {
		l->exclude = malloc(o.nexclude * sizeof(*l->exclude));
		if (!l->exclude) {
			free(l);
			return -ENOMEM;
		}
		memcpy(l->exclude, o.exclude, o.nexclude * sizeof(*o.exclude));
		qsort(l->exclude, o.nexclude, sizeof(*l->exclude), cmp_u64);
		l->nexclude = o.nexclude;
	}
	if (!(o.flags & XBULK_SNAP_NO_SYNC) && (ret = xbulk_fs_sync(fs)))
		goto fail;
	/* The clock inode timestamps come from: a change after this
	 * moment has a ctime at or after it. */
	clock_gettime(CLOCK_REALTIME_COARSE, &t);
	l->s.info.start_sec = t.tv_sec;
	l->s.info.start_nsec = (uint32_t)t.tv_nsec;
	no = (struct xbulk_names_opts){
		.size = sizeof(no), .threads = o.threads, .fields = SNAP_FIELDS,
		.keep = l->nexclude ? keep : NULL, .problem = problem,
		.arg = l, .cancel = o.cancel, .memory = o.memory,
		.tmpdir = o.tmpdir, .progress = o.progress,
	};
	l->problem = o.problem;
	l->arg = o.arg;
	ret = xbn_names_build(fs, &no, XBN_F_LINK, &l->nm, res);
	if (ret)
		goto fail;
	l->s.names = l->nm;
	l->s.progress = o.progress;
	clock_gettime(CLOCK_REALTIME, &t);
	l->s.info.end_sec = t.tv_sec;
	l->s.info.end_nsec = (uint32_t)t.tv_nsec;
	fill_info(l, fs, o.threads);
	ret = xbn_inodes_open(l->nm, &l->it);
	if (!ret)
		ret = gather_dirs(l);
	if (ret && xbn_spill_error(l->nm, &placed)) {
		/* the cursor spills too: its failure is the build's kind */
		res->fail = XBULK_NAMES_FAIL_SPILL;
		res->err = ret = xbn_spill_error(l->nm, &placed);
		if (res->size >= XBL_SIZE_TO(struct xbulk_names_result,
					     spill_bytes))
			res->spill_bytes = placed;
	}
	if (ret)
		goto fail;
	*out = &l->s;
	return 0;
fail:
	xbulk_snap_close(&l->s);
	return ret;
}
