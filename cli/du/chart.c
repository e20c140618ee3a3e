// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * du --trend's picture: a line chart of the usage of each directory or
 * owner over a history's summaries, hand-written SVG as the treemap's
 * (cli/du/svgwrite.c; its text helpers in cli/du/svgtext.c).  Axes a
 * person reads without a key: dates in UTC at whole days (hours for a
 * history shorter than two days), sizes at round steps of powers of
 * 1024 (K, M, G as du -h prints them) or counts for inodes.  At most
 * DU_CHART_LINES lines (or --max-series), each in its own colour: past
 * that, the largest series and one grey "other" line of the rest, so a
 * history of thousands of directories stays a picture one can read; the filesystem's used space, size and the
 * dashed projection to its day of full are drawn when there is one.
 * Nothing depends on the clock or the locale: the same summaries give
 * the same file.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chart.h"
#include "svg.h"
#include "units.h"

#define WIDTH		1000
#define HEIGHT		560
#define LEFT		70.0	/* room for the sizes of the y axis */
#define LEGEND_W	290.0	/* the legend's column, right */
#define TOP		52.0	/* title and subtitle */
#define BOTTOM		50.0	/* dates and the x axis' title */
#define FONT		11.0
#define LEGEND_ROW	18.0
#define MARKS_MAX	60	/* points drawn as dots up to this many */
#define DAY		((int64_t)86400)

/* Lines' colours (d3's category10, its grey left out for "other"):
 * dark enough for a 2 px line on white, apart from each other. */
static const char *const line_rgb[DU_CHART_LINES] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
	"#e377c2", "#bcbd22", "#17becf", "#393b79",
};
#define OTHER_RGB	"#999999"
#define FS_RGB		"#000000"

struct rank {
	double	v;		/* the series' newest point */
	size_t	i;
};

struct plot {
	const struct du_chart	*c;
	FILE			*f;
	struct rank		*rank;		/* largest first */
	size_t			nlines;		/* drawn on their own */
	double			*other;		/* the rest at each time */
	struct du_units		units;		/* the legend's sizes */
	double			t0, t1;		/* the x axis, seconds */
	double			ymax;
	double			x0, x1, y0, y1;	/* the plot's box, px */
	size_t			fs_last;	/* newest known used space */
	int64_t			proj_t;		/* the projection's end */
};

static double
px_x(const struct plot *p, double t)
{
	return p->x0 + (t - p->t0) / (p->t1 - p->t0) * (p->x1 - p->x0);
}

static double
px_y(const struct plot *p, double v)
{
	return p->y1 - v / p->ymax * (p->y1 - p->y0);
}

/* The newest value of @v (@n of them), 0 if there is none. */
static double
newest(const double *v, size_t n)
{
	while (n--)
		if (!isnan(v[n]))
			return v[n];
	return 0;
}

static int
cmp_rank(const void *pa, const void *pb)
{
	const struct rank *a = pa, *b = pb;

	if (a->v != b->v)
		return a->v < b->v ? 1 : -1;
	return (a->i > b->i) - (a->i < b->i);
}

/* Rank the series, sum the rest into p->other; 0 or -ENOMEM. */
static int
rank_series(struct plot *p)
{
	const struct du_chart *c = p->c;
	size_t lines = c->lines >= 2 && c->lines <= DU_CHART_LINES ?
		       c->lines : DU_CHART_LINES;
	size_t i, k;

	p->rank = malloc((c->ns ? c->ns : 1) * sizeof(*p->rank));
	if (!p->rank)
		return -ENOMEM;
	for (i = 0; i < c->ns; i++)
		p->rank[i] = (struct rank){ newest(c->s[i].v, c->nt), i };
	qsort(p->rank, c->ns, sizeof(*p->rank), cmp_rank);
	p->nlines = c->ns;
	if (c->ns <= lines)
		return 0;
	p->nlines = lines - 1;
	p->other = calloc(c->nt, sizeof(*p->other));
	if (!p->other)
		return -ENOMEM;
	for (i = p->nlines; i < c->ns; i++)
		for (k = 0; k < c->nt; k++)
			if (!isnan(c->s[p->rank[i].i].v[k]))
				p->other[k] += c->s[p->rank[i].i].v[k];
	return 0;
}

static double
max_of(double m, const double *v, size_t n)
{
	while (n--)
		if (!isnan(v[n]) && v[n] > m)
			m = v[n];
	return m;
}

/* The x axis: the summaries' times, and the projection's end, cut at
 * twice the span of the history (at least a day) past the last. */
static void
x_range(struct plot *p)
{
	const struct du_chart *c = p->c;
	int64_t first = c->t[0], last = c->t[c->nt - 1];
	int64_t span = last - first > DAY ? last - first : DAY;

	p->t0 = (double)first;
	p->t1 = (double)last;
	if (c->fs_used) {
		for (p->fs_last = c->nt; p->fs_last--;)
			if (!isnan(c->fs_used[p->fs_last]))
				break;
		p->proj_t = c->full_t < last + 2 * span ? c->full_t
							: last + 2 * span;
		if (p->proj_t > last)
			p->t1 = (double)p->proj_t;
	}
	if (p->t1 <= p->t0) {
		p->t0 -= (double)(DAY / 2);
		p->t1 += (double)(DAY / 2);
	}
}

/*
 * A round step for the y axis up to @max: 1, 2, 2.5 or 5 times a power
 * of ten of a unit (a power of 1024 bytes, of 1000 inodes), about five
 * of them; *@unit its unit's exponent, *@mult the step in that unit.
 */
static double
y_step(const struct plot *p, double max, unsigned int *unit,
       unsigned int *mult)
{
	static const unsigned int nice[] = { 1, 2, 5, 10, 20, 25, 50, 100,
					     200, 250, 500 };
	double base = p->c->inodes ? 1000 : 1024, scale = 1, raw;
	unsigned int e = 0;
	size_t i;

	while (max / scale >= base && e < 6) {
		scale *= base;
		e++;
	}
	raw = max / scale / 5;
	if (raw < 1 && e) {
		scale /= base;
		e--;
		raw *= base;
	}
	for (i = 0; i < sizeof(nice) / sizeof(nice[0]); i++)
		if (nice[i] >= raw)
			break;
	if (i == sizeof(nice) / sizeof(nice[0])) {
		scale *= base;
		e++;
		i = 0;
	}
	*unit = e;
	*mult = nice[i];
	return nice[i] * scale;
}

static void
y_axis(struct plot *p, double max)
{
	static const char bytes_unit[] = "\0KMGTPE", count_unit[] = "\0kMGTPE";
	unsigned int e, mult;
	double step = y_step(p, max, &e, &mult), y;
	char unit = (p->c->inodes ? count_unit : bytes_unit)[e];
	unsigned long k, n;

	n = (unsigned long)(max / step);
	if ((double)n * step < max || !n)
		n++;
	p->ymax = (double)n * step;
	for (k = 0; k <= n; k++) {
		y = px_y(p, (double)k * step);
		fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" "
			"y2=\"%.2f\" stroke=\"%s\" stroke-width=\"1\"/>"
			"<text x=\"%.1f\" y=\"%.2f\" font-size=\"%g\" "
			"text-anchor=\"end\">%lu", p->x0, y, p->x1, y,
			k ? "#e4e4e4" : "#666666", p->x0 - 5, y + 4, FONT,
			k * mult);
		if (k && unit)
			fputc(unit, p->f);
		fputs("</text>\n", p->f);
	}
	fprintf(p->f, "<text x=\"14\" y=\"%.1f\" font-size=\"%g\" "
		"text-anchor=\"middle\" transform=\"rotate(-90 14 %.1f)\">",
		(p->y0 + p->y1) / 2, FONT, (p->y0 + p->y1) / 2);
	svg_put_text(p->f, p->c->what);
	fputs(p->c->inodes ? " (k, M, G: powers of 1000)</text>\n"
			   : " (K, M, G: powers of 1024 bytes, as du -h)"
			     "</text>\n", p->f);
}

/* Dates at round steps, at most one per 90 px. */
static void
x_axis(struct plot *p)
{
	static const int64_t steps[] = {
		3600, 2 * 3600, 6 * 3600, 12 * 3600, DAY, 2 * DAY, 7 * DAY,
		14 * DAY, 28 * DAY, 91 * DAY, 182 * DAY, 364 * DAY,
		728 * DAY, 1820 * DAY, 3640 * DAY, 36400 * DAY,
	};
	double room = (p->x1 - p->x0) / 90, x;
	int64_t step = steps[0], t;
	size_t i;
	char date[32];
	time_t tt;
	struct tm tm;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		step = steps[i];
		if ((p->t1 - p->t0) / (double)step <= room)
			break;
	}
	fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" "
		"y2=\"%.2f\" stroke=\"#666666\" stroke-width=\"1\"/>\n",
		p->x0, p->y0, p->x0, p->y1);
	for (t = ((int64_t)p->t0 + step - 1) / step * step;
	     (double)t <= p->t1; t += step) {
		x = px_x(p, (double)t);
		tt = (time_t)t;
		gmtime_r(&tt, &tm);
		strftime(date, sizeof(date),
			 step >= DAY ? "%Y-%m-%d" : "%m-%d %H:%M", &tm);
		fprintf(p->f, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" "
			"y2=\"%.1f\" stroke=\"#e4e4e4\" stroke-width=\"1\"/>"
			"<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" "
			"y2=\"%.1f\" stroke=\"#666666\" stroke-width=\"1\"/>"
			"<text x=\"%.2f\" y=\"%.1f\" font-size=\"%g\" "
			"text-anchor=\"middle\">%s</text>\n", x, p->y0, x,
			p->y1, x, p->y1, x, p->y1 + 4, x, p->y1 + 17, FONT,
			date);
	}
	fprintf(p->f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%g\" "
		"text-anchor=\"middle\">%s (UTC)</text>\n",
		(p->x0 + p->x1) / 2, p->y1 + 38, FONT,
		step >= DAY ? "date" : "date and time");
}

/* One line through @v's known points, in a <g> of @kind named @name;
 * @dash: NULL or its stroke-dasharray; @on: on to the x axis' end at
 * its last value. */
static void
line(struct plot *p, const char *kind, const char *name, const double *v,
     const char *rgb, const char *dash, bool on)
{
	const struct du_chart *c = p->c;
	const char *sep = "";
	size_t k;

	fprintf(p->f, "<g data-kind=\"%s\"><title>", kind);
	svg_put_text(p->f, name);
	fprintf(p->f, "</title><polyline fill=\"none\" stroke=\"%s\" "
		"stroke-width=\"2\" stroke-linejoin=\"round\"", rgb);
	if (dash)
		fprintf(p->f, " stroke-dasharray=\"%s\"", dash);
	fputs(" points=\"", p->f);
	for (k = 0; k < c->nt; k++)
		if (!isnan(v[k])) {
			fprintf(p->f, "%s%.2f,%.2f", sep,
				px_x(p, (double)c->t[k]), px_y(p, v[k]));
			sep = " ";
		}
	if (on && *sep)
		fprintf(p->f, " %.2f,%.2f", p->x1, px_y(p, newest(v, c->nt)));
	fputs("\"/>", p->f);
	for (k = 0; c->nt <= MARKS_MAX && k < c->nt; k++)
		if (!isnan(v[k]))
			fprintf(p->f, "<circle cx=\"%.2f\" cy=\"%.2f\" "
				"r=\"2.5\" fill=\"%s\"/>",
				px_x(p, (double)c->t[k]), px_y(p, v[k]), rgb);
	fputs("</g>\n", p->f);
}

/* The projection: from the last used space to the size at the day of
 * full (or where the x axis ends, on the way). */
static void
projection(struct plot *p)
{
	const struct du_chart *c = p->c;
	double used = c->fs_used[p->fs_last], size = c->fs_size[p->fs_last];
	double t = (double)c->t[p->fs_last];
	double end = used + (size - used) * ((double)p->proj_t - t) /
		     ((double)c->full_t - t);

	fprintf(p->f, "<g data-kind=\"projection\"><title>full about the "
		"day the line meets the size</title><polyline fill=\"none\" "
		"stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"6 4\" "
		"points=\"%.2f,%.2f %.2f,%.2f\"/></g>\n", FS_RGB,
		px_x(p, t), px_y(p, used), px_x(p, (double)p->proj_t),
		px_y(p, end));
}

/* One legend row: a sample of the line, @name fitted, then @value at
 * the right edge: a text of its own, which no character of the name
 * (a bidi override) can move. */
static void
legend_row(struct plot *p, double *y, const char *rgb, const char *dash,
	   const char *name, const char *value)
{
	double x = p->x1 + 20, right = WIDTH - 8;
	double room = right - (x + 30) - svg_text_width("  ", FONT) -
		      svg_text_width(value, FONT);

	fprintf(p->f, "<g data-kind=\"legend\"><line x1=\"%.1f\" "
		"y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		"stroke-width=\"2\"", x, *y - 4, x + 24, *y - 4, rgb);
	if (dash)
		fprintf(p->f, " stroke-dasharray=\"%s\"", dash);
	fprintf(p->f, "/><text x=\"%.1f\" y=\"%.1f\" font-size=\"%g\">",
		x + 30, *y, FONT);
	svg_put_fitted(p->f, name, FONT, room);
	fprintf(p->f, "</text><text x=\"%.1f\" y=\"%.1f\" font-size=\"%g\" "
		"text-anchor=\"end\">%s</text></g>\n", right, *y, FONT, value);
	*y += LEGEND_ROW;
}

static void
legend(struct plot *p)
{
	const struct du_chart *c = p->c;
	double y = p->y0 + 10;
	char head[160], size[DU_UNITS_MAX], name[96], date[32];
	size_t i;
	time_t tt;
	struct tm tm;

	if (p->other)
		snprintf(head, sizeof(head), "the %zu largest of %zu %s, "
			 "newest:", p->nlines, c->ns, c->kind);
	else
		snprintf(head, sizeof(head), "%zu %s, newest:", c->ns,
			 c->kind);
	fprintf(p->f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%g\" "
		"font-weight=\"bold\">%s</text>\n", p->x1 + 20, y, FONT,
		head);
	y += LEGEND_ROW;
	for (i = 0; i < p->nlines; i++) {
		du_units_format(size, (uint64_t)p->rank[i].v, &p->units);
		legend_row(p, &y, line_rgb[i], NULL, c->s[p->rank[i].i].name,
			   size);
	}
	if (p->other) {
		du_units_format(size, (uint64_t)newest(p->other, c->nt),
				&p->units);
		snprintf(name, sizeof(name), "other: the %zu more, summed",
			 c->ns - p->nlines);
		legend_row(p, &y, OTHER_RGB, NULL, name, size);
	}
	if (!c->fs_used)
		return;
	du_units_format(size, (uint64_t)c->fs_used[p->fs_last], &p->units);
	legend_row(p, &y, FS_RGB, NULL, "filesystem used", size);
	du_units_format(size, (uint64_t)c->fs_size[p->fs_last], &p->units);
	legend_row(p, &y, "#666666", "2 3", "filesystem size", size);
	tt = (time_t)c->full_t;
	gmtime_r(&tt, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d", &tm);
	snprintf(name, sizeof(name), "projection: full about %s", date);
	legend_row(p, &y, FS_RGB, "6 4", name, "");
	/* a row of its own: the date and this never cut to fit */
	if (p->proj_t < c->full_t)
		legend_row(p, &y, "none", NULL, "(a day past the chart's end)",
			   "");
}

static void
heading(struct plot *p)
{
	const struct du_chart *c = p->c;
	char first[32], last[32];
	time_t tt;
	struct tm tm;

	fputs("<text x=\"8\" y=\"20\" font-size=\"15\">", p->f);
	svg_put_fitted(p->f, c->title, 15, WIDTH - 16);
	tt = (time_t)c->t[0];
	gmtime_r(&tt, &tm);
	strftime(first, sizeof(first), "%Y-%m-%d %H:%M", &tm);
	tt = (time_t)c->t[c->nt - 1];
	gmtime_r(&tt, &tm);
	strftime(last, sizeof(last), "%Y-%m-%d %H:%M", &tm);
	fprintf(p->f, "</text>\n<text x=\"8\" y=\"38\" font-size=\"%g\" "
		"fill=\"#444444\">%zu summar%s, %s to %s UTC</text>\n", FONT,
		c->nt, c->nt == 1 ? "y" : "ies", first, last);
}

int
du_chart_write(const struct du_chart *c, FILE *f)
{
	struct plot p = {
		.c = c, .f = f,
		.units = { 1, DU_HUMAN_AUTOSCALE | DU_HUMAN_SI |
			      (c->inodes ? 0 : DU_HUMAN_BASE_1024) },
		.x0 = LEFT, .x1 = WIDTH - LEGEND_W, .y0 = TOP,
		.y1 = HEIGHT - BOTTOM,
	};
	double max = 0;
	size_t i;
	int err = c->nt ? rank_series(&p) : -EINVAL;

	if (err)
		goto out;
	x_range(&p);
	for (i = 0; i < p.nlines; i++)
		max = max_of(max, c->s[p.rank[i].i].v, c->nt);
	if (p.other)
		max = max_of(max, p.other, c->nt);
	if (c->fs_used) {
		max = max_of(max, c->fs_used, c->nt);
		max = max_of(max, c->fs_size, c->nt);
	}
	svg_begin(f, WIDTH, HEIGHT, NULL);
	heading(&p);
	y_axis(&p, max);
	x_axis(&p);
	if (c->fs_used) {
		line(&p, "fs-size", "filesystem size", c->fs_size, "#666666",
		     "2 3", true);
		line(&p, "fs-used", "filesystem used", c->fs_used, FS_RGB,
		     NULL, false);
		projection(&p);
	}
	if (p.other)
		line(&p, "other", "other", p.other, OTHER_RGB, NULL, false);
	/* the largest last: on top of the others */
	for (i = p.nlines; i--;)
		line(&p, "series", c->s[p.rank[i].i].name,
		     c->s[p.rank[i].i].v, line_rgb[i], NULL, false);
	legend(&p);
	fputs("</svg>\n", f);
	if (fflush(f) || ferror(f))
		err = errno ? -errno : -EIO;
out:
	free(p.rank);
	free(p.other);
	return err;
}
