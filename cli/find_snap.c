// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk find --snapshot FILE: find's expression over a snapshot file
 * instead of a live scan.  This file opens the source and refuses what
 * a snapshot cannot answer (a primary or directive named in one line);
 * cli/find.c walks it as it walks the names engine (xbulk_snap_walk()
 * in place of xbulk_names_walk()).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "snap.h"

enum xb_exit
xb_find_snap_open(const char *path, struct xbulk_find *find,
		  const volatile int *cancel, struct xbulk_snap **s,
		  struct xbulk_snap_tree **t)
{
	struct xbulk_snap_tree_opts o = { .size = sizeof(o), .cancel = cancel };
	const struct xbulk_snap_info *info;
	unsigned int blocklog = 9;
	char what[64];
	int err;

	if (xbulk_find_offline(find, XBULK_SNAP_FIELDS, what, sizeof(what))) {
		xb_error("find", "%s: not answerable from a snapshot (it holds "
			 "names and records only: xbulk(8), FIND OVER A "
			 "SNAPSHOT)", what);
		return XB_EXIT_USAGE;
	}
	if (xb_snap_open("find", path, s))
		return XB_EXIT_FAILURE;
	err = xbulk_snap_tree_open(*s, &o, t);
	if (err == -EINTR)
		return xb_signal_exit_status();
	if (err) {
		const char *why = xbulk_snap_error(*s);

		xb_error("find", "%s: %s", path, why ? why : strerror(-err));
		return XB_EXIT_FAILURE;
	}
	info = xbulk_snap_info(*s);
	while (blocklog < 31 && (1u << blocklog) < info->blocksize)
		blocklog++;
	xbulk_find_set_fs(find, blocklog, 0);
	return XB_EXIT_OK;
}
