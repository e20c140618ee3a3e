// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/convert.c: v1 records (struct xfs_bstat, struct xfs_inogrp) become
 * v5 ones field by field as xfsprogs 6.1's libfrog converts them
 * (xfrog_bulkstat_v1_to_v5, xfrog_inumbers_v1_to_v5), so that "-v 1"
 * prints what xfs_io prints.  And statx -> v5 (xbulk_bulkstat_from_statx(),
 * the one conversion the names engine and find share for mount points).
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "xbulk.h"

/* A v1 record with every field a different value. */
static void
fill_bstat(struct xfs_bstat *bs1)
{
	memset(bs1, 0, sizeof(*bs1));
	bs1->bs_ino = 1234567;
	bs1->bs_mode = 0100755;
	bs1->bs_nlink = 3;
	bs1->bs_uid = 1001;
	bs1->bs_gid = 1002;
	bs1->bs_rdev = 2051;
	bs1->bs_blksize = 4096;
	bs1->bs_size = 1048577;
	bs1->bs_atime.tv_sec = 1600000000;
	bs1->bs_atime.tv_nsec = 111;
	bs1->bs_mtime.tv_sec = 1600000001;
	bs1->bs_mtime.tv_nsec = 222;
	bs1->bs_ctime.tv_sec = 1600000002;
	bs1->bs_ctime.tv_nsec = 333;
	bs1->bs_blocks = 257;
	bs1->bs_xflags = 0x10820;	/* FS_XFLAG_COWEXTSIZE: hint valid */
	bs1->bs_extsize = 65536;
	bs1->bs_extents = 17;
	bs1->bs_gen = 0xdeadbeef;
	bs1->bs_projid_lo = 0x5678;
	bs1->bs_forkoff = 24;
	bs1->bs_projid_hi = 0x1234;
	bs1->bs_sick = 0x3;
	bs1->bs_checked = 0x7;
	bs1->bs_cowextsize = 131072;
	bs1->bs_dmevmask = 0xffffffff;	/* no v5 counterpart */
	bs1->bs_dmstate = 0xffff;	/* no v5 counterpart */
	bs1->bs_aextents = 2;
}

/* Convert into a record that held garbage before. */
static void
convert(struct xfs_bulkstat *bs, const struct xfs_bstat *bs1,
	unsigned int blocklog)
{
	memset(bs, 0xff, sizeof(*bs));
	xbulk_bstat_to_bulkstat(bs, bs1, blocklog);
}

/* Every field v1 has lands in its v5 counterpart. */
static void
test_bstat_every_field(void **state)
{
	struct xfs_bstat bs1;
	struct xfs_bulkstat bs;

	(void)state;
	fill_bstat(&bs1);
	convert(&bs, &bs1, 12);
	assert_int_equal(bs.bs_ino, 1234567);
	assert_int_equal(bs.bs_mode, 0100755);
	assert_int_equal(bs.bs_nlink, 3);
	assert_int_equal(bs.bs_uid, 1001);
	assert_int_equal(bs.bs_gid, 1002);
	assert_int_equal(bs.bs_rdev, 2051);
	assert_int_equal(bs.bs_blksize, 4096);
	assert_int_equal(bs.bs_size, 1048577);
	assert_int_equal(bs.bs_atime, 1600000000);
	assert_int_equal(bs.bs_atime_nsec, 111);
	assert_int_equal(bs.bs_mtime, 1600000001);
	assert_int_equal(bs.bs_mtime_nsec, 222);
	assert_int_equal(bs.bs_ctime, 1600000002);
	assert_int_equal(bs.bs_ctime_nsec, 333);
	assert_int_equal(bs.bs_blocks, 257);
	assert_int_equal(bs.bs_xflags, 0x10820);
	assert_int_equal(bs.bs_extsize_blks, 16);
	assert_int_equal(bs.bs_extents64, 17);
	assert_int_equal(bs.bs_gen, 0xdeadbeef);
	assert_int_equal(bs.bs_projectid, 0x12345678);
	assert_int_equal(bs.bs_forkoff, 24);
	assert_int_equal(bs.bs_sick, 0x3);
	assert_int_equal(bs.bs_checked, 0x7);
	assert_int_equal(bs.bs_cowextsize_blks, 32);
	assert_int_equal(bs.bs_aextents, 2);
}

/*
 * What v1 cannot hold: no btime (0.0), bs_version 1, the extent count in
 * bs_extents64 with bs_extents 0 (xfsprogs 6.1), padding zeroed.
 */
static void
test_bstat_fields_v1_lacks(void **state)
{
	static const uint64_t zero_pad[6];
	struct xfs_bstat bs1;
	struct xfs_bulkstat bs;

	(void)state;
	fill_bstat(&bs1);
	convert(&bs, &bs1, 12);
	assert_int_equal(bs.bs_version, XFS_BULKSTAT_VERSION_V1);
	assert_int_equal(bs.bs_btime, 0);
	assert_int_equal(bs.bs_btime_nsec, 0);
	assert_int_equal(bs.bs_extents, 0);
	assert_int_equal(bs.bs_extents64, 17);
	assert_int_equal(bs.bs_pad2, 0);
	assert_memory_equal(bs.bs_pad, zero_pad, sizeof(zero_pad));
}

/* The project ID's lo and hi halves are put back together. */
static void
test_bstat_projid_halves(void **state)
{
	static const struct {
		uint16_t	lo, hi;
		uint32_t	projid;
	} cases[] = {
		{ 0, 0, 0 },
		{ 1, 0, 1 },
		{ 0xffff, 0, 0xffff },
		{ 0, 1, 0x10000 },
		{ 0, 0xffff, 0xffff0000 },
		{ 0x5678, 0x1234, 0x12345678 },
		{ 0xffff, 0xffff, 0xffffffff },
	};
	struct xfs_bstat bs1;
	struct xfs_bulkstat bs;
	size_t i;

	(void)state;
	memset(&bs1, 0, sizeof(bs1));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bs1.bs_projid_lo = cases[i].lo;
		bs1.bs_projid_hi = cases[i].hi;
		convert(&bs, &bs1, 12);
		assert_int_equal(bs.bs_projectid, cases[i].projid);
	}
}

/*
 * A v1 record with only the hints @extsize and @cowextsize (bytes, with
 * FS_XFLAG_COWEXTSIZE), converted with fs blocks of 1 << @blocklog bytes.
 */
static void
convert_hints(struct xfs_bulkstat *bs, int32_t extsize, uint32_t cowextsize,
	      unsigned int blocklog)
{
	struct xfs_bstat bs1;

	memset(&bs1, 0, sizeof(bs1));
	bs1.bs_xflags = FS_XFLAG_COWEXTSIZE;
	bs1.bs_extsize = extsize;
	bs1.bs_cowextsize = cowextsize;
	convert(bs, &bs1, blocklog);
}

/* Extent size hints: v1 bytes -> v5 fs blocks, 1 KiB and 4 KiB blocks. */
static void
test_bstat_extsize_blocks(void **state)
{
	static const struct {
		int32_t		extsize;
		uint32_t	cowextsize;
		unsigned int	blocklog;
		uint32_t	extsize_blks, cowextsize_blks;
	} cases[] = {
		{ 65536, 1048576, 10, 64, 1024 },
		/* rounds down, as cvt_b_to_off_fsbt */
		{ 1024, 1023, 10, 1, 0 },
		{ 65536, 1048576, 12, 16, 256 },
		/* u32 in v1: no sign */
		{ 8191, 0xfffff000, 12, 1, 0xfffff },
	};
	struct xfs_bulkstat bs;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		convert_hints(&bs, cases[i].extsize, cases[i].cowextsize,
			      cases[i].blocklog);
		assert_int_equal(bs.bs_extsize_blks, cases[i].extsize_blks);
		assert_int_equal(bs.bs_cowextsize_blks,
				 cases[i].cowextsize_blks);
	}
}

/*
 * The kernel leaves a stale CoW hint in records of inodes without one
 * (Linux 6.18 reuses its record buffer): without FS_XFLAG_COWEXTSIZE the
 * converted hint is 0, as normalize_v5() makes it for v5 records.
 */
static void
test_bstat_cowextsize_needs_flag(void **state)
{
	struct xfs_bstat bs1;
	struct xfs_bulkstat bs;

	(void)state;
	memset(&bs1, 0, sizeof(bs1));
	bs1.bs_cowextsize = 1048576;
	convert(&bs, &bs1, 12);
	assert_int_equal(bs.bs_cowextsize_blks, 0);
	bs1.bs_xflags = FS_XFLAG_COWEXTSIZE;
	convert(&bs, &bs1, 12);
	assert_int_equal(bs.bs_cowextsize_blks, 256);
}

/*
 * A hint of 2 GiB or more does not fit v1's signed 32-bit bs_extsize: the
 * kernel's XFS_FSB_TO_B() result is truncated and comes out negative.
 * libfrog converts it as cvt_b_to_off_fsbt(xfd, (uint64_t)bs_extsize):
 * sign-extended, shifted, truncated to 32 bits.  xfs_io -v 1 prints that.
 */
static void
test_bstat_extsize_bit31_as_libfrog(void **state)
{
	struct xfs_bulkstat bs;

	(void)state;
	/* a 2 GiB hint; the CoW one the same, unsigned */
	convert_hints(&bs, INT32_MIN, 0x80000000, 12);
	/* (uint32_t)(0xffffffff80000000 >> 12) */
	assert_int_equal(bs.bs_extsize_blks, 0xfff80000);
	assert_int_equal(bs.bs_cowextsize_blks, 0x80000);

	convert_hints(&bs, -1024, 0x80000000, 10);
	/* (uint32_t)(0xfffffffffffffc00 >> 10) */
	assert_int_equal(bs.bs_extsize_blks, 0xffffffff);
}

/*
 * libfrog assigns v1's signed 32-bit extent count to the 64-bit field:
 * sign-extended.  (The kernel caps the v1 count at INT32_MAX.)
 */
static void
test_bstat_extents_sign_as_libfrog(void **state)
{
	struct xfs_bstat bs1;
	struct xfs_bulkstat bs;

	(void)state;
	memset(&bs1, 0, sizeof(bs1));
	bs1.bs_extents = -1;
	convert(&bs, &bs1, 12);
	assert_int_equal(bs.bs_extents64, UINT64_MAX);
	assert_int_equal(bs.bs_extents, 0);
}

/* v1 times are signed: before 1970 stays negative. */
static void
test_bstat_negative_times(void **state)
{
	struct xfs_bstat bs1;
	struct xfs_bulkstat bs;

	(void)state;
	memset(&bs1, 0, sizeof(bs1));
	bs1.bs_atime.tv_sec = -1;
	bs1.bs_atime.tv_nsec = 999999999;
	bs1.bs_mtime.tv_sec = -2147483648LL;
	bs1.bs_mtime.tv_nsec = 0;
	bs1.bs_ctime.tv_sec = -86400;
	bs1.bs_ctime.tv_nsec = 5;
	convert(&bs, &bs1, 12);
	assert_true(bs.bs_atime == -1);
	assert_int_equal(bs.bs_atime_nsec, 999999999);
	assert_true(bs.bs_mtime == -2147483648LL);
	assert_int_equal(bs.bs_mtime_nsec, 0);
	assert_true(bs.bs_ctime == -86400);
	assert_int_equal(bs.bs_ctime_nsec, 5);
}

/* v1's wide fields (64-bit blocks and size, 32-bit xflags) pass whole. */
static void
test_bstat_wide_fields(void **state)
{
	struct xfs_bstat bs1;
	struct xfs_bulkstat bs;

	(void)state;
	memset(&bs1, 0, sizeof(bs1));
	bs1.bs_blocks = 1234567890123LL;
	bs1.bs_size = INT64_MAX;
	bs1.bs_xflags = 0x80000000;
	bs1.bs_extents = INT32_MAX;
	bs1.bs_nlink = 0xffff;
	bs1.bs_aextents = 0xffff;
	bs1.bs_blksize = 65536;
	convert(&bs, &bs1, 16);
	assert_int_equal(bs.bs_blocks, 1234567890123ULL);
	assert_int_equal(bs.bs_size, (uint64_t)INT64_MAX);
	assert_int_equal(bs.bs_xflags, 0x80000000);	/* not sign-extended */
	assert_int_equal(bs.bs_extents64, INT32_MAX);
	assert_int_equal(bs.bs_nlink, 0xffff);
	assert_int_equal(bs.bs_aextents, 0xffff);
	assert_int_equal(bs.bs_blksize, 65536);
}

/* A converted v1 record as xfs_io -v 1 prints it. */
static void
test_bstat_v1_text(void **state)
{
	char text[XBULK_BULKSTAT_TEXT_MAX + 1];
	struct xfs_bstat bs1;
	struct xfs_bulkstat bs;
	size_t len;

	(void)state;
	fill_bstat(&bs1);
	bs1.bs_atime.tv_sec = -1;
	convert(&bs, &bs1, 12);
	len = xbulk_format_bulkstat_text(text, &bs);
	text[len] = '\0';
	assert_string_equal(text,
		"bs_ino = 1234567\n"
		"\tbs_size = 1048577\n"
		"\tbs_blocks = 257\n"
		"\tbs_xflags = 0x10820\n"
		"\tbs_atime = 18446744073709551615.111\n"
		"\tbs_ctime = 1600000002.333\n"
		"\tbs_mtime = 1600000001.222\n"
		"\tbs_btime = 0.0\n"
		"\tbs_gen = 0xdeadbeef\n"
		"\tbs_uid = 1001\n"
		"\tbs_gid = 1002\n"
		"\tbs_projectid = 305419896\n"
		"\tbs_blksize = 4096\n"
		"\tbs_rdev = 2051\n"
		"\tbs_cowextsize_blks = 32\n"
		"\tbs_extsize_blks = 16\n"
		"\tbs_nlink = 3\n"
		"\tbs_extents = 0\n"
		"\tbs_aextents = 2\n"
		"\tbs_version = 1\n"
		"\tbs_forkoff = 24\n"
		"\tbs_sick = 0x3\n"
		"\tbs_checked = 0x7\n"
		"\tbs_mode = 0100755\n"
		"\tbs_extents64 = 17\n");
}

/* Every field of an inode group; xi_version 1, the rest zeroed. */
static void
test_inogrp_every_field(void **state)
{
	struct xfs_inogrp ig = {
		.xi_startino = 0x123456789abcULL,
		.xi_alloccount = 61,
		.xi_allocmask = 0xfffffffffffffff7ULL,
	};
	struct xfs_inumbers xi, zero = { 0 };

	(void)state;
	memset(&xi, 0xff, sizeof(xi));
	xbulk_inogrp_to_inumbers(&xi, &ig);
	assert_int_equal(xi.xi_startino, 0x123456789abcULL);
	assert_int_equal(xi.xi_allocmask, 0xfffffffffffffff7ULL);
	assert_int_equal(xi.xi_alloccount, 61);
	assert_int_equal(xi.xi_version, XFS_INUMBERS_VERSION_V1);
	assert_memory_equal(xi.xi_padding, zero.xi_padding,
			    sizeof(zero.xi_padding));
}

/* A full chunk: 64 inodes allocated, all mask bits set. */
static void
test_inogrp_full_chunk(void **state)
{
	struct xfs_inogrp ig = {
		.xi_startino = 128,
		.xi_alloccount = XBULK_INODES_PER_CHUNK,
		.xi_allocmask = UINT64_MAX,
	};
	struct xfs_inumbers xi;

	(void)state;
	xbulk_inogrp_to_inumbers(&xi, &ig);
	assert_int_equal(xi.xi_startino, 128);
	assert_int_equal(xi.xi_allocmask, UINT64_MAX);
	assert_int_equal(xi.xi_alloccount, 64);
}

/* ------------------------------------------------------------------ */
/* In place: v1 records converted backwards inside the v5 buffer       */
/* ------------------------------------------------------------------ */

#define IN_PLACE_RECORDS	1000
#define IN_PLACE_BLOCKLOG	12

/* v1 record @i of a batch: every field depends on @i. */
static void
v1_record(struct xfs_bstat *bs1, uint32_t i)
{
	memset(bs1, 0, sizeof(*bs1));
	bs1->bs_ino = 128 + (uint64_t)i;
	bs1->bs_mode = (uint16_t)(0100000 | (i & 0777));
	bs1->bs_nlink = (uint16_t)(i + 1);
	bs1->bs_uid = i * 3;
	bs1->bs_gid = i * 5;
	bs1->bs_rdev = i * 7;
	bs1->bs_blksize = 4096;
	bs1->bs_size = (int64_t)i * 1000003;
	bs1->bs_atime.tv_sec = 1600000000 + (long)i;
	bs1->bs_atime.tv_nsec = (int32_t)i * 11;
	bs1->bs_mtime.tv_sec = -(long)i;
	bs1->bs_mtime.tv_nsec = (int32_t)i * 13;
	bs1->bs_ctime.tv_sec = 1700000000 + (long)i;
	bs1->bs_ctime.tv_nsec = (int32_t)i * 17;
	bs1->bs_blocks = (int64_t)i * 19;
	bs1->bs_xflags = (i << 8) | FS_XFLAG_COWEXTSIZE;
	bs1->bs_extsize = (int32_t)(i << IN_PLACE_BLOCKLOG);
	bs1->bs_extents = (int32_t)i * 23;
	bs1->bs_gen = ~i;
	bs1->bs_projid_lo = (uint16_t)i;
	bs1->bs_projid_hi = (uint16_t)(i + 1);
	bs1->bs_forkoff = (uint16_t)(i % 64);
	bs1->bs_sick = (uint16_t)(i & 0xf);
	bs1->bs_checked = (uint16_t)(i & 0xff);
	bs1->bs_cowextsize = (i * 2) << IN_PLACE_BLOCKLOG;
	bs1->bs_aextents = (uint16_t)(i * 29);
}

/*
 * lib/ioctl.c bulkstat_v1() lets the kernel write N v1 records at the
 * start of the v5 request buffer, then converts them from the last to the
 * first: v5 record n (larger stride) only overlaps v1 records >= n, which
 * are already done.  All N must come out as converted one by one.
 */
static void
test_bstat_in_place_backwards(void **state)
{
	struct xfs_bulkstat_req *req;
	struct xfs_bulkstat want;
	struct xfs_bstat *v1, bs1;
	uint32_t n, i;

	(void)state;
	assert_true(sizeof(struct xfs_bstat) < sizeof(struct xfs_bulkstat));
	req = xbulk_bulkstat_req_alloc(IN_PLACE_RECORDS, 0);
	assert_non_null(req);
	v1 = (struct xfs_bstat *)req->bulkstat;
	for (i = 0; i < IN_PLACE_RECORDS; i++)
		v1_record(&v1[i], i);

	/* As bulkstat_v1() does it. */
	n = IN_PLACE_RECORDS;
	while (n-- > 0) {
		bs1 = v1[n];
		xbulk_bstat_to_bulkstat(&req->bulkstat[n], &bs1,
					IN_PLACE_BLOCKLOG);
	}

	for (i = 0; i < IN_PLACE_RECORDS; i++) {
		v1_record(&bs1, i);
		xbulk_bstat_to_bulkstat(&want, &bs1, IN_PLACE_BLOCKLOG);
		assert_memory_equal(&req->bulkstat[i], &want, sizeof(want));
	}
	free(req);
}

/* v1 inode group @i of a batch. */
static void
v1_inogrp(struct xfs_inogrp *ig, uint32_t i)
{
	ig->xi_startino = (uint64_t)i * XBULK_INODES_PER_CHUNK;
	ig->xi_alloccount = (int32_t)(i % 65);
	ig->xi_allocmask = ~(uint64_t)i;
}

/* The same for inode groups (inumbers_v1()). */
static void
test_inogrp_in_place_backwards(void **state)
{
	struct xfs_inumbers_req *req;
	struct xfs_inumbers want;
	struct xfs_inogrp *v1, ig;
	uint32_t n, i;

	(void)state;
	assert_true(sizeof(struct xfs_inogrp) <= sizeof(struct xfs_inumbers));
	req = xbulk_inumbers_req_alloc(IN_PLACE_RECORDS, 0);
	assert_non_null(req);
	v1 = (struct xfs_inogrp *)req->inumbers;
	for (i = 0; i < IN_PLACE_RECORDS; i++)
		v1_inogrp(&v1[i], i);

	n = IN_PLACE_RECORDS;
	while (n-- > 0) {
		ig = v1[n];
		xbulk_inogrp_to_inumbers(&req->inumbers[n], &ig);
	}

	for (i = 0; i < IN_PLACE_RECORDS; i++) {
		v1_inogrp(&ig, i);
		xbulk_inogrp_to_inumbers(&want, &ig);
		assert_memory_equal(&req->inumbers[i], &want, sizeof(want));
	}
	free(req);
}

/* A statx answer with every basic field a different value. */
static void
fill_statx(struct statx *stx)
{
	memset(stx, 0, sizeof(*stx));
	stx->stx_mask = STATX_BASIC_STATS | STATX_BTIME;
	stx->stx_ino = 7654321;
	stx->stx_mode = 020640;
	stx->stx_nlink = 4;
	stx->stx_uid = 2001;
	stx->stx_gid = 2002;
	stx->stx_size = 12345;
	stx->stx_blksize = 4096;
	stx->stx_blocks = 9;		/* not a whole 4 KiB block */
	stx->stx_rdev_major = 8;
	stx->stx_rdev_minor = 33;
	stx->stx_atime = (struct statx_timestamp){ -5, 1 };
	stx->stx_mtime = (struct statx_timestamp){ 1700000001, 2 };
	stx->stx_ctime = (struct statx_timestamp){ 1700000002, 3 };
	stx->stx_btime = (struct statx_timestamp){ 1700000003, 4 };
}

/* Every field statx has lands where bulkstat puts it; st_blocks stays
 * exact, in 512-byte units (bs_blksize 512), not rounded to st_blksize. */
static void
test_statx_every_field(void **state)
{
	struct xfs_bulkstat bs;
	struct statx stx;

	(void)state;
	fill_statx(&stx);
	memset(&bs, 0xff, sizeof(bs));
	xbulk_bulkstat_from_statx(&bs, &stx);
	assert_int_equal(bs.bs_ino, 7654321);
	assert_int_equal(bs.bs_mode, 020640);
	assert_int_equal(bs.bs_nlink, 4);
	assert_int_equal(bs.bs_uid, 2001);
	assert_int_equal(bs.bs_gid, 2002);
	assert_int_equal(bs.bs_size, 12345);
	assert_int_equal(bs.bs_blocks, 9);
	assert_int_equal(bs.bs_blksize, 512);
	assert_int_equal(bs.bs_rdev, 8 << 18 | 33);
	assert_int_equal(bs.bs_atime, -5);
	assert_int_equal(bs.bs_atime_nsec, 1);
	assert_int_equal(bs.bs_mtime, 1700000001);
	assert_int_equal(bs.bs_mtime_nsec, 2);
	assert_int_equal(bs.bs_ctime, 1700000002);
	assert_int_equal(bs.bs_ctime_nsec, 3);
	assert_int_equal(bs.bs_btime, 1700000003);
	assert_int_equal(bs.bs_btime_nsec, 4);
	assert_int_equal(bs.bs_version, XFS_BULKSTAT_VERSION_V5);
	/* what statx does not know is 0 */
	assert_int_equal(bs.bs_xflags, 0);
	assert_int_equal(bs.bs_extents64, 0);
	assert_int_equal(bs.bs_gen, 0);
	assert_int_equal(bs.bs_projectid, 0);
}

/* Without STATX_BTIME the birth time is unknown, as in a v1 record. */
static void
test_statx_no_btime(void **state)
{
	struct xfs_bulkstat bs;
	struct statx stx;

	(void)state;
	fill_statx(&stx);
	stx.stx_mask &= ~(uint32_t)STATX_BTIME;
	xbulk_bulkstat_from_statx(&bs, &stx);
	assert_int_equal(bs.bs_btime, 0);
	assert_int_equal(bs.bs_btime_nsec, 0);
	assert_int_equal(bs.bs_version, XFS_BULKSTAT_VERSION_V1);
}

/* bulkstat's sysv_encode_dev(): a minor past 18 bits does not reach the
 * major's bits. */
static void
test_statx_rdev_wide_minor(void **state)
{
	struct xfs_bulkstat bs;
	struct statx stx;

	(void)state;
	fill_statx(&stx);
	stx.stx_rdev_major = 259;
	stx.stx_rdev_minor = 0xfffff;
	xbulk_bulkstat_from_statx(&bs, &stx);
	assert_int_equal(bs.bs_rdev >> 18, 259);
	assert_int_equal(bs.bs_rdev & 0x3ffff, 0x3ffff);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bstat_every_field),
		cmocka_unit_test(test_bstat_fields_v1_lacks),
		cmocka_unit_test(test_bstat_projid_halves),
		cmocka_unit_test(test_bstat_extsize_blocks),
		cmocka_unit_test(test_bstat_cowextsize_needs_flag),
		cmocka_unit_test(test_bstat_extsize_bit31_as_libfrog),
		cmocka_unit_test(test_bstat_extents_sign_as_libfrog),
		cmocka_unit_test(test_bstat_negative_times),
		cmocka_unit_test(test_bstat_wide_fields),
		cmocka_unit_test(test_bstat_v1_text),
		cmocka_unit_test(test_inogrp_every_field),
		cmocka_unit_test(test_inogrp_full_chunk),
		cmocka_unit_test(test_bstat_in_place_backwards),
		cmocka_unit_test(test_inogrp_in_place_backwards),
		cmocka_unit_test(test_statx_every_field),
		cmocka_unit_test(test_statx_no_btime),
		cmocka_unit_test(test_statx_rdev_wide_minor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
