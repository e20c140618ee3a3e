/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/names (prefix xbn_: CONTRIBUTING.md).
 *
 * What a snapshot reads of the names (lib/snap/live.c): a cursor over
 * every kept inode in inode order with its names (inodes.c), and the
 * mount point they were built under (build.c).
 */
#ifndef XBULK_NAMES_INODES_H
#define XBULK_NAMES_INODES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base.h"
#include "store.h"

struct xbulk_names;

/* One name of an inode: the entry @name (@namelen bytes, not
 * NUL-terminated) of directory @parent. */
struct xbn_link {
	uint64_t	parent;
	const char	*name;
	uint32_t	namelen;
};

/* What xbn_inodes_next() hands out; valid until the next call. */
struct xbn_inode {
	uint64_t		ino;
	uint32_t		gen;
	uint32_t		mode;
	bool			top;		/* the mount's top directory */
	const struct xbn_link	*links;		/* in the order walks meet
						   them */
	size_t			nlinks;		/* 0: no name reaches it */
};

struct xbn_inodes;

/*
 * xbulk_names_build() with the internal XBN_F_* in @internal: a snapshot
 * builds with XBN_F_LINK (store.h), which xbn_inodes_open() needs.
 */
int xbn_names_build(struct xbulk_fs *fs, const struct xbulk_names_opts *uo,
		    uint32_t internal, struct xbulk_names **names,
		    struct xbulk_names_result *ur);

/*
 * A cursor over every kept inode of @nm, in inode order, each with the
 * names a walk from the mount's top would show (a directory: its
 * accepted entry; the top: none).  Once per @nm, built with XBN_F_LINK.
 * Return 0, -EINTR, -ENOMEM, -EINVAL (no XBN_F_LINK), -EOVERFLOW (a
 * listing of more than 4 GiB).
 */
int xbn_inodes_open(struct xbulk_names *nm, struct xbn_inodes **it);
/* 1 and *@in set, 0 at the end, -ENOMEM, -EPROTO (out of order). */
int xbn_inodes_next(struct xbn_inodes *it, const struct xbn_inode **in);
/* The store's fields of the inode next() returned last (others 0),
 * decoded from the stream up to it: a pass that never asks decodes
 * nothing. */
void xbn_inodes_fill(struct xbn_inodes *it, struct xfs_bulkstat *bs);
/* Back to the first inode. */
void xbn_inodes_rewind(struct xbn_inodes *it);
void xbn_inodes_free(struct xbn_inodes *it);
/* Why @nm's memory could not spill (0: it could), and the bytes it had
 * placed in the spill file. */
int xbn_spill_error(const struct xbulk_names *nm, uint64_t *placed);

/* build.c: where the filesystem was mounted (NULL: not known). */
const char *xbn_mountpoint(const struct xbulk_names *nm);

#endif /* XBULK_NAMES_INODES_H */
