// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What a scan loop does when a call fails: step past one inode the kernel
 * cannot read, give up on the rest of an AG, or stop.
 *
 * xfs_bulkstat() returns the records it formatted before a bad inode
 * without error, with the cursor on the bad inode; the next call then
 * fails without formatting anything.  So when a call fails, the bad inode
 * is the first allocated inode at or after the cursor, which the inobt
 * (inumbers) still tells.  When the inobt cannot tell (it is unreadable,
 * or the kernel's answers break the ioctl's contract: a damaged btree),
 * the rest of that AG is out of reach and the scan goes on with the next.
 */
#include <errno.h>

#include "engine.h"

/*
 * Does @err concern some inodes or one AG's inode btree (the scan can go
 * on elsewhere)?  Corruption, checksum and contract errors do; EIO only if
 * the filesystem's own inode still reads (after a shutdown every call
 * fails with EIO).
 */
static bool
local_error(struct xbulk_fs *fs, int err)
{
	if (err == -EUCLEAN || err == -EBADMSG || err == -EPROTO)
		return true;
	return err == -EIO && xbulk_fs_readable(fs);
}

/*
 * First allocated inode at or after @ino, from the inobt; *@found > @last
 * if there is none up to @last.  Fills @f with the failing call if the
 * inobt cannot tell.  Each inumbers answer is checked to cover or follow
 * its cursor, so @ino only grows.
 */
static int
first_allocated(struct xbulk_fs *fs, const struct xbulk_scan *scan,
		uint64_t ino, uint64_t last, uint64_t *found,
		struct xbulk_ag_fault *f)
{
	struct {
		struct xfs_bulk_ireq	hdr;
		struct xfs_inumbers	rec;
	} req;
	uint64_t bad = 0;
	uint32_t good;
	int ret;

	for (;;) {
		uint64_t mask, off;

		if (xbs_cancelled(scan))
			return -EINTR;
		req.hdr = (struct xfs_bulk_ireq){ .ino = ino, .icount = 1 };
		ret = xbulk_inumbers(fs, (struct xfs_inumbers_req *)&req);
		/* Only the record counts here, not the kernel's cursor */
		if (ret == -EPROTO &&
		    !xbulk_batch_check(&req.hdr, ino, &req.rec, sizeof(req.rec),
				       XBULK_INODES_PER_CHUNK, &good, &bad) &&
		    good == 1)
			ret = 0;
		if (ret) {
			f->call = XBULK_KIND_INUMBERS;
			f->cursor = ino;
			f->ino = ret == -EPROTO ? bad : ino;
			return ret;
		}
		if (req.hdr.ocount == 0)
			return -ENOENT;
		mask = req.rec.xi_allocmask;
		if (ino > req.rec.xi_startino) {
			off = ino - req.rec.xi_startino;
			mask = off >= 64 ? 0 : mask & (~0ULL << off);
		}
		if (mask || req.rec.xi_startino > last) {
			*found = req.rec.xi_startino +
				 (mask ? (uint64_t)__builtin_ctzll(mask) : 0);
			return 0;
		}
		ino = req.rec.xi_startino + XBULK_INODES_PER_CHUNK;
	}
}

/*
 * Put @f on the AG at fault.  A call without XFS_BULK_IREQ_AGNO that finds
 * no more inodes in its cursor's AG runs on into the next AGs, so the
 * inobt that failed may be a later AG's (the kernel returns the records
 * before a failure without error, so the AGs between held none).  Probe
 * each AG up to @last's from the cursor alone: the first that fails is at
 * fault; one that still holds a chunk is, as is the cursor's AG when no
 * probe tells.  Bounded by the AG count, whatever the kernel answers.
 */
static void
locate_fault(struct xbulk_fs *fs, const struct xbulk_scan *scan,
	     struct xbulk_ag_fault *f, uint64_t last)
{
	struct {
		struct xfs_bulk_ireq	hdr;
		struct xfs_inumbers	rec;
	} req;
	uint32_t agno = xbulk_ino_to_agno(fs, f->cursor);
	uint32_t final = xbulk_ino_to_agno(fs, last);
	uint64_t ino = f->cursor;

	f->agno = agno;
	for (; agno <= final && !xbs_cancelled(scan); agno++) {
		if (agno != f->agno)
			ino = xbulk_agino_to_ino(fs, agno, 0);
		req.hdr = (struct xfs_bulk_ireq){
			.ino = ino, .icount = 1,
			.flags = XFS_BULK_IREQ_AGNO, .agno = agno,
		};
		if (xbulk_inumbers(fs, (struct xfs_inumbers_req *)&req)) {
			if (agno != f->agno && f->err != -EPROTO)
				f->ino = ino;
			f->agno = agno;
			f->cursor = ino;
			return;
		}
		if (req.hdr.ocount)
			return;
	}
}

enum xbs_recovery
xbs_recover(struct xbulk_fs *fs, const struct xbulk_scan *scan,
	    struct xbulk_ag_fault *f, uint64_t last, uint64_t *next,
	    uint64_t *nbad)
{
	uint64_t bad;
	int ret;

	if (f->err == -EINTR || !local_error(fs, f->err))
		return XBS_STOP;
	if (f->call == XBULK_KIND_BULKSTAT && f->err != -EPROTO) {
		if (!scan->bad_inode_fn)
			return XBS_STOP;
		ret = first_allocated(fs, scan, f->cursor, last, &bad, f);
		if (ret == 0) {
			if (bad <= last) {
				scan->bad_inode_fn(scan->arg, bad, f->err);
				__atomic_add_fetch(nbad, 1, __ATOMIC_RELAXED);
			}
			*next = bad + 1;
			return XBS_STEPPED;
		}
		/* The inobt knows no inode there: it is at fault, not one */
		if (ret != -ENOENT) {
			f->err = ret;
			if (ret == -EINTR || !local_error(fs, ret))
				return XBS_STOP;
		}
	}
	if (!scan->ag_fault_fn)
		return XBS_STOP;
	locate_fault(fs, scan, f, last);
	*next = xbulk_agino_to_ino(fs, f->agno + 1, 0);
	return XBS_AG_FAULT;
}

void
xbs_ag_fault_note(const struct xbulk_scan *scan, uint8_t *ag_state,
		  uint8_t bits, const struct xbulk_ag_fault *f,
		  uint64_t *count)
{
	if (ag_state && (__atomic_fetch_or(&ag_state[f->agno],
					   bits | XBS_AG_REPORTED,
					   __ATOMIC_RELAXED) & XBS_AG_REPORTED))
		return;
	__atomic_add_fetch(count, 1, __ATOMIC_RELAXED);
	scan->ag_fault_fn(scan->arg, f);
}
