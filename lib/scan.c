// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The scan engine's serial loop: walk an inode range in order with one
 * request buffer, handing each batch to the caller.  bulkstat and inumbers
 * share it through a small table of record layouts.
 */
#include <errno.h>
#include <stdlib.h>

#include "xbulk.h"

struct kind_ops {
	size_t	rec_size;	/* bytes per record */
	int	(*call)(struct xbulk_fs *fs, struct xfs_bulk_ireq *hdr);
};

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

/* Both record types start with their inode number (bs_ino, xi_startino) */
_Static_assert(offsetof(struct xfs_bulkstat, bs_ino) == 0, "bs_ino first");
_Static_assert(offsetof(struct xfs_inumbers, xi_startino) == 0,
	       "xi_startino first");

static const struct kind_ops kinds[] = {
	[XBULK_KIND_BULKSTAT] = { sizeof(struct xfs_bulkstat), call_bulkstat },
	[XBULK_KIND_INUMBERS] = { sizeof(struct xfs_inumbers), call_inumbers },
};

/* Records of the batch at or before @endino (they come in inode order). */
static uint32_t
count_to_endino(const char *recs, size_t rec_size, uint32_t ocount,
		uint64_t endino)
{
	uint32_t n = ocount;

	while (n > 0 && *(const uint64_t *)(recs + (n - 1) * rec_size) > endino)
		n--;
	return n;
}

int
xbulk_scan_run(struct xbulk_fs *fs, const struct xbulk_scan *scan)
{
	const struct kind_ops *ops = &kinds[scan->kind];
	struct xfs_bulk_ireq *hdr;
	const char *recs;
	int ret;

	if (scan->batch == 0)
		return -EINVAL;
	if (scan->startino > scan->endino)
		return 0;
	hdr = calloc(1, sizeof(*hdr) + (size_t)scan->batch * ops->rec_size);
	if (!hdr)
		return -ENOMEM;
	recs = (const char *)(hdr + 1);
	hdr->ino = scan->startino;
	hdr->icount = scan->batch;
	if (scan->has_agno) {
		hdr->flags |= XFS_BULK_IREQ_AGNO;
		hdr->agno = scan->agno;
	}
	for (;;) {
		uint32_t n;

		ret = ops->call(fs, hdr);
		if (ret)
			break;
		n = count_to_endino(recs, ops->rec_size, hdr->ocount,
				    scan->endino);
		ret = scan->batch_fn(scan->arg, hdr, recs, n);
		if (ret || hdr->ocount == 0 || n < hdr->ocount ||
		    hdr->ino > scan->endino)
			break;
	}
	free(hdr);
	return ret;
}
