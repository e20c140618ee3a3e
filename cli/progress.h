/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to the command (prefix xb_: CONTRIBUTING.md).
 *
 * --progress: the thread that draws a progress line on stderr and calls
 * --interval's sampling (monitor.c).
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

#endif /* XBULK_CLI_PROGRESS_H */
