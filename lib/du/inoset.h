/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/du (prefix xbd_: CONTRIBUTING.md).
 *
 * A set of inode numbers: the inodes du has counted (lib/du/inoset.c).
 */
#ifndef XBULK_DU_INOSET_H
#define XBULK_DU_INOSET_H

#include "../base.h"


/* Open addressing; inode 0 (never allocated on XFS) marks a free slot.
 * Zero it before use (no init function); xbd_inoset_free() leaves it
 * empty and usable. */
struct xbd_inoset {
	uint64_t	*slots;
	size_t		mask;		/* slots - 1, a power of 2 minus 1 */
	size_t		count;
};

/** xbd_inoset_add() - Return: 1 if added, 0 if present, -ENOMEM. */
int xbd_inoset_add(struct xbd_inoset *s, uint64_t ino);
/** xbd_inoset_has() - is @ino in the set */
bool xbd_inoset_has(const struct xbd_inoset *s, uint64_t ino);
void xbd_inoset_free(struct xbd_inoset *s);

#endif /* XBULK_DU_INOSET_H */
