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

#endif /* XBULK_DU_H */
