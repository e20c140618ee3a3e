// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/format/format_text.c: the text of one bulkstat or inumbers record must be
 * xfs_io 6.1's dump_bulkstat() / dump_inumbers() (io/bulkstat.c) byte for
 * byte.  The expected texts below are written out by hand (whole, or the
 * lines that differ from the all-zero record's); the last tests compare
 * against printf with xfs_io's own format strings.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "xbulk.h"
#include "format_check.h"

static void
expect_bulkstat(const struct xfs_bulkstat *bs, const char *expected)
{
	EXPECT_FORMAT(XBULK_BULKSTAT_TEXT_MAX, xbulk_format_bulkstat_text, bs,
		      expected);
}

static void
expect_inumbers(const struct xfs_inumbers *xi, const char *expected)
{
	EXPECT_FORMAT(XBULK_INUMBERS_TEXT_MAX, xbulk_format_inumbers_text, xi,
		      expected);
}

/* ------------------------------------------------------------------ */
/* bulkstat, whole records                                             */
/* ------------------------------------------------------------------ */

static const char zero_text[] =
	"bs_ino = 0\n"
	"\tbs_size = 0\n"
	"\tbs_blocks = 0\n"
	"\tbs_xflags = 0x0\n"
	"\tbs_atime = 0.0\n"
	"\tbs_ctime = 0.0\n"
	"\tbs_mtime = 0.0\n"
	"\tbs_btime = 0.0\n"
	"\tbs_gen = 0x0\n"
	"\tbs_uid = 0\n"
	"\tbs_gid = 0\n"
	"\tbs_projectid = 0\n"
	"\tbs_blksize = 0\n"
	"\tbs_rdev = 0\n"
	"\tbs_cowextsize_blks = 0\n"
	"\tbs_extsize_blks = 0\n"
	"\tbs_nlink = 0\n"
	"\tbs_extents = 0\n"
	"\tbs_aextents = 0\n"
	"\tbs_version = 0\n"
	"\tbs_forkoff = 0\n"
	"\tbs_sick = 0x0\n"
	"\tbs_checked = 0x0\n"
	"\tbs_mode = 00\n"
	"\tbs_extents64 = 0\n";

/*
 * In @text (@size bytes of room), put @line in place of the line of the
 * same field (@line up to its " = ", which must be in @text once).
 */
static void
set_line(char *text, size_t size, const char *line)
{
	char key[32], tail[XBULK_BULKSTAT_TEXT_MAX + 1];
	const char *eq = strstr(line, " = ");
	char *at, *eol;

	assert_non_null(eq);
	snprintf(key, sizeof(key), "%.*s", (int)(eq + 3 - line), line);
	at = strstr(text, key);
	assert_non_null(at);
	assert_null(strstr(at + 1, key));
	eol = strchr(at, '\n');
	assert_non_null(eol);
	snprintf(tail, sizeof(tail), "%s", eol + 1);
	snprintf(at, size - (size_t)(at - text), "%s%s", line, tail);
}

/*
 * The all-zero text with the lines of @lines (NULL-terminated) in place of
 * those of the same fields: what a record with only those fields set must
 * print.
 */
static void
expect_lines(const struct xfs_bulkstat *bs, const char *const *lines)
{
	char expected[XBULK_BULKSTAT_TEXT_MAX + 1];

	snprintf(expected, sizeof(expected), "%s", zero_text);
	for (; *lines; lines++)
		set_line(expected, sizeof(expected), *lines);
	expect_bulkstat(bs, expected);
}

/* Every field zero: "0", "0x0", "0.0" and the octal "00". */
static void
test_bulkstat_all_zero(void **state)
{
	struct xfs_bulkstat bs = { 0 };

	(void)state;
	expect_bulkstat(&bs, zero_text);
}

/*
 * A regular file, every field a different value: each value must come out
 * under its own name, in xfs_io's order (ctime before mtime).
 */
static void
test_bulkstat_field_order(void **state)
{
	struct xfs_bulkstat bs = {
		.bs_ino = 131,
		.bs_size = 12345,
		.bs_blocks = 4,
		.bs_xflags = 0x2000,
		.bs_atime = 1700000000,
		.bs_atime_nsec = 123456789,
		.bs_ctime = 1700000001,
		.bs_ctime_nsec = 5,
		.bs_mtime = 1700000002,
		.bs_mtime_nsec = 0,
		.bs_btime = 1699999999,
		.bs_btime_nsec = 999999999,
		.bs_gen = 0x5f3a9c21,
		.bs_uid = 1000,
		.bs_gid = 100,
		.bs_projectid = 42,
		.bs_blksize = 4096,
		.bs_rdev = 2049,
		.bs_cowextsize_blks = 32,
		.bs_extsize_blks = 16,
		.bs_nlink = 2,
		.bs_extents = 3,
		.bs_aextents = 1,
		.bs_version = 5,
		.bs_forkoff = 15,
		.bs_sick = 0x4,
		.bs_checked = 0x3f,
		.bs_mode = 0100644,
		.bs_extents64 = 7,
	};

	(void)state;
	expect_bulkstat(&bs,
		"bs_ino = 131\n"
		"\tbs_size = 12345\n"
		"\tbs_blocks = 4\n"
		"\tbs_xflags = 0x2000\n"
		"\tbs_atime = 1700000000.123456789\n"
		"\tbs_ctime = 1700000001.5\n"
		"\tbs_mtime = 1700000002.0\n"
		"\tbs_btime = 1699999999.999999999\n"
		"\tbs_gen = 0x5f3a9c21\n"
		"\tbs_uid = 1000\n"
		"\tbs_gid = 100\n"
		"\tbs_projectid = 42\n"
		"\tbs_blksize = 4096\n"
		"\tbs_rdev = 2049\n"
		"\tbs_cowextsize_blks = 32\n"
		"\tbs_extsize_blks = 16\n"
		"\tbs_nlink = 2\n"
		"\tbs_extents = 3\n"
		"\tbs_aextents = 1\n"
		"\tbs_version = 5\n"
		"\tbs_forkoff = 15\n"
		"\tbs_sick = 0x4\n"
		"\tbs_checked = 0x3f\n"
		"\tbs_mode = 0100644\n"
		"\tbs_extents64 = 7\n");
}

/* Nanoseconds are not zero-padded: 0 -> ".0", 5 -> ".5". */
static void
test_bulkstat_nsec_not_padded(void **state)
{
	static const char *const lines[] = {
		"bs_ino = 128\n",
		"\tbs_atime = 1.0\n",
		"\tbs_ctime = 2.5\n",
		"\tbs_mtime = 3.999999999\n",
		"\tbs_btime = 4.100000000\n",
		"\tbs_mode = 040755\n",
		NULL,
	};
	struct xfs_bulkstat bs = {
		.bs_ino = 128,
		.bs_atime = 1,
		.bs_atime_nsec = 0,
		.bs_ctime = 2,
		.bs_ctime_nsec = 5,
		.bs_mtime = 3,
		.bs_mtime_nsec = 999999999,
		.bs_btime = 4,
		.bs_btime_nsec = 100000000,
		.bs_mode = 040755,
	};

	(void)state;
	expect_lines(&bs, lines);
}

/* Seconds before 1970 print as unsigned 64-bit (xfs_io passes uint64_t). */
static void
test_bulkstat_time_before_1970(void **state)
{
	static const char *const lines[] = {
		"bs_ino = 133\n",
		"\tbs_atime = 18446744073709551615.999999999\n",
		"\tbs_ctime = 18446744073709465216.1\n",
		"\tbs_mtime = 18446744071562067968.0\n",
		"\tbs_btime = 9223372036854775808.42\n",
		"\tbs_mode = 0100600\n",
		NULL,
	};
	struct xfs_bulkstat bs = {
		.bs_ino = 133,
		.bs_atime = -1,
		.bs_atime_nsec = 999999999,
		.bs_ctime = -86400,		/* 1969-12-31 */
		.bs_ctime_nsec = 1,
		.bs_mtime = -2147483648LL,	/* 1901-12-13, bigtime min */
		.bs_mtime_nsec = 0,
		.bs_btime = INT64_MIN,
		.bs_btime_nsec = 42,
		.bs_mode = 0100600,
	};

	(void)state;
	expect_lines(&bs, lines);
}

/* Seconds past the 32-bit limit of 2038 print in full. */
static void
test_bulkstat_time_after_2038(void **state)
{
	static const char *const lines[] = {
		"bs_ino = 134\n",
		"\tbs_atime = 2147483647.0\n",
		"\tbs_ctime = 2147483648.0\n",
		"\tbs_mtime = 16299260425.999999999\n",
		"\tbs_btime = 9223372036854775807.7\n",
		"\tbs_mode = 0100644\n",
		NULL,
	};
	struct xfs_bulkstat bs = {
		.bs_ino = 134,
		.bs_atime = 2147483647,		/* 2038-01-19 03:14:07 */
		.bs_atime_nsec = 0,
		.bs_ctime = 2147483648LL,	/* one second later */
		.bs_ctime_nsec = 0,
		.bs_mtime = 16299260425LL,	/* 2486-07-02, bigtime max */
		.bs_mtime_nsec = 999999999,
		.bs_btime = INT64_MAX,
		.bs_btime_nsec = 7,
		.bs_mode = 0100644,
	};

	(void)state;
	expect_lines(&bs, lines);
}

/*
 * Every bit set: every field at its widest text, which must still fit in
 * XBULK_BULKSTAT_TEXT_MAX.
 */
static void
test_bulkstat_all_max(void **state)
{
	static const char expected[] =
		"bs_ino = 18446744073709551615\n"
		"\tbs_size = 18446744073709551615\n"
		"\tbs_blocks = 18446744073709551615\n"
		"\tbs_xflags = 0xffffffffffffffff\n"
		"\tbs_atime = 18446744073709551615.4294967295\n"
		"\tbs_ctime = 18446744073709551615.4294967295\n"
		"\tbs_mtime = 18446744073709551615.4294967295\n"
		"\tbs_btime = 18446744073709551615.4294967295\n"
		"\tbs_gen = 0xffffffff\n"
		"\tbs_uid = 4294967295\n"
		"\tbs_gid = 4294967295\n"
		"\tbs_projectid = 4294967295\n"
		"\tbs_blksize = 4294967295\n"
		"\tbs_rdev = 4294967295\n"
		"\tbs_cowextsize_blks = 4294967295\n"
		"\tbs_extsize_blks = 4294967295\n"
		"\tbs_nlink = 4294967295\n"
		"\tbs_extents = 4294967295\n"
		"\tbs_aextents = 4294967295\n"
		"\tbs_version = 65535\n"
		"\tbs_forkoff = 65535\n"
		"\tbs_sick = 0xffff\n"
		"\tbs_checked = 0xffff\n"
		"\tbs_mode = 0177777\n"
		"\tbs_extents64 = 18446744073709551615\n";
	struct xfs_bulkstat bs;

	(void)state;
	memset(&bs, 0xff, sizeof(bs));
	assert_true(sizeof(expected) - 1 <= XBULK_BULKSTAT_TEXT_MAX);
	expect_bulkstat(&bs, expected);
}

/* ------------------------------------------------------------------ */
/* bulkstat, number boundaries (one field changed from all-zero)       */
/* ------------------------------------------------------------------ */

/* The all-zero text with @line in place of the line of its field. */
static void
expect_one_line(const struct xfs_bulkstat *bs, const char *line)
{
	const char *const lines[] = { line, NULL };

	expect_lines(bs, lines);
}

/* Decimal (bs_size, 64-bit): every change in the number of digits. */
static void
test_bulkstat_decimal_boundaries(void **state)
{
	static const struct {
		uint64_t	v;
		const char	*line;
	} cases[] = {
		{ 1, "\tbs_size = 1\n" },
		{ 9, "\tbs_size = 9\n" },
		{ 10, "\tbs_size = 10\n" },
		{ 11, "\tbs_size = 11\n" },
		{ 99, "\tbs_size = 99\n" },
		{ 100, "\tbs_size = 100\n" },
		{ 101, "\tbs_size = 101\n" },
		{ 999, "\tbs_size = 999\n" },
		{ 1000, "\tbs_size = 1000\n" },
		{ 9999, "\tbs_size = 9999\n" },
		{ 10000, "\tbs_size = 10000\n" },
		{ 10001, "\tbs_size = 10001\n" },
		{ 99999, "\tbs_size = 99999\n" },
		{ 100000, "\tbs_size = 100000\n" },
		{ 99999999, "\tbs_size = 99999999\n" },
		{ 100000000, "\tbs_size = 100000000\n" },
		{ 4294967295ULL, "\tbs_size = 4294967295\n" },
		{ 4294967296ULL, "\tbs_size = 4294967296\n" },
		{ 9999999999999999999ULL,
		  "\tbs_size = 9999999999999999999\n" },
		{ 10000000000000000000ULL,
		  "\tbs_size = 10000000000000000000\n" },
		{ 10000000000000000001ULL,
		  "\tbs_size = 10000000000000000001\n" },
		{ UINT64_MAX - 1, "\tbs_size = 18446744073709551614\n" },
		{ UINT64_MAX, "\tbs_size = 18446744073709551615\n" },
	};
	struct xfs_bulkstat bs = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bs.bs_size = cases[i].v;
		expect_one_line(&bs, cases[i].line);
	}
}

/* Decimal: 10^k - 1, 10^k and 10^k + 1 for every k, against printf. */
static void
test_bulkstat_decimal_powers_of_ten(void **state)
{
	struct xfs_bulkstat bs = { 0 };
	char line[64];
	uint64_t p = 1;
	int k, d;

	(void)state;
	for (k = 0; k <= 19; k++, p *= 10) {
		for (d = -1; d <= 1; d++) {
			bs.bs_size = p + (uint64_t)(int64_t)d;
			snprintf(line, sizeof(line), "\tbs_size = %" PRIu64
				 "\n", bs.bs_size);
			expect_one_line(&bs, line);
		}
	}
}

/* Hex, 64-bit (bs_xflags): lower case, no leading zeros. */
static void
test_bulkstat_hex64_boundaries(void **state)
{
	static const struct {
		uint64_t	v;
		const char	*line;
	} cases[] = {
		{ 0x1, "\tbs_xflags = 0x1\n" },
		{ 0x9, "\tbs_xflags = 0x9\n" },
		{ 0xa, "\tbs_xflags = 0xa\n" },
		{ 0xf, "\tbs_xflags = 0xf\n" },
		{ 0x10, "\tbs_xflags = 0x10\n" },
		{ 0xff, "\tbs_xflags = 0xff\n" },
		{ 0x100, "\tbs_xflags = 0x100\n" },
		{ 0xabcdef, "\tbs_xflags = 0xabcdef\n" },
		{ 0x80000000, "\tbs_xflags = 0x80000000\n" },
		{ 0xffffffff, "\tbs_xflags = 0xffffffff\n" },
		{ 0x100000000ULL, "\tbs_xflags = 0x100000000\n" },
		{ 0x0fffffffffffffffULL, "\tbs_xflags = 0xfffffffffffffff\n" },
		{ 0x1000000000000000ULL, "\tbs_xflags = 0x1000000000000000\n" },
		{ 0x8000000000000000ULL, "\tbs_xflags = 0x8000000000000000\n" },
		{ UINT64_MAX, "\tbs_xflags = 0xffffffffffffffff\n" },
	};
	struct xfs_bulkstat bs = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bs.bs_xflags = cases[i].v;
		expect_one_line(&bs, cases[i].line);
	}
}

/* Hex, 32- and 16-bit fields (bs_gen, bs_sick, bs_checked). */
static void
test_bulkstat_hex_narrow_fields(void **state)
{
	struct xfs_bulkstat bs = { 0 };

	(void)state;
	bs.bs_gen = 0x80000000;
	expect_one_line(&bs, "\tbs_gen = 0x80000000\n");
	bs.bs_gen = 0xf;
	expect_one_line(&bs, "\tbs_gen = 0xf\n");
	bs.bs_gen = 0;

	bs.bs_sick = 0x8000;
	expect_one_line(&bs, "\tbs_sick = 0x8000\n");
	bs.bs_sick = 0x10;
	expect_one_line(&bs, "\tbs_sick = 0x10\n");
	bs.bs_sick = 0;

	bs.bs_checked = 0xfff;
	expect_one_line(&bs, "\tbs_checked = 0xfff\n");
}

/* Octal (bs_mode): a leading 0, then no padding. */
static void
test_bulkstat_octal_boundaries(void **state)
{
	static const struct {
		uint16_t	v;
		const char	*line;
	} cases[] = {
		{ 01, "\tbs_mode = 01\n" },
		{ 07, "\tbs_mode = 07\n" },
		{ 010, "\tbs_mode = 010\n" },
		{ 077, "\tbs_mode = 077\n" },
		{ 0100, "\tbs_mode = 0100\n" },
		{ 0777, "\tbs_mode = 0777\n" },
		{ 01000, "\tbs_mode = 01000\n" },
		{ 07777, "\tbs_mode = 07777\n" },
		{ 010000, "\tbs_mode = 010000\n" },	/* S_IFIFO */
		{ 020620, "\tbs_mode = 020620\n" },	/* char device */
		{ 040755, "\tbs_mode = 040755\n" },	/* directory */
		{ 077777, "\tbs_mode = 077777\n" },
		{ 0100000, "\tbs_mode = 0100000\n" },
		{ 0120777, "\tbs_mode = 0120777\n" },	/* symlink */
		{ 0140755, "\tbs_mode = 0140755\n" },	/* socket */
		{ 0177777, "\tbs_mode = 0177777\n" },
	};
	struct xfs_bulkstat bs = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bs.bs_mode = cases[i].v;
		expect_one_line(&bs, cases[i].line);
	}
}

/* ------------------------------------------------------------------ */
/* inumbers                                                            */
/* ------------------------------------------------------------------ */

static void
test_inumbers_typical(void **state)
{
	struct xfs_inumbers xi = {
		.xi_startino = 128,
		.xi_allocmask = 0xffffffffffff0fffULL,
		.xi_alloccount = 60,
		.xi_version = XFS_INUMBERS_VERSION_V5,
	};

	(void)state;
	expect_inumbers(&xi,
		"xi_startino = 128\n"
		"\txi_allocmask = 0xffffffffffff0fff\n"
		"\txi_alloccount = 60\n"
		"\txi_version = 5\n");
}

static void
test_inumbers_all_zero(void **state)
{
	struct xfs_inumbers xi = { 0 };

	(void)state;
	expect_inumbers(&xi,
		"xi_startino = 0\n"
		"\txi_allocmask = 0x0\n"
		"\txi_alloccount = 0\n"
		"\txi_version = 0\n");
}

/* Every bit set: the widest text still fits XBULK_INUMBERS_TEXT_MAX. */
static void
test_inumbers_all_max(void **state)
{
	static const char expected[] =
		"xi_startino = 18446744073709551615\n"
		"\txi_allocmask = 0xffffffffffffffff\n"
		"\txi_alloccount = 255\n"
		"\txi_version = 255\n";
	struct xfs_inumbers xi;

	(void)state;
	memset(&xi, 0xff, sizeof(xi));
	assert_true(sizeof(expected) - 1 <= XBULK_INUMBERS_TEXT_MAX);
	expect_inumbers(&xi, expected);
}

/* A sparse chunk: the mask keeps no leading zeros. */
static void
test_inumbers_sparse_mask(void **state)
{
	struct xfs_inumbers xi = {
		.xi_startino = 1048640,
		.xi_allocmask = 0x1,
		.xi_alloccount = 1,
		.xi_version = XFS_INUMBERS_VERSION_V1,
	};

	(void)state;
	expect_inumbers(&xi,
		"xi_startino = 1048640\n"
		"\txi_allocmask = 0x1\n"
		"\txi_alloccount = 1\n"
		"\txi_version = 1\n");
}

/* ------------------------------------------------------------------ */
/* Cross-check with xfs_io's printf formats                            */
/* ------------------------------------------------------------------ */

#define CROSS_CHECK_RECORDS	5000

static void
ref_time(char **p, char *end, const char *tag, int64_t sec, uint32_t nsec)
{
	*p += snprintf(*p, (size_t)(end - *p), "\t%s = %" PRIu64 ".%" PRIu32
		       "\n", tag, (uint64_t)sec, nsec);
}

/* xfs_io 6.1 dump_bulkstat() with its printf formats, into @dst. */
static size_t
ref_bulkstat(char *dst, size_t size, const struct xfs_bulkstat *bs)
{
	char *p = dst, *end = dst + size;

#define REF(...) (p += snprintf(p, (size_t)(end - p), __VA_ARGS__))
	REF("bs_ino = %" PRIu64 "\n", bs->bs_ino);
	REF("\tbs_size = %" PRIu64 "\n", bs->bs_size);
	REF("\tbs_blocks = %" PRIu64 "\n", bs->bs_blocks);
	REF("\tbs_xflags = 0x%" PRIx64 "\n", bs->bs_xflags);
	ref_time(&p, end, "bs_atime", bs->bs_atime, bs->bs_atime_nsec);
	ref_time(&p, end, "bs_ctime", bs->bs_ctime, bs->bs_ctime_nsec);
	ref_time(&p, end, "bs_mtime", bs->bs_mtime, bs->bs_mtime_nsec);
	ref_time(&p, end, "bs_btime", bs->bs_btime, bs->bs_btime_nsec);
	REF("\tbs_gen = 0x%" PRIx32 "\n", bs->bs_gen);
	REF("\tbs_uid = %" PRIu32 "\n", bs->bs_uid);
	REF("\tbs_gid = %" PRIu32 "\n", bs->bs_gid);
	REF("\tbs_projectid = %" PRIu32 "\n", bs->bs_projectid);
	REF("\tbs_blksize = %" PRIu32 "\n", bs->bs_blksize);
	REF("\tbs_rdev = %" PRIu32 "\n", bs->bs_rdev);
	REF("\tbs_cowextsize_blks = %" PRIu32 "\n", bs->bs_cowextsize_blks);
	REF("\tbs_extsize_blks = %" PRIu32 "\n", bs->bs_extsize_blks);
	REF("\tbs_nlink = %" PRIu32 "\n", bs->bs_nlink);
	REF("\tbs_extents = %" PRIu32 "\n", bs->bs_extents);
	REF("\tbs_aextents = %" PRIu32 "\n", bs->bs_aextents);
	REF("\tbs_version = %" PRIu16 "\n", bs->bs_version);
	REF("\tbs_forkoff = %" PRIu16 "\n", bs->bs_forkoff);
	REF("\tbs_sick = 0x%" PRIx16 "\n", bs->bs_sick);
	REF("\tbs_checked = 0x%" PRIx16 "\n", bs->bs_checked);
	REF("\tbs_mode = 0%" PRIo16 "\n", bs->bs_mode);
	REF("\tbs_extents64 = %" PRIu64 "\n", bs->bs_extents64);
#undef REF
	assert_true(p < end);
	return (size_t)(p - dst);
}

/* xfs_io 6.1 dump_inumbers(). */
static size_t
ref_inumbers(char *dst, size_t size, const struct xfs_inumbers *xi)
{
	int n = snprintf(dst, size,
			 "xi_startino = %" PRIu64 "\n"
			 "\txi_allocmask = 0x%" PRIx64 "\n"
			 "\txi_alloccount = %" PRIu8 "\n"
			 "\txi_version = %" PRIu8 "\n",
			 xi->xi_startino, xi->xi_allocmask,
			 xi->xi_alloccount, xi->xi_version);

	assert_true(n > 0 && (size_t)n < size);
	return (size_t)n;
}

static void
test_bulkstat_matches_printf(void **state)
{
	char got[XBULK_BULKSTAT_TEXT_MAX + 1];
	char want[2 * XBULK_BULKSTAT_TEXT_MAX];
	struct xfs_bulkstat bs;
	size_t len, want_len;
	int i;

	(void)state;
	for (i = 0; i < CROSS_CHECK_RECORDS; i++) {
		memset(&bs, 0, sizeof(bs));
		bs.bs_ino = test_rng_wide();
		bs.bs_size = test_rng_wide();
		bs.bs_blocks = test_rng_wide();
		bs.bs_xflags = test_rng_wide();
		bs.bs_atime = (int64_t)test_rng_wide();
		bs.bs_mtime = (int64_t)test_rng_wide();
		bs.bs_ctime = (int64_t)test_rng_wide();
		bs.bs_btime = (int64_t)test_rng_wide();
		bs.bs_gen = (uint32_t)test_rng_wide();
		bs.bs_uid = (uint32_t)test_rng_wide();
		bs.bs_gid = (uint32_t)test_rng_wide();
		bs.bs_projectid = (uint32_t)test_rng_wide();
		bs.bs_atime_nsec = (uint32_t)test_rng_wide();
		bs.bs_mtime_nsec = (uint32_t)test_rng_wide();
		bs.bs_ctime_nsec = (uint32_t)test_rng_wide();
		bs.bs_btime_nsec = (uint32_t)test_rng_wide();
		bs.bs_blksize = (uint32_t)test_rng_wide();
		bs.bs_rdev = (uint32_t)test_rng_wide();
		bs.bs_cowextsize_blks = (uint32_t)test_rng_wide();
		bs.bs_extsize_blks = (uint32_t)test_rng_wide();
		bs.bs_nlink = (uint32_t)test_rng_wide();
		bs.bs_extents = (uint32_t)test_rng_wide();
		bs.bs_aextents = (uint32_t)test_rng_wide();
		bs.bs_version = (uint16_t)test_rng_wide();
		bs.bs_forkoff = (uint16_t)test_rng_wide();
		bs.bs_sick = (uint16_t)test_rng_wide();
		bs.bs_checked = (uint16_t)test_rng_wide();
		bs.bs_mode = (uint16_t)test_rng_wide();
		bs.bs_extents64 = test_rng_wide();

		len = FORMAT_CHECKED(got, XBULK_BULKSTAT_TEXT_MAX,
				     xbulk_format_bulkstat_text, &bs);
		want_len = ref_bulkstat(want, sizeof(want), &bs);
		assert_string_equal(got, want);
		assert_int_equal(len, want_len);
	}
}

static void
test_inumbers_matches_printf(void **state)
{
	char got[XBULK_INUMBERS_TEXT_MAX + 1];
	char want[2 * XBULK_INUMBERS_TEXT_MAX];
	struct xfs_inumbers xi;
	size_t len, want_len;
	int i;

	(void)state;
	for (i = 0; i < CROSS_CHECK_RECORDS; i++) {
		memset(&xi, 0, sizeof(xi));
		xi.xi_startino = test_rng_wide();
		xi.xi_allocmask = test_rng_wide();
		xi.xi_alloccount = (uint8_t)test_rng_wide();
		xi.xi_version = (uint8_t)test_rng_wide();

		len = FORMAT_CHECKED(got, XBULK_INUMBERS_TEXT_MAX,
				     xbulk_format_inumbers_text, &xi);
		want_len = ref_inumbers(want, sizeof(want), &xi);
		assert_string_equal(got, want);
		assert_int_equal(len, want_len);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bulkstat_all_zero),
		cmocka_unit_test(test_bulkstat_field_order),
		cmocka_unit_test(test_bulkstat_nsec_not_padded),
		cmocka_unit_test(test_bulkstat_time_before_1970),
		cmocka_unit_test(test_bulkstat_time_after_2038),
		cmocka_unit_test(test_bulkstat_all_max),
		cmocka_unit_test(test_bulkstat_decimal_boundaries),
		cmocka_unit_test(test_bulkstat_decimal_powers_of_ten),
		cmocka_unit_test(test_bulkstat_hex64_boundaries),
		cmocka_unit_test(test_bulkstat_hex_narrow_fields),
		cmocka_unit_test(test_bulkstat_octal_boundaries),
		cmocka_unit_test(test_inumbers_typical),
		cmocka_unit_test(test_inumbers_all_zero),
		cmocka_unit_test(test_inumbers_all_max),
		cmocka_unit_test(test_inumbers_sparse_mask),
		cmocka_unit_test(test_bulkstat_matches_printf),
		cmocka_unit_test(test_inumbers_matches_printf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
