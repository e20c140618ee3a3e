// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/scan/stats.c: the difference of two samples (unavailable counters stay
 * unavailable, the XFS counters wrap at 32 bits), and a sample of this
 * machine's counters with no device: what any Linux offers is read, the
 * devices it was not given are unavailable, never 0.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "scan/engine.h"

static void
fill(struct xbulk_sample *s, uint64_t v)
{
	uint64_t *p = (uint64_t *)s;
	size_t i;

	for (i = 0; i < sizeof(*s) / sizeof(uint64_t); i++)
		p[i] = v;
	s->size = sizeof(*s);
}

#define SAMPLE(name)	struct xbulk_sample name = { .size = sizeof(name) }

static void
test_delta(void **state)
{
	struct xbulk_sample a, b;
	SAMPLE(d);

	(void)state;
	fill(&a, 100);
	fill(&b, 250);
	b.maxrss_kib = 4096;
	b.real_ns = 1234;
	xbulk_sample_delta(&d, &a, &b);
	assert_int_equal(d.mono_ns, 150);
	assert_int_equal(d.utime_us, 150);
	assert_int_equal(d.dev[XBULK_DEV_RT].io_ticks_ms, 150);
	assert_int_equal(d.ig[XBULK_IG_ATTRCHG], 150);
	assert_int_equal(d.vm[XBULK_VM_SLABS_SCANNED], 150);
	assert_int_equal(d.psi_full_us, 150);
	/* not differences: the peak so far and the time of the end */
	assert_int_equal(d.maxrss_kib, 4096);
	assert_int_equal(d.real_ns, 1234);
}

/* Unavailable in either sample: unavailable in the difference. */
static void
test_delta_unavailable(void **state)
{
	struct xbulk_sample a, b;
	SAMPLE(d);

	(void)state;
	fill(&a, 7);
	fill(&b, 9);
	a.ig[XBULK_IG_FOUND] = XBULK_STAT_NA;
	b.vm[XBULK_VM_PGSCAN_DIRECT] = XBULK_STAT_NA;
	b.dev[XBULK_DEV_LOG].read_ios = XBULK_STAT_NA;
	a.psi_some_us = XBULK_STAT_NA;
	xbulk_sample_delta(&d, &a, &b);
	assert_false(xbulk_stat_ok(d.ig[XBULK_IG_FOUND]));
	assert_false(xbulk_stat_ok(d.vm[XBULK_VM_PGSCAN_DIRECT]));
	assert_false(xbulk_stat_ok(d.dev[XBULK_DEV_LOG].read_ios));
	assert_false(xbulk_stat_ok(d.psi_some_us));
	assert_int_equal(d.ig[XBULK_IG_MISSED], 2);
	assert_int_equal(d.dev[XBULK_DEV_LOG].read_sectors, 2);
}

/* The kernel prints 32-bit sums: 4294967290 -> 5 is 11 lookups. */
static void
test_delta_xfs_wraps(void **state)
{
	struct xbulk_sample a, b;
	SAMPLE(d);

	(void)state;
	fill(&a, 0);
	fill(&b, 0);
	a.ig[XBULK_IG_ATTEMPTS] = 4294967290ULL;
	b.ig[XBULK_IG_ATTEMPTS] = 5;
	/* other counters are 64-bit and do not wrap at 2^32 */
	a.vm[XBULK_VM_PGSCAN_KSWAPD] = 4294967290ULL;
	b.vm[XBULK_VM_PGSCAN_KSWAPD] = 4294967301ULL;
	xbulk_sample_delta(&d, &a, &b);
	assert_int_equal(d.ig[XBULK_IG_ATTEMPTS], 11);
	assert_int_equal(d.vm[XBULK_VM_PGSCAN_KSWAPD], 11);
}

/* A source without devices or XFS statistics: those are unavailable. */
static void
test_sample_without_devices(void **state)
{
	struct xbulk_stats_src src;
	SAMPLE(a);
	SAMPLE(b);
	SAMPLE(d);
	int i;

	(void)state;
	memset(&src, 0, sizeof(src));
	xbulk_stats_sample(&src, &a);
	xbulk_stats_sample(&src, &b);
	xbulk_sample_delta(&d, &a, &b);
	assert_true(b.mono_ns >= a.mono_ns);
	assert_true(xbulk_stat_ok(a.utime_us));
	assert_true(xbulk_stat_ok(a.maxrss_kib));
	assert_true(a.maxrss_kib > 0);
	for (i = 0; i < XBULK_DEV_NR; i++)
		assert_false(xbulk_stat_ok(a.dev[i].read_ios));
	for (i = 0; i < XBULK_IG_NR; i++)
		assert_false(xbulk_stat_ok(a.ig[i]));
	/* /proc/vmstat has had these since Linux 4.x */
	assert_true(xbulk_stat_ok(a.vm[XBULK_VM_PGSCAN_KSWAPD]));
	assert_true(xbulk_stat_ok(a.vm[XBULK_VM_PGSTEAL_DIRECT]));
	assert_true(xbulk_stat_ok(a.vm[XBULK_VM_ALLOCSTALL]));
	assert_true(xbulk_stat_ok(d.vm[XBULK_VM_PGSCAN_DIRECT]));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_delta_unavailable),
		cmocka_unit_test(test_delta_xfs_wraps),
		cmocka_unit_test(test_sample_without_devices),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
