// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The scan engine's entry point and its serial loop: walk an inode range
 * in order with one request buffer, handing each batch to the caller, as
 * xfs_io does.  bulkstat and inumbers share it through a table of record
 * layouts.  Several threads: lib/pscan.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "internal.h"

static int
call_bulkstat(struct xbulk_fs *fs, struct xfs_bulk_ireq *hdr)
{
	return xbulk_bulkstat(fs, (struct xfs_bulkstat_req *)hdr);
}

static int
call_inumbers(struct xbulk_fs *fs, struct xfs_bulk_ireq *hdr)
{
	return xbulk_inumbers(fs, (struct xfs_inumbers_req *)hdr);
}

_Static_assert(offsetof(struct xfs_bulkstat, bs_ino) == 0, "bs_ino first");
_Static_assert(offsetof(struct xfs_inumbers, xi_startino) == 0,
	       "xi_startino first");

const struct xbulk_kind_ops xbulk_kinds[] = {
	[XBULK_KIND_BULKSTAT] = { sizeof(struct xfs_bulkstat), call_bulkstat },
	[XBULK_KIND_INUMBERS] = { sizeof(struct xfs_inumbers), call_inumbers },
};

static size_t
req_size(size_t rec_size, uint32_t icount)
{
	return sizeof(struct xfs_bulk_ireq) + (size_t)icount * rec_size;
}

/*
 * Only address space is reserved (MAP_NORESERVE): pages are backed as the
 * kernel fills records, so even -n 4294967295 costs only what the
 * filesystem returns, whatever the machine's memory.
 */
struct xfs_bulk_ireq *
xbulk_req_alloc(size_t rec_size, uint32_t icount)
{
	struct xfs_bulk_ireq *hdr;

	hdr = mmap(NULL, req_size(rec_size, icount), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (hdr == MAP_FAILED)
		return NULL;
	hdr->icount = icount;
	return hdr;
}

void
xbulk_req_free(struct xfs_bulk_ireq *hdr, size_t rec_size, uint32_t icount)
{
	if (hdr)
		munmap(hdr, req_size(rec_size, icount));
}

/* Key of the first record the scan may return: inumbers gives the chunk
 * holding startino. */
static uint64_t
first_key(const struct xbulk_scan *scan)
{
	if (scan->kind == XBULK_KIND_INUMBERS)
		return scan->startino & ~(uint64_t)(XBULK_INODES_PER_CHUNK - 1);
	return scan->startino;
}

void
xbulk_scan_bounds(const struct xbulk_fs *fs, const struct xbulk_scan *scan,
		  uint64_t *first, uint64_t *last)
{
	*first = first_key(scan);
	*last = scan->endino;
	if (scan->has_agno) {
		uint64_t ag_first = xbulk_agino_to_ino(fs, scan->agno, 0);
		uint64_t ag_last = xbulk_agino_to_ino(fs, scan->agno + 1, 0) - 1;

		if (*first < ag_first)
			*first = ag_first;
		if (*last > ag_last)
			*last = ag_last;
	}
}

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
	if (first_key(scan) > scan->endino)
		return 0;
	hdr = xbulk_req_alloc(ops->rec_size, scan->batch);
	if (!hdr || xbulk_out_init(&out, scan->out_fd, XBULK_OUT_BUFSIZE)) {
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
		uint64_t cursor = hdr->ino;
		uint32_t n;

		if (xbulk_cancelled(scan)) {
			fail(res, XBULK_SCAN_CANCELLED, -EINTR);
			break;
		}

		res->calls++;
		xbulk_live_add(scan->live, 0, 1);
		ret = ops->call(fs, hdr);
		if (ret) {
			ret = xbulk_step_past_bad(fs, scan, cursor,
						  scan->endino, ret, &hdr->ino,
						  &res->bad_inodes);
			if (ret) {
				fail(res, XBULK_SCAN_FAIL_IOCTL, ret);
				break;
			}
			if (hdr->ino > scan->endino)
				break;
			continue;
		}
		n = xbulk_count_to(recs, ops->rec_size, hdr->ocount,
				    scan->endino);
		res->records += n;
		xbulk_live_add(scan->live, n, 0);
		ret = scan->batch_fn(scan->arg, &out, hdr, recs, n);
		if (ret) {
			fail(res, XBULK_SCAN_FAIL_BATCH, ret);
			break;
		}
		if (hdr->ocount == 0 || n < hdr->ocount ||
		    hdr->ino > scan->endino)
			break;
	}
	/* Records before a failed ioctl are whole and valid: write them. */
	if (res->fail != XBULK_SCAN_FAIL_OUTPUT && out.len)
		xbulk_out_flush(&out);
	xbulk_out_free(&out);
	xbulk_req_free(hdr, ops->rec_size, scan->batch);
	return res->err;
}

int
xbulk_scan_run(struct xbulk_fs *fs, const struct xbulk_scan *scan,
	       struct xbulk_scan_result *res)
{
	memset(res, 0, sizeof(*res));
	/* As the kernel: no empty batch, no start before the AG scanned */
	if (scan->batch == 0 ||
	    (scan->has_agno && scan->startino &&
	     xbulk_ino_to_agno(fs, scan->startino) < scan->agno)) {
		fail(res, XBULK_SCAN_FAIL_SETUP, -EINVAL);
		return -EINVAL;
	}
	if (scan->threads > 1)
		return xbulk_pscan_run(fs, scan, res);
	return scan_serial(fs, scan, res);
}
