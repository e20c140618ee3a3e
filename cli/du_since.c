// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk du --since OLD NEW: what grew and what shrank between two points
 * of one filesystem.  OLD is a snapshot file; NEW a mount point (scanned
 * now, read as a snapshot, as xbulk diff OLD MNT does) or a later
 * snapshot file (nothing scanned).  For each directory down to -d N
 * (default 1), or each uid, gid or project id in each (--by, default
 * -d 0: the whole filesystem; du_since_by.c), its disk usage, apparent
 * size and inodes then and now and the difference, largest growth
 * first.
 *
 * Both sides are counted by one rule, the history summary's
 * (cli/history_sum.c, du --trend's figures): each inode once, in the
 * directory of its lowest (parent inode, name) name, a directory in
 * itself; a directory's figure is its subtree's.  A live NEW is a
 * snapshot too, so the rule is the same live and offline, and no walk
 * order decides where a hard link is charged.  Directories are matched
 * by inode and generation, never by path: a moved directory is one row,
 * under its new path with its old one.  Memory grows with the
 * directories (two summaries), never with the other inodes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "du.h"
#include "history.h"
#include "snap.h"

#define CANCEL_EVERY	1024

/* What became of a directory between the two points. */
enum state { ST_SAME, ST_MOVED, ST_NEW, ST_DELETED };

static const char *const state_name[] = {
	[ST_SAME] = "same", [ST_MOVED] = "moved", [ST_NEW] = "new",
	[ST_DELETED] = "deleted",
};

static const char *const by_kind[] = {
	[DU_BY_UID] = "uid", [DU_BY_GID] = "gid", [DU_BY_PROJID] = "projid",
};

/* One row: a directory, or a directory's id with --by. */
struct row {
	char			*path;		/* NEW's; OLD's if deleted */
	char			*old_path;	/* OLD's, if moved */
	uint64_t		key;		/* the directory's inode */
	uint32_t		id;		/* --by: the uid, gid, projid */
	enum state		state;
	struct xb_sum_row	then, now;
	int64_t			growth;		/* of the figure sorted on */
};

struct since {
	struct du_run		*r;
	struct xbulk_snap	*s[2];		/* OLD, NEW */
	struct xb_summary	sum[2];
	struct du_owners	own[2];		/* --by */
	struct row		*dirs;		/* the directories' rows */
	size_t			ndirs, dcap;
	struct row		*rows;		/* --by's (paths borrowed) */
	size_t			n, cap;
	char			*buf;
	size_t			bufcap;
};

/* The figure rows are sorted on: disk usage, apparent size or inodes. */
static uint64_t
figure(const struct du_run *r, const struct xb_sum_row *v)
{
	return r->inodes ? v->inodes : r->apparent ? v->apparent : v->bytes;
}

/* One more row of *@v (*@n of *@cap), zeroed; NULL without memory. */
static struct row *
new_row(struct row **v, size_t *n, size_t *cap)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 256;
		struct row *g = realloc(*v, c * sizeof(*g));

		if (!g)
			return NULL;
		*v = g;
		*cap = c;
	}
	memset(&(*v)[*n], 0, sizeof(**v));
	return &(*v)[(*n)++];
}

/* A copy of directory @ino's path in side @i, or NULL with *@err set
 * (-ENOENT: no name reaches it). */
static char *
dir_path(struct since *w, int i, uint64_t ino, const struct xb_sum_dir *d,
	 int *err)
{
	long len = xb_summary_dir_path(&w->sum[i], w->s[i], ino, d, &w->buf,
				       &w->bufcap);
	char *p = len < 0 ? NULL : strdup(w->buf);

	*err = len < 0 ? (int)len : p ? 0 : -ENOMEM;
	return p;
}

static bool
within(const struct xb_sum_dir *d, uint64_t max_depth)
{
	return d && d->depth >= 0 && (uint64_t)d->depth <= max_depth;
}

/* Each directory of NEW down to the depth, with OLD's figures if OLD
 * had it (same inode and generation); then each of OLD down to the
 * depth that NEW has not (deleted) or has below the depth (moved
 * deeper).  0 or a negative errno. */
static int
dir_rows(struct since *w)
{
	const uint64_t max = w->r->max_depth;
	const struct xb_sum_dir *d, *o;
	struct row *row;
	size_t pos = 0;
	uint64_t ino;
	int err = 0;

	while (!err && (d = xbl_hash_next(&w->sum[1].dirs, &pos, &ino))) {
		o = du_since_old(&w->sum[0], ino, d);
		if (!within(d, max) && !(within(o, max) && d->depth >= 0))
			continue;
		if (!(row = new_row(&w->dirs, &w->ndirs, &w->dcap)))
			return -ENOMEM;
		row->key = ino;
		row->now = d->sub;
		row->state = o ? ST_SAME : ST_NEW;
		row->path = dir_path(w, 1, ino, d, &err);
		if (!err && o) {
			row->then = o->sub;
			row->old_path = dir_path(w, 0, ino, o, &err);
		}
		if (!err && o && strcmp(row->path, row->old_path))
			row->state = ST_MOVED;
	}
	pos = 0;
	while (!err && (o = xbl_hash_next(&w->sum[0].dirs, &pos, &ino))) {
		d = xbl_hash_get(&w->sum[1].dirs, ino);
		if (!within(o, max) || (d && d->gen == o->gen &&
					d->depth >= 0))
			continue;
		if (!(row = new_row(&w->dirs, &w->ndirs, &w->dcap)))
			return -ENOMEM;
		row->key = ino;
		row->then = o->sub;
		row->state = ST_DELETED;
		row->path = dir_path(w, 0, ino, o, &err);
	}
	return err == -ENOENT ? -EBADMSG : err;
}

/* --by: each directory row's ids, in either side. */
struct pair {
	struct xb_sum_row	then, now;
};

static int
by_rows(struct since *w)
{
	struct xbl_hash at[2], pairs;
	const struct xb_sum_row *v;
	const struct pair *p;
	struct row *row;
	uint64_t ino, key, *x;
	struct pair *q;
	size_t pos, j;
	uint32_t id;
	bool fresh;
	int err = 0;

	xbl_hash_init(&at[0], sizeof(uint64_t));
	xbl_hash_init(&at[1], sizeof(uint64_t));
	xbl_hash_init(&pairs, sizeof(struct pair));
	/* the row of each directory inode, on each side it is on */
	for (j = 0; !err && j < w->ndirs; j++)
		for (int i = 0; !err && i < 2; i++) {
			if (w->dirs[j].state == (i ? ST_DELETED : ST_NEW))
				continue;
			x = xbl_hash_add(&at[i], w->dirs[j].key, &fresh);
			if (!x)
				err = -ENOMEM;
			else
				*x = j;
		}
	for (int i = 0; !err && i < 2; i++) {
		pos = 0;
		err = du_owners_subtrees(&w->own[i], &w->sum[i], &at[i]);
		while (!err &&
		       (v = du_owners_next(&w->own[i], &pos, &ino, &id))) {
			x = xbl_hash_get(&at[i], ino);
			if (!x)
				continue;
			q = xbl_hash_add(&pairs, *x << 32 | id, &fresh);
			if (!q)
				err = -ENOMEM;
			else if (i)
				q->now = *v;
			else
				q->then = *v;
		}
	}
	pos = 0;
	while (!err && (p = xbl_hash_next(&pairs, &pos, &key))) {
		if (!(row = new_row(&w->rows, &w->n, &w->cap))) {
			err = -ENOMEM;
			break;
		}
		*row = w->dirs[key >> 32];
		row->id = (uint32_t)key;
		row->then = p->then;
		row->now = p->now;
	}
	xbl_hash_free(&at[0]);
	xbl_hash_free(&at[1]);
	xbl_hash_free(&pairs);
	return err;
}

static int
by_growth(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	int c;

	if (x->growth != y->growth)
		return x->growth > y->growth ? -1 : 1;
	c = strcmp(x->path, y->path);
	if (c)
		return c;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* A signed difference, in du's units (-h...) unless @count. */
static void
change_text(const struct du_run *r, uint64_t now, uint64_t then, bool count,
	    char *buf)
{
	struct du_units u = r->units;

	if (count)
		u.block_size = 1;
	buf[0] = now >= then ? '+' : '-';
	du_units_format(buf + 1, now >= then ? now - then : then - now, &u);
}

static void
amount_text(const struct du_run *r, uint64_t v, bool count, char *buf)
{
	struct du_units u = r->units;

	if (count)
		u.block_size = 1;
	du_units_format(buf, v, &u);
}

static void
put_figures_json(FILE *f, const struct row *w)
{
	const struct { const char *name; uint64_t then, now; } v[] = {
		{ "bytes", w->then.bytes, w->now.bytes },
		{ "apparent", w->then.apparent, w->now.apparent },
		{ "inodes", w->then.inodes, w->now.inodes },
	};

	for (size_t i = 0; i < 3; i++)
		fprintf(f, ",\"%s_then\":%llu,\"%s_now\":%llu,"
			"\"%s_change\":%lld", v[i].name,
			(unsigned long long)v[i].then, v[i].name,
			(unsigned long long)v[i].now, v[i].name,
			(long long)(v[i].now - v[i].then));
}

static void
put_figures_csv(FILE *f, const struct row *w)
{
	const uint64_t v[3][2] = {
		{ w->then.bytes, w->now.bytes },
		{ w->then.apparent, w->now.apparent },
		{ w->then.inodes, w->now.inodes },
	};

	for (size_t i = 0; i < 3; i++)
		fprintf(f, ",%llu,%llu,%lld", (unsigned long long)v[i][0],
			(unsigned long long)v[i][1],
			(long long)(v[i][1] - v[i][0]));
}

static void
put_header(const struct du_run *r)
{
	if (r->format != XB_FORMAT_CSV)
		return;
	fprintf(r->out, "path,old_path,ino,state,%sbytes_then,bytes_now,"
		"bytes_change,apparent_then,apparent_now,apparent_change,"
		"inodes_then,inodes_now,inodes_change,path_b64,"
		"old_path_b64\r\n", r->by_given ? "by,key,name," : "");
}

/* The old path of @w, if it is one to print. */
static const char *
moved_from(const struct row *w)
{
	return w->state == ST_MOVED ? w->old_path : NULL;
}

static void
put_json(const struct du_run *r, const struct row *w, const char *name)
{
	fputc('{', r->out);
	xb_json_string(r->out, "path", w->path);
	fputc(',', r->out);
	xb_json_string(r->out, "old_path", moved_from(w));
	fprintf(r->out, ",\"ino\":%llu,\"state\":\"%s\"",
		(unsigned long long)w->key, state_name[w->state]);
	if (r->by_given) {
		fprintf(r->out, ",\"by\":\"%s\",\"key\":%u,", by_kind[r->by],
			w->id);
		xb_json_string(r->out, "name", name);
	}
	put_figures_json(r->out, w);
	fputs("}\n", r->out);
}

static void
put_csv(const struct du_run *r, const struct row *w, const char *name)
{
	bool lossy, old_lossy = false;

	lossy = du_csv_field(r->out, w->path);
	fputc(',', r->out);
	if (moved_from(w))
		old_lossy = du_csv_field(r->out, w->old_path);
	fprintf(r->out, ",%llu,%s", (unsigned long long)w->key,
		state_name[w->state]);
	if (r->by_given) {
		fprintf(r->out, ",%s,%u,", by_kind[r->by], w->id);
		if (name)
			du_csv_field(r->out, name);
	}
	put_figures_csv(r->out, w);
	xb_csv_b64(r->out, w->path, lossy);
	xb_csv_b64(r->out, w->old_path, old_lossy);
	fputs("\r\n", r->out);
}

/* One row in the format asked for. */
static void
put_row(const struct du_run *r, const struct row *w)
{
	const char *name = r->by_given ? du_key_name(r, r->by, w->id) : NULL;
	char a[DU_UNITS_MAX + 1], b[DU_UNITS_MAX], c[DU_UNITS_MAX],
	     d[DU_UNITS_MAX + 1];
	const struct xb_sum_row *now = &w->now, *then = &w->then;

	if (r->format != XB_FORMAT_TEXT) {
		if (r->format == XB_FORMAT_JSONL)
			put_json(r, w, name);
		else
			put_csv(r, w, name);
		return;
	}
	/* CHANGE NOW THEN (du's units), INODES' CHANGE, [OWNER,] PATH */
	change_text(r, figure(r, now), figure(r, then), r->inodes, a);
	amount_text(r, figure(r, now), r->inodes, b);
	amount_text(r, figure(r, then), r->inodes, c);
	change_text(r, r->inodes ? now->bytes : now->inodes,
		    r->inodes ? then->bytes : then->inodes, !r->inodes, d);
	fprintf(r->out, "%s\t%s\t%s\t%s\t", a, b, c, d);
	if (r->by_given && name)
		fprintf(r->out, "%s\t", name);
	else if (r->by_given)
		fprintf(r->out, "%u\t", w->id);
	xb_put_escaped(r->out, w->path);
	if (moved_from(w)) {
		fputs(" (moved from ", r->out);
		xb_put_escaped(r->out, w->old_path);
		fputc(')', r->out);
	} else if (w->state != ST_SAME) {
		fprintf(r->out, " (%s)", state_name[w->state]);
	}
	fputc('\n', r->out);
}

/* Every record of side @i into its summary; 0 or a negative errno. */
static int
gather(struct since *w, int i, const volatile int *cancel)
{
	const struct xbulk_snap_rec *rec;
	uint64_t n = 0;
	int ret;

	xb_summary_init(&w->sum[i], w->s[i], XB_SUM_ALL_DEPTHS);
	while ((ret = xbulk_snap_next(w->s[i], &rec)) == 1) {
		xb_summary_add(&w->sum[i], rec);
		if (w->r->by_given)
			du_owners_add(&w->own[i], &w->sum[i], rec);
		if (++n % CANCEL_EVERY == 0 && *cancel)
			return -EINTR;
	}
	if (!ret)
		ret = w->sum[i].err;
	if (!ret)
		xb_summary_subtrees(&w->sum[i]);
	return ret;
}

/* Can OLD and NEW be compared?  XB_EXIT_OK, or XB_EXIT_FAILURE after
 * one line saying why not. */
static enum xb_exit
check_pair(const struct since *w, const char *old, const char *new)
{
	const struct xbulk_snap_info *o = xbulk_snap_info(w->s[0]);
	const struct xbulk_snap_info *n = xbulk_snap_info(w->s[1]);
	char u0[37], u1[37];

	xb_uuid_text(u0, o->uuid);
	xb_uuid_text(u1, n->uuid);
	if (memcmp(o->uuid, n->uuid, sizeof(o->uuid)) || o->top != n->top) {
		xb_error("du", "--since %s: of another filesystem than %s "
			 "(UUID %s, not %s%s)", old, new, u0, u1,
			 strcmp(u0, u1) ? "" : "; another top directory");
		return XB_EXIT_FAILURE;
	}
	if (o->start_sec > n->start_sec ||
	    (o->start_sec == n->start_sec && o->start_nsec > n->start_nsec)) {
		xb_error("du", "--since %s: taken after %s (NEW is older than "
			 "OLD: swap them)", old, new);
		return XB_EXIT_FAILURE;
	}
	return XB_EXIT_OK;
}

/* Open snapshot file @path: XB_EXIT_OK or XB_EXIT_FAILURE (one line). */
static enum xb_exit
open_file(const char *path, struct xbulk_snap **s)
{
	return xb_snap_open("du", path, s) ? XB_EXIT_FAILURE : XB_EXIT_OK;
}

/* NEW: the mount point @path scanned now, or a snapshot file. */
static enum xb_exit
open_new(struct du_run *r, const char *old, const char *path,
	 struct xbulk_fs **fs, const volatile int *cancel,
	 struct xbulk_snap **s)
{
	struct xb_exclude x = { .n = 0 };
	struct stat st;
	enum xb_exit ret;

	/* --svg's file first: one that cannot be written fails at once,
	 * and never on the filesystem scanned */
	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		ret = du_file_open(&r->svg_file, NULL);
		return ret ? ret : open_file(path, s);
	}
	if (xb_snap_open_fs("du", path, fs))
		return XB_EXIT_FAILURE;
	ret = xb_memory_check_fs(&r->mem, "du", *fs);
	if (!ret)
		ret = du_file_open(&r->svg_file, *fs);
	if (ret)
		return ret;
	/* OLD on the filesystem scanned: not its own growth */
	xb_exclude_path(&x, st.st_dev, old);
	ret = xb_snap_live("du", path, *fs, r->threads,
			   r->no_sync ? XBULK_SNAP_NO_SYNC : 0, &x, &r->mem,
			   &r->stats, cancel, s);
	return ret == XB_EXIT_TROUBLE ? XB_EXIT_FAILURE : ret;
}

/* The rows, sorted and cut to --rows N: the N that grew most and the N
 * that shrank most. */
static enum xb_exit
print_rows(struct since *w)
{
	struct du_run *r = w->r;
	size_t i, lim = r->rows;

	if (!r->by_given) {	/* the directories' rows are the rows */
		w->rows = w->dirs;
		w->n = w->ndirs;
	}
	for (i = 0; i < w->n; i++)
		w->rows[i].growth = (int64_t)(figure(r, &w->rows[i].now) -
					      figure(r, &w->rows[i].then));
	qsort(w->rows, w->n, sizeof(*w->rows), by_growth);
	put_header(r);
	for (i = 0; i < w->n; i++) {
		if (lim && w->n > 2 * lim && i >= lim && i < w->n - lim)
			continue;
		put_row(r, &w->rows[i]);
	}
	if (fflush(r->out) || ferror(r->out))
		return xb_write_error("du", -errno);
	return XB_EXIT_OK;
}

enum xb_exit
du_since(struct du_run *r, const char *old, const char *new)
{
	struct since w = { .r = r };
	const volatile int *cancel = xb_catch_signals();
	struct xbulk_fs *fs = NULL;
	enum xb_exit ret;
	int err = 0, i;

	/* as du: --by's table is PATH's (the top's) without -d */
	if (!r->depth_given)
		r->max_depth = r->by_given ? 0 : 1;
	for (i = 0; i < 2; i++)
		du_owners_init(&w.own[i], r->by);
	ret = open_file(old, &w.s[0]);
	if (!ret && xb_run_stats_begin(&r->stats, "du", new))
		ret = XB_EXIT_FAILURE;
	if (!ret)
		ret = open_new(r, old, new, &fs, cancel, &w.s[1]);
	if (!ret)
		ret = check_pair(&w, old, new);
	if (!ret && r->by_given && xbulk_ids_new(&r->ids))
		err = -ENOMEM;
	for (i = 0; !ret && !err && i < 2; i++) {
		err = gather(&w, i, cancel);
		if (err && err != -EINTR && err != -ENOMEM) {
			const char *why = xbulk_snap_error(w.s[i]);

			xb_error("du", "%s: %s", i ? new : old,
				 why ? why : strerror(-err));
			ret = XB_EXIT_FAILURE;
		}
	}
	if (!ret && !err)
		err = dir_rows(&w);
	if (!ret && !err && r->by_given)
		err = by_rows(&w);
	if (!ret && err == -EINTR)
		ret = xb_signal_exit_status();
	else if (!ret && err) {
		xb_error("du", "%s", err == -EBADMSG ? "a directory of a "
			 "snapshot has no path (damaged)" : strerror(-err));
		ret = XB_EXIT_FAILURE;
	}
	if (!ret)
		ret = print_rows(&w);
	if (!ret && r->svg_file.out) {
		err = du_since_svg(r, old, new, w.sum, w.s);
		ret = du_file_close(&r->svg_file, err == -EBADMSG ? 0 : err);
		if (err == -EBADMSG) {
			xb_error("du", "a directory of a snapshot has no path "
				 "(damaged)");
			ret = XB_EXIT_FAILURE;
		}
		if (!ret)
			ret = du_file_place(&r->svg_file);
	}
	/* not written whole: the old picture stays */
	du_file_abort(&r->svg_file);
	r->stats.completed = !ret;
	if (w.s[1])
		xb_run_stats_snap_memory(&r->stats, &r->mem, w.s[1]);
	if (xb_run_stats_end(&r->stats) && !ret)
		ret = XB_EXIT_FAILURE;
	for (size_t j = 0; j < w.ndirs; j++) {
		free(w.dirs[j].path);
		free(w.dirs[j].old_path);
	}
	if (w.rows != w.dirs)
		free(w.rows);
	free(w.dirs);
	free(w.buf);
	for (i = 0; i < 2; i++) {
		xb_summary_free(&w.sum[i]);
		du_owners_free(&w.own[i]);
		xbulk_snap_close(w.s[i]);
	}
	xbulk_ids_free(r->ids);
	r->ids = NULL;
	xbulk_fs_close(fs);
	return ret;
}
