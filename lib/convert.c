// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * v1 -> v5 record conversion, done once at the edge (lib/ioctl.c) so that
 * the rest of the program knows only struct xfs_bulkstat and struct
 * xfs_inumbers.  Field by field as xfsprogs' libfrog converts them.  And
 * statx -> v5, for the roots of mounts inside the scanned filesystem.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

#include "xbulk.h"

void
xbulk_bstat_to_bulkstat(struct xfs_bulkstat *bs, const struct xfs_bstat *bs1,
			unsigned int blocklog)
{
	memset(bs, 0, sizeof(*bs));
	bs->bs_version = XFS_BULKSTAT_VERSION_V1;
	bs->bs_ino = bs1->bs_ino;
	bs->bs_mode = bs1->bs_mode;
	bs->bs_nlink = bs1->bs_nlink;
	bs->bs_uid = bs1->bs_uid;
	bs->bs_gid = bs1->bs_gid;
	bs->bs_rdev = bs1->bs_rdev;
	bs->bs_blksize = (uint32_t)bs1->bs_blksize;
	bs->bs_size = (uint64_t)bs1->bs_size;
	bs->bs_atime = bs1->bs_atime.tv_sec;
	bs->bs_mtime = bs1->bs_mtime.tv_sec;
	bs->bs_ctime = bs1->bs_ctime.tv_sec;
	bs->bs_atime_nsec = (uint32_t)bs1->bs_atime.tv_nsec;
	bs->bs_mtime_nsec = (uint32_t)bs1->bs_mtime.tv_nsec;
	bs->bs_ctime_nsec = (uint32_t)bs1->bs_ctime.tv_nsec;
	bs->bs_blocks = (uint64_t)bs1->bs_blocks;
	bs->bs_xflags = bs1->bs_xflags;
	/*
	 * v1 hints are bytes, v5 ones fs blocks.  libfrog's
	 * cvt_b_to_off_fsbt() takes a uint64_t, so the signed v1 bs_extsize
	 * is sign-extended first: a hint of 2 GiB or more, truncated
	 * negative by the kernel, prints as xfs_io -v 1 prints it.
	 */
	bs->bs_extsize_blks = (uint32_t)((uint64_t)bs1->bs_extsize >> blocklog);
	/* Stale without the hint flag: see normalize_v5() in ioctl.c */
	if (bs1->bs_xflags & FS_XFLAG_COWEXTSIZE)
		bs->bs_cowextsize_blks = bs1->bs_cowextsize >> blocklog;
	/* libfrog (xfsprogs 6.1) reports v1's count in the 64-bit field */
	bs->bs_extents64 = (uint64_t)bs1->bs_extents;
	bs->bs_gen = bs1->bs_gen;
	bs->bs_projectid = bstat_get_projid(bs1);
	bs->bs_forkoff = bs1->bs_forkoff;
	bs->bs_sick = bs1->bs_sick;
	bs->bs_checked = bs1->bs_checked;
	bs->bs_aextents = bs1->bs_aextents;
}

void
xbulk_inogrp_to_inumbers(struct xfs_inumbers *xi, const struct xfs_inogrp *ig)
{
	memset(xi, 0, sizeof(*xi));
	xi->xi_version = XFS_INUMBERS_VERSION_V1;
	xi->xi_startino = ig->xi_startino;
	xi->xi_allocmask = ig->xi_allocmask;
	xi->xi_alloccount = (uint8_t)ig->xi_alloccount;
}

void
xbulk_bulkstat_from_statx(struct xfs_bulkstat *bs, const struct statx *stx)
{
	memset(bs, 0, sizeof(*bs));
	bs->bs_ino = stx->stx_ino;
	bs->bs_mode = stx->stx_mode;
	bs->bs_nlink = stx->stx_nlink;
	bs->bs_uid = stx->stx_uid;
	bs->bs_gid = stx->stx_gid;
	/* bulkstat's sysv_encode_dev(): 14 bits of major, 18 of minor */
	bs->bs_rdev = stx->stx_rdev_major << 18 |
		      (stx->stx_rdev_minor & 0x3ffff);
	bs->bs_size = stx->stx_size;
	bs->bs_blksize = 512;
	bs->bs_blocks = stx->stx_blocks;
	bs->bs_atime = stx->stx_atime.tv_sec;
	bs->bs_atime_nsec = stx->stx_atime.tv_nsec;
	bs->bs_mtime = stx->stx_mtime.tv_sec;
	bs->bs_mtime_nsec = stx->stx_mtime.tv_nsec;
	bs->bs_ctime = stx->stx_ctime.tv_sec;
	bs->bs_ctime_nsec = stx->stx_ctime.tv_nsec;
	bs->bs_version = XFS_BULKSTAT_VERSION_V1;
	if (stx->stx_mask & STATX_BTIME) {
		bs->bs_btime = stx->stx_btime.tv_sec;
		bs->bs_btime_nsec = stx->stx_btime.tv_nsec;
		bs->bs_version = XFS_BULKSTAT_VERSION_V5;
	}
}
