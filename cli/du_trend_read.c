// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk du --trend DIR: the summaries of a history read (xbulk snapshot
 * --keep; docs/formats.md, "Summary files"), each one's lines by
 * cli/json_read.c, into one series per directory down to -d N or per
 * id of --by, oldest first; and the rates computed from them.
 *
 * The recent rate of a series is (last - first) / their distance in
 * days, "first" being its oldest point at most DU_TREND_WINDOW before
 * its last (the point before the last if none is): a straight line
 * through two points, as simple to check by hand as it is to explain.
 * A summary's time is its name's stamp (when the run started).  A path
 * is its exact bytes: its "path_b64" where the summary has one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "du_trend.h"

/* The window of the recent rate, in seconds. */
#define DU_TREND_WINDOW		(7 * 86400)

const char *const du_trend_v_name[3] = { "bytes", "apparent", "inodes" };

/* Add the point of line @kv (@n pairs) of summary @at if it is one
 * du wants: 0, 1 (not wanted), or a negative errno. */
static int
add_point(struct du_hist *tr, const struct xb_jr_kv *kv, int n, size_t at)
{
	const struct du_run *r = tr->r;
	const struct xb_jr_kv *kind = xb_jr_get(kv, n, "kind"), *path;
	struct du_trend_point p = { .at = at };
	bool ok = true;
	int err;

	if (!kind || !kind->str)
		return -EBADMSG;
	if (r->by_given) {
		if (strcmp(kind->str, du_by_name(r->by)))
			return 1;
		p.id = (uint64_t)xb_jr_int(kv, n, "id", &ok);
	} else {
		if (strcmp(kind->str, "dir"))
			return 1;
		path = xb_jr_get(kv, n, "path");
		p.depth = (uint64_t)xb_jr_int(kv, n, "depth", &ok);
		if (p.depth > r->max_depth)
			return 1;
		if (!path || !path->str)
			return -EBADMSG;
		err = xb_jr_b64(kv, n, "path_b64", &p.key);
		if (err < 0)
			return err;
		if (!err && !(p.key = strdup(path->str)))
			return -ENOMEM;
	}
	for (int i = 0; i < 3; i++)
		p.v[i] = (uint64_t)xb_jr_int(kv, n, du_trend_v_name[i], &ok);
	if (!ok) {
		free(p.key);
		return -EBADMSG;
	}
	if (tr->npts == tr->cap) {
		size_t cap = tr->cap ? 2 * tr->cap : 256;
		struct du_trend_point *g = realloc(tr->pts, cap * sizeof(*g));

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

/* A copy of string @key of @kv (@n pairs) into *@dst, its exact bytes
 * if "@key_b64" has them, the one before freed; "" if there is none.
 * 0 or -ENOMEM. */
static int
keep_string(char **dst, const struct xb_jr_kv *kv, int n, const char *key)
{
	const struct xb_jr_kv *e = xb_jr_get(kv, n, key);
	char b64[32], *s = NULL;

	snprintf(b64, sizeof(b64), "%s_b64", key);
	if (xb_jr_b64(kv, n, b64, &s) <= 0)
		s = strdup(e && e->str ? e->str : "");
	if (!s)
		return -ENOMEM;
	free(*dst);
	*dst = s;
	return 0;
}

/* The summary's head line into @s and @tr (the filesystem's names, the
 * newest summary's in the end); 0, -EBADMSG, -EPROTONOSUPPORT or
 * -ENOMEM. */
static int
read_head(struct du_hist *tr, struct du_trend_sum *s,
	  const struct xb_jr_kv *kv, int n)
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
	if (keep_string(&tr->mountpoint, kv, n, "mountpoint") ||
	    keep_string(&tr->host, kv, n, "host"))
		return -ENOMEM;
	return 0;
}

/* Summary @name of the history @dirfd, the @at'th: its points.  0 or
 * a negative errno, *@line the line where it failed. */
static int
read_summary(struct du_hist *tr, int dirfd, const char *name, size_t at,
	     size_t *line)
{
	struct du_trend_sum *s = &tr->sums[at];
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
			err = read_head(tr, s, kv, n);
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
	const struct du_trend_point *x = a, *y = b;
	int c = x->key ? strcmp(x->key, y->key) :
		x->id < y->id ? -1 : x->id > y->id;

	return c ? c : x->at < y->at ? -1 : x->at > y->at;
}

static bool
same_key(const struct du_trend_point *x, const struct du_trend_point *y)
{
	return x->key ? !strcmp(x->key, y->key) : x->id == y->id;
}

bool
du_trend_rate(const int64_t *t, const double *v, size_t n, double *per_day,
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

const char *
du_trend_id_name(const struct du_hist *tr, const struct du_trend_point *p)
{
	return tr->r->ids ? du_key_name(tr->r, tr->r->by, p->id) : NULL;
}

size_t
du_trend_fs_free(const struct du_hist *tr, int64_t *t, double *v)
{
	unsigned int k = tr->r->inodes ? 3 : 1;
	size_t n = 0;

	for (size_t i = 0; i < tr->nsums; i++) {
		if (!tr->sums[i].has_fs)
			continue;
		t[n] = tr->sums[i].t;
		v[n++] = (double)tr->sums[i].fs[k];
	}
	return n;
}

bool
du_trend_full_at(const int64_t *t, const double *v, size_t n,
		 double *per_day, double *days, int64_t *when)
{
	double left;

	*when = 0;
	if (!n || !du_trend_rate(t, v, n, per_day, days))
		return false;
	left = *per_day < 0 ? v[n - 1] / -*per_day : -1;
	if (left >= 0 && left < 36500)
		*when = t[n - 1] + (int64_t)(left * 86400);
	return true;
}

/* Read every summary of the history @dirfd; XB_EXIT_OK or
 * XB_EXIT_FAILURE with the message printed. */
static enum xb_exit
read_all(struct du_hist *tr, int dirfd)
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
du_trend_read(struct du_hist *tr)
{
	int fd = open(tr->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	enum xb_exit ret;
	size_t i, j;

	if (fd < 0) {
		xb_error("du", "%s: %s", tr->dir, strerror(errno));
		return XB_EXIT_FAILURE;
	}
	ret = read_all(tr, fd);
	close(fd);
	if (ret)
		return ret;
	tr->ser = malloc((tr->npts + 1) * sizeof(*tr->ser));
	if (!tr->ser) {
		xb_error("du", "%s", strerror(ENOMEM));
		return XB_EXIT_FAILURE;
	}
	qsort(tr->pts, tr->npts, sizeof(*tr->pts), by_key);
	for (i = 0; i < tr->npts; i = j) {
		for (j = i + 1; j < tr->npts &&
			    same_key(&tr->pts[i], &tr->pts[j]); j++)
			;
		tr->ser[tr->nser++] =
			(struct du_trend_series){ &tr->pts[i], j - i };
	}
	return XB_EXIT_OK;
}

void
du_trend_free(struct du_hist *tr)
{
	for (size_t i = 0; i < tr->npts; i++)
		free(tr->pts[i].key);
	free(tr->pts);
	free(tr->ser);
	free(tr->sums);
	free(tr->mountpoint);
	free(tr->host);
}
