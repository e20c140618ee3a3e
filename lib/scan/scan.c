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
	int err = xbulk_write_all(out->fd, out->buf, out->len);

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
	const struct xbulk_kind_ops *ops = &xbulk_kinds[scan->kind];
	struct xbulk_out out;
	struct xfs_bulk_ireq *hdr;
	const void *recs;
	int ret;

	res->threads = 1;
	if (xbulk_range_empty(ops, scan->startino, scan->endino))
		return 0;
	hdr = xbulk_req_alloc(ops->rec_size, scan->batch);
	if (!hdr || xbulk_out_setup(&out, scan->out_fd, XBULK_OUT_BUFSIZE)) {
		xbulk_req_free(hdr, ops->rec_size, scan->batch);
		fail(res, XBULK_SCAN_FAIL_SETUP, -ENOMEM);
		return -ENOMEM;
	}
	out.flush = serial_flush;
	out.priv = res;
	recs = hdr + 1;
	hdr->ino = scan->startino;
	if (scan->has_agno) {
		hdr->flags |= XFS_BULK_IREQ_AGNO;
		hdr->agno = scan->agno;
	}
	for (;;) {
		uint64_t cursor = hdr->ino, next;
		struct xbulk_ag_fault f;
		uint32_t good, n;

		if (xbulk_cancelled(scan)) {
			fail(res, XBULK_SCAN_CANCELLED, -EINTR);
			break;
		}

		res->calls++;
		xbulk_live_add(scan->live, 0, 1);
		ret = xbulk_req_call(fs, scan, scan->lat, hdr, NULL);
		f = (struct xbulk_ag_fault){ .call = scan->kind,
					     .cursor = cursor, .err = ret };
		good = xbulk_answer_good(ops, hdr, recs, cursor, ret, &f.ino);
		n = xbulk_count_to(recs, ops->rec_size, good, scan->endino);
		if (ret == 0 || ret == -EPROTO) {
			res->records += n;
			xbulk_live_add(scan->live, n, 0);
			ret = scan->batch_fn(scan->arg, &out, hdr, recs, n);
			if (ret) {
				fail(res, XBULK_SCAN_FAIL_BATCH, ret);
				break;
			}
		}
		/* Past the range: whatever follows is none of our business */
		if (n < good || f.err == 0) {
			if (n < good || hdr->ocount == 0 ||
			    hdr->ino > scan->endino)
				break;
			continue;
		}
		switch (xbulk_recover(fs, scan, &f, scan->endino, &next,
				      &res->bad_inodes)) {
		case XBULK_STEPPED:
			break;
		case XBULK_AG_FAULT:
			res->ag_faults++;
			scan->ag_fault_fn(scan->arg, &f);
			if (scan->has_agno)
				goto out;
			break;
		case XBULK_STOP:
			fail(res, f.err == -EINTR ? XBULK_SCAN_CANCELLED :
						    XBULK_SCAN_FAIL_IOCTL, f.err);
			goto out;
		}
		/* Every step leaves the cursor past where it was */
		if (next > scan->endino)
			break;
		hdr->ino = next;
	}
out:
	/* Records before a failed ioctl are whole and valid: write them. */
	if (res->fail != XBULK_SCAN_FAIL_OUTPUT && out.len)
		xbulk_out_flush(&out);
	xbulk_out_release(&out);
	xbulk_req_free(hdr, ops->rec_size, scan->batch);
	return res->err;
}

/* The first version of each sized struct ends with these fields. */
#define SCAN_SIZE_1	XBULK_SIZE_TO(struct xbulk_scan, cancel)
#define RESULT_SIZE_1	XBULK_SIZE_TO(struct xbulk_scan_result, ag_faults)
#define LIVE_SIZE_1	XBULK_SIZE_TO(struct xbulk_scan_live, max_call_ns)

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
		return xbulk_pscan_run(fs, scan, res);
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
	ret = xbulk_sized_in(&scan, sizeof(scan), user, SCAN_SIZE_1);
	if (ret)
		fail(&res, XBULK_SCAN_FAIL_SETUP, ret);
	else
		ret = scan_run(fs, &scan, &res);
	xbulk_sized_out(ures, &res, sizeof(res), RESULT_SIZE_1);
	return ret;
}
