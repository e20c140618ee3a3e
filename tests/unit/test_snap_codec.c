// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the snapshot records (lib/snap/codec.c) and the
 * directory table (lib/snap/dirtab.c): a record survives its bytes with
 * extreme values (times before 1970 and in 2486, sizes near 2^63, every
 * nanosecond, many names); every truncation of a record is refused; the
 * table makes paths, says which directories no path reaches, and refuses
 * a cycle of parents.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

#include "snap/snap.h"

static void
roundtrip(void **state)
{
	/* static: its padding is zero, as decoding leaves it */
	static struct xfs_bulkstat bs = {
		.bs_ino = 1ULL << 40, .bs_gen = 0xffffffff, .bs_mode = 0100644,
		.bs_nlink = 3, .bs_uid = 4000000000u, .bs_gid = 7,
		.bs_projectid = 99, .bs_size = INT64_MAX, .bs_blocks = 12345,
		.bs_rdev = 0x801, .bs_xflags = 0x80000080,
		.bs_extents64 = 1ULL << 40, .bs_aextents = 2,
		.bs_ctime = 16299260424LL, .bs_ctime_nsec = 999999999,
		.bs_mtime = -2147483648LL, .bs_mtime_nsec = 0,
		.bs_atime = 0, .bs_atime_nsec = 1,
		.bs_btime = 16299260424LL, .bs_btime_nsec = 999999999,
	};
	struct xbulk_snap_link links[3] = {
		{ 128, "a", 1 }, { (1ULL << 40) + 5, "name two", 8 },
		{ 1ULL << 39, "x", 1 },
	};
	struct xbulk_snap_rec rec = { .bs = &bs, .flags = XBULK_SNAP_CHANGING,
				      .nlinks = 3, .links = links };
	static uint8_t buf[SNAP_REC_MAX];
	struct xbulk_snap_link *got = NULL;
	const uint8_t *p = buf;
	struct xfs_bulkstat out;
	struct snap_raw raw;
	size_t len, cap = 0, cut;
	uint32_t flags, n;

	(void)state;
	len = snap_encode_rec(buf, 0, &rec);
	assert_int_equal(snap_split(&p, buf + len, 0, &raw), 0);
	assert_ptr_equal(p, buf + len);
	assert_int_equal(snap_decode_rec(&raw, &out, &flags, &got, &cap, &n),
			 0);
	assert_memory_equal(&out, &bs, sizeof(bs));
	assert_int_equal(flags, XBULK_SNAP_CHANGING);
	assert_int_equal(n, 3);
	assert_int_equal(got[1].parent, links[1].parent);
	assert_memory_equal(got[1].name, "name two", 8);
	/* every shorter body is refused, never read past */
	for (cut = 0; cut < raw.len; cut++) {
		struct snap_raw r = raw;

		r.len = cut;
		assert_int_equal(snap_decode_rec(&r, &out, &flags, &got, &cap,
						 &n), -EBADMSG);
	}
	free(got);
}

static void
dirtab(void **state)
{
	struct snap_dirtab t = { .top = 128 };
	struct xbulk_snap_link l = { 200, "f", 1 };
	char *buf = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(snap_dirtab_add(&t, 128, 0, 0, "", 0), 0);
	assert_int_equal(snap_dirtab_add(&t, 200, 1, 300, "b", 1), 0);
	assert_int_equal(snap_dirtab_add(&t, 300, 1, 128, "a", 1), 0);
	assert_int_equal(snap_dirtab_add(&t, 400, 1, 0, "lost", 4), 0);
	assert_int_equal(snap_dirtab_add(&t, 350, 1, 0, "x", 1), -EBADMSG);
	assert_int_equal(snap_dirtab_seal(&t), 0);
	assert_int_equal(snap_dirtab_path(&t, &l, &buf, &cap), 5);
	assert_string_equal(buf, "a/b/f");
	assert_int_equal(snap_dirtab_path(&t, NULL, &buf, &cap), 1);
	assert_string_equal(buf, ".");
	l.parent = 400;			/* a directory no path reaches */
	assert_int_equal(snap_dirtab_path(&t, &l, &buf, &cap), -ENOENT);
	l.parent = 999;			/* none at all */
	assert_int_equal(snap_dirtab_path(&t, &l, &buf, &cap), -ENOENT);
	snap_dirtab_free(&t);

	/* 500 -> 600 -> 500: a cycle */
	t = (struct snap_dirtab){ .top = 128 };
	assert_int_equal(snap_dirtab_add(&t, 128, 0, 0, "", 0), 0);
	assert_int_equal(snap_dirtab_add(&t, 500, 1, 600, "p", 1), 0);
	assert_int_equal(snap_dirtab_add(&t, 600, 1, 500, "q", 1), 0);
	assert_int_equal(snap_dirtab_seal(&t), -EBADMSG);
	snap_dirtab_free(&t);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(roundtrip),
		cmocka_unit_test(dirtab),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
