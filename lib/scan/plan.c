// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Work units for the parallel scan: one inumbers pass over the range (it
 * walks only the inobt, no inode is read) and a split into contiguous
 * ranges of whole inode chunks holding about the same number of allocated
 * inodes.  Balancing by inodes, not by AG, keeps every thread busy when
 * nearly all inodes sit in one AG.
 */
#include <errno.h>
#include <stdlib.h>

#include "engine.h"

/* Inumbers records fetched per planning call (at most -n). */
#define PLAN_BATCH	4096

struct plan {
	struct xbs_unit	*units;
	size_t			n;
	size_t			alloc;
	struct xbs_unit	cur;	/* the unit being filled */
};

static int
push_unit(struct plan *p, uint64_t end)
{
	if (p->n == p->alloc) {
		size_t alloc = p->alloc ? 2 * p->alloc : 64;
		struct xbs_unit *u = realloc(p->units, alloc * sizeof(*u));

		if (!u)
			return -ENOMEM;
		p->units = u;
		p->alloc = alloc;
	}
	p->cur.end = end;
	p->units[p->n++] = p->cur;
	return 0;
}

/* Allocated inodes of chunk @xi inside [first, last]; their mask. */
static uint64_t
chunk_mask(const struct xfs_inumbers *xi, uint64_t first, uint64_t last)
{
	uint64_t mask = xi->xi_allocmask;

	if (first > xi->xi_startino)
		mask &= first - xi->xi_startino >= 64 ? 0 :
			~0ULL << (first - xi->xi_startino);
	if (last < xi->xi_startino + 63)
		mask &= (2ULL << (last - xi->xi_startino)) - 1;
	return mask;
}

/* Add one chunk to the plan, closing the current unit when it is full. */
static int
add_chunk(struct plan *p, const struct xbulk_fs *fs, enum xbulk_kind kind,
	  const struct xfs_inumbers *xi,
	  uint64_t first, uint64_t last, uint64_t target)
{
	uint64_t mask = chunk_mask(xi, first, last);
	uint64_t count, last_rec;
	int ret;

	if (kind == XBULK_KIND_INUMBERS) {
		/*
		 * One record per chunk, as serially, even when the range
		 * starts inside it; its cursor moves past the chunk's end.
		 */
		count = 1;
		last_rec = xi->xi_startino + XBULK_INODES_PER_CHUNK - 1;
	} else {
		if (!mask)
			return 0;
		count = (uint64_t)__builtin_popcountll(mask);
		last_rec = xi->xi_startino + 63 - (uint64_t)__builtin_clzll(mask);
	}
	/* Close the unit when full, and at an AG's end: one AG per unit */
	if (p->cur.count && xi->xi_startino > p->cur.start &&
	    (p->cur.count + count > target ||
	     xbulk_ino_to_agno(fs, xi->xi_startino) !=
	     xbulk_ino_to_agno(fs, p->cur.start))) {
		ret = push_unit(p, xi->xi_startino - 1);
		if (ret)
			return ret;
		p->cur.start = xi->xi_startino;
		p->cur.count = 0;
	}
	/* An empty unit begins in the AG of its first chunk (the range's
	 * start may lie in an AG with no chunk after it): workers keep to
	 * their unit's AG. */
	if (!p->cur.count && xbulk_ino_to_agno(fs, xi->xi_startino) !=
			     xbulk_ino_to_agno(fs, p->cur.start))
		p->cur.start = xi->xi_startino;
	p->cur.count += count;
	p->cur.last = last_rec;
	return 0;
}

int
xbs_plan_units(struct xbulk_fs *fs, const struct xbulk_scan *scan,
	       uint64_t target, uint8_t *ag_state, uint64_t *ag_faults,
		 struct xbs_unit **units, size_t *nunits, uint64_t *calls)
{
	struct plan p = { 0 };
	struct xfs_inumbers_req *req;
	uint64_t first, last, nbad = 0;
	struct xbs_cursor c = {
		.fs = fs, .scan = scan, .kind = XBULK_KIND_INUMBERS,
		.nbad = &nbad, .ag_state = ag_state, .ag_faults = ag_faults,
	};
	enum xbs_cursor_next next;
	uint32_t i, n;
	int ret = 0;

	*units = NULL;
	*nunits = 0;
	xbs_scan_bounds(fs, scan, &first, &last);
	if (xbs_range_empty(&xbs_kinds[scan->kind], first, last))
		return 0;
	req = xbulk_inumbers_req_alloc(scan->batch < PLAN_BATCH ? scan->batch :
				       PLAN_BATCH, first);
	if (!req)
		return -ENOMEM;
	if (scan->has_agno) {
		req->hdr.flags = XFS_BULK_IREQ_AGNO;
		req->hdr.agno = scan->agno;
	}
	c.hdr = &req->hdr;
	c.last = last;
	p.cur.start = first;
	for (;;) {
		if (xbs_cancelled(scan)) {
			ret = -EINTR;
			break;
		}
		(*calls)++;
		n = xbs_cursor_call(&c);
		for (i = 0; i < n && !ret; i++)
			ret = add_chunk(&p, fs, scan->kind, &req->inumbers[i],
					first, last, target);
		if (ret)
			break;
		/* an AG the inobt cannot walk: planned up to there, on
		 * with the next */
		next = xbs_cursor_next(&c, n);
		if (next == XBS_CURSOR_STOP)
			ret = c.f.err;
		if (next != XBS_CURSOR_CALL)
			break;
	}
	if (!ret && p.cur.count)
		ret = push_unit(&p, last);
	free(req);
	if (ret) {
		free(p.units);
		return ret;
	}
	*units = p.units;
	*nunits = p.n;
	return 0;
}
