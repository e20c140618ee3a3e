// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * du --by with -d N: one table per directory down to depth N, built as
 * du builds its sums: each counted entry goes into the table of the
 * deepest open directory at depth <= N, and a directory's table, once
 * reported after its contents, is merged into its parent's.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "xbulk.h"

int
xbulk_agg_dirs_init(struct xbulk_agg_dirs *d, struct xbulk_agg *agg,
		    unsigned int max_depth, xbulk_agg_dir_fn fn, void *arg)
{
	*d = (struct xbulk_agg_dirs){
		.agg = agg, .max_depth = max_depth, .fn = fn, .arg = arg,
	};
	d->lvl = calloc((size_t)max_depth + 1, sizeof(*d->lvl));
	return d->lvl ? 0 : -ENOMEM;
}

void
xbulk_agg_dirs_free(struct xbulk_agg_dirs *d)
{
	unsigned int i;

	for (i = 0; d->lvl && i <= d->max_depth; i++)
		xbulk_agg_table_free(&d->lvl[i]);
	free(d->lvl);
	d->lvl = NULL;
	xbulk_agg_table_free(&d->total);
}

int
xbulk_agg_dirs_charge(struct xbulk_agg_dirs *d, const struct xbulk_entry *e)
{
	bool dir = S_ISDIR(e->bs->bs_mode);
	/* A directory's own inode is in its table; a file is in its
	 * parent's (an operand that is a file: its own). */
	unsigned int level = dir || !e->depth ? e->depth : e->depth - 1;
	struct xbulk_agg_table *t;
	uint64_t key;
	int err;

	if (level > d->max_depth)
		level = d->max_depth;
	t = &d->lvl[level];
	err = xbulk_agg_key(d->agg, e, &key);
	if (!err)
		err = xbulk_agg_add(t, d->agg, key, e->bs);
	if (err || level != e->depth || (!dir && e->depth))
		return err;
	/* @e is the directory (or operand) whose table this is. */
	err = d->fn(d->arg, e, t);
	if (!err)
		err = xbulk_agg_merge(level ? &d->lvl[level - 1] : &d->total,
				      t);
	xbulk_agg_clear(t);
	return err;
}
