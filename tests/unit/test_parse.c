// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/parse.c: numbers on the command line are plain decimal, every byte
 * checked; -EINVAL for anything that is not all digits, -ERANGE for a
 * number above the bound.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"

static void
expect_ok(const char *s, uint64_t max, uint64_t want)
{
	uint64_t v = ~want;

	assert_int_equal(xb_parse_u64(s, max, &v), 0);
	assert_int_equal(v, want);
}

static void
expect_err(const char *s, uint64_t max, int err)
{
	uint64_t v = 0;

	assert_int_equal(xb_parse_u64(s, max, &v), err);
}

static void
test_parse_plain_numbers(void **state)
{
	(void)state;
	expect_ok("0", UINT64_MAX, 0);
	expect_ok("1", UINT64_MAX, 1);
	expect_ok("4096", UINT64_MAX, 4096);
	expect_ok("18446744073709551614", UINT64_MAX, UINT64_MAX - 1);
	expect_ok("18446744073709551615", UINT64_MAX, UINT64_MAX);
}

/* Leading zeros are decimal, not an octal prefix as for strtoull(s, 0). */
static void
test_parse_leading_zeros(void **state)
{
	(void)state;
	expect_ok("010", UINT64_MAX, 10);
	expect_ok("00", UINT64_MAX, 0);
	expect_ok("000000000000000000000000018446744073709551615",
		  UINT64_MAX, UINT64_MAX);
}

/* Past 64 bits: -ERANGE, however long the string. */
static void
test_parse_overflow(void **state)
{
	char huge[1001];

	(void)state;
	expect_err("18446744073709551616", UINT64_MAX, -ERANGE);
	expect_err("18446744073709551620", UINT64_MAX, -ERANGE);
	expect_err("99999999999999999999", UINT64_MAX, -ERANGE);
	expect_err("100000000000000000000", UINT64_MAX, -ERANGE);
	memset(huge, '9', sizeof(huge) - 1);
	huge[sizeof(huge) - 1] = '\0';
	expect_err(huge, UINT64_MAX, -ERANGE);
}

/* The caller's bound is respected, inclusive. */
static void
test_parse_max_bound(void **state)
{
	(void)state;
	expect_ok("4294967295", UINT32_MAX, UINT32_MAX);
	expect_err("4294967296", UINT32_MAX, -ERANGE);
	expect_ok("0", 0, 0);
	expect_err("1", 0, -ERANGE);
	expect_ok("64", 64, 64);
	expect_err("65", 64, -ERANGE);
}

/* Empty, signs, spaces, junk, hex, exponents: -EINVAL. */
static void
test_parse_not_decimal(void **state)
{
	static const char *const bad[] = {
		"", "-1", "-0", "+1", " 1", "1 ", "\t1", "1\n", "12x", "x12",
		"0x10", "0X10", "1e3", "1.0", "1,000", "1_000",
		"/", "1/", ":", "1:",	/* the bytes either side of '0'-'9' */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_err(bad[i], UINT64_MAX, -EINVAL);
}

/* Digits of other scripts are not decimal digits (bytes >= 0x80). */
static void
test_parse_non_ascii_digit(void **state)
{
	(void)state;
	/* U+0661 ARABIC-INDIC DIGIT ONE, in UTF-8 */
	expect_err("\xd9\xa1", UINT64_MAX, -EINVAL);
	expect_err("1\xd9\xa1", UINT64_MAX, -EINVAL);
	/* U+FF11 FULLWIDTH DIGIT ONE */
	expect_err("\xef\xbc\x91", UINT64_MAX, -EINVAL);
}

/* A bad byte anywhere wins over overflow: the text is not a number. */
static void
test_parse_junk_after_overflow(void **state)
{
	(void)state;
	expect_err("99999999999999999999x", UINT64_MAX, -EINVAL);
	expect_err("4294967296x", UINT32_MAX, -EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_plain_numbers),
		cmocka_unit_test(test_parse_leading_zeros),
		cmocka_unit_test(test_parse_overflow),
		cmocka_unit_test(test_parse_max_bound),
		cmocka_unit_test(test_parse_not_decimal),
		cmocka_unit_test(test_parse_non_ascii_digit),
		cmocka_unit_test(test_parse_junk_after_overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
