/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/snap (prefix snap_: CONTRIBUTING.md).
 *
 * The changes a diff holds to hand them out sorted by path
 * (XBULK_DIFF_SORT_PATH) or with created and deleted subtrees folded
 * (XBULK_DIFF_FOLD): hold.c, for diff.c.
 */
#ifndef XBULK_SNAP_HOLD_H
#define XBULK_SNAP_HOLD_H

#include "snap.h"

struct snap_hold;

/*
 * The hold of a diff of @old and @new under XBULK_DIFF_* @flags, its
 * memory from the budget of @new's scan if it is one, else from a
 * budget of @memory bytes (0: none) spilling to @tmpdir.  Return 0 or
 * -ENOMEM.
 */
int snap_hold_new(const struct xbulk_snap *old, const struct xbulk_snap *new,
		  uint32_t flags, uint64_t memory, const char *tmpdir,
		  struct snap_hold **h);
/*
 * Take change @c of the stream, @parent the directory (inode number) of
 * the entry it is about (0: none, or neither CREATED nor DELETED):
 * folded into its subtree's line, or copied.  Return 0, -ENOMEM or the
 * spill file's error.
 */
int snap_hold_put(struct snap_hold *h, const struct xbulk_snap_change *c,
		  uint64_t parent);
/* After the last put: sort (XBULK_DIFF_SORT_PATH).  0 or an error. */
int snap_hold_seal(struct snap_hold *h);
/* The next change held, as xbulk_snap_diff_next(): 1, 0 at the end,
 * -EINTR (@cancel), -ENOMEM. */
int snap_hold_next(struct snap_hold *h, const volatile int *cancel,
		   const struct xbulk_snap_change **c);
void snap_hold_free(struct snap_hold *h);

#endif /* XBULK_SNAP_HOLD_H */
