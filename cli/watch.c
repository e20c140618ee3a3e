// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --stats, --stats-file, --progress and --interval of bulkstat and
 * inumbers: sample the counters before the scan, watch it while it runs
 * (the monitor thread, monitor.c: the progress line from the scan's live
 * counters, struct xbulk_scan_live, and every interval a sample of them
 * and of the kernel's) and print the figures after it (report.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "watch.h"

/* A last interval shorter than this is not worth a line. */
#define MIN_LAST_NS	1000000ULL

enum xb_exit
xb_parse_interval(const char *cmd, const char *arg, uint64_t *ns)
{
	char *end;
	double v;

	/* plain decimals only: no sign, exponent, hex, inf or nan */
	errno = 0;
	v = strtod(arg, &end);
	if (!*arg || *end || errno || arg[strspn(arg, "0123456789.")])
		return xb_usage_error(cmd,
			"--interval: '%s' is not a number of seconds", arg);
	if (v < 0.1 || v > 3600)
		return xb_usage_error(cmd,
			"--interval: %s s is out of range (0.1 to 3600)", arg);
	*ns = (uint64_t)(v * 1e9 + 0.5);
	return XB_EXIT_OK;
}

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

static uint64_t
inodes_done(const struct xb_watch *w)
{
	if (w->report.kind == XBULK_KIND_INUMBERS)
		return __atomic_load_n(&w->inodes, __ATOMIC_RELAXED);
	return __atomic_load_n(&w->live.records, __ATOMIC_RELAXED);
}

/* The monitor's progress line. */
static void
line(void *arg, char *buf, size_t size)
{
	const struct xb_watch *w = arg;

	xb_fig_progress(buf, size, inodes_done(w), w->total, "inodes",
			xb_mono_ns() - w->start.mono_ns);
}

/* Close the interval that ends now: keep it and print its line. */
static void
take_interval(void *arg)
{
	struct xb_watch *w = arg;
	struct xb_interval *iv;
	struct xbulk_sample now = { .size = sizeof(now) };
	uint64_t records, inodes, calls, iv_max;

	if (w->ntimeline == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 64;
		void *t = realloc(w->timeline, cap * sizeof(*w->timeline));

		if (!t)
			return;
		w->timeline = t;
		w->cap = cap;
	}
	records = __atomic_load_n(&w->live.records, __ATOMIC_RELAXED);
	calls = __atomic_load_n(&w->live.calls, __ATOMIC_RELAXED);
	iv_max = __atomic_exchange_n(&w->live.max_call_ns, 0,
				     __ATOMIC_RELAXED);
	inodes = inodes_done(w);
	xbulk_stats_sample(w->src, &now);

	iv = &w->timeline[w->ntimeline++];
	iv->delta = (struct xbulk_sample){ .size = sizeof(iv->delta) };
	xbulk_sample_delta(&iv->delta, &w->last, &now);
	iv->t_ns = now.mono_ns - w->start.mono_ns;
	iv->records = records - w->last_records;
	iv->inodes = inodes - w->last_inodes;
	iv->calls = calls - w->last_calls;
	iv->max_call_ns = iv_max;
	w->last = now;
	w->last_records = records;
	w->last_inodes = inodes;
	w->last_calls = calls;

	flockfile(stderr);
	xb_progress_clear();
	xb_report_interval(stderr, &w->report, iv);
	funlockfile(stderr);
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

	w->total = w->progress ? expected_inodes(fs, scan) : 0;
	w->timeline = NULL;
	w->ntimeline = w->cap = 0;
	w->last = w->start;
	w->last_records = w->last_inodes = w->last_calls = 0;
	w->mon = (struct xb_monitor) {
		.cmd = cmd,
		.line = w->progress ? line : NULL,
		.tick = take_interval,
		.interval_ns = w->interval_ns,
		.start_ns = w->start.mono_ns,
		.arg = w,
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
		if (w->interval_ns && (xb_mono_ns() - w->last.mono_ns >=
				       MIN_LAST_NS || !w->ntimeline))
			take_interval(w);
		w->report.timeline = w->timeline;
		w->report.ntimeline = w->ntimeline;
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
	free(w->timeline);
	w->timeline = NULL;
	w->ntimeline = w->cap = 0;
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
