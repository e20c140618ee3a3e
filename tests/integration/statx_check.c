// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * statx_check MOUNTPOINT: cross-check a whole libxbulk bulkstat scan of
 * a mounted XFS against statx() of every path found by walking the tree.
 *
 *  1. Walk the tree once without looking at anything: reading a directory
 *     may update its atime (relatime), so the first walk settles the
 *     directory atimes before the scan and the checking walk.
 *  2. Scan the whole filesystem with xbulk_scan_run() into an array; the
 *     records come in inode order (checked), so it can be binary searched.
 *     A second scan with two threads must give the same records, byte
 *     for byte.
 *  3. Walk the tree again (nftw, FTW_PHYS | FTW_MOUNT) and statx() every
 *     path (AT_SYMLINK_NOFOLLOW): a record with its inode number must
 *     exist and agree on size, blocks, mode, nlink, uid, gid, atime,
 *     mtime, ctime, btime (when statx reports it), rdev of device nodes
 *     and the statx attribute bits that mirror xflags.  Regular files and
 *     directories are also opened for FS_IOC_FSGETXATTR: project ID, the
 *     whole xflags word, extent size hints and the data fork extent count.
 *  4. Every record must have been reached by the walk: bulkstat skips the
 *     internal inodes (realtime bitmap and summary, quota inodes; on
 *     metadir filesystems the metadata directory tree unless the caller
 *     sets XFS_BULK_IREQ_METADIR, which libxbulk does not), so on a
 *     filesystem with no unlinked-but-open files the records are exactly
 *     the distinct inodes of the tree.
 *  5. xbulk_bulkstat_single() of the special root inode is the inode of
 *     the mount point; a single lookup of every record's inode gives that
 *     inode, and one of a free inode number right after a record gives
 *     -ENOENT.
 *
 * Prints one line per mismatch and a summary; exits 0 if all agree, 1 on
 * any mismatch or error, 2 on a usage error.  Nothing may change the
 * filesystem while it runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "xbulk.h"

/* Bulkstat records of the serial scan, in inode order. */
static struct xfs_bulkstat *recs;
static size_t nrecs;
/* Per record: how many paths of the walk reached it. */
static uint32_t *seen;

static struct xbulk_fs *fs;
static unsigned int blocklog;
static bool have_btime;		/* the records carry btime (v5) */

static unsigned long long npaths;	/* paths visited by the walk */
static unsigned long long nchecked;	/* fields compared */
static unsigned long long nmismatch;

#define MISMATCH(...)	do {		\
	printf(__VA_ARGS__);		\
	nmismatch++;			\
} while (0)

/* --- the scans ------------------------------------------------------ */

/* Records collected by a scan; batch_fn may run in several threads. */
struct collection {
	struct xfs_bulkstat	*recs;
	size_t			n, cap;
	bool			ordered;	/* check inode order */
	pthread_mutex_t		lock;
};

static int
collect(void *arg, struct xbulk_out *out, const struct xfs_bulk_ireq *hdr,
	const void *batch, uint32_t n)
{
	struct collection *c = arg;
	const struct xfs_bulkstat *bs = batch;
	int ret = 0;
	uint32_t i;

	(void)out;
	(void)hdr;
	pthread_mutex_lock(&c->lock);
	if (c->n + n > c->cap) {
		size_t cap = c->cap ? c->cap : 4096;
		struct xfs_bulkstat *p;

		while (cap < c->n + n)
			cap *= 2;
		p = realloc(c->recs, cap * sizeof(*p));
		if (!p) {
			ret = -ENOMEM;
			goto out;
		}
		c->recs = p;
		c->cap = cap;
	}
	for (i = 0; i < n; i++) {
		if (c->ordered && c->n && bs[i].bs_ino <= c->recs[c->n - 1].bs_ino)
			MISMATCH("scan: record %" PRIu64 " after %" PRIu64
				 ": not in inode order\n",
				 (uint64_t)bs[i].bs_ino,
				 (uint64_t)c->recs[c->n - 1].bs_ino);
		c->recs[c->n++] = bs[i];
	}
out:
	pthread_mutex_unlock(&c->lock);
	return ret;
}

/*
 * A whole-filesystem bulkstat scan with @threads workers into @c.  The
 * scan's own text output goes to /dev/null: batch_fn appends nothing.
 */
static int
scan_all(struct collection *c, unsigned int threads, int null_fd)
{
	struct xbulk_scan scan = {
		.size = sizeof(scan),
		.kind = XBULK_KIND_BULKSTAT,
		.startino = 0,
		.endino = UINT64_MAX,
		.batch = 4096,
		.threads = threads,
		.out_fd = null_fd,
		.batch_fn = collect,
		.arg = c,
	};
	struct xbulk_scan_result res = { .size = sizeof(res) };

	return xbulk_scan_run(fs, &scan, &res);
}

static int
cmp_ino(const void *a, const void *b)
{
	const struct xfs_bulkstat *x = a, *y = b;

	return x->bs_ino < y->bs_ino ? -1 : x->bs_ino > y->bs_ino;
}

/*
 * The parallel scan must find the very same records as the serial one:
 * batches come from several threads in any order, so sort them first.
 * Nothing changes the filesystem in between, so the records are
 * compared byte for byte.
 */
static void
check_parallel(const struct collection *serial, struct collection *par)
{
	size_t i;

	qsort(par->recs, par->n, sizeof(*par->recs), cmp_ino);
	nchecked++;
	if (par->n != serial->n)
		MISMATCH("parallel scan: %zu records, serial scan %zu\n",
			 par->n, serial->n);
	for (i = 0; i < par->n && i < serial->n; i++) {
		nchecked++;
		if (memcmp(&par->recs[i], &serial->recs[i],
			   sizeof(par->recs[i]))) {
			MISMATCH("parallel scan: record %zu (ino %" PRIu64
				 ") differs from the serial scan's (ino %"
				 PRIu64 ")\n", i,
				 (uint64_t)par->recs[i].bs_ino,
				 (uint64_t)serial->recs[i].bs_ino);
			break;
		}
	}
}

static struct xfs_bulkstat *
find_rec(uint64_t ino)
{
	size_t lo = 0, hi = nrecs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (recs[mid].bs_ino == ino)
			return &recs[mid];
		if (recs[mid].bs_ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* --- comparisons ----------------------------------------------------- */

static void
check_u64(const char *path, uint64_t ino, const char *field, uint64_t bulk,
	  uint64_t other, const char *source)
{
	nchecked++;
	if (bulk != other)
		MISMATCH("%s (ino %" PRIu64 "): %s: bulkstat %" PRIu64
			 ", %s %" PRIu64 "\n",
			 path, ino, field, bulk, source, other);
}

static void
check_hex(const char *path, uint64_t ino, const char *field, uint64_t bulk,
	  uint64_t other, const char *source)
{
	nchecked++;
	if (bulk != other)
		MISMATCH("%s (ino %" PRIu64 "): %s: bulkstat 0x%" PRIx64
			 ", %s 0x%" PRIx64 "\n",
			 path, ino, field, bulk, source, other);
}

static void
check_time(const char *path, uint64_t ino, const char *field, int64_t sec,
	   uint32_t nsec, const struct statx_timestamp *ts)
{
	nchecked++;
	if (sec != ts->tv_sec || nsec != ts->tv_nsec)
		MISMATCH("%s (ino %" PRIu64 "): %s: bulkstat %" PRId64
			 ".%09" PRIu32 ", statx %" PRId64 ".%09" PRIu32 "\n",
			 path, ino, field, sec, nsec, (int64_t)ts->tv_sec,
			 ts->tv_nsec);
}

/* statx attribute bits and the XFS xflags they mirror. */
static const struct {
	uint64_t	attr;
	uint64_t	xflag;
} attr_map[] = {
	{ STATX_ATTR_IMMUTABLE,	FS_XFLAG_IMMUTABLE },
	{ STATX_ATTR_APPEND,	FS_XFLAG_APPEND },
	{ STATX_ATTR_NODUMP,	FS_XFLAG_NODUMP },
#ifdef STATX_ATTR_DAX
	{ STATX_ATTR_DAX,	FS_XFLAG_DAX },
#endif
};

static void
check_statx(const char *path, const struct statx *stx,
	    const struct xfs_bulkstat *bs)
{
	uint64_t ino = stx->stx_ino;
	size_t i;

	check_u64(path, ino, "size", bs->bs_size, stx->stx_size, "statx");
	/*
	 * The kernel fills both from the same counter, i_nblocks plus the
	 * delayed allocation blocks: bulkstat as is, in filesystem blocks
	 * (xfs_bulkstat_one_int), statx converted to 512-byte units with
	 * XFS_FSB_TO_BB (xfs_vn_getattr).  Realtime files would count
	 * realtime blocks the same way; these images have no realtime
	 * volume.  So stx_blocks == bs_blocks << (blocklog - 9).
	 */
	check_u64(path, ino, "blocks (512-byte units)",
		  bs->bs_blocks << (blocklog - 9), stx->stx_blocks, "statx");
	check_hex(path, ino, "mode", bs->bs_mode, stx->stx_mode, "statx");
	check_u64(path, ino, "nlink", bs->bs_nlink, stx->stx_nlink, "statx");
	check_u64(path, ino, "uid", bs->bs_uid, stx->stx_uid, "statx");
	check_u64(path, ino, "gid", bs->bs_gid, stx->stx_gid, "statx");
	check_time(path, ino, "atime", bs->bs_atime, bs->bs_atime_nsec,
		   &stx->stx_atime);
	check_time(path, ino, "mtime", bs->bs_mtime, bs->bs_mtime_nsec,
		   &stx->stx_mtime);
	check_time(path, ino, "ctime", bs->bs_ctime, bs->bs_ctime_nsec,
		   &stx->stx_ctime);
	if (have_btime && (stx->stx_mask & STATX_BTIME))
		check_time(path, ino, "btime", bs->bs_btime,
			   bs->bs_btime_nsec, &stx->stx_btime);
	/* bulkstat's bs_rdev is sysv_encode_dev(): major << 18 | minor */
	if (S_ISCHR(stx->stx_mode) || S_ISBLK(stx->stx_mode))
		check_hex(path, ino, "rdev", bs->bs_rdev,
			  (uint64_t)stx->stx_rdev_major << 18 |
			  stx->stx_rdev_minor, "statx");
	for (i = 0; i < sizeof(attr_map) / sizeof(attr_map[0]); i++) {
		if (!(stx->stx_attributes_mask & attr_map[i].attr))
			continue;
		check_u64(path, ino, "xflags vs statx attribute",
			  !!(bs->bs_xflags & attr_map[i].xflag),
			  !!(stx->stx_attributes & attr_map[i].attr), "statx");
	}
	/*
	 * Not compared: bs_blksize is the filesystem block size while
	 * stx_blksize is the preferred I/O size (a page or more); bs_gen and
	 * bs_forkoff have no statx counterpart.
	 */
}

/* Project ID, xflags and hints through FS_IOC_FSGETXATTR. */
static void
check_fsxattr(const char *path, const struct xfs_bulkstat *bs)
{
	uint64_t ino = bs->bs_ino;
	struct fsxattr fsx;
	uint64_t extents;
	int fd;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
		  O_CLOEXEC | O_NOATIME);
	if (fd < 0) {
		MISMATCH("%s (ino %" PRIu64 "): open: %s\n", path, ino,
			 strerror(errno));
		return;
	}
	if (ioctl(fd, FS_IOC_FSGETXATTR, &fsx)) {
		MISMATCH("%s (ino %" PRIu64 "): FS_IOC_FSGETXATTR: %s\n", path,
			 ino, strerror(errno));
		close(fd);
		return;
	}
	close(fd);
	check_u64(path, ino, "projid", bs->bs_projectid, fsx.fsx_projid,
		  "fsgetxattr");
	check_hex(path, ino, "xflags", bs->bs_xflags, fsx.fsx_xflags,
		  "fsgetxattr");
	/* v5 hints are in blocks, FSGETXATTR's in bytes. */
	check_u64(path, ino, "extsize (bytes)",
		  (uint64_t)bs->bs_extsize_blks << blocklog, fsx.fsx_extsize,
		  "fsgetxattr");
	check_u64(path, ino, "cowextsize (bytes)",
		  (uint64_t)bs->bs_cowextsize_blks << blocklog,
		  fsx.fsx_cowextsize, "fsgetxattr");
	/*
	 * The kernel fills bs_extents64 when asked with
	 * XFS_BULK_IREQ_NREXT64 and bs_extents otherwise (libxbulk, as
	 * xfs_io 6.1, shows the count in bs_extents64 either way).
	 * FSGETXATTR reports the same data fork count, except for a
	 * short-form directory (data in the inode, no blocks): there the
	 * kernel's xfs_fill_fsxattr() counts the fork's bytes as if they
	 * were extent records (if_bytes / 16: 14 for a 229-byte root
	 * directory) while bulkstat rightly says 0.  Skip those.
	 */
	if (S_ISDIR(bs->bs_mode) && bs->bs_blocks == 0)
		return;
	extents = bs->bs_extents64 ? bs->bs_extents64 : bs->bs_extents;
	check_u64(path, ino, "data fork extents", extents, fsx.fsx_nextents,
		  "fsgetxattr");
}

/* --- the walks ------------------------------------------------------- */

static int
settle(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)path;
	(void)st;
	(void)type;
	(void)ftw;
	return 0;
}

static int
visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	struct xfs_bulkstat *bs;
	struct statx stx;

	(void)st;
	(void)ftw;
	npaths++;
	if (type == FTW_NS || type == FTW_DNR) {
		MISMATCH("%s: the walk cannot %s it\n", path,
			 type == FTW_NS ? "stat" : "read");
		return 0;
	}
	if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW,
		  STATX_ALL | STATX_BTIME, &stx)) {
		MISMATCH("%s: statx: %s\n", path, strerror(errno));
		return 0;
	}
	bs = find_rec(stx.stx_ino);
	if (!bs) {
		MISMATCH("%s (ino %" PRIu64 "): no bulkstat record\n", path,
			 (uint64_t)stx.stx_ino);
		return 0;
	}
	seen[bs - recs]++;
	check_statx(path, &stx, bs);
	if (S_ISREG(stx.stx_mode) || S_ISDIR(stx.stx_mode))
		check_fsxattr(path, bs);
	return 0;
}

/* --- single-inode lookups -------------------------------------------- */

static void
check_singles(const char *mnt)
{
	struct xfs_bulkstat one;
	struct stat st;
	size_t i;
	int ret;

	ret = xbulk_bulkstat_single(fs, XFS_BULK_IREQ_SPECIAL_ROOT,
				    XFS_BULK_IREQ_SPECIAL, &one);
	if (ret) {
		MISMATCH("bulkstat_single root: %s\n", strerror(-ret));
	} else if (stat(mnt, &st)) {
		MISMATCH("%s: stat: %s\n", mnt, strerror(errno));
	} else {
		check_u64(mnt, st.st_ino, "bulkstat_single root ino",
			  one.bs_ino, st.st_ino, "stat");
		if (!find_rec(one.bs_ino))
			MISMATCH("bulkstat_single root: ino %" PRIu64
				 " is not in the scan\n",
				 (uint64_t)one.bs_ino);
	}

	for (i = 0; i < nrecs; i++) {
		uint64_t ino = recs[i].bs_ino;

		ret = xbulk_bulkstat_single(fs, ino, 0, &one);
		nchecked++;
		if (ret)
			MISMATCH("bulkstat_single %" PRIu64 ": %s\n", ino,
				 strerror(-ret));
		else if (one.bs_ino != ino || one.bs_mode != recs[i].bs_mode ||
			 one.bs_size != recs[i].bs_size)
			MISMATCH("bulkstat_single %" PRIu64 ": got ino %"
				 PRIu64 " mode 0%o size %" PRIu64 "\n", ino,
				 (uint64_t)one.bs_ino, one.bs_mode,
				 (uint64_t)one.bs_size);

		/* The number right after a record, if it is free. */
		if (i + 1 < nrecs && recs[i + 1].bs_ino == ino + 1)
			continue;
		ret = xbulk_bulkstat_single(fs, ino + 1, 0, &one);
		nchecked++;
		if (ret != -ENOENT)
			MISMATCH("bulkstat_single %" PRIu64
				 " (free): want ENOENT, got %s\n", ino + 1,
				 ret ? strerror(-ret) : "a record");
	}
}

int
main(int argc, char **argv)
{
	struct collection serial = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct collection par = { .lock = PTHREAD_MUTEX_INITIALIZER };
	unsigned long long distinct = 0;
	const char *mnt;
	int null_fd, ret;
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MOUNTPOINT\n", argv[0]);
		return 2;
	}
	mnt = argv[1];
	/* Line buffered: mismatch lines reach the log even on a crash. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	ret = xbulk_fs_open(mnt, XBULK_ABI_AUTO, &fs);
	if (ret) {
		fprintf(stderr, "statx_check: %s: %s\n", mnt, strerror(-ret));
		return 1;
	}
	blocklog = xbulk_fs_blocklog(fs);

	if (nftw(mnt, settle, 64, FTW_PHYS | FTW_MOUNT)) {
		fprintf(stderr, "statx_check: walking %s: %s\n", mnt,
			strerror(errno));
		return 1;
	}
	null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null_fd < 0) {
		perror("statx_check: /dev/null");
		return 1;
	}
	serial.ordered = true;
	ret = scan_all(&serial, 1, null_fd);
	if (!ret)
		ret = scan_all(&par, 2, null_fd);
	if (ret) {
		fprintf(stderr, "statx_check: bulkstat scan of %s: %s\n", mnt,
			strerror(-ret));
		return 1;
	}
	close(null_fd);
	check_parallel(&serial, &par);
	free(par.recs);
	recs = serial.recs;
	nrecs = serial.n;
	/* The ABI is settled by the first call: v1 records have no btime. */
	have_btime = xbulk_fs_abi(fs) != XBULK_ABI_V1;
	seen = calloc(nrecs ? nrecs : 1, sizeof(*seen));
	if (!seen) {
		fprintf(stderr, "statx_check: %s\n", strerror(ENOMEM));
		return 1;
	}

	if (nftw(mnt, visit, 64, FTW_PHYS | FTW_MOUNT)) {
		fprintf(stderr, "statx_check: walking %s: %s\n", mnt,
			strerror(errno));
		return 1;
	}
	for (i = 0; i < nrecs; i++) {
		if (seen[i]) {
			distinct++;
			nchecked++;
			if (seen[i] != recs[i].bs_nlink &&
			    !S_ISDIR(recs[i].bs_mode))
				MISMATCH("ino %" PRIu64 ": nlink %" PRIu32
					 " but the walk found %" PRIu32
					 " paths\n", (uint64_t)recs[i].bs_ino,
					 recs[i].bs_nlink, seen[i]);
		} else {
			MISMATCH("ino %" PRIu64 " (mode 0%o): bulkstat record"
				 " not reached by the walk\n",
				 (uint64_t)recs[i].bs_ino, recs[i].bs_mode);
		}
	}
	check_singles(mnt);
	xbulk_fs_close(fs);

	printf("statx_check: %s: %zu records, %llu paths, %llu distinct inodes, %llu checks, %llu mismatches\n",
	       mnt, nrecs, npaths, distinct, nchecked, nmismatch);
	free(seen);
	free(recs);
	return nmismatch ? 1 : 0;
}
