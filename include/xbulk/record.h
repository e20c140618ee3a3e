/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libxbulk: records: v1 and statx to v5 (lib/convert.c), a record's times.
 * Part of <xbulk.h>: include that.
 */
#ifndef XBULK_RECORD_H
#define XBULK_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xfs/xfs.h>

#pragma GCC visibility push(default)

/* ------------------------------------------------------------------ */
/* v1 -> v5 record conversion (lib/convert.c)                          */
/* ------------------------------------------------------------------ */

/**
 * xbulk_bstat_to_bulkstat() - convert a v1 record to v5, as libfrog does
 * @blocklog: log2 of the fs block size (v1 extent size hints are bytes,
 *            v5 ones blocks)
 *
 * Fields v1 lacks are 0 (btime); bs_version is 1; v1's extent count goes
 * to bs_extents64 (bs_extents stays 0), as xfsprogs 6.1 does.  @bs may
 * not overlap @bs1.
 */
void xbulk_bstat_to_bulkstat(struct xfs_bulkstat *bs,
			     const struct xfs_bstat *bs1,
			     unsigned int blocklog);

/** xbulk_inogrp_to_inumbers() - convert a v1 inode group (xi_version 1) */
void xbulk_inogrp_to_inumbers(struct xfs_inumbers *xi,
			      const struct xfs_inogrp *ig);

struct statx;
/**
 * xbulk_bulkstat_from_statx() - a record from statx(2), for files
 * bulkstat does not give (the root of another filesystem mounted inside
 * the scanned one)
 * @stx: asked for at least STATX_BASIC_STATS; STATX_BTIME if known
 *
 * bs_blocks is st_blocks, in 512-byte units, and bs_blksize is 512 so
 * that bs_blocks stays in units of bs_blksize as bulkstat's are (exact:
 * no rounding to st_blksize).  bs_rdev is encoded as bulkstat does
 * (sysv_encode_dev(): major << 18 | minor).  The birth time is set and
 * bs_version is 5 when statx gave STATX_BTIME, else both are as v1's (0,
 * 1).  XFS-only fields (xflags, extents, hints, projid, gen) are 0.
 */
void xbulk_bulkstat_from_statx(struct xfs_bulkstat *bs,
			       const struct statx *stx);


/* The times of a record (find's -atime ... -newerXY, du's --by age). */
enum xbulk_time {
	XBULK_TIME_MTIME,
	XBULK_TIME_ATIME,
	XBULK_TIME_CTIME,
	XBULK_TIME_BTIME,	/* birth: 0 where the kernel gives none */
	XBULK_TIME_NR,
};

/** xbulk_time_of() - the time @t of @bs, seconds since the epoch */
static inline int64_t
xbulk_time_of(const struct xfs_bulkstat *bs, enum xbulk_time t)
{
	switch (t) {
	case XBULK_TIME_ATIME:
		return bs->bs_atime;
	case XBULK_TIME_CTIME:
		return bs->bs_ctime;
	case XBULK_TIME_BTIME:
		return bs->bs_btime;
	default:
		return bs->bs_mtime;
	}
}

/** xbulk_time_nsec_of() - the nanoseconds of the time @t of @bs */
static inline uint32_t
xbulk_time_nsec_of(const struct xfs_bulkstat *bs, enum xbulk_time t)
{
	switch (t) {
	case XBULK_TIME_ATIME:
		return bs->bs_atime_nsec;
	case XBULK_TIME_CTIME:
		return bs->bs_ctime_nsec;
	case XBULK_TIME_BTIME:
		return bs->bs_btime_nsec;
	default:
		return bs->bs_mtime_nsec;
	}
}

#pragma GCC visibility pop

#endif /* XBULK_RECORD_H */
