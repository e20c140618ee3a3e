// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/format/columns.c: the decoded columns of the JSON Lines and CSV formats.
 * ISO 8601 times are checked against gmtime_r() over its whole range and
 * by hand at the int64_t ends; flag names in both spellings.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "format/columns.h"
#include "format_check.h"

static void
expect_iso(int64_t sec, uint32_t nsec, const char *expected)
{
	char got[XBF_ISO8601_MAX + 1];
	char *end = xbf_put_iso8601(got, sec, nsec);

	assert_true(end - got <= XBF_ISO8601_MAX);
	*end = '\0';
	if (strcmp(got, expected))
		fail_msg("%" PRId64 ".%09u: got %s, expected %s", sec, nsec,
			 got, expected);
}

static void
test_iso_by_hand(void **state)
{
	(void)state;
	expect_iso(0, 0, "1970-01-01T00:00:00.000000000Z");
	expect_iso(-1, 5, "1969-12-31T23:59:59.000000005Z");
	expect_iso(-86400, 0, "1969-12-31T00:00:00.000000000Z");
	expect_iso(-86401, 0, "1969-12-30T23:59:59.000000000Z");
	expect_iso(951782400, 0, "2000-02-29T00:00:00.000000000Z");
	expect_iso(951868799, 999999999, "2000-02-29T23:59:59.999999999Z");
	expect_iso(4107542400LL, 0, "2100-03-01T00:00:00.000000000Z");
	expect_iso(2147483647, 0, "2038-01-19T03:14:07.000000000Z");
	expect_iso(-2147483648LL, 0, "1901-12-13T20:45:52.000000000Z");
	expect_iso(16299260425LL, 0, "2486-07-02T20:20:25.000000000Z");
	/* the ends of the four-digit years, and past them */
	expect_iso(-62167219200LL, 0, "0000-01-01T00:00:00.000000000Z");
	expect_iso(-62167219201LL, 0, "-0001-12-31T23:59:59.000000000Z");
	expect_iso(253402300799LL, 0, "9999-12-31T23:59:59.000000000Z");
	expect_iso(253402300800LL, 0, "+10000-01-01T00:00:00.000000000Z");
	/* the ends of int64_t */
	expect_iso(INT64_MAX, 999999999,
		   "+292277026596-12-04T15:30:07.999999999Z");
	expect_iso(INT64_MIN, 0, "-292277022657-01-27T08:29:52.000000000Z");
}

/* The same date as gmtime_r() gives, wherever its int tm_year reaches. */
static void
check_against_gmtime(int64_t sec)
{
	char want[64], got[XBF_ISO8601_MAX + 1];
	time_t t = (time_t)sec;
	struct tm tm;
	int64_t year;
	char *end;

	assert_non_null(gmtime_r(&t, &tm));
	year = (int64_t)tm.tm_year + 1900;
	if (year >= 0 && year <= 9999)
		snprintf(want, sizeof(want), "%04" PRId64, year);
	else
		snprintf(want, sizeof(want), "%c%04" PRIu64,
			 year < 0 ? '-' : '+',
			 year < 0 ? 0 - (uint64_t)year : (uint64_t)year);
	snprintf(want + strlen(want), sizeof(want) - strlen(want),
		 "-%02d-%02dT%02d:%02d:%02d.000000042Z", tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	end = xbf_put_iso8601(got, sec, 42);
	*end = '\0';
	if (strcmp(got, want))
		fail_msg("%" PRId64 ": got %s, gmtime_r %s", sec, got, want);
}

#define SWEEP	200000

static void
test_iso_against_gmtime(void **state)
{
	/* gmtime_r's years fit an int: about +-6.7e16 seconds */
	const int64_t span = 67767976233316800LL;
	int64_t sec;
	int i;

	(void)state;
	/* every day from 1900 to 2500, at a varying second */
	for (sec = -2208988800LL; sec < 16725225600LL; sec += 86399)
		check_against_gmtime(sec);
	for (i = 0; i < SWEEP; i++) {
		sec = (int64_t)(test_rng() % (2 * (uint64_t)span)) - span;
		check_against_gmtime(sec);
		check_against_gmtime((int64_t)(test_rng() % 40000000000ULL) -
				     20000000000LL);
	}
}

static void
expect_names(uint64_t v, const struct xbf_flag_names *tab, bool json,
	     const char *expected)
{
	char got[XBF_FLAG_NAMES_MAX + 1];
	char *end = xbf_put_flag_names(got, v, tab, json);

	assert_true(end - got <= XBF_FLAG_NAMES_MAX);
	*end = '\0';
	assert_string_equal(got, expected);
}

static void
test_flag_names(void **state)
{
	(void)state;
	expect_names(0, &xbf_xflag_names, true, "[]");
	expect_names(0, &xbf_xflag_names, false, "");
	expect_names(FS_XFLAG_REALTIME, &xbf_xflag_names, true,
		     "[\"realtime\"]");
	expect_names(FS_XFLAG_NODUMP | FS_XFLAG_IMMUTABLE, &xbf_xflag_names,
		     false, "immutable|nodump");
	/* unnamed bits only: one hex entry */
	expect_names(0x4, &xbf_xflag_names, true, "[\"0x4\"]");
	expect_names(0x60000004ULL, &xbf_xflag_names, false, "0x60000004");
	expect_names(FS_XFLAG_DAX | 0x8000000000000000ULL, &xbf_xflag_names,
		     true, "[\"dax\",\"0x8000000000000000\"]");
	/* bits past a 16-bit table are unnamed */
	expect_names(0x10000 | XFS_BS_SICK_SYMLINK, &xbf_sick_names, false,
		     "symlink|0x10000");
	expect_names(~0ULL, &xbf_sick_names, true,
		     "[\"inode\",\"bmbtd\",\"bmbta\",\"bmbtc\",\"dir\","
		     "\"xattr\",\"symlink\",\"parent\",\"dirtree\","
		     "\"0xfffffffffffffe00\"]");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iso_by_hand),
		cmocka_unit_test(test_iso_against_gmtime),
		cmocka_unit_test(test_flag_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
