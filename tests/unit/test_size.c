// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/memory.c: --memory's and XBULK_MEMORY's SIZE.  Whole numbers of
 * bytes, or with one of K, M, G, T (either case, optionally followed by
 * "iB"), powers of 1024; -EDOM for 0 and for a sign, -ERANGE past 2^64 - 1
 * bytes, -EINVAL for everything else (decimals, spaces, SI units).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "memory.h"

static void
expect_ok(const char *s, uint64_t want)
{
	uint64_t v = ~want;

	assert_int_equal(xb_parse_size(s, &v), 0);
	assert_int_equal(v, want);
}

static void
expect_err(const char *s, int err)
{
	uint64_t v = 7;

	assert_int_equal(xb_parse_size(s, &v), err);
	assert_int_equal(v, 7);		/* untouched */
}

static void
test_size_units(void **state)
{
	(void)state;
	expect_ok("1", 1);
	expect_ok("4096", 4096);
	expect_ok("010", 10);
	expect_ok("1K", 1024);
	expect_ok("1k", 1024);
	expect_ok("1KiB", 1024);
	expect_ok("1kiB", 1024);
	expect_ok("512M", 512ULL << 20);
	expect_ok("3MiB", 3ULL << 20);
	expect_ok("4G", 4ULL << 30);
	expect_ok("4g", 4ULL << 30);
	expect_ok("2GiB", 2ULL << 30);
	expect_ok("1T", 1ULL << 40);
	expect_ok("16777215TiB", 16777215ULL << 40);
	expect_ok("18446744073709551615", UINT64_MAX);
}

static void
test_size_refused(void **state)
{
	(void)state;
	expect_err("", -EINVAL);
	expect_err("K", -EINVAL);
	expect_err("12Q", -EINVAL);
	expect_err("1.5G", -EINVAL);
	expect_err("1,5G", -EINVAL);
	expect_err(" 1G", -EINVAL);
	expect_err("1G ", -EINVAL);
	expect_err("1 G", -EINVAL);
	expect_err("1GB", -EINVAL);
	expect_err("1Gi", -EINVAL);
	expect_err("1GIB", -EINVAL);
	expect_err("1P", -EINVAL);
	expect_err("+1G", -EINVAL);
	expect_err("0x10", -EINVAL);
	expect_err("1e9", -EINVAL);
	expect_err("-x", -EINVAL);
	expect_err("0", -EDOM);
	expect_err("0G", -EDOM);
	expect_err("-1", -EDOM);
	expect_err("-5G", -EDOM);
	expect_err("18446744073709551616", -ERANGE);
	expect_err("99999999999999999999999", -ERANGE);
	expect_err("16777216T", -ERANGE);
	expect_err("17179869184G", -ERANGE);
}

/* The default: at least 64 MiB, whatever the machine. */
static void
test_size_default(void **state)
{
	(void)state;
	assert_true(xb_memory_default() >= 64ULL << 20);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_units),
		cmocka_unit_test(test_size_refused),
		cmocka_unit_test(test_size_default),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
