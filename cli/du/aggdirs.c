// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * du --by with -d N: one table per directory down to depth N, built as
 * du builds its sums: each counted entry goes into the table of the
 * deepest open directory at depth <= N, and a directory's table, once
 * reported after its contents, is merged into its parent's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agg.h"

int
du_agg_dirs_init(struct du_agg_dirs *d, struct du_agg *agg,
		    unsigned int max_depth, du_agg_dir_fn fn, void *arg)
{
	*d = (struct du_agg_dirs){
		.agg = agg, .max_depth = max_depth, .fn = fn, .arg = arg,
	};
	return 0;
}

/* Tables for depths 0..@level (-d 4294967295 costs only the depths the
 * tree has). */
static int
reach(struct du_agg_dirs *d, size_t level)
{
	size_t n = d->nlvl ? d->nlvl : 16;
	struct du_agg_table *t;

	if (level < d->nlvl)
		return 0;
	while (n <= level)
		n *= 2;
	if (n > (size_t)d->max_depth + 1)
		n = (size_t)d->max_depth + 1;
	t = realloc(d->lvl, n * sizeof(*t));
	if (!t)
		return -ENOMEM;
	memset(t + d->nlvl, 0, (n - d->nlvl) * sizeof(*t));
	d->lvl = t;
	d->nlvl = n;
	return 0;
}

void
du_agg_dirs_free(struct du_agg_dirs *d)
{
	size_t i;

	for (i = 0; i < d->nlvl; i++)
		du_agg_table_free(&d->lvl[i]);
	free(d->lvl);
	d->lvl = NULL;
	d->nlvl = 0;
	du_agg_table_free(&d->total);
}

int
du_agg_dirs_charge(struct du_agg_dirs *d, const struct xbulk_entry *e)
{
	bool dir = S_ISDIR(e->bs->bs_mode);
	/* A directory's own inode is in its table; a file is in its
	 * parent's (an operand that is a file: its own). */
	unsigned int level = dir || !e->depth ? e->depth : e->depth - 1;
	struct du_agg_table *t;
	uint64_t key;
	int err;

	if (level > d->max_depth)
		level = d->max_depth;
	err = reach(d, level);
	if (err)
		return err;
	t = &d->lvl[level];
	err = du_agg_key(d->agg, e, &key);
	if (!err)
		err = du_agg_add(t, d->agg, key, e->bs);
	if (err || level != e->depth || (!dir && e->depth))
		return err;
	/* @e is the directory (or operand) whose table this is. */
	err = d->fn(d->arg, e, t);
	if (!err)
		err = du_agg_merge(level ? &d->lvl[level - 1] : &d->total,
				      t);
	du_agg_clear(t);
	return err;
}
