// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/sized.c and its users: a struct that callers allocate carries its
 * size, and the library copies in and out by the smaller of the two
 * sizes (docs/design.md, "Versions and the soname"): an older caller's
 * smaller struct reads as zeroes past its end and is never written past
 * it; a newer caller's larger one is refused (-E2BIG) only if it sets a
 * field this library does not know; one smaller than the first version
 * is refused (-EINVAL).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base.h"

/* Version 2 of a sized struct: version 1 ended at @b. */
struct v2 {
	size_t		size;
	uint64_t	a, b;	/* version 1 */
	uint64_t	c;	/* version 2 */
};

#define V1_SIZE	XBL_SIZE_TO(struct v2, b)

/* A newer caller's version 3, one field longer. */
struct v3 {
	struct v2	v2;
	uint64_t	d;
};

static void
test_in_older_caller(void **state)
{
	struct v2 in = { .size = V1_SIZE, .a = 1, .b = 2, .c = 99 }, out;

	(void)state;
	memset(&out, 0xff, sizeof(out));
	assert_int_equal(xbl_sized_in(&out, sizeof(out), &in, V1_SIZE), 0);
	assert_int_equal(out.size, sizeof(out));
	assert_int_equal(out.a, 1);
	assert_int_equal(out.b, 2);
	assert_int_equal(out.c, 0);	/* beyond the caller's: zero */
}

static void
test_in_newer_caller(void **state)
{
	struct v3 in = { .v2 = { .size = sizeof(in), .a = 1, .c = 3 } };
	struct v2 out;

	(void)state;
	assert_int_equal(xbl_sized_in(&out, sizeof(out), &in, V1_SIZE), 0);
	assert_int_equal(out.c, 3);
	in.d = 4;	/* a field this library cannot honour */
	assert_int_equal(xbl_sized_in(&out, sizeof(out), &in, V1_SIZE),
			 -E2BIG);
}

static void
test_in_too_small(void **state)
{
	struct v2 in = { .size = V1_SIZE - 1 }, out;

	(void)state;
	assert_int_equal(xbl_sized_in(&out, sizeof(out), &in, V1_SIZE),
			 -EINVAL);
	in.size = 0;
	assert_int_equal(xbl_sized_in(&out, sizeof(out), &in, V1_SIZE),
			 -EINVAL);
}

static void
test_out(void **state)
{
	struct v2 lib = { .size = sizeof(lib), .a = 1, .b = 2, .c = 3 };
	struct v2 old = { .size = V1_SIZE, .c = 77 };
	struct v3 new = { .v2 = { .size = sizeof(new) }, .d = 55 };

	(void)state;
	assert_int_equal(xbl_sized_out(&old, &lib, sizeof(lib), V1_SIZE), 0);
	assert_int_equal(old.size, V1_SIZE);
	assert_int_equal(old.b, 2);
	assert_int_equal(old.c, 77);	/* never written past its size */
	assert_int_equal(xbl_sized_out(&new, &lib, sizeof(lib), V1_SIZE), 0);
	assert_int_equal(new.v2.size, sizeof(new));
	assert_int_equal(new.v2.c, 3);
	assert_int_equal(new.d, 55);	/* what this library does not know */
	old.size = V1_SIZE - 8;
	assert_int_equal(xbl_sized_out(&old, &lib, sizeof(lib), V1_SIZE),
			 -EINVAL);
}

/* The public entry points check sizes before touching the filesystem. */
static void
test_scan_sizes(void **state)
{
	struct {
		struct xbulk_scan	scan;
		uint64_t		future;
	} big = { .scan = XBULK_SCAN_INIT, .future = 1 };
	struct xbulk_scan small = XBULK_SCAN_INIT;
	struct xbulk_scan_result res = { .size = sizeof(res) };
	struct xbulk_scan_result tiny = { .size = sizeof(size_t) };

	(void)state;
	big.scan.size = sizeof(big);
	big.scan.batch = 1;
	assert_int_equal(xbulk_scan_run(NULL, &big.scan, &res), -E2BIG);
	assert_int_equal(res.fail, XBULK_SCAN_FAIL_SETUP);
	assert_int_equal(res.err, -E2BIG);
	small.size = offsetof(struct xbulk_scan, cancel);
	assert_int_equal(xbulk_scan_run(NULL, &small, &res), -EINVAL);
	assert_int_equal(xbulk_scan_run(NULL, &small, &tiny), -EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_older_caller),
		cmocka_unit_test(test_in_newer_caller),
		cmocka_unit_test(test_in_too_small),
		cmocka_unit_test(test_out),
		cmocka_unit_test(test_scan_sizes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
