/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/names (prefix xbn_: CONTRIBUTING.md).
 *
 * The directory tree: reading every directory top-down (travel.c, with
 * fdbudget.c's count of fds), linking each to one parent (tree.c),
 * re-checking those whose listers disagree (recheck.c); and what walks
 * ask of the tree once it is built (tree.c).
 */
#ifndef XBULK_NAMES_TREE_H
#define XBULK_NAMES_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "names.h"

/* An entry naming directory @c: at @off of directory @p's listing. */
struct xbn_edge {
	uint32_t	c;
	uint32_t	p;
	uint64_t	off;
};

/*
 * What the listings say of the directories, gathered as they are read:
 * each directory's first lister is its parent (xbn_dir.parent), later
 * ones are kept here; names of directories the scan did not see are
 * counted (stale).
 */
struct xbn_links {
	struct xbn_edge	*v;
	size_t		n;
	size_t		cap;
	uint64_t	stale;
};

/*
 * tree.c: link the entries of directory @p's listing that name
 * directories (xbn_dir.nlisters, .parent, .entry_off; a second lister to
 * @links).  Readers call it at once, each with its own @links: which
 * lister comes first is then a matter of timing, so a directory with
 * two is always re-checked, its edges in (parent, offset) order.
 * Return 0 or -ENOMEM.
 */
int xbn_link_listing(struct xbulk_names *nm, uint32_t p,
		     struct xbn_links *links);

/*
 * travel.c: with @dirs NULL, read every directory a path from the
 * filesystem's root reaches, top-down with @threads readers: the root by
 * handle, every other directory by name from its parent (see the file),
 * and link each listing read into @links (xbn_link_listing()).  Else read
 * the @ndirs directories @dirs[i].c only (claimed by the caller), each by
 * name from its parent @dirs[i].p (read before) or, with XBN_NONE, by
 * handle (its dentry connected: a path was just looked up through it),
 * and neither link nor fold their listings: the walk strategy does it
 * once it has the entries' records.  Return 0, -EINTR or -ENOMEM.
 */
int xbn_travel(struct xbulk_names *nm, unsigned int threads,
	       struct xbn_links *links, const struct xbn_edge *dirs,
	       size_t ndirs);

/* Seconds on CLOCK_MONOTONIC, for the phases' times. */
static inline double
xbn_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* xbn_subtree(): the names are the scan's to get (nothing was stored). */
#define XBN_USE_SCAN	1

/*
 * subtree.c: the walk strategy (XBULK_STRATEGY_WALK, or AUTO): read the
 * subtrees of @o->paths only, down to @o->max_depth, with @o->threads
 * readers a level at a time, the records of their entries from bulkstat
 * of the chunks they are in, handed to @scan->batch_fn (and bad inodes
 * to @scan->bad_inode_fn), as the scan would; and the directories from
 * the mount's top @top_ino down to each operand.  Sets nm->root and
 * nm->top to the top; links the listings into @links; counts the
 * bulkstat calls and records, and times, in @r.  Return 0, XBN_USE_SCAN
 * (AUTO and an operand is the top, or an operand's parents leave the
 * mount before the top), -EINTR, -ENOMEM, -ESTALE (the top is gone) or
 * bulkstat's error.
 */
int xbn_subtree(struct xbulk_names *nm, const struct xbulk_names_opts *o,
		const struct xbulk_scan *scan, uint64_t top_ino,
		struct xbn_links *links, struct xbulk_names_result *r);

/* fdbudget.c: fds this process may still open (RLIMIT_NOFILE less those
 * open now). */
unsigned int xbn_fds_free(void);

/* Listers of one directory looked at by a re-check; more are damage that
 * is not followed, and not named. */
#define XBN_MAX_EDGES	64

/*
 * recheck.c: ask the kernel what directory @c's @edges and its ".." say
 * now; set its accepted parent, note damage, count churn in @r.
 * Return 0 or -ENOMEM.
 */
int xbn_recheck(struct xbulk_names *nm, struct xbulk_names_result *r,
		uint32_t c, const struct xbn_edge *edges, size_t nedges);

/* tree.c */
/*
 * After the reads (@links from them: xbn_link_listing()): settle every
 * directory on the one parent walks take it under, re-check (re-read,
 * "..") those seen under two parents, with a stale "..", or in a cycle,
 * and note the damage found in nm->problems.  Fills the churn and damage
 * counters of @r.  Return 0, -EINTR or -ENOMEM.
 */
int xbn_tree_build(struct xbulk_names *nm, struct xbulk_names_result *r,
		   struct xbn_links *links);
/*
 * Follow @rel ("a/b/c") from directory @from by names: *@dir and *@off
 * are the directory holding the last name and its entry.  Return 0 or
 * -ENOENT.
 */
int xbn_resolve(const struct xbulk_names *nm, uint32_t from, const char *rel,
		uint32_t *dir, uint64_t *off);
/* The directory slot @slot names, or NULL if it is none. */
static inline struct xbn_dir *
xbn_slot_dir(const struct xbulk_names *nm, const struct xbn_slot *slot)
{
	return (slot->mode & 0170000) == 0040000 ? xbn_dir(&nm->dirs, slot->aux)
						 : NULL;
}

/* Is the entry at @off of directory @p the one directory @c hangs on? */
static inline bool
xbn_is_edge(const struct xbn_dir *c, uint32_t p, uint64_t off)
{
	return c->parent == p && c->entry_off == off;
}

/* The entry named @name (@len bytes) in @d's listing, or NULL. */
const uint8_t *xbn_find_name(const struct xbn_dir *d, const char *name,
			     size_t len);

/*
 * tree.c: mark (xbn_dir.mark = @mark) every directory a walk from the top
 * enters, and set XBN_SLOT_REACHED on every inode it shows (not those
 * under mount points).  @stack holds a directory index per directory.
 */
void xbn_reach(struct xbulk_names *nm, uint32_t mark, uint32_t *stack);

#endif /* XBULK_NAMES_TREE_H */
