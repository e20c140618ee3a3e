/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libxbulk: the scan engine: serial and parallel ordered scans, ioctl latencies (lib/scan/).
 * Part of <xbulk.h>: include that.
 */
#ifndef XBULK_SCAN_H
#define XBULK_SCAN_H

#include "xbulk/fs.h"
#include "xbulk/out.h"

#pragma GCC visibility push(default)

/* ------------------------------------------------------------------ */
/* Scan engine (lib/scan/scan.c)                                            */
/* ------------------------------------------------------------------ */

enum xbulk_kind {
	XBULK_KIND_BULKSTAT,
	XBULK_KIND_INUMBERS,
};

/*
 * Called after every ioctl of a scan, the last empty one included.
 * @out:    where to append the batch's output (xbulk_out_room())
 * @hdr:    the request header as the kernel left it (cursor, ocount)
 * @recs:   struct xfs_bulkstat[] or struct xfs_inumbers[]
 * @nrecs:  records to emit: those of the batch inside the scan's range
 * Return 0 to go on, or a negative errno to stop the scan with it.
 * With several threads it is called from all of them at once, each with
 * its own @out: it must not touch shared state without locking.
 */
typedef int (*xbulk_batch_fn)(void *arg, struct xbulk_out *out,
			      const struct xfs_bulk_ireq *hdr,
			      const void *recs, uint32_t nrecs);

/*
 * Called for each inode the kernel could not read (@err: -EUCLEAN for a
 * corrupt inode, -EBADMSG for a bad checksum, -EIO for a read error) when
 * the scan steps past it.  Called from any worker thread.
 */
typedef void (*xbulk_bad_inode_fn)(void *arg, uint64_t ino, int err);

/* Where and why a scan gave up on the rest of an AG. */
struct xbulk_ag_fault {
	enum xbulk_kind	call;	/* the ioctl that failed (a bulkstat scan
				   also calls inumbers: to plan, to step) */
	uint32_t	agno;
	uint64_t	cursor;	/* the inode that call started from */
	uint64_t	ino;	/* -EPROTO: the key out of place (a record
				   before the cursor or out of order, or a
				   new cursor that did not advance); else
				   the cursor */
	int		err;	/* -EPROTO, -EUCLEAN, -EBADMSG, -EIO */
};

/*
 * Called when the scan gives up on the rest of an AG: the kernel's
 * answers there broke the ioctl's contract (xbulk_batch_check(), a
 * damaged inode btree) or its inode btree could not be read.  The scan
 * goes on with the next AG (it ends if it is confined to this one).
 * Called once per AG, from any thread.
 */
typedef void (*xbulk_ag_fault_fn)(void *arg, const struct xbulk_ag_fault *f);

/*
 * What to scan, and how.  The caller allocates it and sets @size to
 * sizeof(struct xbulk_scan) (XBULK_SCAN_INIT does, and sets endino to the
 * end): the library reads nothing past @size, so a program built against
 * this header keeps working with a later libxbulk whose struct grew at
 * its end.
 */
struct xbulk_scan {
	size_t		size;		/* sizeof(struct xbulk_scan) */
	enum xbulk_kind	kind;
	uint64_t	startino;	/* first inode (inclusive) */
	uint64_t	endino;		/* last inode (inclusive); UINT64_MAX
					   for the end (0, as in a zeroed
					   struct, stops at inode 0) */
	bool		has_agno;	/* only AG @agno */
	uint32_t	agno;
	uint32_t	batch;		/* most records per ioctl (icount) */
	unsigned int	threads;	/* 0 or 1: serial, as xfs_io; N: N
					   workers, same output */
	/*
	 * Where the output batch_fn appends goes, in inode order (never
	 * written if it appends nothing).  -1: batch_fn appends nothing,
	 * so the parallel scan calls it as each call's records arrive, in
	 * no order; otherwise a worker ahead of the output keeps its
	 * records and batch_fn formats them when their turn comes, from
	 * the thread that writes.
	 */
	int		out_fd;
	xbulk_batch_fn	batch_fn;
	/*
	 * NULL: a bulkstat call that fails on an inode ends the scan (as
	 * xfs_io).  Set: the scan reports the inode and goes on after it.
	 */
	xbulk_bad_inode_fn bad_inode_fn;
	/*
	 * NULL: an AG the kernel cannot walk ends the scan with its error.
	 * Set: the scan reports it and goes on with the next AG.
	 */
	xbulk_ag_fault_fn ag_fault_fn;
	void		*arg;		/* for the three callbacks */
	/*
	 * Optional: counters the scan keeps up to date while it runs (with
	 * atomic adds), for progress displays on another thread.
	 */
	struct xbulk_scan_live *live;
	/*
	 * Optional (xbulk_scan_lat_new()): where the scan adds the latency
	 * of each of its bulkstat or inumbers calls (each worker keeps its
	 * own histograms and adds them here when it ends).
	 */
	struct xbulk_scan_lat *lat;
	/*
	 * Optional: once *cancel is nonzero (a signal handler may set it)
	 * the scan stops within about 100 ms: no new ioctl, and the output
	 * ends after the last whole record written.
	 */
	const volatile int *cancel;
	/*
	 * The parallel scan's output pool, bytes (0: 20 MiB; at least 2
	 * MiB): what its workers may hold ahead of the writer, the bound of
	 * its memory however slow out_fd is.
	 */
	size_t		pool_bytes;
};

/* A struct xbulk_scan with its size set, scanning to the end. */
#define XBULK_SCAN_INIT { .size = sizeof(struct xbulk_scan), \
			  .endino = UINT64_MAX }

/*
 * Live counters of a running scan; read them with __atomic_load_n().
 * The caller allocates it, zeroed, with @size = sizeof(struct
 * xbulk_scan_live); the scan touches nothing past @size.
 */
struct xbulk_scan_live {
	size_t		size;		/* sizeof(struct xbulk_scan_live) */
	uint64_t	records;	/* records handed to batch_fn */
	uint64_t	calls;		/* ioctls issued */
	/*
	 * The longest call (ns) since the reader last took it with
	 * __atomic_exchange_n(&live->max_call_ns, 0, ...): the stall of an
	 * interval.
	 */
	uint64_t	max_call_ns;
};

/* ------------------------------------------------------------------ */
/* Latency of the scan's ioctl calls (lib/scan/latency.c)                   */
/* ------------------------------------------------------------------ */

/*
 * Histograms of durations in nanoseconds (opaque): log-linear, so a
 * percentile read from one is within 3% of the true value, from 1 ns to
 * 584 years (as fio's completion latencies).
 */
struct xbulk_lat;

/* Samples in @h. */
uint64_t xbulk_lat_count(const struct xbulk_lat *h);
/* Their sum, smallest and largest, in ns (0 when there are none). */
uint64_t xbulk_lat_sum_ns(const struct xbulk_lat *h);
uint64_t xbulk_lat_min_ns(const struct xbulk_lat *h);
uint64_t xbulk_lat_max_ns(const struct xbulk_lat *h);

/**
 * xbulk_lat_percentile() - the @pct-th percentile (0 < @pct <= 100) of @h
 * in ns: the middle of the bucket holding the sample of rank
 * ceil(@pct / 100 * count), kept within [min, max]; the max for the
 * last rank.
 * Return: that value, or 0 when @h has no sample.
 */
uint64_t xbulk_lat_percentile(const struct xbulk_lat *h, double pct);

/* The latencies of a scan's calls (opaque; struct xbulk_scan.lat). */
struct xbulk_scan_lat;

/** xbulk_scan_lat_new() - empty histograms; Return: 0 or -ENOMEM */
int xbulk_scan_lat_new(struct xbulk_scan_lat **lat);
/** xbulk_scan_lat_free() - NULL is fine */
void xbulk_scan_lat_free(struct xbulk_scan_lat *lat);
/* ns per bulkstat or inumbers call */
const struct xbulk_lat *xbulk_scan_lat_call(const struct xbulk_scan_lat *lat);
/* ns per record: for each call that returned records, its time divided
 * by its ocount (one sample a call) */
const struct xbulk_lat *xbulk_scan_lat_inode(const struct xbulk_scan_lat *lat);

/*
 * What one thread of a scan did, to see which one stalled: the serial
 * scan's one thread, or each worker of the parallel scan.  Made by the
 * library; it may grow at its end.
 */
struct xbulk_scan_worker {
	uint64_t	records;	/* records it fetched */
	uint64_t	calls;		/* its ioctls */
	uint64_t	units;		/* work units it ran (parallel scan) */
	uint64_t	run_ns;		/* from its start to its end */
	uint64_t	kernel_ns;	/* inside its ioctls */
	uint64_t	wait_ns;	/* waiting for a unit to take, or for
					   room in the output pool (the
					   writer behind it) */
};

/* Threads the scan recorded (0 before a scan). */
unsigned int xbulk_scan_lat_workers(const struct xbulk_scan_lat *lat);
/* Thread @i's figures (@i < xbulk_scan_lat_workers()). */
const struct xbulk_scan_worker *
xbulk_scan_lat_worker(const struct xbulk_scan_lat *lat, unsigned int i);
/* The parallel scan's writer: ns it waited for the records of the unit
 * it writes (0 for a serial scan). */
uint64_t xbulk_scan_lat_writer_wait_ns(const struct xbulk_scan_lat *lat);

/* What stopped a scan early. */
enum xbulk_scan_fail {
	XBULK_SCAN_OK = 0,
	XBULK_SCAN_FAIL_IOCTL,		/* a bulkstat/inumbers call */
	XBULK_SCAN_FAIL_OUTPUT,		/* writing to out_fd */
	XBULK_SCAN_FAIL_BATCH,		/* batch_fn's own error */
	XBULK_SCAN_FAIL_SETUP,		/* memory (-ENOMEM), threads
					   (-EAGAIN: pthread_create()
					   started no worker) */
	XBULK_SCAN_CANCELLED,		/* *cancel was set */
};

/*
 * What a scan did.  The caller allocates it with @size =
 * sizeof(struct xbulk_scan_result); the scan writes nothing past @size.
 */
struct xbulk_scan_result {
	size_t			size;		/* sizeof(struct
						   xbulk_scan_result) */
	enum xbulk_scan_fail	fail;
	int			err;		/* negative errno, or 0 */
	uint64_t		records;	/* records handed to batch_fn */
	uint64_t		calls;		/* ioctls issued */
	unsigned int		threads;	/* workers actually used */
	uint64_t		units;		/* work units (parallel scan) */
	uint64_t		bad_inodes;	/* stepped past (bad_inode_fn) */
	uint64_t		ag_faults;	/* AGs given up (ag_fault_fn) */
};

/**
 * xbulk_scan_run() - walk the scan's inode range and emit it in order
 *
 * Serial (threads <= 1): bulkstat or inumbers calls of @scan->batch
 * records from startino until the kernel returns no records or the cursor
 * passes endino (no call is issued past endino, unlike xfs_io); batch_fn
 * sees every call, as xfs_io's -d does.
 *
 * Parallel (threads > 1): an inumbers pass splits the range into work
 * units of whole inode chunks balanced by allocated-inode count; workers
 * bulkstat one unit at a time, asking for exactly its inodes; their output
 * is written in inode order, so it is the same bytes as the serial scan's.
 * Memory stays bounded (a pool of output buffers) however slow out_fd is.
 * Inodes created or removed during the scan never cause a duplicate, an
 * endless loop or a missed inode that existed for the whole scan.
 *
 * A bulkstat call that fails on one inode (corrupt, bad checksum, read
 * error) makes the kernel return the records before it and then fail the
 * next call; with bad_inode_fn set the scan finds that inode (the first
 * allocated one at the cursor, from the inobt), reports it and goes on
 * after it.  EIO while the filesystem's own inode can't be read either
 * (a shutdown) ends the scan.  With ag_fault_fn set, an AG whose inode
 * btree cannot be read or walked (its answers break the ioctl's
 * contract) is reported and the scan goes on with the next AG.
 *
 * Every loop moves forward whatever the kernel answers: each call's
 * answer is checked (xbulk_batch_check()), and every step moves the
 * cursor past the last one, so a scan always ends.  With
 * has_agno or a range, it never reads outside it.
 *
 * Everything before a failure has been written to out_fd when it returns.
 * Return: 0, or the negative errno also in @res->err (@res->fail says
 * where it came from): -EINVAL (XBULK_SCAN_FAIL_SETUP) for batch 0,
 * with has_agno a startino in an earlier AG (as the kernel would), or a
 * @size of @scan, @res or @scan->live smaller than this library's first
 * version of the struct; -E2BIG (XBULK_SCAN_FAIL_SETUP) if @scan is
 * larger than this library knows and a field it does not know is set;
 * -EINTR (XBULK_SCAN_CANCELLED) once *@scan->cancel was seen set.
 * @res->records counts what batch_fn was handed: with threads > 1 a
 * cancelled or failed scan may have handed it records that were never
 * written (their batch came after the last one written in order).
 */
int xbulk_scan_run(struct xbulk_fs *fs, const struct xbulk_scan *scan,
		   struct xbulk_scan_result *res);

#pragma GCC visibility pop

#endif /* XBULK_SCAN_H */
