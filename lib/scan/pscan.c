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
/* Records per unit: enough units to balance, few enough to stay cheap. */
#define UNIT_MIN	64
#define UNIT_MAX	2048
#define UNITS_PER_THREAD 8
/* How often the writer looks at the cancel flag while it waits. */
#define CANCEL_POLL_MS	50
/* Records asked for when a unit's planned count is used up (churn). */
#define CHURN_ICOUNT	64

struct chunk {
	struct chunk	*next;
	size_t		len;
	char		data[];
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
	const struct xbulk_kind_ops	*ops;
	struct xbulk_unit		*units;
	struct unit_out			*outs;
	size_t				nunits;
	uint32_t			icount_max;	/* per request */
	uint64_t			last;		/* last key to emit */

	uint64_t		records;	/* atomic */
	uint64_t		calls;		/* atomic */
	uint64_t		bad_inodes;	/* atomic */
	uint64_t		ag_faults;	/* atomic */
	uint8_t			*ag_state;	/* per AG, atomic:
						   XBULK_AG_REPORTED... */
	struct xbulk_scan_lat	*lats;		/* one per worker, or NULL */
	unsigned int		workers;	/* atomic: started */

	pthread_mutex_t		lock;		/* all below */
	pthread_cond_t		cond;		/* any change below */
	size_t			head;		/* unit being written */
	size_t			stop_after;	/* first failed unit */
	bool			abort;		/* output failed: stop all */
	unsigned int		in_use;		/* chunks out of the pool */
	struct xbulk_sched	sched;		/* which unit is next */
	struct chunk		*free_chunks;
};

/* What a worker's xbulk_out flushes into. */
struct sink {
	struct pscan	*ps;
	size_t		k;	/* unit index */
};

static bool
unit_stopped(struct pscan *ps, size_t k)
{
	bool stop;

	if (xbulk_cancelled(ps->scan))
		return true;
	pthread_mutex_lock(&ps->lock);
	stop = ps->abort || k > ps->stop_after;
	pthread_mutex_unlock(&ps->lock);
	return stop;
}

/* Take a chunk for unit @k, waiting for the pool.  Called locked. */
static struct chunk *
chunk_get_locked(struct pscan *ps, size_t k)
{
	struct chunk *c;

	for (;;) {
		unsigned int limit = k == ps->head ? POOL_CHUNKS :
				     POOL_CHUNKS - HEAD_RESERVE;

		if (ps->abort || k > ps->stop_after)
			return NULL;
		if (ps->in_use < limit)
			break;
		pthread_cond_wait(&ps->cond, &ps->lock);
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

/* Queue the out's chunk (if it holds bytes) on unit @k.  Called locked. */
static void
queue_locked(struct pscan *ps, size_t k, struct xbulk_out *out)
{
	struct unit_out *uo = &ps->outs[k];
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
	c->next = NULL;
	if (uo->last)
		uo->last->next = c;
	else
		uo->first = c;
	uo->last = c;
	out->len = 0;
	pthread_cond_broadcast(&ps->cond);
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
	c = chunk_get_locked(ps, s->k);
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
	    !xbulk_sched_taken(&ps->sched, next)) {
		n = xbulk_count_to(recs, rec_size, n, ps->units[next].end);
		/* past the last record: an inumbers one covers a chunk */
		if (n)
			ps->outs[next].start_past =
			    xbulk_rec_ino(recs, rec_size, n - 1) +
			    ps->ops->span;
	} else {
		n = xbulk_count_to(recs, rec_size, n, ps->units[k].end);
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
	xbulk_sched_done(&ps->sched, k, records, call_ns);
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
	 struct xbulk_scan_lat *lat)
{
	const struct xbulk_unit *u = &ps->units[k];
	const struct xbulk_scan *scan = ps->scan;
	const void *recs = hdr + 1;
	struct sink sink = { .ps = ps, .k = k };
	struct xbulk_out out = {
		.fd = -1, .flush = sink_flush, .priv = &sink,
	};
	enum xbulk_scan_fail fail = XBULK_SCAN_OK;
	uint32_t agno = ps->sched.agno[k];
	uint64_t remaining = u->count, next, call_ns = 0;
	uint64_t last = xbulk_agino_to_ino(ps->fs, agno + 1, 0) - 1;
	int err = 0;

	if (last > ps->last)
		last = ps->last;
	hdr->ino = unit_start(ps, k);
	hdr->flags = XFS_BULK_IREQ_AGNO;
	hdr->agno = agno;
	while (hdr->ino <= u->last && !unit_stopped(ps, k)) {
		uint64_t want = remaining ? remaining : CHURN_ICOUNT;
		uint64_t cursor = hdr->ino;
		struct xbulk_ag_fault f = {
			.call = scan->kind, .cursor = cursor,
		};
		uint32_t good, n;

		hdr->icount = want < ps->icount_max ? (uint32_t)want :
						      ps->icount_max;
		__atomic_add_fetch(&ps->calls, 1, __ATOMIC_RELAXED);
		xbulk_live_add(scan->live, 0, 1);
		f.err = xbulk_req_call(ps->fs, scan, lat, hdr, &call_ns);
		good = xbulk_answer_good(ps->ops, hdr, recs, cursor, f.err,
					 &f.ino);
		n = xbulk_count_to(recs, ps->ops->rec_size, good, last);
		if (n && xbulk_rec_ino(recs, ps->ops->rec_size, n - 1) > u->end)
			n = keep_past_end(ps, k, recs, n);
		if (n) {
			__atomic_add_fetch(&ps->records, n, __ATOMIC_RELAXED);
			xbulk_live_add(scan->live, n, 0);
			err = scan->batch_fn(scan->arg, &out, hdr, recs, n);
			if (err) {
				fail = XBULK_SCAN_FAIL_BATCH;
				break;
			}
		}
		remaining -= n < remaining ? n : remaining;
		if (n < good || f.err == 0) {
			if (n < good || hdr->ocount == 0)
				break;
			continue;
		}
		switch (xbulk_recover(ps->fs, scan, &f, last, &next,
				      &ps->bad_inodes)) {
		case XBULK_STEPPED:
			hdr->ino = next;
			continue;
		case XBULK_AG_FAULT:
			xbulk_ag_fault_note(scan, ps->ag_state,
					    XBULK_AG_STOPPED, &f,
					    &ps->ag_faults);
			break;
		case XBULK_STOP:
			fail = XBULK_SCAN_FAIL_IOCTL;
			err = f.err;
			break;
		}
		break;
	}
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
	bool pressed = ps->in_use >= (POOL_CHUNKS - HEAD_RESERVE) / 2;

	while (xbulk_sched_take(&ps->sched, ps->head, pressed, k)) {
		uint32_t agno = ps->sched.agno[*k];

		/* An AG given up: its units end before they begin */
		if (__atomic_load_n(&ps->ag_state[agno], __ATOMIC_RELAXED) &
		    XBULK_AG_STOPPED) {
			xbulk_sched_done(&ps->sched, *k, 0, 0);
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
next_unit(struct pscan *ps, size_t *k)
{
	bool got = false;

	pthread_mutex_lock(&ps->lock);
	while (!ps->abort && !xbulk_cancelled(ps->scan)) {
		got = pick_unit_locked(ps, k);
		if (got || !xbulk_sched_left(&ps->sched))
			break;
		wait_a_while_locked(ps);
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
	struct xfs_bulk_ireq *hdr;
	size_t k;

	hdr = xbulk_req_alloc(ps->ops->rec_size, ps->icount_max);
	while (next_unit(ps, &k)) {
		if (!hdr) {
			struct xbulk_out none = { .buf = NULL };

			unit_finish(ps, k, &none, XBULK_SCAN_FAIL_SETUP,
				    -ENOMEM, 0, 0);
			continue;
		}
		run_unit(ps, hdr, k, lat);
	}
	xbulk_req_free(hdr, ps->ops->rec_size, ps->icount_max);
	return NULL;
}

/*
 * Write unit @k's chunks as they come until it is done.  Called locked.
 * Return 0, or -errno of a write (the scan is then aborted).
 */
static int
write_unit_locked(struct pscan *ps, size_t k)
{
	struct unit_out *uo = &ps->outs[k];
	int err = 0;

	ps->head = k;
	pthread_cond_broadcast(&ps->cond);
	for (;;) {
		struct chunk *c = uo->first;

		/* Chunks end on whole records: stopping here is clean. */
		if (xbulk_cancelled(ps->scan)) {
			ps->abort = true;
			return -EINTR;
		}
		if (!c) {
			if (uo->done)
				return 0;
			wait_a_while_locked(ps);
			continue;
		}
		uo->first = c->next;
		if (!uo->first)
			uo->last = NULL;
		pthread_mutex_unlock(&ps->lock);
		err = xbulk_write_all(ps->scan->out_fd, c->data, c->len);
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
	size_t k;
	int err;

	pthread_mutex_lock(&ps->lock);
	for (k = 0; k < ps->nunits; k++) {
		err = write_unit_locked(ps, k);
		if (err) {
			res->fail = err == -EINTR ? XBULK_SCAN_CANCELLED :
						    XBULK_SCAN_FAIL_OUTPUT;
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
xbulk_pscan_run(struct xbulk_fs *fs, const struct xbulk_scan *scan,
		struct xbulk_scan_result *res)
{
	struct pscan ps = {
		.fs = fs, .scan = scan, .ops = &xbulk_kinds[scan->kind],
		.stop_after = SIZE_MAX,
	};
	pthread_t *tids;
	unsigned int i, nthreads = scan->threads;
	uint64_t target = unit_target(fs, scan, nthreads), first;
	int err;

	xbulk_scan_bounds(fs, scan, &first, &ps.last);
	ps.ag_state = calloc(fs->geom.agcount, sizeof(*ps.ag_state));
	if (!ps.ag_state) {
		res->fail = XBULK_SCAN_FAIL_SETUP;
		res->err = -ENOMEM;
		return res->err;
	}
	err = xbulk_plan_units(fs, scan, target, ps.ag_state, &ps.ag_faults,
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
	ps.outs = calloc(ps.nunits, sizeof(*ps.outs));
	tids = calloc(nthreads, sizeof(*tids));
	if (scan->lat)
		ps.lats = calloc(nthreads, sizeof(*ps.lats));
	if (!ps.outs || !tids || (scan->lat && !ps.lats) ||
	    xbulk_sched_init(&ps.sched, fs, ps.units, ps.nunits)) {
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
	for (i = 0; i < nthreads; i++) {
		pthread_join(tids[i], NULL);
		if (ps.lats) {
			xbulk_lat_merge(&scan->lat->call, &ps.lats[i].call);
			xbulk_lat_merge(&scan->lat->inode, &ps.lats[i].inode);
		}
	}
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
	free(ps.lats);
	free(tids);
	xbulk_sched_free(&ps.sched);
	free(ps.ag_state);
	free(ps.outs);
	free(ps.units);
	return res->err;
}
