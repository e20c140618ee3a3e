/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to the command (prefix xb_: CONTRIBUTING.md).
 *
 * --progress: the thread that draws a progress line on stderr and calls
 * --interval's sampling (monitor.c, for every command), and the line of
 * the commands that join names to inodes and of export, read from the
 * library's counters (progress.c).
 */
#ifndef XBULK_CLI_PROGRESS_H
#define XBULK_CLI_PROGRESS_H

#include <pthread.h>

#include "cli.h"

/* --- monitor.c: the thread ----------------------------------------- */

/*
 * A thread that draws "CMD: TEXT" on stderr at once and then at most 4
 * times a second, each time over the last ("\r", erased to the end of
 * the line), and every interval calls @tick.  It sleeps on a condition
 * variable, so stopping it wakes it at once; it never writes to stdout,
 * and it takes no signal.
 */
struct xb_monitor {
	/* Set before xb_monitor_start(). */
	const char	*cmd;
	/* The line's TEXT into @buf (NULL: no line). */
	void		(*line)(void *arg, char *buf, size_t size);
	/* Every @interval_ns from @start_ns (0: never), on the thread. */
	void		(*tick)(void *arg);
	uint64_t	interval_ns;
	uint64_t	start_ns;	/* CLOCK_MONOTONIC */
	void		*arg;		/* for line and tick */
	/* Internal. */
	pthread_t	thread;
	pthread_mutex_t	lock;
	pthread_cond_t	cond;
	bool		stop;
};

/* Start the thread; returns 0 or a negative errno. */
int xb_monitor_start(struct xb_monitor *m);
/* Stop it (promptly: it is woken) and erase its line. */
void xb_monitor_stop(struct xb_monitor *m);
/*
 * Erase the progress line if one is on the screen; with stderr locked
 * (flockfile()), before anything else is written to it (messages,
 * --interval lines), so that nothing runs into the line.  It is drawn
 * again at the next redraw.
 */
void xb_progress_clear(void);
/* CLOCK_MONOTONIC, ns. */
uint64_t xb_mono_ns(void);

/* --- progress.c: find, du, snapshot, diff, export ----------------- */

/*
 * --progress of one run: the library's counters and what the command
 * does after the names build.  Zero-initialised: no --progress.
 */
struct xb_progress {
	bool			want;		/* --progress */
	/* What the line reads (the thread reads, the command writes). */
	struct xbulk_names_progress c;		/* the library's */
	uint64_t		inodes_total;	/* the scan's: used inodes */
	const char		*stage;		/* after the build: "walk",
						   "write"...; NULL: the
						   build's phases */
	const uint64_t		*stage_done;	/* c.walked or c.records */
	const char		*stage_unit;
	uint64_t		stage_total;	/* 0: unknown */
	uint64_t		stage_base;	/* *stage_done before it */
	/* The line's own. */
	uint64_t		shown;		/* phase or stage shown */
	uint64_t		since_ns;	/* ... since then */
	uint64_t		drawn_ns;	/* the last redraw */
	struct xb_monitor	mon;
	bool			running;
};

/*
 * The names build of @fs begins: start the line (with --progress, when
 * stderr is a terminal), its total for the scan the used inodes of
 * @fs.  Returns the counters for xbulk_names_opts.progress or
 * xbulk_snap_scan_opts.progress; NULL: no line.
 */
struct xbulk_names_progress *xb_progress_build(struct xb_progress *p,
					       const char *cmd,
					       const struct xbulk_fs *fs);
/*
 * The command goes on with @stage (once): "walk" (xbulk_names_walk()),
 * else reading the records of snapshots, @total of them (0: unknown);
 * the line starts here if no build ran.  @output: it writes to stdout, so that where stdout is a
 * terminal too the line ends here instead.  Returns the counters for
 * xbulk_snap_progress(); NULL: no line.
 */
struct xbulk_names_progress *xb_progress_stage(struct xb_progress *p,
					       const char *cmd,
					       const char *stage,
					       uint64_t total, bool output);
/* End the line (erased); again is fine. */
void xb_progress_end(struct xb_progress *p);

#endif /* XBULK_CLI_PROGRESS_H */
