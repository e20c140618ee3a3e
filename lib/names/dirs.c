// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The directory table: scan batches register the directories they find.
 * Records live in blocks of 4096 that never move, so an index stays valid
 * while others are added; one lock per batch, none per record.  The
 * blocks come from the budget (spill.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "names.h"

#define DIR_BLOCK_BYTES	(sizeof(struct xbn_dir) << XBN_DIR_SHIFT)

int
xbn_dirs_init(struct xbn_dirs *t, struct xbn_spill *mem)
{
	memset(t, 0, sizeof(*t));
	t->mem = mem;
	/* Only the pointers of blocks in use are ever touched. */
	t->blk = calloc(XBN_DIR_BLOCKS, sizeof(*t->blk));
	if (!t->blk)
		return -ENOMEM;
	pthread_mutex_init(&t->lock, NULL);
	return 0;
}

void
xbn_dirs_free(struct xbn_dirs *t)
{
	uint32_t b;

	if (!t->blk)
		return;
	for (b = 0; b < XBN_DIR_BLOCKS && t->blk[b]; b++)
		xbn_free_block(t->mem, t->blk[b], DIR_BLOCK_BYTES);
	free(t->blk);
	pthread_mutex_destroy(&t->lock);
	memset(t, 0, sizeof(*t));
}

int
xbn_dirs_add(struct xbn_dirs *t, const struct xfs_bulkstat *bs, uint32_t nbs,
	     uint32_t n, uint32_t *first)
{
	uint32_t b, i, k;
	size_t got;
	int ret = 0;

	pthread_mutex_lock(&t->lock);
	if ((uint64_t)t->n + n > (uint64_t)XBN_DIR_BLOCKS << XBN_DIR_SHIFT) {
		ret = -ENOMEM;
		goto out;
	}
	for (b = t->n >> XBN_DIR_SHIFT;
	     n && b <= (t->n + n - 1) >> XBN_DIR_SHIFT; b++) {
		if (t->blk[b])
			continue;
		t->blk[b] = xbn_alloc_block(t->mem, DIR_BLOCK_BYTES, &got,
					    false);
		if (!t->blk[b]) {
			ret = t->mem->err ? t->mem->err : -ENOMEM;
			goto out;
		}
		if (!xbn_spilled(t->mem, t->blk[b]))	/* the file's are 0 */
			memset(t->blk[b], 0, DIR_BLOCK_BYTES);
		t->bytes += got;
	}
	*first = t->n;
	for (i = 0, k = t->n; i < nbs; i++) {
		struct xbn_dir *d;

		if (!S_ISDIR(bs[i].bs_mode))
			continue;
		d = xbn_dir(t, k++);
		d->ino = bs[i].bs_ino;
		d->gen = bs[i].bs_gen;
		d->parent = XBN_NONE;
		d->mount = XBN_NONE;
	}
	t->n += n;
out:
	pthread_mutex_unlock(&t->lock);
	return ret;
}

char *
xbn_dir_path(const struct xbulk_names *nm, uint32_t d)
{
	size_t plen = strlen(nm->mountpoint), len, pos;
	uint32_t x, steps = 0;
	const uint8_t *e;
	char *path;

	if (d == nm->top)
		return strdup(nm->mountpoint);
	/* "/" + "/a" is "/a", "/mnt" + "/a" is "/mnt/a" */
	if (plen && nm->mountpoint[plen - 1] == '/')
		plen--;
	len = plen;
	for (x = d; x != nm->top; x = xbn_dir(&nm->dirs, x)->parent) {
		const struct xbn_dir *xd = xbn_dir(&nm->dirs, x);

		if (xd->parent == XBN_NONE || ++steps > nm->dirs.n)
			return NULL;
		e = xbn_dir(&nm->dirs, xd->parent)->list + xd->entry_off;
		len += 1 + xbn_ent_namelen(e);
	}
	path = malloc(len + 1);
	if (!path)
		return NULL;
	memcpy(path, nm->mountpoint, plen);
	path[len] = '\0';
	pos = len;
	for (x = d; x != nm->top; x = xbn_dir(&nm->dirs, x)->parent) {
		const struct xbn_dir *xd = xbn_dir(&nm->dirs, x);

		e = xbn_dir(&nm->dirs, xd->parent)->list + xd->entry_off;
		pos -= xbn_ent_namelen(e);
		memcpy(path + pos, xbn_ent_name(e), xbn_ent_namelen(e));
		path[--pos] = '/';
	}
	return path;
}

uint64_t
xbulk_names_folded(const struct xbulk_names *nm, const struct xbulk_entry *e,
		   uint64_t *value)
{
	const struct xbn_slot *slot;
	const struct xbn_dir *d;

	*value = 0;
	if (!nm->fold.fn || !S_ISDIR(e->bs->bs_mode) ||
	    (e->flags & (XBULK_ENTRY_MOUNT | XBULK_ENTRY_LIVE |
			 XBULK_ENTRY_BAD_INODE)))
		return 0;
	slot = xbn_lookup(&nm->store, e->bs->bs_ino);
	if (!slot || !S_ISDIR(slot->mode))
		return 0;
	d = xbn_dir(&nm->dirs, slot->aux);
	*value = d->fold_value;
	return d->folded;
}
