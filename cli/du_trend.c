// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk du --trend DIR: what grew, from the summaries of a history
 * (xbulk snapshot --keep; docs/formats.md, "Summary files"), no scan.
 * For each directory down to -d N (default 1), or each uid, gid or
 * project id (--by), its usage at every summary and its recent growth
 * per day; then the filesystem's free space at each, and the day it
 * would be full at the recent rate.
 *
 * The recent rate of a series is (last - first) / their distance in
 * days, "first" being its oldest point at most DU_TREND_WINDOW before
 * its last (the point before the last if none is): a straight line
 * through two points, as simple to check by hand as it is to explain.
 * A summary's time is its name's stamp (when the run started).  Its
 * lines are read by cli/json_read.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "du.h"
#include "history.h"

/* The window of the recent rate, in seconds. */
#define DU_TREND_WINDOW		(7 * 86400)

/* One point of one series. */
struct point {
	char		*key;		/* a path; NULL for an id */
	uint64_t	id;
	size_t		at;		/* the summary's index */
	uint64_t	v[3];		/* bytes, apparent, inodes */
};

/* One summary: its time and the filesystem's room then. */
struct sumfile {
	char		stamp[XB_HIST_STAMP_LEN + 1];
	int64_t		t;		/* seconds since the epoch */
	bool		has_fs;
	uint64_t	fs[4];		/* bytes, free bytes, inodes, free */
};

struct trend {
	const struct du_run	*r;
	const char		*dir;
	struct sumfile		*sums;
	size_t			nsums;
	struct point		*pts;
	size_t			npts, cap;
	unsigned int		v;	/* which of point.v du prints */
};

static const char *const by_kind[] = {
	[DU_BY_UID] = "uid", [DU_BY_GID] = "gid", [DU_BY_PROJID] = "projid",
};
static const char *const v_name[3] = { "bytes", "apparent", "inodes" };

/* Add the point of line @kv (@n pairs) of summary @at if it is one
 * du wants: 0, 1 (not wanted), or a negative errno. */
static int
add_point(struct trend *tr, const struct xb_jr_kv *kv, int n, size_t at)
{
	const struct du_run *r = tr->r;
	const struct xb_jr_kv *kind = xb_jr_get(kv, n, "kind"), *path;
	struct point p = { .at = at };
	bool ok = true;

	if (!kind || !kind->str)
		return -EBADMSG;
	if (r->by_given) {
		if (strcmp(kind->str, by_kind[r->by]))
			return 1;
		p.id = (uint64_t)xb_jr_int(kv, n, "id", &ok);
	} else {
		if (strcmp(kind->str, "dir"))
			return 1;
		path = xb_jr_get(kv, n, "path");
		if ((uint64_t)xb_jr_int(kv, n, "depth", &ok) > r->max_depth)
			return 1;
		if (!path || !path->str)
			return -EBADMSG;
		p.key = strdup(path->str);
		if (!p.key)
			return -ENOMEM;
	}
	for (int i = 0; i < 3; i++)
		p.v[i] = (uint64_t)xb_jr_int(kv, n, v_name[i], &ok);
	if (!ok) {
		free(p.key);
		return -EBADMSG;
	}
	if (tr->npts == tr->cap) {
		size_t cap = tr->cap ? 2 * tr->cap : 256;
		struct point *g = realloc(tr->pts, cap * sizeof(*g));

		if (!g) {
			free(p.key);
			return -ENOMEM;
		}
		tr->pts = g;
		tr->cap = cap;
	}
	tr->pts[tr->npts++] = p;
	return 0;
}

/* The summary's head line into @s; 0, -EBADMSG, or -EPROTONOSUPPORT. */
static int
read_head(struct sumfile *s, const struct xb_jr_kv *kv, int n)
{
	const struct xb_jr_kv *kind = xb_jr_get(kv, n, "kind");
	static const char *const fs[4] = { "fs_bytes", "fs_free_bytes",
		"fs_inodes", "fs_free_inodes" };
	bool ok = true;
	int64_t version;

	if (!kind || !kind->str || strcmp(kind->str, "summary"))
		return -EBADMSG;
	version = xb_jr_int(kv, n, "version", &ok);
	if (!ok || version < 1)
		return -EBADMSG;
	if (version > XB_SUMMARY_VERSION)
		return -EPROTONOSUPPORT;
	for (int i = 0; i < 4; i++)
		s->fs[i] = (uint64_t)xb_jr_int(kv, n, fs[i], &ok);
	s->has_fs = ok;
	return 0;
}

/* Summary @name of the history @dirfd, the @at'th: its points.  0 or
 * a negative errno, *@line the line where it failed. */
static int
read_summary(struct trend *tr, int dirfd, const char *name, size_t at,
	     size_t *line)
{
	struct sumfile *s = &tr->sums[at];
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	struct xb_jr_kv kv[XB_JR_KV_MAX];
	char *buf = NULL;
	size_t cap = 0;
	struct tm tm = { 0 };
	int n, err = 0;

	*line = 0;
	if (!f) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		return err;
	}
	memcpy(s->stamp, name, XB_HIST_STAMP_LEN);
	s->stamp[XB_HIST_STAMP_LEN] = 0;
	strptime(s->stamp, "%Y%m%dT%H%M%SZ", &tm);
	s->t = (int64_t)timegm(&tm);
	while (!err && getline(&buf, &cap, f) > 0) {
		++*line;
		n = xb_jr_object(buf, kv);
		if (n < 0)
			err = n;
		else if (*line == 1)
			err = read_head(s, kv, n);
		else
			err = add_point(tr, kv, n, at);
		if (err == 1)
			err = 0;
	}
	if (!err && ferror(f))
		err = -EIO;
	if (!err && !*line)
		err = -ENODATA;
	free(buf);
	fclose(f);
	return err;
}

static int
by_key(const void *a, const void *b)
{
	const struct point *x = a, *y = b;
	int c = x->key ? strcmp(x->key, y->key) :
		x->id < y->id ? -1 : x->id > y->id;

	return c ? c : x->at < y->at ? -1 : x->at > y->at;
}

static bool
same_key(const struct point *x, const struct point *y)
{
	return x->key ? !strcmp(x->key, y->key) : x->id == y->id;
}

/*
 * The recent rate per day of the series @v (@n values at times @t):
 * false if it has none (fewer than two points, or both at one time).
 */
static bool
rate(const int64_t *t, const double *v, size_t n, double *per_day,
     double *days)
{
	size_t last = n - 1, first;

	if (n < 2)
		return false;
	for (first = 0; first < last - 1; first++)
		if (t[first] >= t[last] - DU_TREND_WINDOW)
			break;
	if (t[last] <= t[first])
		return false;
	*days = (double)(t[last] - t[first]) / 86400;
	*per_day = (v[last] - v[first]) / *days;
	return true;
}

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

/* "growth" of one series (text or JSON). */
static void
put_rate(FILE *f, const struct du_run *r, const struct point *p,
	 const int64_t *t, const double *v, size_t n)
{
	double per_day, days;

	if (!rate(t, v, n, &per_day, &days))
		return;
	if (r->format == XB_FORMAT_JSONL) {
		fputs("{\"kind\":\"growth\",", f);
		if (p->key)
			xb_json_string(f, "path", p->key);
		else
			fprintf(f, "\"%s\":%" PRIu64, by_kind[r->by], p->id);
		fprintf(f, ",\"%s_per_day\":%.1f,\"days\":%.3f}\n",
			v_name[r->inodes ? 2 : r->apparent], per_day, days);
		return;
	}
	fputs("  ", f);
	put_size(f, r, per_day, true);
	fprintf(f, "/day over %.3g days\n", days);
}

/* One series: its points, then its growth. */
static void
put_series(struct trend *tr, FILE *f, const struct point *p, size_t n,
	   int64_t *t, double *v)
{
	const struct du_run *r = tr->r;

	if (r->format == XB_FORMAT_TEXT) {
		if (p->key)
			xb_put_escaped(f, p->key);
		else
			fprintf(f, "%s %" PRIu64, by_kind[r->by], p->id);
		fputc('\n', f);
	}
	for (size_t i = 0; i < n; i++) {
		t[i] = tr->sums[p[i].at].t;
		v[i] = (double)p[i].v[tr->v];
		if (r->format == XB_FORMAT_JSONL) {
			fputs("{\"kind\":\"point\",", f);
			if (p->key)
				xb_json_string(f, "path", p->key);
			else
				fprintf(f, "\"%s\":%" PRIu64, by_kind[r->by],
					p->id);
			fprintf(f, ",\"stamp\":\"%s\",\"bytes\":%" PRIu64
				",\"apparent\":%" PRIu64 ",\"inodes\":%"
				PRIu64 "}\n", tr->sums[p[i].at].stamp,
				p[i].v[0], p[i].v[1], p[i].v[2]);
			continue;
		}
		fprintf(f, "  %s  ", tr->sums[p[i].at].stamp);
		put_size(f, r, v[i], false);
		fputc('\n', f);
	}
	put_rate(f, r, p, t, v, n);
}

/* The day the free space (or inodes) of the last summary would be gone
 * at the recent rate. */
static void
put_full(struct trend *tr, FILE *f, int64_t *t, double *v)
{
	const struct du_run *r = tr->r;
	unsigned int k = r->inodes ? 2 : 0;	/* fs[k] size, fs[k+1] free */
	double per_day, days, left;
	size_t n = 0, i;
	char date[32] = "";
	time_t when;
	struct tm tm;

	if (r->format == XB_FORMAT_TEXT)
		fputs(r->inodes ? "free inodes\n" : "free space\n", f);
	for (i = 0; i < tr->nsums; i++) {
		const struct sumfile *s = &tr->sums[i];

		if (!s->has_fs)
			continue;
		t[n] = s->t;
		v[n++] = (double)s->fs[k + 1];
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
	if (!n || !rate(t, v, n, &per_day, &days))
		return;
	left = per_day < 0 ? v[n - 1] / -per_day : -1;
	if (left >= 0 && left < 36500) {
		when = (time_t)(t[n - 1] + (int64_t)(left * 86400));
		gmtime_r(&when, &tm);
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

/* Every series, then the filesystem's. */
static int
print_all(struct trend *tr)
{
	FILE *f = tr->r->out;
	int64_t *t = malloc((tr->nsums + 1) * sizeof(*t));
	double *v = malloc((tr->nsums + 1) * sizeof(*v));
	size_t i, j;

	if (!t || !v) {
		free(t);
		free(v);
		return -ENOMEM;
	}
	qsort(tr->pts, tr->npts, sizeof(*tr->pts), by_key);
	for (i = 0; i < tr->npts; i = j) {
		for (j = i + 1; j < tr->npts &&
			    same_key(&tr->pts[i], &tr->pts[j]); j++)
			;
		put_series(tr, f, &tr->pts[i], j - i, t, v);
	}
	put_full(tr, f, t, v);
	free(t);
	free(v);
	if (fflush(f))
		return -errno;
	return ferror(f) ? -EIO : 0;
}

/* Read every summary of the history @dir; XB_EXIT_OK or
 * XB_EXIT_FAILURE with the message printed. */
static enum xb_exit
read_all(struct trend *tr, int dirfd)
{
	char **names;
	size_t n, i, line;
	int err = xb_history_list(dirfd, &names, &n);

	if (err) {
		xb_error("du", "%s: %s", tr->dir, strerror(-err));
		return XB_EXIT_FAILURE;
	}
	tr->sums = calloc(n + 1, sizeof(*tr->sums));
	if (!tr->sums)
		err = -ENOMEM;
	for (i = 0; !err && i < n; i++) {
		if (xb_history_kind(names[i]) != XB_HIST_SUM)
			continue;
		err = read_summary(tr, dirfd, names[i], tr->nsums, &line);
		if (!err)
			tr->nsums++;
	}
	if (err == -EPROTONOSUPPORT)
		xb_error("du", "%s/%s: a summary of a format newer than %d: "
			 "update xbulk", tr->dir, names[i - 1],
			 XB_SUMMARY_VERSION);
	else if (err == -EBADMSG)
		xb_error("du", "%s/%s: line %zu: not a summary line",
			 tr->dir, names[i - 1], line);
	else if (err && i)
		xb_error("du", "%s/%s: %s", tr->dir, names[i - 1],
			 strerror(-err));
	else if (err)
		xb_error("du", "%s: %s", tr->dir, strerror(-err));
	else if (!tr->nsums)
		xb_error("du", "%s: no summaries (xbulk snapshot --keep "
			 "writes them)", tr->dir);
	xb_history_list_free(names, n);
	return err || !tr->nsums ? XB_EXIT_FAILURE : XB_EXIT_OK;
}

enum xb_exit
du_trend(const struct du_run *r, const char *dir)
{
	struct trend tr = {
		.r = r,
		.dir = dir,
		.v = r->inodes ? 2 : r->apparent ? 1 : 0,
	};
	enum xb_exit ret;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), err;

	if (fd < 0) {
		xb_error("du", "%s: %s", dir, strerror(errno));
		return XB_EXIT_FAILURE;
	}
	ret = read_all(&tr, fd);
	close(fd);
	if (!ret) {
		err = print_all(&tr);
		if (err)
			ret = xb_write_error("du", err);
	}
	for (size_t i = 0; i < tr.npts; i++)
		free(tr.pts[i].key);
	free(tr.pts);
	free(tr.sums);
	return ret;
}
