// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Read one open directory into a listing (listing.h): getdents64 into a
 * large buffer, the entries packed into the reader's scratch, then put in
 * GNU find's order and copied once into the reader's listing blocks.  No
 * allocation per entry: the buffers only grow.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "dirs.h"
#include "listing.h"
#include "spill.h"
#include "store.h"

/* A large buffer: fewer calls for big directories, and XFS reads ahead
 * directory blocks in proportion to it (xfs_dir2_leaf_getdents()). */
#define DBUF_SIZE	(256U * 1024)
#define LBLOCK_SIZE	XBN_BLOCK_ALIGN
#define NAME_MAX_XFS	255

int
xbn_reader_init(struct xbn_reader *r, struct xbn_spill *mem,
		const volatile int *cancel)
{
	memset(r, 0, sizeof(*r));
	r->mem = mem;
	r->cancel = cancel;
	r->dbuf_size = DBUF_SIZE;
	r->dbuf = malloc(r->dbuf_size);
	return r->dbuf ? 0 : -ENOMEM;
}

void
xbn_reader_fini(struct xbn_reader *r)
{
	free(r->dbuf);
	free(r->scratch);
	free(r->order);
	r->dbuf = NULL;
	r->scratch = NULL;
	r->order = NULL;
}

void
xbn_lblocks_free(struct xbn_spill *mem, struct xbn_lblock *b)
{
	while (b) {
		struct xbn_lblock *next = b->next;

		xbn_free_block(mem, b, sizeof(*b) + b->cap);
		b = next;
	}
}

/* @len bytes of listing memory in the reader's blocks, or of its own
 * (own_lists), and XBN_LIST_SLACK readable after them; or NULL. */
static uint8_t *
listing_alloc(struct xbn_reader *r, size_t len)
{
	struct xbn_lblock *b = r->blocks;

	if (r->own_lists)
		return calloc(1, len + XBN_LIST_SLACK);
	len += XBN_LIST_SLACK;
	if (!b || b->cap - b->used < len) {
		bool big = len > LBLOCK_SIZE / 4;
		size_t got = sizeof(*b) + len;

		b = xbn_alloc_block(r->mem, big ? got : LBLOCK_SIZE, &got,
				    !big);
		if (!b)
			return NULL;
		b->used = 0;
		b->cap = got - sizeof(*b);
		r->bytes += got;
		/* A big listing gets a block of its own, behind the one
		 * being filled. */
		if (big && r->blocks) {
			b->next = r->blocks->next;
			r->blocks->next = b;
		} else {
			b->next = r->blocks;
			r->blocks = b;
		}
	}
	/* the slack of one listing is the start of the next one */
	b->used += len - XBN_LIST_SLACK;
	return b->data + b->used - (len - XBN_LIST_SLACK);
}

struct order_key {
	uint64_t	ino;
	uint64_t	off;	/* in readdir order: ties keep it */
};

static int
cmp_key(const void *a, const void *b)
{
	const struct order_key *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* Copy entry @e to @dst unless it was folded; return where the next
 * entry goes. */
static uint8_t *
put_entry(uint8_t *dst, const uint8_t *e)
{
	size_t elen = xbn_ent_len(e);

	if (xbn_ent_dtype(e) == XBN_DT_FOLDED)
		return dst;
	memcpy(dst, e, elen);
	return dst + elen;
}

int
xbn_order_listing(struct xbn_reader *r, uint8_t *dst, const uint8_t *buf,
		  size_t len, uint64_t n, bool folded)
{
	struct order_key *k;
	const uint8_t *e;
	uint64_t i, b;

	bool sort = n > XBN_FTS_SORT_OVER && !r->no_sort;

	if (!sort && !folded) {
		memcpy(dst, buf, len);
		return 0;
	}
	if (!sort) {
		for (e = buf; e < buf + len; e = xbn_ent_next(e))
			dst = put_entry(dst, e);
		return 0;
	}
	if (xbl_grow(&r->order, &r->order_cap, n, sizeof(*k)))
		return -ENOMEM;
	k = r->order;
	for (i = 0, e = buf; i < n; i++, e = xbn_ent_next(e)) {
		k[i].ino = xbn_ent_ino(e);
		k[i].off = (uint64_t)(e - buf);
	}
	for (b = 0; b < n; b += XBN_FTS_BATCH) {
		uint64_t cnt = n - b < XBN_FTS_BATCH ? n - b : XBN_FTS_BATCH;

		if (cnt > XBN_FTS_SORT_OVER)
			qsort(k + b, cnt, sizeof(*k), cmp_key);
	}
	for (i = 0; i < n; i++)
		dst = put_entry(dst, buf + k[i].off);
	return 0;
}

/* Append the entries of one getdents64 buffer to the scratch listing. */
static int
parse(struct xbn_reader *r, struct xbn_dir *d, size_t len, size_t *used,
      uint64_t *n, int64_t *last_off, uint64_t *dot)
{
	size_t pos;

	for (pos = 0; pos < len;) {
		const struct dirent64 *de = (void *)(r->dbuf + pos);
		size_t nl = strlen(de->d_name);
		uint8_t *e;

		pos += de->d_reclen;
		*last_off = de->d_off;
		if (de->d_name[0] == '.' &&
		    (nl == 1 || (nl == 2 && de->d_name[1] == '.'))) {
			if (nl == 2)
				d->dotdot = de->d_ino;
			else
				*dot = de->d_ino;
			continue;
		}
		if (nl > NAME_MAX_XFS || de->d_reclen == 0)
			return -EUCLEAN;
		if (xbl_grow((void **)&r->scratch, &r->scratch_cap,
			 *used + XBN_ENT_MAX, 1))
			return -ENOMEM;
		e = r->scratch + *used;
		*used += xbn_ent_put(e, de->d_ino, de->d_type & 15u, de->d_name,
				     nl);
		(*n)++;
	}
	return 0;
}

/*
 * getdents64 until the end.  Every call must move the directory offset
 * forward (XFS's offsets grow through a directory): a directory that
 * does not is damaged and its read ends rather than loop.
 */
static int
read_all(struct xbn_reader *r, int fd, struct xbn_dir *d, size_t *used,
	 uint64_t *n, uint64_t *dot)
{
	int64_t last = INT64_MIN;

	for (;;) {
		int64_t off = last;
		ssize_t len;
		int ret;

		if (xbl_cancelled(r->cancel))
			return -EINTR;
		len = getdents64(fd, r->dbuf, r->dbuf_size);
		if (len < 0)
			return -errno;
		if (len == 0)
			return 0;
		ret = parse(r, d, (size_t)len, used, n, &off, dot);
		if (ret)
			return ret;
		if (off <= last)
			return -EUCLEAN;
		last = off;
	}
}

/*
 * Fold the entries of the scratch listing (@used bytes) that r->fold
 * takes into @d (their type becomes XBN_DT_FOLDED); return the bytes of
 * the others.  An inode with several links (its paths count where a walk
 * meets them first) and an entry whose type is not its inode's (a
 * reused inode, which walks skip) stay.
 */
static size_t
fold(struct xbn_reader *r, struct xbn_dir *d, size_t used)
{
	const struct xbn_fold *f = r->fold;
	uint8_t *e, *end = r->scratch + used;
	struct xfs_bulkstat bs;
	size_t kept = used;

	memset(&bs, 0, sizeof(bs));	/* fields not kept stay 0 */
	for (e = r->scratch; e < end; e += xbn_ent_len(e)) {
		unsigned int dt = xbn_ent_dtype(e);
		const struct xbn_slot *slot;
		uint64_t v = 0;

		if (dt == DT_DIR)
			continue;
		slot = xbn_lookup(f->store, xbn_ent_ino(e));
		if (!slot || S_ISDIR(slot->mode) ||
		    (slot->flags & XBN_SLOT_LINKED) ||
		    (dt != DT_UNKNOWN && DTTOIF(dt) != (slot->mode & S_IFMT)))
			continue;
		bs.bs_ino = xbn_ent_ino(e);
		bs.bs_mode = slot->mode;
		bs.bs_gen = slot->aux;
		xbn_unpack(&f->store->lay, &bs, slot);
		if (!f->fn(f->arg, &bs, &v))
			continue;
		xbn_ent_set_dtype(e, XBN_DT_FOLDED);
		d->folded++;
		d->fold_value += v;
		kept -= xbn_ent_len(e);
	}
	return kept;
}

int
xbn_read_fd(struct xbn_reader *r, int fd, struct xbn_dir *d)
{
	uint64_t n = 0, dot = 0;
	size_t used = 0, kept;
	uint8_t *list;
	int err;

	err = read_all(r, fd, d, &used, &n, &dot);
	if (err == -EINTR || err == -ENOENT)
		return err;
	if (dot != d->ino && (!err || dot))
		return -ESTALE;		/* the name leads elsewhere now */
	if (err) {
		d->flags |= XBN_DIR_UNREADABLE;
		d->err = err;
	} else {
		d->flags |= XBN_DIR_READ;
	}
	d->nentries = n;
	d->folded = d->fold_value = 0;
	kept = n && r->fold ? fold(r, d, used) : used;
	if (!kept) {
		d->list = NULL;
		d->listlen = 0;
		return 0;
	}
	list = listing_alloc(r, kept);
	if (!list)
		return r->mem->err ? r->mem->err : -ENOMEM;
	if (xbn_order_listing(r, list, r->scratch, used, n, kept < used))
		return -ENOMEM;
	xbn_spill_tick(r->mem, (unsigned int)(n > 4096 ? 4096 : n));
	d->list = list;
	d->listlen = kept;
	return 0;
}
