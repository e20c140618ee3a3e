// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * du --since --by: one snapshot's sums per directory subtree and id
 * (uid, gid or project), counted by the summary's rule (cli/history.h,
 * xb_summary_charge()), for the directories down to a depth: as du --by
 * -d N makes a table per directory.
 *
 * Records come in inode order, a file perhaps before its directory, so
 * each (directory, id) pair's own sums are kept as they come, and carried
 * up the summary's chains of parents once at the end (after
 * xb_summary_subtrees(), which knows each directory's depth), into the
 * directories that are rows (down to the depth on either side: a
 * directory moved deeper keeps its row).  A pair's
 * key is the directory's index (its first appearance) and the id, 32 bits
 * each.  Memory: 64-128 bytes per pair charged and per pair of a
 * directory that is a row, none per inode.
 */
#include <errno.h>

#include "du.h"

static uint64_t
pair_key(uint32_t idx, uint32_t id)
{
	return (uint64_t)idx << 32 | id;
}

static void
row_add(struct xb_sum_row *r, const struct xb_sum_row *v)
{
	r->inodes += v->inodes;
	r->bytes += v->bytes;
	r->apparent += v->apparent;
}

void
du_owners_init(struct du_owners *o, enum du_by by)
{
	*o = (struct du_owners){ .by = by };
	xbl_hash_init(&o->idx, sizeof(uint32_t));
	xbl_hash_init(&o->ino, sizeof(uint64_t));
	xbl_hash_init(&o->own, sizeof(struct xb_sum_row));
	xbl_hash_init(&o->sub, sizeof(struct xb_sum_row));
}

/* The index of directory @ino, given on its first call; 0 or -ENOMEM. */
static int
dir_index(struct du_owners *o, uint64_t ino, uint32_t *idx)
{
	bool fresh;
	uint32_t *v = xbl_hash_add(&o->idx, ino, &fresh);
	uint64_t *back;

	if (!v)
		return -ENOMEM;
	*idx = fresh ? (uint32_t)(o->idx.count - 1) : *v;
	if (!fresh)
		return 0;
	*v = *idx;
	back = xbl_hash_add(&o->ino, *idx, &fresh);
	if (!back)
		return -ENOMEM;
	*back = ino;
	return 0;
}

/* Add @v to the pair (@ino, @id) of @h; 0 or -ENOMEM. */
static int
pair_add(struct du_owners *o, struct xbl_hash *h, uint64_t ino, uint32_t id,
	 const struct xb_sum_row *v)
{
	struct xb_sum_row *r;
	uint32_t idx;
	bool fresh;

	if (dir_index(o, ino, &idx))
		return -ENOMEM;
	r = xbl_hash_add(h, pair_key(idx, id), &fresh);
	if (!r)
		return -ENOMEM;
	row_add(r, v);
	return 0;
}

void
du_owners_add(struct du_owners *o, const struct xb_summary *sum,
	      const struct xbulk_snap_rec *rec)
{
	const struct xfs_bulkstat *bs = rec->bs;
	struct xb_sum_row v;
	uint64_t at = xb_summary_charge(sum, rec, &v);
	uint32_t id = o->by == DU_BY_UID ? bs->bs_uid :
		      o->by == DU_BY_GID ? bs->bs_gid : bs->bs_projectid;

	if (!o->err)
		o->err = pair_add(o, &o->own, at, id, &v);
}

int
du_owners_subtrees(struct du_owners *o, const struct xb_summary *sum,
		   const struct xbl_hash *want)
{
	const struct xb_sum_dir *up;
	struct xb_sum_row v;
	size_t pos = 0;
	uint64_t key, ino;
	uint32_t id;
	void *r;

	if (o->err)
		return o->err;
	while ((r = xbl_hash_next(&o->own, &pos, &key))) {
		v = *(const struct xb_sum_row *)r;
		id = (uint32_t)key;
		ino = *(uint64_t *)xbl_hash_get(&o->ino, key >> 32);
		up = xbl_hash_get(&sum->dirs, ino);
		if (!up || up->depth < 0) {	/* no chain: the top's */
			if (xbl_hash_get(want, sum->top) &&
			    pair_add(o, &o->sub, sum->top, id, &v))
				return -ENOMEM;
			continue;
		}
		/* @r is stale from here (o->idx may grow); @v is a copy */
		for (;;) {
			if (xbl_hash_get(want, ino) &&
			    pair_add(o, &o->sub, ino, id, &v))
				return -ENOMEM;
			if (ino == sum->top)
				break;
			ino = up->parent;
			up = xbl_hash_get(&sum->dirs, ino);
			if (!up)
				break;
		}
	}
	return 0;
}

const struct xb_sum_row *
du_owners_next(const struct du_owners *o, size_t *pos, uint64_t *ino,
	       uint32_t *id)
{
	uint64_t key;
	const struct xb_sum_row *r = xbl_hash_next(&o->sub, pos, &key);

	if (r) {
		*ino = *(uint64_t *)xbl_hash_get(&o->ino, key >> 32);
		*id = (uint32_t)key;
	}
	return r;
}

void
du_owners_free(struct du_owners *o)
{
	xbl_hash_free(&o->idx);
	xbl_hash_free(&o->own);
	xbl_hash_free(&o->sub);
	xbl_hash_free(&o->ino);
}
