/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libxbulk: the filesystem handle and inode number arithmetic (lib/fs.c).
 * Part of <xbulk.h>: include that.
 */
#ifndef XBULK_FS_H
#define XBULK_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xfs/xfs.h>
#include "xbulk_version.h"

#pragma GCC visibility push(default)

/**
 * xbulk_version() - the version of the libxbulk loaded at run time, as
 * "MAJOR.MINOR.PATCH" (XBULK_VERSION_STRING is the one compiled against).
 */
const char *xbulk_version(void);

/* Inodes per inode chunk (one inobt record, one inumbers record). */
#define XBULK_INODES_PER_CHUNK	64

/* ------------------------------------------------------------------ */
/* Filesystem handle (lib/fs.c)                                        */
/* ------------------------------------------------------------------ */

/* Which generation of the bulk ioctls a handle uses. */
enum xbulk_abi {
	XBULK_ABI_AUTO = 0,	/* v5, falling back to v1 on ENOTTY/EOPNOTSUPP */
	XBULK_ABI_V1 = 1,	/* XFS_IOC_FSBULKSTAT, _SINGLE, FSINUMBERS */
	XBULK_ABI_V5 = 5,	/* XFS_IOC_BULKSTAT, XFS_IOC_INUMBERS */
};

struct xbulk_fs {
	int			fd;		/* read-only fd on the fs */
	struct xfs_fsop_geom	geom;		/* XFS_IOC_FSGEOMETRY */
	unsigned int		blocklog;	/* log2(block size) */
	unsigned int		agino_log;	/* bits of agino in an ino */
	/*
	 * ABI in use.  AUTO until the first call settles it; the fallback
	 * may flip it to V1 at run time (atomically: threads share it).
	 */
	int			abi;
	bool			abi_forced;	/* caller chose; never fall back */
	/* Header flags newer kernels want (XFS_BULK_IREQ_NREXT64) */
	uint32_t		extra_flags;
};

/**
 * xbulk_fs_open() - open a mounted XFS filesystem for bulk scanning
 * @fs:   handle to fill
 * @path: any regular file or directory on the filesystem
 * @abi:  XBULK_ABI_AUTO, _V1 or _V5 (the latter two are forced)
 *
 * Opens @path read-only, checks with statfs() that it is XFS and reads the
 * geometry.  No capability is needed for this; the scans need
 * CAP_SYS_ADMIN.
 *
 * Return: 0, -ENOENT/-EACCES/... from open(), -EINVAL if @path is neither a
 * regular file nor a directory, -ENOTTY if it is not on XFS, or the
 * negative errno of XFS_IOC_FSGEOMETRY.  On failure @fs->fd is -1 (so
 * xbulk_fs_close() is still safe).
 */
int xbulk_fs_open(struct xbulk_fs *fs, const char *path, enum xbulk_abi abi);

/** xbulk_fs_close() - close the handle's fd.  Safe on a closed handle. */
void xbulk_fs_close(struct xbulk_fs *fs);

/** xbulk_ino_to_agno() - AG number of inode @ino (libfrog cvt_ino_to_agno) */
static inline uint32_t
xbulk_ino_to_agno(const struct xbulk_fs *fs, uint64_t ino)
{
	return (uint32_t)(ino >> fs->agino_log);
}

/** xbulk_agino_to_ino() - inode number of @agino in AG @agno */
static inline uint64_t
xbulk_agino_to_ino(const struct xbulk_fs *fs, uint32_t agno, uint32_t agino)
{
	return ((uint64_t)agno << fs->agino_log) | agino;
}

#pragma GCC visibility pop

#endif /* XBULK_FS_H */
