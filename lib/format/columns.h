/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/format (prefix xbf_: CONTRIBUTING.md).
 *
 * The columns of the JSON Lines and CSV formats (docs/formats.md), defined
 * once: both formatters and the CSV header expand the same lists, so the
 * two formats cannot drift apart.  Column names are the fields of the
 * kernel's struct xfs_bulkstat / struct xfs_inumbers (xfs_io prints the
 * same names), plus a few decoded companions:
 *
 *   U(name)        unsigned integer
 *   T(name)        a time: name (signed seconds), name_nsec, name_iso
 *                  (ISO 8601 UTC with nanoseconds)
 *   F(name, tab)   a bit mask: name (integer), name_names (the set bits'
 *                  names from @tab)
 *   M(name)        the mode: name (octal string "0100644"), name_type
 *                  ("regular", "directory", ...)
 *
 * The first column (bs_ino, xi_startino) is an unsigned integer written
 * before the lists expand, so that every listed column starts with its
 * separator.
 */
#ifndef XBULK_COLUMNS_H
#define XBULK_COLUMNS_H

#include <stdbool.h>

#include "xbulk.h"

#define XBF_BULKSTAT_COLUMNS(U, T, F, M)				\
	U(bs_size) U(bs_blocks) F(bs_xflags, xbf_xflag_names)	\
	T(bs_atime) T(bs_ctime) T(bs_mtime) T(bs_btime)			\
	U(bs_gen) U(bs_uid) U(bs_gid) U(bs_projectid) U(bs_blksize)	\
	U(bs_rdev) U(bs_cowextsize_blks) U(bs_extsize_blks)		\
	U(bs_nlink) U(bs_extents) U(bs_aextents) U(bs_version)		\
	U(bs_forkoff) F(bs_sick, xbf_sick_names)			\
	F(bs_checked, xbf_sick_names) M(bs_mode) U(bs_extents64)

#define XBF_INUMBERS_COLUMNS(U)					\
	U(xi_allocmask) U(xi_alloccount) U(xi_version)

/* Names of the bits of a flag word; NULL for a bit without a name. */
struct xbf_flag_names {
	unsigned int	nbits;
	const char	*name[64];
};

/* FS_XFLAG_* of <linux/fs.h>, lower case without the prefix. */
extern const struct xbf_flag_names xbf_xflag_names;
/* XFS_BS_SICK_* of <xfs/xfs_fs.h> (bs_sick and bs_checked). */
extern const struct xbf_flag_names xbf_sick_names;

/*
 * Append the names of the bits set in @v: JSON ("[\"a\",\"b\"]") or CSV
 * ("a|b").  Bits without a name are gathered into one last entry, their
 * mask in hex ("0x300000").  At most XBF_FLAG_NAMES_MAX bytes.
 */
char *xbf_put_flag_names(char *p, uint64_t v,
			   const struct xbf_flag_names *tab, bool json);

/* Bound of xbf_put_flag_names() for any 64-bit table and value. */
#define XBF_FLAG_NAMES_MAX	1024

/* Append the file type name of @mode ("regular", ...; "unknown"). */
char *xbf_put_mode_type(char *p, uint16_t mode);

/*
 * Append @sec, @nsec as ISO 8601 UTC with nine fraction digits:
 * "1969-12-31T23:59:59.000000005Z".  Years outside 0000-9999 get a sign
 * and as many digits as they need ("+292277026596-12-04T15:30:07..."), as
 * ISO 8601's expanded years; every int64_t second is covered.  @nsec must
 * be below 10^9 (xbf_nsec_valid()).  At most XBF_ISO8601_MAX bytes.
 */
char *xbf_put_iso8601(char *p, int64_t sec, uint32_t nsec);

#define XBF_ISO8601_MAX	48

static inline bool
xbf_nsec_valid(uint32_t nsec)
{
	return nsec < 1000000000U;
}

#endif /* XBULK_COLUMNS_H */
