/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A set of inode numbers: the inodes du has counted (lib/du/inoset.c).
 */
#ifndef XBULK_DU_INOSET_H
#define XBULK_DU_INOSET_H

#include "../base.h"


/* Open addressing; inode 0 (never allocated on XFS) marks a free slot.
 * Zero it before use (no init function); xbulk_inoset_free() leaves it
 * empty and usable. */
struct xbulk_inoset {
	uint64_t	*slots;
	size_t		mask;		/* slots - 1, a power of 2 minus 1 */
	size_t		count;
};

/** xbulk_inoset_add() - Return: 1 if added, 0 if present, -ENOMEM. */
int xbulk_inoset_add(struct xbulk_inoset *s, uint64_t ino);
/** xbulk_inoset_has() - is @ino in the set */
bool xbulk_inoset_has(const struct xbulk_inoset *s, uint64_t ino);
void xbulk_inoset_free(struct xbulk_inoset *s);

#endif /* XBULK_DU_INOSET_H */
