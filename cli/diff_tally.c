// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What xbulk diff's output files share (below diff_out.c and
 * diff_dirs.c): the record a change line shows, and counting a change
 * for --summary, whole and by directory.
 */
#include <sys/stat.h>

#include "diff.h"

const struct xfs_bulkstat *
xb_diff_rec(const struct xbulk_snap_change *c)
{
	return c->new ? c->new : c->old;
}

void
xb_diff_tally_add(struct xb_diff_tally *t, const struct xbulk_snap_change *c)
{
	t->n[c->kind]++;
	if (c->flags & XBULK_CHANGE_CHANGING)
		t->changing++;
	if (S_ISDIR(xb_diff_rec(c)->bs_mode))
		return;			/* bytes are those of files */
	if (c->kind == XBULK_CHANGE_CREATED)
		t->added += c->new->bs_size;
	else if (c->kind == XBULK_CHANGE_DELETED)
		t->removed += c->old->bs_size;
	else if (c->facets & XBULK_FACET_CONTENT)
		t->changed += c->new->bs_size;
}
