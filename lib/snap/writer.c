// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Writing a snapshot file: the header, the inode records in blocks of
 * 1 MiB (each compressed with zstd when that makes it smaller, and
 * checksummed; an inode with more names than a record holds takes
 * continuation records, in the same block or the next ones, so that
 * memory stays two blocks whatever the inode), the directory table in
 * blocks after them, and the
 * trailer that says where everything is.  The file is made, and put at
 * its path when whole, by lib/replace.c: unnamed, mode 0600, never
 * through a name someone else could have planted; a crash or kill at
 * any moment leaves the old file or the new one, whole.
 *
 * A full block goes to a worker thread that compresses, checksums and
 * writes it while the caller fills the other of two buffers: zstd costs
 * about as much as encoding, and the scan's threads are idle by then.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "snap.h"

/* A full block, handed to the worker. */
struct job {
	const uint8_t		*raw;
	size_t			len;
	uint32_t		nrecs;
	enum snap_blk_kind	kind;
};

struct xbulk_snap_writer {
	struct xbulk_replace	*file;
	int			fd;		/* file's */
	int			level;
	ZSTD_CCtx		*cctx;
	uint8_t			*raw;		/* block being filled */
	size_t			rawlen;
	uint32_t		nrecs;
	uint64_t		prev;		/* last inode of the block */
	uint64_t		last;		/* last inode added */
	uint8_t			*zbuf;
	size_t			zcap;
	uint64_t		off;		/* end of the file */
	uint64_t		chain;
	uint64_t		inodes, links, iblocks, dblocks;
	const struct xbulk_snap	*src;
	dev_t			dev;
	ino_t			ino;
	int			err;		/* sticky */
	bool			finished;	/* all written, fsynced */
	/* The worker; off, chain and the block counts are its own while
	 * busy, the caller's once drain() returned */
	uint8_t			*spare;		/* the other raw buffer */
	pthread_t		thread;
	bool			threaded;
	pthread_mutex_t		lock;
	pthread_cond_t		cond;
	struct job		job;
	bool			busy, stop;
	int			werr;		/* the worker's first error */
};

static int put_block(struct xbulk_snap_writer *w, const struct job *j);

static void *
worker(void *arg)
{
	struct xbulk_snap_writer *w = arg;
	struct job j;
	int ret;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->busy && !w->stop)
			pthread_cond_wait(&w->cond, &w->lock);
		if (!w->busy)
			break;
		j = w->job;
		pthread_mutex_unlock(&w->lock);
		ret = put_block(w, &j);
		pthread_mutex_lock(&w->lock);
		if (ret && !w->werr)
			w->werr = ret;
		w->busy = false;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/* Wait until the worker is idle: 0 or its error. */
static int
drain(struct xbulk_snap_writer *w)
{
	int ret;

	if (!w->threaded)
		return w->werr;
	pthread_mutex_lock(&w->lock);
	while (w->busy)
		pthread_cond_wait(&w->cond, &w->lock);
	ret = w->werr;
	pthread_mutex_unlock(&w->lock);
	return ret;
}

static int
write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!n)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
xbulk_snap_writer_new(const char *path, const struct xbulk_snap_write_opts *o,
		      struct xbulk_snap_writer **out)
{
	struct xbulk_snap_writer *w;
	struct stat st;
	int ret;

	*out = NULL;
	if (!o || o->size < sizeof(size_t) + sizeof(int) ||
	    o->level < 0 || o->level > ZSTD_maxCLevel())
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fd = -1;
	w->level = o->level;
	ret = xbulk_replace_open(path, 0600, 0, &w->file);
	if (ret)
		goto fail;
	w->fd = xbulk_replace_fd(w->file);
	w->raw = malloc(SNAP_BLOCK_RAW);
	w->spare = malloc(SNAP_BLOCK_RAW);
	w->zcap = ZSTD_compressBound(SNAP_BLOCK_RAW);
	w->zbuf = malloc(w->zcap);
	w->cctx = w->level ? ZSTD_createCCtx() : NULL;
	if (!w->raw || !w->spare || !w->zbuf || (w->level && !w->cctx)) {
		ret = -ENOMEM;
		goto fail;
	}
	if (fstat(w->fd, &st)) {
		ret = -errno;
		goto fail;
	}
	w->dev = st.st_dev;
	w->ino = st.st_ino;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	/* without a thread, blocks are written in the caller's */
	w->threaded = !pthread_create(&w->thread, NULL, worker, w);
	*out = w;
	return 0;
fail:
	xbulk_snap_writer_abort(w);
	return ret;
}

void
xbulk_snap_writer_ident(const struct xbulk_snap_writer *w, uint64_t *dev,
			uint64_t *ino)
{
	*dev = w->dev;
	*ino = w->ino;
}

static void
put_str(uint8_t *dst, size_t size, const char *s)
{
	size_t n = strnlen(s, size - 1);

	memcpy(dst, s, n);
}

static int
write_header(struct xbulk_snap_writer *w, const struct xbulk_snap_info *i)
{
	uint8_t h[SNAP_HDR_SIZE] = { 0 };

	memcpy(h + H_MAGIC, SNAP_MAGIC, 8);
	put_le32(h + H_VERSION, XBULK_SNAP_VERSION);
	put_le32(h + H_HDRSIZE, SNAP_HDR_SIZE);
	memcpy(h + H_UUID, i->uuid, 16);
	put_le32(h + H_BLOCKSIZE, i->blocksize);
	put_le32(h + H_AGCOUNT, i->agcount);
	put_le32(h + H_AGBLOCKS, i->agblocks);
	put_le32(h + H_INODESIZE, i->inodesize);
	put_le32(h + H_THREADS, i->threads);
	put_le64(h + H_DATABLOCKS, i->datablocks);
	put_le64(h + H_TOP, i->top);
	put_le64(h + H_START_SEC, (uint64_t)i->start_sec);
	put_le32(h + H_START_NSEC, i->start_nsec);
	put_le64(h + H_END_SEC, (uint64_t)i->end_sec);
	put_le32(h + H_END_NSEC, i->end_nsec);
	put_str(h + H_VERSTR, 32, i->xbulk_version);
	put_str(h + H_HOST, 65, i->host);
	put_str(h + H_MOUNTPOINT, 256, i->mountpoint);
	put_le64(h + H_CHECKSUM, snap_hash(h, H_CHECKSUM, 0));
	w->chain = get_le64(h + H_CHECKSUM);
	w->off = SNAP_HDR_SIZE;
	return write_all(w->fd, h, sizeof(h));
}

/* Compress (where it helps), checksum and write block @j. */
static int
put_block(struct xbulk_snap_writer *w, const struct job *j)
{
	uint8_t h[SNAP_BLK_HDR] = { 0 };
	const uint8_t *payload = j->raw;
	size_t stored = j->len;
	uint64_t sum;
	int ret;

	h[B_METHOD] = SNAP_STORED;
	if (w->cctx) {
		size_t z = ZSTD_compressCCtx(w->cctx, w->zbuf, w->zcap, j->raw,
					     j->len, w->level);

		if (ZSTD_isError(z))
			return -ENOMEM;
		if (z < j->len) {
			payload = w->zbuf;
			stored = z;
			h[B_METHOD] = SNAP_ZSTD;
		}
	}
	put_le32(h + B_MAGIC, SNAP_BLK_MAGIC);
	h[B_KIND] = (uint8_t)j->kind;
	put_le32(h + B_STORED, (uint32_t)stored);
	put_le32(h + B_RAW, (uint32_t)j->len);
	put_le32(h + B_NRECS, j->nrecs);
	sum = snap_hash(payload, stored, snap_hash(h, B_CHECKSUM, 0));
	put_le64(h + B_CHECKSUM, sum);
	w->chain = snap_hash(&sum, sizeof(sum), w->chain);
	ret = write_all(w->fd, h, sizeof(h));
	if (!ret)
		ret = write_all(w->fd, payload, stored);
	if (ret)
		return ret;
	w->off += sizeof(h) + stored;
	if (j->kind == SNAP_BLK_INODES)
		w->iblocks++;
	else
		w->dblocks++;
	return 0;
}

/* Hand the block being filled, of @kind, on; start a new one. */
static int
flush_block(struct xbulk_snap_writer *w, enum snap_blk_kind kind)
{
	struct job j = { w->raw, w->rawlen, w->nrecs, kind };
	uint8_t *t;
	int ret;

	if (!w->nrecs)
		return 0;
	ret = drain(w);
	if (ret)
		return ret;
	if (!w->threaded) {
		ret = put_block(w, &j);
	} else {
		pthread_mutex_lock(&w->lock);
		w->job = j;
		w->busy = true;
		pthread_cond_broadcast(&w->cond);
		pthread_mutex_unlock(&w->lock);
		t = w->raw;
		w->raw = w->spare;
		w->spare = t;
	}
	w->rawlen = 0;
	w->nrecs = 0;
	w->prev = 0;
	return ret;
}

/* Names a record can hold: 1 to 255 bytes (as every XFS name). */
static bool
names_ok(const struct xbulk_snap_rec *rec)
{
	uint32_t i;

	/* what a reader would refuse is never written */
	for (i = 0; i < rec->nlinks; i++)
		if (!snap_name_ok(rec->links[i].name, rec->links[i].namelen))
			return false;
	return true;
}

int
xbulk_snap_writer_add(struct xbulk_snap_writer *w, const struct xbulk_snap *src,
		      const struct xbulk_snap_rec *rec)
{
	uint32_t next = 0;

	if (w->err)
		return w->err;
	if (w->finished || (w->src && w->src != src) ||
	    (w->inodes && rec->bs->bs_ino <= w->last) || !names_ok(rec))
		return -EINVAL;
	if (!w->src) {
		w->src = src;
		w->err = write_header(w, xbulk_snap_info(src));
		if (w->err)
			return w->err;
	}
	/* its first record, then continuations while names are left */
	do {
		if (w->rawlen + SNAP_REC_MAX > SNAP_BLOCK_RAW) {
			w->err = flush_block(w, SNAP_BLK_INODES);
			if (w->err)
				return w->err;
		}
		w->rawlen += snap_encode_rec(w->raw + w->rawlen, w->prev, rec,
					     &next);
		w->prev = rec->bs->bs_ino;
		w->nrecs++;
	} while (next < rec->nlinks);
	w->last = rec->bs->bs_ino;
	w->inodes++;
	w->links += rec->nlinks;
	return 0;
}

static int
write_dirs(struct xbulk_snap_writer *w, uint64_t *diroff)
{
	const struct snap_dirtab *t = &w->src->dirs;
	size_t i;
	int ret;

	ret = flush_block(w, SNAP_BLK_INODES);
	if (!ret)
		ret = drain(w);
	*diroff = w->off;
	for (i = 0; i < t->n && !ret; i++) {
		const struct snap_dir *d = &t->v[i];

		if (w->rawlen + 300 + 16 > SNAP_BLOCK_RAW)
			ret = flush_block(w, SNAP_BLK_DIRS);
		if (ret)
			break;
		w->rawlen += snap_encode_dir(w->raw + w->rawlen, w->prev, d,
					     t->names + d->name);
		w->prev = d->ino;
		w->nrecs++;
	}
	if (!ret)
		ret = flush_block(w, SNAP_BLK_DIRS);
	return ret ? ret : drain(w);
}

static int
write_trailer(struct xbulk_snap_writer *w, uint64_t diroff)
{
	uint8_t t[SNAP_TRAILER] = { 0 };

	memcpy(t + T_MAGIC, SNAP_END_MAGIC, 8);
	put_le64(t + T_INODES, w->inodes);
	put_le64(t + T_LINKS, w->links);
	put_le64(t + T_DIRS, w->src->dirs.n);
	put_le64(t + T_IBLOCKS, w->iblocks);
	put_le64(t + T_DBLOCKS, w->dblocks);
	put_le64(t + T_DIROFF, diroff);
	put_le64(t + T_CHAIN, w->chain);
	put_le64(t + T_CHECKSUM, snap_hash(t, T_CHECKSUM, 0));
	return write_all(w->fd, t, sizeof(t));
}

int
xbulk_snap_writer_finish(struct xbulk_snap_writer *w)
{
	uint64_t diroff = 0;
	int ret = w->err;

	if (w->finished || ret)
		return ret;
	if (!w->src)
		ret = -EINVAL;		/* no record: no header either */
	if (!ret)
		ret = write_dirs(w, &diroff);
	if (!ret)
		ret = write_trailer(w, diroff);
	if (!ret && fsync(w->fd))
		ret = -errno;
	w->err = ret;
	w->finished = !ret;
	return ret;
}

int
xbulk_snap_writer_commit(struct xbulk_snap_writer *w)
{
	int ret = xbulk_snap_writer_finish(w);

	if (!ret) {
		ret = xbulk_replace_commit(w->file);
		w->file = NULL;		/* committed or removed */
	}
	xbulk_snap_writer_abort(w);
	return ret;
}

void
xbulk_snap_writer_abort(struct xbulk_snap_writer *w)
{
	if (!w)
		return;
	if (w->threaded) {
		pthread_mutex_lock(&w->lock);
		w->stop = true;
		pthread_cond_broadcast(&w->cond);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->thread, NULL);
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cond);
	}
	xbulk_replace_abort(w->file);
	ZSTD_freeCCtx(w->cctx);
	free(w->raw);
	free(w->spare);
	free(w->zbuf);
	free(w);
}
