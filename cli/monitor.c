// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --progress and --interval: a thread that draws a progress line from
 * counters the library keeps (it reads them; the library never prints)
 * and calls --interval's sampling.  It sleeps on a condition variable,
 * so stopping it at the end of a phase wakes it at once.  It writes only
 * to stderr, under stderr's lock, as every message does (xb_error()):
 * a message erases the line first.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>

#include "progress.h"

/* At most 4 progress redraws a second. */
#define DRAW_NS		250000000ULL

/* A progress line is on the screen (under stderr's lock). */
static bool drawn;

uint64_t
xb_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* stderr is line-buffered (xb_process_init): push out a partial line. */
void
xb_progress_clear(void)
{
	if (drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	drawn = false;
}

static void
draw(struct xb_monitor *m)
{
	char text[160];

	m->line(m->arg, text, sizeof(text));
	flockfile(stderr);
	fprintf(stderr, "\r%s: %s\033[K", m->cmd, text);
	fflush(stderr);
	drawn = true;
	funlockfile(stderr);
}

static void
wait_until(struct xb_monitor *m, uint64_t deadline)
{
	struct timespec ts;

	if (deadline == UINT64_MAX) {
		pthread_cond_wait(&m->cond, &m->lock);
		return;
	}
	ts.tv_sec = (time_t)(deadline / 1000000000ULL);
	ts.tv_nsec = (long)(deadline % 1000000000ULL);
	pthread_cond_timedwait(&m->cond, &m->lock, &ts);
}

static void *
monitor_main(void *arg)
{
	struct xb_monitor *m = arg;
	uint64_t interval = m->interval_ns;
	uint64_t next_draw = m->line ? xb_mono_ns() + DRAW_NS : UINT64_MAX;
	uint64_t next_tick = interval ? m->start_ns + interval : UINT64_MAX;
	uint64_t now;

	/* the line at once, even if stopped already: a short run shows it */
	if (m->line)
		draw(m);
	pthread_mutex_lock(&m->lock);
	while (!m->stop) {
		now = xb_mono_ns();
		if (now < next_tick && now < next_draw) {
			wait_until(m, next_tick < next_draw ? next_tick :
							      next_draw);
			continue;
		}
		pthread_mutex_unlock(&m->lock);
		if (now >= next_tick) {
			m->tick(m->arg);
			while (next_tick <= now)
				next_tick += interval;
		}
		if (now >= next_draw) {
			draw(m);
			next_draw = now + DRAW_NS;
		}
		pthread_mutex_lock(&m->lock);
	}
	pthread_mutex_unlock(&m->lock);
	return NULL;
}

int
xb_monitor_start(struct xb_monitor *m)
{
	pthread_condattr_t attr;
	sigset_t all, old;
	int err;

	m->stop = false;
	pthread_mutex_init(&m->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&m->cond, &attr);
	pthread_condattr_destroy(&attr);

	/* Signals (SIGINT, SIGTERM) stay with the working threads. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&m->thread, NULL, monitor_main, m);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		pthread_cond_destroy(&m->cond);
		pthread_mutex_destroy(&m->lock);
		return -err;
	}
	return 0;
}

void
xb_monitor_stop(struct xb_monitor *m)
{
	pthread_mutex_lock(&m->lock);
	m->stop = true;
	pthread_cond_signal(&m->cond);
	pthread_mutex_unlock(&m->lock);
	pthread_join(m->thread, NULL);
	pthread_cond_destroy(&m->cond);
	pthread_mutex_destroy(&m->lock);
	flockfile(stderr);
	xb_progress_clear();
	funlockfile(stderr);
}
