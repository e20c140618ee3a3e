// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk du --trend DIR: what grew, from the summaries of a history
 * (xbulk snapshot --keep; docs/formats.md, "Summary files"), no scan.
 * For each directory down to -d N (default 1), or each uid, gid or
 * project id (--by), its usage at every summary and its recent growth
 * per day; then the filesystem's free space at each, and the day it
 * would be full at the recent rate.
 *
 * The summaries are read and the rates computed by cli/du_trend_read.c;
 * this file prints them, as text, JSON Lines or CSV, every name as
 * every name is (docs/formats.md, "Names and modes"); --svg draws the
 * same series as a line chart (cli/du_trend_svg.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "du_trend.h"

/* @v in du's units, with a sign when @sign. */
static void
put_size(FILE *f, const struct du_run *r, double v, bool sign)
{
	char buf[DU_UNITS_MAX];
	uint64_t a = (uint64_t)(v < 0 ? -v + 0.5 : v + 0.5);

	if (r->inodes)
		snprintf(buf, sizeof(buf), "%" PRIu64, a);
	else
		du_units_format(buf, a, &r->units);
	fprintf(f, "%s%s", sign ? v < 0 ? "-" : "+" : "", buf);
}

/* The key of series @p in JSON: "path" and "path_b64", or the id's
 * kind with its number, "name" and "name_b64" (as du --by). */
static void
json_key(const struct du_hist *tr, FILE *f, const struct du_trend_point *p)
{
	const char *name;

	if (p->key) {
		xb_json_string(f, "path", p->key);
		return;
	}
	fprintf(f, "\"%s\":%" PRIu64 ",", du_by_name(tr->r->by), p->id);
	name = du_trend_id_name(tr, p);
	xb_json_string(f, "name", name);
}

/* "growth" of one series (text or JSON). */
static void
put_rate(const struct du_hist *tr, FILE *f,
	 const struct du_trend_point *p, const int64_t *t, const double *v,
	 size_t n)
{
	const struct du_run *r = tr->r;
	double per_day, days;

	if (!du_trend_rate(t, v, n, &per_day, &days))
		return;
	if (r->format == XB_FORMAT_JSONL) {
		fputs("{\"kind\":\"growth\",", f);
		json_key(tr, f, p);
		fprintf(f, ",\"%s_per_day\":%.1f,\"days\":%.3f}\n",
			du_trend_v_name[r->inodes ? 2 : r->apparent], per_day,
			days);
		return;
	}
	fputs("  ", f);
	put_size(f, r, per_day, true);
	fprintf(f, "/day over %.3g days\n", days);
}

/* One point of a series as a CSV row. */
static void
put_csv(const struct du_hist *tr, FILE *f, const struct du_trend_point *p)
{
	const char *name;
	bool lossy = false;

	fprintf(f, "%s,", tr->sums[p->at].stamp);
	if (p->key) {
		lossy = du_csv_field(f, p->key);
	} else {
		name = du_trend_id_name(tr, p);
		fprintf(f, "%" PRIu64 ",", p->id);
		du_csv_field(f, name ? name : "");
	}
	fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, p->v[0], p->v[1],
		p->v[2]);
	if (p->key)
		xb_csv_b64(f, p->key, lossy);
	fputs("\r\n", f);
}

/* One series: its points, then its growth. */
static void
put_series(struct du_hist *tr, FILE *f, const struct du_trend_series *s,
	   int64_t *t, double *v)
{
	const struct du_run *r = tr->r;
	const struct du_trend_point *p = s->p;
	const char *name;

	if (r->format == XB_FORMAT_TEXT && p->key) {
		xb_put_escaped(f, p->key);
		fputc('\n', f);
	} else if (r->format == XB_FORMAT_TEXT) {
		fprintf(f, "%s %" PRIu64, du_by_name(r->by), p->id);
		name = du_trend_id_name(tr, p);
		if (name) {
			fputs(" (", f);
			xb_put_escaped(f, name);
			fputc(')', f);
		}
		fputc('\n', f);
	}
	for (size_t i = 0; i < s->n; i++) {
		t[i] = tr->sums[p[i].at].t;
		v[i] = (double)p[i].v[tr->v];
		if (r->format == XB_FORMAT_CSV) {
			put_csv(tr, f, &p[i]);
		} else if (r->format == XB_FORMAT_JSONL) {
			fputs("{\"kind\":\"point\",", f);
			json_key(tr, f, p);
			fprintf(f, ",\"stamp\":\"%s\",\"bytes\":%" PRIu64
				",\"apparent\":%" PRIu64 ",\"inodes\":%"
				PRIu64 "}\n", tr->sums[p[i].at].stamp,
				p[i].v[0], p[i].v[1], p[i].v[2]);
		} else {
			fprintf(f, "  %s  ", tr->sums[p[i].at].stamp);
			put_size(f, r, v[i], false);
			fputc('\n', f);
		}
	}
	if (r->format != XB_FORMAT_CSV)
		put_rate(tr, f, p, t, v, s->n);
}

/* The free space at each summary, and the day it would run out at the
 * recent rate. */
static void
put_full(struct du_hist *tr, FILE *f, int64_t *t, double *v)
{
	const struct du_run *r = tr->r;
	unsigned int k = r->inodes ? 2 : 0;	/* fs[k] size, fs[k+1] free */
	double per_day, days;
	size_t n = du_trend_fs_free(tr, t, v), i;
	char date[32] = "";
	int64_t when;
	time_t tt;
	struct tm tm;

	if (r->format == XB_FORMAT_TEXT)
		fputs(r->inodes ? "free inodes\n" : "free space\n", f);
	for (i = 0; i < tr->nsums; i++) {
		const struct du_trend_sum *s = &tr->sums[i];

		if (!s->has_fs)
			continue;
		if (r->format == XB_FORMAT_JSONL) {
			fprintf(f, "{\"kind\":\"fs\",\"stamp\":\"%s\","
				"\"fs_bytes\":%" PRIu64 ",\"fs_free_bytes\":%"
				PRIu64 ",\"fs_inodes\":%" PRIu64
				",\"fs_free_inodes\":%" PRIu64 "}\n", s->stamp,
				s->fs[0], s->fs[1], s->fs[2], s->fs[3]);
			continue;
		}
		fprintf(f, "  %s  ", s->stamp);
		put_size(f, r, (double)s->fs[k + 1], false);
		fputs(" of ", f);
		put_size(f, r, (double)s->fs[k], false);
		fputc('\n', f);
	}
	if (!du_trend_full_at(t, v, n, &per_day, &days, &when))
		return;
	if (when) {
		tt = (time_t)when;
		gmtime_r(&tt, &tm);
		strftime(date, sizeof(date), "%Y-%m-%d", &tm);
	}
	if (r->format == XB_FORMAT_JSONL) {
		fprintf(f, "{\"kind\":\"full\",\"free_%s_per_day\":%.1f,"
			"\"days\":%.3f", r->inodes ? "inodes" : "bytes",
			per_day, days);
		if (*date)
			fprintf(f, ",\"date\":\"%s\"", date);
		fputs("}\n", f);
		return;
	}
	fputs("  ", f);
	put_size(f, r, per_day, true);
	fprintf(f, "/day over %.3g days: ", days);
	if (*date)
		fprintf(f, "full about %s\n", date);
	else
		fputs(per_day < 0 ? "not full within 100 years\n" :
		      "not filling\n", f);
}

/* Every series, then the filesystem's; 0 or a negative errno. */
static int
print_all(struct du_hist *tr)
{
	const struct du_run *r = tr->r;
	FILE *f = r->out;
	int64_t *t = malloc((tr->nsums + 1) * sizeof(*t));
	double *v = malloc((tr->nsums + 1) * sizeof(*v));
	size_t i;
	int err = 0;

	if (!t || !v) {
		err = -ENOMEM;
		goto out;
	}
	if (r->format == XB_FORMAT_CSV && r->by_given)
		fprintf(f, "stamp,%s,name,bytes,apparent,inodes\r\n",
			du_by_name(r->by));
	else if (r->format == XB_FORMAT_CSV)
		fputs("stamp,path,bytes,apparent,inodes,path_b64\r\n", f);
	for (i = 0; i < tr->nser; i++)
		put_series(tr, f, &tr->ser[i], t, v);
	if (r->format != XB_FORMAT_CSV)
		put_full(tr, f, t, v);
	if (fflush(f))
		err = -errno;
	else if (ferror(f))
		err = -EIO;
out:
	free(t);
	free(v);
	return err;
}

enum xb_exit
du_trend(struct du_run *r, const char *dir)
{
	struct du_hist tr = {
		.r = r,
		.dir = dir,
		.v = r->inodes ? 2 : r->apparent ? 1 : 0,
	};
	enum xb_exit ret;
	int err;

	/* the picture's file first: one that cannot be written fails at
	 * once */
	ret = du_file_open(&r->svg_file, NULL);
	if (ret)
		return ret;
	if (r->by_given && xbulk_ids_new(&r->ids)) {
		xb_error("du", "%s", strerror(ENOMEM));
		ret = XB_EXIT_FAILURE;
		goto out;
	}
	ret = du_trend_read(&tr);
	if (!ret) {
		err = print_all(&tr);
		if (err)
			ret = xb_write_error("du", err);
	}
	if (!ret && r->svg_file.out) {
		ret = du_file_close(&r->svg_file,
				    du_trend_chart(&tr, r->svg_file.out));
		if (!ret)
			ret = du_file_place(&r->svg_file);
	}
out:
	/* not written whole: the old picture stays */
	du_file_abort(&r->svg_file);
	xbulk_ids_free(r->ids);
	r->ids = NULL;
	du_trend_free(&tr);
	return ret;
}
