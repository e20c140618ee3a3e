// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk du --trend --svg: the series du --trend prints (cli/du_trend.c)
 * handed to the line chart (cli/du/chart.c): one line per directory of
 * the deepest level asked (-d 1: the top directories; the ones above
 * are their sums) or per id, named as the text names them, and the
 * filesystem's used space and size when it would be full.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "du_trend.h"

/* What the chart says it shows: "disk usage of MNT on HOST, per ...". */
static char *
chart_title(const struct du_hist *tr, uint64_t depth)
{
	static const char *const per[] = {
		[DU_BY_UID] = "user", [DU_BY_GID] = "group",
		[DU_BY_PROJID] = "project",
	};
	const struct du_run *r = tr->r;
	const char *mnt = *tr->mountpoint ? tr->mountpoint : tr->dir;
	char *s = NULL, where[48];

	if (r->by_given)
		snprintf(where, sizeof(where), "%s", per[r->by]);
	else if (depth == 1)
		snprintf(where, sizeof(where), "top directory");
	else
		snprintf(where, sizeof(where), "directory at depth %" PRIu64,
			 depth);
	if (asprintf(&s, "xbulk du --trend: %s of %s%s%s, per %s",
		     r->inodes ? "inodes" : r->apparent ? "apparent size" :
		     "disk usage", mnt, *tr->host ? " on " : "", tr->host,
		     where) < 0)
		return NULL;
	return s;
}

/* The name of series @s in the chart: a path, or "NAME (uid N)". */
static char *
chart_name(const struct du_hist *tr, const struct du_trend_series *s)
{
	const char *name;
	char *n = NULL;

	if (s->p->key)
		return strdup(s->p->key);
	name = du_trend_id_name(tr, s->p);
	if (asprintf(&n, "%s%s%s %" PRIu64 "%s", name ? name : "",
		     name ? " (" : "", du_by_name(tr->r->by), s->p->id,
		     name ? ")" : "") < 0)
		return NULL;
	return n;
}

int
du_trend_chart(struct du_hist *tr, FILE *f)
{
	const struct du_run *r = tr->r;
	size_t ns = tr->nsums, nc = 0, i, j, n;
	unsigned int k = r->inodes ? 2 : 0;
	struct du_chart_series *cs = calloc(tr->nser + 1, sizeof(*cs));
	double *vals = malloc((tr->nser + 4) * ns * sizeof(*vals));
	int64_t *times = malloc(2 * ns * sizeof(*times));
	/* scratch for the free space, after what the chart reads */
	int64_t *t = times + ns;
	double *v = vals + (tr->nser + 2) * ns;
	uint64_t depth = 0;
	double per_day, days;
	struct du_chart c = {
		.what = r->inodes ? "inodes" : r->apparent ? "apparent size"
							   : "disk usage",
		.kind = r->by_given ? r->by == DU_BY_UID ? "users" :
			r->by == DU_BY_GID ? "groups" : "projects" :
			"directories",
		.inodes = r->inodes, .t = times, .nt = ns, .s = cs,
		.lines = r->chart_lines,
	};
	int err = -ENOMEM;

	if (!cs || !vals || !times)
		goto out;
	for (i = 0; i < tr->nser; i++)
		if (tr->ser[i].p->depth > depth)
			depth = tr->ser[i].p->depth;
	for (i = 0; i < ns; i++)
		times[i] = tr->sums[i].t;
	for (i = 0; i < (tr->nser + 2) * ns; i++)
		vals[i] = NAN;
	for (i = 0; i < tr->nser; i++) {
		const struct du_trend_series *s = &tr->ser[i];

		if (s->p->key && s->p->depth != depth)
			continue;
		cs[nc].v = vals + nc * ns;
		for (j = 0; j < s->n; j++)
			vals[nc * ns + s->p[j].at] = (double)s->p[j].v[tr->v];
		if (!(cs[nc++].name = chart_name(tr, s)))
			goto out;
	}
	c.ns = nc;
	n = du_trend_fs_free(tr, t, v);
	if (du_trend_full_at(t, v, n, &per_day, &days, &c.full_t) && c.full_t) {
		c.fs_used = vals + nc * ns;
		c.fs_size = vals + (nc + 1) * ns;
		for (i = 0; i < ns; i++) {
			if (!tr->sums[i].has_fs)
				continue;
			vals[(nc + 1) * ns + i] = (double)tr->sums[i].fs[k];
			/* free to users: at most the size (statvfs) */
			vals[nc * ns + i] = (double)tr->sums[i].fs[k] -
					    (double)tr->sums[i].fs[k + 1];
		}
	}
	c.title = chart_title(tr, depth);
	err = c.title ? du_chart_write(&c, f) : -ENOMEM;
	free((char *)c.title);
out:
	for (i = 0; cs && i < nc; i++)
		free((char *)cs[i].name);
	free(cs);
	free(vals);
	free(times);
	return err;
}

