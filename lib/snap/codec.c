// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Snapshot records to and from bytes (the layout: snap.h and
 * docs/formats.md).  Varints are LEB128, signed values zigzag-coded
 * first (lib/varint.h).
 * Times other than ctime are stored relative to it: a file's four times
 * are mostly equal or close, so each usually costs two bytes.  An
 * inode's names go into as many records as they need (a first one and
 * continuations, each SNAP_REC_MAX bytes at most), which the reader
 * joins again.  Every read is bounds-checked: damaged bytes give
 * -EBADMSG, never a read past the record.
 */
#include <errno.h>
#include <stdlib.h>
#include <xxhash.h>

#include "snap.h"

uint64_t
snap_hash(const void *p, size_t len, uint64_t seed)
{
	return XXH3_64bits_withSeed(p, len, seed);
}

/* A time as (seconds, ns) relative to @base. */
static uint8_t *
put_reltime(uint8_t *p, int64_t sec, uint32_t nsec, int64_t bsec,
	    uint32_t bnsec)
{
	p = xbl_put_var(p, xbl_zig((int64_t)((uint64_t)sec - (uint64_t)bsec)));
	return xbl_put_var(p, xbl_zig((int64_t)nsec - (int64_t)bnsec));
}

/* Bytes name @l of inode @ino takes in a record. */
static size_t
link_len(const struct xbulk_snap_link *l, uint64_t ino)
{
	return xbl_var_len(xbl_zig((int64_t)(l->parent - ino))) +
	       xbl_var_len(l->namelen) + l->namelen;
}

/* The fields of @bs after the flags byte, and the count of names. */
static uint8_t *
put_fields(uint8_t *p, const struct xfs_bulkstat *bs, uint32_t nlinks)
{
	put_le32(p, bs->bs_gen);
	p += 4;
	p = xbl_put_var(p, bs->bs_mode);
	p = xbl_put_var(p, bs->bs_nlink);
	p = xbl_put_var(p, bs->bs_uid);
	p = xbl_put_var(p, bs->bs_gid);
	p = xbl_put_var(p, bs->bs_projectid);
	p = xbl_put_var(p, bs->bs_size);
	p = xbl_put_var(p, bs->bs_blocks);
	p = xbl_put_var(p, bs->bs_rdev);
	p = xbl_put_var(p, bs->bs_xflags);
	p = xbl_put_var(p, bs->bs_extents64);
	p = xbl_put_var(p, bs->bs_aextents);
	p = xbl_put_var(p, xbl_zig(bs->bs_ctime));
	put_le32(p, bs->bs_ctime_nsec);
	p += 4;
	p = put_reltime(p, bs->bs_mtime, bs->bs_mtime_nsec, bs->bs_ctime,
			bs->bs_ctime_nsec);
	p = put_reltime(p, bs->bs_atime, bs->bs_atime_nsec, bs->bs_ctime,
			bs->bs_ctime_nsec);
	p = put_reltime(p, bs->bs_btime, bs->bs_btime_nsec, bs->bs_ctime,
			bs->bs_ctime_nsec);
	return xbl_put_var(p, nlinks);
}

/* Most bytes of the flags, the fields and the count: the flags, gen,
 * 11 varints, ctime's (a varint and 4 bytes), 3 times 2 varints, the
 * count (a varint of 10 bytes at most). */
#define HEAD_MAX	(1 + 4 + 11 * 10 + 10 + 4 + 3 * 2 * 10 + 10)

size_t
snap_encode_rec(uint8_t *dst, uint64_t prev, const struct xbulk_snap_rec *rec,
		uint32_t *next)
{
	const struct xfs_bulkstat *bs = rec->bs;
	uint8_t head[HEAD_MAX], *p = head, *out = dst;
	uint64_t delta = bs->bs_ino - prev;
	uint32_t i = *next, end;
	size_t room, body;

	/* a continuation's flags say only whether another follows */
	*p++ = i ? 0 : (uint8_t)(rec->flags & ~SNAP_REC_MORE);
	if (!i)
		p = put_fields(p, bs, rec->nlinks);
	/* the body's length takes 3 bytes at most: SNAP_REC_MAX < 2^21 */
	body = (size_t)(p - head);
	room = SNAP_REC_MAX - xbl_var_len(delta) - 3 - body;
	for (end = i; end < rec->nlinks; end++) {
		size_t n = link_len(&rec->links[end], bs->bs_ino);

		if (n > room)
			break;
		room -= n;
		body += n;
	}
	if (end < rec->nlinks)
		head[0] |= SNAP_REC_MORE;
	out = xbl_put_var(out, delta);
	out = xbl_put_var(out, body);
	memcpy(out, head, (size_t)(p - head));
	out += p - head;
	for (; i < end; i++) {
		const struct xbulk_snap_link *l = &rec->links[i];

		out = xbl_put_var(out, xbl_zig((int64_t)(l->parent - bs->bs_ino)));
		out = xbl_put_var(out, l->namelen);
		memcpy(out, l->name, l->namelen);
		out += l->namelen;
	}
	*next = end;
	return (size_t)(out - dst);
}

int
snap_link_cmp(const void *a, const void *b)
{
	const struct xbulk_snap_link *x = a, *y = b;
	uint32_t n = x->namelen < y->namelen ? x->namelen : y->namelen;
	int c;

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	c = memcmp(x->name, y->name, n);
	return c ? c : (x->namelen > y->namelen) - (x->namelen < y->namelen);
}

size_t
snap_encode_dir(uint8_t *dst, uint64_t prev, const struct snap_dir *d,
		const char *name)
{
	uint8_t *p = dst;
	size_t body = 4 + xbl_var_len(d->parent) + xbl_var_len(d->namelen) +
		      d->namelen;

	p = xbl_put_var(p, d->ino - prev);
	p = xbl_put_var(p, body);
	put_le32(p, d->gen);
	p += 4;
	p = xbl_put_var(p, d->parent);
	p = xbl_put_var(p, d->namelen);
	memcpy(p, name, d->namelen);
	return (size_t)(p - dst) + d->namelen;
}

int
snap_split(const uint8_t **p, const uint8_t *end, uint64_t prev,
	   struct snap_raw *raw)
{
	uint64_t delta, len;

	if (xbl_get_var(p, end, &delta) || xbl_get_var(p, end, &len) ||
	    len > (uint64_t)(end - *p) || len > SNAP_REC_MAX ||
	    delta > UINT64_MAX - prev)
		return -EBADMSG;
	raw->ino = prev + delta;
	raw->body = *p;
	raw->len = len;
	*p += len;
	return 0;
}

int
snap_join_start(struct snap_raw *raw, uint8_t **buf, size_t *cap)
{
	if (xbl_grow((void **)buf, cap, raw->len, 1))
		return -ENOMEM;
	memcpy(*buf, raw->body, raw->len);
	(*buf)[0] &= (uint8_t)~SNAP_REC_MORE;
	raw->body = *buf;
	return 0;
}

int
snap_join(struct snap_raw *raw, const struct snap_raw *c, uint8_t **buf,
	  size_t *cap, bool *more)
{
	/* the same inode, a name at least (3 bytes), no flag but MORE */
	if (c->ino != raw->ino || c->len < 1 + 3 ||
	    (c->body[0] & ~SNAP_REC_MORE))
		return -EBADMSG;
	if (xbl_grow((void **)buf, cap, raw->len + c->len - 1, 1))
		return -ENOMEM;
	memcpy(*buf + raw->len, c->body + 1, c->len - 1);
	raw->len += c->len - 1;
	raw->body = *buf;
	*more = c->body[0] & SNAP_REC_MORE;
	return 0;
}

bool
snap_name_ok(const char *name, size_t len)
{
	if (!len || len > 255 || memchr(name, '/', len) ||
	    memchr(name, '\0', len))
		return false;
	/* "." and "..": a path made of them would leave its directory */
	return !(name[0] == '.' && (len == 1 || (len == 2 && name[1] == '.')));
}

/* A field of @max at most: 0 or -EBADMSG. */
static inline int
get_field(const uint8_t **p, const uint8_t *end, uint64_t max, uint64_t *v)
{
	return xbl_get_var(p, end, v) || *v > max ? -EBADMSG : 0;
}

static int
get_reltime(const uint8_t **p, const uint8_t *end, int64_t bsec,
	    uint32_t bnsec, int64_t *sec, uint32_t *nsec)
{
	uint64_t ds, dn;
	int64_t n;

	if (xbl_get_var(p, end, &ds) || xbl_get_var(p, end, &dn))
		return -EBADMSG;
	*sec = (int64_t)((uint64_t)bsec + (uint64_t)xbl_unzig(ds));
	n = (int64_t)bnsec + xbl_unzig(dn);
	if (n < 0 || n >= 1000000000)
		return -EBADMSG;
	*nsec = (uint32_t)n;
	return 0;
}

int
snap_decode_rec(const struct snap_raw *raw, struct xfs_bulkstat *bs,
		uint32_t *flags, struct xbulk_snap_link **links, size_t *lcap,
		uint32_t *nlinks)
{
	const uint8_t *p = raw->body, *end = raw->body + raw->len;
	uint64_t v[11], n, i;
	size_t k;

	memset(bs, 0, sizeof(*bs));
	if (raw->len < 5 + 11 + 1 + 4)
		return -EBADMSG;
	*flags = p[0];
	bs->bs_ino = raw->ino;
	bs->bs_gen = get_le32(p + 1);
	p += 5;
	for (k = 0; k < 11; k++)
		if (xbl_get_var(&p, end, &v[k]))
			return -EBADMSG;
	if (v[0] > 0xffff || v[1] > UINT32_MAX || v[2] > UINT32_MAX ||
	    v[3] > UINT32_MAX || v[4] > UINT32_MAX || v[7] > UINT32_MAX ||
	    v[10] > UINT32_MAX || v[5] > INT64_MAX || v[6] > INT64_MAX)
		return -EBADMSG;
	bs->bs_mode = (uint16_t)v[0];
	bs->bs_nlink = (uint32_t)v[1];
	bs->bs_uid = (uint32_t)v[2];
	bs->bs_gid = (uint32_t)v[3];
	bs->bs_projectid = (uint32_t)v[4];
	bs->bs_size = v[5];
	bs->bs_blocks = v[6];
	bs->bs_rdev = (uint32_t)v[7];
	bs->bs_xflags = v[8];
	bs->bs_extents64 = v[9];
	bs->bs_aextents = (uint32_t)v[10];
	if (xbl_get_var(&p, end, &n) || end - p < 4)
		return -EBADMSG;
	bs->bs_ctime = xbl_unzig(n);
	bs->bs_ctime_nsec = get_le32(p);
	p += 4;
	if (bs->bs_ctime_nsec >= 1000000000 ||
	    get_reltime(&p, end, bs->bs_ctime, bs->bs_ctime_nsec,
			&bs->bs_mtime, &bs->bs_mtime_nsec) ||
	    get_reltime(&p, end, bs->bs_ctime, bs->bs_ctime_nsec,
			&bs->bs_atime, &bs->bs_atime_nsec) ||
	    get_reltime(&p, end, bs->bs_ctime, bs->bs_ctime_nsec,
			&bs->bs_btime, &bs->bs_btime_nsec))
		return -EBADMSG;
	/* Each name takes 3 bytes at least; a count fits 32 bits. */
	if (xbl_get_var(&p, end, &n) || n > (uint64_t)(end - p) / 3 ||
	    n > UINT32_MAX)
		return -EBADMSG;
	if (n > *lcap) {
		void *q = realloc(*links, n * sizeof(**links));

		if (!q)
			return -ENOMEM;
		*links = q;
		*lcap = n;
	}
	for (i = 0; i < n; i++) {
		struct xbulk_snap_link *l = &(*links)[i];
		uint64_t par, len;

		if (xbl_get_var(&p, end, &par) || get_field(&p, end, 255, &len) ||
		    !len || len > (uint64_t)(end - p))
			return -EBADMSG;
		l->parent = raw->ino + (uint64_t)xbl_unzig(par);
		l->name = (const char *)p;
		l->namelen = (uint32_t)len;
		if (!l->parent || !snap_name_ok(l->name, len) ||
		    (i && snap_link_cmp(l - 1, l) > 0))
			return -EBADMSG;	/* out of order: see has_link() */
		p += len;
	}
	if (p != end)
		return -EBADMSG;
	*nlinks = (uint32_t)n;
	return 0;
}
