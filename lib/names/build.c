// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Names for inodes: the pipeline of xbulk_names_build().
 *
 * 1. The bulkstat scan (xbulk_scan_run(), -j threads) hands each batch to
 *    store_batch(): directories are registered in the directory table
 *    and stored, other inodes stored if the keep filter lets them; then
 *    the chunk index of the store.
 * 2. As many readers read every directory a path from the root reaches,
 *    top-down (travel.c: why not by handle in inode order).
 *    Or, the walk strategy (subtree.c), 1 and 2 for the operands'
 *    subtrees only: their directories read a level at a time, and the
 *    chunks of their entries bulkstatted into store_batch().
 * 3. The tree (tree.c: parents, re-checks, cycles), the mount's top and
 *    the mounts inside it (mounts.c).
 * 4. Problems are reported with their paths.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "inodes.h"
#include "tree.h"

/* Records per bulkstat call, as xfs_io. */
#define SCAN_BATCH	4096

struct build {
	struct xbulk_names		*nm;
	const struct xbulk_names_opts	*o;
	struct xbulk_scan_result	scan;	/* the bulkstat scan's */
	pthread_mutex_t			lock;	/* bad, faults */
	size_t				bad_cap;
	size_t				faults_cap;
};

/* The scan's batch callback: no system call, no allocation per record. */
static int
store_batch(void *arg, struct xbulk_out *out, const struct xfs_bulk_ireq *hdr,
	    const void *recs, uint32_t n)
{
	struct build *b = arg;
	struct xbulk_names *nm = b->nm;
	const struct xfs_bulkstat *bs = recs;
	struct xbn_arena *a;
	uint32_t i, ndirs = 0, dir = 0;
	int ret = 0;

	(void)out;
	(void)hdr;
	for (i = 0; i < n; i++)
		ndirs += S_ISDIR(bs[i].bs_mode);
	XBL_PROGRESS_ADD(b->o->progress, inodes, n);
	XBL_PROGRESS_ADD(b->o->progress, dirs, ndirs);
	if (ndirs && xbn_dirs_add(&nm->dirs, bs, n, ndirs, &dir))
		return -ENOMEM;
	a = xbn_arena_get(&nm->store);
	if (!a)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		bool isdir = S_ISDIR(bs[i].bs_mode);
		struct xbn_slot *slot;

		if (!isdir && b->o->keep && !b->o->keep(b->o->arg, &bs[i])) {
			a->dropped++;
			continue;
		}
		slot = xbn_arena_add(&nm->store, a, &bs[i]);
		if (!slot) {
			ret = nm->spill.err ? nm->spill.err : -ENOMEM;
			break;
		}
		slot->mode = bs[i].bs_mode;
		slot->flags = !isdir && bs[i].bs_nlink > 1 ? XBN_SLOT_LINKED
							   : 0;
		slot->aux = isdir ? dir++ : bs[i].bs_gen;
		if (nm->store.lay.link)
			memcpy((char *)slot + nm->store.lay.link,
			       &(struct xbn_slot_link){ XBN_NONE, 0 },
			       sizeof(struct xbn_slot_link));
		if (!isdir && bs[i].bs_nlink > 1)
			a->more_links += bs[i].bs_nlink - 1;
		a->kept++;
	}
	xbn_arena_put(&nm->store, a);
	return ret;
}

static void
bad_inode(void *arg, uint64_t ino, int err)
{
	struct build *b = arg;
	struct xbulk_names *nm = b->nm;

	pthread_mutex_lock(&b->lock);
	/* Out of memory: the inode goes unnamed, its entries unshown. */
	if (!xbl_grow((void **)&nm->bad, &b->bad_cap, nm->nbad + 1,
		      sizeof(*nm->bad)))
		nm->bad[nm->nbad++] = (struct xbn_bad){
			.ino = ino, .err = err, .dir = XBN_NONE,
		};
	pthread_mutex_unlock(&b->lock);
}

/* The scan gave up on the rest of an AG: kept to report with the rest;
 * the build goes on with the other AGs. */
static void
ag_fault(void *arg, const struct xbulk_ag_fault *f)
{
	struct build *b = arg;
	struct xbulk_names *nm = b->nm;

	pthread_mutex_lock(&b->lock);
	/* Out of memory: still counted in scan.ag_faults, not named. */
	if (!xbl_grow((void **)&nm->faults, &b->faults_cap, nm->nfaults + 1,
		      sizeof(*nm->faults)))
		nm->faults[nm->nfaults++] = *f;
	pthread_mutex_unlock(&b->lock);
}

static int
cmp_bad(const void *a, const void *b)
{
	const struct xbn_bad *x = a, *y = b;

	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

static int
cmp_fault(const void *a, const void *b)
{
	const struct xbulk_ag_fault *x = a, *y = b;

	return x->agno < y->agno ? -1 : x->agno > y->agno;
}

/* The bulkstat scan into the store and the directory table. */
static int
scan(struct build *b, struct xbulk_scan *scan, struct xbulk_names_result *r)
{
	struct xbulk_names *nm = b->nm;
	double t0 = xbn_now_s();
	int ret;

	xbl_progress_phase(b->o->progress, XBULK_PHASE_SCAN);
	ret = xbulk_scan_run(nm->fs, scan, &b->scan);
	r->scan_s = xbn_now_s() - t0;
	r->scan_fail = b->scan.fail;
	r->scan_records = b->scan.records;
	r->scan_calls = b->scan.calls;
	r->scan_threads = b->scan.threads;
	r->ag_faults = b->scan.ag_faults;
	if (nm->nbad)
		qsort(nm->bad, nm->nbad, sizeof(*nm->bad), cmp_bad);
	if (nm->nfaults)	/* reported by AG, whichever thread met it */
		qsort(nm->faults, nm->nfaults, sizeof(*nm->faults), cmp_fault);
	if (ret) {
		r->fail = b->scan.fail == XBULK_SCAN_CANCELLED ?
				  XBULK_NAMES_CANCELLED :
				  XBULK_NAMES_FAIL_SCAN;
		return ret;
	}
	r->fail = XBULK_NAMES_FAIL_SETUP;
	return xbn_store_index(&nm->store, &r->inodes, &r->dropped);
}

/* The directory index of inode @ino, or XBN_NONE. */
static uint32_t
dir_index(const struct xbulk_names *nm, uint64_t ino)
{
	const struct xbn_slot *slot = xbn_lookup(&nm->store, ino);

	return slot && S_ISDIR(slot->mode) ? slot->aux : XBN_NONE;
}

/*
 * The mount's top: the filesystem's root, or for a bind mount of a
 * subdirectory the directory at the mount point (or, if another mount
 * hides it, the one mountinfo's root field names).
 */
static int
find_top(struct xbulk_names *nm, const struct xbn_mountinfo *mi)
{
	struct statx stx;
	uint32_t p;
	uint64_t off;

	nm->top = XBN_NONE;
	if (!strcmp(mi->root, "/")) {
		nm->top = nm->root;
	} else if (!statx(AT_FDCWD, mi->mountpoint,
			  AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
			  STATX_INO | STATX_MNT_ID, &stx) &&
		   (stx.stx_mask & STATX_MNT_ID) &&
		   stx.stx_mnt_id == nm->mnt_id) {
		nm->top = dir_index(nm, stx.stx_ino);
	} else if (!xbn_resolve(nm, nm->root, mi->root, &p, &off)) {
		const uint8_t *e = xbn_dir(&nm->dirs, p)->list + off;

		nm->top = dir_index(nm, xbn_ent_ino(e));
	}
	return nm->top == XBN_NONE ? -ENOENT : 0;
}

/* Which mount @fs->fd is on, and the mounts inside it. */
static int
find_mount(struct xbulk_names *nm, struct xbn_mountinfo *mi)
{
	struct statx stx;
	int ret;

	if (statx(nm->mfd, "", AT_EMPTY_PATH, STATX_INO | STATX_MNT_ID, &stx))
		return -errno;
	if (!(stx.stx_mask & STATX_MNT_ID))
		return -EOPNOTSUPP;	/* Linux before 5.8 */
	nm->mnt_id = stx.stx_mnt_id;
	nm->dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
	ret = xbn_mountinfo_read(mi, nm->mnt_id);
	if (!ret) {
		nm->mountpoint = strdup(mi->mountpoint);
		if (!nm->mountpoint)
			ret = -ENOMEM;
	}
	return ret;
}

/* The root directory's record, and proof that handles open: the
 * capabilities are checked before any long work. */
static int
check_root(struct xbulk_names *nm, struct xfs_bulkstat *root,
	   struct xbulk_names_result *r)
{
	int ret, fd;

	ret = xbulk_bulkstat_single(nm->fs, XFS_BULK_IREQ_SPECIAL_ROOT,
				    XFS_BULK_IREQ_SPECIAL, root);
	if (ret) {
		r->fail = XBULK_NAMES_FAIL_SCAN;
		r->scan_fail = XBULK_SCAN_FAIL_IOCTL;
		return ret;
	}
	/* O_PATH: no read, so no O_NOATIME (which needs the owner or
	 * CAP_FOWNER): a root this process may not read is named by the
	 * walk, as any directory; this proves CAP_DAC_READ_SEARCH only */
	fd = xbn_open_handle(nm->mfd, root->bs_ino, root->bs_gen,
			     O_PATH | O_DIRECTORY);
	if (fd < 0) {
		r->fail = XBULK_NAMES_FAIL_HANDLE;
		return fd;
	}
	close(fd);
	return 0;
}

/* After the scan: every directory a path from the root reaches. */
static int
read_all(struct build *b, const struct xfs_bulkstat *root,
	 struct xbn_links *links, struct xbulk_names_result *r)
{
	struct xbulk_names *nm = b->nm;
	double t0 = xbn_now_s();
	int ret;

	r->fail = XBULK_NAMES_FAIL_SCAN;
	nm->root = dir_index(nm, root->bs_ino);
	if (nm->root == XBN_NONE)
		return -ESTALE;		/* the scan did not see the root */
	nm->top = nm->root;
	r->fail = XBULK_NAMES_FAIL_SETUP;
	xbl_progress_phase(nm->progress, XBULK_PHASE_READ);
	ret = xbn_travel(nm, b->o->threads, links, NULL, 0);
	r->read_s = xbn_now_s() - t0;
	return ret;
}

/* The mount's top inode, for the walk strategy: 0 if not known (another
 * mount hides a bind mount's directory). */
static uint64_t
top_ino(const struct xbulk_names *nm, const struct xfs_bulkstat *root,
	const struct xbn_mountinfo *mi)
{
	struct statx stx;

	if (!strcmp(mi->root, "/"))
		return root->bs_ino;
	if (!statx(AT_FDCWD, mi->mountpoint,
		   AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
		   STATX_INO | STATX_MNT_ID, &stx) &&
	    (stx.stx_mask & STATX_MNT_ID) && stx.stx_mnt_id == nm->mnt_id)
		return stx.stx_ino;
	return 0;
}

/*
 * The names' records and listings, by the strategy @b->o asks for:
 * the walk's (subtree.c) if it takes them, else the scan and every
 * directory.  Sets nm->strategy.
 */
static int
get_names(struct build *b, const struct xfs_bulkstat *root,
	  const struct xbn_mountinfo *mi, struct xbn_links *links,
	  struct xbulk_names_result *r)
{
	const struct xbulk_names_opts *o = b->o;
	struct xbulk_names *nm = b->nm;
	struct xbulk_scan sc = {
		.size = sizeof(sc),
		.kind = XBULK_KIND_BULKSTAT,
		.endino = UINT64_MAX,
		.batch = SCAN_BATCH,
		.threads = o->threads,
		.out_fd = -1,
		.batch_fn = store_batch,
		.bad_inode_fn = bad_inode,
		.ag_fault_fn = ag_fault,
		.arg = b,
		.cancel = o->cancel,
	};
	uint64_t top = top_ino(nm, root, mi);
	int ret = XBN_USE_SCAN;

	if (o->strategy != XBULK_STRATEGY_SCAN && o->npaths && top) {
		r->fail = XBULK_NAMES_FAIL_SCAN;
		nm->spill.ahead_held = XBN_WALK_AHEAD;
		ret = xbn_subtree(nm, o, &sc, top, links, r);
		if (ret == XBN_USE_SCAN)
			nm->spill.ahead_held = 0;
		if (nm->nbad)
			qsort(nm->bad, nm->nbad, sizeof(*nm->bad), cmp_bad);
	}
	nm->strategy = ret == XBN_USE_SCAN ? XBULK_STRATEGY_SCAN :
					     XBULK_STRATEGY_WALK;
	r->strategy = nm->strategy;
	if (ret == XBN_USE_SCAN) {
		ret = scan(b, &sc, r);
		if (!ret)
			ret = read_all(b, root, links, r);
	}
	if (ret == -EINTR)
		r->fail = XBULK_NAMES_CANCELLED;
	return ret;
}

/* Everything after the reads. */
static int
link_and_check(struct build *b, struct xbn_mountinfo *mi,
	       struct xbn_links *links, struct xbulk_names_result *r)
{
	struct xbulk_names *nm = b->nm;
	double t0 = xbn_now_s();
	int ret;

	r->fail = XBULK_NAMES_FAIL_SETUP;
	xbl_progress_phase(nm->progress, XBULK_PHASE_LINK);
	ret = xbn_tree_build(nm, r, links);
	if (ret == -EINTR)
		r->fail = XBULK_NAMES_CANCELLED;
	if (ret)
		return ret;
	r->fail = XBULK_NAMES_FAIL_MOUNT;
	ret = find_top(nm, mi);
	if (!ret)
		ret = xbn_mounts_resolve(nm, mi);
	if (ret)
		return ret;
	r->fail = XBULK_NAMES_OK;
	r->dirs = nm->dirs.n;
	r->mounts = nm->nmounts;
	r->link_s = xbn_now_s() - t0;
	return xbn_report_all(nm, b->o, r);
}

/* The first versions of the sized structs end with these fields. */
#define OPTS_SIZE_1	XBL_SIZE_TO(struct xbulk_names_opts, cancel)
#define RESULT_SIZE_1	XBL_SIZE_TO(struct xbulk_names_result, link_s)
#define PROGRESS_SIZE_1	XBL_SIZE_TO(struct xbulk_names_progress, records)

static int
build(struct xbulk_fs *fs, const struct xbulk_names_opts *o,
      struct xbulk_names **names, struct xbulk_names_result *r)
{
	struct xbulk_names *nm = calloc(1, sizeof(*nm));
	struct build b = {
		.nm = nm, .o = o, .scan = { .size = sizeof(b.scan) },
	};
	struct xbn_mountinfo mi = { .mnt_id = 0 };
	struct xbn_links links = { .v = NULL };
	struct xfs_bulkstat root;
	struct stat st;
	int ret;

	r->fail = XBULK_NAMES_FAIL_SETUP;
	if (!nm)
		return r->err = -ENOMEM;
	if (fstat(fs->fd, &st) ||
	    xbn_spill_init(&nm->spill, o->memory, o->tmpdir, st.st_dev)) {
		free(nm);
		return r->err = -ENOMEM;
	}
	nm->fs = fs;
	nm->mfd = fs->fd;
	nm->fields = o->fields;
	nm->filtered = o->keep != NULL;
	nm->cancel = o->cancel;
	nm->progress = o->progress;
	nm->dir_fd = -1;
	ret = xbn_store_init(&nm->store, o->fields, &nm->spill);
	if (!ret)
		ret = xbn_dirs_init(&nm->dirs, &nm->spill);
	if (!ret)
		ret = pthread_mutex_init(&b.lock, NULL) ? -ENOMEM : 0;
	if (ret)
		goto fail;
	r->fail = XBULK_NAMES_FAIL_MOUNT;
	ret = find_mount(nm, &mi);
	/* a mount over a file is found by its entry: that one must stay */
	if (!ret && o->fold && xbn_mounts_on_dirs(&mi))
		nm->fold = (struct xbn_fold){
			.store = &nm->store, .fn = o->fold, .arg = o->arg,
		};
	if (!ret)
		ret = check_root(nm, &root, r);
	if (!ret)
		ret = get_names(&b, &root, &mi, &links, r);
	if (!ret)
		ret = link_and_check(&b, &mi, &links, r);
	free(links.v);
	pthread_mutex_destroy(&b.lock);
fail:
	xbl_progress_phase(o->progress, XBULK_PHASE_BUILT);
	xbn_mountinfo_free(&mi);
	r->store_bytes = nm->store.bytes;
	r->names_bytes = nm->list_bytes + nm->dirs.bytes;
	r->slot_bytes = nm->store.lay.slot;
	r->spill_bytes = nm->spill.placed;
	r->spill_trims = nm->spill.trims;
	if (nm->spill.err && ret != -EINTR) {
		r->fail = XBULK_NAMES_FAIL_SPILL;
		ret = nm->spill.err;
	}
	r->err = ret;
	if (ret) {
		xbulk_names_free(nm);
		return ret;
	}
	r->fail = XBULK_NAMES_OK;
	*names = nm;
	return 0;
}

int
xbulk_names_build(struct xbulk_fs *fs, const struct xbulk_names_opts *uo,
		  struct xbulk_names **names, struct xbulk_names_result *ur)
{
	return xbn_names_build(fs, uo, 0, names, ur);
}

int
xbn_names_build(struct xbulk_fs *fs, const struct xbulk_names_opts *uo,
		uint32_t internal, struct xbulk_names **names,
		struct xbulk_names_result *ur)
{
	struct xbulk_names_result r = { .size = sizeof(r) };
	struct xbulk_names_opts o;
	int ret;

	*names = NULL;
	if (ur->size < RESULT_SIZE_1)
		return -EINVAL;
	ret = xbl_sized_in(&o, sizeof(o), uo, OPTS_SIZE_1);
	if (!ret && o.progress && o.progress->size < PROGRESS_SIZE_1)
		ret = -EINVAL;
	if (ret) {
		r.fail = XBULK_NAMES_FAIL_SETUP;
		r.err = ret;
	} else {
		o.fields = (o.fields & XBULK_F_ALL) | internal;
		ret = build(fs, &o, names, &r);
	}
	xbl_sized_out(ur, &r, sizeof(r), RESULT_SIZE_1);
	return ret;
}

void
xbulk_names_free(struct xbulk_names *nm)
{
	size_t i;

	if (!nm)
		return;
	xbn_store_free(&nm->store);
	xbn_dirs_free(&nm->dirs);
	xbn_lblocks_free(&nm->spill, nm->lists);
	for (i = 0; i < nm->nmounts; i++)
		free(nm->mounts[i].path);
	free(nm->mounts);
	free(nm->bad);
	free(nm->faults);
	free(nm->problems);
	free(nm->mountpoint);
	free(nm->path);
	free(nm->stack);
	if (nm->live_ready) {
		xbn_lblocks_free(&nm->spill, nm->live_reader.blocks);
		xbn_reader_fini(&nm->live_reader);
	}
	xbn_spill_fini(&nm->spill);
	free(nm);
}

const char *
xbn_mountpoint(const struct xbulk_names *nm)
{
	return nm->mountpoint;
}

int
xbulk_names_memory(const struct xbulk_names *nm, struct xbulk_memory_stats *um)
{
	struct xbulk_memory_stats m = { .size = sizeof(m) };

	if (um->size < XBL_SIZE_TO(struct xbulk_memory_stats, tmpdir))
		return -EINVAL;
	m.budget = nm->spill.budget;
	m.held_bytes = nm->spill.held;
	m.spill_bytes = nm->spill.placed;
	m.spill_trims = nm->spill.trims;
	if (nm->spill.fd >= 0)
		snprintf(m.tmpdir, sizeof(m.tmpdir), "%s", nm->spill.dir);
	xbl_sized_out(um, &m, sizeof(m),
		      XBL_SIZE_TO(struct xbulk_memory_stats, tmpdir));
	return 0;
}
