/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libxbulk internals shared by the scan engine's files.  Layering:
 * lib/scan.c (entry point, serial loop) calls lib/plan.c (planner) and
 * lib/pscan.c (parallel engine); all three sit on lib/req.c and
 * lib/badinode.c.
 */
#ifndef XBULK_INTERNAL_H
#define XBULK_INTERNAL_H

#include <time.h>

#include "xbulk.h"

/* Nanoseconds on clock @id. */
static inline uint64_t
xbulk_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Output buffer size: one write() per this many bytes. */
#define XBULK_OUT_BUFSIZE	(1U << 20)

/* write() all of @buf, retrying short writes and EINTR; 0 or -errno. */
int xbulk_write_all(int fd, const char *buf, size_t len);

/* --- lib/req.c: record layouts, request buffers, a scan's range --- */

/* How one kind of record is fetched and laid out. */
struct xbulk_kind_ops {
	size_t	rec_size;	/* bytes per record */
	int	(*call)(struct xbulk_fs *fs, struct xfs_bulk_ireq *hdr);
};

/* Indexed by enum xbulk_kind. */
extern const struct xbulk_kind_ops xbulk_kinds[];

/* Inode number of record @i (bs_ino and xi_startino both come first). */
static inline uint64_t
xbulk_rec_ino(const void *recs, size_t rec_size, uint32_t i)
{
	return *(const uint64_t *)((const char *)recs + (size_t)i * rec_size);
}

/* Records of a batch at or before inode @last (they come in order). */
uint32_t xbulk_count_to(const void *recs, size_t rec_size, uint32_t ocount,
			uint64_t last);

/* Allocate a request header followed by @icount records of @rec_size
 * (zeroed, backed lazily); NULL if the address space is short. */
struct xfs_bulk_ireq *xbulk_req_alloc(size_t rec_size, uint32_t icount);
/* Free it; @icount as allocated. */
void xbulk_req_free(struct xfs_bulk_ireq *hdr, size_t rec_size,
		    uint32_t icount);

/* Key of the first record the scan may return: inumbers gives the chunk
 * holding startino. */
uint64_t xbulk_scan_first_key(const struct xbulk_scan *scan);

/* First and last key the scan may emit (AG and -s/-e applied). */
void xbulk_scan_bounds(const struct xbulk_fs *fs,
		       const struct xbulk_scan *scan, uint64_t *first,
		       uint64_t *last);

/**
 * xbulk_req_call() - one bulkstat or inumbers call of @scan's kind, timed:
 * its latency goes to @lat (the calling thread's own histograms; NULL:
 * none) and to the live maximum of @scan->live.  The one place where the
 * scan engine calls the kernel for records.
 * Return: what the call returned (0 or -errno).
 */
int xbulk_req_call(struct xbulk_fs *fs, const struct xbulk_scan *scan,
		   struct xbulk_scan_lat *lat, struct xfs_bulk_ireq *hdr);

/* Count @records and @calls in the scan's live counters, if it has any. */
static inline void
xbulk_live_add(struct xbulk_scan_live *live, uint64_t records, uint64_t calls)
{
	if (!live)
		return;
	if (records)
		__atomic_add_fetch(&live->records, records, __ATOMIC_RELAXED);
	if (calls)
		__atomic_add_fetch(&live->calls, calls, __ATOMIC_RELAXED);
}

/* Has the caller asked the scan to stop? */
static inline bool
xbulk_cancelled(const struct xbulk_scan *scan)
{
	return scan->cancel && __atomic_load_n(scan->cancel, __ATOMIC_RELAXED);
}

/* --- lib/badinode.c ---------------------------------------------- */

/**
 * xbulk_step_past_bad() - after a bulkstat call from @cursor failed with
 * @err, find the inode it failed on and report it if it is at or before
 * @last.
 * Return: 0 with *@next set to the inode after the bad one, or @err if
 * this is no single-inode failure (or the scan does not step past them).
 */
int xbulk_step_past_bad(struct xbulk_fs *fs, const struct xbulk_scan *scan,
			uint64_t cursor, uint64_t last, int err,
			uint64_t *next, uint64_t *nbad);

/* --- lib/plan.c: the parallel scan's planner ---------------------- */

/* A work unit of the parallel scan: whole inode chunks. */
struct xbulk_unit {
	uint64_t	start;		/* first inode of the range */
	uint64_t	end;		/* last inode of the range */
	uint64_t	last;		/* last allocated inode when planned */
	uint64_t	count;		/* records when planned (inodes for
					   bulkstat, chunks for inumbers) */
};

/**
 * xbulk_plan_units() - split the scan's range into units of about
 * @target records by an inumbers pass over it.  Units are contiguous and
 * cover [startino, endino] (or the AG) whole, in inode order.
 * Return: 0 with *@units (free() it) and *@nunits set, or -errno.
 */
int xbulk_plan_units(struct xbulk_fs *fs, const struct xbulk_scan *scan,
		     uint64_t target, struct xbulk_unit **units,
		     size_t *nunits, uint64_t *calls);

/* --- lib/pscan.c ------------------------------------------------- */

/* The parallel engine; called by xbulk_scan_run(). */
int xbulk_pscan_run(struct xbulk_fs *fs, const struct xbulk_scan *scan,
		    struct xbulk_scan_result *res);

#endif /* XBULK_INTERNAL_H */
