// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Writing a snapshot file: the header, the inode records in blocks of
 * 1 MiB (each compressed with zstd when that makes it smaller, and
 * checksummed; an inode with more names than a record holds takes
 * continuation records, in the same block or the next ones, so that
 * memory stays two blocks whatever the inode), the directory table in
 * blocks after them, and the
 * trailer that says where everything is.  The file is made with
 * O_TMPFILE in the destination's directory (or under a hidden temporary
 * name where the filesystem has no O_TMPFILE), fsynced, then linked at
 * the path (renamed over an existing file) and the directory fsynced: a
 * crash or kill at any moment leaves the old file or the new one, whole.
 * Replacing a file takes a hidden name for a moment (linkat() cannot
 * replace): a kill there leaves the new file under it as well, removed
 * by the next writer in that directory.
 *
 * A full block goes to a worker thread that compresses, checksums and
 * writes it while the caller fills the other of two buffers: zstd costs
 * about as much as encoding, and the scan's threads are idle by then.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pthread.h>
#include <signal.h>
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
	int			fd;
	int			dirfd;
	char			*base;		/* the file's name in dirfd */
	char			*tmpname;	/* named temporary, or NULL */
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

/*
 * Remove what a killed writer left in the directory: a hidden
 * .xbulk-snap.PID.N of a process that is gone (killed between linking
 * its file beside the path and renaming it there, or while writing
 * where the filesystem has no O_TMPFILE).  A PID that runs (maybe
 * another process now) keeps its name.
 */
static void
sweep(int dirfd)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	long pid;
	int n;
	char end;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d)))
		if ((e->d_type == DT_REG || e->d_type == DT_UNKNOWN) &&
		    sscanf(e->d_name, ".xbulk-snap.%ld.%d%c", &pid, &n,
			   &end) == 2 &&
		    pid > 0 && pid != (long)getpid() &&
		    kill((pid_t)pid, 0) && errno == ESRCH)
			unlinkat(dirfd, e->d_name, 0);
	closedir(d);
}

/* Make the unnamed file in @dir: O_TMPFILE, else a hidden name. */
static int
make_file(struct xbulk_snap_writer *w)
{
	char name[64];
	int i;

	w->fd = openat(w->dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (w->fd >= 0)
		return 0;
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
		return -errno;
	for (i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), ".xbulk-snap.%ld.%d",
			 (long)getpid(), i);
		w->fd = openat(w->dirfd, name, O_CREAT | O_EXCL | O_WRONLY |
			       O_CLOEXEC, 0600);
		if (w->fd >= 0) {
			w->tmpname = strdup(name);
			return w->tmpname ? 0 : -ENOMEM;
		}
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

int
xbulk_snap_writer_new(const char *path, const struct xbulk_snap_write_opts *o,
		      struct xbulk_snap_writer **out)
{
	struct xbulk_snap_writer *w;
	char *dcopy, *bcopy;
	struct stat st;
	int ret;

	*out = NULL;
	if (!o || o->size < sizeof(size_t) + sizeof(int) ||
	    o->level < 0 || o->level > ZSTD_maxCLevel())
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fd = w->dirfd = -1;
	w->level = o->level;
	dcopy = strdup(path);
	bcopy = strdup(path);
	if (!dcopy || !bcopy) {
		ret = -ENOMEM;
		goto fail;
	}
	w->base = strdup(basename(bcopy));
	if (!w->base) {
		ret = -ENOMEM;
		goto fail;
	}
	/* a name, not a directory ("", "/", "dir/") */
	if (!*path || path[strlen(path) - 1] == '/') {
		ret = *path ? -EISDIR : -ENOENT;
		goto fail;
	}
	w->dirfd = open(dirname(dcopy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w->dirfd < 0) {
		ret = -errno;
		goto fail;
	}
	/* only a regular file is replaced: never a directory, a device
	 * (/dev/null), a FIFO or a socket, nor a symlink to one */
	if (!fstatat(w->dirfd, w->base, &st, 0) && !S_ISREG(st.st_mode)) {
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -EEXIST;
		goto fail;
	}
	w->raw = malloc(SNAP_BLOCK_RAW);
	w->spare = malloc(SNAP_BLOCK_RAW);
	w->zcap = ZSTD_compressBound(SNAP_BLOCK_RAW);
	w->zbuf = malloc(w->zcap);
	w->cctx = w->level ? ZSTD_createCCtx() : NULL;
	if (!w->raw || !w->spare || !w->zbuf || (w->level && !w->cctx)) {
		ret = -ENOMEM;
		goto fail;
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	/* without a thread, blocks are written in the caller's */
	w->threaded = !pthread_create(&w->thread, NULL, worker, w);
	sweep(w->dirfd);
	ret = make_file(w);
	if (ret)
		goto fail;
	if (fstat(w->fd, &st)) {
		ret = -errno;
		goto fail;
	}
	w->dev = st.st_dev;
	w->ino = st.st_ino;
	free(dcopy);
	free(bcopy);
	*out = w;
	return 0;
fail:
	free(dcopy);
	free(bcopy);
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

	for (i = 0; i < rec->nlinks; i++)
		if (!rec->links[i].namelen || rec->links[i].namelen > 255)
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

/* Give the file its name: link it there, or beside it and rename. */
static int
put_in_place(struct xbulk_snap_writer *w)
{
	char proc[64], tmp[80];
	int i;

	if (w->tmpname)
		return renameat(w->dirfd, w->tmpname, w->dirfd, w->base) ?
		       -errno : 0;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", w->fd);
	if (!linkat(AT_FDCWD, proc, w->dirfd, w->base, AT_SYMLINK_FOLLOW))
		return 0;
	if (errno != EEXIST)
		return -errno;
	for (i = 0; i < 100; i++) {
		snprintf(tmp, sizeof(tmp), ".xbulk-snap.%ld.%d",
			 (long)getpid(), i);
		if (!linkat(AT_FDCWD, proc, w->dirfd, tmp, AT_SYMLINK_FOLLOW))
			break;
		if (errno != EEXIST)
			return -errno;
	}
	if (i == 100)
		return -EEXIST;
	if (renameat(w->dirfd, tmp, w->dirfd, w->base)) {
		int err = -errno;

		unlinkat(w->dirfd, tmp, 0);
		return err;
	}
	return 0;
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

	if (!ret)
		ret = put_in_place(w);
	if (!ret) {
		free(w->tmpname);	/* it is the file's name now */
		w->tmpname = NULL;
		if (fsync(w->dirfd))
			ret = -errno;
	}
	if (ret) {
		xbulk_snap_writer_abort(w);
		return ret;
	}
	close(w->fd);
	w->fd = -1;
	xbulk_snap_writer_abort(w);
	return 0;
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
	if (w->tmpname && w->dirfd >= 0)
		unlinkat(w->dirfd, w->tmpname, 0);
	if (w->fd >= 0)
		close(w->fd);
	if (w->dirfd >= 0)
		close(w->dirfd);
	ZSTD_freeCCtx(w->cctx);
	free(w->raw);
	free(w->spare);
	free(w->zbuf);
	free(w->base);
	free(w->tmpname);
	free(w);
}
