/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/parent (prefix xbp_: CONTRIBUTING.md).
 *
 * Internals of the parent pointer reader: getparents.c (the ioctl and its
 * records) under paths.c (directory paths, cached).
 */
#ifndef XBULK_PARENT_INTERNAL_H
#define XBULK_PARENT_INTERNAL_H

#include <stdint.h>

#include "../base.h"
#include "../hash.h"

/* A cached directory (paths.c). */
struct xbp_dir {
	uint64_t	ino;
	uint32_t	gen;
	uint32_t	parent;		/* the parent's index, or XBP_TOP
					   for the root; failed (state <
					   0): the index of the directory
					   where the chain failed, or
					   XBP_TOP for none */
	uint32_t	name_off;	/* in the name arena */
	uint16_t	name_len;
	int16_t		state;		/* XBP_* or a negative errno */
};

#define XBP_TOP		UINT32_MAX	/* parent of the root's children */
#define XBP_PENDING	1		/* on the chain being resolved */
#define XBP_DONE	2

struct xbulk_parents {
	struct xbulk_fs	*fs;
	uint8_t		fsid[8];	/* ha_fsid of this filesystem */
	uint64_t	root_ino;
	uint32_t	root_gen;
	uint64_t	fail_ino;	/* xbulk_parents_failed_ino() */
	const volatile int *cancel;	/* xbulk_parents_set_cancel() */
	/* getparents.c: the records of one call */
	char		*buf;
	uint32_t	bufsize;
	/* paths.c */
	struct xbp_dir	*dirs;		/* every directory seen */
	size_t		dirs_cap;
	uint32_t	ndirs;
	struct xbl_hash	index;		/* ino -> index in dirs (uint32_t) */
	char		*names;		/* name arena */
	size_t		names_len, names_cap;
	uint32_t	*stack;		/* indices of a chain */
	size_t		stack_cap;
	char		*path;		/* the path being built */
	size_t		path_cap;
};

/* Records per call are at most this big (XFS_XATTR_LIST_MAX). */
#define XBP_BUF_SIZE	65536

#endif /* XBULK_PARENT_INTERNAL_H */
