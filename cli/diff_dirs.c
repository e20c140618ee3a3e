// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk diff --summary --depth N: the changes counted by directory, the
 * path of each cut to its first N names, as du -d N does (a file counts
 * in its directory: a file at the top in "."), one row per directory
 * with changes, in path order.  Renames and moves count where they led
 * (NEW's path), deletions where they were.  It holds a row per directory
 * shown (its path and a tally): at most the directories down to depth N,
 * never one per change.
 */
#include <errno.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diff.h"

struct row {
	struct xb_diff_tally	t;
	char			path[];
};

static int
row_cmp(const void *a, const void *b)
{
	return strcmp(((const struct row *)a)->path,
		      ((const struct row *)b)->path);
}

/* The length of the row's path of @c in @p: its directory (a directory's
 * own path), cut after @depth names; 0 for the top. */
static size_t
row_len(const struct xbulk_snap_change *c, const char *p, unsigned int depth)
{
	const char *slash = S_ISDIR(xb_diff_rec(c)->bs_mode) ? NULL :
			    strrchr(p, '/');
	size_t len = S_ISDIR(xb_diff_rec(c)->bs_mode) ? strlen(p) :
		     slash ? (size_t)(slash - p) : 0;
	size_t i;

	if (len == 1 && p[0] == '.')
		return 0;
	for (i = 0; i < len; i++)
		if (p[i] == '/' && --depth == 0)
			return i;
	return len;
}

int
xb_diff_dirs_add(struct xb_diff_out *o, const struct xbulk_snap_change *c)
{
	const char *p = c->path ? c->path : "<no path>";
	size_t len = c->path ? row_len(c, p, o->depth) : strlen(p);
	struct row *r, **found;

	if (!len) {
		p = ".";
		len = 1;
	}
	r = malloc(sizeof(*r) + len + 1);
	if (!r)
		return -ENOMEM;
	memset(&r->t, 0, sizeof(r->t));
	memcpy(r->path, p, len);
	r->path[len] = '\0';
	found = tsearch(r, (void **)&o->dirs, row_cmp);
	if (!found) {
		free(r);
		return -ENOMEM;
	}
	if (*found != r)
		free(r);
	xb_diff_tally_add(&(*found)->t, c);
	return 0;
}

static void
put_row(const void *node, VISIT v, void *arg)
{
	const struct row *r = *(struct row *const *)node;
	const struct xb_diff_tally *t = &r->t;
	char b[3][32];
	FILE *f = arg;

	if (v != postorder && v != leaf)
		return;
	fprintf(f, "%7llu %7llu %7llu %7llu %10s %10s %10s  %s\n",
		(unsigned long long)t->n[XBULK_CHANGE_CREATED],
		(unsigned long long)t->n[XBULK_CHANGE_DELETED],
		(unsigned long long)(t->n[XBULK_CHANGE_MODIFIED] +
				     t->n[XBULK_CHANGE_ENTRIES] +
				     t->n[XBULK_CHANGE_LINKED] +
				     t->n[XBULK_CHANGE_UNLINKED]),
		(unsigned long long)(t->n[XBULK_CHANGE_RENAMED] +
				     t->n[XBULK_CHANGE_MOVED]),
		xb_fig_iec(b[0], sizeof(b[0]), (double)t->added),
		xb_fig_iec(b[1], sizeof(b[1]), (double)t->removed),
		xb_fig_iec(b[2], sizeof(b[2]), (double)t->changed), r->path);
}

void
xb_diff_dirs_print(struct xb_diff_out *o)
{
	if (!o->depth)
		return;
	fprintf(o->f, "%7s %7s %7s %7s %10s %10s %10s  %s\n", "created",
		"deleted", "changed", "moved", "added", "removed", "content",
		"directory");
	twalk_r(o->dirs, put_row, o->f);
	putc('\n', o->f);
}

void
xb_diff_dirs_free(struct xb_diff_out *o)
{
	tdestroy(o->dirs, free);
	o->dirs = NULL;
}
