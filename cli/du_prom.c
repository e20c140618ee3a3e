// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * du --prometheus: one walk's figures as gauges in Prometheus' text
 * exposition format (version 0.0.4), for node_exporter's textfile
 * collector: disk usage, apparent size and inodes by user, group and
 * project (the --by uid, gid and projid tables of the PATH), the du
 * figures of the directories down to -d N (default 1), and the scan's.
 * Each grouping (the owners of each kind; the directories of each
 * depth) is capped at --max-series series, the largest by disk usage;
 * the rest are summed in one series whose labels say "other".  Label
 * values are UTF-8, escaped as the format asks (\\, \", \n); a byte that
 * is not UTF-8 is U+FFFD, and a directory so named carries its inode's
 * number in an "ino" label.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "du.h"
#include "snap.h"

/* The owners' groupings: metric prefix, the key's and the name's labels,
 * the help's words. */
static const struct {
	enum du_by	by;
	const char	*metric, *id, *name, *what;
} owners[DU_PROM_OWNERS] = {
	{ DU_BY_UID, "user", "uid", "user", "owner (uid)" },
	{ DU_BY_GID, "group", "gid", "group", "group (gid)" },
	{ DU_BY_PROJID, "project", "projid", "project",
	  "XFS project (projid)" },
};

/* The figures of an owner's row (du --by's columns). */
enum figure { FIG_DISK, FIG_APPARENT, FIG_INODES, FIG_NR };

static const struct {
	const char	*suffix, *help;
} figures[FIG_NR] = {
	[FIG_DISK] = { "disk_usage_bytes",
		       "Disk usage (st_blocks * 512, as du counts it)" },
	[FIG_APPARENT] = { "apparent_size_bytes", "Apparent size (st_size)" },
	[FIG_INODES] = { "inodes", "Inodes" },
};

static uint64_t
row_figure(const struct du_agg_row *w, enum figure fig)
{
	return fig == FIG_DISK ? w->disk :
	       fig == FIG_APPARENT ? w->apparent : w->count;
}

enum xb_exit
du_prom_open(struct du_run *r, const struct xbulk_fs *fs, const char *path)
{
	struct du_prom *p = &r->prom;

	p->mnt = xb_mount_point(path);
	if (!p->mnt) {
		xb_error("du", "cannot access '%s': %s", path,
			 strerror(errno));
		return XB_EXIT_FAILURE;
	}
	xb_uuid_text(p->uuid, xbulk_fs_geometry(fs)->uuid);
	p->path = path;
	p->depth = !r->depth_given ? 1 :
		   r->max_depth > UINT32_MAX ? UINT32_MAX :
		   (unsigned int)r->max_depth;
	return du_file_open(&r->prom_file, fs);
}

void
du_prom_init(struct du_run *r)
{
	size_t i;

	for (i = 0; i < DU_PROM_OWNERS; i++)
		du_agg_init(&r->prom.agg[i], owners[i].by, r->time, r->now,
			    r->blocklog);
}

/* Levels 0..@depth; 0 or -ENOMEM (-d 4294967295 costs only the depths
 * the tree has). */
static int
reach(struct du_prom *p, unsigned int depth)
{
	struct du_prom_level *l;
	size_t n = p->nlvl;

	if (depth < p->nlvl)
		return 0;
	l = realloc(p->lvl, (depth + 1) * sizeof(*l));
	if (!l)
		return -ENOMEM;
	p->lvl = l;
	for (; n <= depth; n++) {
		l[n] = (struct du_prom_level){ 0 };
		if (du_top_init(&l[n].top, p->max_series))
			return -ENOMEM;
		p->nlvl = n + 1;
	}
	return 0;
}

int
du_prom_charge(struct du_prom *p, const struct xbulk_entry *e,
	       const struct xbulk_du_sum *sum)
{
	struct du_prom_level *l;
	uint64_t key;
	size_t i;
	int err = 0;

	for (i = 0; !err && i < DU_PROM_OWNERS; i++) {
		err = du_agg_key(&p->agg[i], e, &key);
		if (!err)
			err = du_agg_add(&p->tab[i], &p->agg[i], key, e->bs);
	}
	if (err || e->depth > p->depth ||
	    (e->depth && !S_ISDIR(e->bs->bs_mode)))
		return err;
	err = reach(p, e->depth);
	if (err)
		return err;
	l = &p->lvl[e->depth];
	l->sum.bytes += sum->bytes;
	l->sum.inodes += sum->inodes;
	l->n++;
	return du_top_add(&l->top, sum->bytes, sum, e->path, e->bs->bs_ino);
}

void
du_prom_free(struct du_prom *p)
{
	size_t i;

	for (i = 0; i < DU_PROM_OWNERS; i++) {
		du_agg_table_free(&p->tab[i]);
		du_agg_free(&p->agg[i]);
	}
	for (i = 0; i < p->nlvl; i++)
		du_top_free(&p->lvl[i].top);
	free(p->lvl);
	p->lvl = NULL;
	p->nlvl = 0;
	free(p->mnt);
	p->mnt = NULL;
}

/* ,NAME="VALUE" (the first without the comma); true if VALUE had bytes
 * that are not UTF-8. */
static bool
label(FILE *f, const char *name, const char *value)
{
	bool lossy;

	fprintf(f, ",%s=\"", name);
	lossy = xb_put_text(f, value, XB_QUOTE_PROM);
	fputc('"', f);
	return lossy;
}

/* The # HELP and # TYPE lines of xbulk_@name. */
static void
family(FILE *f, const char *name, const char *help)
{
	fprintf(f, "# HELP xbulk_%s %s\n# TYPE xbulk_%s gauge\n", name, help,
		name);
}

/* xbulk_@name{mountpoint=...,uuid=...,path=... and no brace: the caller's
 * labels follow, then series_end(). */
static void
series(FILE *f, const struct du_prom *p, const char *name)
{
	fprintf(f, "xbulk_%s{mountpoint=\"", name);
	xb_put_text(f, p->mnt, XB_QUOTE_PROM);
	fprintf(f, "\",uuid=\"%s\"", p->uuid);
	label(f, "path", p->path);
}

static void
series_end(FILE *f, uint64_t v)
{
	fprintf(f, "} %llu\n", (unsigned long long)v);
}

/* One owner's series of @fig: "other" for the rest. */
static void
owner_series(FILE *f, struct du_run *r, size_t i, const char *name,
	     const struct du_agg_row *w, bool other, enum figure fig)
{
	const char *who = other ? "other" : du_key_name(r, owners[i].by,
							 w->key);
	char num[24];

	snprintf(num, sizeof(num), "%llu", (unsigned long long)w->key);
	series(f, &r->prom, name);
	label(f, owners[i].id, other ? "other" : num);
	label(f, owners[i].name, who ? who : num);
	series_end(f, row_figure(w, fig));
}

/* The owners of grouping @i, the largest first; 0 or -ENOMEM. */
static int
write_owners(FILE *f, struct du_run *r, size_t i)
{
	const struct du_agg_table *t = &r->prom.tab[i];
	struct du_agg_row *rows = du_agg_sorted(t), rest = { 0 };
	size_t n = t->rows.count, keep = n, k;
	char name[64], help[192];
	enum figure fig;

	if (!rows && n)
		return -ENOMEM;
	if (keep > r->prom.max_series)
		keep = r->prom.max_series;
	for (k = keep; k < n; k++) {
		rest.count += rows[k].count;
		rest.disk += rows[k].disk;
		rest.apparent += rows[k].apparent;
	}
	for (fig = 0; fig < FIG_NR; fig++) {
		snprintf(name, sizeof(name), "%s_%s", owners[i].metric,
			 figures[fig].suffix);
		snprintf(help, sizeof(help), "%s of what each %s has under "
			 "path; the largest --max-series, the rest as "
			 "\"other\".",
			 figures[fig].help, owners[i].what);
		family(f, name, help);
		for (k = 0; k < keep; k++)
			owner_series(f, r, i, name, &rows[k], false, fig);
		if (keep < n)
			owner_series(f, r, i, name, &rest, true, fig);
	}
	free(rows);
	return 0;
}

/* One directory's series (@it NULL: "other", the rest of its depth). */
static void
dir_series(FILE *f, const struct du_prom *p, const char *name,
	   unsigned int depth, const struct du_top_item *it, uint64_t v)
{
	char num[24];
	bool lossy;

	series(f, p, name);
	lossy = label(f, "directory", it ? it->path : "other");
	snprintf(num, sizeof(num), "%u", depth);
	label(f, "depth", num);
	if (lossy) {
		snprintf(num, sizeof(num), "%llu",
			 (unsigned long long)it->ino);
		label(f, "ino", num);
	}
	series_end(f, v);
}

/* The directories of each depth, the largest first, and "other". */
static void
write_dirs(FILE *f, struct du_prom *p)
{
	static const char *const name[2] = {
		"directory_disk_usage_bytes", "directory_inodes",
	};
	static const char *const help[2] = {
		"Disk usage of the directory's tree, as du -x prints it; "
		"the largest --max-series of each depth, the rest as \"other\".",
		"Inodes of the directory's tree, as du -x --inodes counts them; "
		"the largest --max-series of each depth, the rest as \"other\".",
	};
	struct xbulk_du_sum rest;
	size_t d, k, fig;

	for (d = 0; d < p->nlvl; d++)
		du_top_sort(&p->lvl[d].top);
	for (fig = 0; fig < 2; fig++) {
		family(f, name[fig], help[fig]);
		for (d = 0; d < p->nlvl; d++) {
			const struct du_prom_level *l = &p->lvl[d];

			rest = l->sum;
			for (k = 0; k < l->top.n; k++) {
				const struct du_top_item *it = &l->top.heap[k];

				dir_series(f, p, name[fig], (unsigned int)d,
					   it, fig ? it->sum.inodes
						   : it->sum.bytes);
				rest.bytes -= it->sum.bytes;
				rest.inodes -= it->sum.inodes;
			}
			if (l->n > l->top.n)
				dir_series(f, p, name[fig], (unsigned int)d,
					   NULL, fig ? rest.inodes : rest.bytes);
		}
	}
}

/* The scan's figures: what --stats=json says of the same run. */
static void
write_scan(FILE *f, struct du_run *r)
{
	const struct xbulk_names_result *n = &r->stats.names;
	uint64_t ns = xb_mono_ns() - r->stats.start_ns;

	family(f, "scan_inodes", "Inodes the bulkstat scan returned "
	       "(--stats scan_records).");
	series(f, &r->prom, "scan_inodes");
	series_end(f, n->scan_records);
	family(f, "scan_duration_seconds", "Wall time of xbulk du from its "
	       "start to the writing of this file.");
	series(f, &r->prom, "scan_duration_seconds");
	/* not %f: du follows LC_NUMERIC, the format wants a point */
	fprintf(f, "} %llu.%06llu\n", (unsigned long long)(ns / 1000000000),
		(unsigned long long)(ns % 1000000000 / 1000));
	family(f, "scan_timestamp_seconds", "When the scan started, seconds "
	       "since the Unix epoch.");
	series(f, &r->prom, "scan_timestamp_seconds");
	series_end(f, (uint64_t)r->now);
	family(f, "scan_errors", "Problems the scan met: directories or "
	       "inodes it could not read, damage, AGs given up, directories "
	       "gone while it ran.");
	series(f, &r->prom, "scan_errors");
	series_end(f, n->dirs_unreadable + n->bad_inodes + n->damage +
		      n->ag_faults + n->dirs_gone);
}

int
du_prom_write(struct du_run *r, FILE *f)
{
	size_t i;
	int err = 0;

	for (i = 0; !err && i < DU_PROM_OWNERS; i++)
		err = write_owners(f, r, i);
	if (err)
		return err;
	write_dirs(f, &r->prom);
	write_scan(f, r);
	return ferror(f) ? -EIO : 0;
}
