// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --progress and --interval: a thread that watches a running scan through
 * its live counters (struct xbulk_scan_live) and the kernel's counters.
 * It sleeps on a condition variable, so stopping it at the end of the
 * scan wakes it at once.  It writes only to stderr.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "watch.h"

/* At most 4 progress redraws a second. */
#define DRAW_NS		250000000ULL
/* A last interval shorter than this is not worth a line. */
#define MIN_LAST_NS	1000000ULL

static uint64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t
inodes_done(const struct xb_monitor *m)
{
	if (m->inodes)
		return __atomic_load_n(m->inodes, __ATOMIC_RELAXED);
	return __atomic_load_n(&m->live->records, __ATOMIC_RELAXED);
}

/* stderr is line-buffered (xb_process_init): push out a partial line. */
static void
erase_progress(struct xb_monitor *m)
{
	if (m->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	m->drawn = false;
}

static void
draw_progress(struct xb_monitor *m)
{
	xb_report_progress(stderr, m->report->cmd, inodes_done(m), m->total,
			   mono_ns() - m->start.mono_ns);
	fflush(stderr);
	m->drawn = true;
}

/* Close the interval that ends now: keep it and print its line. */
static int
take_interval(struct xb_monitor *m)
{
	const struct xb_report *r = m->report;
	struct xb_interval *iv;
	struct xbulk_sample now = { .size = sizeof(now) };
	uint64_t records, inodes, calls, iv_max;

	if (m->ntimeline == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 64;
		void *t = realloc(m->timeline, cap * sizeof(*m->timeline));

		if (!t)
			return -ENOMEM;
		m->timeline = t;
		m->cap = cap;
	}
	records = __atomic_load_n(&m->live->records, __ATOMIC_RELAXED);
	calls = __atomic_load_n(&m->live->calls, __ATOMIC_RELAXED);
	iv_max = __atomic_exchange_n(&m->live->max_call_ns, 0,
				     __ATOMIC_RELAXED);
	inodes = inodes_done(m);
	xbulk_stats_sample(r->src, &now);

	iv = &m->timeline[m->ntimeline++];
	iv->delta = (struct xbulk_sample){ .size = sizeof(iv->delta) };
	xbulk_sample_delta(&iv->delta, &m->last, &now);
	iv->t_ns = now.mono_ns - m->start.mono_ns;
	iv->records = records - m->last_records;
	iv->inodes = inodes - m->last_inodes;
	iv->calls = calls - m->last_calls;
	iv->max_call_ns = iv_max;
	m->last = now;
	m->last_records = records;
	m->last_inodes = inodes;
	m->last_calls = calls;

	erase_progress(m);
	xb_report_interval(stderr, r, iv);
	return 0;
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
	uint64_t interval = m->report->interval_ns;
	uint64_t next_draw = m->progress ? mono_ns() + DRAW_NS : UINT64_MAX;
	uint64_t next_tick = interval ? m->start.mono_ns + interval :
				 UINT64_MAX;
	uint64_t now;

	pthread_mutex_lock(&m->lock);
	while (!m->stop) {
		wait_until(m, next_tick < next_draw ? next_tick : next_draw);
		if (m->stop)
			break;
		pthread_mutex_unlock(&m->lock);
		now = mono_ns();
		if (now >= next_tick) {
			take_interval(m);
			while (next_tick <= now)
				next_tick += interval;
		}
		if (now >= next_draw) {
			draw_progress(m);
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

	m->timeline = NULL;
	m->ntimeline = m->cap = 0;
	m->stop = m->drawn = false;
	m->last = m->start;
	m->last_records = m->last_inodes = m->last_calls = 0;
	pthread_mutex_init(&m->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&m->cond, &attr);
	pthread_condattr_destroy(&attr);

	/* Signals (SIGINT, SIGTERM) stay with the scanning threads. */
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

	if (m->report->interval_ns &&
	    (mono_ns() - m->last.mono_ns >= MIN_LAST_NS || !m->ntimeline))
		take_interval(m);
	erase_progress(m);
}

void
xb_monitor_free(struct xb_monitor *m)
{
	free(m->timeline);
	m->timeline = NULL;
	m->ntimeline = m->cap = 0;
}

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
