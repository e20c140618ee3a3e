/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to the command (prefix xb_: CONTRIBUTING.md).
 *
 * The measurements around a scan of bulkstat and inumbers: --stats and
 * --interval lines (report.c), and what holds them together with the
 * progress thread (progress.h) and samples each interval (watch.c).
 */
#ifndef XBULK_CLI_WATCH_H
#define XBULK_CLI_WATCH_H

#include "memory.h"
#include "progress.h"

/* --- report.c: --stats and --interval lines ---------------------- */

/* One --interval: what the scan did and the counters did in it. */
struct xb_interval {
	uint64_t		t_ns;		/* end, since the scan began */
	uint64_t		records;	/* records in the interval */
	uint64_t		inodes;		/* inodes in the interval */
	uint64_t		calls;		/* ioctls in the interval */
	uint64_t		max_call_ns;	/* its longest ioctl */
	struct xbulk_sample	delta;		/* counters (mono_ns: length) */
};

/* Everything --stats prints about one scan. */
struct xb_report {
	const char			*cmd;		/* "bulkstat" */
	const char			*path;
	enum xbulk_kind			kind;
	uint32_t			batch;
	const struct xbulk_scan_result	*res;
	const struct xbulk_scan_lat	*lat;		/* ioctl latencies */
	uint64_t			inodes;		/* inodes scanned */
	bool				quiet;		/* no records written */
	const struct xbulk_stats_src	*src;
	struct xbulk_sample		delta;		/* the whole scan */
	uint64_t			interval_ns;	/* 0: no --interval */
	const struct xb_interval	*timeline;
	size_t				ntimeline;
};

/* The --stats=text report (several lines). */
void xb_report_text(FILE *f, const struct xb_report *r);
/* The --stats=json report: one JSON object (docs/formats.md). */
void xb_report_json(FILE *f, const struct xb_report *r);
/* One --interval line. */
void xb_report_interval(FILE *f, const struct xb_report *r,
			const struct xb_interval *iv);
/* --- watch.c: --stats, --stats-file, --progress, --interval ------ */

/* Parse --interval's SECONDS (0.1 to 3600, decimals allowed) into ns;
 * XB_EXIT_OK or XB_EXIT_USAGE. */
enum xb_exit xb_parse_interval(const char *cmd, const char *arg,
			       uint64_t *ns);

/* getopt_long code of the long-only option of its own (--stats,
 * --stats-file and --progress: memory.h's, shared with the other
 * commands). */
enum {
	XB_OPT_INTERVAL = 256,	/* --interval SECONDS */
};

#define XB_WATCH_LONGOPTS						\
	XB_STATS_LONGOPTS,						\
	{ "interval", required_argument, NULL, XB_OPT_INTERVAL }

/* The --help lines of the XB_OPT_* options. */
#define XB_WATCH_HELP							\
"   --stats[=text|json]\n"						\
"              After the scan, print its figures on stderr: inodes, wall\n" \
"              time, inodes/s, CPU, peak RSS, reads of the block devices\n" \
"              (IOPS, MB/s), inode cache hits and misses, memory reclaim.\n" \
"   --stats-file <file>\n"						\
"              Write the --stats figures to this file (implies --stats).\n" \
"   --progress Show a progress line on stderr (only on a terminal).\n"	\
"   --interval <seconds>\n"						\
"              Print a timestamped line of figures on stderr every\n"	\
"              interval (0.1 to 3600; also in --stats=json's timeline).\n"

/* What to watch of a scan; zero-initialised means nothing. */
struct xb_watch {
	/* From the command line. */
	enum xb_stats		stats;
	const char		*stats_file;	/* NULL: stderr */
	bool			progress;
	uint64_t		interval_ns;
	/* From the command: no record goes to stdout (-q). */
	bool			records_quiet;
	/* Kept while the scan runs. */
	uint64_t		inodes;		/* inumbers: inodes seen */
	struct xbulk_scan_live	live;
	struct xbulk_scan_lat	*lat;		/* with --stats */
	struct xbulk_stats_src	*src;
	struct xbulk_sample	start;
	struct xb_report	report;
	struct xb_monitor	mon;
	bool			mon_running;
	uint64_t		total;		/* inodes to do, 0 if
						   unknown */
	/* --interval's, kept by the monitor's thread */
	struct xb_interval	*timeline;
	size_t			ntimeline, cap;
	struct xbulk_sample	last;
	uint64_t		last_records, last_inodes, last_calls;
	FILE			*out;
};

/* Take one of the XB_OPT_* options; XB_EXIT_OK or XB_EXIT_USAGE. */
enum xb_exit xb_watch_option(struct xb_watch *w, const char *cmd, int opt,
			     const char *arg);
/*
 * Before the scan: open --stats-file, find the counters, take the first
 * sample, set @scan->live and start the monitor.  XB_EXIT_OK, or
 * XB_EXIT_FAILURE with the message printed.
 */
enum xb_exit xb_watch_begin(struct xb_watch *w, const char *cmd,
			    const char *path, struct xbulk_fs *fs,
			    struct xbulk_scan *scan);
/*
 * After the scan: stop the monitor and print --stats.  Returns 0 or
 * -EIO if the stats file could not be written (message printed).
 */
int xb_watch_end(struct xb_watch *w, const struct xbulk_scan_result *res);

#endif /* XBULK_CLI_WATCH_H */
