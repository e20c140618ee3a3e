// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk_batch_check(): the contract every answer of the bulk ioctls must
 * keep before a scan loop uses it (records in strictly increasing order,
 * the first at or past the cursor, or covering it for inode chunks, a new
 * cursor past them), and what it tells of an answer that breaks it (the
 * good records, the first key out of place).  A damaged inode btree made
 * Linux 6.18 break each of these.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "xbulk.h"

#define MAXREC	8

struct answer {
	struct xfs_bulk_ireq	hdr;
	struct xfs_inumbers	rec[MAXREC];
};

/* An answer of @n chunk records with keys @keys, new cursor @next. */
static void
make(struct answer *a, uint32_t icount, uint32_t n, const uint64_t *keys,
     uint64_t next)
{
	uint32_t i;

	memset(a, 0, sizeof(*a));
	a->hdr.icount = icount;
	a->hdr.ocount = n;
	a->hdr.ino = next;
	for (i = 0; i < n && i < MAXREC; i++)
		a->rec[i].xi_startino = keys[i];
}

static bool
check(const struct answer *a, uint64_t cursor, uint64_t span,
      uint32_t *good, uint64_t *bad)
{
	return xbulk_batch_check(&a->hdr, cursor, a->rec, sizeof(a->rec[0]),
				 span, good, bad);
}

static void
test_good_answers(void **state)
{
	static const uint64_t keys[] = { 100, 101, 205, 9000 };
	struct answer a;
	uint32_t good;
	uint64_t bad;

	(void)state;
	make(&a, 8, 4, keys, 9001);
	assert_true(check(&a, 100, 1, &good, &bad));
	assert_int_equal(good, 4);
	/* no records: the end, whatever the cursor says */
	make(&a, 8, 0, keys, 0);
	assert_true(check(&a, 5000, 1, &good, &bad));
	assert_int_equal(good, 0);
	/* a chunk holding the cursor begins before it */
	make(&a, 8, 2, (const uint64_t[]){ 1048608, 1048672 }, 1048736);
	assert_true(check(&a, 1048671, XBULK_INODES_PER_CHUNK, &good, &bad));
	assert_int_equal(good, 2);
}

static void
test_records_before_the_cursor(void **state)
{
	struct answer a;
	uint32_t good;
	uint64_t bad;

	(void)state;
	/* the kernel went back to an earlier chunk (finding 1) */
	make(&a, 8, 2, (const uint64_t[]){ 8256, 8320 }, 12608);
	assert_false(check(&a, 12608, XBULK_INODES_PER_CHUNK, &good, &bad));
	assert_int_equal(good, 0);
	assert_int_equal(bad, 8256);
	/* a chunk that ends just before the cursor does not hold it */
	make(&a, 8, 1, (const uint64_t[]){ 1048544 }, 1048608);
	assert_false(check(&a, 1048608, XBULK_INODES_PER_CHUNK, &good, &bad));
	/* bulkstat: an inode before the cursor */
	make(&a, 8, 1, (const uint64_t[]){ 99 }, 100);
	assert_false(check(&a, 100, 1, &good, &bad));
	assert_int_equal(bad, 99);
}

static void
test_out_of_order(void **state)
{
	struct answer a;
	uint32_t good;
	uint64_t bad;

	(void)state;
	make(&a, 8, 4, (const uint64_t[]){ 100, 200, 150, 300 }, 301);
	assert_false(check(&a, 100, 1, &good, &bad));
	assert_int_equal(good, 2);
	assert_int_equal(bad, 150);
	/* the same record twice */
	make(&a, 8, 3, (const uint64_t[]){ 100, 200, 200 }, 201);
	assert_false(check(&a, 100, 1, &good, &bad));
	assert_int_equal(good, 2);
	assert_int_equal(bad, 200);
}

static void
test_cursor_that_does_not_advance(void **state)
{
	struct answer a;
	uint32_t good;
	uint64_t bad;

	(void)state;
	/* stuck on the last record (finding 1: the same cursor again) */
	make(&a, 8, 2, (const uint64_t[]){ 100, 200 }, 200);
	assert_false(check(&a, 100, 1, &good, &bad));
	assert_int_equal(good, 2);
	assert_int_equal(bad, 200);
	/* a chunk holding the cursor, and a new cursor not past the old */
	make(&a, 8, 1, (const uint64_t[]){ 64 }, 100);
	assert_false(check(&a, 100, XBULK_INODES_PER_CHUNK, &good, &bad));
	assert_int_equal(good, 1);
	assert_int_equal(bad, 100);
}

static void
test_more_records_than_asked(void **state)
{
	struct answer a;
	uint32_t good;
	uint64_t bad;

	(void)state;
	make(&a, 2, 3, (const uint64_t[]){ 100, 101, 102 }, 103);
	assert_false(check(&a, 100, 1, &good, &bad));
	assert_int_equal(good, 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_answers),
		cmocka_unit_test(test_records_before_the_cursor),
		cmocka_unit_test(test_out_of_order),
		cmocka_unit_test(test_cursor_that_does_not_advance),
		cmocka_unit_test(test_more_records_than_asked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
