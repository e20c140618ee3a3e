// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * snap_walk SOURCE [START [post]]: the entries xbulk_snap_walk() gives
 * under START (default ".") of SOURCE, a snapshot file or, when SOURCE
 * is a directory, a live scan of the XFS mounted there
 * (xbulk_snap_scan()), one line each: the visit, depth, entries,
 * mode, size, links, flags and the path.  The test compares a file's
 * walk with the live scan's, so that xbulk_snap_tree_open() is seen to
 * take both sources.  Exit status 0, or 1 with a message.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "xbulk.h"

static int
visit(void *arg, const struct xbulk_entry *e, enum xbulk_visit v)
{
	(void)arg;
	printf("%s %u %llu %o %llu %u %x %s\n",
	       v == XBULK_VISIT_PRE ? "pre" : "post", e->depth,
	       (unsigned long long)e->nentries, e->bs->bs_mode,
	       (unsigned long long)e->bs->bs_size, e->bs->bs_nlink, e->flags,
	       e->path);
	return 0;
}

int
main(int argc, char **argv)
{
	struct xbulk_snap_scan_opts so = { .size = sizeof(so), .threads = 2 };
	struct xbulk_snap_tree_opts to = { .size = sizeof(to) };
	struct xbulk_snap_tree *t = NULL;
	struct xbulk_snap *s = NULL;
	struct xbulk_fs *fs = NULL;
	const char *start = argc > 2 ? argv[2] : ".";
	char why[256] = "";
	struct stat st;
	int err;

	if (argc < 2 || stat(argv[1], &st)) {
		fprintf(stderr, "usage: snap_walk SOURCE [START [post]]\n");
		return 1;
	}
	if (S_ISDIR(st.st_mode)) {
		err = xbulk_fs_open(argv[1], XBULK_ABI_AUTO, &fs);
		if (!err)
			err = xbulk_snap_scan(fs, &so, &s, NULL);
	} else {
		err = xbulk_snap_open(argv[1], &s, why, sizeof(why));
	}
	if (!err)
		err = xbulk_snap_tree_open(s, &to, &t);
	if (!err)
		err = xbulk_snap_walk(t, start, argc > 3 ? XBULK_WALK_POST : 0,
				      visit, NULL);
	if (err)
		fprintf(stderr, "snap_walk: %s: %s\n", argv[1],
			s && xbulk_snap_error(s) ? xbulk_snap_error(s) :
			*why ? why : strerror(-err));
	xbulk_snap_tree_free(t);
	xbulk_snap_close(s);
	xbulk_fs_close(fs);
	return err ? 1 : fflush(stdout) != 0;
}
