/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libxbulk: du's accounting over a walk (lib/du/).
 * Part of <xbulk.h>: include that.
 */
#ifndef XBULK_DU_H
#define XBULK_DU_H

#include "xbulk/names.h"

#pragma GCC visibility push(default)

/* ------------------------------------------------------------------ */
/* du's accounting over the walk (lib/du/account.c)                    */
/* ------------------------------------------------------------------ */

/* A subtree's sum: what du prints for it.  Made by the library (the
 * callback's argument, xbulk_du_total()); it may grow at its end. */
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

/* Set @size to sizeof(struct xbulk_du_opts); the library reads nothing
 * past it. */
struct xbulk_du_opts {
	size_t		size;		/* sizeof(struct xbulk_du_opts) */
	bool		apparent;	/* bs_size, not bs_blocks */
	bool		count_links;	/* -l: every link of a file counts */
	bool		hash_all;	/* several operands: directories are
					   counted once too (du's hash_all) */
	bool		separate_dirs;	/* -S: a directory's sum leaves out
					   its subdirectories */
	unsigned int	blocklog;	/* log2 of the fs block size */
	xbulk_du_fn	fn;
	/* Optional (du --exclude): true leaves @e out, and a directory
	 * with everything under it; asked before the link count. */
	bool		(*exclude)(void *arg, const struct xbulk_entry *e);
	void		*arg;		/* for fn and exclude */
	/* Since 0.4, optional: the names walked, if they were built with
	 * xbulk_du_fold() as their fold hook: each directory's folded
	 * entries count as its own (xbulk_names_folded()). */
	const struct xbulk_names *names;
};

struct xbulk_du;

/** xbulk_du_new() - Return: 0, -ENOMEM, or -EINVAL / -E2BIG for an
 * @o->size this library cannot take (@o is copied). */
int xbulk_du_new(const struct xbulk_du_opts *o, struct xbulk_du **du);
/** xbulk_du_free() - release @du (NULL is fine). */
void xbulk_du_free(struct xbulk_du *du);

/**
 * xbulk_du_visit() - the walk callback (pass it to xbulk_names_walk()
 * with XBULK_WALK_POST and @du as its argument).  The names must keep
 * XBULK_F_BLOCKS (or XBULK_F_SIZE with apparent); a file with several
 * links is told by XBULK_ENTRY_LINKED (or bs_nlink, for entries made by
 * the caller).  Each operand is one
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

/**
 * xbulk_du_fold() - what a fold hook (xbulk_names_opts.fold) of names
 * that xbulk_du_visit() will walk with @o calls (since 0.4): true, with
 * *@value the bytes @bs counts for (the names fold only files with one
 * link); false for a directory, or if @o has an exclude hook (it
 * matches names) or hash_all (an inode counts once across operands).
 * Thread-safe.  Folding saves the names of files du prints no line for
 * (du without -a): set @o->names to the names for xbulk_du_visit() to
 * add them.
 */
bool xbulk_du_fold(const struct xbulk_du_opts *o, const struct xfs_bulkstat *bs,
		   uint64_t *value);

/** xbulk_du_total() - the sum of every operand so far (du -c's line),
 * valid until the next visit or xbulk_du_free() */
const struct xbulk_du_sum *xbulk_du_total(const struct xbulk_du *du);

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

#pragma GCC visibility pop

#endif /* XBULK_DU_H */
