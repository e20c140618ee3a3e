/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to the du command (prefix du_: CONTRIBUTING.md).
 *
 * xbulk du --trend: the summaries as read (cli/du_trend_read.c), for
 * the text, JSON Lines and CSV of them (cli/du_trend.c) and the chart
 * (cli/du_trend_svg.c).
 */
#ifndef XBULK_CLI_DU_TREND_H
#define XBULK_CLI_DU_TREND_H

#include "du.h"
#include "history.h"

/* One point of one series. */
struct du_trend_point {
	char		*key;		/* a path's bytes; NULL for an id */
	uint64_t	id;
	uint64_t	depth;		/* a path's */
	size_t		at;		/* the summary's index */
	uint64_t	v[3];		/* bytes, apparent, inodes */
};

/* One summary: its time and the filesystem's room then. */
struct du_trend_sum {
	char		stamp[XB_HIST_STAMP_LEN + 1];
	int64_t		t;		/* seconds since the epoch */
	bool		has_fs;
	uint64_t	fs[4];		/* bytes, free bytes, inodes, free */
};

/* The points of one directory or id, oldest first. */
struct du_trend_series {
	const struct du_trend_point	*p;
	size_t			n;
};

struct du_hist {
	const struct du_run	*r;
	const char		*dir;
	struct du_trend_sum		*sums;
	size_t			nsums;
	struct du_trend_point		*pts;
	size_t			npts, cap;
	struct du_trend_series		*ser;	/* the points, grouped */
	size_t			nser;
	unsigned int		v;	/* which of point.v du prints */
	char			*mountpoint;	/* the newest summary's */
	char			*host;
};

/* point.v's names: "bytes", "apparent", "inodes" */
extern const char *const du_trend_v_name[3];

/* Read the summaries of the history tr->dir (tr->r, tr->dir and tr->v
 * set), grouped into tr->ser; XB_EXIT_OK, or XB_EXIT_FAILURE after a
 * message. */
enum xb_exit du_trend_read(struct du_hist *tr);
/* Release what du_trend_read() gathered. */
void du_trend_free(struct du_hist *tr);
/* The recent rate per day of the series @v (@n values at times @t), and
 * the days it spans: false if it has none (fewer than two points, or
 * both at one time). */
bool du_trend_rate(const int64_t *t, const double *v, size_t n,
		   double *per_day, double *days);
/* The name of the owner of id series @p, or NULL (only a number). */
const char *du_trend_id_name(const struct du_hist *tr,
			     const struct du_trend_point *p);
/* The free space (inodes with --inodes) of the summaries that know it
 * into @t, @v (tr->nsums each at most); how many. */
size_t du_trend_fs_free(const struct du_hist *tr, int64_t *t, double *v);
/*
 * The recent rate of the free space @v at @t (@n of them) and, when it
 * shrinks and would be gone within 100 years, *@when (else 0); false if
 * it has no rate.
 */
bool du_trend_full_at(const int64_t *t, const double *v, size_t n,
		      double *per_day, double *days, int64_t *when);
/* --svg: the chart of @tr's series into @f; 0 or a negative errno. */
int du_trend_chart(struct du_hist *tr, FILE *f);

#endif
