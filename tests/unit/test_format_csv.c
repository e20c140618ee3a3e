// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/format/format_csv.c: RFC 4180 rows under a header row, the same columns as
 * the JSON Lines format.  Whole rows are written out by hand; a
 * cross-check compares every column of random records with the value the
 * JSON Lines formatter gives under the same name.
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
	EXPECT_FORMAT(XBULK_BULKSTAT_CSV_MAX, xbulk_format_bulkstat_csv, bs,
		      expected);
}

static void
expect_inumbers(const struct xfs_inumbers *xi, const char *expected)
{
	EXPECT_FORMAT(XBULK_INUMBERS_CSV_MAX, xbulk_format_inumbers_csv, xi,
		      expected);
}

static void
test_headers(void **state)
{
	(void)state;
	assert_string_equal(xbulk_bulkstat_csv_header,
		"bs_ino,bs_size,bs_blocks,bs_xflags,bs_xflags_names,"
		"bs_atime,bs_atime_nsec,bs_atime_iso,"
		"bs_ctime,bs_ctime_nsec,bs_ctime_iso,"
		"bs_mtime,bs_mtime_nsec,bs_mtime_iso,"
		"bs_btime,bs_btime_nsec,bs_btime_iso,"
		"bs_gen,bs_uid,bs_gid,bs_projectid,bs_blksize,bs_rdev,"
		"bs_cowextsize_blks,bs_extsize_blks,bs_nlink,bs_extents,"
		"bs_aextents,bs_version,bs_forkoff,bs_sick,bs_sick_names,"
		"bs_checked,bs_checked_names,bs_mode,bs_mode_type,"
		"bs_extents64\r\n");
	assert_string_equal(xbulk_inumbers_csv_header,
		"xi_startino,xi_allocmask,xi_alloccount,xi_version\r\n");
}

static void
test_bulkstat_all_zero(void **state)
{
	struct xfs_bulkstat bs = { 0 };

	(void)state;
	expect_bulkstat(&bs,
		"0,0,0,0,,"
		"0,0,1970-01-01T00:00:00.000000000Z,"
		"0,0,1970-01-01T00:00:00.000000000Z,"
		"0,0,1970-01-01T00:00:00.000000000Z,"
		"0,0,1970-01-01T00:00:00.000000000Z,"
		"0,0,0,0,0,0,0,0,0,0,0,0,0,0,,0,,00,unknown,0\r\n");
}

static void
test_bulkstat_directory(void **state)
{
	struct xfs_bulkstat bs = {
		.bs_ino = 128,
		.bs_size = 4096,
		.bs_blocks = 8,
		.bs_xflags = FS_XFLAG_PROJINHERIT | FS_XFLAG_EXTSZINHERIT,
		.bs_atime = 1700000000,
		.bs_atime_nsec = 123456789,
		.bs_ctime = -86400,
		.bs_ctime_nsec = 1,
		.bs_mtime = 2147483648LL,
		.bs_mtime_nsec = 0,
		.bs_btime = 951782400,		/* 2000-02-29, a leap day */
		.bs_btime_nsec = 999999999,
		.bs_gen = 7,
		.bs_uid = 3000000000U,
		.bs_gid = 4294967294U,
		.bs_projectid = 4000000,
		.bs_blksize = 4096,
		.bs_extsize_blks = 256,
		.bs_nlink = 5,
		.bs_extents = 0,
		.bs_version = 5,
		.bs_forkoff = 0,
		.bs_checked = XFS_BS_SICK_INODE | XFS_BS_SICK_DIR,
		.bs_mode = 042775,
		.bs_extents64 = 1,
	};

	(void)state;
	expect_bulkstat(&bs,
		"128,4096,8,4608,projinherit|extszinherit,"
		"1700000000,123456789,2023-11-14T22:13:20.123456789Z,"
		"-86400,1,1969-12-31T00:00:00.000000001Z,"
		"2147483648,0,2038-01-19T03:14:08.000000000Z,"
		"951782400,999999999,2000-02-29T00:00:00.999999999Z,"
		"7,3000000000,4294967294,4000000,4096,0,0,256,5,0,0,5,0,"
		"0,,17,inode|dir,042775,directory,1\r\n");
}

/* Every bit set: out-of-range nanoseconds leave the ISO fields empty. */
static void
test_bulkstat_all_max(void **state)
{
	struct xfs_bulkstat bs;

	(void)state;
	memset(&bs, 0xff, sizeof(bs));
	expect_bulkstat(&bs,
		"18446744073709551615,18446744073709551615,"
		"18446744073709551615,18446744073709551615,"
		"realtime|prealloc|immutable|append|sync|noatime|nodump|"
		"rtinherit|projinherit|nosymlinks|extsize|extszinherit|"
		"nodefrag|filestream|dax|cowextsize|hasattr|0xffffffff7ffe0004,"
		"-1,4294967295,,-1,4294967295,,-1,4294967295,,-1,4294967295,,"
		"4294967295,4294967295,4294967295,4294967295,4294967295,"
		"4294967295,4294967295,4294967295,4294967295,4294967295,"
		"4294967295,65535,65535,"
		"65535,inode|bmbtd|bmbta|bmbtc|dir|xattr|symlink|parent|"
		"dirtree|0xfe00,"
		"65535,inode|bmbtd|bmbta|bmbtc|dir|xattr|symlink|parent|"
		"dirtree|0xfe00,"
		"0177777,unknown,18446744073709551615\r\n");
}

/* The longest row there is fits in XBULK_BULKSTAT_CSV_MAX. */
static void
test_bulkstat_longest(void **state)
{
	char got[XBULK_BULKSTAT_CSV_MAX + 1];
	struct xfs_bulkstat bs;
	size_t len;

	(void)state;
	test_longest_bulkstat(&bs);
	len = FORMAT_CHECKED(got, XBULK_BULKSTAT_CSV_MAX,
			     xbulk_format_bulkstat_csv, &bs);
	assert_non_null(strstr(got, ",-9223372036854775808,999999999,"
			       "-292277022657-01-27T08:29:52.999999999Z,"));
	assert_true(len < XBULK_BULKSTAT_CSV_MAX);
}

static void
test_inumbers(void **state)
{
	struct xfs_inumbers zero = { 0 };
	struct xfs_inumbers chunk = {
		.xi_startino = 8448,
		.xi_allocmask = 0x00000000ffff0001ULL,
		.xi_alloccount = 17,
		.xi_version = 5,
	};
	struct xfs_inumbers max;

	(void)state;
	expect_inumbers(&zero, "0,0,0,0\r\n");
	expect_inumbers(&chunk, "8448,4294901761,17,5\r\n");
	memset(&max, 0xff, sizeof(max));
	expect_inumbers(&max,
		"18446744073709551615,18446744073709551615,255,255\r\n");
}

/* ------------------------------------------------------------------ */
/* Cross-check with the JSON Lines formatter, column by column         */
/* ------------------------------------------------------------------ */

/*
 * The JSON value of @key in @json as CSV writes it: strings unquoted,
 * name arrays joined with '|', null as an empty field.
 */
static void
json_as_csv(const char *json, const char *key, char *out, size_t size)
{
	char pat[64];
	const char *at;
	size_t n = 0;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	at = strstr(json, pat);
	if (!at)
		fail_msg("column %s not in the JSON object %s", key, json);
	at += strlen(pat);
	if (!strncmp(at, "null", 4))
		at += 4;
	if (*at == '[') {
		for (at++; *at != ']'; at++) {
			if (*at == '"')
				continue;
			out[n++] = *at == ',' ? '|' : *at;
		}
	} else {
		for (; *at != ',' && *at != '}'; at++)
			if (*at != '"')
				out[n++] = *at;
	}
	assert_true(n < size);
	out[n] = '\0';
}

#define RANDOM_RECORDS	3000
#define BULKSTAT_COLUMNS	37

/* Split @line at commas into at most @max fields; returns how many. */
static unsigned int
split(char *line, char **fields, unsigned int max)
{
	unsigned int n = 0;

	while (line && n < max)
		fields[n++] = strsep(&line, ",");
	assert_null(line);
	return n;
}

static void
test_bulkstat_matches_jsonl(void **state)
{
	char csv[XBULK_BULKSTAT_CSV_MAX + 1];
	char json[XBULK_BULKSTAT_JSONL_MAX + 1];
	char hdr[1024], want[1024];
	char *names[BULKSTAT_COLUMNS], *fields[BULKSTAT_COLUMNS];
	struct xfs_bulkstat bs;
	unsigned int c;
	int i;

	(void)state;
	assert_true(strlen(xbulk_bulkstat_csv_header) < sizeof(hdr));
	strcpy(hdr, xbulk_bulkstat_csv_header);
	hdr[strlen(hdr) - 2] = '\0';
	assert_int_equal(split(hdr, names, BULKSTAT_COLUMNS),
			 BULKSTAT_COLUMNS);
	for (i = 0; i < RANDOM_RECORDS; i++) {
		test_random_bulkstat(&bs);
		FORMAT_CHECKED(csv, XBULK_BULKSTAT_CSV_MAX,
			       xbulk_format_bulkstat_csv, &bs);
		FORMAT_CHECKED(json, XBULK_BULKSTAT_JSONL_MAX,
			       xbulk_format_bulkstat_jsonl, &bs);
		assert_string_equal(csv + strlen(csv) - 2, "\r\n");
		csv[strlen(csv) - 2] = '\0';
		/* nothing that would need quoting */
		assert_null(strpbrk(csv, "\"\r\n"));
		assert_int_equal(split(csv, fields, BULKSTAT_COLUMNS),
				 BULKSTAT_COLUMNS);
		for (c = 0; c < BULKSTAT_COLUMNS; c++) {
			json_as_csv(json, names[c], want, sizeof(want));
			if (strcmp(fields[c], want))
				fail_msg("column %s: csv '%s', json '%s'",
					 names[c], fields[c], want);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_bulkstat_all_zero),
		cmocka_unit_test(test_bulkstat_directory),
		cmocka_unit_test(test_bulkstat_all_max),
		cmocka_unit_test(test_bulkstat_longest),
		cmocka_unit_test(test_inumbers),
		cmocka_unit_test(test_bulkstat_matches_jsonl),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
