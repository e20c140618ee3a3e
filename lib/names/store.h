/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/names (prefix xbn_: CONTRIBUTING.md).
 *
 * The inode store (store.c): one packed slot per kept inode, with the
 * bulkstat fields the caller asked for (a snapshot's store: in a stream
 * beside the slots); arenas the scan's batches fill; the chunk index
 * lookups go through.  Its blocks come from the budget (spill.h).
 */
#ifndef XBULK_NAMES_STORE_H
#define XBULK_NAMES_STORE_H

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "../base.h"
#include "spill.h"

/*
 * Every slot starts with this; the asked-for fields follow, packed.  The
 * inode number is not kept: the run a slot is in (its chunk) and the
 * slot's place in the run (a bit of the run's mask) give it.
 */
struct xbn_slot {
	uint16_t	mode;
	uint16_t	flags;		/* XBN_SLOT_* */
	uint32_t	aux;		/* directories: index in the directory
					   table; other inodes: bs_gen */
};

enum {
	XBN_SLOT_REACHED	= 1u << 0,	/* xbulk_names_unreached() */
	XBN_SLOT_MOUNT		= 1u << 1,	/* a path of it is covered */
	XBN_SLOT_LINKED		= 1u << 2,	/* a non-directory, bs_nlink
						   > 1 (XBULK_ENTRY_LINKED) */
};

/* One copy between a struct xfs_bulkstat and a slot. */
struct xbn_piece {
	uint16_t	src;		/* offset in struct xfs_bulkstat */
	uint16_t	dst;		/* offset in the slot */
	uint16_t	len;		/* 2, 4 or 8 */
};

#define XBN_MAX_PIECES	24

/*
 * Not a bulkstat field: a store read by the inode-order cursor
 * (inodes.c), a snapshot's.  Each slot has room for the first name of the
 * inode (its parent's directory index and the entry's offset in its
 * listing), which the cursor fills, so that it keeps no list of every
 * name; the fields are not in the slot but in the arena's stream, at
 * variable width, which only the cursor reads (xbn_stream_get()), in
 * inode order.  Internal: above the XBULK_F_* bits.
 */
#define XBN_F_LINK	(1u << 31)

/* The first name of an inode in its slot (XBN_F_LINK). */
struct xbn_slot_link {
	uint32_t	pdir;		/* XBN_NONE: none yet */
	uint32_t	off;
};

/*
 * One field in the stream (XBN_F_LINK): coded as the difference from a
 * reference, the same field of the run's inode before (the run's first:
 * 0) or, for the other times, this inode's ctime.
 */
struct xbn_sfield {
	uint16_t	src;		/* offset in struct xfs_bulkstat */
	uint8_t		len;		/* 4 or 8 */
	uint8_t		ref;		/* index of the field it is coded
					   against; XBN_REF_PREV */
};

#define XBN_REF_PREV	0xff
#define XBN_MAX_SFIELDS	24

struct xbn_layout {
	uint32_t	slot;		/* bytes per slot, a multiple of 4 */
	uint32_t	link;		/* offset of the xbn_slot_link; 0: none */
	unsigned int	npieces;
	struct xbn_piece piece[XBN_MAX_PIECES];
	/* XBN_F_LINK: the fields in the stream instead of pieces */
	unsigned int	nsfields;
	uint32_t	stream_max;	/* most bytes of one inode's */
	struct xbn_sfield sfield[XBN_MAX_SFIELDS];
};

/* The slot layout for the XBULK_F_* and XBN_F_LINK in @fields. */
void xbn_layout_init(struct xbn_layout *l, uint32_t fields);

/*
 * One inode's fields in the stream, as xbn_arena_add() put them at @p:
 * @val holds the values of the run's inode before (zeros for the run's
 * first) and gets this one's, one per l->sfield.  Return the byte after
 * them.
 */
const uint8_t *xbn_stream_get(const struct xbn_layout *l, const uint8_t *p,
			      uint64_t *val);
/* Values @val of xbn_stream_get() into @bs (other fields untouched). */
void xbn_stream_fill(const struct xbn_layout *l, struct xfs_bulkstat *bs,
		     const uint64_t *val);

/* Copy the layout's fields of @bs into @slot (header not included). */
static inline void
xbn_pack(const struct xbn_layout *l, void *slot, const struct xfs_bulkstat *bs)
{
	const char *s = (const char *)bs;
	char *d = slot;
	unsigned int i;

	for (i = 0; i < l->npieces; i++) {
		const struct xbn_piece *p = &l->piece[i];

		if (p->len == 8)
			memcpy(d + p->dst, s + p->src, 8);
		else if (p->len == 4)
			memcpy(d + p->dst, s + p->src, 4);
		else
			memcpy(d + p->dst, s + p->src, 2);
	}
}

/* The reverse: @slot's fields into @bs (other fields untouched). */
static inline void
xbn_unpack(const struct xbn_layout *l, struct xfs_bulkstat *bs,
	   const void *slot)
{
	const char *s = slot;
	char *d = (char *)bs;
	unsigned int i;

	for (i = 0; i < l->npieces; i++) {
		const struct xbn_piece *p = &l->piece[i];

		if (p->len == 8)
			memcpy(d + p->src, s + p->dst, 8);
		else if (p->len == 4)
			memcpy(d + p->src, s + p->dst, 4);
		else
			memcpy(d + p->src, s + p->dst, 2);
	}
}

struct xbn_block;

/* One run of slots of one inode chunk, contiguous in a block, and their
 * fields contiguous in a block of the stream (XBN_F_LINK). */
struct xbn_run {
	uint64_t	chunk;		/* ino >> 6 */
	uint64_t	mask;		/* inodes of the chunk in the run */
	char		*base;		/* slot of the run's first inode */
	const uint8_t	*fields;	/* its fields in the stream; NULL */
};

/*
 * Slots are appended to arenas; a batch of the scan takes an arena from
 * the pool and gives it back, so threads never share one.  The runs are
 * noted as slots come (the slots do not hold their inode numbers).
 */
struct xbn_arena {
	struct xbn_arena	*next;		/* in the pool / all arenas */
	struct xbn_block	*blocks;	/* newest first */
	struct xbn_block	*stream;	/* the fields (XBN_F_LINK),
						   newest first */
	const uint8_t		*fields_end;	/* after the last inode's
						   fields in the stream */
	uint64_t		prev[XBN_MAX_SFIELDS]; /* their values */
	struct xbn_run		*runs;		/* in the order made */
	size_t			nruns;
	size_t			runs_cap;
	uint64_t		kept;
	uint64_t		dropped;
	uint64_t		more_links;	/* as the store's */
};

struct xbn_store {
	struct xbn_layout	lay;
	struct xbn_spill	*mem;		/* where blocks come from */
	pthread_mutex_t		lock;		/* pool */
	struct xbn_arena	*pool;		/* free arenas */
	struct xbn_arena	*all;		/* once the scan is over */
	struct xbn_run		*runs;		/* hash table on chunk */
	uint64_t		runmask;	/* table size - 1 */
	size_t			runs_bytes;	/* its block's */
	uint64_t		nruns;
	uint64_t		bytes;		/* blocks allocated */
	uint64_t		more_links;	/* sum of nlink - 1 over the
						   kept files (not directories) */
};

/* An empty store of the XBULK_F_* in @fields, its blocks from @mem. */
int xbn_store_init(struct xbn_store *s, uint32_t fields,
		   struct xbn_spill *mem);
void xbn_store_free(struct xbn_store *s);
/* Take an arena for one batch (NULL: out of memory) and give it back. */
struct xbn_arena *xbn_arena_get(struct xbn_store *s);
void xbn_arena_put(struct xbn_store *s, struct xbn_arena *a);
/* The slot of inode @bs->bs_ino, above the arena's last inode, with the
 * store's fields of @bs in it or in the stream; the caller fills the
 * header (NULL: out of memory, or s->mem->err). */
struct xbn_slot *xbn_arena_add(struct xbn_store *s, struct xbn_arena *a,
			       const struct xfs_bulkstat *bs);
/* After the scan, or each fetch of the walk strategy: gather the arenas
 * filled since the last call and add their runs to the chunk index
 * (grown as needed).  *@kept and *@dropped count every arena's. */
int xbn_store_index(struct xbn_store *s, uint64_t *kept, uint64_t *dropped);

static inline uint64_t
xbn_hash64(uint64_t v)
{
	return v * 0x9e3779b97f4a7c15ULL;
}

/* Bits set in @v, without the libgcc call __builtin_popcountll() makes
 * on x86-64 before POPCNT (SWAR, Hacker's Delight 5-1). */
static inline unsigned int
xbn_popcount(uint64_t v)
{
	v -= (v >> 1) & 0x5555555555555555ULL;
	v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (unsigned int)((v * 0x0101010101010101ULL) >> 56);
}

/* The slot of bit @bit of run @r. */
static inline struct xbn_slot *
xbn_run_slot(const struct xbn_store *s, const struct xbn_run *r,
	     unsigned int bit)
{
	uint64_t below = r->mask & ((1ULL << bit) - 1);

	return (struct xbn_slot *)(r->base + (size_t)xbn_popcount(below) *
				   s->lay.slot);
}

/*
 * The slot of inode @ino, or NULL if it was not kept.  The chunk index is
 * not the base's table (lib/hash.c): a chunk split over two blocks has
 * two runs under one key, and every entry of every walk comes here, so
 * the probe is inline.  Callgrind, 300k inodes (bench/populate -n 300000
 * --empty-files), xbulk find -j 1 MNT -printf '%p %s\n': 309.0M
 * instructions here, 325.1M (+5.2%) with lib/hash.c (a second key per
 * split run).
 */
static inline struct xbn_slot *
xbn_lookup(const struct xbn_store *s, uint64_t ino)
{
	uint64_t chunk = ino >> 6, bit = ino & 63;
	uint64_t h = (xbn_hash64(chunk) >> 20) & s->runmask;

	if (!s->runs)
		return NULL;
	for (;; h = (h + 1) & s->runmask) {
		const struct xbn_run *r = &s->runs[h];

		if (!r->mask)
			return NULL;
		if (r->chunk == chunk && (r->mask >> bit & 1))
			return xbn_run_slot(s, r, (unsigned int)bit);
	}
}

/* The store's runs in inode order, in *@runs (malloc()ed, the caller
 * frees it) and *@n.  Return 0 or -ENOMEM. */
int xbn_store_runs(const struct xbn_store *s, struct xbn_run **runs,
		   size_t *n);

#endif /* XBULK_NAMES_STORE_H */
