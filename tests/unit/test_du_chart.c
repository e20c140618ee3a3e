// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/du/chart.c: du --trend --svg's line chart.  The size axis steps
 * round in the units du -h prints (250M, 2G; 1k for inodes) and reaches
 * the largest value; past 10 series the 9 largest get a line and the
 * rest one "other"; a series missing from a summary has no point there;
 * a day of full far away is cut and said to be; the same input gives
 * the same bytes.  The picture as a whole (xmllint, rsvg-convert, the
 * points against the summaries): tests/snap/test-trend.sh.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "du/chart.h"

#define NT	4
#define DAY	86400
#define T0	1796342400	/* 2026-12-04T00:00:00Z */

static const int64_t times[NT] = { T0, T0 + DAY, T0 + 2 * DAY, T0 + 3 * DAY };

/* The SVG of @c, malloc()ed. */
static char *
draw(const struct du_chart *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(du_chart_write(c, f), 0);
	fclose(f);
	return buf;
}

static size_t
count(const char *s, const char *what)
{
	size_t n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

/* The points of the line titled @title in @svg. */
static size_t
npoints(const char *svg, const char *title)
{
	const char *p = strstr(svg, title);
	size_t n = 0;

	assert_non_null(p);
	p = strstr(p, "points=\"") + 8;
	while (*p != '"')
		n += *p++ == ',';
	return n;
}

/* One series rising linearly to @max over NT days. */
static char *
one_series(double max, bool inodes)
{
	double v[NT];
	struct du_chart_series s = { "a", v };
	struct du_chart c = {
		.title = "t", .what = "disk usage", .kind = "directories",
		.inodes = inodes, .t = times, .nt = NT, .s = &s, .ns = 1,
	};

	for (int i = 0; i < NT; i++)
		v[i] = max * (i + 1) / NT;
	return draw(&c);
}

static void
test_y_steps(void **state)
{
	static const struct {
		double		max;
		bool		inodes;
		const char	*ticks[3];	/* the first, one, the top */
	} cases[] = {
		{ 1.1 * (1 << 30), false, { ">250M<", ">750M<", ">1250M<" } },
		{ 7.0 * (1 << 30), false, { ">2G<", ">6G<", ">8G<" } },
		{ 1000, false, { ">200<", ">600<", ">1000<" } },
		{ 4200, true, { ">1k<", ">3k<", ">5k<" } },
		{ 3, false, { ">1<", ">2<", ">3<" } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *svg = one_series(cases[i].max, cases[i].inodes);

		for (int k = 0; k < 3; k++)
			if (!strstr(svg, cases[i].ticks[k]))
				fail_msg("max %g: no tick %s", cases[i].max,
					 cases[i].ticks[k]);
		free(svg);
	}
}

/* @n series, series k worth k at every time; NAN at time 1 of series 0
 * if @gap; at most @lines lines (0: the default). */
static char *
many_lines(size_t n, bool gap, size_t lines)
{
	struct du_chart_series s[16];
	double v[16][NT];
	char names[16][8];
	struct du_chart c = {
		.title = "t", .what = "disk usage", .kind = "directories",
		.t = times, .nt = NT, .s = s, .ns = n, .lines = lines,
	};

	for (size_t k = 0; k < n; k++) {
		snprintf(names[k], sizeof(names[k]), "d%02zu", k + 1);
		for (int i = 0; i < NT; i++)
			v[k][i] = (double)(k + 1) * 1000;
		s[k] = (struct du_chart_series){ names[k], v[k] };
	}
	if (gap)
		v[0][1] = NAN;
	return draw(&c);
}

static char *
many(size_t n, bool gap)
{
	return many_lines(n, gap, 0);
}

static void
test_cap(void **state)
{
	char *svg;

	(void)state;
	svg = many(10, false);
	assert_int_equal(count(svg, "data-kind=\"series\""), 10);
	assert_int_equal(count(svg, "data-kind=\"other\""), 0);
	assert_non_null(strstr(svg, ">10 directories, newest:<"));
	free(svg);
	svg = many(12, false);
	assert_int_equal(count(svg, "data-kind=\"series\""), 9);
	assert_int_equal(count(svg, "data-kind=\"other\""), 1);
	assert_non_null(strstr(svg, "the 9 largest of 12 directories"));
	assert_non_null(strstr(svg, "other: the 3 more, summed"));
	/* the largest kept, the smallest summed: d01..d03 are "other" */
	assert_non_null(strstr(svg, "<title>d12</title>"));
	assert_null(strstr(svg, "<title>d03</title>"));
	free(svg);
	/* --max-series 3: 2 lines and "other" */
	svg = many_lines(5, false, 3);
	assert_int_equal(count(svg, "data-kind=\"series\""), 2);
	assert_non_null(strstr(svg, "the 2 largest of 5 directories"));
	assert_non_null(strstr(svg, "<title>d05</title>"));
	assert_non_null(strstr(svg, "<title>d04</title>"));
	free(svg);
	svg = many_lines(3, false, 3);
	assert_int_equal(count(svg, "data-kind=\"series\""), 3);
	assert_int_equal(count(svg, "data-kind=\"other\""), 0);
	free(svg);
}

static void
test_gap_and_same_bytes(void **state)
{
	char *a = many(2, true), *b = many(2, true);

	(void)state;
	assert_string_equal(a, b);
	/* d01's line has 3 points, d02's 4 */
	assert_int_equal(npoints(a, "<title>d01</title>"), 3);
	assert_int_equal(npoints(a, "<title>d02</title>"), 4);
	free(a);
	free(b);
}

static void
test_projection(void **state)
{
	double v[NT] = { 1, 2, 3, 4 }, used[NT] = { 10, 20, 30, 40 };
	double size[NT] = { 100, 100, 100, 100 };
	struct du_chart_series s = { "a", v };
	struct du_chart c = {
		.title = "t", .what = "disk usage", .kind = "directories",
		.t = times, .nt = NT, .s = &s, .ns = 1,
		.fs_used = used, .fs_size = size,
		.full_t = T0 + 9 * DAY,
	};
	char *svg = draw(&c);

	(void)state;
	assert_non_null(strstr(svg, "projection: full about 2026-12-13<"));
	assert_null(strstr(svg, "past the chart"));
	assert_int_equal(count(svg, "data-kind=\"projection\""), 1);
	free(svg);
	c.full_t = T0 + 400 * DAY;	/* past twice the span: cut */
	svg = draw(&c);
	assert_non_null(strstr(svg, "projection: full about 2028-01-08<"));
	assert_non_null(strstr(svg, ">(a day past the chart's end)<"));
	free(svg);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_y_steps),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_gap_and_same_bytes),
		cmocka_unit_test(test_projection),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
