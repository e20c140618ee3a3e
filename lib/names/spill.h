/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/names (prefix xbn_: CONTRIBUTING.md).
 *
 * The memory of what grows with the inode count (spill.c): the store's
 * slots, the directory listings, a snapshot's inode-order cursor.  Blocks
 * come from anonymous memory (huge pages) while the budget allows, then
 * from one unnamed spill file mapped into a reserved range of addresses;
 * whenever the anonymous blocks and the spilled pages mapped exceed the
 * budget, the spilled pages are let go (the page cache keeps them, and the kernel
 * may write them out and drop them).  Pointers stay valid: every caller
 * works on the blocks as on memory, at any budget.
 */
#ifndef XBULK_NAMES_SPILL_H
#define XBULK_NAMES_SPILL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Blocks of xbn_alloc_block() come in multiples of this (a huge page). */
#define XBN_BLOCK_ALIGN		(2U << 20)

/* Walks and loops over every directory or name call xbn_spill_tick()
 * once per item; every this many, the resident set is looked at. */
#define XBN_SPILL_TICKS		1024

struct xbn_spill {
	uint64_t	budget;		/* bytes; 0: none */
	uint64_t	held_cap;	/* anonymous blocks up to this */
	const char	*tmpdir;	/* as asked (NULL: the default) */
	dev_t		scanned;	/* the scanned filesystem's st_dev */
	pthread_mutex_t	lock;
	uint64_t	held;		/* bytes of anonymous blocks */
	int		fd;		/* the spill file; -1: none yet */
	int		statm;		/* /proc/self/statm; -1 */
	char		*base;		/* reserved addresses */
	uint64_t	reserved;	/* bytes of them */
	uint64_t	placed;		/* bytes of the file in use */
	uint64_t	trims;
	uint64_t	rss_base;	/* file pages mapped when no spilled
					   page was (the last trim) */
	uint64_t	ticks;		/* xbn_spill_tick() */
	int		err;		/* the first failure to spill */
	char		dir[256];	/* where the file is */
	uint64_t	ahead_held;	/* anonymous blocks are faulted in
					   ahead, in huge pages, once this
					   much is held (0: always) */
};

/*
 * ahead_held of the walks that read a part of the filesystem (the walk
 * strategy, the plain walk): a question about one directory allocates a
 * few blocks and touches a few pages of each; faulting each 2 MiB in
 * ahead took 1.2 ms of `find LEAF -maxdepth 1 -size -1k`'s 3.0 ms (GNU
 * find: 1.4 ms; strace -T and best of 30 runs, cached, beside other
 * work: a check; the subtree suite's figures are the benchmark).  The scan keeps 0: faulting its first 8 MiB page by
 * page cost a whole-filesystem snapshot 2-5% hot (docs/performance.md,
 * "Issue 26's figures").
 */
#define XBN_WALK_AHEAD		(4ULL * XBN_BLOCK_ALIGN)

/*
 * A budget of @budget bytes (0: none, nothing ever spills) with its
 * spill file in @tmpdir (NULL: $TMPDIR, then /var/tmp), which must not
 * be on the filesystem whose st_dev is @scanned.  Only /proc/self/statm
 * is opened (with a budget) before the first spill.  Return 0 or
 * -ENOMEM.
 */
int xbn_spill_init(struct xbn_spill *s, uint64_t budget, const char *tmpdir,
		   dev_t scanned);
/* Unmap and close the spill file: every spilled block is gone. */
void xbn_spill_fini(struct xbn_spill *s);

/*
 * @len bytes of memory (rounded up to XBN_BLOCK_ALIGN if @huge, else to
 * a page), in anonymous memory while the budget allows (huge pages,
 * faulted in at once), else in the spill file (zeroed, its disk space
 * reserved).  *@got: the bytes usable.  NULL on failure, with s->err set
 * (-ENOMEM; for the spill file -EXDEV, -ENOSPC, open()'s error): then
 * every later call fails too.  Thread-safe.
 */
void *xbn_alloc_block(struct xbn_spill *s, size_t len, size_t *got,
		      bool huge);
/* Give back a block of xbn_alloc_block() (NULL is fine) of @len bytes
 * (the length asked or what it got): anonymous memory is freed, spilled
 * space goes with the file. */
void xbn_free_block(struct xbn_spill *s, void *p, size_t len);

/* Is @p in the spill file? */
static inline bool
xbn_spilled(const struct xbn_spill *s, const void *p)
{
	const char *c = p;

	return s->base && c >= s->base && c < s->base + s->reserved;
}

/* Let the spilled pages go if they and the anonymous blocks exceed the
 * budget.  Thread-safe. */
void xbn_spill_check(struct xbn_spill *s);

/* @n items done: every XBN_SPILL_TICKS, xbn_spill_check(); nothing
 * before the first spill. */
static inline void
xbn_spill_tick(struct xbn_spill *s, unsigned int n)
{
	uint64_t t;

	if (__atomic_load_n(&s->fd, __ATOMIC_RELAXED) < 0)
		return;
	t = __atomic_add_fetch(&s->ticks, n, __ATOMIC_RELAXED);
	if (t / XBN_SPILL_TICKS != (t - n) / XBN_SPILL_TICKS)
		xbn_spill_check(s);
}

#endif /* XBULK_NAMES_SPILL_H */
