// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The base's helpers for every layer.  lib/grow.c: a buffer doubles from
 * 64 KiB, keeps its contents, and a size whose bytes would wrap is
 * -ENOMEM with the buffer untouched.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base.h"

static void
test_grow(void **state)
{
	size_t cap = 0, i;
	uint32_t *buf = NULL;

	(void)state;
	assert_int_equal(xbl_grow((void **)&buf, &cap, 1, sizeof(*buf)), 0);
	assert_int_equal(cap, 64 * 1024 / sizeof(*buf));
	assert_int_equal(xbl_grow((void **)&buf, &cap, cap, sizeof(*buf)), 0);
	assert_int_equal(cap, 64 * 1024 / sizeof(*buf));
	assert_int_equal(xbl_grow((void **)&buf, &cap, 5 * cap, sizeof(*buf)),
			 0);
	assert_int_equal(cap, 8 * 64 * 1024 / sizeof(*buf));
	for (i = 0; i < cap; i++)
		buf[i] = (uint32_t)i;
	assert_int_equal(xbl_grow((void **)&buf, &cap, SIZE_MAX / 2, 4),
			 -ENOMEM);
	assert_int_equal(buf[cap - 1], cap - 1);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
