// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The one step of every cursor loop of the scan engine: the serial scan
 * (lib/scan/scan.c), the planner (lib/scan/plan.c) and the parallel
 * engine's units (lib/scan/pscan.c).  A step is a bulkstat or inumbers
 * call at the cursor, the records of its answer the loop may use, and,
 * once the loop has used them, where the cursor goes next: on where the
 * kernel left it, past an inode the kernel cannot read, or past an AG
 * it cannot walk (lib/scan/badinode.c), or nowhere.  The loops differ
 * only in what they do with the records and whether an AG fault ends
 * them (struct xbs_cursor).
 *
 * Each step leaves the cursor past where it was or ends the loop: the
 * kernel's own cursor is taken only from an answer that passed
 * xbulk_batch_check() (lib/ioctl.c returns -EPROTO otherwise), and every
 * recovery moves past the inode or the AG at fault.
 */
#include <errno.h>

#include "engine.h"

/* Raise *@max to @v, lock-free. */
static void
atomic_max(uint64_t *max, uint64_t v)
{
	uint64_t cur = __atomic_load_n(max, __ATOMIC_RELAXED);

	while (v > cur &&
	       !__atomic_compare_exchange_n(max, &cur, v, true,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/*
 * The call, timed when anyone wants it: its latency goes to c->lat (the
 * calling thread's own histograms), to the live maximum of c->live, and
 * is added to *c->call_ns.  The one place where the scan engine calls
 * the kernel for records.
 */
static int
call(struct xbs_cursor *c)
{
	int (*fn)(struct xbulk_fs *, struct xfs_bulk_ireq *) =
		xbs_kinds[c->kind].call;
	uint64_t t0, ns;
	int ret;

	if (!c->lat && !c->live && !c->call_ns)
		return fn(c->fs, c->hdr);
	t0 = xbl_clock_ns(CLOCK_MONOTONIC);
	ret = fn(c->fs, c->hdr);
	ns = xbl_clock_ns(CLOCK_MONOTONIC) - t0;
	if (c->lat) {
		xbs_lat_add(&c->lat->call, ns);
		if (!ret && c->hdr->ocount)
			xbs_lat_add(&c->lat->inode, ns / c->hdr->ocount);
	}
	if (c->live)
		atomic_max(&c->live->max_call_ns, ns);
	if (c->call_ns)
		*c->call_ns += ns;
	return ret;
}

/*
 * The records of the answer a loop may use: all after success, those
 * that keep the contract after -EPROTO (c->f.ino: the key out of place),
 * none after another error (c->f.ino: the cursor).
 */
static uint32_t
answer_good(struct xbs_cursor *c, const void *recs)
{
	const struct xbs_kind_ops *ops = &xbs_kinds[c->kind];
	uint32_t good;

	c->f.ino = c->f.cursor;
	if (c->f.err == 0)
		return c->hdr->ocount;
	if (c->f.err != -EPROTO ||
	    xbulk_batch_check(c->hdr, c->f.cursor, recs, ops->rec_size,
			      ops->span, &good, &c->f.ino))
		return 0;
	return good;
}

uint32_t
xbs_cursor_call(struct xbs_cursor *c)
{
	const void *recs = c->hdr + 1;

	c->f = (struct xbulk_ag_fault){
		.call = c->kind, .cursor = c->hdr->ino,
	};
	c->f.err = call(c);
	c->good = answer_good(c, recs);
	return xbs_count_to(recs, xbs_kinds[c->kind].rec_size, c->good,
			    c->last);
}

enum xbs_cursor_next
xbs_cursor_next(struct xbs_cursor *c, uint32_t used)
{
	uint64_t next;

	/* Past the range (or the loop stopped early): the loop's end */
	if (used < c->good || c->f.err == 0)
		return used < c->good || c->hdr->ocount == 0 ||
		       c->hdr->ino > c->last ? XBS_CURSOR_END :
					       XBS_CURSOR_CALL;
	switch (xbs_recover(c->fs, c->scan, &c->f, c->last, &next,
			    c->nbad)) {
	case XBS_STOP:
		return XBS_CURSOR_STOP;
	case XBS_AG_FAULT:
		xbs_ag_fault_note(c->scan, c->ag_state, c->ag_bits, &c->f,
				  c->ag_faults);
		if (c->ag_fault_ends)
			return XBS_CURSOR_END;
		break;
	case XBS_STEPPED:
		break;
	}
	if (next > c->last)
		return XBS_CURSOR_END;
	c->hdr->ino = next;
	return XBS_CURSOR_CALL;
}
