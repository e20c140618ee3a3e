// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * names-floor: the floor of the names engine (issue 9), what xbulk find
 * is held to: the bulkstat scan and one read of every directory, and
 * nothing else (no store, no tree, no path, no output).
 *
 *   names-floor [-j N] [--overlap] MNT
 *
 * 1. The scan: xbulk_scan_run() with N threads (libxbulk's parallel scan,
 *    as the engine runs it), records counted and dropped.
 * 2. The reads: N threads take open directories from a shared stack,
 *    read them whole with getdents64 (256 KiB buffers) and push each
 *    subdirectory opened by name from its parent (O_NOATIME, no symlink
 *    or mount crossed): top-down, as the engine reads them (why not by
 *    handle: lib/names/travel.c).
 * With --overlap the reads run while the scan does (N + N threads): the
 * engine reads after the scan; this says what overlapping would give.
 * MNT must be the mount's root.  Output, one line:
 *   threads=N overlap=0|1 inodes=I dirs=D entries=E scan_s=S read_s=R
 *   seconds=T
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"
#include "xbulk.h"

#define DBUF_SIZE	(256U * 1024)

static struct {
	pthread_mutex_t	lock;
	pthread_cond_t	cond;
	int		*fds;		/* the stack of directories to read */
	size_t		n;
	size_t		cap;
	unsigned int	active;		/* readers holding a directory */
	int		err;
	uint64_t	dirs;		/* atomic */
	uint64_t	entries;	/* atomic */
	uint64_t	records;	/* atomic */
} g = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
};

static int
scan_batch(void *arg, struct xbulk_out *out, const struct xfs_bulk_ireq *hdr,
	   const void *recs, uint32_t n)
{
	(void)arg;
	(void)out;
	(void)hdr;
	(void)recs;
	__atomic_add_fetch(&g.records, n, __ATOMIC_RELAXED);
	return 0;
}

/* Push @fd; false (after saying why) when memory runs out. */
static bool
push(int fd)
{
	pthread_mutex_lock(&g.lock);
	if (g.n == g.cap) {
		size_t cap = g.cap ? 2 * g.cap : 4096;
		int *v = realloc(g.fds, cap * sizeof(*v));

		if (!v) {
			g.err = ENOMEM;
			pthread_mutex_unlock(&g.lock);
			return false;
		}
		g.fds = v;
		g.cap = cap;
	}
	g.fds[g.n++] = fd;
	pthread_cond_signal(&g.cond);
	pthread_mutex_unlock(&g.lock);
	return true;
}

/* The next directory, or -1 when there is none left and none coming. */
static int
pop(bool finished_one)
{
	int fd = -1;

	pthread_mutex_lock(&g.lock);
	if (finished_one && --g.active == 0 && g.n == 0)
		pthread_cond_broadcast(&g.cond);
	while (!g.err) {
		if (g.n) {
			fd = g.fds[--g.n];
			g.active++;
			break;
		}
		if (!g.active)
			break;
		pthread_cond_wait(&g.cond, &g.lock);
	}
	pthread_mutex_unlock(&g.lock);
	return fd;
}

static int
open_sub(int pfd, const char *name)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_NOATIME | O_NOFOLLOW |
			 O_CLOEXEC,
		.resolve = RESOLVE_NO_XDEV | RESOLVE_NO_SYMLINKS,
	};

	return (int)syscall(SYS_openat2, pfd, name, &how, sizeof(how));
}

/* Read @fd whole; push its subdirectories. */
static void
read_dir(int fd, char *buf)
{
	uint64_t entries = 0;
	ssize_t len;

	while ((len = getdents64(fd, buf, DBUF_SIZE)) > 0) {
		ssize_t pos;

		for (pos = 0; pos < len;) {
			struct dirent64 *de = (void *)(buf + pos);
			int cfd;

			pos += de->d_reclen;
			if (de->d_name[0] == '.' && (!de->d_name[1] ||
			    (de->d_name[1] == '.' && !de->d_name[2])))
				continue;
			entries++;
			if (de->d_type != DT_DIR)
				continue;
			cfd = open_sub(fd, de->d_name);
			if (cfd >= 0)
				push(cfd);
			else if (errno != EXDEV && errno != ENOENT)
				fprintf(stderr, "names-floor: %s: %s\n",
					de->d_name, strerror(errno));
		}
	}
	close(fd);
	__atomic_add_fetch(&g.entries, entries, __ATOMIC_RELAXED);
	__atomic_add_fetch(&g.dirs, 1, __ATOMIC_RELAXED);
}

static void *
reader(void *arg)
{
	char *buf = malloc(DBUF_SIZE);
	bool one = false;
	int fd;

	(void)arg;
	if (!buf)
		return NULL;
	while ((fd = pop(one)) >= 0) {
		read_dir(fd, buf);
		one = true;
	}
	free(buf);
	return NULL;
}

static double read_s;

static void *
read_all(void *arg)
{
	double t0 = now_s();

	bench_run_threads("names-floor", *(unsigned int *)arg, reader);
	read_s = now_s() - t0;
	return NULL;
}

static int
usage(void)
{
	fprintf(stderr, "usage: names-floor [-j N] [--overlap] MNT\n");
	return 2;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "overlap", no_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	struct xbulk_scan scan = {
		.size = sizeof(scan),
		.kind = XBULK_KIND_BULKSTAT, .endino = UINT64_MAX,
		.batch = 4096, .out_fd = -1, .batch_fn = scan_batch,
	};
	struct xbulk_scan_result res = { .size = sizeof(res) };
	unsigned int threads = 1;
	unsigned long v;
	bool overlap = false;
	struct rlimit rl;
	struct xbulk_fs *fs;
	double t0, scan_s;
	pthread_t tid;
	int c, ret, root;

	while ((c = getopt_long(argc, argv, "j:", longopts, NULL)) != -1) {
		if (c == 'j' && bench_ulong(optarg, 10, 1, 1024, &v))
			threads = (unsigned int)v;
		else if (c == 'o')
			overlap = true;
		else
			return usage();
	}
	if (optind != argc - 1)
		return usage();
	/* Open directories wait on the stack: allow as many as we may. */
	if (!getrlimit(RLIMIT_NOFILE, &rl)) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	ret = xbulk_fs_open(argv[optind], XBULK_ABI_AUTO, &fs);
	root = open(argv[optind], O_RDONLY | O_DIRECTORY | O_NOATIME);
	if (ret || root < 0) {
		fprintf(stderr, "names-floor: %s: %s\n", argv[optind],
			strerror(ret ? -ret : errno));
		return 1;
	}
	scan.threads = threads;
	push(root);
	t0 = now_s();
	if (overlap && pthread_create(&tid, NULL, read_all, &threads)) {
		fprintf(stderr, "names-floor: cannot start the readers\n");
		return 1;
	}
	ret = xbulk_scan_run(fs, &scan, &res);
	scan_s = now_s() - t0;
	if (overlap)
		pthread_join(tid, NULL);
	else
		read_all(&threads);
	if (ret || g.err) {
		fprintf(stderr, "names-floor: %s\n",
			strerror(ret ? -ret : g.err));
		return 1;
	}
	printf("threads=%u overlap=%d inodes=%llu dirs=%llu entries=%llu "
	       "scan_s=%.3f read_s=%.3f seconds=%.3f\n", threads, overlap,
	       (unsigned long long)g.records, (unsigned long long)g.dirs,
	       (unsigned long long)g.entries, scan_s, read_s, now_s() - t0);
	xbulk_fs_close(fs);
	return 0;
}
