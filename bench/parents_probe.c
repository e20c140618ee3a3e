// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parents-probe: what a find that resolves paths from parent pointers
 * would cost (issue 17), to hold against xbulk find, which reads every
 * directory:
 *
 *   parents-probe [-j N] [-e EVERY] MNT
 *
 * 1. The scan: xbulk_scan_run() with N threads, keeping the inode number
 *    and generation of every EVERY-th non-directory inode (in inode
 *    order; EVERY 1: all of them, EVERY 1000: 0.1%, a selective query
 *    whose expression needs no name).
 * 2. The lookups: xbulk_parents_paths() of each kept inode (one reader,
 *    its directory cache shared by all), each path written to stdout.
 * MNT must be on a filesystem made with mkfs.xfs -n parent=1.  Output on
 * stderr, one line:
 *   threads=N every=E inodes=I kept=K paths=P scan_s=S lookup_s=L
 *   seconds=T
 */
#include <errno.h>
#include <pthread.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "xbulk.h"

struct kept {
	uint64_t	ino;
	uint32_t	gen;
};

static struct {
	pthread_mutex_t	lock;
	struct kept	*v;
	size_t		n, cap;
	uint64_t	every, seen;
} keep = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int
take(void *arg, struct xbulk_out *out, const struct xfs_bulk_ireq *hdr,
     const void *recs, uint32_t nrecs)
{
	const struct xfs_bulkstat *bs = recs;
	uint32_t i;
	int err = 0;

	(void)arg;
	(void)out;
	(void)hdr;
	pthread_mutex_lock(&keep.lock);
	for (i = 0; i < nrecs && !err; i++) {
		if (S_ISDIR(bs[i].bs_mode) || keep.seen++ % keep.every)
			continue;
		if (keep.n == keep.cap) {
			size_t cap = keep.cap ? 2 * keep.cap : 4096;
			void *v = realloc(keep.v, cap * sizeof(*keep.v));

			if (!v) {
				err = -ENOMEM;
				break;
			}
			keep.v = v;
			keep.cap = cap;
		}
		keep.v[keep.n++] = (struct kept){ bs[i].bs_ino, bs[i].bs_gen };
	}
	pthread_mutex_unlock(&keep.lock);
	return err;
}

static uint64_t npaths;

static int
print_path(void *arg, const char *path, size_t len)
{
	const char *mnt = arg;

	npaths++;
	fputs(mnt, stdout);
	fwrite(path, 1, len, stdout);
	putchar('\n');
	return 0;
}

int
main(int argc, char **argv)
{
	struct xbulk_scan scan = {
		.size = sizeof(scan), .kind = XBULK_KIND_BULKSTAT, .endino = UINT64_MAX,
		.batch = 4096, .threads = 1, .out_fd = -1, .batch_fn = take,
	};
	struct xbulk_scan_result res = { .size = sizeof(res) };
	struct xbulk_parents *p;
	struct xbulk_fs *fs;
	double t0, t1, t2;
	size_t i;
	int c, err;

	keep.every = 1;
	while ((c = getopt(argc, argv, "e:j:")) != -1) {
		if (c == 'e')
			keep.every = strtoull(optarg, NULL, 10);
		else if (c == 'j')
			scan.threads = (unsigned int)strtoul(optarg, NULL, 10);
		else
			return 2;
	}
	if (optind + 1 != argc || keep.every == 0 || scan.threads == 0) {
		fprintf(stderr, "usage: parents-probe [-j N] [-e EVERY] MNT\n");
		return 2;
	}
	err = xbulk_fs_open(argv[optind], XBULK_ABI_AUTO, &fs);
	if (!err)
		err = xbulk_parents_open(fs, &p);
	if (err) {
		fprintf(stderr, "parents-probe: %s: %s\n", argv[optind],
			strerror(-err));
		return 1;
	}
	t0 = now_s();
	xbulk_scan_run(fs, &scan, &res);
	t1 = now_s();
	if (res.fail != XBULK_SCAN_OK) {
		fprintf(stderr, "parents-probe: scan: %s\n", strerror(-res.err));
		return 1;
	}
	for (i = 0; i < keep.n; i++) {
		err = xbulk_parents_paths(p, keep.v[i].ino, keep.v[i].gen,
					  print_path, argv[optind]);
		if (err && err != -ESTALE && err != -ENOENT) {
			fprintf(stderr, "parents-probe: inode %llu: %s\n",
				(unsigned long long)keep.v[i].ino,
				strerror(-err));
			return 1;
		}
	}
	fflush(stdout);
	t2 = now_s();
	fprintf(stderr, "threads=%u every=%llu inodes=%llu kept=%zu paths=%llu scan_s=%.3f lookup_s=%.3f seconds=%.3f\n",
		scan.threads, (unsigned long long)keep.every,
		(unsigned long long)res.records, keep.n,
		(unsigned long long)npaths, t1 - t0, t2 - t1, t2 - t0);
	xbulk_parents_free(p);
	xbulk_fs_close(fs);
	free(keep.v);
	return 0;
}
