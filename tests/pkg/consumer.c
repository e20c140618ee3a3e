// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A program from outside the tree: tests/pkg/test-install.sh builds it
 * with `pkg-config --cflags --libs xbulk` against an installed libxbulk.
 * It counts the inodes of the XFS filesystem holding PATH through the
 * public API (a two-thread bulkstat scan) and prints
 * "libxbulk VERSION: N inodes".
 */
#include <stdio.h>
#include <string.h>

#include <xbulk.h>

static int
count(void *arg, struct xbulk_out *out, const struct xfs_bulk_ireq *hdr,
      const void *recs, uint32_t nrecs)
{
	(void)out;
	(void)hdr;
	(void)recs;
	__atomic_add_fetch((uint64_t *)arg, nrecs, __ATOMIC_RELAXED);
	return 0;
}

int
main(int argc, char **argv)
{
	uint64_t inodes = 0;
	struct xbulk_scan_result res = { .size = sizeof(res) };
	struct xbulk_scan scan = {
		.size = sizeof(scan),
		.kind = XBULK_KIND_BULKSTAT,
		.endino = UINT64_MAX,
		.batch = 1024,
		.threads = 2,
		.out_fd = 1,
		.batch_fn = count,
		.arg = &inodes,
	};
	struct xbulk_fs *fs;
	int err;

	if (argc != 2) {
		fputs("usage: consumer PATH\n", stderr);
		return 2;
	}
	/* The header installed with the library it was built against. */
	if (strcmp(xbulk_version(), XBULK_VERSION_STRING)) {
		fprintf(stderr, "consumer: libxbulk %s, xbulk.h %s\n",
			xbulk_version(), XBULK_VERSION_STRING);
		return 1;
	}
	err = xbulk_fs_open(argv[1], XBULK_ABI_AUTO, &fs);
	if (err) {
		fprintf(stderr, "consumer: %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	err = xbulk_scan_run(fs, &scan, &res);
	xbulk_fs_close(fs);
	if (err) {
		fprintf(stderr, "consumer: scan: %s\n", strerror(-err));
		return 1;
	}
	printf("libxbulk %s: %llu inodes\n", xbulk_version(),
	       (unsigned long long)inodes);
	return 0;
}
