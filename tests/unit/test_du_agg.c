// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/du: --by keys and tables (merging per-directory tables adds up),
 * the N largest (ties keep the first), and the squarified layout (each
 * box's area is its share, boxes tile the rectangle).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "du/agg.h"
#include "du/top.h"
#include "du/treemap.h"

/* The key of @path at @depth (0: an operand, as given). */
static uint64_t
key_at(struct du_agg *a, const char *path, unsigned int depth,
       const struct xfs_bulkstat *bs)
{
	const char *slash = strrchr(path, '/');
	struct xbulk_entry e = {
		.path = path,
		.name_off = slash && depth ? (size_t)(slash + 1 - path) : 0,
		.depth = depth,
		.bs = bs,
	};
	uint64_t key = 99;

	assert_int_equal(du_agg_key(a, &e, &key), 0);
	return key;
}

static uint64_t
key_of(struct du_agg *a, const char *path, const struct xfs_bulkstat *bs)
{
	return key_at(a, path, 1, bs);
}

static void
test_agg_keys(void **state)
{
	struct xfs_bulkstat bs = {
		.bs_mode = S_IFREG, .bs_uid = 7, .bs_gid = 8,
		.bs_projectid = 9, .bs_mtime = 1000000 - 3 * 86400,
	};
	struct du_agg a;
	uint64_t tgz;

	(void)state;
	du_agg_init(&a, DU_BY_EXT, XBULK_TIME_MTIME, 1000000, 12);
	tgz = key_of(&a, "d/a.tar.gz", &bs);
	assert_string_equal(du_agg_label(&a, tgz), "gz");
	assert_int_equal(key_of(&a, "d/b.gz", &bs), tgz);
	assert_int_equal(key_of(&a, "d/.bashrc", &bs), 0);
	assert_int_equal(key_of(&a, "d/noext", &bs), 0);
	assert_int_equal(key_of(&a, "d/trailing.", &bs), 0);
	assert_string_equal(du_agg_label(&a, key_of(&a, ".c", &bs)),
			    "(none)");
	assert_string_equal(du_agg_label(&a, key_of(&a, "x.c", &bs)), "c");
	/* An operand's suffix is its last component's, never a parent's. */
	assert_int_equal(key_at(&a, "/tmp/x.y/mnt/data", 0, &bs), 0);
	assert_int_equal(key_at(&a, "x.y/data/", 0, &bs), 0);
	assert_int_equal(key_at(&a, "/srv/b.gz//", 0, &bs), tgz);
	assert_int_equal(key_at(&a, "a.gz", 0, &bs), tgz);
	assert_int_equal(key_at(&a, ".", 0, &bs), 0);
	assert_int_equal(key_at(&a, "..", 0, &bs), 0);
	assert_int_equal(key_at(&a, "/", 0, &bs), 0);
	assert_int_equal(key_at(&a, "x.y/.gz/", 0, &bs), 0);
	du_agg_free(&a);

	du_agg_init(&a, DU_BY_AGE, XBULK_TIME_MTIME, 1000000, 12);
	assert_string_equal(du_agg_label(&a, key_of(&a, "f", &bs)), "<7d");
	bs.bs_mtime = 2000000;	/* the future */
	assert_string_equal(du_agg_label(&a, key_of(&a, "f", &bs)), "<1d");
	bs.bs_mtime = 0;
	assert_string_equal(du_agg_label(&a, key_of(&a, "f", &bs)),
			    "<30d");

	a.by = DU_BY_SIZE_CLASS;
	bs.bs_size = 4095;
	assert_string_equal(du_agg_label(&a, key_of(&a, "f", &bs)), "<4K");
	bs.bs_size = 4096;
	assert_string_equal(du_agg_label(&a, key_of(&a, "f", &bs)),
			    "<16K");
	bs.bs_size = 1ull << 50;
	assert_string_equal(du_agg_label(&a, key_of(&a, "f", &bs)),
			    ">=1P");
	a.by = DU_BY_TYPE;
	assert_string_equal(du_agg_label(&a, key_of(&a, "f", &bs)),
			    "file");
	a.by = DU_BY_PROJID;
	assert_int_equal(key_of(&a, "f", &bs), 9);
	assert_null(du_agg_label(&a, 9));
}

/* Many keys in two tables, merged: every row adds up, sorted largest
 * first. */
static void
test_agg_tables(void **state)
{
	struct du_agg a;
	struct du_agg_table t1 = { 0 }, t2 = { 0 };
	struct du_agg_row *rows;
	struct xfs_bulkstat bs = { .bs_blocks = 1, .bs_size = 10 };
	uint64_t k;
	size_t i;

	(void)state;
	du_agg_init(&a, DU_BY_UID, XBULK_TIME_MTIME, 0, 12);
	for (k = 0; k < 1000; k++) {
		for (i = 0; i <= k % 5; i++)
			assert_int_equal(du_agg_add(k & 1 ? &t1 : &t2, &a,
						       k, &bs), 0);
		assert_int_equal(du_agg_add(&t1, &a, k, &bs), 0);
	}
	assert_int_equal(du_agg_merge(&t1, &t2), 0);
	assert_int_equal(t1.rows.count, 1000);
	rows = du_agg_sorted(&t1);
	assert_non_null(rows);
	for (i = 0; i < 1000; i++) {
		assert_int_equal(rows[i].count, rows[i].key % 5 + 2);
		assert_int_equal(rows[i].disk, rows[i].count * 4096);
		assert_int_equal(rows[i].apparent, rows[i].count * 10);
		if (i)
			assert_true(rows[i - 1].disk > rows[i].disk ||
				    (rows[i - 1].disk == rows[i].disk &&
				     rows[i - 1].key < rows[i].key));
	}
	free(rows);
	du_agg_clear(&t1);
	assert_int_equal(t1.rows.count, 0);
	assert_null(du_agg_sorted(&t1));
	du_agg_table_free(&t1);
	du_agg_table_free(&t2);
}

static void
test_top(void **state)
{
	static const uint64_t sizes[] = { 5, 9, 1, 9, 7, 3, 9, 2 };
	static const char *const want[] = { "p1", "p3", "p6", "p4" };
	struct du_top t;
	char path[8];
	size_t i;

	(void)state;
	assert_int_equal(du_top_init(&t, 4), 0);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct xbulk_du_sum s = { sizes[i] * 512, 100 + i };

		snprintf(path, sizeof(path), "p%zu", i);
		assert_int_equal(du_top_add(&t, sizes[i], &s, path, i), 0);
	}
	du_top_sort(&t);
	assert_int_equal(t.n, 4);
	for (i = 0; i < 4; i++) {
		/* Each item keeps its own sums, not only its key. */
		assert_string_equal(t.heap[i].path, want[i]);
		assert_int_equal(t.heap[i].sum.inodes,
				 100 + (uint64_t)(want[i][1] - '0'));
		assert_int_equal(t.heap[i].sum.bytes, t.heap[i].key * 512);
	}
	du_top_free(&t);
}

static void
test_squarify(void **state)
{
	static const double sizes[] = { 600, 600, 400, 300, 200, 100, 50, 1 };
	const size_t n = sizeof(sizes) / sizeof(sizes[0]);
	const struct du_rect r = { 10, 20, 600, 400 };
	struct du_rect out[8];
	double total = 0, sum = 0;
	size_t i;

	(void)state;
	for (i = 0; i < n; i++)
		total += sizes[i];
	du_treemap_squarify(sizes, n, &r, out);
	for (i = 0; i < n; i++) {
		double area = out[i].w * out[i].h;
		double want = sizes[i] / total * r.w * r.h;

		assert_true(area > want * 0.999999 && area < want * 1.000001);
		assert_true(out[i].x >= r.x - 1e-9 && out[i].y >= r.y - 1e-9);
		assert_true(out[i].x + out[i].w <= r.x + r.w + 1e-9);
		assert_true(out[i].y + out[i].h <= r.y + r.h + 1e-9);
		sum += area;
	}
	assert_true(sum > r.w * r.h * 0.999999);
	/* The first box of a squarified layout is no sliver. */
	assert_true(out[0].w / out[0].h < 3 && out[0].h / out[0].w < 3);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_agg_keys),
		cmocka_unit_test(test_agg_tables),
		cmocka_unit_test(test_top),
		cmocka_unit_test(test_squarify),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
