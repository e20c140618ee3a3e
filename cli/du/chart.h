/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to the du command (prefix du_: CONTRIBUTING.md).
 *
 * xbulk du --trend --svg: a line chart of series over time
 * (cli/du/chart.c), drawn with the treemap's text helpers (svg.h).
 */
#ifndef DU_CHART_H
#define DU_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Lines drawn at most by default, and the colours: the largest series,
 * the rest summed as "other" (one of them). */
#define DU_CHART_LINES		10

struct du_chart_series {
	const char	*name;		/* any bytes */
	const double	*v;		/* at each time; NAN: not there */
};

struct du_chart {
	const char		*title;		/* any bytes */
	const char		*what;		/* "disk usage", "inodes"... */
	const char		*kind;		/* "directories", "users"... */
	bool			inodes;		/* counts, not bytes */
	const int64_t		*t;		/* seconds since the epoch,
						   ascending */
	size_t			nt;
	const struct du_chart_series *s;	/* in key order */
	size_t			ns;
	size_t			lines;		/* at most, "other" one of
						   them: 2 to DU_CHART_LINES;
						   0: DU_CHART_LINES */
	/* The filesystem when it would be full at the recent rate: its
	 * used space (or inodes) and size at each time (NAN: not known),
	 * and when; fs_used NULL when it would not be. */
	const double		*fs_used, *fs_size;
	int64_t			full_t;
};

/**
 * du_chart_write() - @c as SVG 1.1: the title, axes (dates in UTC, sizes
 * in powers of 1024 as du -h, or counts), one <g data-kind="series">
 * per series of the @c->lines largest (by their newest point)
 * holding a <title> (the name), a <polyline> through its points and a
 * <circle> per point when there are at most 60; past @c->lines series,
 * the @c->lines - 1 largest, and the rest summed in one
 * <g data-kind="other">; with @c->fs_used the filesystem's used space
 * (data-kind "fs-used"), its size ("fs-size", on to the axis' end: one
 * more point than the summaries that know it) and a dashed line from
 * the last used space to the size at the day of full ("projection"),
 * cut at twice the series' span (the legend says so); and a legend
 * naming each line, its newest figure at the right edge.  The
 * same @c gives the same bytes.
 * Return: 0, -ENOMEM, or the negative errno of writing @f.
 */
int du_chart_write(const struct du_chart *c, FILE *f);

#endif /* DU_CHART_H */
