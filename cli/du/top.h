/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to the du command (prefix du_: CONTRIBUTING.md).
 *
 * xbulk du's --top: the N largest entries (cli/du/top.c).
 */
#ifndef DU_TOP_H
#define DU_TOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "xbulk.h"

struct du_top_item {
	uint64_t		key;	/* what it is ranked by */
	struct xbulk_du_sum	sum;
	uint64_t		seq;	/* order of arrival: ties keep the
					   first */
	char			*path;
	uint64_t		ino;	/* its inode */
};

/* The @want largest of what was added (a min-heap of @want items). */
struct du_top {
	struct du_top_item	*heap;
	size_t			n, want;
	uint64_t		seq;
};

/** du_top_init() - keep the @want largest.  Return: 0 or -ENOMEM. */
int du_top_init(struct du_top *t, size_t want);
/**
 * du_top_add() - offer @path (inode @ino), ranked by @key (du --top: its
 * bytes, or with --inodes its inodes), with its @sum.
 * Return: 0 or -ENOMEM (copies @path).
 */
int du_top_add(struct du_top *t, uint64_t key,
		  const struct xbulk_du_sum *sum, const char *path,
		  uint64_t ino);
/** du_top_sort() - the items largest first (ties: first added). */
void du_top_sort(struct du_top *t);
/** du_top_free() - release the items and their paths. */
void du_top_free(struct du_top *t);

#endif /* DU_TOP_H */
