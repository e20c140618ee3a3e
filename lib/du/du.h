/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * du: disk usage over the names engine's walk (lib/du/).  Goes into
 * include/xbulk.h once the names engine's header is there.
 */
#ifndef XBULK_DU_H
#define XBULK_DU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "xbulk.h"
#include "names_stub.h"

/* ------------------------------------------------------------------ */
/* Output units (lib/du/units.c)                                       */
/* ------------------------------------------------------------------ */

/* Options of a unit: gnulib human.h's bits, same meanings and values. */
enum {
	XBULK_HUMAN_GROUP	= 4,	/* thousands separators (locale) */
	XBULK_HUMAN_AUTOSCALE	= 16,	/* pick the power (-h, --si) */
	XBULK_HUMAN_BASE_1024	= 32,	/* powers of 1024, not 1000 */
	XBULK_HUMAN_SI		= 128,	/* append the power's letter */
	XBULK_HUMAN_B		= 256,	/* ... and "B" or "iB" */
};

/* How du prints a size: in units of @block_size bytes, rounded up. */
struct xbulk_units {
	uint64_t	block_size;	/* bytes; 1 with AUTOSCALE */
	unsigned int	opts;		/* XBULK_HUMAN_* */
};

/* Most bytes xbulk_units_format() writes, its NUL included. */
#define XBULK_UNITS_MAX		128

/**
 * xbulk_units_parse() - parse a -B/--block-size argument as GNU du
 * @spec: "human-readable", "si" or an abbreviation; or an optional number
 *        (C syntax: 0x hex, 0 octal) and a unit K M G T P E Z Y (powers
 *        of 1024; "KB" powers of 1000, "KiB" 1024), a unit without a
 *        number also printed after each figure ("K" prints "4K"); a
 *        leading "'" groups thousands as the locale does.
 * Return: 0; -EINVAL (not a size, or 0); -EILSEQ (bad unit); -ERANGE
 * (more than 2^64-1 bytes).
 */
int xbulk_units_parse(const char *spec, struct xbulk_units *u);

/**
 * xbulk_units_default() - du's units before options: DU_BLOCK_SIZE, else
 * BLOCK_SIZE, else BLOCKSIZE from the environment (an invalid one counts
 * as none), else 1024 bytes (512 with POSIXLY_CORRECT).
 */
void xbulk_units_default(struct xbulk_units *u);

/**
 * xbulk_units_format() - @n bytes as du prints them in @u (gnulib
 * human_readable() with human_ceiling: rounded up, "1.1K" style when
 * autoscaling, the locale's decimal point)
 * @dst: at least XBULK_UNITS_MAX bytes; NUL-terminated
 * Return: the length written.
 */
size_t xbulk_units_format(char *dst, uint64_t n, const struct xbulk_units *u);

/* ------------------------------------------------------------------ */
/* A set of inode numbers (lib/du/inoset.c)                            */
/* ------------------------------------------------------------------ */

/* Open addressing; inode 0 (never allocated on XFS) marks a free slot. */
struct xbulk_inoset {
	uint64_t	*slots;
	size_t		mask;		/* slots - 1, a power of 2 minus 1 */
	size_t		count;
};

/** xbulk_inoset_add() - Return: 1 if added, 0 if present, -ENOMEM. */
int xbulk_inoset_add(struct xbulk_inoset *s, uint64_t ino);
/** xbulk_inoset_has() - is @ino in the set */
bool xbulk_inoset_has(const struct xbulk_inoset *s, uint64_t ino);
void xbulk_inoset_free(struct xbulk_inoset *s);

/* ------------------------------------------------------------------ */
/* du's accounting over the walk (lib/du/account.c)                    */
/* ------------------------------------------------------------------ */

/* A subtree's sum: what du prints for it. */
struct xbulk_du_sum {
	uint64_t	bytes;		/* disk usage or apparent size */
	uint64_t	inodes;		/* inodes counted (--inodes) */
};

/*
 * Called once per counted entry, in GNU du's order: a non-directory when
 * the walk reaches it, a directory after its contents (with the sums of
 * its whole subtree).  @e->depth is 0 for the operand itself.  Return 0
 * or a negative errno, which ends the walk.
 */
typedef int (*xbulk_du_fn)(void *arg, const struct xbulk_entry *e,
			   const struct xbulk_du_sum *sum);

struct xbulk_du_opts {
	bool		apparent;	/* bs_size, not bs_blocks */
	bool		count_links;	/* -l: every link of a file counts */
	bool		hash_all;	/* several operands: directories are
					   counted once too (du's hash_all) */
	bool		separate_dirs;	/* -S: a directory's sum leaves out
					   its subdirectories */
	unsigned int	blocklog;	/* log2 of the fs block size */
	xbulk_du_fn	fn;
	void		*arg;
};

struct xbulk_du;

/** xbulk_du_new() - Return: 0 or -ENOMEM. */
int xbulk_du_new(const struct xbulk_du_opts *o, struct xbulk_du **du);
void xbulk_du_free(struct xbulk_du *du);

/**
 * xbulk_du_visit() - the walk callback (pass it to xbulk_names_walk()
 * with post-order visits and @du as its argument).  Each operand is one
 * walk from depth 0; the set of counted inodes and the total go on across
 * walks, as du's do across its operands.
 *
 * A file with several links counts at its first path only (unless
 * count_links); a mount point of another filesystem is left out with
 * everything under it (du -x).  Returns XBULK_WALK_PRUNE for a directory
 * it leaves out, or @fn's error.
 */
int xbulk_du_visit(void *du, const struct xbulk_entry *e,
		   enum xbulk_visit visit);

/** xbulk_du_total() - the sum of every operand so far (du -c's line) */
void xbulk_du_total(const struct xbulk_du *du, struct xbulk_du_sum *sum);

/** xbulk_du_bytes() - what one inode counts for: bs_blocks in bytes
 * (st_blocks * 512), or bs_size with @apparent (negative sizes: 0) */
static inline uint64_t
xbulk_du_bytes(const struct xfs_bulkstat *bs, unsigned int blocklog,
	       bool apparent)
{
	if (apparent)
		return (int64_t)bs->bs_size < 0 ? 0 : bs->bs_size;
	return bs->bs_blocks << blocklog;
}

/* ------------------------------------------------------------------ */
/* Sums by attribute (lib/du/agg.c)                                    */
/* ------------------------------------------------------------------ */

/* What --by groups inodes by. */
enum xbulk_by {
	XBULK_BY_UID,
	XBULK_BY_GID,
	XBULK_BY_PROJID,
	XBULK_BY_TYPE,		/* S_IFMT: file, dir, symlink... */
	XBULK_BY_EXT,		/* the charged name's last ".suffix" */
	XBULK_BY_AGE,		/* <1d <7d <30d <90d <1y <3y older */
	XBULK_BY_SIZE_CLASS,	/* apparent size: <4K <16K ... <1P >=1P */
	XBULK_BY_NR,
};

/* Which time --by age looks at. */
enum xbulk_time {
	XBULK_TIME_MTIME,
	XBULK_TIME_ATIME,
	XBULK_TIME_CTIME,
	XBULK_TIME_BTIME,	/* birth: 0 where the kernel gives none */
	XBULK_TIME_NR,
};

/* One group's sums.  Key 0 of ext is "no suffix". */
struct xbulk_agg_row {
	uint64_t	key;		/* uid, gid, projid, S_IFMT >> 12,
					   ext id, age or size class */
	uint64_t	count;		/* inodes */
	uint64_t	disk;		/* bytes of disk usage */
	uint64_t	apparent;	/* bytes of apparent size */
};

/* Rows by key (open addressing; a row with count 0 is a free slot). */
struct xbulk_agg_table {
	struct xbulk_agg_row	*rows;
	size_t			mask;
	size_t			count;	/* rows in use */
};

/* What a table's keys mean: shared by all tables of one run. */
struct xbulk_agg {
	enum xbulk_by	by;
	enum xbulk_time	time;
	int64_t		now;		/* seconds since the epoch (age) */
	unsigned int	blocklog;
	/* ext: suffixes by id (id - 1), and their hash index */
	char		**ext;
	size_t		next;
	uint32_t	*ext_index;	/* id per slot, 0 free */
	size_t		ext_mask;
};

#define XBULK_AGE_CLASSES	7
#define XBULK_SIZE_CLASSES	21
/* Most bytes of a label, NUL included (a suffix is at most 255). */
#define XBULK_AGG_LABEL_MAX	256

/** xbulk_agg_init() - keys of @by; no allocation until the first ext. */
void xbulk_agg_init(struct xbulk_agg *a, enum xbulk_by by,
		    enum xbulk_time time, int64_t now, unsigned int blocklog);
void xbulk_agg_free(struct xbulk_agg *a);

/**
 * xbulk_agg_key() - the group of @e (its bulkstat record, and for ext the
 * name after the last '/' of e->path)
 * Return: 0 or -ENOMEM (a new suffix could not be kept).
 */
int xbulk_agg_key(struct xbulk_agg *a, const struct xbulk_entry *e,
		  uint64_t *key);

/**
 * xbulk_agg_label() - the name of @key for type, ext, age and size class
 * ("file", "c", "(none)", "<7d", "<16K"); NULL for uid, gid and projid,
 * whose names are the caller's (NSS, /etc/projid).
 */
const char *xbulk_agg_label(const struct xbulk_agg *a, uint64_t key);

/** xbulk_agg_add() - count one inode of @key.  Return: 0 or -ENOMEM. */
int xbulk_agg_add(struct xbulk_agg_table *t, const struct xbulk_agg *a,
		  uint64_t key, const struct xfs_bulkstat *bs);
/** xbulk_agg_merge() - add @src's rows into @dst.  Return: 0, -ENOMEM */
int xbulk_agg_merge(struct xbulk_agg_table *dst,
		    const struct xbulk_agg_table *src);
/** xbulk_agg_clear() - empty @t, keeping its memory */
void xbulk_agg_clear(struct xbulk_agg_table *t);
void xbulk_agg_table_free(struct xbulk_agg_table *t);

/**
 * xbulk_agg_sorted() - @t's rows, most disk usage first (then most
 * apparent size, then key), in a new array of @t->count rows (free() it)
 * Return: the array, or NULL with errno ENOMEM (or for an empty table).
 */
struct xbulk_agg_row *xbulk_agg_sorted(const struct xbulk_agg_table *t);

/*
 * Tables per directory down to a depth, over du's counted entries: feed
 * it every xbulk_du_fn call; it calls @fn with the table of each
 * directory at depth <= max_depth (its whole subtree) after the
 * directory's contents, and of a non-directory operand.
 */
typedef int (*xbulk_agg_dir_fn)(void *arg, const struct xbulk_entry *e,
				const struct xbulk_agg_table *t);

struct xbulk_agg_dirs {
	struct xbulk_agg	*agg;
	unsigned int		max_depth;
	xbulk_agg_dir_fn	fn;
	void			*arg;
	struct xbulk_agg_table	total;	/* every operand (du -c) */
	struct xbulk_agg_table	*lvl;	/* max_depth + 1 tables */
};

/** xbulk_agg_dirs_init() - Return: 0 or -ENOMEM. */
int xbulk_agg_dirs_init(struct xbulk_agg_dirs *d, struct xbulk_agg *agg,
			unsigned int max_depth, xbulk_agg_dir_fn fn,
			void *arg);
/** xbulk_agg_dirs_charge() - one counted entry.  Return: 0, @fn's error
 * or -ENOMEM. */
int xbulk_agg_dirs_charge(struct xbulk_agg_dirs *d,
			  const struct xbulk_entry *e);
void xbulk_agg_dirs_free(struct xbulk_agg_dirs *d);

/* ------------------------------------------------------------------ */
/* The largest entries (lib/du/top.c)                                  */
/* ------------------------------------------------------------------ */

struct xbulk_top_item {
	uint64_t	bytes;
	uint64_t	seq;		/* order of arrival: ties keep the
					   first */
	char		*path;
};

/* The @want largest of what was added (a min-heap of @want items). */
struct xbulk_top {
	struct xbulk_top_item	*heap;
	size_t			n, want;
	uint64_t		seq;
};

/** xbulk_top_init() - keep the @want largest.  Return: 0 or -ENOMEM. */
int xbulk_top_init(struct xbulk_top *t, size_t want);
/** xbulk_top_add() - Return: 0 or -ENOMEM (copies @path). */
int xbulk_top_add(struct xbulk_top *t, uint64_t bytes, const char *path);
/** xbulk_top_sort() - the items largest first (ties: first added). */
void xbulk_top_sort(struct xbulk_top *t);
void xbulk_top_free(struct xbulk_top *t);

#endif /* XBULK_DU_H */
