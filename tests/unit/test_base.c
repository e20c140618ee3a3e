// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The base's helpers for every layer.  lib/grow.c: a buffer doubles from
 * 64 KiB, keeps its contents, and a size whose bytes would wrap is
 * -ENOMEM with the buffer untouched.  lib/hash.c: values found again
 * across growth, key 0 and keys that follow each other, a set, iteration
 * over every key once, clearing and freeing.
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
#include "hash.h"

#define N	5000

struct val {
	uint64_t	a;
	uint32_t	b;		/* 12 bytes: the slot rounds up */
};

static void
test_values(void **state)
{
	struct xbl_hash h;
	struct val *v;
	uint64_t k;
	bool fresh;

	(void)state;
	xbl_hash_init(&h, sizeof(struct val));
	assert_null(xbl_hash_get(&h, 0));
	for (k = 0; k < N; k++) {
		v = xbl_hash_add(&h, k * 64, &fresh);	/* one per chunk */
		assert_non_null(v);
		assert_true(fresh);
		assert_int_equal(v->a, 0);
		v->a = k;
		v->b = (uint32_t)~k;
	}
	assert_int_equal(h.count, N);
	assert_true(h.count * 2 <= h.mask + 1);
	for (k = 0; k < N; k++) {
		v = xbl_hash_get(&h, k * 64);
		assert_non_null(v);
		assert_int_equal(v->a, k);
		assert_int_equal(v->b, (uint32_t)~k);
		assert_null(xbl_hash_get(&h, k * 64 + 1));
		v = xbl_hash_add(&h, k * 64, &fresh);
		assert_false(fresh);
		assert_int_equal(v->a, k);
	}
	assert_int_equal(h.count, N);
	xbl_hash_free(&h);
	assert_null(xbl_hash_get(&h, 0));
	v = xbl_hash_add(&h, UINT64_MAX - 1, &fresh);	/* usable again */
	assert_non_null(v);
	assert_true(fresh);
	xbl_hash_free(&h);
}

static void
test_set_next_clear(void **state)
{
	struct xbl_hash h;
	size_t pos = 0, seen = 0;
	char mark[N] = { 0 };
	uint64_t k;
	bool fresh;

	(void)state;
	xbl_hash_init(&h, 0);
	for (k = 0; k < N; k++)
		assert_non_null(xbl_hash_add(&h, k, &fresh));
	assert_int_equal(xbl_hash_reserve(&h, 4 * N), 0);
	assert_true(h.mask + 1 >= 8 * N);
	while (xbl_hash_next(&h, &pos, &k)) {
		assert_true(k < N);
		assert_int_equal(mark[k]++, 0);
		seen++;
	}
	assert_int_equal(seen, N);
	xbl_hash_clear(&h);
	assert_int_equal(h.count, 0);
	pos = 0;
	assert_null(xbl_hash_next(&h, &pos, &k));
	assert_null(xbl_hash_get(&h, 7));
	assert_non_null(xbl_hash_add(&h, 7, &fresh));
	assert_true(fresh);
	xbl_hash_free(&h);
}

static void
test_zeroed(void **state)
{
	struct xbl_hash h = { 0 };
	size_t pos = 0;
	uint64_t k;

	(void)state;
	assert_null(xbl_hash_get(&h, 0));
	assert_null(xbl_hash_next(&h, &pos, &k));
	xbl_hash_clear(&h);
	xbl_hash_free(&h);
	assert_int_equal(h.size, 0);
}

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
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_set_next_clear),
		cmocka_unit_test(test_zeroed),
		cmocka_unit_test(test_grow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
