// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * populate: a fast, deterministic file-tree generator for benchmarking
 * bulkstat.
 *
 *   populate [-n INODES] [-t THREADS] [-s SEED] [--skew] [--empty-files]
 *            [--small-dirs] DIR
 *
 * Creates about INODES new inodes under DIR (which must exist): a few
 * top-level directories ("tNNN"), leaf directories under them ("dNNNNN",
 * 100-1000 entries each) and, in the leaves, a realistic mix: mostly small
 * files (0-16 KiB), some empty files, a few large files written every
 * other block (fragmented), symlinks (short inline ones and long remote
 * ones), FIFOs, hard links (extra names, no new inode) and user.* xattrs
 * (small inline ones and a few large remote ones), with varied owners and
 * times.  The tree (names, types, sizes, contents, xattrs) depends only
 * on the seed, not on the thread count or scheduling; inode numbers are
 * the kernel's choice.
 *
 * --skew: put ~90% of the inodes in one AG.  XFS puts a new file in its
 * parent directory's AG and every new directory in the next AG of a
 * rotor.  So a top-level directory "skew" is made, and each leaf
 * directory meant for it is created under a temporary name until the
 * kernel places it in the same AG as "skew", then renamed (the misplaced
 * attempts are removed).  The other leaves (every tenth) are placed the
 * same way, round robin over the other AGs, so that the probing does not
 * herd them all into the AG after the skewed one.  At the end the in-use
 * inodes of every AG are printed (XFS_IOC_AG_GEOMETRY) so the skew can be
 * checked.
 *
 * --empty-files: every regular file empty but the fragmented ones (0.1% of
 * the entries, 16-32 extents of 4 KiB), so that millions of inodes fit
 * in memory (an image on tmpfs): a scan reads inodes, not data.
 *
 * --small-dirs: about 10 entries per directory: leaves of 5-15 entries,
 * under a tree of directories of 10 subdirectories each ("tN/tN/..."),
 * for the benchmarks of find and du, whose cost is per directory.
 *
 * Threads take leaf directories from a shared counter; each leaf is
 * filled with *at() calls relative to its own directory fd.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "xbulk.h"

#define LEAF_MIN     100 /* entries per leaf directory */
#define LEAF_MAX     1000
#define TOP_FANOUT   128 /* leaf directories per top-level one */
#define SMALL_MIN    5	 /* --small-dirs: entries per leaf directory */
#define SMALL_MAX    15
#define SMALL_FANOUT 10 /* --small-dirs: subdirectories per inner one */
#define DATA_SIZE    (64 * 1024)
#define SKEW_PERCENT 90
#define SKEW_TRIES   256 /* mkdir attempts to hit the skew AG */

/* Per-mille shares of the entry types in a leaf directory. */
#define PM_SYMLINK   25
#define PM_EMPTY     40
#define PM_FIFO	     3
#define PM_LARGE     1
#define PM_HARDLINK  10	 /* of files: an extra name */
#define PM_XATTR     50	 /* of files: a small xattr */
#define PM_XATTR_BIG 5	 /* of files: a large (remote) xattr */
#define PM_OWNER     100 /* of files: another uid/gid */
#define PM_TIMES     200 /* of files: older atime/mtime */

struct leaf {
	unsigned int top;     /* parent "tNNN" index */
	unsigned int entries; /* inodes to create in it */
	bool skew;	      /* must sit in the skew AG */
};

struct counts {
	uint64_t inodes;
	uint64_t dirs;
	uint64_t files;
	uint64_t empty;
	uint64_t large;
	uint64_t symlinks;
	uint64_t fifos;
	uint64_t hardlinks;
	uint64_t xattrs;
	uint64_t bytes;
	uint64_t skew_misses; /* directories made in the wrong AG */
};

static struct {
	const char *dir;
	uint64_t seed;
	int *top_fds;
	unsigned int ntop;
	struct leaf *leaves;
	size_t nleaves;
	size_t next_leaf; /* atomic */
	bool skew;
	bool empty_files; /* --empty-files */
	bool small_dirs;  /* --small-dirs */
	unsigned int leaf_min, leaf_max;
	unsigned int levels; /* --small-dirs: depth of the inner tree */
	int dirfd;	     /* DIR */
	int skew_fd;	     /* the "skew" directory */
	uint32_t skew_agno;
	uint32_t agcount;
	unsigned int agino_log;
	char data[DATA_SIZE];
	pthread_mutex_t lock;
	struct counts total;
	int err; /* first errno */
	const char *err_what;
} g;

/* Uniform in [lo, hi]. */
static uint64_t
rnd_range(uint64_t *s, uint64_t lo, uint64_t hi)
{
	return lo + rnd(s) % (hi - lo + 1);
}

static void
fail(int err, const char *what)
{
	pthread_mutex_lock(&g.lock);
	if (!g.err) {
		g.err = err;
		g.err_what = what;
	}
	pthread_mutex_unlock(&g.lock);
}

/* A file name: fixed prefix plus 0-24 pseudo-random name characters. */
static void
make_name(char *buf, size_t size, char kind, unsigned int i, uint64_t *s)
{
	static const char alpha[] =
	    "abcdefghijklmnopqrstuvwxyz0123456789_-.ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	int n = snprintf(buf, size, "%c%u", kind, i);
	unsigned int len = (unsigned int)rnd_range(s, 0, 24);

	if (len) {
		buf[n++] = '_';
		while (len-- && (size_t)n < size - 1)
			buf[n++] = alpha[rnd(s) % (sizeof(alpha) - 1)];
	}
	buf[n] = '\0';
}

/* Size of a small file: mostly under 4 KiB, up to 16 KiB. */
static size_t
small_size(uint64_t *s)
{
	unsigned int r = (unsigned int)(rnd(s) % 100);

	if (r < 40)
		return (size_t)rnd_range(s, 1, 1024);
	if (r < 70)
		return (size_t)rnd_range(s, 1025, 4096);
	if (r < 90)
		return (size_t)rnd_range(s, 4097, 8192);
	return (size_t)rnd_range(s, 8193, 16384);
}

static int
write_all(int fd, const char *buf, size_t len, off_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, buf, len, off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

/* Data, owner, times and xattrs of a new regular file. */
static int
fill_file(int fd, uint64_t *s, bool large, bool empty, struct counts *c)
{
	if (large) {
		/* 32-512 blocks of 4 KiB (32-64 with --empty-files),
		 * every other one written. */
		unsigned int blocks =
		    (unsigned int)rnd_range(s, 32, g.empty_files ? 64 : 512);
		unsigned int b;

		for (b = 0; b < blocks; b += 2) {
			size_t off = (size_t)(rnd(s) % (DATA_SIZE - 4096));

			if (write_all(fd, g.data + off, 4096, (off_t)b * 4096))
				return -1;
			c->bytes += 4096;
		}
	} else if (!empty) {
		size_t len = small_size(s);
		size_t off = (size_t)(rnd(s) % (DATA_SIZE - len));

		if (write_all(fd, g.data + off, len, 0))
			return -1;
		c->bytes += len;
	}
	if (rnd(s) % 1000 < PM_OWNER) {
		uid_t uid = (uid_t)rnd_range(s, 1000, 1063);

		if (fchown(fd, uid, (gid_t)(uid + rnd(s) % 4)))
			return -1;
	}
	if (rnd(s) % 1000 < PM_TIMES) {
		/* Some time in the last ~10 years, any nanosecond. */
		struct timespec ts[2];
		time_t now = 1700000000;

		ts[0].tv_sec = now - (time_t)(rnd(s) % (10 * 365 * 86400));
		ts[0].tv_nsec = (long)(rnd(s) % 1000000000);
		ts[1].tv_sec = ts[0].tv_sec - (time_t)(rnd(s) % 86400000);
		ts[1].tv_nsec = (long)(rnd(s) % 1000000000);
		if (futimens(fd, ts))
			return -1;
	}
	if (rnd(s) % 1000 < PM_XATTR) {
		size_t len = (size_t)rnd_range(s, 8, 64);

		if (fsetxattr(fd, "user.xbulk", g.data + len, len, 0))
			return -1;
		c->xattrs++;
	}
	if (rnd(s) % 1000 < PM_XATTR_BIG) {
		size_t len = (size_t)rnd_range(s, 2048, 8192);

		if (fsetxattr(fd, "user.xbulk.big", g.data + len, len, 0))
			return -1;
		c->xattrs++;
	}
	return 0;
}

/* Create one entry (one new inode) in leaf directory @dfd. */
static int
make_entry(int dfd, unsigned int i, uint64_t *s, struct counts *c,
	   const char **what)
{
	unsigned int r = (unsigned int)(rnd(s) % 1000);
	char name[64], name2[72];
	int fd;

	if (r < PM_SYMLINK) {
		/* 90% short (inline), 10% long (a remote block). */
		char target[1024];
		size_t len = rnd(s) % 10 ? (size_t)rnd_range(s, 8, 60)
					 : (size_t)rnd_range(s, 200, 1000);
		size_t k;

		make_name(name, sizeof(name), 'l', i, s);
		for (k = 0; k < len; k++)
			target[k] = (char)('a' + rnd(s) % 26);
		target[0] = '/';
		target[len] = '\0';
		*what = "symlinkat";
		if (symlinkat(target, dfd, name))
			return -1;
		c->symlinks++;
		return 0;
	}
	r -= PM_SYMLINK;
	if (r < PM_FIFO) {
		make_name(name, sizeof(name), 'p', i, s);
		*what = "mknodat";
		if (mknodat(dfd, name, S_IFIFO | 0644, 0))
			return -1;
		c->fifos++;
		return 0;
	}
	r -= PM_FIFO;

	make_name(name, sizeof(name), 'f', i, s);
	*what = "openat";
	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		    rnd(s) % 8 ? 0644 : 0755);
	if (fd < 0)
		return -1;
	*what = "write";
	if (fill_file(fd, s, r < PM_LARGE,
		      r >= PM_LARGE &&
			  (g.empty_files || r < PM_LARGE + PM_EMPTY),
		      c)) {
		close(fd);
		return -1;
	}
	close(fd);
	c->files++;
	if (r < PM_LARGE)
		c->large++;
	else if (g.empty_files || r < PM_LARGE + PM_EMPTY)
		c->empty++;
	if (rnd(s) % 1000 < PM_HARDLINK) {
		snprintf(name2, sizeof(name2), "h%s", name);
		*what = "linkat";
		if (linkat(dfd, name, dfd, name2, 0))
			return -1;
		c->hardlinks++;
	}
	return 0;
}

/*
 * mkdir @name in @pfd; with --skew, retry under temporary names until the
 * kernel puts it in AG @agno, then rename it to @name.
 */
static int
make_leaf_dir(int pfd, const char *name, uint32_t agno, struct counts *c)
{
	char tmp[64];
	struct stat st;
	int tries;

	if (!g.skew || !g.agino_log)
		return mkdirat(pfd, name, 0755);
	snprintf(tmp, sizeof(tmp), ".tmp.%s", name);
	for (tries = 0; tries < SKEW_TRIES; tries++) {
		if (mkdirat(pfd, tmp, 0755))
			return -1;
		if (fstatat(pfd, tmp, &st, AT_SYMLINK_NOFOLLOW))
			return -1;
		if ((uint32_t)((uint64_t)st.st_ino >> g.agino_log) == agno)
			break;
		c->skew_misses++;
		if (unlinkat(pfd, tmp, AT_REMOVEDIR))
			return -1;
	}
	if (tries == SKEW_TRIES && mkdirat(pfd, tmp, 0755))
		return -1;
	return renameat(pfd, tmp, pfd, name);
}

/* 10^@e. */
static uint64_t
pow10u(unsigned int e)
{
	uint64_t p = 1;

	while (e--)
		p *= SMALL_FANOUT;
	return p;
}

/*
 * --small-dirs: the path, relative to DIR, of inner directory @j of level
 * @level (1: the parents of the leaves; g.levels: the top): "tA/tB/...".
 */
static void
inner_path(char *buf, size_t size, unsigned int level, uint64_t j)
{
	unsigned int l;
	int n = 0;

	buf[0] = '\0';
	for (l = g.levels; l >= level && (size_t)n < size; l--)
		n +=
		    snprintf(buf + n, size - (size_t)n, "%st%llu", n ? "/" : "",
			     (unsigned long long)(j / pow10u(l - level)));
}

/* --small-dirs: inner directories of level @level. */
static uint64_t
inner_count(unsigned int level)
{
	uint64_t p = pow10u(level);

	return (g.nleaves + p - 1) / p;
}

/* --small-dirs: make the inner tree, top level first. */
static int
make_inner_dirs(void)
{
	char path[PATH_MAX];
	unsigned int level;
	uint64_t j;

	for (level = g.levels; level >= 1; level--) {
		for (j = 0; j < inner_count(level); j++) {
			inner_path(path, sizeof(path), level, j);
			if (mkdirat(g.dirfd, path, 0755)) {
				fprintf(stderr, "populate: %s/%s: %s\n", g.dir,
					path, strerror(errno));
				return -1;
			}
			g.total.dirs++;
			g.total.inodes++;
		}
	}
	return 0;
}

/* The directory leaf @k goes in (an fd to close if *@own). */
static int
leaf_parent(size_t k, bool *own)
{
	char path[PATH_MAX];

	*own = false;
	if (!g.small_dirs)
		return g.leaves[k].skew ? g.skew_fd
					: g.top_fds[g.leaves[k].top];
	*own = true;
	inner_path(path, sizeof(path), 1, k / SMALL_FANOUT);
	return openat(g.dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static int
make_leaf(size_t k, struct counts *c, const char **what)
{
	const struct leaf *l = &g.leaves[k];
	uint64_t s = g.seed ^ (0x1000003ULL * (k + 1));
	uint32_t agno = g.skew_agno;
	char name[32];
	unsigned int i;
	bool own;
	int pfd, dfd, ret = 0;

	*what = "open parent";
	pfd = leaf_parent(k, &own);
	if (pfd < 0)
		return -1;
	snprintf(name, sizeof(name), "d%05zu", k);
	if (!l->skew && g.agcount > 1) /* round robin over the others */
		agno =
		    (g.skew_agno + 1 + (uint32_t)(k / 10) % (g.agcount - 1)) %
		    g.agcount;
	*what = "mkdirat";
	ret = make_leaf_dir(pfd, name, agno, c);
	if (!ret) {
		c->dirs++;
		c->inodes++;
		*what = "open leaf";
		dfd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		ret = dfd < 0 ? -1 : 0;
	}
	if (own) {
		int e = errno;

		close(pfd);
		errno = e;
	}
	if (ret)
		return -1;
	for (i = 0; i < l->entries; i++) {
		ret = make_entry(dfd, i, &s, c, what);
		if (ret)
			break;
		c->inodes++;
	}
	if (!ret && rnd(&s) % 1000 < 100) {
		*what = "fsetxattr dir";
		ret = fsetxattr(dfd, "user.xbulk.dir", g.data, 32, 0);
		if (!ret)
			c->xattrs++;
	}
	close(dfd);
	return ret;
}

static void
add_counts(struct counts *dst, const struct counts *src)
{
	dst->inodes += src->inodes;
	dst->dirs += src->dirs;
	dst->files += src->files;
	dst->empty += src->empty;
	dst->large += src->large;
	dst->symlinks += src->symlinks;
	dst->fifos += src->fifos;
	dst->hardlinks += src->hardlinks;
	dst->xattrs += src->xattrs;
	dst->bytes += src->bytes;
	dst->skew_misses += src->skew_misses;
}

static void *
worker(void *arg)
{
	struct counts c = {0};
	const char *what = "";
	size_t k;

	(void)arg;
	for (;;) {
		k = __atomic_fetch_add(&g.next_leaf, 1, __ATOMIC_RELAXED);
		if (k >= g.nleaves || __atomic_load_n(&g.err, __ATOMIC_RELAXED))
			break;
		if (make_leaf(k, &c, &what)) {
			fail(errno, what);
			break;
		}
	}
	pthread_mutex_lock(&g.lock);
	add_counts(&g.total, &c);
	pthread_mutex_unlock(&g.lock);
	return NULL;
}

/*
 * Lay out the tree: leaf sizes from the seed until @inodes are used.
 * Every leaf costs 1 + entries inodes, every top-level directory 1.
 */
static int
plan(uint64_t inodes)
{
	uint64_t s = g.seed, left, est;
	size_t alloc = 0, skew_leaves = 0;

	est = inodes / ((g.leaf_min + g.leaf_max) / 2 + 1) + 1;
	if (g.small_dirs) {
		/* Inner directories: est / 10 + est / 100 + ... */
		uint64_t inner = 0, p;

		for (p = SMALL_FANOUT; p < est * SMALL_FANOUT;
		     p *= SMALL_FANOUT)
			inner += (est + p - 1) / p;
		g.ntop = (unsigned int)(inner < UINT_MAX ? inner : UINT_MAX);
	} else {
		g.ntop = (unsigned int)((est + TOP_FANOUT - 1) / TOP_FANOUT);
	}
	if (g.ntop < 1)
		g.ntop = 1;
	left = inodes > g.ntop + g.skew ? inodes - g.ntop - g.skew : 0;
	while (left > 1) {
		uint64_t n = rnd_range(&s, g.leaf_min, g.leaf_max);
		struct leaf *l;

		if (n > left - 1)
			n = left - 1;
		if (g.nleaves == alloc) {
			alloc = alloc ? 2 * alloc : 1024;
			l = realloc(g.leaves, alloc * sizeof(*l));
			if (!l)
				return -1;
			g.leaves = l;
		}
		l = &g.leaves[g.nleaves];
		l->entries = (unsigned int)n;
		l->top = (unsigned int)(g.nleaves % g.ntop);
		/* Every tenth leaf goes elsewhere; the rest are skewed. */
		l->skew = g.skew && g.nleaves % 10 != 9;
		skew_leaves += l->skew;
		g.nleaves++;
		left -= n + 1;
	}
	(void)skew_leaves;
	return 0;
}

/* agino_log from the geometry, or 0 if DIR is not on XFS. */
static unsigned int
xfs_agino_log(int fd, uint32_t *agcount)
{
	struct xfs_fsop_geom geo;
	unsigned int agblklog = 0, inopblog = 0;

	memset(&geo, 0, sizeof(geo));
	if (ioctl(fd, XFS_IOC_FSGEOMETRY, &geo))
		return 0;
	while ((1ULL << agblklog) < geo.agblocks)
		agblklog++;
	while ((geo.blocksize >> inopblog) > geo.inodesize)
		inopblog++;
	*agcount = geo.agcount;
	return agblklog + inopblog;
}

/* Print allocated-and-used inodes per AG (XFS_IOC_AG_GEOMETRY). */
static void
print_ag_usage(int fd, uint32_t agcount)
{
	uint64_t total = 0, *used;
	uint32_t a;

	used = calloc(agcount, sizeof(*used));
	if (!used)
		return;
	for (a = 0; a < agcount; a++) {
		struct xfs_ag_geometry ag;

		memset(&ag, 0, sizeof(ag));
		ag.ag_number = a;
		if (ioctl(fd, XFS_IOC_AG_GEOMETRY, &ag)) {
			free(used);
			return;
		}
		used[a] = ag.ag_icount - ag.ag_ifree;
		total += used[a];
	}
	printf("inodes in use per AG:");
	for (a = 0; a < agcount; a++)
		printf(" %u:%llu(%.1f%%)", a, (unsigned long long)used[a],
		       total ? 100.0 * (double)used[a] / (double)total : 0.0);
	printf("\n");
	free(used);
}

static void
usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: populate [-n INODES] [-t THREADS] [-s SEED] [--skew]\n"
	    "                [--empty-files] [--small-dirs] DIR\n"
	    "\n"
	    "Create about INODES new inodes (default 1000000) under the "
	    "existing\n"
	    "directory DIR: a realistic, seed-determined mix of directories, "
	    "small,\n"
	    "empty and fragmented files, symlinks, FIFOs, hard links and "
	    "xattrs.\n"
	    "\n"
	    "  -n INODES   inodes to create (directories included)\n"
	    "  -t THREADS  worker threads (default: online CPUs)\n"
	    "  -s SEED     seed of the tree's layout and contents (default 1)\n"
	    "  --skew      put ~90%% of the inodes in the AG of one directory "
	    "(XFS)\n"
	    "  --empty-files  all files empty but the fragmented ones (0.1%%)\n"
	    "  --small-dirs   about 10 entries per directory\n"
	    "  -h, --help  this help\n");
}

static bool
parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && end != s && !*end && s[0] != '-';
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"skew", no_argument, NULL, 'S'},
	    {"empty-files", no_argument, NULL, 'E'},
	    {"small-dirs", no_argument, NULL, 'D'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	uint64_t inodes = 1000000, threads, v;
	uint32_t agcount = 0;
	unsigned int i, nthreads;
	double t0;
	int c, dirfd;
	uint64_t s;

	threads = (uint64_t)sysconf(_SC_NPROCESSORS_ONLN);
	g.seed = 1;
	while ((c = getopt_long(argc, argv, "n:t:s:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (!parse_u64(optarg, &inodes))
				goto bad;
			break;
		case 't':
			if (!parse_u64(optarg, &threads) || !threads ||
			    threads > 1024)
				goto bad;
			break;
		case 's':
			if (!parse_u64(optarg, &v))
				goto bad;
			g.seed = v;
			break;
		case 'S':
			g.skew = true;
			break;
		case 'E':
			g.empty_files = true;
			break;
		case 'D':
			g.small_dirs = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
	bad:
		usage(stderr);
		return 2;
	}
	g.dir = argv[optind];
	pthread_mutex_init(&g.lock, NULL);
	s = g.seed;
	for (i = 0; i < DATA_SIZE; i += 8) {
		uint64_t r = rnd(&s);

		memcpy(g.data + i, &r, 8);
	}
	g.leaf_min = g.small_dirs ? SMALL_MIN : LEAF_MIN;
	g.leaf_max = g.small_dirs ? SMALL_MAX : LEAF_MAX;
	if (plan(inodes)) {
		perror("populate: plan");
		return 1;
	}
	dirfd = open(g.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		fprintf(stderr, "populate: %s: %s\n", g.dir, strerror(errno));
		return 1;
	}
	g.agino_log = xfs_agino_log(dirfd, &agcount);
	g.agcount = agcount;
	if (g.skew && !g.agino_log)
		fprintf(stderr,
			"populate: %s is not on XFS: --skew cannot "
			"place inodes\n",
			g.dir);

	t0 = now_s();
	g.dirfd = dirfd;
	if (g.small_dirs) {
		g.levels = 1;
		while (inner_count(g.levels) > SMALL_FANOUT)
			g.levels++;
		if (make_inner_dirs())
			return 1;
		g.ntop = 0;
	}
	g.top_fds = calloc(g.ntop ? g.ntop : 1, sizeof(*g.top_fds));
	if (!g.top_fds)
		return 1;
	for (i = 0; i < g.ntop; i++) {
		char name[32];

		snprintf(name, sizeof(name), "t%03u", i);
		if (mkdirat(dirfd, name, 0755) ||
		    (g.top_fds[i] =
			 openat(dirfd, name,
				O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
			fprintf(stderr, "populate: %s/%s: %s\n", g.dir, name,
				strerror(errno));
			return 1;
		}
		g.total.dirs++;
		g.total.inodes++;
	}
	if (g.skew) {
		struct stat st;

		if (mkdirat(dirfd, "skew", 0755) ||
		    (g.skew_fd = openat(dirfd, "skew",
					O_RDONLY | O_DIRECTORY | O_CLOEXEC)) <
			0 ||
		    fstat(g.skew_fd, &st)) {
			fprintf(stderr, "populate: %s/skew: %s\n", g.dir,
				strerror(errno));
			return 1;
		}
		g.total.dirs++;
		g.total.inodes++;
		if (g.agino_log)
			g.skew_agno =
			    (uint32_t)((uint64_t)st.st_ino >> g.agino_log);
	}

	nthreads = (unsigned int)(threads < g.nleaves ? threads : g.nleaves);
	if (!nthreads)
		nthreads = 1;
	if (bench_run_threads("populate", nthreads, worker))
		return 1;
	if (g.err) {
		fprintf(stderr, "populate: %s: %s\n", g.err_what,
			strerror(g.err));
		return 1;
	}
	printf("populate: %s: %llu inodes (%llu dirs, %llu files of which "
	       "%llu empty and %llu fragmented, %llu symlinks, %llu fifos), "
	       "%llu hard links, %llu xattrs, %.1f MiB of data, %u threads, "
	       "seed %llu, %.1f s\n",
	       g.dir, (unsigned long long)g.total.inodes,
	       (unsigned long long)g.total.dirs,
	       (unsigned long long)g.total.files,
	       (unsigned long long)g.total.empty,
	       (unsigned long long)g.total.large,
	       (unsigned long long)g.total.symlinks,
	       (unsigned long long)g.total.fifos,
	       (unsigned long long)g.total.hardlinks,
	       (unsigned long long)g.total.xattrs,
	       (double)g.total.bytes / 1048576.0, nthreads,
	       (unsigned long long)g.seed, now_s() - t0);
	if (g.skew && g.agino_log)
		printf("skew: directory %s/skew in AG %u, %llu directory "
		       "placements retried\n",
		       g.dir, g.skew_agno,
		       (unsigned long long)g.total.skew_misses);
	if (g.agino_log)
		print_ag_usage(dirfd, agcount);
	return 0;
}
