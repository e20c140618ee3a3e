// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/format/format_jsonl.c: one JSON object per record, keys and value types as
 * docs/formats.md documents them.  Whole records are written out by hand;
 * a cross-check reads every number of random records back by its key.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "xbulk.h"
#include "format_check.h"

static void
expect_bulkstat(const struct xfs_bulkstat *bs, const char *expected)
{
	EXPECT_FORMAT(XBULK_BULKSTAT_JSONL_MAX, xbulk_format_bulkstat_jsonl, bs,
		      expected);
}

static void
expect_inumbers(const struct xfs_inumbers *xi, const char *expected)
{
	EXPECT_FORMAT(XBULK_INUMBERS_JSONL_MAX, xbulk_format_inumbers_jsonl, xi,
		      expected);
}

/* Every field zero: numbers 0, the epoch, empty name lists, mode "00". */
static void
test_bulkstat_all_zero(void **state)
{
	struct xfs_bulkstat bs = { 0 };

	(void)state;
	expect_bulkstat(&bs,
		"{\"bs_ino\":0,\"bs_size\":0,\"bs_blocks\":0,"
		"\"bs_xflags\":0,\"bs_xflags_names\":[],"
		"\"bs_atime\":0,\"bs_atime_nsec\":0,"
		"\"bs_atime_iso\":\"1970-01-01T00:00:00.000000000Z\","
		"\"bs_ctime\":0,\"bs_ctime_nsec\":0,"
		"\"bs_ctime_iso\":\"1970-01-01T00:00:00.000000000Z\","
		"\"bs_mtime\":0,\"bs_mtime_nsec\":0,"
		"\"bs_mtime_iso\":\"1970-01-01T00:00:00.000000000Z\","
		"\"bs_btime\":0,\"bs_btime_nsec\":0,"
		"\"bs_btime_iso\":\"1970-01-01T00:00:00.000000000Z\","
		"\"bs_gen\":0,\"bs_uid\":0,\"bs_gid\":0,\"bs_projectid\":0,"
		"\"bs_blksize\":0,\"bs_rdev\":0,\"bs_cowextsize_blks\":0,"
		"\"bs_extsize_blks\":0,\"bs_nlink\":0,\"bs_extents\":0,"
		"\"bs_aextents\":0,\"bs_version\":0,\"bs_forkoff\":0,"
		"\"bs_sick\":0,\"bs_sick_names\":[],"
		"\"bs_checked\":0,\"bs_checked_names\":[],"
		"\"bs_mode\":\"00\",\"bs_mode_type\":\"unknown\","
		"\"bs_extents64\":0}\n");
}

/*
 * A symbolic link with a remote target: each value under its own key,
 * in xfs_io's order (ctime before mtime).
 */
static void
test_bulkstat_symlink(void **state)
{
	struct xfs_bulkstat bs = {
		.bs_ino = 8448,
		.bs_size = 1000,
		.bs_blocks = 8,
		.bs_xflags = FS_XFLAG_NODUMP | FS_XFLAG_HASATTR,
		.bs_atime = -1,			/* 1969-12-31T23:59:59 */
		.bs_atime_nsec = 5,
		.bs_ctime = 1700000001,
		.bs_ctime_nsec = 5,
		.bs_mtime = 16299260425LL,	/* bigtime's last second */
		.bs_mtime_nsec = 999999999,
		.bs_btime = -2147483648LL,	/* bigtime's first second */
		.bs_gen = 0xdeadbeef,
		.bs_uid = 65534,
		.bs_gid = 65533,
		.bs_projectid = 4000000,
		.bs_blksize = 4096,
		.bs_nlink = 1,
		.bs_aextents = 1,
		.bs_version = 5,
		.bs_forkoff = 24,
		.bs_sick = XFS_BS_SICK_SYMLINK,
		.bs_checked = XFS_BS_SICK_INODE | XFS_BS_SICK_SYMLINK,
		.bs_mode = 0120777,
		.bs_extents64 = 1,
	};

	(void)state;
	expect_bulkstat(&bs,
		"{\"bs_ino\":8448,\"bs_size\":1000,\"bs_blocks\":8,"
		"\"bs_xflags\":2147483776,"
		"\"bs_xflags_names\":[\"nodump\",\"hasattr\"],"
		"\"bs_atime\":-1,\"bs_atime_nsec\":5,"
		"\"bs_atime_iso\":\"1969-12-31T23:59:59.000000005Z\","
		"\"bs_ctime\":1700000001,\"bs_ctime_nsec\":5,"
		"\"bs_ctime_iso\":\"2023-11-14T22:13:21.000000005Z\","
		"\"bs_mtime\":16299260425,\"bs_mtime_nsec\":999999999,"
		"\"bs_mtime_iso\":\"2486-07-02T20:20:25.999999999Z\","
		"\"bs_btime\":-2147483648,\"bs_btime_nsec\":0,"
		"\"bs_btime_iso\":\"1901-12-13T20:45:52.000000000Z\","
		"\"bs_gen\":3735928559,\"bs_uid\":65534,\"bs_gid\":65533,"
		"\"bs_projectid\":4000000,\"bs_blksize\":4096,\"bs_rdev\":0,"
		"\"bs_cowextsize_blks\":0,\"bs_extsize_blks\":0,"
		"\"bs_nlink\":1,\"bs_extents\":0,\"bs_aextents\":1,"
		"\"bs_version\":5,\"bs_forkoff\":24,"
		"\"bs_sick\":64,\"bs_sick_names\":[\"symlink\"],"
		"\"bs_checked\":65,\"bs_checked_names\":[\"inode\",\"symlink\"],"
		"\"bs_mode\":\"0120777\",\"bs_mode_type\":\"symlink\","
		"\"bs_extents64\":1}\n");
}

/*
 * Every bit set: the widest numbers; nanoseconds past 10^9 (no kernel
 * sends them) give a null ISO string; bits without a name gather into
 * one hex entry.
 */
static void
test_bulkstat_all_max(void **state)
{
	static const char expected[] =
		"{\"bs_ino\":18446744073709551615,"
		"\"bs_size\":18446744073709551615,"
		"\"bs_blocks\":18446744073709551615,"
		"\"bs_xflags\":18446744073709551615,"
		"\"bs_xflags_names\":[\"realtime\",\"prealloc\",\"immutable\","
		"\"append\",\"sync\",\"noatime\",\"nodump\",\"rtinherit\","
		"\"projinherit\",\"nosymlinks\",\"extsize\",\"extszinherit\","
		"\"nodefrag\",\"filestream\",\"dax\",\"cowextsize\",\"hasattr\","
		"\"0xffffffff7ffe0004\"],"
		"\"bs_atime\":-1,\"bs_atime_nsec\":4294967295,"
		"\"bs_atime_iso\":null,"
		"\"bs_ctime\":-1,\"bs_ctime_nsec\":4294967295,"
		"\"bs_ctime_iso\":null,"
		"\"bs_mtime\":-1,\"bs_mtime_nsec\":4294967295,"
		"\"bs_mtime_iso\":null,"
		"\"bs_btime\":-1,\"bs_btime_nsec\":4294967295,"
		"\"bs_btime_iso\":null,"
		"\"bs_gen\":4294967295,\"bs_uid\":4294967295,"
		"\"bs_gid\":4294967295,\"bs_projectid\":4294967295,"
		"\"bs_blksize\":4294967295,\"bs_rdev\":4294967295,"
		"\"bs_cowextsize_blks\":4294967295,"
		"\"bs_extsize_blks\":4294967295,\"bs_nlink\":4294967295,"
		"\"bs_extents\":4294967295,\"bs_aextents\":4294967295,"
		"\"bs_version\":65535,\"bs_forkoff\":65535,"
		"\"bs_sick\":65535,\"bs_sick_names\":[\"inode\",\"bmbtd\","
		"\"bmbta\",\"bmbtc\",\"dir\",\"xattr\",\"symlink\",\"parent\","
		"\"dirtree\",\"0xfe00\"],"
		"\"bs_checked\":65535,\"bs_checked_names\":[\"inode\",\"bmbtd\","
		"\"bmbta\",\"bmbtc\",\"dir\",\"xattr\",\"symlink\",\"parent\","
		"\"dirtree\",\"0xfe00\"],"
		"\"bs_mode\":\"0177777\",\"bs_mode_type\":\"unknown\","
		"\"bs_extents64\":18446744073709551615}\n";
	struct xfs_bulkstat bs;

	(void)state;
	memset(&bs, 0xff, sizeof(bs));
	expect_bulkstat(&bs, expected);
}

/*
 * The longest record there is: every number at its widest, every flag
 * set, and every time with the longest ISO string (INT64_MIN seconds:
 * year -292277022657).  It must fit in XBULK_BULKSTAT_JSONL_MAX.
 */
static void
test_bulkstat_longest(void **state)
{
	char got[XBULK_BULKSTAT_JSONL_MAX + 1];
	struct xfs_bulkstat bs;
	size_t len;

	(void)state;
	test_longest_bulkstat(&bs);
	len = FORMAT_CHECKED(got, XBULK_BULKSTAT_JSONL_MAX,
			     xbulk_format_bulkstat_jsonl, &bs);
	assert_non_null(strstr(got, "\"bs_atime\":-9223372036854775808,"
		"\"bs_atime_nsec\":999999999,"
		"\"bs_atime_iso\":\"-292277022657-01-27T08:29:52.999999999Z\""));
	assert_true(len < XBULK_BULKSTAT_JSONL_MAX);
}

/* The file type of every S_IFMT value. */
static void
test_bulkstat_mode_types(void **state)
{
	static const struct {
		uint16_t	mode;
		const char	*json;
	} cases[] = {
		{ 0010644, "\"bs_mode\":\"010644\",\"bs_mode_type\":\"fifo\"" },
		{ 0020620, "\"bs_mode\":\"020620\",\"bs_mode_type\":\"chardev\"" },
		{ 0041777, "\"bs_mode\":\"041777\",\"bs_mode_type\":\"directory\"" },
		{ 0060660, "\"bs_mode\":\"060660\",\"bs_mode_type\":\"blockdev\"" },
		{ 0106755, "\"bs_mode\":\"0106755\",\"bs_mode_type\":\"regular\"" },
		{ 0120777, "\"bs_mode\":\"0120777\",\"bs_mode_type\":\"symlink\"" },
		{ 0140755, "\"bs_mode\":\"0140755\",\"bs_mode_type\":\"socket\"" },
		{ 0000644, "\"bs_mode\":\"0644\",\"bs_mode_type\":\"unknown\"" },
		{ 0030000, "\"bs_mode\":\"030000\",\"bs_mode_type\":\"unknown\"" },
	};
	char got[XBULK_BULKSTAT_JSONL_MAX + 1];
	struct xfs_bulkstat bs = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bs.bs_mode = cases[i].mode;
		FORMAT_CHECKED(got, XBULK_BULKSTAT_JSONL_MAX,
			       xbulk_format_bulkstat_jsonl, &bs);
		if (!strstr(got, cases[i].json))
			fail_msg("mode 0%o: %s not in %s", cases[i].mode,
				 cases[i].json, got);
	}
}

/* ------------------------------------------------------------------ */
/* Cross-check: every number read back by its key                      */
/* ------------------------------------------------------------------ */

/* The value after "key": in @json, as text up to the next , or }. */
static const char *
value_of(const char *json, const char *key, char *val, size_t size)
{
	char pat[64];
	const char *at, *end;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	at = strstr(json, pat);
	if (!at)
		fail_msg("key %s missing in %s", key, json);
	at += strlen(pat);
	end = at + strcspn(at, ",}");
	assert_true((size_t)(end - at) < size);
	memcpy(val, at, (size_t)(end - at));
	val[end - at] = '\0';
	return val;
}

static void
expect_u64(const char *json, const char *key, uint64_t want)
{
	char val[64], ref[32];

	snprintf(ref, sizeof(ref), "%" PRIu64, want);
	assert_string_equal(value_of(json, key, val, sizeof(val)), ref);
}

static void
expect_s64(const char *json, const char *key, int64_t want)
{
	char val[64], ref[32];

	snprintf(ref, sizeof(ref), "%" PRId64, want);
	assert_string_equal(value_of(json, key, val, sizeof(val)), ref);
}

#define RANDOM_RECORDS	5000

static void
test_bulkstat_random_values(void **state)
{
	char got[XBULK_BULKSTAT_JSONL_MAX + 1], val[64], ref[32];
	struct xfs_bulkstat bs;
	int i;

	(void)state;
	for (i = 0; i < RANDOM_RECORDS; i++) {
		test_random_bulkstat(&bs);
		FORMAT_CHECKED(got, XBULK_BULKSTAT_JSONL_MAX,
			       xbulk_format_bulkstat_jsonl, &bs);
		assert_int_equal(got[0], '{');
		assert_string_equal(got + strlen(got) - 2, "}\n");
		/* one line: the newline ends it */
		assert_ptr_equal(strchr(got, '\n'), got + strlen(got) - 1);
		expect_u64(got, "bs_ino", bs.bs_ino);
		expect_u64(got, "bs_size", bs.bs_size);
		expect_u64(got, "bs_blocks", bs.bs_blocks);
		expect_u64(got, "bs_xflags", bs.bs_xflags);
		expect_s64(got, "bs_atime", bs.bs_atime);
		expect_u64(got, "bs_atime_nsec", bs.bs_atime_nsec);
		expect_s64(got, "bs_ctime", bs.bs_ctime);
		expect_u64(got, "bs_ctime_nsec", bs.bs_ctime_nsec);
		expect_s64(got, "bs_mtime", bs.bs_mtime);
		expect_u64(got, "bs_mtime_nsec", bs.bs_mtime_nsec);
		expect_s64(got, "bs_btime", bs.bs_btime);
		expect_u64(got, "bs_btime_nsec", bs.bs_btime_nsec);
		expect_u64(got, "bs_gen", bs.bs_gen);
		expect_u64(got, "bs_uid", bs.bs_uid);
		expect_u64(got, "bs_gid", bs.bs_gid);
		expect_u64(got, "bs_projectid", bs.bs_projectid);
		expect_u64(got, "bs_blksize", bs.bs_blksize);
		expect_u64(got, "bs_rdev", bs.bs_rdev);
		expect_u64(got, "bs_cowextsize_blks", bs.bs_cowextsize_blks);
		expect_u64(got, "bs_extsize_blks", bs.bs_extsize_blks);
		expect_u64(got, "bs_nlink", bs.bs_nlink);
		expect_u64(got, "bs_extents", bs.bs_extents);
		expect_u64(got, "bs_aextents", bs.bs_aextents);
		expect_u64(got, "bs_version", bs.bs_version);
		expect_u64(got, "bs_forkoff", bs.bs_forkoff);
		expect_u64(got, "bs_sick", bs.bs_sick);
		expect_u64(got, "bs_checked", bs.bs_checked);
		expect_u64(got, "bs_extents64", bs.bs_extents64);
		snprintf(ref, sizeof(ref), "\"0%" PRIo16 "\"", bs.bs_mode);
		assert_string_equal(value_of(got, "bs_mode", val, sizeof(val)),
				    ref);
		if (bs.bs_btime_nsec >= 1000000000U)
			assert_string_equal(value_of(got, "bs_btime_iso", val,
						     sizeof(val)), "null");
	}
}

/* ------------------------------------------------------------------ */
/* inumbers                                                            */
/* ------------------------------------------------------------------ */

static void
test_inumbers(void **state)
{
	struct xfs_inumbers zero = { 0 };
	struct xfs_inumbers chunk = {
		.xi_startino = 128,
		.xi_allocmask = 0xffffffffffffffffULL,
		.xi_alloccount = 64,
		.xi_version = 5,
	};
	struct xfs_inumbers max;

	(void)state;
	expect_inumbers(&zero,
		"{\"xi_startino\":0,\"xi_allocmask\":0,\"xi_alloccount\":0,"
		"\"xi_version\":0}\n");
	expect_inumbers(&chunk,
		"{\"xi_startino\":128,\"xi_allocmask\":18446744073709551615,"
		"\"xi_alloccount\":64,\"xi_version\":5}\n");
	memset(&max, 0xff, sizeof(max));
	expect_inumbers(&max,
		"{\"xi_startino\":18446744073709551615,"
		"\"xi_allocmask\":18446744073709551615,"
		"\"xi_alloccount\":255,\"xi_version\":255}\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bulkstat_all_zero),
		cmocka_unit_test(test_bulkstat_symlink),
		cmocka_unit_test(test_bulkstat_all_max),
		cmocka_unit_test(test_bulkstat_longest),
		cmocka_unit_test(test_bulkstat_mode_types),
		cmocka_unit_test(test_bulkstat_random_values),
		cmocka_unit_test(test_inumbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
