/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/scan (prefix xbs_: CONTRIBUTING.md).
 *
 * The scan engine's internals, shared by the files of lib/scan/.
 * Layering: scan.c (entry point, serial loop) calls plan.c (planner) and
 * pscan.c (parallel engine); all three step their cursor with cursor.c,
 * which sits on badinode.c; all sit on req.c, and pscan.c on sched.c.
 */
#ifndef XBULK_SCAN_ENGINE_H
#define XBULK_SCAN_ENGINE_H

#include "../base.h"

/* --- latency.c: the histograms behind struct xbulk_lat -------------- */

/*
 * Log-linear buckets of nanoseconds: below 2^SUB_BITS ns one bucket per
 * ns, above it 2^SUB_BITS buckets per power of two (3% resolution), in
 * 15 KiB.
 */
#define XBS_LAT_SUB_BITS	5
#define XBS_LAT_BUCKETS	((64 - XBS_LAT_SUB_BITS + 1) << \
				 XBS_LAT_SUB_BITS)

struct xbulk_lat {
	uint64_t	count;		/* samples */
	uint64_t	sum_ns;
	uint64_t	min_ns;		/* valid when count > 0 */
	uint64_t	max_ns;
	uint64_t	bucket[XBS_LAT_BUCKETS];
};

struct xbulk_scan_lat {
	struct xbulk_lat	call;	/* ns per call */
	struct xbulk_lat	inode;	/* ns per record, one sample a call */
	/* A thread's own figures while it runs (a worker's copy) */
	struct xbulk_scan_worker self;
	/* The scan's threads, added when each ends */
	struct xbulk_scan_worker *workers;
	unsigned int		nworkers;
	uint64_t		writer_wait_ns;
};

/* Add a thread's figures to @lat's list; -ENOMEM. */
int xbs_scan_lat_add_worker(struct xbulk_scan_lat *lat,
			    const struct xbulk_scan_worker *st);
/* Add @src's histograms and its thread's figures (@src->self) to @dst;
 * -ENOMEM (the histograms are added all the same). */
int xbs_scan_lat_merge(struct xbulk_scan_lat *dst,
		       const struct xbulk_scan_lat *src);

/* Add one sample of @ns nanoseconds to @h (no locking: one writer). */
void xbs_lat_add(struct xbulk_lat *h, uint64_t ns);

/* Add every sample of @src to @dst. */
void xbs_lat_merge(struct xbulk_lat *dst, const struct xbulk_lat *src);

/* --- stats.c ---------------------------------------------------- */

/* Where a filesystem's counters are: struct xbulk_stats_src. */
struct xbulk_stats_src {
	struct {
		bool		present;	/* has this device */
		unsigned int	major, minor;
		char		name[64];	/* "loop0", "nvme0n1p2" */
	} dev[XBULK_DEV_NR];
	/* "/sys/fs/xfs/<dev>/stats/stats", or "" if there is none */
	char		xfs_stats[128];
};

/* --- req.c: record layouts, request buffers, a scan's range --- */

/* How one kind of record is fetched and laid out. */
struct xbs_kind_ops {
	size_t	rec_size;	/* bytes per record */
	uint64_t span;		/* inodes a record covers (its key first) */
	int	(*call)(struct xbulk_fs *fs, struct xfs_bulk_ireq *hdr);
};

/* Indexed by enum xbulk_kind. */
extern const struct xbs_kind_ops xbs_kinds[];

/* Inode number of record @i (bs_ino and xi_startino both come first). */
static inline uint64_t
xbs_rec_ino(const void *recs, size_t rec_size, uint32_t i)
{
	return *(const uint64_t *)((const char *)recs + (size_t)i * rec_size);
}

/* Records of a batch at or before inode @last (they come in order). */
uint32_t xbs_count_to(const void *recs, size_t rec_size, uint32_t ocount,
		      uint64_t last);

/* Allocate a request header followed by @icount records of @rec_size
 * (zeroed, backed lazily); NULL if the address space is short. */
struct xfs_bulk_ireq *xbs_req_alloc(size_t rec_size, uint32_t icount);
/* Free it; @icount as allocated. */
void xbs_req_free(struct xfs_bulk_ireq *hdr, size_t rec_size,
		  uint32_t icount);

/*
 * Can no record lie in [@first, @last]?  (An inumbers record is the chunk
 * holding @first, which may begin up to 63 inodes before it.)
 */
bool xbs_range_empty(const struct xbs_kind_ops *ops, uint64_t first,
		     uint64_t last);

/*
 * First inode and last key the scan may emit (AG and -s/-e applied).  An
 * inumbers scan also emits the chunk holding the first inode, which may
 * begin before it (and even after the last key: -s 300 -e 270 prints the
 * chunk 256-319, as xfs_io does).
 */
void xbs_scan_bounds(const struct xbulk_fs *fs,
		     const struct xbulk_scan *scan, uint64_t *first,
		     uint64_t *last);

/* Count @records and @calls in the scan's live counters, if it has any. */
static inline void
xbs_live_add(struct xbulk_scan_live *live, uint64_t records, uint64_t calls)
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
xbs_cancelled(const struct xbulk_scan *scan)
{
	return xbl_cancelled(scan->cancel);
}

/* --- badinode.c: what a loop does when a call fails --------- */

enum xbs_recovery {
	XBS_STEPPED,		/* past an unreadable inode (reported) */
	XBS_AG_FAULT,		/* give up the rest of @f->agno */
	XBS_STOP,		/* end the scan with @f->err */
};

/**
 * xbs_recover() - after a call failed, decide how the scan goes on
 * @f:    in: call, cursor, ino, err of the failed call; out: agno, and the
 *        stepping call's own failure if that failed
 * @last: the last inode the loop may emit
 * @next: out: where to go on (past the bad inode; the next AG's first)
 * @nbad: inodes reported to bad_inode_fn (atomic)
 */
enum xbs_recovery xbs_recover(struct xbulk_fs *fs,
			      const struct xbulk_scan *scan,
			      struct xbulk_ag_fault *f, uint64_t last,
			      uint64_t *next, uint64_t *nbad);

/* Bits of a per-AG state byte. */
#define XBS_AG_REPORTED	1	/* ag_fault_fn called for it */
#define XBS_AG_STOPPED	2	/* no more units in it */

/*
 * Set @bits in AG @f->agno's state byte (@ag_state[], shared by threads)
 * and call ag_fault_fn unless the AG was reported already (@ag_state
 * NULL: report it, as a serial scan meets each AG once).
 */
void xbs_ag_fault_note(const struct xbulk_scan *scan, uint8_t *ag_state,
		       uint8_t bits, const struct xbulk_ag_fault *f,
		       uint64_t *count);

/* --- cursor.c: the one step of every cursor loop ------------- */

/*
 * A loop over one inode range with one request (@hdr followed by its
 * records).  The loop sets the first group of fields, then, for each
 * step, calls xbs_cursor_call(), uses (some of) the records it
 * returns, and asks xbs_cursor_next() where to go.
 */
struct xbs_cursor {
	struct xbulk_fs			*fs;
	const struct xbulk_scan		*scan;	/* cancel, bad_inode_fn,
						   ag_fault_fn */
	enum xbulk_kind			kind;	/* the call */
	struct xfs_bulk_ireq		*hdr;	/* ino: the cursor */
	uint64_t			last;	/* last inode the loop may emit */
	/* Timing of each call (all NULL: none) */
	struct xbulk_scan_live		*live;	/* its max_call_ns */
	struct xbulk_scan_lat		*lat;	/* the thread's histograms */
	uint64_t			*call_ns; /* kernel time, added */
	/* After a failed call */
	uint64_t			*nbad;	/* bad inodes reported (atomic) */
	uint8_t				*ag_state; /* AGs reported, or NULL */
	uint8_t				ag_bits; /* set there on an AG fault */
	uint64_t			*ag_faults; /* AGs reported (atomic) */
	bool				ag_fault_ends; /* the loop's end */
	/* The last call */
	struct xbulk_ag_fault		f;	/* its cursor, error, bad inode */
	uint32_t			good;	/* records fit to use */
};

/*
 * xbs_cursor_call() - call the kernel at the cursor (c->hdr->ino).
 * Return: how many of the records after c->hdr the loop may use: those
 * of the answer that keep the ioctl's contract (all after success, those
 * before the fault after -EPROTO, none after another error: c->f.err),
 * at or before c->last.
 */
uint32_t xbs_cursor_call(struct xbs_cursor *c);

enum xbs_cursor_next {
	XBS_CURSOR_CALL,	/* call again at c->hdr->ino */
	XBS_CURSOR_END,	/* the range is done, or given up (an AG
				   fault reported, with c->ag_fault_ends) */
	XBS_CURSOR_STOP,	/* the scan fails with c->f.err */
};

/*
 * xbs_cursor_next() - after the loop used @used of the records
 * xbs_cursor_call() returned (fewer: it stops there), move the cursor:
 * on where the kernel left it, past a bad inode (reported to
 * bad_inode_fn) or past an AG the kernel cannot walk (reported once
 * through xbs_ag_fault_note()).  Never back: END when the next place
 * lies past c->last.
 */
enum xbs_cursor_next xbs_cursor_next(struct xbs_cursor *c,
				     uint32_t used);

/* --- plan.c: the parallel scan's planner ---------------------- */

/* A work unit of the parallel scan: whole inode chunks. */
struct xbs_unit {
	uint64_t	start;		/* first inode of the range */
	uint64_t	end;		/* last inode of the range */
	uint64_t	last;		/* last allocated inode when planned */
	uint64_t	count;		/* records when planned (inodes for
					   bulkstat, chunks for inumbers) */
};

/**
 * xbs_plan_units() - split the scan's range into units of about
 * @target records by an inumbers pass over it.  Units are contiguous and
 * cover [startino, endino] (or the AG) whole, in inode order.  An AG whose
 * inode btree cannot be walked is reported (xbs_ag_fault_note() on
 * @ag_state, counted in *@ag_faults) and planned up to where it failed.
 * Return: 0 with *@units (free() it) and *@nunits set, or -errno
 * (-EINTR: cancelled).
 */
int xbs_plan_units(struct xbulk_fs *fs, const struct xbulk_scan *scan,
		   uint64_t target, uint8_t *ag_state, uint64_t *ag_faults,
		     struct xbs_unit **units, size_t *nunits,
		   uint64_t *calls);

/* --- sched.c: which unit a free worker takes ---------------- */

/* The parallel scan's scheduler; every call under the caller's lock. */
#define XBS_SCHED_LEVELS	64	/* workers in one AG it tells apart */

struct xbs_sched_level {
	uint64_t	ns;		/* kernel time of the units done */
	uint64_t	recs;		/* with this many workers in their AG */
};

struct xbs_sched {
	uint32_t	*agno;		/* per unit: its AG */
	uint8_t		*state;		/* per unit: free, level, done */
	size_t		nunits;
	size_t		first_free;	/* units before it: none free */
	unsigned int	*ag_busy;	/* per AG: workers in it */
	struct xbs_sched_level level[XBS_SCHED_LEVELS];
};

/* Set up for @n units; 0 or -ENOMEM. */
int xbs_sched_init(struct xbs_sched *s, const struct xbulk_fs *fs,
		     const struct xbs_unit *units, size_t n);
void xbs_sched_free(struct xbs_sched *s);

/* Has unit @k been taken (or given up)? */
bool xbs_sched_taken(const struct xbs_sched *s, size_t k);

/* Are units left to take? */
bool xbs_sched_left(struct xbs_sched *s);

/*
 * The unit a free worker takes now, into *@k: the first free one of an AG
 * no worker is in; else, where one more worker in an AG has paid (or is
 * to be tried), one of the AG with the fewest workers; with @pressed
 * (ordered output filling its pool) the first free one it may take.
 * Unit @head (the one being written) is taken first whatever the rules,
 * so the writer never waits for them.  False: none to take now (wait, or
 * none left).
 */
bool xbs_sched_take(struct xbs_sched *s, size_t head, bool pressed,
		    size_t *k);

/* Unit @k ended after @records in @call_ns of kernel calls. */
void xbs_sched_done(struct xbs_sched *s, size_t k, uint64_t records,
		    uint64_t call_ns);

/* --- pscan.c ------------------------------------------------- */

/* The parallel engine; called by xbulk_scan_run(). */
int xbs_pscan_run(struct xbulk_fs *fs, const struct xbulk_scan *scan,
		  struct xbulk_scan_result *res);

#endif /* XBULK_SCAN_ENGINE_H */
