// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Which work unit a free worker of the parallel scan takes next.
 *
 * Looking up an uncached inode takes its AG's AGI buffer lock, so two
 * workers in one AG mostly wait on each other, while workers in different
 * AGs do not: a worker takes the first free unit of an AG no worker is in.
 * When there is none, it may join the AG with the fewest workers rather
 * than wait ("share"), so that threads are never capped at the AG count
 * and a filesystem with its inodes in one AG still gets every thread.
 * Whether sharing pays is measured, not assumed: the kernel time per
 * record of the units done with b workers in their AG ("level" b) gives
 * the AG's records/s at that level; an AG is raised from b to b + 1
 * workers once level b is known, if b + 1 is not known yet (a trial) or
 * has proved to give SHARE_GAIN more records per second.  On these
 * machines sharing pays with inodes cached, barely with them uncached,
 * and loses with real reads or busy CPUs (docs/design.md).
 *
 * With ordered output the writer drains units in inode order from a
 * bounded pool: a worker far ahead of the head fills the pool and then
 * waits.  So while the pool is more than half full ("pressed"), a free
 * worker takes the first free unit it may take, nearest the head.
 */
#include <errno.h>
#include <stdlib.h>

#include "engine.h"

/* Sharing an AG must raise its records/s by this factor at least. */
#define SHARE_GAIN	1.05
/* Records seen at a level before it counts as known. */
#define SHARE_EVIDENCE	2048

/* state[]: UNIT_FREE, UNIT_DONE, or the unit's level (workers in its AG). */
#define UNIT_FREE	0
#define UNIT_DONE	UINT8_MAX

int
xbs_sched_init(struct xbs_sched *s, const struct xbulk_fs *fs,
		 const struct xbs_unit *units, size_t n)
{
	size_t k;

	*s = (struct xbs_sched){ .nunits = n };
	s->agno = calloc(n, sizeof(*s->agno));
	s->state = calloc(n, sizeof(*s->state));
	s->ag_busy = calloc(fs->geom.agcount, sizeof(*s->ag_busy));
	if (!s->agno || !s->state || !s->ag_busy) {
		xbs_sched_free(s);
		return -ENOMEM;
	}
	for (k = 0; k < n; k++)
		s->agno[k] = xbulk_ino_to_agno(fs, units[k].start);
	return 0;
}

void
xbs_sched_free(struct xbs_sched *s)
{
	free(s->agno);
	free(s->state);
	free(s->ag_busy);
	s->agno = NULL;
	s->state = NULL;
	s->ag_busy = NULL;
}

bool
xbs_sched_taken(const struct xbs_sched *s, size_t k)
{
	return s->state[k] != UNIT_FREE;
}

bool
xbs_sched_left(struct xbs_sched *s)
{
	while (s->first_free < s->nunits && s->state[s->first_free] != UNIT_FREE)
		s->first_free++;
	return s->first_free < s->nunits;
}

/*
 * May a worker join an AG that @b workers are in?  Only once the cost
 * per record with @b workers in an AG is known; then if @b + 1 is not
 * known yet (try it), or has proved to give SHARE_GAIN more records/s:
 * b workers give an AG b / cost(b) records per second.
 */
static bool
may_join(const struct xbs_sched *s, unsigned int b)
{
	const struct xbs_sched_level *now, *more;

	if (b + 1 >= XBS_SCHED_LEVELS)
		return false;
	now = &s->level[b];
	more = &s->level[b + 1];
	if (now->recs < SHARE_EVIDENCE)
		return false;
	if (more->recs < SHARE_EVIDENCE)
		return true;
	return (double)(b + 1) * (double)more->recs / (double)more->ns >=
	       SHARE_GAIN * (double)b * (double)now->recs / (double)now->ns;
}

/*
 * Is unit @k right after a running unit of its AG?  That unit's last call
 * can return @k's first records (lib/scan/pscan.c: its planned count includes
 * inodes bulkstat does not report); they are kept only while @k has not
 * started, else the kernel looks them up twice (issue 8, finding 7).  A
 * worker joining an AG takes a unit further on.
 */
static bool
after_running(const struct xbs_sched *s, size_t k)
{
	return k > 0 && s->agno[k - 1] == s->agno[k] &&
	       s->state[k - 1] != UNIT_FREE && s->state[k - 1] != UNIT_DONE;
}

bool
xbs_sched_take(struct xbs_sched *s, size_t head, bool pressed,
	       size_t *k)
{
	size_t i, best = SIZE_MAX, least = SIZE_MAX;
	unsigned int level;

	if (!xbs_sched_left(s))
		return false;
	/* The writer waits for the head: it never waits for a rule. */
	if (s->first_free == head)
		best = head;
	for (i = s->first_free; best == SIZE_MAX && i < s->nunits; i++) {
		unsigned int busy;

		if (s->state[i] != UNIT_FREE)
			continue;
		busy = s->ag_busy[s->agno[i]];
		if (!busy) {
			best = i;
			break;
		}
		if (!may_join(s, busy) || after_running(s, i))
			continue;
		if (pressed) {
			best = i;
			break;
		}
		if (least == SIZE_MAX || busy < s->ag_busy[s->agno[least]])
			least = i;
	}
	if (best == SIZE_MAX)
		best = least;
	if (best == SIZE_MAX)
		return false;
	level = ++s->ag_busy[s->agno[best]];
	s->state[best] = (uint8_t)(level < XBS_SCHED_LEVELS ?
				   level : XBS_SCHED_LEVELS - 1);
	*k = best;
	return true;
}

void
xbs_sched_done(struct xbs_sched *s, size_t k, uint64_t records,
	       uint64_t call_ns)
{
	uint32_t a = s->agno[k];
	unsigned int level = s->state[k];

	/* Its level: the most workers its AG had, when taken or now. */
	if (s->ag_busy[a] > level)
		level = s->ag_busy[a];
	if (level >= XBS_SCHED_LEVELS)
		level = XBS_SCHED_LEVELS - 1;
	s->ag_busy[a]--;
	s->state[k] = UNIT_DONE;
	if (records && call_ns) {
		s->level[level].ns += call_ns;
		s->level[level].recs += records;
	}
}
