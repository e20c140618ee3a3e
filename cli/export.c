// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk export (--sqlite DB | --csv DIR) SNAP: a snapshot as tables, one
 * row per inode and one per directory entry (with its path), for SQLite
 * (cli/export_sqlite.c) or as CSV files for DuckDB, Spark and the like
 * (cli/export_csv.c).  The schema: docs/formats.md, "Snapshot tables".
 * Both write unnamed files put in place when whole (xbulk/replace.h).
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>

#include "export.h"

static const char help[] =
"Usage: xbulk export (--sqlite <db> | --csv <dir>) [--stats[=text|json]]\n"
"                    [--stats-file <file>] [--progress] SNAPSHOT\n"
"\n"
"Write the snapshot SNAPSHOT (made by 'xbulk snapshot') as tables: one\n"
"row per inode, one per directory entry with its path (schema:\n"
"docs/formats.md).\n"
"\n"
"   --sqlite <db>\n"
"              A SQLite database with the tables fs, inodes and entries,\n"
"              indexed on inode and path.\n"
"   --csv <dir>\n"
"              inodes.csv and entries.csv in this directory, which\n"
"              must exist, every row with the filesystem's UUID.\n"
XB_STATS_HELP
"              (export: the rows and bytes written, peak RSS, times.)\n"
XB_PROGRESS_HELP
"   -h, --help Show this help.\n"
"\n"
"Exit status: 0 written, 2 trouble (nothing written).\n";

enum { OPT_SQLITE = 256, OPT_CSV };

static const struct option longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "sqlite", required_argument, NULL, OPT_SQLITE },
	{ "csv", required_argument, NULL, OPT_CSV },
	XB_STATS_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

/* Bytes of the file @dir/@name (@name NULL: @dir itself), 0 if none. */
static uint64_t
file_bytes(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	if (!name)
		snprintf(path, sizeof(path), "%s", dir);
	else
		snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) ? 0 : (uint64_t)st.st_size;
}

enum xb_exit
xb_cmd_export(int argc, char **argv)
{
	const char *db = NULL, *dir = NULL;
	struct xb_run_stats stats = { .stats = XB_STATS_NONE };
	const struct xbulk_snap_info *info;
	const volatile int *cancel;
	struct xbulk_snap *s;
	enum xb_exit ret;
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			return xb_snap_help("export", help);
		case OPT_SQLITE: db = optarg; break;
		case OPT_CSV: dir = optarg; break;
		case XB_OPT_STATS:
		case XB_OPT_STATS_FILE:
		case XB_OPT_PROGRESS:
			ret = xb_run_stats_option(&stats, "export", c, optarg);
			if (ret)
				return ret;
			break;
		default: return xb_snap_option("export", c, argv);
		}
	}
	if (!db == !dir)
		return xb_usage_error("export", "needs one of --sqlite and "
				      "--csv");
	if (argc - optind != 1)
		return xb_usage_error("export", argc - optind < 1 ?
				      "needs SNAPSHOT" : "too many arguments");
	/* "" is no directory (not "/", where "%s/inodes.csv" would lead) */
	if ((db && !*db) || (dir && !*dir))
		return xb_usage_error("export", "%s: empty name",
				      db ? "--sqlite" : "--csv");
	ret = xb_snap_open("export", argv[optind], &s);
	if (ret)
		return ret;
	if (xb_run_stats_begin(&stats, "export", argv[optind])) {
		xbulk_snap_close(s);
		return XB_EXIT_TROUBLE;
	}
	cancel = xb_catch_signals();
	xbulk_snap_progress(s, xb_progress_stage(&stats.progress, "export",
						 "write",
						 xbulk_snap_info(s)->inodes,
						 false));
	ret = db ? xb_export_sqlite(s, db, cancel) :
		   xb_export_csv(s, dir, cancel);
	/* the snapshot was damaged (the writers said nothing): where */
	if (ret && !*cancel && xbulk_snap_error(s))
		xb_error("export", "%s: %s; nothing written", argv[optind],
			 xbulk_snap_error(s));
	if (*cancel)
		ret = xb_signal_exit_status();
	/* what was put in place: the snapshot's inodes and entries, the
	 * files' bytes */
	info = xbulk_snap_info(s);
	stats.completed = !ret;
	stats.has_export = true;
	stats.records = ret ? 0 : info->inodes;
	stats.links = ret ? 0 : info->links;
	stats.written_bytes = ret ? 0 : db ? file_bytes(db, NULL) :
				  file_bytes(dir, "inodes.csv") +
				  file_bytes(dir, "entries.csv");
	if (xb_run_stats_end(&stats) && !ret)
		ret = XB_EXIT_TROUBLE;
	xbulk_snap_close(s);
	return ret;
}
