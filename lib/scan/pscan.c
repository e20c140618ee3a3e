// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The parallel scan: N workers bulkstat work units (lib/scan/plan.c) and format
 * them into fixed-size output chunks; the calling thread writes the chunks
 * unit by unit, in inode order, so the bytes equal a serial scan's.
 *
 * Which unit a free worker takes is lib/scan/sched.c's choice: one per AG
 * while AGs are free, sharing an AG only while that pays; the head unit
 * (the one being written) is taken first whatever its AG, so the writer
 * never waits for a rule.
 *
 * Memory is bounded by a pool of POOL_CHUNKS chunks.  A worker ahead of the
 * unit being written (the head) may take a chunk only while fewer than
 * POOL_CHUNKS - HEAD_RESERVE are in use; the head's worker may use the
 * reserve too.  The head's chunks are written and returned as they fill,
 * so the head always makes progress and a slow reader cannot deadlock the
 * pool or make it grow.
 *
 * With ordered output, a worker ahead of the head keeps its records raw
 * (a copy of the kernel's 192-byte records in "raw" chunks), not as text
 * of 300-500 bytes a record: the pool then holds about 2.5 times as many
 * records ahead of the writer, enough for a worker in the next AG to keep
 * going while the head's AG is written (issue 16: with text chunks the
 * worker ahead stalled and text ran on about one thread).  The writer
 * formats raw chunks with batch_fn into its own buffer as it reaches
 * them; the head's worker formats its records at once, as before.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <time.h>

#include "engine.h"

#define CHUNK_SIZE	(256U * 1024)
#define POOL_CHUNKS	80		/* 20 MiB of output in flight */
#define HEAD_RESERVE	4
#define POOL_MIN	(2 * HEAD_RESERVE)	/* struct xbulk_scan.pool_bytes */
/* Records per unit: enough units to balance, few enough to stay cheap. */
#define UNIT_MIN	64
#define UNIT_MAX	2048
#define UNITS_PER_THREAD 8
/* How often the writer looks at the cancel flag while it waits. */
#define CANCEL_POLL_MS	50
/* Records asked for when a unit's planned count is used up (churn). */
#define CHURN_ICOUNT	64

struct chunk {
	struct chunk		*next;
	size_t			len;	/* bytes of text, or of records */
	/* A raw chunk: @nrecs records of a call whose header was @hdr,
	 * to be formatted by the writer. */
	bool			raw;
	uint32_t		nrecs;
	struct xfs_bulk_ireq	hdr;
	char			data[];
};

/* A unit's output, filled by its worker, drained by the writer. */
struct unit_out {
	struct chunk		*first;
	struct chunk		*last;
	uint64_t		start_past;	/* the unit before it in its
						   AG emitted up to here */
	bool			done;
	enum xbulk_scan_fail	fail;
	int			err;
};

struct pscan {
	struct xbulk_fs			*fs;
	const struct xbulk_scan		*scan;
	const struct xbs_kind_ops	*ops;
	struct xbs_unit		*units;
	struct unit_out			*outs;
	size_t				nunits;
	uint32_t			icount_max;	/* per request */
	uint64_t			last;		/* last key to emit */
	int				wout_err;	/* its write error */
	uint64_t			writer_wait_ns;
	bool				ordered;	/* batch_fn writes output:
							   keep records raw ahead
							   of the head */
	struct xbulk_out		wout;		/* the writer's, for raw
							   chunks */

	uint64_t		records;	/* atomic */
	uint64_t		calls;		/* atomic */
	uint64_t		bad_inodes;	/* atomic */
	uint64_t		ag_faults;	/* atomic */
	uint8_t			*ag_state;	/* per AG, atomic:
						   XBS_AG_REPORTED... */
	struct xbulk_scan_lat	*lats;		/* one per worker, or NULL */
	unsigned int		workers;	/* atomic: started */

	pthread_mutex_t		lock;		/* all below */
	pthread_cond_t		cond;		/* any change below */
	size_t			head;		/* unit being written
						   (atomic: read unlocked) */
	size_t			stop_after;	/* first failed unit */
	bool			abort;		/* output failed: stop all */
	unsigned int		in_use;		/* chunks out of the pool */
	unsigned int		pool_chunks;	/* its size */
	struct xbs_sched	sched;		/* which unit is next */
	struct chunk		*free_chunks;
};

/* What a worker's xbulk_out flushes into. */
struct sink {
	struct pscan			*ps;
	size_t				k;	/* unit index */
	struct xbulk_scan_worker	*st;	/* the worker's figures */
};

/* pthread_cond_wait(), the time counted in *@wait_ns. */
static void
timed_wait_locked(struct pscan *ps, uint64_t *wait_ns)
{
	uint64_t t0 = xbl_clock_ns(CLOCK_MONOTONIC);

	pthread_cond_wait(&ps->cond, &ps->lock);
	*wait_ns += xbl_clock_ns(CLOCK_MONOTONIC) - t0;
}

static bool
unit_stopped(struct pscan *ps, size_t k)
{
	bool stop;

	if (xbs_cancelled(ps->scan))
		return true;
	pthread_mutex_lock(&ps->lock);
	stop = ps->abort || k > ps->stop_after;
	pthread_mutex_unlock(&ps->lock);
	return stop;
}

/* Take a chunk for unit @k, waiting for the pool.  Called locked. */
static struct chunk *
chunk_get_locked(struct pscan *ps, size_t k, struct xbulk_scan_worker *st)
{
	struct chunk *c;

	for (;;) {
		unsigned int limit = k == ps->head ? ps->pool_chunks :
				     ps->pool_chunks - HEAD_RESERVE;

		if (ps->abort || k > ps->stop_after)
			return NULL;
		if (ps->in_use < limit)
			break;
		/*
		 * Chunks come back only as the writer writes the head's.  So
		 * the pool may grow, never deadlock: while the head is not
		 * taken, by what the running units still hold (each worker
		 * takes the head once its unit ends: lib/scan/sched.c); and
		 * by one chunk of the head's while the writer has none of
		 * its chunks to write (it may be behind chunks that others
		 * got while the head was not taken).
		 */
		if (!xbs_sched_taken(&ps->sched, ps->head) ||
		    (k == ps->head && !ps->outs[k].first))
			break;
		timed_wait_locked(ps, &st->wait_ns);
	}
	c = ps->free_chunks;
	if (c)
		ps->free_chunks = c->next;
	else
		c = malloc(sizeof(*c) + CHUNK_SIZE);
	if (c)
		ps->in_use++;
	return c;
}

static void
chunk_put_locked(struct pscan *ps, struct chunk *c)
{
	c->next = ps->free_chunks;
	ps->free_chunks = c;
	ps->in_use--;
	pthread_cond_broadcast(&ps->cond);
}

/* Put chunk @c at the end of unit @k's list.  Called locked. */
static void
append_locked(struct pscan *ps, size_t k, struct chunk *c)
{
	struct unit_out *uo = &ps->outs[k];

	c->next = NULL;
	if (uo->last)
		uo->last->next = c;
	else
		uo->first = c;
	uo->last = c;
	pthread_cond_broadcast(&ps->cond);
}

/* Queue the out's chunk (if it holds bytes) on unit @k.  Called locked. */
static void
queue_locked(struct pscan *ps, size_t k, struct xbulk_out *out)
{
	struct chunk *c;

	if (!out->buf)
		return;
	c = (struct chunk *)(out->buf - offsetof(struct chunk, data));
	out->buf = NULL;
	out->cap = 0;
	if (!out->len) {
		chunk_put_locked(ps, c);
		return;
	}
	c->len = out->len;
	c->raw = false;
	out->len = 0;
	append_locked(ps, k, c);
}

/* xbulk_out flush hook of a worker: queue the chunk, take a fresh one. */
static int
sink_flush(struct xbulk_out *out)
{
	struct sink *s = out->priv;
	struct pscan *ps = s->ps;
	struct chunk *c;
	int ret = 0;

	pthread_mutex_lock(&ps->lock);
	queue_locked(ps, s->k, out);
	c = chunk_get_locked(ps, s->k, s->st);
	if (c) {
		out->buf = c->data;
		out->cap = CHUNK_SIZE;
	} else {
		ret = ps->abort || s->k > ps->stop_after ? -ECANCELED :
							  -ENOMEM;
	}
	pthread_mutex_unlock(&ps->lock);
	return ret;
}

/* Queue the raw chunk *@raw (if any) on unit @k. */
static void
queue_raw(struct pscan *ps, size_t k, struct chunk **raw)
{
	if (!*raw)
		return;
	pthread_mutex_lock(&ps->lock);
	append_locked(ps, k, *raw);
	pthread_mutex_unlock(&ps->lock);
	*raw = NULL;
}

/*
 * Keep @n records of a call of unit @k raw, for the writer to format: in
 * the worker's raw chunk *@raw, queued when full (a chunk holds the
 * records of several calls, with the first one's header).
 */
static int
store_raw(struct pscan *ps, size_t k, struct chunk **raw,
	  struct xbulk_scan_worker *st, const struct xfs_bulk_ireq *hdr,
	  const char *recs, uint32_t n)
{
	size_t rec_size = ps->ops->rec_size;
	uint32_t per = (uint32_t)(CHUNK_SIZE / rec_size), m;
	struct chunk *c;

	for (; n; n -= m, recs += (size_t)m * rec_size) {
		if (!*raw) {
			pthread_mutex_lock(&ps->lock);
			c = chunk_get_locked(ps, k, st);
			pthread_mutex_unlock(&ps->lock);
			if (!c)
				return ps->abort || k > ps->stop_after ?
				       -ECANCELED : -ENOMEM;
			c->len = 0;
			c->raw = true;
			c->nrecs = 0;
			c->hdr = *hdr;
			*raw = c;
		}
		c = *raw;
		m = per - c->nrecs < n ? per - c->nrecs : n;
		memcpy(c->data + c->len, recs, (size_t)m * rec_size);
		c->len += (size_t)m * rec_size;
		c->nrecs += m;
		if (c->nrecs == per)
			queue_raw(ps, k, raw);
	}
	return 0;
}

/*
 * Hand @n records of a call of unit @k on: to batch_fn now if unit @k is
 * being written or the output has no order, else raw to the writer.  The
 * head only moves forward, and the raw chunk is queued before the first
 * record is formatted, so a unit's raw records all come before what its
 * worker formats once it is the head.
 */
static int
emit(struct pscan *ps, size_t k, struct xbulk_out *out, struct chunk **raw,
     struct xbulk_scan_worker *st, const struct xfs_bulk_ireq *hdr,
     const void *recs, uint32_t n)
{
	if (!ps->ordered || __atomic_load_n(&ps->head, __ATOMIC_ACQUIRE) == k) {
		queue_raw(ps, k, raw);
		return ps->scan->batch_fn(ps->scan->arg, out, hdr, recs, n);
	}
	return store_raw(ps, k, raw, st, hdr, recs, n);
}

/* Where unit @k starts: its planned start, or past what the AG's unit
 * before it already emitted. */
static uint64_t
unit_start(struct pscan *ps, size_t k)
{
	uint64_t start;

	pthread_mutex_lock(&ps->lock);
	start = ps->outs[k].start_past;
	pthread_mutex_unlock(&ps->lock);
	return start > ps->units[k].start ? start : ps->units[k].start;
}

/*
 * The first @n records of a call of unit @k end past the unit: keep those
 * of the AG's next unit if it has not started (it will start past them),
 * else leave them to its worker.  Returns the records to keep.
 */
static uint32_t
keep_past_end(struct pscan *ps, size_t k, const void *recs, uint32_t n)
{
	size_t rec_size = ps->ops->rec_size;
	size_t next = k + 1;

	pthread_mutex_lock(&ps->lock);
	if (next < ps->nunits && ps->sched.agno[next] == ps->sched.agno[k] &&
	    !xbs_sched_taken(&ps->sched, next)) {
		n = xbs_count_to(recs, rec_size, n, ps->units[next].end);
		/* past the last record: an inumbers one covers a chunk */
		if (n)
			ps->outs[next].start_past =
			    xbs_rec_ino(recs, rec_size, n - 1) +
			    ps->ops->span;
	} else {
		n = xbs_count_to(recs, rec_size, n, ps->units[k].end);
	}
	pthread_mutex_unlock(&ps->lock);
	return n;
}

static void
unit_finish(struct pscan *ps, size_t k, struct xbulk_out *out,
	    enum xbulk_scan_fail fail, int err, uint64_t records,
	    uint64_t call_ns)
{
	struct unit_out *uo = &ps->outs[k];

	pthread_mutex_lock(&ps->lock);
	queue_locked(ps, k, out);
	uo->done = true;
	xbs_sched_done(&ps->sched, k, records, call_ns);
	if (err && err != -ECANCELED) {
		uo->fail = fail;
		uo->err = err;
		if (k < ps->stop_after)
			ps->stop_after = k;
	}
	pthread_cond_broadcast(&ps->cond);
	pthread_mutex_unlock(&ps->lock);
}

/*
 * Bulkstat one unit, asking for exactly its planned records.  The cursor
 * only moves forward, so no inode is emitted twice; the loop runs until
 * the cursor passes the last inode allocated when planned, so no inode
 * that lived through the scan is missed, whatever was created or removed
 * meanwhile.
 *
 * The planned count includes allocated inodes bulkstat does not report
 * (the realtime bitmap and summary inodes beside the root, quota
 * inodes), so the last call can return records of the AG's next unit.
 * They are kept, not dropped, while the AG's next unit has not started
 * (it then starts past them): dropping them would make the kernel read
 * those inodes twice, and the second lookup, a cache hit, keeps them in
 * the inode cache (fstests xfs/177's count).  When another worker shares
 * the AG and has started the next unit already, they are its records.
 * XFS_BULK_IREQ_AGNO keeps every call in the unit's AG.
 *
 * An AG the kernel cannot walk is given up: this unit ends, later ones of
 * the AG are not started.
 */
static void
run_unit(struct pscan *ps, struct xfs_bulk_ireq *hdr, size_t k,
	 struct xbulk_scan_lat *lat, struct xbulk_scan_worker *st)
{
	const struct xbs_unit *u = &ps->units[k];
	const struct xbulk_scan *scan = ps->scan;
	const void *recs = hdr + 1;
	struct sink sink = { .ps = ps, .k = k, .st = st };
	struct xbulk_out out = {
		.fd = -1, .flush = sink_flush, .priv = &sink,
	};
	struct chunk *raw = NULL;
	enum xbulk_scan_fail fail = XBULK_SCAN_OK;
	uint32_t agno = ps->sched.agno[k];
	uint64_t remaining = u->count, call_ns = 0;
	uint64_t last = xbulk_agino_to_ino(ps->fs, agno + 1, 0) - 1;
	struct xbs_cursor c = {
		.fs = ps->fs, .scan = scan, .kind = scan->kind, .hdr = hdr,
		.last = last < ps->last ? last : ps->last,
		.live = scan->live, .lat = lat, .call_ns = &call_ns,
		.nbad = &ps->bad_inodes, .ag_state = ps->ag_state,
		.ag_bits = XBS_AG_STOPPED, .ag_faults = &ps->ag_faults,
		/* the AG's later units are not started either */
		.ag_fault_ends = true,
	};
	enum xbs_cursor_next next;
	int err = 0;

	hdr->ino = unit_start(ps, k);
	hdr->flags = XFS_BULK_IREQ_AGNO;
	hdr->agno = agno;
	while (hdr->ino <= u->last && !unit_stopped(ps, k)) {
		uint64_t want = remaining ? remaining : CHURN_ICOUNT;
		uint32_t n;

		hdr->icount = want < ps->icount_max ? (uint32_t)want :
						      ps->icount_max;
		__atomic_add_fetch(&ps->calls, 1, __ATOMIC_RELAXED);
		xbs_live_add(scan->live, 0, 1);
		st->calls++;
		n = xbs_cursor_call(&c);
		if (n && xbs_rec_ino(recs, ps->ops->rec_size, n - 1) > u->end)
			n = keep_past_end(ps, k, recs, n);
		if (n) {
			__atomic_add_fetch(&ps->records, n, __ATOMIC_RELAXED);
			xbs_live_add(scan->live, n, 0);
			st->records += n;
			err = emit(ps, k, &out, &raw, st, hdr, recs, n);
			if (err) {
				fail = XBULK_SCAN_FAIL_BATCH;
				break;
			}
		}
		remaining -= n < remaining ? n : remaining;
		next = xbs_cursor_next(&c, n);
		if (next == XBS_CURSOR_STOP) {
			fail = XBULK_SCAN_FAIL_IOCTL;
			err = c.f.err;
		}
		if (next != XBS_CURSOR_CALL)
			break;
	}
	queue_raw(ps, k, &raw);
	st->units++;
	st->kernel_ns += call_ns;
	unit_finish(ps, k, &out, fail, err, u->count - remaining, call_ns);
}

/* Wait for a change, or CANCEL_POLL_MS for a cancel to be noticed. */
static void
wait_a_while_locked(struct pscan *ps)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += CANCEL_POLL_MS * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_cond_timedwait(&ps->cond, &ps->lock, &ts);
}

/* The unit to work on now (lib/scan/sched.c).  Called locked. */
static bool
pick_unit_locked(struct pscan *ps, size_t *k)
{
	/* Ordered output running ahead of the writer: stay near it. */
	bool pressed = ps->in_use >= (ps->pool_chunks - HEAD_RESERVE) / 2;

	while (xbs_sched_take(&ps->sched, ps->head, pressed, k)) {
		uint32_t agno = ps->sched.agno[*k];

		/* An AG given up: its units end before they begin */
		if (__atomic_load_n(&ps->ag_state[agno], __ATOMIC_RELAXED) &
		    XBS_AG_STOPPED) {
			xbs_sched_done(&ps->sched, *k, 0, 0);
			ps->outs[*k].done = true;
			pthread_cond_broadcast(&ps->cond);
			continue;
		}
		return true;
	}
	return false;
}

/* Wait for a unit to take; false when there is none left or all stop. */
static bool
next_unit(struct pscan *ps, size_t *k, struct xbulk_scan_worker *st)
{
	bool got = false;
	uint64_t t0;

	pthread_mutex_lock(&ps->lock);
	while (!ps->abort && !xbs_cancelled(ps->scan)) {
		got = pick_unit_locked(ps, k);
		if (got || !xbs_sched_left(&ps->sched))
			break;
		t0 = xbl_clock_ns(CLOCK_MONOTONIC);
		wait_a_while_locked(ps);
		st->wait_ns += xbl_clock_ns(CLOCK_MONOTONIC) - t0;
	}
	pthread_mutex_unlock(&ps->lock);
	return got;
}

static void *
worker(void *arg)
{
	struct pscan *ps = arg;
	unsigned int me = __atomic_fetch_add(&ps->workers, 1, __ATOMIC_RELAXED);
	struct xbulk_scan_lat *lat = ps->lats ? &ps->lats[me] : NULL;
	uint64_t t0 = xbl_clock_ns(CLOCK_MONOTONIC);
	struct xbulk_scan_worker st = { .records = 0 };
	struct xfs_bulk_ireq *hdr;
	size_t k;

	hdr = xbs_req_alloc(ps->ops->rec_size, ps->icount_max);
	while (next_unit(ps, &k, &st)) {
		if (!hdr) {
			struct xbulk_out none = { .buf = NULL };

			unit_finish(ps, k, &none, XBULK_SCAN_FAIL_SETUP,
				    -ENOMEM, 0, 0);
			continue;
		}
		run_unit(ps, hdr, k, lat, &st);
	}
	xbs_req_free(hdr, ps->ops->rec_size, ps->icount_max);
	st.run_ns = xbl_clock_ns(CLOCK_MONOTONIC) - t0;
	if (lat)
		lat->self = st;
	return NULL;
}

/* The writer's buffer out: text formatted from raw chunks. */
static int
wout_flush(struct xbulk_out *out)
{
	struct pscan *ps = out->priv;
	int err = xbl_write_all(ps->scan->out_fd, out->buf, out->len);

	if (!err)
		out->len = 0;
	else
		ps->wout_err = err;
	return err;
}

static int
flush_wout(struct pscan *ps)
{
	return ps->wout.len ? xbulk_out_flush(&ps->wout) : 0;
}

/*
 * Write unit @k's chunks as they come until it is done.  Called locked.
 * Return 0, or -errno of a write (the scan is then aborted).
 */
static int
write_unit_locked(struct pscan *ps, size_t k, enum xbulk_scan_fail *fail)
{
	struct unit_out *uo = &ps->outs[k];
	int err = 0;

	__atomic_store_n(&ps->head, k, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&ps->cond);
	for (;;) {
		struct chunk *c = uo->first;

		/* Chunks end on whole records: stopping here is clean. */
		if (xbs_cancelled(ps->scan)) {
			ps->abort = true;
			return -EINTR;
		}
		if (!c) {
			uint64_t t0;

			if (uo->done)
				return 0;
			t0 = xbl_clock_ns(CLOCK_MONOTONIC);
			wait_a_while_locked(ps);
			ps->writer_wait_ns += xbl_clock_ns(CLOCK_MONOTONIC) -
					      t0;
			continue;
		}
		uo->first = c->next;
		if (!uo->first)
			uo->last = NULL;
		pthread_mutex_unlock(&ps->lock);
		if (c->raw)
			err = ps->scan->batch_fn(ps->scan->arg, &ps->wout,
						 &c->hdr, c->data, c->nrecs);
		else if (!(err = flush_wout(ps)))
			err = xbl_write_all(ps->scan->out_fd, c->data, c->len);
		*fail = c->raw && !ps->wout_err ? XBULK_SCAN_FAIL_BATCH :
						  XBULK_SCAN_FAIL_OUTPUT;
		pthread_mutex_lock(&ps->lock);
		chunk_put_locked(ps, c);
		if (err) {
			ps->abort = true;
			return err;
		}
	}
}

/* Write every unit in order; fill @res with the first failure. */
static void
write_all_units(struct pscan *ps, struct xbulk_scan_result *res)
{
	enum xbulk_scan_fail fail = XBULK_SCAN_OK;
	size_t k;
	int err;

	pthread_mutex_lock(&ps->lock);
	for (k = 0; k < ps->nunits; k++) {
		err = write_unit_locked(ps, k, &fail);
		if (err) {
			res->fail = err == -EINTR ? XBULK_SCAN_CANCELLED : fail;
			res->err = err;
			break;
		}
		if (ps->outs[k].err) {
			res->fail = ps->outs[k].fail;
			res->err = ps->outs[k].err;
			break;
		}
	}
	ps->abort = true;
	pthread_cond_broadcast(&ps->cond);
	pthread_mutex_unlock(&ps->lock);
	/* What was formatted before a failure or a cancel: whole records */
	if (res->fail != XBULK_SCAN_FAIL_OUTPUT) {
		err = flush_wout(ps);
		if (err && res->fail == XBULK_SCAN_OK) {
			res->fail = XBULK_SCAN_FAIL_OUTPUT;
			res->err = err;
		}
	}
}

/* Records per unit for @threads workers, from the used-inode count. */
static uint64_t
unit_target(const struct xbulk_fs *fs, const struct xbulk_scan *scan,
	    unsigned int threads)
{
	struct statfs sfs;
	uint64_t used = 0, target;

	if (fstatfs(fs->fd, &sfs) == 0 && sfs.f_files > sfs.f_ffree)
		used = sfs.f_files - sfs.f_ffree;
	if (scan->kind == XBULK_KIND_INUMBERS)
		used /= XBULK_INODES_PER_CHUNK;
	target = used / ((uint64_t)threads * UNITS_PER_THREAD);
	if (target > UNIT_MAX)
		target = UNIT_MAX;
	if (target < (scan->kind == XBULK_KIND_INUMBERS ? 1 : UNIT_MIN))
		target = scan->kind == XBULK_KIND_INUMBERS ? 1 : UNIT_MIN;
	return target;
}

static void
free_chunks(struct pscan *ps)
{
	size_t k;

	for (k = 0; k < ps->nunits; k++) {
		while (ps->outs[k].first) {
			struct chunk *c = ps->outs[k].first;

			ps->outs[k].first = c->next;
			free(c);
		}
	}
	while (ps->free_chunks) {
		struct chunk *c = ps->free_chunks;

		ps->free_chunks = c->next;
		free(c);
	}
}

int
xbs_pscan_run(struct xbulk_fs *fs, const struct xbulk_scan *scan,
	      struct xbulk_scan_result *res)
{
	struct pscan ps = {
		.fs = fs, .scan = scan, .ops = &xbs_kinds[scan->kind],
		.stop_after = SIZE_MAX,
	};
	pthread_t *tids;
	unsigned int i, nthreads = scan->threads;
	uint64_t target = unit_target(fs, scan, nthreads), first;
	int err;

	xbs_scan_bounds(fs, scan, &first, &ps.last);
	ps.ag_state = calloc(fs->geom.agcount, sizeof(*ps.ag_state));
	if (!ps.ag_state) {
		res->fail = XBULK_SCAN_FAIL_SETUP;
		res->err = -ENOMEM;
		return res->err;
	}
	err = xbs_plan_units(fs, scan, target, ps.ag_state, &ps.ag_faults,
			     &ps.units, &ps.nunits, &res->calls);
	res->ag_faults = ps.ag_faults;
	if (err || ps.nunits == 0) {
		res->fail = err == -EINTR ? XBULK_SCAN_CANCELLED :
			    err ? XBULK_SCAN_FAIL_IOCTL : XBULK_SCAN_OK;
		res->err = err;
		free(ps.ag_state);
		return err;
	}
	if (nthreads > ps.nunits)
		nthreads = (unsigned int)ps.nunits;
	ps.icount_max = target + XBULK_INODES_PER_CHUNK < scan->batch ?
			(uint32_t)(target + XBULK_INODES_PER_CHUNK) :
			scan->batch;
	ps.pool_chunks = POOL_CHUNKS;
	if (scan->pool_bytes)
		ps.pool_chunks = scan->pool_bytes / CHUNK_SIZE < POOL_MIN ?
			POOL_MIN : (unsigned int)(scan->pool_bytes / CHUNK_SIZE);
	/* A scan whose batch_fn writes nothing has no order to keep */
	ps.ordered = scan->out_fd >= 0;
	if (ps.ordered &&
	    xbl_out_setup(&ps.wout, scan->out_fd, XBL_OUT_BUFSIZE)) {
		res->fail = XBULK_SCAN_FAIL_SETUP;
		res->err = -ENOMEM;
		free(ps.ag_state);
		free(ps.units);
		return res->err;
	}
	ps.wout.flush = wout_flush;
	ps.wout.priv = &ps;
	ps.outs = calloc(ps.nunits, sizeof(*ps.outs));
	tids = calloc(nthreads, sizeof(*tids));
	if (scan->lat)
		ps.lats = calloc(nthreads, sizeof(*ps.lats));
	if (!ps.outs || !tids || (scan->lat && !ps.lats) ||
	    xbs_sched_init(&ps.sched, fs, ps.units, ps.nunits)) {
		res->fail = XBULK_SCAN_FAIL_SETUP;
		res->err = -ENOMEM;
		goto out;
	}
	pthread_mutex_init(&ps.lock, NULL);
	pthread_cond_init(&ps.cond, NULL);
	for (i = 0; i < nthreads; i++) {
		err = pthread_create(&tids[i], NULL, worker, &ps);
		if (err)
			break;
	}
	if (i == 0) {
		res->fail = XBULK_SCAN_FAIL_SETUP;
		res->err = -err;
	} else {
		write_all_units(&ps, res);
	}
	nthreads = i;
	for (i = 0; i < nthreads; i++)
		pthread_join(tids[i], NULL);
	/* A worker's slot is the order it started in, not its thread's:
	 * read the slots once every worker has ended. */
	for (i = 0; ps.lats && i < nthreads; i++)
		xbs_scan_lat_merge(scan->lat, &ps.lats[i]);
	if (scan->lat)
		scan->lat->writer_wait_ns += ps.writer_wait_ns;
	res->threads = nthreads;
	res->units = ps.nunits;
	res->records = ps.records;
	res->calls += ps.calls;
	res->bad_inodes = ps.bad_inodes;
	res->ag_faults = ps.ag_faults;
	free_chunks(&ps);
	pthread_cond_destroy(&ps.cond);
	pthread_mutex_destroy(&ps.lock);
out:
	xbl_out_release(&ps.wout);
	free(ps.lats);
	free(tids);
	xbs_sched_free(&ps.sched);
	free(ps.ag_state);
	free(ps.outs);
	free(ps.units);
	return res->err;
}
