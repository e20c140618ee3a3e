/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/snap (prefix snap_: CONTRIBUTING.md).
 *
 * Snapshots: what the files of lib/snap/ share.  The file format is
 * docs/formats.md, "Snapshot files"; this header is its one description
 * in code.
 *
 *   codec.c    a record and a directory record to and from bytes
 *   dirtab.c   the directory table: paths of entries
 *   source.c   the object every snapshot is (file or live), next()
 *   live.c     a live scan as a snapshot (the names engine)
 *   reader.c   a snapshot file: checks, blocks, records
 *   writer.c   writing one: blocks, zstd, O_TMPFILE, commit
 *   walk.c     a snapshot as walk entries (find --snapshot)
 *   diff.c     the streaming diff of two snapshots
 *   facets.c   what changed between two records of one inode
 */
#ifndef XBULK_SNAP_H
#define XBULK_SNAP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../base.h"
#include "../varint.h"

/* ------------------------------------------------------------------ */
/* The file's layout (all numbers little-endian)                      */
/* ------------------------------------------------------------------ */

#define SNAP_MAGIC		"XBLKSNAP"	/* 8 bytes, offset 0 */
#define SNAP_HDR_SIZE		1024
#define SNAP_BLK_MAGIC		0x4b4c4258u	/* "XBLK" */
#define SNAP_BLK_HDR		32
#define SNAP_END_MAGIC		"XBLKEND"	/* and a NUL: 8 bytes */
#define SNAP_TRAILER		128
/* Raw bytes of records per block: a record never spans blocks. */
#define SNAP_BLOCK_RAW		(1u << 20)
/* Most bytes one record takes encoded; an inode whose names do not fit
 * goes on in continuation records (SNAP_REC_MORE), as many as it needs. */
#define SNAP_REC_MAX		(64 * 1024)
/* An inode record's flags byte: XBULK_SNAP_* (bit 0), and this bit: the
 * inode's names go on in the next record, a continuation. */
#define SNAP_REC_MORE		(1u << 1)

enum snap_blk_kind {
	SNAP_BLK_INODES	= 1,
	SNAP_BLK_DIRS	= 2,
};

enum snap_blk_method {
	SNAP_STORED	= 0,
	SNAP_ZSTD	= 1,
};

/* Header offsets */
enum {
	H_MAGIC		= 0,
	H_VERSION	= 8,	/* u32 */
	H_HDRSIZE	= 12,	/* u32 */
	H_UUID		= 16,	/* 16 bytes */
	H_BLOCKSIZE	= 32,	/* u32 */
	H_AGCOUNT	= 36,
	H_AGBLOCKS	= 40,
	H_INODESIZE	= 44,
	H_THREADS	= 48,
	H_DATABLOCKS	= 56,	/* u64 */
	H_TOP		= 64,
	H_START_SEC	= 72,	/* s64 */
	H_START_NSEC	= 80,	/* u32 */
	H_END_SEC	= 88,
	H_END_NSEC	= 96,
	H_VERSTR	= 128,	/* 32 bytes, NUL-padded */
	H_HOST		= 160,	/* 65 */
	H_MOUNTPOINT	= 256,	/* 256 */
	H_CHECKSUM	= SNAP_HDR_SIZE - 8,	/* XXH3-64 of the rest */
};

/* Block header offsets */
enum {
	B_MAGIC		= 0,	/* u32 */
	B_KIND		= 4,	/* u8 */
	B_METHOD	= 5,	/* u8 */
	B_STORED	= 8,	/* u32: bytes after the header */
	B_RAW		= 12,	/* u32: bytes once decompressed */
	B_NRECS		= 16,	/* u32 */
	B_CHECKSUM	= 24,	/* XXH3-64 of bytes 0-23 and the payload */
};

/* Trailer offsets (the file's last SNAP_TRAILER bytes) */
enum {
	T_MAGIC		= 0,
	T_INODES	= 8,	/* u64 */
	T_LINKS		= 16,
	T_DIRS		= 24,
	T_IBLOCKS	= 32,
	T_DBLOCKS	= 40,
	T_DIROFF	= 48,	/* first directory block */
	T_CHAIN		= 56,	/* XXH3-64 of every block checksum, in
				   order, seeded with the header's */
	T_CHECKSUM	= SNAP_TRAILER - 8,
};

static inline void
put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void
put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

static inline uint32_t
get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t
get_le64(const uint8_t *p)
{
	return get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

/* XXH3-64 of @len bytes at @p, seeded (lib/snap/codec.c). */
uint64_t snap_hash(const void *p, size_t len, uint64_t seed);

/* ------------------------------------------------------------------ */
/* Records (codec.c)                                                   */
/* ------------------------------------------------------------------ */

/*
 * An inode record: varint (ino - previous ino in the block; the first
 * of a block: ino), varint body length, the body: u8 flags (XBULK_SNAP_*,
 * SNAP_REC_MORE), u32 gen, then varints mode, nlink, uid, gid, projid,
 * size, blocks, rdev, xflags, extents, aextents; ctime as zigzag seconds
 * and u32 ns; mtime, atime, btime each as zigzag (seconds - ctime's) and
 * zigzag (ns - ctime's); varint count of all the inode's names, then
 * the names that fit, each: zigzag (parent - ino), varint length, the
 * bytes; in (parent, name) order (snap_link_cmp()).
 *
 * With SNAP_REC_MORE, continuation records follow it, each: varint (0,
 * the same inode; the first of a block: ino), varint body length, the
 * body: u8 flags (SNAP_REC_MORE if another follows, no other bit), then
 * names to the body's end.  The record whole is its first body followed
 * by the names of its continuations, SNAP_REC_MORE cleared: the same
 * bytes wherever the blocks split it.  Its body after the flags byte
 * holds everything a diff compares: equal bytes, equal records.
 *
 * A directory record: varint (ino - previous), varint body length, the
 * body: u32 gen, varint parent (0: none), varint name length, the name.
 */

/* The bulkstat fields an inode record holds, as the names engine's
 * XBULK_F_* (a live scan keeps these: live.c). */
#define SNAP_FIELDS	(XBULK_F_SIZE | XBULK_F_BLOCKS | XBULK_F_ATIME | \
			 XBULK_F_MTIME | XBULK_F_CTIME | XBULK_F_BTIME | \
			 XBULK_F_OWNER | XBULK_F_PROJID | XBULK_F_NLINK | \
			 XBULK_F_RDEV | XBULK_F_XFLAGS | XBULK_F_EXTENTS)

/*
 * Append the next record of @rec to @dst (SNAP_REC_MAX bytes of room),
 * @prev the previous inode of the block (0 for the first): from its
 * name *@next on, the first record of @rec when *@next is 0, else a
 * continuation; as many names as fit, *@next moved past them (names of
 * 1 to 255 bytes: each record holds one at least).  Return the bytes
 * written; call again while *@next < @rec->nlinks.
 */
size_t snap_encode_rec(uint8_t *dst, uint64_t prev,
		       const struct xbulk_snap_rec *rec, uint32_t *next);

/* The order of an inode's names in its record, as qsort() wants it:
 * parent, then the name's bytes (memcmp), a name before longer ones it
 * starts. */
int snap_link_cmp(const void *a, const void *b);

/* A record being decoded: its bytes and where the body starts. */
struct snap_raw {
	uint64_t	ino;
	const uint8_t	*body;
	size_t		len;		/* of the body */
};

/* Split the record at *@p (before @end) off, @prev the previous inode of
 * the block (0: none), its inode number prev + delta: 0, or -EBADMSG.
 * The caller checks the order (a continuation repeats the inode). */
int snap_split(const uint8_t **p, const uint8_t *end, uint64_t prev,
	       struct snap_raw *raw);

/* Gather a record whole (SNAP_REC_MORE): snap_join_start() copies its
 * first @raw into *@buf (of *@cap bytes, grown), each snap_join() adds
 * the names of continuation @c (of the same inode, checked) and says
 * whether another follows; @raw then points at the record whole.
 * 0, -EBADMSG (not a continuation of it), -ENOMEM. */
int snap_join_start(struct snap_raw *raw, uint8_t **buf, size_t *cap);
int snap_join(struct snap_raw *raw, const struct snap_raw *c, uint8_t **buf,
	      size_t *cap, bool *more);

/* May @name, of @len bytes, be a directory entry's?  1 to 255 bytes,
 * neither "." nor "..", no '/' nor NUL: a snapshot's names become paths
 * (diff --deleted0 lists them for rm), which must stay below its top. */
bool snap_name_ok(const char *name, size_t len);

/* Decode @raw, a record whole, into @bs (all of it), *@flags and the
 * names (into *@links, grown; they point into @raw).  Return 0,
 * -EBADMSG, -ENOMEM. */
int snap_decode_rec(const struct snap_raw *raw, struct xfs_bulkstat *bs,
		    uint32_t *flags, struct xbulk_snap_link **links,
		    size_t *lcap, uint32_t *nlinks);

/* A directory of the table. */
struct snap_dir {
	uint64_t	ino;
	uint64_t	parent;		/* 0: none (the top, or unreached) */
	uint32_t	gen;
	uint32_t	namelen;
	uint64_t	name;		/* offset in the table's names */
	uint32_t	pidx;		/* index of the parent, or UINT32_MAX */
	uint32_t	flags;		/* DIR_* (dirtab.c) */
};

size_t snap_encode_dir(uint8_t *dst, uint64_t prev, const struct snap_dir *d,
		       const char *name);

/* ------------------------------------------------------------------ */
/* The directory table (dirtab.c)                                      */
/* ------------------------------------------------------------------ */

struct snap_dirtab {
	struct snap_dir	*v;		/* sorted by ino */
	size_t		n;
	size_t		cap;
	char		*names;
	size_t		nameslen;
	size_t		namescap;
	uint64_t	top;
};

/* Append a directory (in increasing ino order): 0, -EBADMSG (out of
 * order), -ENOMEM. */
int snap_dirtab_add(struct snap_dirtab *t, uint64_t ino, uint32_t gen,
		    uint64_t parent, const char *name, uint32_t namelen);
/* After the last add: link parents, refuse cycles (-EBADMSG). */
int snap_dirtab_seal(struct snap_dirtab *t);
/* The index of directory @ino, or UINT32_MAX. */
uint32_t snap_dirtab_find(const struct snap_dirtab *t, uint64_t ino);
/* See xbulk_snap_path(). */
long snap_dirtab_path(const struct snap_dirtab *t,
		      const struct xbulk_snap_link *l, char **buf,
		      size_t *cap);
void snap_dirtab_free(struct snap_dirtab *t);

/* ------------------------------------------------------------------ */
/* The snapshot object (source.c, reader.c, live.c)                    */
/* ------------------------------------------------------------------ */

struct snap_ops {
	/* 1 with s->rec filled, 0 at the end, or -errno */
	int	(*next)(struct xbulk_snap *s);
	int	(*rewind)(struct xbulk_snap *s);
	void	(*close)(struct xbulk_snap *s);
};

struct xbulk_snap {
	const struct snap_ops	*ops;
	struct xbulk_snap_info	info;
	struct snap_dirtab	dirs;
	struct xbulk_snap_rec	rec;
	struct xfs_bulkstat	bs;
	struct xbulk_snap_link	*links;
	size_t			lcap;
	/* The record's encoded form, where the source has it (files):
	 * the diff compares these bytes first. */
	struct snap_raw		raw;
	bool			has_raw;
	bool			decoded;	/* rec, bs, links are filled */
	/* Where the record handed out starts in a file (the reader sets
	 * them; 0 for a live scan): a damaged one is named by them. */
	uint64_t		raw_block;	/* its block's offset */
	uint32_t		raw_index;	/* its number in the block,
						   from 1 */
	/* The last failure of next() or of a decode, in one line
	 * (xbulk_snap_error()); empty: none. */
	char			why[160];
	/* A live scan's names (xbulk_snap_memory()); NULL for a file */
	const struct xbulk_names *names;
	/* xbulk_snap_progress(): records are added to it in batches of
	 * SNAP_PROGRESS_EVERY, @unsent the rest so far (NULL: none) */
	struct xbulk_names_progress *progress;
	uint32_t		unsent;
};

/* Records counted to xbulk_snap_progress()'s counters at once. */
#define SNAP_PROGRESS_EVERY	1024

/* source.c: @s's next record (ops->next()) and, on failure, s->why set
 * (what the source said, or strerror()): as ops->next(). */
int snap_next(struct xbulk_snap *s);
/* source.c: decode s->raw into s->rec if not done: 0, -EBADMSG (s->why
 * naming the record), -ENOMEM */
int snap_decode(struct xbulk_snap *s);
/* source.c: set s->why from @fmt; returns @err. */
int snap_fail(struct xbulk_snap *s, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* source.c: " (record N of the block at byte B)" for the record handed
 * out, or "" for a live scan's, into @buf of @size bytes. */
const char *snap_where(const struct xbulk_snap *s, char *buf, size_t size);

/* The inode number of the record next() handed out. */
static inline uint64_t
snap_head_ino(const struct xbulk_snap *s)
{
	return s->decoded ? s->bs.bs_ino : s->raw.ino;
}

/* Is the inode of @bs a directory? */
static inline bool
snap_is_dir(const struct xfs_bulkstat *bs)
{
	return (bs->bs_mode & 0170000) == 0040000;
}

/* facets.c: the XBULK_FACET_* of @a -> @b under XBULK_DIFF_* @flags */
uint32_t snap_facets(const struct xfs_bulkstat *a,
		     const struct xfs_bulkstat *b, uint32_t flags);
/* A directory whose mtime moved and nothing else but what adding,
 * removing or renaming an entry also moves (size, nlink, ctime)? */
bool snap_entries_only(const struct xfs_bulkstat *a,
		       const struct xfs_bulkstat *b, uint32_t facets);

/* reader.c */
int snap_file_open(int fd, struct xbulk_snap **s, char *why, size_t whysize);

#endif /* XBULK_SNAP_H */
