// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --progress of find, du, snapshot, diff and export: a line drawn by the
 * monitor thread (monitor.c) from the counters the library adds to
 * (struct xbulk_names_progress: the build's phases, walks, snapshot
 * records), and from what the command says it does after the build.
 *
 *	find: scan  48.1% 249.9k/519.3k inodes, 124.1k inodes/s, ETA 0:00:02
 *	find: read  31.0% 3.10k/10.0k dirs, 1.25k dirs/s, ETA 0:00:05, 160k entries
 *	du: walk 1.20M entries, 3.05M entries/s
 *	export:  45.0% 450k/1.00M inodes, 300k inodes/s, ETA 0:00:02
 *
 * Rates and times left are averages since the phase began.  The line is
 * drawn only where stderr is a terminal, and not while the command's own
 * output goes to that terminal.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "progress.h"

static uint64_t
get(const uint64_t *counter)
{
	return __atomic_load_n(counter, __ATOMIC_RELAXED);
}

/* The line of the build's phase @phase. */
static void
build_line(const struct xb_progress *p, uint32_t phase, char *buf,
	   size_t size, uint64_t ns)
{
	char fig[128], b[3][32];

	switch (phase) {
	case XBULK_PHASE_NONE:
	case XBULK_PHASE_SCAN:
		snprintf(buf, size, "scan %s",
			 xb_fig_progress(fig, sizeof(fig), get(&p->c.inodes),
					 p->inodes_total, "inodes", ns));
		return;
	case XBULK_PHASE_READ:
		snprintf(buf, size, "read %s, %s entries",
			 xb_fig_progress(fig, sizeof(fig), get(&p->c.dirs_read),
					 get(&p->c.dirs), "dirs", ns),
			 xb_fig_si(b[0], sizeof(b[0]),
				   (double)get(&p->c.entries)));
		return;
	default:	/* LINK, and BUILT before the command goes on */
		snprintf(buf, size, "link %s inodes, %s dirs, %s entries",
			 xb_fig_si(b[0], sizeof(b[0]),
				   (double)get(&p->c.inodes)),
			 xb_fig_si(b[1], sizeof(b[1]),
				   (double)get(&p->c.dirs_read)),
			 xb_fig_si(b[2], sizeof(b[2]),
				   (double)get(&p->c.entries)));
	}
}

/* The monitor's line callback. */
static void
line(void *arg, char *buf, size_t size)
{
	struct xb_progress *p = arg;
	const char *stage = __atomic_load_n(&p->stage, __ATOMIC_ACQUIRE);
	uint32_t phase = __atomic_load_n(&p->c.phase, __ATOMIC_RELAXED);
	/* a stage after the build is shown as phase 256 and up */
	uint64_t shown = stage ? 256 : phase, now = xb_mono_ns();
	char fig[128];

	/* it began after the last redraw: since then, at the latest */
	if (shown != p->shown) {
		p->shown = shown;
		p->since_ns = p->drawn_ns ? p->drawn_ns : now;
	}
	p->drawn_ns = now;
	if (!stage) {
		build_line(p, phase, buf, size, now - p->since_ns);
		return;
	}
	snprintf(buf, size, "%s %s", stage,
		 xb_fig_progress(fig, sizeof(fig),
				 get(p->stage_done) - p->stage_base,
				 p->stage_total, p->stage_unit,
				 now - p->since_ns));
}

/* Start the line of @cmd, if --progress asks for one and stderr is a
 * terminal; a thread that cannot be made only costs the line. */
static void
start(struct xb_progress *p, const char *cmd)
{
	char why[XB_THREAD_TEXT];
	int err;

	if (p->running || !isatty(STDERR_FILENO))
		return;
	p->c = (struct xbulk_names_progress){ .size = sizeof(p->c) };
	p->shown = UINT64_MAX;
	p->drawn_ns = 0;
	p->mon = (struct xb_monitor){
		.cmd = cmd, .line = line, .arg = p,
	};
	err = xb_monitor_start(&p->mon);
	if (err) {
		xb_error(cmd, "--progress: %s; going on without it",
			 xb_thread_text(err, why, sizeof(why)));
		p->want = false;
		return;
	}
	p->running = true;
}

struct xbulk_names_progress *
xb_progress_build(struct xb_progress *p, const char *cmd,
		  const struct xbulk_fs *fs)
{
	if (!p->want)
		return NULL;
	/* the filesystem's internal inodes are in it, never in the scan */
	if (xbulk_used_inodes(fs, XBULK_ALL_AGS, &p->inodes_total))
		p->inodes_total = 0;
	start(p, cmd);
	return p->running ? &p->c : NULL;
}

struct xbulk_names_progress *
xb_progress_stage(struct xb_progress *p, const char *cmd, const char *stage,
		  uint64_t total, bool output)
{
	/* output on the terminal would run through the line */
	if (output && isatty(STDOUT_FILENO)) {
		xb_progress_end(p);
		return NULL;
	}
	if (!p->want)
		return NULL;
	p->stage_done = strcmp(stage, "walk") ? &p->c.records : &p->c.walked;
	p->stage_unit = strcmp(stage, "walk") ? "inodes" : "entries";
	p->stage_total = total;
	p->stage_base = get(p->stage_done);
	__atomic_store_n(&p->stage, stage, __ATOMIC_RELEASE);
	start(p, cmd);
	return p->running ? &p->c : NULL;
}

void
xb_progress_end(struct xb_progress *p)
{
	if (!p->running)
		return;
	xb_monitor_stop(&p->mon);
	p->running = false;
	p->want = false;	/* not again, after its output began */
}
