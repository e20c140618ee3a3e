/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/names (prefix xbn_: CONTRIBUTING.md).
 *
 * Directories: the table of those the scan found (dirs.c), and opening
 * them, or any inode, by XFS handle (handle.c).
 */
#ifndef XBULK_NAMES_DIRS_H
#define XBULK_NAMES_DIRS_H

#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>

#include "../base.h"

/* No directory: a parent not known, an index not taken. */
#define XBN_NONE	UINT32_MAX

struct xbulk_names;

struct xbn_spill;

struct xbn_dir {
	uint64_t	ino;
	uint64_t	dotdot;		/* ".." as read, 0 if unknown */
	const uint8_t	*list;		/* listing (NULL: none) */
	uint64_t	listlen;	/* bytes */
	uint64_t	entry_off;	/* accepted entry in the parent's
					   listing */
	uint64_t	nentries;	/* as read, folded ones too */
	uint64_t	folded;		/* entries folded (listing.h) */
	uint64_t	fold_value;	/* the sum of their values */
	uint32_t	gen;
	uint32_t	parent;		/* accepted parent, or XBN_NONE */
	uint32_t	nlisters;	/* entries naming it */
	uint32_t	mark;		/* scratch of one pass */
	uint32_t	mount;		/* index in names->mounts */
	uint32_t	claimed;	/* by a reader (atomic) */
	uint16_t	flags;		/* XBN_DIR_* */
	int		err;		/* with UNREADABLE */
};

enum {
	XBN_DIR_READ		= 1u << 0,	/* listing read whole */
	XBN_DIR_GONE		= 1u << 1,	/* its name led nowhere: removed
						   or moved during the scan */
	XBN_DIR_UNREADABLE	= 1u << 2,	/* err; maybe a partial list */
	XBN_DIR_MOUNT		= 1u << 3,	/* covered by a mount */
	XBN_DIR_MOVED		= 1u << 4,	/* settled by a re-check */
	XBN_DIR_LINKED		= 1u << 5,	/* the walk strategy linked its
						   listing (once) */
};

#define XBN_DIR_SHIFT	12		/* directories per block: 4096 */
#define XBN_DIR_BLOCKS	(1u << 18)	/* 2^30 directories at most */

/* Directories found by the scan. */
struct xbn_dirs {
	struct xbn_dir		**blk;
	uint32_t		n;		/* registered */
	pthread_mutex_t		lock;		/* n, blk[] */
	uint64_t		bytes;
	struct xbn_spill	*mem;		/* where blocks come from */
};

static inline struct xbn_dir *
xbn_dir(const struct xbn_dirs *t, uint32_t i)
{
	return &t->blk[i >> XBN_DIR_SHIFT][i & ((1u << XBN_DIR_SHIFT) - 1)];
}

/* An empty table whose blocks come from @mem.  Return 0 or -ENOMEM. */
int xbn_dirs_init(struct xbn_dirs *t, struct xbn_spill *mem);
void xbn_dirs_free(struct xbn_dirs *t);
/* The path of directory @d from the mount point, or NULL if no accepted
 * parent chain leads to the top (or no memory); free() it. */
char *xbn_dir_path(const struct xbulk_names *nm, uint32_t d);
/*
 * Register the @n directories among @bs[0..@nbs) (mode S_IFDIR); their
 * indices are *@first, *@first + 1... in the order of @bs.
 * Return 0 or -ENOMEM.
 */
int xbn_dirs_add(struct xbn_dirs *t, const struct xfs_bulkstat *bs,
		 uint32_t nbs, uint32_t n, uint32_t *first);

/* ------------------------------------------------------------------ */
/* XFS handles (handle.c)                                              */
/* ------------------------------------------------------------------ */

/* XFS's handle of an inode: FILEID_INO32_GEN | XFS_FILEID_TYPE_64FLAG,
 * the 64-bit inode number then the 32-bit generation (host order). */
#define XBN_HANDLE_TYPE		0x81
#define XBN_HANDLE_BYTES	12

union xbn_handle {
	struct file_handle	fh;
	char			buf[sizeof(struct file_handle) +
				    XBN_HANDLE_BYTES];
};

void xbn_handle_pack(union xbn_handle *h, uint64_t ino, uint32_t gen);
/* open_by_handle_at(@mfd, handle, @flags | O_CLOEXEC): fd or -errno. */
int xbn_open_handle(int mfd, uint64_t ino, uint32_t gen, int flags);
/* Open directory @ino for reading, O_NOATIME: fd or -errno. */
int xbn_open_dir(int mfd, uint64_t ino, uint32_t gen);
/*
 * An O_PATH fd of directory @p (one read already, so its dentry is
 * connected and the handle costs no search) and, in @name (256 bytes),
 * the name of its entry at @off.  Return the fd or -errno.
 */
int xbn_open_parent(const struct xbulk_names *nm, uint32_t p, uint64_t off,
		    char *name);

#endif /* XBULK_NAMES_DIRS_H */
