// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reading a snapshot file.  Opening checks everything before the first
 * record is handed out: the header (magic, version, checksum), the
 * trailer, every block's checksum and the chain of them (so a block
 * missing, repeated or out of order is seen too), then reads the
 * directory table.  The records then stream one block at a time (1 MiB
 * of records, read with pread and decompressed into one buffer), each
 * block checked again as it is read; an inode whose names take
 * continuation records is joined into one more buffer, as large as its
 * record whole.  Damage always gives -EBADMSG with
 * one line saying where; no input makes it read out of bounds or loop.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "snap.h"

struct reader {
	struct xbulk_snap	s;		/* first: what callers see */
	int			fd;
	uint64_t		size;
	uint64_t		diroff;
	uint64_t		iblocks, dblocks;
	uint64_t		inodes, links;	/* the trailer's counts */
	/* Streaming */
	uint64_t		pos;		/* next inode block */
	uint64_t		left;		/* inode blocks not read */
	uint64_t		seen;		/* records handed out */
	uint8_t			*stored;
	size_t			storedcap;
	uint8_t			*raw;		/* rawmax bytes */
	uint32_t		rawmax;		/* the largest block's */
	const uint8_t		*p, *end;
	uint64_t		blk;		/* the block's offset */
	uint32_t		nrecs;		/* its records */
	uint32_t		recs;		/* left in the block */
	uint64_t		prev;		/* in the block */
	uint64_t		last;		/* record handed out last */
	uint8_t			*whole;		/* a record joined from */
	size_t			wholecap;	/* its continuations */
	ZSTD_DCtx		*dctx;
};

static int
why_set(char *why, size_t size, int err, const char *fmt, ...)
{
	va_list ap;

	if (why && size) {
		va_start(ap, fmt);
		vsnprintf(why, size, fmt, ap);
		va_end(ap);
	}
	return err;
}

static int
read_at(int fd, void *buf, size_t len, uint64_t off)
{
	char *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!n)
			return -EBADMSG;	/* shorter than it said */
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* A block's header at @off, checked; its payload read into r->stored. */
struct blk {
	uint8_t		kind, method;
	uint32_t	stored, raw, nrecs;
	uint64_t	sum;
};

static int
read_block(struct reader *r, uint64_t off, struct blk *b, char *why,
	   size_t whysize)
{
	uint8_t h[SNAP_BLK_HDR];
	int ret;

	if (off + SNAP_BLK_HDR > r->size - SNAP_TRAILER)
		return why_set(why, whysize, -EBADMSG, "truncated: block at "
			       "byte %llu runs past the end",
			       (unsigned long long)off);
	ret = read_at(r->fd, h, sizeof(h), off);
	if (ret)
		return why_set(why, whysize, ret, "reading byte %llu: %s",
			       (unsigned long long)off, strerror(-ret));
	b->kind = h[B_KIND];
	b->method = h[B_METHOD];
	b->stored = get_le32(h + B_STORED);
	b->raw = get_le32(h + B_RAW);
	b->nrecs = get_le32(h + B_NRECS);
	b->sum = get_le64(h + B_CHECKSUM);
	if (get_le32(h + B_MAGIC) != SNAP_BLK_MAGIC ||
	    (b->kind != SNAP_BLK_INODES && b->kind != SNAP_BLK_DIRS) ||
	    b->method > SNAP_ZSTD || b->raw > SNAP_BLOCK_RAW || !b->raw ||
	    b->stored > ZSTD_compressBound(SNAP_BLOCK_RAW) || !b->nrecs ||
	    (b->method == SNAP_STORED && b->stored != b->raw))
		return why_set(why, whysize, -EBADMSG, "damaged block header "
			       "at byte %llu", (unsigned long long)off);
	if (off + SNAP_BLK_HDR + b->stored > r->size - SNAP_TRAILER)
		return why_set(why, whysize, -EBADMSG, "truncated: block at "
			       "byte %llu runs past the end",
			       (unsigned long long)off);
	if (b->stored > r->storedcap) {
		void *p = realloc(r->stored, b->stored);

		if (!p)
			return why_set(why, whysize, -ENOMEM, "%s",
				       strerror(ENOMEM));
		r->stored = p;
		r->storedcap = b->stored;
	}
	ret = read_at(r->fd, r->stored, b->stored, off + SNAP_BLK_HDR);
	if (ret)
		return why_set(why, whysize, ret, "reading byte %llu: %s",
			       (unsigned long long)off, strerror(-ret));
	if (snap_hash(r->stored, b->stored, snap_hash(h, B_CHECKSUM, 0)) !=
	    b->sum)
		return why_set(why, whysize, -EBADMSG, "checksum mismatch in "
			       "the block at byte %llu",
			       (unsigned long long)off);
	return 0;
}

/* The payload of @b (in r->stored) into r->raw. */
static int
unpack(struct reader *r, const struct blk *b, uint64_t off, char *why,
       size_t whysize)
{
	size_t n;

	if (b->method == SNAP_STORED && b->raw <= r->rawmax) {
		memcpy(r->raw, r->stored, b->raw);
		return 0;
	}
	if (b->raw > r->rawmax)
		return why_set(why, whysize, -EBADMSG, "block at byte %llu "
			       "changed since it was checked",
			       (unsigned long long)off);
	n = ZSTD_decompressDCtx(r->dctx, r->raw, r->rawmax, r->stored,
				b->stored);
	if (ZSTD_isError(n) || n != b->raw)
		return why_set(why, whysize, -EBADMSG, "damaged compressed "
			       "block at byte %llu", (unsigned long long)off);
	return 0;
}

static void
get_str(char *dst, size_t size, const uint8_t *src)
{
	memcpy(dst, src, size - 1);
	dst[size - 1] = '\0';
}

static int
check_header(struct reader *r, char *why, size_t whysize)
{
	struct xbulk_snap_info *i = &r->s.info;
	uint8_t h[SNAP_HDR_SIZE];
	uint32_t v;
	int ret;

	if (!r->size)
		return why_set(why, whysize, -ENODATA, "empty file");
	ret = read_at(r->fd, h, r->size < sizeof(h) ? r->size : sizeof(h), 0);
	if (ret)
		return why_set(why, whysize, ret, "%s", strerror(-ret));
	if (r->size < 8 || memcmp(h, SNAP_MAGIC, 8))
		return why_set(why, whysize, -EILSEQ, "not an xbulk snapshot");
	if (r->size < SNAP_HDR_SIZE + SNAP_TRAILER)
		return why_set(why, whysize, -EBADMSG, "truncated (%llu "
			       "bytes)", (unsigned long long)r->size);
	v = get_le32(h + H_VERSION);
	if (v != XBULK_SNAP_VERSION)
		return why_set(why, whysize, -EPROTONOSUPPORT, "snapshot "
			       "format version %u (this xbulk reads version "
			       "%u)", v, XBULK_SNAP_VERSION);
	if (get_le32(h + H_HDRSIZE) != SNAP_HDR_SIZE ||
	    snap_hash(h, H_CHECKSUM, 0) != get_le64(h + H_CHECKSUM))
		return why_set(why, whysize, -EBADMSG, "damaged header "
			       "(checksum mismatch)");
	i->version = v;
	memcpy(i->uuid, h + H_UUID, 16);
	i->blocksize = get_le32(h + H_BLOCKSIZE);
	i->agcount = get_le32(h + H_AGCOUNT);
	i->agblocks = get_le32(h + H_AGBLOCKS);
	i->inodesize = get_le32(h + H_INODESIZE);
	i->threads = get_le32(h + H_THREADS);
	i->datablocks = get_le64(h + H_DATABLOCKS);
	i->top = get_le64(h + H_TOP);
	i->start_sec = (int64_t)get_le64(h + H_START_SEC);
	i->start_nsec = get_le32(h + H_START_NSEC);
	i->end_sec = (int64_t)get_le64(h + H_END_SEC);
	i->end_nsec = get_le32(h + H_END_NSEC);
	get_str(i->xbulk_version, sizeof(i->xbulk_version), h + H_VERSTR);
	get_str(i->host, sizeof(i->host), h + H_HOST);
	get_str(i->mountpoint, sizeof(i->mountpoint), h + H_MOUNTPOINT);
	i->file_bytes = r->size;
	r->s.dirs.top = i->top;
	return 0;
}

static int
check_trailer(struct reader *r, uint64_t *chain, char *why, size_t whysize)
{
	uint8_t t[SNAP_TRAILER];
	int ret;

	ret = read_at(r->fd, t, sizeof(t), r->size - SNAP_TRAILER);
	if (ret)
		return why_set(why, whysize, ret, "%s", strerror(-ret));
	if (memcmp(t, SNAP_END_MAGIC, 8) ||
	    snap_hash(t, T_CHECKSUM, 0) != get_le64(t + T_CHECKSUM))
		return why_set(why, whysize, -EBADMSG, "truncated or damaged "
			       "(no valid trailer at its end)");
	r->inodes = get_le64(t + T_INODES);
	r->links = get_le64(t + T_LINKS);
	r->s.info.dirs = get_le64(t + T_DIRS);
	r->iblocks = get_le64(t + T_IBLOCKS);
	r->dblocks = get_le64(t + T_DBLOCKS);
	r->diroff = get_le64(t + T_DIROFF);
	*chain = get_le64(t + T_CHAIN);
	r->s.info.inodes = r->inodes;
	r->s.info.links = r->links;
	return 0;
}

/* Every block's checksum, the chain of them and their kinds' order. */
static int
check_blocks(struct reader *r, uint64_t want_chain, char *why, size_t whysize)
{
	uint64_t off = SNAP_HDR_SIZE, ni = 0, nd = 0;
	uint64_t chain;
	uint8_t h[SNAP_HDR_SIZE];
	struct blk b;
	int ret;

	ret = read_at(r->fd, h, sizeof(h), 0);
	if (ret)
		return why_set(why, whysize, ret, "%s", strerror(-ret));
	chain = get_le64(h + H_CHECKSUM);
	while (off < r->size - SNAP_TRAILER) {
		ret = read_block(r, off, &b, why, whysize);
		if (ret)
			return ret;
		if ((b.kind == SNAP_BLK_INODES) != (off < r->diroff))
			return why_set(why, whysize, -EBADMSG, "block at byte "
				       "%llu out of place",
				       (unsigned long long)off);
		chain = snap_hash(&b.sum, sizeof(b.sum), chain);
		if (b.raw > r->rawmax)
			r->rawmax = b.raw;
		b.kind == SNAP_BLK_INODES ? ni++ : nd++;
		off += SNAP_BLK_HDR + b.stored;
	}
	if (ni != r->iblocks || nd != r->dblocks || chain != want_chain)
		return why_set(why, whysize, -EBADMSG, "damaged: blocks missing "
			       "or out of order");
	return 0;
}

static int
read_dirs(struct reader *r, char *why, size_t whysize)
{
	uint64_t off = r->diroff, n = 0;
	struct blk b;
	int ret;

	while (off < r->size - SNAP_TRAILER) {
		const uint8_t *p, *end;
		uint64_t prev = 0;
		uint32_t k;

		ret = read_block(r, off, &b, why, whysize);
		if (!ret)
			ret = unpack(r, &b, off, why, whysize);
		if (ret)
			return ret;
		p = r->raw;
		end = r->raw + b.raw;
		for (k = 0; k < b.nrecs; k++) {
			struct snap_raw raw;
			const uint8_t *q, *qe;
			uint64_t parent, len;

			if (snap_split(&p, end, prev, &raw) || raw.len < 6)
				goto bad;
			q = raw.body + 4;
			qe = raw.body + raw.len;
			/* a name as an entry's, or none: the top's, or a
			 * directory's without a parent (no path has it) */
			if (xbl_get_var(&q, qe, &parent) ||
			    xbl_get_var(&q, qe, &len) ||
			    len != (uint64_t)(qe - q) ||
			    (len ? !snap_name_ok((const char *)q, len)
				 : parent && raw.ino != r->s.dirs.top))
				goto bad;
			ret = snap_dirtab_add(&r->s.dirs, raw.ino,
					      get_le32(raw.body), parent,
					      (const char *)q, (uint32_t)len);
			if (ret == -EBADMSG)
				goto bad;
			if (ret)
				return why_set(why, whysize, ret, "%s",
					       strerror(-ret));
			prev = raw.ino;
			n++;
		}
		if (p != end)
			goto bad;
		off += SNAP_BLK_HDR + b.stored;
	}
	if (n != r->s.info.dirs)
		goto bad;
	ret = snap_dirtab_seal(&r->s.dirs);
	if (ret == -EBADMSG)
		goto bad;
	return ret ? why_set(why, whysize, ret, "%s", strerror(-ret)) : 0;
bad:
	return why_set(why, whysize, -EBADMSG, "damaged directory table "
		       "(block at byte %llu)", (unsigned long long)off);
}

static int
reader_rewind(struct xbulk_snap *s)
{
	struct reader *r = (struct reader *)s;

	r->pos = SNAP_HDR_SIZE;
	r->left = r->iblocks;
	r->seen = 0;
	r->p = r->end = NULL;
	r->recs = 0;
	return 0;
}

/* Load the next inode block; a failure (the file changed since it was
 * checked, or cannot be read) is said in r->s.why, naming the block. */
static int
load_block(struct reader *r)
{
	char *why = r->s.why;
	size_t whysize = sizeof(r->s.why);
	struct blk b;
	int ret;

	ret = read_block(r, r->pos, &b, why, whysize);
	if (!ret && b.kind != SNAP_BLK_INODES)
		ret = why_set(why, whysize, -EBADMSG, "block at byte %llu out "
			      "of place", (unsigned long long)r->pos);
	if (!ret)
		ret = unpack(r, &b, r->pos, why, whysize);
	if (ret)
		return ret;
	r->blk = r->pos;
	r->pos += SNAP_BLK_HDR + b.stored;
	r->left--;
	r->p = r->raw;
	r->end = r->raw + b.raw;
	r->nrecs = r->recs = b.nrecs;
	r->prev = 0;
	return 0;
}

/* The number in its block (from 1) of the record split last. */
static uint32_t
split_index(const struct reader *r)
{
	return r->nrecs - r->recs;
}

/* The next record of the file into @raw (1), or its end (0). */
static int
split_next(struct reader *r, struct snap_raw *raw)
{
	int ret;

	if (!r->recs) {
		if (r->p != r->end)
			return snap_fail(&r->s, -EBADMSG, "damaged block at "
					 "byte %llu (bytes after its last "
					 "record, %u)",
					 (unsigned long long)r->blk, r->nrecs);
		if (!r->left)
			return 0;
		ret = load_block(r);
		if (ret)
			return ret;
	}
	if (snap_split(&r->p, r->end, r->prev, raw))
		return snap_fail(&r->s, -EBADMSG, "damaged record %u of the "
				 "block at byte %llu (its length)",
				 r->nrecs - r->recs + 1,
				 (unsigned long long)r->blk);
	r->prev = raw->ino;
	r->recs--;
	return 1;
}

/* The record at s->raw goes on in continuation records: join them,
 * into r->whole (the block they are in is read over). */
static int
join(struct reader *r)
{
	struct snap_raw *raw = &r->s.raw, c;
	bool more = true;
	int ret;

	ret = snap_join_start(raw, &r->whole, &r->wholecap);
	while (!ret && more) {
		ret = split_next(r, &c);
		if (!ret)		/* the file ends first */
			return snap_fail(&r->s, -EBADMSG, "damaged record of "
					 "inode %llu (record %u of the block "
					 "at byte %llu): the file ends before "
					 "its last continuation",
					 (unsigned long long)raw->ino,
					 r->s.raw_index,
					 (unsigned long long)r->s.raw_block);
		if (ret < 0)
			break;
		ret = snap_join(raw, &c, &r->whole, &r->wholecap, &more);
		if (ret == -EBADMSG)
			return snap_fail(&r->s, ret, "damaged record %u of "
					 "the block at byte %llu: not a "
					 "continuation of inode %llu",
					 split_index(r),
					 (unsigned long long)r->blk,
					 (unsigned long long)raw->ino);
	}
	return ret;
}

/* The next record's bytes (decoded on demand: snap_decode()). */
static int
reader_next(struct xbulk_snap *s)
{
	struct reader *r = (struct reader *)s;
	int ret;

	ret = split_next(r, &s->raw);
	if (ret < 0)
		return ret;
	if (!ret && r->seen != r->inodes)
		return snap_fail(s, -EBADMSG, "damaged: %llu records where "
				 "the trailer says %llu",
				 (unsigned long long)r->seen,
				 (unsigned long long)r->inodes);
	if (!ret)
		return 0;
	s->raw_block = r->blk;
	s->raw_index = split_index(r);
	if (r->seen && s->raw.ino <= r->last)
		return snap_fail(s, -EBADMSG, "damaged record %u of the block "
				 "at byte %llu: inode %llu after inode %llu "
				 "(not in inode order)", s->raw_index,
				 (unsigned long long)s->raw_block,
				 (unsigned long long)s->raw.ino,
				 (unsigned long long)r->last);
	if (s->raw.len && (s->raw.body[0] & SNAP_REC_MORE)) {
		ret = join(r);
		if (ret)
			return ret;
	}
	r->last = s->raw.ino;
	r->seen++;
	s->has_raw = true;
	s->decoded = false;
	return 1;
}

static void
reader_close(struct xbulk_snap *s)
{
	struct reader *r = (struct reader *)s;

	if (r->fd >= 0)
		close(r->fd);
	free(r->stored);
	free(r->raw);
	free(r->whole);
	ZSTD_freeDCtx(r->dctx);
}

static const struct snap_ops reader_ops = {
	.next = reader_next,
	.rewind = reader_rewind,
	.close = reader_close,
};

int
xbulk_snap_open_fd(int fd, struct xbulk_snap **out, char *why, size_t whysize)
{
	struct reader *r;
	uint64_t chain = 0;
	struct stat st;
	int ret;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r) {
		close(fd);
		return why_set(why, whysize, -ENOMEM, "%s", strerror(ENOMEM));
	}
	r->s.ops = &reader_ops;
	r->fd = fd;
	r->dctx = ZSTD_createDCtx();
	if (!r->dctx) {
		ret = why_set(why, whysize, -ENOMEM, "%s", strerror(ENOMEM));
		goto fail;
	}
	if (fstat(fd, &st)) {
		ret = why_set(why, whysize, -errno, "%s", strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = why_set(why, whysize, -EINVAL, "not a regular file");
		goto fail;
	}
	r->size = (uint64_t)st.st_size;
	ret = check_header(r, why, whysize);
	if (!ret)
		ret = check_trailer(r, &chain, why, whysize);
	if (!ret && (r->diroff < SNAP_HDR_SIZE ||
		     r->diroff > r->size - SNAP_TRAILER))
		ret = why_set(why, whysize, -EBADMSG, "damaged trailer");
	if (!ret)
		ret = check_blocks(r, chain, why, whysize);
	if (!ret) {
		r->raw = malloc(r->rawmax ? r->rawmax : 1);
		if (!r->raw)
			ret = why_set(why, whysize, -ENOMEM, "%s",
				      strerror(ENOMEM));
	}
	if (!ret)
		ret = read_dirs(r, why, whysize);
	if (ret)
		goto fail;
	reader_rewind(&r->s);
	*out = &r->s;
	return 0;
fail:
	xbulk_snap_close(&r->s);
	return ret;
}

int
xbulk_snap_open(const char *path, struct xbulk_snap **s, char *why,
		size_t whysize)
{
	/* O_NONBLOCK: a FIFO there is refused, not waited on */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	*s = NULL;
	if (fd < 0)
		return why_set(why, whysize, -errno, "%s", strerror(errno));
	return xbulk_snap_open_fd(fd, s, why, whysize);
}
