// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/scan/latency.c: the log-linear histogram's percentiles are within 1/32
 * of the exact ones, at every scale; min, max, count and sum are exact;
 * merging equals adding the samples to one histogram.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "scan/engine.h"

/* |got - want| <= want / 32 + 1 */
static void
assert_near(uint64_t got, uint64_t want)
{
	uint64_t d = got > want ? got - want : want - got;

	if (d > want / 32 + 1)
		fail_msg("got %llu, want %llu", (unsigned long long)got,
			 (unsigned long long)want);
}

static void
test_empty(void **state)
{
	struct xbulk_lat *h = calloc(1, sizeof(*h));

	(void)state;
	assert_int_equal(xbulk_lat_percentile(h, 50), 0);
	free(h);
}

/* 1..N times a scale: the p-th percentile is ceil(p / 100 * N) * scale. */
static void
test_uniform(void **state)
{
	static const uint64_t scales[] = { 1, 7, 1000, 123457, 1000000007ULL };
	static const double pcts[] = { 1, 50, 90, 99, 99.9, 100 };
	const uint64_t n = 10000;
	size_t s, p;
	uint64_t i;

	(void)state;
	for (s = 0; s < sizeof(scales) / sizeof(scales[0]); s++) {
		struct xbulk_lat *h = calloc(1, sizeof(*h));

		for (i = n; i >= 1; i--)	/* order does not matter */
			xbs_lat_add(h, i * scales[s]);
		assert_int_equal(h->count, n);
		assert_int_equal(h->min_ns, scales[s]);
		assert_int_equal(h->max_ns, n * scales[s]);
		assert_int_equal(h->sum_ns, n * (n + 1) / 2 * scales[s]);
		for (p = 0; p < sizeof(pcts) / sizeof(pcts[0]); p++) {
			uint64_t rank = (uint64_t)(pcts[p] * n / 100 + 0.5);

			assert_near(xbulk_lat_percentile(h, pcts[p]),
				    rank * scales[s]);
		}
		free(h);
	}
}

/* A tail: 999 fast calls and one stall; p99.9 and max see the stall. */
static void
test_tail(void **state)
{
	struct xbulk_lat *h = calloc(1, sizeof(*h));
	int i;

	(void)state;
	for (i = 0; i < 999; i++)
		xbs_lat_add(h, 500000);
	xbs_lat_add(h, 2000000000ULL);
	assert_near(xbulk_lat_percentile(h, 99), 500000);
	assert_near(xbulk_lat_percentile(h, 99.9), 500000);
	assert_int_equal(xbulk_lat_percentile(h, 100), 2000000000ULL);
	assert_int_equal(h->max_ns, 2000000000ULL);
	free(h);
}

static void
test_merge(void **state)
{
	struct xbulk_lat *a = calloc(1, sizeof(*a));
	struct xbulk_lat *b = calloc(1, sizeof(*b));
	struct xbulk_lat *all = calloc(1, sizeof(*all));
	uint64_t i;

	(void)state;
	for (i = 1; i <= 5000; i++) {
		xbs_lat_add(i % 3 ? a : b, i * 991);
		xbs_lat_add(all, i * 991);
	}
	xbs_lat_merge(a, b);
	assert_memory_equal(a, all, sizeof(*a));
	free(a);
	free(b);
	free(all);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_tail),
		cmocka_unit_test(test_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
