// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fmtbench: micro-benchmark of libxbulk's text formatters.
 *
 *   fmtbench [-n RECORDS] [-r ROUNDS] [-s SEED] [--only bulkstat|inumbers]
 *
 * Builds RECORDS pseudo-random but realistic records (inode numbers rising
 * through several AGs, mostly small sizes, times of recent years with any
 * nanosecond, a few owners, the usual modes) and formats them ROUNDS times
 * with xbulk_format_bulkstat_text() and xbulk_format_inumbers_text() into
 * a 1 MiB buffer that is reset when full (as the output buffer is after a
 * write).  Prints records/s, ns/record and bytes/record for each.
 *
 * With -n 0 it only sets up, which bench/fmt-callgrind uses to subtract
 * the setup cost from an instruction count.
 */
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "xbulk.h"

#define BUF_SIZE (1U << 20)

static void
make_bulkstat(struct xfs_bulkstat *bs, size_t n, uint64_t seed)
{
	static const uint16_t modes[] = {
	    S_IFREG | 0644, S_IFREG | 0644, S_IFREG | 0644, S_IFREG | 0755,
	    S_IFREG | 0600, S_IFDIR | 0755, S_IFLNK | 0777, S_IFIFO | 0644,
	};
	uint64_t s = seed, ino = 128;
	int64_t now = 1700000000;
	size_t i;

	memset(bs, 0, n * sizeof(*bs));
	for (i = 0; i < n; i++) {
		struct xfs_bulkstat *b = &bs[i];
		uint64_t r = rnd(&s);
		uint16_t mode = modes[r % 8];

		/* Mostly the next inode; sometimes a jump to a new chunk/AG. */
		ino += r % 16 ? 1 : 1 + rnd(&s) % 4096;
		if (r % 100000 == 7)
			ino += 1ULL << 32;
		b->bs_ino = ino;
		b->bs_size = S_ISDIR(mode)   ? 4096 + 4096 * (rnd(&s) % 8)
			     : S_ISLNK(mode) ? 8 + rnd(&s) % 60
			     : rnd(&s) % 10  ? rnd(&s) % 16384
					     : rnd(&s) % (1ULL << 30);
		b->bs_blocks = (b->bs_size + 4095) / 4096 * 8;
		b->bs_atime = now - (int64_t)(rnd(&s) % (10 * 365 * 86400));
		b->bs_mtime = b->bs_atime - (int64_t)(rnd(&s) % 86400);
		b->bs_ctime = b->bs_mtime;
		b->bs_btime = b->bs_mtime;
		b->bs_atime_nsec = (uint32_t)(rnd(&s) % 1000000000);
		b->bs_mtime_nsec = (uint32_t)(rnd(&s) % 1000000000);
		b->bs_ctime_nsec = b->bs_mtime_nsec;
		b->bs_btime_nsec = b->bs_mtime_nsec;
		b->bs_gen = (uint32_t)rnd(&s);
		b->bs_uid = r % 10 ? 0 : 1000 + (uint32_t)(rnd(&s) % 64);
		b->bs_gid = b->bs_uid;
		b->bs_blksize = 4096;
		b->bs_nlink = S_ISDIR(mode) ? 2 + (uint32_t)(rnd(&s) % 100)
			      : r % 100	    ? 1
					    : 2;
		b->bs_extents64 = S_ISREG(mode) && b->bs_size
				      ? 1 + (r % 1000 ? 0 : rnd(&s) % 300)
				      : 0;
		b->bs_aextents = r % 200 ? 0 : 1;
		b->bs_version = XFS_BULKSTAT_VERSION_V5;
		b->bs_forkoff = r % 20 ? 0 : 24;
		b->bs_sick = 0;
		b->bs_checked = 0;
		b->bs_mode = mode;
	}
}

static void
make_inumbers(struct xfs_inumbers *xi, size_t n, uint64_t seed)
{
	uint64_t s = seed, ino = 128;
	size_t i;

	memset(xi, 0, n * sizeof(*xi));
	for (i = 0; i < n; i++) {
		uint64_t r = rnd(&s);

		ino += 64 * (r % 8 ? 1 : 1 + rnd(&s) % 64);
		xi[i].xi_startino = ino;
		xi[i].xi_allocmask = r % 4 ? ~0ULL : rnd(&s);
		xi[i].xi_alloccount =
		    (uint8_t)__builtin_popcountll(xi[i].xi_allocmask);
		xi[i].xi_version = XFS_INUMBERS_VERSION_V5;
	}
}

static void
report(const char *what, size_t n, unsigned int rounds, uint64_t bytes,
       double secs)
{
	double recs = (double)n * rounds;

	printf("%-9s %10zu records x %u rounds: %7.3f s, %6.2f M records/s, "
	       "%6.1f ns/record, %5.1f bytes/record\n",
	       what, n, rounds, secs, secs > 0 ? recs / secs / 1e6 : 0.0,
	       recs > 0 ? secs * 1e9 / recs : 0.0,
	       recs > 0 ? (double)bytes / recs : 0.0);
}

static void
usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: fmtbench [-n RECORDS] [-r ROUNDS] [-s SEED] "
	    "[--only bulkstat|inumbers]\n"
	    "\n"
	    "Time libxbulk's text formatters over RECORDS realistic records\n"
	    "(default 1000000), formatted ROUNDS times (default 3).\n");
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"only", required_argument, NULL, 'o'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct xfs_bulkstat *bs = NULL;
	struct xfs_inumbers *xi = NULL;
	unsigned long n = 1000000, rounds = 3, seed = 1;
	int do_bs = 1, do_xi = 1, c;
	uint64_t bytes, sum = 0;
	unsigned int r;
	size_t i, len;
	char *buf;
	double t0;

	while ((c = getopt_long(argc, argv, "n:r:s:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (!bench_ulong(optarg, 10, 0, ULONG_MAX, &n))
				goto bad;
			break;
		case 'r':
			if (!bench_ulong(optarg, 10, 1, 1000000, &rounds))
				goto bad;
			break;
		case 's':
			if (!bench_ulong(optarg, 0, 0, ULONG_MAX, &seed))
				goto bad;
			break;
		case 'o':
			do_bs = !strcmp(optarg, "bulkstat");
			do_xi = !strcmp(optarg, "inumbers");
			if (!do_bs && !do_xi)
				goto bad;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			goto bad;
		}
	}
	if (optind != argc)
		goto bad;
	buf = malloc(BUF_SIZE);
	if (!buf)
		return 1;
	if (do_bs && n) {
		bs = malloc(n * sizeof(*bs));
		if (!bs)
			return 1;
		make_bulkstat(bs, n, seed);
	}
	if (do_xi && n) {
		xi = malloc(n * sizeof(*xi));
		if (!xi)
			return 1;
		make_inumbers(xi, n, seed);
	}

	if (do_bs) {
		bytes = 0;
		len = 0;
		t0 = now_s();
		for (r = 0; r < rounds; r++) {
			for (i = 0; i < n; i++) {
				if (BUF_SIZE - len < XBULK_BULKSTAT_TEXT_MAX) {
					sum += (unsigned char)buf[len / 2];
					bytes += len;
					len = 0;
				}
				len += xbulk_format_bulkstat_text(buf + len,
								  &bs[i]);
			}
		}
		bytes += len;
		report("bulkstat", n, (unsigned int)rounds, bytes,
		       now_s() - t0);
	}
	if (do_xi) {
		bytes = 0;
		len = 0;
		t0 = now_s();
		for (r = 0; r < rounds; r++) {
			for (i = 0; i < n; i++) {
				if (BUF_SIZE - len < XBULK_INUMBERS_TEXT_MAX) {
					sum += (unsigned char)buf[len / 2];
					bytes += len;
					len = 0;
				}
				len += xbulk_format_inumbers_text(buf + len,
								  &xi[i]);
			}
		}
		bytes += len;
		report("inumbers", n, (unsigned int)rounds, bytes,
		       now_s() - t0);
	}
	/* Keep the output observable so nothing is optimised away. */
	if (sum == 1)
		fputc(' ', stderr);
	free(bs);
	free(xi);
	free(buf);
	return 0;
bad:
	usage(stderr);
	return 2;
}
