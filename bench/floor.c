// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * floor: the bare bulkstat ioctl loop, the speed limit xbulk -q is held to.
 *
 *   floor [-j N] [--split none|ag|chunks] [-n BATCH] MNT
 *
 * N threads issue XFS_IOC_BULKSTAT and do nothing with the records.
 *   none    one cursor over the whole filesystem (one thread only), as
 *           xfs_io -c 'bulkstat -q' does
 *   ag      a queue of AGs: each thread takes the next AG and walks it
 *           with XFS_BULK_IREQ_AGNO (the default with -j > 1)
 *   chunks  an inumbers pass first, then ranges of whole inode chunks
 *           holding ~2048 allocated inodes each, taken from a shared
 *           counter; each range is asked for with exactly its inode count
 * The time printed includes the inumbers pass (also printed on its own).
 * Output, one line: split=... threads=N batch=B inodes=I calls=C
 * plan_s=P seconds=S rate=R (inodes per second).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <xfs/xfs.h>

#include "bench.h"

#define RANGE_INODES 2048

enum split { SPLIT_NONE, SPLIT_AG, SPLIT_CHUNKS };

struct range {
	uint64_t start; /* first inode of the first chunk */
	uint64_t end;	/* last inode of the last chunk */
	uint64_t count; /* allocated inodes in the range */
};

static struct {
	int fd;
	enum split split;
	uint32_t batch;
	uint32_t flags; /* XFS_BULK_IREQ_NREXT64 if supported */
	uint32_t agcount;
	uint32_t next; /* atomic: next AG or range */
	struct range *ranges;
	size_t nranges;
	uint64_t inodes; /* atomic */
	uint64_t calls;	 /* atomic */
	int err;	 /* first errno */
} g;

static int
bulkstat(struct xfs_bulkstat_req *req)
{
	__atomic_add_fetch(&g.calls, 1, __ATOMIC_RELAXED);
	if (ioctl(g.fd, XFS_IOC_BULKSTAT, req)) {
		__atomic_compare_exchange_n(&g.err, &(int){0}, errno, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
		return -1;
	}
	return 0;
}

/* Walk from @ino (in AG @agno if @agno >= 0) until the kernel says end. */
static void
walk(struct xfs_bulkstat_req *req, uint64_t ino, int64_t agno)
{
	memset(&req->hdr, 0, sizeof(req->hdr));
	req->hdr.ino = ino;
	req->hdr.flags = g.flags;
	if (agno >= 0) {
		req->hdr.flags |= XFS_BULK_IREQ_AGNO;
		req->hdr.agno = (uint32_t)agno;
	}
	do {
		req->hdr.icount = g.batch;
		if (bulkstat(req))
			return;
		__atomic_add_fetch(&g.inodes, req->hdr.ocount,
				   __ATOMIC_RELAXED);
	} while (req->hdr.ocount);
}

/*
 * Bulkstat the @r->count inodes from @r->start.  The count includes
 * internal inodes bulkstat skips (realtime bitmap and summary), so a call
 * may return records past the range: they are not counted, and the range
 * ends there.
 */
static void
walk_range(struct xfs_bulkstat_req *req, const struct range *r)
{
	uint64_t left = r->count;
	uint32_t n;

	memset(&req->hdr, 0, sizeof(req->hdr));
	req->hdr.ino = r->start;
	req->hdr.flags = g.flags;
	while (left) {
		req->hdr.icount = left < g.batch ? (uint32_t)left : g.batch;
		if (bulkstat(req) || !req->hdr.ocount)
			return;
		n = req->hdr.ocount;
		while (n && req->bulkstat[n - 1].bs_ino > r->end)
			n--;
		__atomic_add_fetch(&g.inodes, n, __ATOMIC_RELAXED);
		if (n < req->hdr.ocount)
			return;
		left -= n < left ? n : left;
	}
}

static void *
worker(void *arg)
{
	struct xfs_bulkstat_req *req;
	uint32_t k;

	(void)arg;
	req = calloc(1, XFS_BULKSTAT_REQ_SIZE(g.batch));
	if (!req) {
		g.err = ENOMEM;
		return NULL;
	}
	switch (g.split) {
	case SPLIT_NONE:
		walk(req, 0, -1);
		break;
	case SPLIT_AG:
		while ((k = __atomic_fetch_add(&g.next, 1, __ATOMIC_RELAXED)) <
		       g.agcount)
			walk(req, 0, k);
		break;
	case SPLIT_CHUNKS:
		while ((k = __atomic_fetch_add(&g.next, 1, __ATOMIC_RELAXED)) <
		       g.nranges)
			walk_range(req, &g.ranges[k]);
		break;
	}
	free(req);
	return NULL;
}

/* Inumbers pass: ranges of whole chunks, ~RANGE_INODES inodes each. */
static int
plan_ranges(void)
{
	struct xfs_inumbers_req *req;
	struct range cur = {0};
	size_t alloc = 0;
	uint32_t i;

	req = calloc(1, XFS_INUMBERS_REQ_SIZE(4096));
	if (!req)
		return ENOMEM;
	for (;;) {
		req->hdr.icount = 4096;
		if (ioctl(g.fd, XFS_IOC_INUMBERS, req)) {
			free(req);
			return errno;
		}
		g.calls++;
		if (!req->hdr.ocount)
			break;
		for (i = 0; i < req->hdr.ocount; i++) {
			const struct xfs_inumbers *xi = &req->inumbers[i];

			if (!cur.count)
				cur.start = xi->xi_startino;
			cur.count += xi->xi_alloccount;
			cur.end = xi->xi_startino + 63;
			if (cur.count < RANGE_INODES)
				continue;
			if (g.nranges == alloc) {
				struct range *r;

				alloc = alloc ? 2 * alloc : 1024;
				r = realloc(g.ranges, alloc * sizeof(*r));
				if (!r) {
					free(req);
					return ENOMEM;
				}
				g.ranges = r;
			}
			g.ranges[g.nranges++] = cur;
			cur.count = 0;
		}
	}
	free(req);
	if (cur.count) {
		struct range *r =
		    realloc(g.ranges, (g.nranges + 1) * sizeof(*r));

		if (!r)
			return ENOMEM;
		g.ranges = r;
		g.ranges[g.nranges++] = cur;
	}
	return 0;
}

static void
usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: floor [-j N] [--split none|ag|chunks] [-n BATCH] MNT\n"
	    "\n"
	    "Bulkstat every inode of the XFS at MNT with N threads and no "
	    "output:\n"
	    "the bare ioctl loop's speed.\n"
	    "\n"
	    "  -j N        threads (default 1)\n"
	    "  --split S   none: one cursor (only -j 1; the default there)\n"
	    "              ag: threads take whole AGs (the default with -j > "
	    "1)\n"
	    "              chunks: inumbers pass, then ranges of ~%d inodes\n"
	    "  -n BATCH    records per ioctl (default 4096)\n"
	    "  -h, --help  this help\n",
	    RANGE_INODES);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"split", required_argument, NULL, 'S'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	static const char *const split_names[] = {"none", "ag", "chunks"};
	struct xfs_fsop_geom geo;
	unsigned long threads = 1, v;
	bool split_set = false;
	double t0, t_plan, t1;
	int c;

	g.batch = 4096;
	while ((c = getopt_long(argc, argv, "j:n:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			if (!bench_ulong(optarg, 10, 1, 1024, &threads))
				goto bad;
			break;
		case 'n':
			if (!bench_ulong(optarg, 10, 1, 1UL << 20, &v))
				goto bad;
			g.batch = (uint32_t)v;
			break;
		case 'S':
			split_set = true;
			if (!strcmp(optarg, "none"))
				g.split = SPLIT_NONE;
			else if (!strcmp(optarg, "ag"))
				g.split = SPLIT_AG;
			else if (!strcmp(optarg, "chunks"))
				g.split = SPLIT_CHUNKS;
			else
				goto bad;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			goto bad;
		}
	}
	if (optind != argc - 1)
		goto bad;
	if (!split_set)
		g.split = threads > 1 ? SPLIT_AG : SPLIT_NONE;
	if (g.split == SPLIT_NONE && threads > 1) {
		fprintf(stderr, "floor: --split none takes one thread\n");
		return 2;
	}
	g.fd = open(argv[optind], O_RDONLY | O_CLOEXEC);
	if (g.fd < 0) {
		fprintf(stderr, "floor: %s: %s\n", argv[optind],
			strerror(errno));
		return 1;
	}
	memset(&geo, 0, sizeof(geo));
	if (ioctl(g.fd, XFS_IOC_FSGEOMETRY, &geo)) {
		fprintf(stderr, "floor: %s: XFS_IOC_FSGEOMETRY: %s\n",
			argv[optind], strerror(errno));
		return 1;
	}
	g.agcount = geo.agcount;
	if (geo.flags & XFS_FSOP_GEOM_FLAGS_NREXT64)
		g.flags = XFS_BULK_IREQ_NREXT64;

	t0 = now_s();
	if (g.split == SPLIT_CHUNKS) {
		int err = plan_ranges();

		if (err) {
			fprintf(stderr, "floor: inumbers: %s\n", strerror(err));
			return 1;
		}
	}
	t_plan = now_s();
	if (bench_run_threads("floor", (unsigned int)threads, worker))
		return 1;
	t1 = now_s();
	if (g.err) {
		fprintf(stderr, "floor: XFS_IOC_BULKSTAT: %s\n",
			strerror(g.err));
		return 1;
	}
	printf("split=%s threads=%lu batch=%u inodes=%llu calls=%llu "
	       "plan_s=%.3f seconds=%.3f rate=%.0f\n",
	       split_names[g.split], threads, g.batch,
	       (unsigned long long)g.inodes, (unsigned long long)g.calls,
	       t_plan - t0, t1 - t0,
	       t1 > t0 ? (double)g.inodes / (t1 - t0) : 0.0);
	return 0;
bad:
	usage(stderr);
	return 2;
}
