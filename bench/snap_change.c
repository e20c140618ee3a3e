// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * snap-change OLD NEW [PERMILLE]: write NEW, a copy of the snapshot OLD
 * in which PERMILLE per thousand (default 10: 1%) of the regular files
 * with one name changed: every fourth of those renamed in place, the
 * others grew by a byte with a new mtime and ctime.  For bench/suites/snapshot.sh, whose image is
 * mounted read-only: the diff of two 1M snapshots with 1% changed,
 * without changing the filesystem.  Uses libxbulk's reader and writer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "xbulk.h"

int
main(int argc, char **argv)
{
	struct xbulk_snap_write_opts wo = { .size = sizeof(wo), .level = 1 };
	const struct xbulk_snap_rec *rec;
	struct xbulk_snap_writer *w;
	struct xbulk_snap_link links[64];
	struct xbulk_snap_rec copy;
	struct xfs_bulkstat bs;
	struct xbulk_snap *s;
	char why[256], name[300];
	unsigned long permille = argc > 3 ? strtoul(argv[3], NULL, 10) : 10;
	uint64_t n = 0, nfiles = 0, changed = 0;
	int ret;

	if (argc < 3 || !permille || permille > 1000) {
		fputs("Usage: snap-change OLD NEW [PERMILLE]\n", stderr);
		return 2;
	}
	if (xbulk_snap_open(argv[1], &s, why, sizeof(why))) {
		fprintf(stderr, "snap-change: %s: %s\n", argv[1], why);
		return 1;
	}
	ret = xbulk_snap_writer_new(argv[2], &wo, &w);
	while (!ret && (ret = xbulk_snap_next(s, &rec)) == 1) {
		copy = *rec;
		n++;
		if (S_ISREG(rec->bs->bs_mode) && rec->nlinks == 1 &&
		    nfiles++ % (1000 / permille) == 0) {
			bs = *rec->bs;
			copy.bs = &bs;
			if (changed++ % 4 == 0 && rec->links[0].namelen < 250) {
				links[0] = rec->links[0];
				snprintf(name, sizeof(name), "%.*s.r",
					 (int)links[0].namelen, links[0].name);
				links[0].name = name;
				links[0].namelen = (uint32_t)strlen(name);
				copy.links = links;
			} else {
				bs.bs_size++;
				bs.bs_mtime++;
				bs.bs_ctime++;
			}
		}
		ret = xbulk_snap_writer_add(w, s, &copy);
	}
	if (!ret)
		ret = xbulk_snap_writer_commit(w);
	else
		xbulk_snap_writer_abort(w);
	xbulk_snap_close(s);
	if (ret) {
		fprintf(stderr, "snap-change: %s: %s\n", argv[2], strerror(-ret));
		return 1;
	}
	printf("%llu of %llu inodes changed\n", (unsigned long long)changed,
	       (unsigned long long)n);
	return 0;
}
