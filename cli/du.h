/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to the du command (prefix du_: CONTRIBUTING.md).
 *
 * xbulk du: what its command files share (cli/du.c options and the run,
 * cli/du_out.c what it prints).
 */
#ifndef XBULK_CLI_DU_H
#define XBULK_CLI_DU_H

#include "history.h"
#include "memory.h"
#include "du/agg.h"
#include "du/chart.h"
#include "du/ncdu.h"
#include "du/top.h"
#include "du/treemap.h"
#include "du/units.h"

/* A file du writes besides its lines (cli/du_file.c). */
struct du_file {
	const char		*opt;		/* "--svg": for messages */
	const char		*path;		/* NULL: not asked for */
	mode_t			mode;		/* its permission bits */
	struct xbulk_replace	*tmp;		/* made before the scan, put
						   at path at the end */
	FILE			*out;		/* its stream */
};

/* --prometheus's groupings by owner: uid, gid, projid (cli/du_prom.c). */
#define DU_PROM_OWNERS	3
/* --max-series by default: a dashboard's worth, bounded whatever the
 * filesystem holds */
#define DU_PROM_MAX_SERIES	100

/* --prometheus: the directories of one depth. */
struct du_prom_level {
	struct du_top		top;	/* the largest (--max-series) */
	struct xbulk_du_sum	sum;	/* of them all */
	uint64_t		n;	/* how many */
};

/* --prometheus: what its file says, gathered over du's walk. */
struct du_prom {
	unsigned int		depth;		/* directories down to -d N
						   (default 1) */
	size_t			max_series;	/* --max-series, per grouping */
	char			*mnt;		/* the mount point */
	char			uuid[37];	/* the filesystem's */
	const char		*path;		/* the PATH */
	struct du_agg		agg[DU_PROM_OWNERS];	/* uid, gid, projid */
	struct du_agg_table	tab[DU_PROM_OWNERS];
	struct du_prom_level	*lvl;		/* per depth reached */
	size_t			nlvl;
};

/* Everything the command line asked for and the run keeps. */
struct du_run {
	/* Options */
	bool			help;		/* --help printed: done */
	struct du_units	units;
	bool			nul;		/* -0 */
	bool			all;		/* -a */
	bool			inodes;		/* --inodes */
	bool			total;		/* -c */
	uint64_t		max_depth;	/* -d, -s; UINT64_MAX none */
	bool			depth_given;
	enum xb_format		format;		/* -o */
	bool			by_given;
	enum du_by		by;
	enum xbulk_time		time;
	size_t			top;		/* --top N, 0 none */
	bool			top_dirs;
	struct du_file		svg_file;	/* --svg FILE */
	struct du_file		ncdu_file;	/* --ncdu FILE */
	struct du_file		prom_file;	/* --prometheus FILE */
	char			*ncdu_top;	/* its top: PATH's realpath() */
	char			*svg_title;	/* the PATHs, ", " between */
	unsigned int		svg_depth;
	size_t			chart_lines;	/* --trend --svg --max-series;
						   0: DU_CHART_LINES */
	enum du_color_by	color;
	bool			color_given;	/* --color-by */
	bool			unreachable;
	uint32_t		strategy;	/* --strategy */
	unsigned int		threads;
	struct xb_memory	mem;		/* --memory, --tmpdir */
	struct xb_run_stats	stats;		/* --stats, --stats-file */
	bool			apparent;	/* --apparent-size, -b */
	bool			no_sync;	/* --no-sync */
	bool			count_links;	/* -l */
	bool			separate_dirs;	/* -S */
	int64_t			threshold;	/* -t: print only figures at
						   least this (below -this if
						   negative) */
	char			**exclude;	/* --exclude, -X patterns */
	size_t			nexclude;
	bool			trend;		/* --trend DIR */
	const char		*since;		/* --since OLD */
	size_t			rows;		/* --rows N, 0 all */
	unsigned int		blocklog;	/* of the filesystem */
	int64_t			now;		/* for ages */
	/* The run */
	FILE			*out;
	struct xbulk_du_opts	acct;		/* du_acct_init() */
	bool			fold;		/* the names fold files */
	struct xbulk_names	*names;
	struct xbulk_du		*du;
	struct xbulk_ids	*ids;		/* names of owners, groups,
						   projects: xb_cmd_du()'s */
	struct du_agg	agg;
	struct du_agg_dirs	dirs;
	struct du_agg_table	table;		/* --unreachable --by */
	struct du_top	best;
	struct du_svg	*svg;
	struct du_ncdu	ncdu;		/* .f: --ncdu's export is on */
	struct du_prom		prom;		/* --prometheus's figures */
	struct xbulk_du_sum	lost;		/* --unreachable total */
	bool			failed;		/* exit 1 at the end */
	int			err;		/* first output error */
};

/* --- du_run.c ----------------------------------------------------- */

/* The accounting's options (r->acct), and whether the names may fold the
 * files du prints nothing for (r->fold); before the names are built. */
void du_acct_init(struct du_run *r, int npaths);

/* Walk each of @paths (du's lines, --by, --top, --svg); exit status. */
enum xb_exit du_walks(struct du_run *r, char **paths, int npaths);
/* --unreachable; exit status. */
enum xb_exit du_unreachable(struct du_run *r);
/* Name @path that could not be walked (@err: negative errno), as du. */
void du_path_error(const char *path, int err);

/* --- du_parse.c --------------------------------------------------- */

/* -t's SIZE as du's xstrtoimax() takes it; XB_EXIT_OK or XB_EXIT_USAGE. */
enum xb_exit du_parse_threshold(const char *arg, int64_t *v);
/* Add --exclude's PATTERN, or -X's FILE's lines; XB_EXIT_OK or
 * XB_EXIT_FAILURE. */
enum xb_exit du_add_exclude(struct du_run *r, const char *pattern);
enum xb_exit du_add_exclude_file(struct du_run *r, const char *file);
/* Is @e's path excluded (du: the pattern matches the path or a part of
 * it after a '/')?  The xbulk_du_opts.exclude hook. */
bool du_excluded(void *arg, const struct xbulk_entry *e);
/* Options that cannot go together: XB_EXIT_OK, or XB_EXIT_USAGE after a
 * message. */
enum xb_exit du_check_conflicts(const struct du_run *r);

/* --- du_trend.c --------------------------------------------------- */

/*
 * --trend: print the usage at each summary of the history @dir (xbulk
 * snapshot --keep) per directory down to r->max_depth or per r->by
 * (uid, gid, projid; with their names), each series' recent growth,
 * then the free space and the day it would run out; with --svg, the
 * chart of it into r->svg_file.  XB_EXIT_OK, XB_EXIT_FAILURE (message
 * printed), or the status of a write error.
 */
enum xb_exit du_trend(struct du_run *r, const char *dir);

/* --- du_since.c --------------------------------------------------- */

/*
 * --since @old: what grew from the snapshot file @old to @new (a mount
 * point, scanned now, or a later snapshot file of the same filesystem),
 * per directory down to r->max_depth (default 1), and with r->by (uid,
 * gid, projid) per id in each (default depth 0), largest growth first.  XB_EXIT_OK, XB_EXIT_FAILURE
 * (one line said why: a snapshot missing, damaged, of another
 * filesystem, or newer than @new), or the status of a write error or a
 * signal.
 */
enum xb_exit du_since(struct du_run *r, const char *old, const char *new);

/* --- du_since_svg.c ----------------------------------------------- */

/* OLD's entry of NEW's directory @ino (@d, NULL: NEW has none), if it is
 * the same directory (inode and generation, both reached from the top);
 * else NULL. */
const struct xb_sum_dir *du_since_old(const struct xb_summary *old,
				      uint64_t ino,
				      const struct xb_sum_dir *d);
/*
 * --since --svg: the treemap of @new's directories (sums[1], read from
 * snapshot s[1]) down to r->svg_depth, coloured by their growth since
 * @old (sum[0], s[0]), into r->svg_file.out; the heading "NEW since OLD".
 * 0, -ENOMEM, -EBADMSG (a directory with no path), or the negative errno
 * of writing.
 */
int du_since_svg(struct du_run *r, const char *old, const char *new,
		 const struct xb_summary sum[2], struct xbulk_snap *const s[2]);

/* --- du_since_by.c: one snapshot's sums per directory and id -------- */

struct du_owners {
	enum du_by		by;		/* uid, gid or projid */
	struct xbl_hash		idx;		/* directory inode -> index */
	struct xbl_hash		ino;		/* index -> directory inode */
	struct xbl_hash		own;		/* (index << 32 | id) ->
						   struct xb_sum_row charged
						   to the directory */
	struct xbl_hash		sub;		/* the same, of its subtree
						   (du_owners_subtrees()) */
	int			err;		/* the first -ENOMEM */
};

void du_owners_init(struct du_owners *o, enum du_by by);
/* Count @rec, a record of the snapshot @sum counts too. */
void du_owners_add(struct du_owners *o, const struct xb_summary *sum,
		   const struct xbulk_snap_rec *rec);
/* The subtrees' sums of the directories in the set @want (of their
 * inodes), after xb_summary_subtrees(@sum); 0 or -ENOMEM. */
int du_owners_subtrees(struct du_owners *o, const struct xb_summary *sum,
		       const struct xbl_hash *want);
/* The next (directory, id) subtree sum from *@pos (0 first), or NULL. */
const struct xb_sum_row *du_owners_next(const struct du_owners *o,
					size_t *pos, uint64_t *ino,
					uint32_t *id);
void du_owners_free(struct du_owners *o);

/* --- du_file.c -------------------------------------------------- */

/* Start @f before the scan (nothing if @f->path is NULL): XB_EXIT_OK,
 * XB_EXIT_USAGE on the filesystem of @fs (NULL: no scan, any
 * filesystem), else XB_EXIT_FAILURE; a message for each. */
enum xb_exit du_file_open(struct du_file *f, const struct xbulk_fs *fs);
/* Close @f's stream after writing it (@err: the writing's, 0 or a
 * negative errno): XB_EXIT_OK, or XB_EXIT_FAILURE after a message. */
enum xb_exit du_file_close(struct du_file *f, int err);
/* Put the file at @f->path once du has run through: XB_EXIT_OK, or
 * XB_EXIT_FAILURE after a message. */
enum xb_exit du_file_place(struct du_file *f);
/* Not placed (an error, a signal): the old file stays; NULLs are fine. */
void du_file_abort(struct du_file *f);

/* --- du_prom.c --------------------------------------------------- */

/* Start --prometheus FILE before the scan, for @path on @fs (the mount
 * point, the UUID); exit status, a message for each failure. */
enum xb_exit du_prom_open(struct du_run *r, const struct xbulk_fs *fs,
			  const char *path);
/* Before the walk: the groupings' keys (no allocation). */
void du_prom_init(struct du_run *r);
/* One entry du counted, with its subtree's @sum; 0 or -ENOMEM. */
int du_prom_charge(struct du_prom *p, const struct xbulk_entry *e,
		   const struct xbulk_du_sum *sum);
/* The metrics to @f; 0, or the negative errno of a failed write. */
int du_prom_write(struct du_run *r, FILE *f);
/* Release what the walk gathered, and the mount point. */
void du_prom_free(struct du_prom *p);

/* --- du_out.c ----------------------------------------------------- */

/* The name of --by @by: "uid", "gid", "projid", "type"... */
const char *du_by_name(enum du_by by);
/* The name of @key of @by: the NSS or /etc/projid name, the label
 * (du_agg_label(), of r->agg), or NULL when there is only the number. */
const char *du_key_name(const struct du_run *r, enum du_by by,
			uint64_t key);
/* @s as a CSV field (RFC 4180: quoted when it holds a comma, quote or
 * line break; U+FFFD for bytes that are not UTF-8); true if any were. */
bool du_csv_field(FILE *f, const char *s);
/* One du line: SIZE, TAB, PATH, newline or NUL (or a JSON/CSV row). */
void du_print_line(struct du_run *r, const char *path,
		   const struct xbulk_du_sum *s);
/* The CSV header of the lines or of the --by rows, if -o csv. */
void du_print_header(struct du_run *r);
/* The rows of one --by table, for @path ("total" for -c); 0 or -ENOMEM. */
int du_print_table(struct du_run *r, const char *path,
		   const struct du_agg_table *t);
/* One inode no path reaches (--unreachable). */
void du_print_unreached(struct du_run *r, const struct xfs_bulkstat *bs);

#endif
