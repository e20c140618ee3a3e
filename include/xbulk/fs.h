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

/*
 * A mounted XFS filesystem opened for bulk scanning: opaque, made by
 * xbulk_fs_open() and freed by xbulk_fs_close().  One handle may be used
 * by any number of threads at once.
 */
struct xbulk_fs;

/**
 * xbulk_fs_open() - open a mounted XFS filesystem for bulk scanning
 * @path: any regular file or directory on the filesystem
 * @abi:  XBULK_ABI_AUTO, _V1 or _V5 (the latter two are forced)
 * @fs:   out: the handle (xbulk_fs_close() it); NULL on failure
 *
 * Opens @path read-only, checks with statfs() that it is XFS and reads the
 * geometry (XFS_IOC_FSGEOMETRY).  No capability is needed for this; the
 * scans need CAP_SYS_ADMIN.
 *
 * Return: 0, -ENOENT/-EACCES/... from open(), -EINVAL if @path is neither a
 * regular file nor a directory, -ENOTTY if it is not on XFS, -EUCLEAN for
 * a geometry that cannot be right, -ENOMEM, or the negative errno of
 * XFS_IOC_FSGEOMETRY.
 */
int xbulk_fs_open(const char *path, enum xbulk_abi abi, struct xbulk_fs **fs);

/** xbulk_fs_close() - close the handle's fd and free it.  NULL is fine. */
void xbulk_fs_close(struct xbulk_fs *fs);

/** xbulk_fs_fd() - the handle's read-only fd on the filesystem (the
 * handle owns it: do not close it) */
int xbulk_fs_fd(const struct xbulk_fs *fs);

/** xbulk_fs_geometry() - the filesystem's geometry as XFS_IOC_FSGEOMETRY
 * gave it when the handle was opened */
const struct xfs_fsop_geom *xbulk_fs_geometry(const struct xbulk_fs *fs);

/** xbulk_fs_blocklog() - log2 of the block size (bs_blocks to bytes) */
unsigned int xbulk_fs_blocklog(const struct xbulk_fs *fs);

/**
 * xbulk_fs_abi() - the generation of the bulk ioctls the handle uses now:
 * XBULK_ABI_AUTO until the first call settles it, then _V5, or _V1 after
 * the fallback (ENOTTY/EOPNOTSUPP from a v5 ioctl), or what was forced.
 */
enum xbulk_abi xbulk_fs_abi(const struct xbulk_fs *fs);

/**
 * xbulk_fs_sync() - write the filesystem's delayed data out (syncfs(2) on
 * the handle's fd), so that a scan right after reports the sizes stat()
 * does: bulkstat gives a file's on-disk size (xfs_bulkstat_one_int():
 * bs_size = ip->i_disk_size), which grows only when the data written is
 * on disk, up to 30 s after the write (dirty_expire_centisecs); stat()
 * gives the size in memory.  xfsdump syncs before its bulkstat for the
 * same reason.  Costs little on a quiet filesystem, the writeback of
 * what is dirty otherwise.
 *
 * Return: 0 or the negative errno of syncfs() (-EIO: a writeback
 * failed; the sizes of what did not reach the disk may then lag).
 */
int xbulk_fs_sync(const struct xbulk_fs *fs);

/** xbulk_ino_to_agno() - AG number of inode @ino (libfrog cvt_ino_to_agno) */
uint32_t xbulk_ino_to_agno(const struct xbulk_fs *fs, uint64_t ino);

/** xbulk_agino_to_ino() - inode number of @agino in AG @agno */
uint64_t xbulk_agino_to_ino(const struct xbulk_fs *fs, uint32_t agno,
			    uint32_t agino);

#pragma GCC visibility pop

#endif /* XBULK_FS_H */
