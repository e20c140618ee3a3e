// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/du/account.c: du's sums over a made-up walk in fts order.  Each
 * expected figure is what GNU du's process_file() gives for the same
 * sequence of entries.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "xbulk.h"

/* One visit of a made-up walk. */
struct step {
	char		visit;		/* '<' pre-order, '>' post-order,
					   'f' a non-directory */
	unsigned int	depth;
	const char	*path;
	uint64_t	ino;
	uint32_t	nlink;
	uint64_t	blocks;
	uint32_t	flags;
};

struct out {
	char	buf[4096];
	size_t	len;
};

static int
collect(void *arg, const struct xbulk_entry *e, const struct xbulk_du_sum *s)
{
	struct out *o = arg;

	o->len += (size_t)snprintf(o->buf + o->len, sizeof(o->buf) - o->len,
				   "%llu %llu %s\n",
				   (unsigned long long)s->bytes,
				   (unsigned long long)s->inodes, e->path);
	return 0;
}

/*
 * Feed @steps to du as a walk would: after a pre-order visit answered
 * with XBULK_WALK_PRUNE, the directory's contents are skipped, not its
 * post-order visit.
 */
static void
walk(struct xbulk_du *du, const struct step *steps, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct step *s = &steps[i];
		struct xfs_bulkstat bs = {
			.bs_ino = s->ino,
			.bs_nlink = s->nlink ? s->nlink : 1,
			.bs_blocks = s->blocks,
			.bs_size = s->blocks * 100,
			.bs_mode = s->visit == 'f' ? S_IFREG | 0644
						   : S_IFDIR | 0755,
		};
		struct xbulk_entry e = {
			.path = s->path,
			.pathlen = strlen(s->path),
			.depth = s->depth,
			.bs = &bs,
			.flags = s->flags,
		};
		int ret = xbulk_du_visit(du, &e, s->visit == '>'
					 ? XBULK_VISIT_POST : XBULK_VISIT_PRE);

		if (ret == XBULK_WALK_PRUNE) {
			while (steps[i].visit != '>' ||
			       steps[i].depth != s->depth)
				i++;
			i--;
			continue;
		}
		assert_int_equal(ret, 0);
	}
}

static const struct step tree[] = {
	{ '<', 0, "r", 1, 2, 1, 0 },
	{ 'f', 1, "r/a", 2, 1, 2, 0 },
	{ '<', 1, "r/d", 3, 2, 1, 0 },
	{ 'f', 2, "r/d/b", 4, 1, 3, 0 },
	{ 'f', 2, "r/d/h", 9, 2, 4, 0 },
	{ '>', 1, "r/d", 3, 2, 1, 0 },
	{ 'f', 1, "r/h2", 9, 2, 4, 0 },
	{ '>', 0, "r", 1, 2, 1, 0 },
};

static const struct step subtree[] = {
	{ '<', 0, "r/d", 3, 2, 1, 0 },
	{ 'f', 1, "r/d/b", 4, 1, 3, 0 },
	{ 'f', 1, "r/d/h", 9, 2, 4, 0 },
	{ '>', 0, "r/d", 3, 2, 1, 0 },
};

#define N(a)	(sizeof(a) / sizeof((a)[0]))

static void
run(const struct xbulk_du_opts *base, const struct step *a, size_t na,
    const struct step *b, size_t nb,
    const char *want, uint64_t want_total)
{
	struct xbulk_du_opts o = *base;
	struct xbulk_du *du;
	const struct xbulk_du_sum *total;
	struct out out = { .len = 0 };

	o.fn = collect;
	o.arg = &out;
	assert_int_equal(xbulk_du_new(&o, &du), 0);
	walk(du, a, na);
	if (b)
		walk(du, b, nb);
	total = xbulk_du_total(du);
	assert_int_equal(total->bytes, want_total);
	xbulk_du_free(du);
	assert_string_equal(out.buf, want);
}

/* A second link is not counted; a directory's sum is its subtree's. */
static void
test_du_one_operand(void **state)
{
	struct xbulk_du_opts o = { .size = sizeof(o), .blocklog = 0 };

	(void)state;
	run(&o, tree, N(tree), NULL, 0,
	    "2 1 r/a\n3 1 r/d/b\n4 1 r/d/h\n8 3 r/d\n11 5 r\n", 11);
	/* Blocks of 4 KiB: bytes = blocks << blocklog. */
	o.blocklog = 12;
	run(&o, tree, N(tree), NULL, 0,
	    "8192 1 r/a\n12288 1 r/d/b\n16384 1 r/d/h\n32768 3 r/d\n"
	    "45056 5 r\n", 45056);
	o.blocklog = 0;
	o.apparent = true;
	run(&o, tree, N(tree), NULL, 0,
	    "200 1 r/a\n300 1 r/d/b\n400 1 r/d/h\n800 3 r/d\n1100 5 r\n",
	    1100);
}

/* -l: every link counts. */
static void
test_du_count_links(void **state)
{
	struct xbulk_du_opts o = { .size = sizeof(o), .count_links = true };

	(void)state;
	run(&o, tree, N(tree), NULL, 0,
	    "2 1 r/a\n3 1 r/d/b\n4 1 r/d/h\n8 3 r/d\n4 1 r/h2\n15 6 r\n",
	    15);
}

/* Several operands: what one counted, the next leaves out, directories
 * included (du r/d r prints r/d's files under r/d only). */
static void
test_du_two_operands(void **state)
{
	struct xbulk_du_opts o = { .size = sizeof(o), .hash_all = true };

	(void)state;
	run(&o, subtree, N(subtree), tree, N(tree),
	    "3 1 r/d/b\n4 1 r/d/h\n8 3 r/d\n2 1 r/a\n3 2 r\n", 11);
	/* The same operand twice: nothing the second time. */
	run(&o, subtree, N(subtree), subtree, N(subtree),
	    "3 1 r/d/b\n4 1 r/d/h\n8 3 r/d\n", 8);
}

/* -S: a directory's figure leaves out its subdirectories. */
static void
test_du_separate_dirs(void **state)
{
	struct xbulk_du_opts o = { .size = sizeof(o), .separate_dirs = true };

	(void)state;
	run(&o, tree, N(tree), NULL, 0,
	    "2 1 r/a\n3 1 r/d/b\n4 1 r/d/h\n8 3 r/d\n3 2 r\n", 11);
}

/* A mount point below the operand is left out with its contents. */
static void
test_du_mount_point(void **state)
{
	static const struct step t[] = {
		{ '<', 0, "r", 1, 2, 1, 0 },
		{ '<', 1, "r/m", 5, 2, 1, XBULK_ENTRY_MOUNT },
		{ 'f', 2, "r/m/x", 6, 1, 7, 0 },
		{ '>', 1, "r/m", 5, 2, 1, XBULK_ENTRY_MOUNT },
		{ 'f', 1, "r/a", 2, 1, 2, 0 },
		{ '>', 0, "r", 1, 2, 1, 0 },
	};
	struct xbulk_du_opts o = { .size = sizeof(o) };

	(void)state;
	run(&o, t, N(t), NULL, 0, "2 1 r/a\n3 2 r\n", 3);
}

/* Levels entered several at a time and left one at a time. */
static void
test_du_deep(void **state)
{
	static const struct step t[] = {
		{ '<', 0, "r", 1, 2, 1, 0 },
		{ '<', 1, "r/1", 2, 2, 1, 0 },
		{ '<', 2, "r/1/2", 3, 2, 1, 0 },
		{ '<', 3, "r/1/2/3", 4, 2, 1, 0 },
		{ 'f', 4, "r/1/2/3/f", 5, 1, 10, 0 },
		{ '>', 3, "r/1/2/3", 4, 2, 1, 0 },
		{ '>', 2, "r/1/2", 3, 2, 1, 0 },
		{ 'f', 2, "r/1/g", 6, 1, 100, 0 },
		{ '>', 1, "r/1", 2, 2, 1, 0 },
		{ '<', 1, "r/e", 7, 2, 1, 0 },
		{ '>', 1, "r/e", 7, 2, 1, 0 },
		{ '>', 0, "r", 1, 2, 1, 0 },
	};
	struct xbulk_du_opts o = { .size = sizeof(o) };

	(void)state;
	run(&o, t, N(t), NULL, 0,
	    "10 1 r/1/2/3/f\n11 2 r/1/2/3\n12 3 r/1/2\n100 1 r/1/g\n"
	    "113 5 r/1\n1 1 r/e\n115 7 r\n", 115);
}

/* A file operand is printed at depth 0. */
static void
test_du_file_operand(void **state)
{
	static const struct step t[] = {
		{ 'f', 0, "r/a", 2, 1, 2, 0 },
	};
	struct xbulk_du_opts o = { .size = sizeof(o), .hash_all = true };

	(void)state;
	run(&o, t, N(t), tree, N(tree),
	    "2 1 r/a\n3 1 r/d/b\n4 1 r/d/h\n8 3 r/d\n9 4 r\n", 11);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_du_one_operand),
		cmocka_unit_test(test_du_count_links),
		cmocka_unit_test(test_du_two_operands),
		cmocka_unit_test(test_du_separate_dirs),
		cmocka_unit_test(test_du_mount_point),
		cmocka_unit_test(test_du_deep),
		cmocka_unit_test(test_du_file_operand),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
