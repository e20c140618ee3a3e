// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * scan_pool -j THREADS -n BATCH -p POOL_KIB MNT: bulkstat MNT with
 * libxbulk's parallel scan and a small output pool (struct
 * xbulk_scan.pool_bytes), the records as xfs_io's text on stdout.  With a
 * slow reader the workers ahead of the writer fill the pool at once
 * (tests/integration/test-skew.sh); the bytes must be the serial scan's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xbulk.h"

static int
emit(void *arg, struct xbulk_out *out, const struct xfs_bulk_ireq *hdr,
     const void *recs, uint32_t nrecs)
{
	const struct xfs_bulkstat *bs = recs;
	uint32_t i;
	int err;
	char *p;

	(void)arg;
	(void)hdr;
	for (i = 0; i < nrecs; i++) {
		p = xbulk_out_room(out, XBULK_BULKSTAT_TEXT_MAX, &err);
		if (!p)
			return err;
		out->len += xbulk_format_bulkstat_text(p, &bs[i]);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct xbulk_scan scan = XBULK_SCAN_INIT;
	struct xbulk_scan_result res = { .size = sizeof(res) };
	struct xbulk_fs *fs;
	int opt, err;

	scan.kind = XBULK_KIND_BULKSTAT;
	scan.batch = 4096;
	scan.threads = 2;
	scan.out_fd = STDOUT_FILENO;
	scan.batch_fn = emit;
	while ((opt = getopt(argc, argv, "j:n:p:")) != -1) {
		switch (opt) {
		case 'j':
			scan.threads = (unsigned int)atoi(optarg);
			break;
		case 'n':
			scan.batch = (uint32_t)atoi(optarg);
			break;
		case 'p':
			scan.pool_bytes = (size_t)atol(optarg) * 1024;
			break;
		default:
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: scan_pool -j N -n BATCH -p KIB MNT\n");
		return 2;
	}
	err = xbulk_fs_open(argv[optind], XBULK_ABI_AUTO, &fs);
	if (!err)
		err = xbulk_scan_run(fs, &scan, &res);
	xbulk_fs_close(fs);
	if (err)
		fprintf(stderr, "scan_pool: %s: %s\n", argv[optind],
			strerror(-err));
	return err ? 1 : 0;
}
