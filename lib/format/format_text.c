// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The text formatter: xfs_io 6.1's dump_bulkstat() and dump_inumbers()
 * (io/bulkstat.c) byte for byte, without printf.  Labels are copied as
 * compile-time constant strings and numbers converted by hand, two decimal
 * digits at a time (digits.h); this is the hot path of a printing scan.
 */
#include "digits.h"
#include "xbulk.h"

/* "SECONDS.NANOSECONDS": seconds as unsigned 64-bit, nsec not padded. */
static inline char *
put_time(char *p, int64_t sec, uint32_t nsec)
{
	p = put_dec(p, (uint64_t)sec);
	*p++ = '.';
	return put_dec(p, nsec);
}

size_t
xbulk_format_bulkstat_text(char *dst, const struct xfs_bulkstat *bs)
{
	char *p = dst;

	p = PUT(p, "bs_ino = ");
	p = put_dec(p, bs->bs_ino);
	p = PUT(p, "\n\tbs_size = ");
	p = put_dec(p, bs->bs_size);
	p = PUT(p, "\n\tbs_blocks = ");
	p = put_dec(p, bs->bs_blocks);
	p = PUT(p, "\n\tbs_xflags = 0x");
	p = put_hex(p, bs->bs_xflags);
	p = PUT(p, "\n\tbs_atime = ");
	p = put_time(p, bs->bs_atime, bs->bs_atime_nsec);
	p = PUT(p, "\n\tbs_ctime = ");
	p = put_time(p, bs->bs_ctime, bs->bs_ctime_nsec);
	p = PUT(p, "\n\tbs_mtime = ");
	p = put_time(p, bs->bs_mtime, bs->bs_mtime_nsec);
	p = PUT(p, "\n\tbs_btime = ");
	p = put_time(p, bs->bs_btime, bs->bs_btime_nsec);
	p = PUT(p, "\n\tbs_gen = 0x");
	p = put_hex(p, bs->bs_gen);
	p = PUT(p, "\n\tbs_uid = ");
	p = put_dec(p, bs->bs_uid);
	p = PUT(p, "\n\tbs_gid = ");
	p = put_dec(p, bs->bs_gid);
	p = PUT(p, "\n\tbs_projectid = ");
	p = put_dec(p, bs->bs_projectid);
	p = PUT(p, "\n\tbs_blksize = ");
	p = put_dec(p, bs->bs_blksize);
	p = PUT(p, "\n\tbs_rdev = ");
	p = put_dec(p, bs->bs_rdev);
	p = PUT(p, "\n\tbs_cowextsize_blks = ");
	p = put_dec(p, bs->bs_cowextsize_blks);
	p = PUT(p, "\n\tbs_extsize_blks = ");
	p = put_dec(p, bs->bs_extsize_blks);
	p = PUT(p, "\n\tbs_nlink = ");
	p = put_dec(p, bs->bs_nlink);
	p = PUT(p, "\n\tbs_extents = ");
	p = put_dec(p, bs->bs_extents);
	p = PUT(p, "\n\tbs_aextents = ");
	p = put_dec(p, bs->bs_aextents);
	p = PUT(p, "\n\tbs_version = ");
	p = put_dec(p, bs->bs_version);
	p = PUT(p, "\n\tbs_forkoff = ");
	p = put_dec(p, bs->bs_forkoff);
	p = PUT(p, "\n\tbs_sick = 0x");
	p = put_hex(p, bs->bs_sick);
	p = PUT(p, "\n\tbs_checked = 0x");
	p = put_hex(p, bs->bs_checked);
	p = PUT(p, "\n\tbs_mode = 0");
	p = put_oct(p, bs->bs_mode);
	p = PUT(p, "\n\tbs_extents64 = ");
	p = put_dec(p, bs->bs_extents64);
	*p++ = '\n';
	return (size_t)(p - dst);
}

size_t
xbulk_format_inumbers_text(char *dst, const struct xfs_inumbers *xi)
{
	char *p = dst;

	p = PUT(p, "xi_startino = ");
	p = put_dec(p, xi->xi_startino);
	p = PUT(p, "\n\txi_allocmask = 0x");
	p = put_hex(p, xi->xi_allocmask);
	p = PUT(p, "\n\txi_alloccount = ");
	p = put_dec(p, xi->xi_alloccount);
	p = PUT(p, "\n\txi_version = ");
	p = put_dec(p, xi->xi_version);
	*p++ = '\n';
	return (size_t)(p - dst);
}
