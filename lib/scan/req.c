// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What every loop of the scan engine shares, below the serial scan
 * (lib/scan/scan.c), the planner (lib/scan/plan.c) and the parallel engine
 * (lib/scan/pscan.c): the record layouts of bulkstat and inumbers, request
 * buffers, and the range of inodes a scan may emit.
 */
#include <errno.h>
#include <stddef.h>
#include <sys/mman.h>

#include "engine.h"

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

const struct xbs_kind_ops xbs_kinds[] = {
	[XBULK_KIND_BULKSTAT] = { sizeof(struct xfs_bulkstat), 1,
				  call_bulkstat },
	[XBULK_KIND_INUMBERS] = { sizeof(struct xfs_inumbers),
				  XBULK_INODES_PER_CHUNK, call_inumbers },
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
xbs_req_alloc(size_t rec_size, uint32_t icount)
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
xbs_req_free(struct xfs_bulk_ireq *hdr, size_t rec_size, uint32_t icount)
{
	if (hdr)
		munmap(hdr, req_size(rec_size, icount));
}

uint32_t
xbs_count_to(const void *recs, size_t rec_size, uint32_t ocount,
	     uint64_t last)
{
	uint32_t n = ocount;

	while (n > 0 && xbs_rec_ino(recs, rec_size, n - 1) > last)
		n--;
	return n;
}

bool
xbs_range_empty(const struct xbs_kind_ops *ops, uint64_t first,
		uint64_t last)
{
	return first > last && first - last >= ops->span;
}

void
xbs_scan_bounds(const struct xbulk_fs *fs, const struct xbulk_scan *scan,
		uint64_t *first, uint64_t *last)
{
	*first = scan->startino;
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
