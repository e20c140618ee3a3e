// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/scan/sched.c: which unit a free worker of the parallel scan takes.
 * One worker per AG first; no AG is joined before the cost per record of
 * one worker in an AG is known; then a second worker is tried, and kept
 * only while it has paid; ordered output under pressure stays near the
 * head; the head is taken whatever the rules.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "scan/engine.h"

#define AGS		2
#define PER_AG		4	/* units per AG */
#define AGINO_LOG	20

static struct xbulk_fs fs;
static struct xbs_unit units[AGS * PER_AG];
static struct xbs_sched s;

static int
setup(void **state)
{
	size_t k;

	(void)state;
	memset(&fs, 0, sizeof(fs));
	fs.geom.agcount = AGS;
	fs.agino_log = AGINO_LOG;
	for (k = 0; k < AGS * PER_AG; k++) {
		units[k].start = ((uint64_t)(k / PER_AG) << AGINO_LOG) +
				 (k % PER_AG) * 4096;
		units[k].end = units[k].start + 4095;
		units[k].last = units[k].end;
		units[k].count = 4096;
	}
	return xbs_sched_init(&s, &fs, units, AGS * PER_AG);
}

static int
teardown(void **state)
{
	(void)state;
	xbs_sched_free(&s);
	return 0;
}

/* Take a unit (no head rule: head far away), or SIZE_MAX for none. */
static size_t
take(bool pressed)
{
	size_t k;

	return xbs_sched_take(&s, SIZE_MAX, pressed, &k) ? k : SIZE_MAX;
}

static void
test_one_per_ag_first(void **state)
{
	(void)state;
	assert_int_equal(take(false), 0);		/* AG 0 */
	assert_int_equal(take(false), PER_AG);		/* AG 1 */
	/* Both AGs busy, nothing known yet: wait rather than join. */
	assert_int_equal(take(false), SIZE_MAX);
	xbs_sched_done(&s, 0, 4096, 4096000);	/* 1 us/record alone */
	assert_int_equal(take(false), 1);		/* free AG 0 again */
}

static void
test_join_tried_then_kept_or_dropped(void **state)
{
	(void)state;
	assert_int_equal(take(false), 0);
	xbs_sched_done(&s, 0, 4096, 4096000);	/* level 1: 1 us */
	assert_int_equal(take(false), 1);		/* AG 0 */
	assert_int_equal(take(false), PER_AG);		/* AG 1 */
	/* Level 1 known, level 2 untried: a trial join, of AG 0 (first),
	 * past the unit right after the running one */
	assert_int_equal(take(false), 3);
	/* The joiner's unit took 3 us/record: 2 workers give 0.67x */
	xbs_sched_done(&s, 3, 4096, 3 * 4096000);
	assert_int_equal(take(false), SIZE_MAX);
	xbs_sched_free(&s);
	setup(NULL);
	assert_int_equal(take(false), 0);
	xbs_sched_done(&s, 0, 4096, 4096000);
	assert_int_equal(take(false), 1);
	assert_int_equal(take(false), PER_AG);
	assert_int_equal(take(false), 3);
	/* 1.5 us/record with two in the AG: 1.33x, it pays; AG 1 has one
	 * worker, AG 0 two: join AG 1, past its running unit's next */
	xbs_sched_done(&s, 3, 4096, 4096000 * 3 / 2);
	assert_int_equal(take(false), PER_AG + 2);
}

/*
 * A joiner never takes the unit right after a running unit of its AG:
 * that unit's last call may return its first records, which are kept
 * only while it has not started (issue 8, finding 7).
 */
static void
test_join_not_right_after_a_running_unit(void **state)
{
	(void)state;
	assert_int_equal(take(false), 0);
	xbs_sched_done(&s, 0, 4096, 4096000);
	assert_int_equal(take(false), 1);		/* AG 0 */
	assert_int_equal(take(false), PER_AG);		/* AG 1 */
	assert_int_equal(take(false), 3);		/* not 2 */
	/* 2 stays free while 1 runs; once 1 is done it is AG 0's next */
	xbs_sched_done(&s, 1, 4096, 4096000);
	assert_int_equal(take(false), 2);
}

static void
test_head_whatever_the_rules(void **state)
{
	size_t k;

	(void)state;
	assert_int_equal(take(false), 0);
	assert_int_equal(take(false), PER_AG);
	/* Nothing may be joined, but unit 1 is the head: taken. */
	assert_true(xbs_sched_take(&s, 1, false, &k));
	assert_int_equal(k, 1);
}

static void
test_pressed_stays_near_the_head(void **state)
{
	(void)state;
	assert_int_equal(take(false), 0);
	xbs_sched_done(&s, 0, 4096, 4096000);
	assert_int_equal(take(false), 1);		/* AG 0 */
	/* Pressed: the first unit it may take (AG 0, a trial join, past
	 * the unit right after the running one), not the free AG 1. */
	assert_int_equal(take(true), 3);
	/* Not pressed: AG 1, free. */
	assert_int_equal(take(false), PER_AG);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_one_per_ag_first, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
		    test_join_tried_then_kept_or_dropped, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_join_not_right_after_a_running_unit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_head_whatever_the_rules,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_pressed_stays_near_the_head, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
