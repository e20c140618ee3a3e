// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The scan engine's entry point and its serial loop: walk an inode range
 * in order with one request buffer, handing each batch to the caller, as
 * xfs_io does.  bulkstat and inumbers share it through the table of record
 * layouts in lib/scan/req.c.  Several threads: lib/scan/pscan.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

static void
fail(struct xbulk_scan_result *res, enum xbulk_scan_fail where, int err)
{
	if (res->fail == XBULK_SCAN_OK) {
		res->fail = where;
		res->err = err;
	}
}

/* The serial scan's flush: write to the fd, remember a failure. */
static int
serial_flush(struct xbulk_out *out)
{
	int err = xbl_write_all(out->fd, out->buf, out->len);

	if (err)
		fail(out->priv, XBULK_SCAN_FAIL_OUTPUT, err);
	else
		out->len = 0;
	return err;
}

static int
scan_serial(struct xbulk_fs *fs, const struct xbulk_scan *scan,
	    struct xbulk_scan_result *res)
{
	const struct xbs_kind_ops *ops = &xbs_kinds[scan->kind];
	uint64_t t0 = xbl_clock_ns(CLOCK_MONOTONIC);
	struct xbulk_scan_worker st = { .units = 0 };
	struct xbs_cursor c = {
		.fs = fs, .scan = scan, .kind = scan->kind,
		.last = scan->endino, .live = scan->live, .lat = scan->lat,
		.call_ns = scan->lat ? &st.kernel_ns : NULL,
		.nbad = &res->bad_inodes, .ag_faults = &res->ag_faults,
		/* -a: the AG is the range */
		.ag_fault_ends = scan->has_agno,
	};
	struct xbulk_out out;
	const void *recs;
	int ret;

	res->threads = 1;
	if (xbs_range_empty(ops, scan->startino, scan->endino))
		return 0;
	c.hdr = xbs_req_alloc(ops->rec_size, scan->batch);
	if (!c.hdr || xbl_out_setup(&out, scan->out_fd, XBL_OUT_BUFSIZE)) {
		xbs_req_free(c.hdr, ops->rec_size, scan->batch);
		fail(res, XBULK_SCAN_FAIL_SETUP, -ENOMEM);
		return -ENOMEM;
	}
	out.flush = serial_flush;
	out.priv = res;
	recs = c.hdr + 1;
	c.hdr->ino = scan->startino;
	if (scan->has_agno) {
		c.hdr->flags |= XFS_BULK_IREQ_AGNO;
		c.hdr->agno = scan->agno;
	}
	for (;;) {
		uint32_t n;

		if (xbs_cancelled(scan)) {
			fail(res, XBULK_SCAN_CANCELLED, -EINTR);
			break;
		}
		res->calls++;
		xbs_live_add(scan->live, 0, 1);
		n = xbs_cursor_call(&c);
		if (c.f.err == 0 || c.f.err == -EPROTO) {
			res->records += n;
			xbs_live_add(scan->live, n, 0);
			ret = scan->batch_fn(scan->arg, &out, c.hdr, recs, n);
			if (ret) {
				fail(res, XBULK_SCAN_FAIL_BATCH, ret);
				break;
			}
		}
		switch (xbs_cursor_next(&c, n)) {
		case XBS_CURSOR_CALL:
			continue;
		case XBS_CURSOR_STOP:
			fail(res, c.f.err == -EINTR ? XBULK_SCAN_CANCELLED :
						      XBULK_SCAN_FAIL_IOCTL,
			     c.f.err);
			break;
		case XBS_CURSOR_END:
			break;
		}
		break;
	}
	/* Records before a failed ioctl are whole and valid: write them. */
	if (res->fail != XBULK_SCAN_FAIL_OUTPUT && out.len)
		xbulk_out_flush(&out);
	xbl_out_release(&out);
	xbs_req_free(c.hdr, ops->rec_size, scan->batch);
	if (scan->lat) {
		st.records = res->records;
		st.calls = res->calls;
		st.run_ns = xbl_clock_ns(CLOCK_MONOTONIC) - t0;
		xbs_scan_lat_add_worker(scan->lat, &st);
	}
	return res->err;
}

/* The first version of each sized struct ends with these fields. */
#define SCAN_SIZE_1	XBL_SIZE_TO(struct xbulk_scan, cancel)
#define RESULT_SIZE_1	XBL_SIZE_TO(struct xbulk_scan_result, ag_faults)
#define LIVE_SIZE_1	XBL_SIZE_TO(struct xbulk_scan_live, max_call_ns)

static int
scan_run(struct xbulk_fs *fs, const struct xbulk_scan *scan,
	 struct xbulk_scan_result *res)
{
	/* As the kernel: no empty batch, no start before the AG scanned */
	if (scan->batch == 0 ||
	    (scan->has_agno && scan->startino &&
	     xbulk_ino_to_agno(fs, scan->startino) < scan->agno) ||
	    (scan->live && scan->live->size < LIVE_SIZE_1)) {
		fail(res, XBULK_SCAN_FAIL_SETUP, -EINVAL);
		return -EINVAL;
	}
	if (scan->threads > 1)
		return xbs_pscan_run(fs, scan, res);
	return scan_serial(fs, scan, res);
}

int
xbulk_scan_run(struct xbulk_fs *fs, const struct xbulk_scan *user,
	       struct xbulk_scan_result *ures)
{
	struct xbulk_scan_result res = { .size = sizeof(res) };
	struct xbulk_scan scan;
	int ret;

	if (ures->size < RESULT_SIZE_1)
		return -EINVAL;
	ret = xbl_sized_in(&scan, sizeof(scan), user, SCAN_SIZE_1);
	if (ret)
		fail(&res, XBULK_SCAN_FAIL_SETUP, ret);
	else
		ret = scan_run(fs, &scan, &res);
	xbl_sized_out(ures, &res, sizeof(res), RESULT_SIZE_1);
	return ret;
}
