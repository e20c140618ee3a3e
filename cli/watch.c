// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --stats, --stats-file, --progress and --interval of bulkstat and
 * inumbers: sample the counters before the scan, watch it while it runs
 * (monitor.c) and print the figures after it (report.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "watch.h"

enum xb_exit
xb_watch_option(struct xb_watch *w, const char *cmd, int opt,
		const char *arg)
{
	switch (opt) {
	case XB_OPT_STATS:
	case XB_OPT_STATS_FILE:
		return xb_stats_option(cmd, opt, arg, &w->stats,
				       &w->stats_file);
	case XB_OPT_PROGRESS:
		w->progress = true;
		return XB_EXIT_OK;
	case XB_OPT_INTERVAL:
		return xb_parse_interval(cmd, arg, &w->interval_ns);
	}
	return xb_usage_error(cmd, "unknown option");
}

/* Inodes the scan will visit, for the progress percentage; 0: unknown. */
static uint64_t
expected_inodes(const struct xbulk_fs *fs, const struct xbulk_scan *scan)
{
	uint64_t n = 0;

	if (scan->has_agno) {
		if (scan->startino || scan->endino != UINT64_MAX ||
		    xbulk_used_inodes(fs, scan->agno, &n))
			return 0;
	} else if (scan->startino || scan->endino != UINT64_MAX ||
		   xbulk_used_inodes(fs, XBULK_ALL_AGS, &n)) {
		return 0;
	}
	return n;
}

enum xb_exit
xb_watch_begin(struct xb_watch *w, const char *cmd, const char *path,
	       struct xbulk_fs *fs, struct xbulk_scan *scan)
{
	char why[XB_THREAD_TEXT];
	int err;

	w->mon_running = false;
	w->out = NULL;
	if (w->stats_file && w->stats == XB_STATS_NONE)
		w->stats = XB_STATS_TEXT;
	/*
	 * The progress line is for a person watching a terminal, and
	 * records printed on that same terminal would run through it.
	 */
	if (w->progress && (!isatty(STDERR_FILENO) ||
			    (!w->records_quiet && isatty(STDOUT_FILENO))))
		w->progress = false;
	if (!w->stats && !w->progress && !w->interval_ns)
		return XB_EXIT_OK;

	if (w->stats_file) {
		w->out = fopen(w->stats_file, "we");
		if (!w->out) {
			xb_error(cmd, "--stats-file: %s: %s", w->stats_file,
				 strerror(errno));
			return XB_EXIT_FAILURE;
		}
	}
	err = xbulk_stats_open(fs, &w->src);
	if (err) {
		xb_error(cmd, "%s: %s", path, strerror(-err));
		goto fail;
	}
	w->live = (struct xbulk_scan_live){ .size = sizeof(w->live) };
	w->inodes = 0;
	scan->live = &w->live;
	if (w->stats) {
		if (xbulk_scan_lat_new(&w->lat)) {
			xb_error(cmd, "%s", strerror(ENOMEM));
			goto fail;
		}
		scan->lat = w->lat;
	}
	w->report = (struct xb_report) {
		.cmd = cmd,
		.path = path,
		.kind = scan->kind,
		.batch = scan->batch,
		.src = w->src,
		.lat = w->lat,
		.quiet = w->records_quiet,
		.interval_ns = w->interval_ns,
	};
	w->start = (struct xbulk_sample){ .size = sizeof(w->start) };
	xbulk_stats_sample(w->src, &w->start);
	if (!w->progress && !w->interval_ns)
		return XB_EXIT_OK;

	w->mon = (struct xb_monitor) {
		.report = &w->report,
		.live = &w->live,
		.inodes = scan->kind == XBULK_KIND_INUMBERS ? &w->inodes :
			  NULL,
		.total = w->progress ? expected_inodes(fs, scan) : 0,
		.progress = w->progress,
		.start = w->start,
	};
	err = xb_monitor_start(&w->mon);
	if (err) {
		xb_error(cmd, "the progress monitor: %s",
			 xb_thread_text(err, why, sizeof(why)));
		goto fail;
	}
	w->mon_running = true;
	return XB_EXIT_OK;
fail:
	xbulk_scan_lat_free(w->lat);
	w->lat = NULL;
	scan->lat = NULL;
	xbulk_stats_close(w->src);
	w->src = NULL;
	if (w->out)
		fclose(w->out);
	w->out = NULL;
	return XB_EXIT_FAILURE;
}

int
xb_watch_end(struct xb_watch *w, const struct xbulk_scan_result *res)
{
	struct xbulk_sample end = { .size = sizeof(end) };
	FILE *f = w->out ? w->out : stderr;
	int ret = 0;

	if (!w->stats && !w->mon_running)
		return 0;
	xbulk_stats_sample(w->src, &end);
	if (w->mon_running) {
		xb_monitor_stop(&w->mon);
		w->report.timeline = w->mon.timeline;
		w->report.ntimeline = w->mon.ntimeline;
	}
	if (w->stats) {
		w->report.res = res;
		w->report.inodes = w->report.kind == XBULK_KIND_INUMBERS ?
				   w->inodes : res->records;
		w->report.delta = (struct xbulk_sample){
			.size = sizeof(w->report.delta),
		};
		xbulk_sample_delta(&w->report.delta, &w->start, &end);
		if (w->stats == XB_STATS_JSON)
			xb_report_json(f, &w->report);
		else
			xb_report_text(f, &w->report);
	}
	if (w->mon_running)
		xb_monitor_free(&w->mon);
	w->mon_running = false;
	xbulk_scan_lat_free(w->lat);
	w->lat = NULL;
	xbulk_stats_close(w->src);
	w->src = NULL;
	w->report.src = NULL;
	if (w->out) {
		if (ferror(w->out) | fclose(w->out)) {
			xb_error(w->report.cmd, "--stats-file: %s: %s",
				 w->stats_file, strerror(errno));
			ret = -EIO;
		}
		w->out = NULL;
	} else if (w->stats && (fflush(stderr) || ferror(stderr))) {
		/* No message: stderr is what failed.  The status says it. */
		ret = -EIO;
	}
	return ret;
}
