/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libxbulk: every inode's paths from one scan and one read of every directory (lib/names/).
 * Part of <xbulk.h>: include that.
 */
#ifndef XBULK_NAMES_H
#define XBULK_NAMES_H

#include "xbulk/scan.h"

#pragma GCC visibility push(default)

/* ------------------------------------------------------------------ */
/* Names for inodes (lib/names/)                                       */
/* ------------------------------------------------------------------ */

/*
 * One bulkstat scan of the whole filesystem (xbulk_scan_run(), -j
 * threads) and then one read of every directory (getdents64, O_NOATIME,
 * -j readers, top-down: the root by handle, every other directory by name
 * from its parent's fd) give every inode its path or paths, without a
 * stat() per file:
 *
 *	xbulk_names_build()	scan, read, link and check: once
 *	xbulk_names_walk()	the paths under one operand, in GNU find's
 *				order: once per operand, one walk at a time
 *	xbulk_names_readlink()	a symlink's target, by handle
 *	xbulk_names_unreached()	inodes no path from the mount's top reaches
 *	xbulk_names_free()
 *
 * Needs CAP_SYS_ADMIN (bulkstat), CAP_DAC_READ_SEARCH (open_by_handle_at,
 * reading every directory) and, for directories the caller does not own,
 * CAP_FOWNER (O_NOATIME; root has all three).  Nothing is ever written to
 * the filesystem and no directory's atime changes.  Pipeline, memory per
 * inode and per name, churn rules: docs/design.md, "Names for inodes".
 */

/*
 * Bulkstat fields the engine keeps per inode (struct xbulk_names_opts
 * .fields).  bs_ino, bs_mode and bs_gen are always kept; the walk's
 * records hold 0 in every field not asked for.  Each field costs its
 * bytes per kept inode (in parentheses).
 */
enum {
	XBULK_F_SIZE	= 1u << 0,	/* bs_size (8) */
	XBULK_F_BLOCKS	= 1u << 1,	/* bs_blocks, bs_blksize (12) */
	XBULK_F_ATIME	= 1u << 2,	/* bs_atime, bs_atime_nsec (12) */
	XBULK_F_MTIME	= 1u << 3,	/* bs_mtime, bs_mtime_nsec (12) */
	XBULK_F_CTIME	= 1u << 4,	/* bs_ctime, bs_ctime_nsec (12) */
	XBULK_F_BTIME	= 1u << 5,	/* bs_btime, bs_btime_nsec (12) */
	XBULK_F_OWNER	= 1u << 6,	/* bs_uid, bs_gid (8) */
	XBULK_F_PROJID	= 1u << 7,	/* bs_projectid (4) */
	XBULK_F_NLINK	= 1u << 8,	/* bs_nlink (4) */
	XBULK_F_RDEV	= 1u << 9,	/* bs_rdev (4) */
	XBULK_F_XFLAGS	= 1u << 10,	/* bs_xflags (8) */
	XBULK_F_EXTENTS	= 1u << 11,	/* bs_extents64, bs_aextents (12) */
	XBULK_F_HINTS	= 1u << 12,	/* bs_extsize_blks,
					   bs_cowextsize_blks (8) */
	XBULK_F_OTHER	= 1u << 13,	/* bs_version, bs_forkoff, bs_sick,
					   bs_checked (8) */
	XBULK_F_ALL	= (1u << 14) - 1,
};

/* What xbulk_names_build() reports through xbulk_names_opts.problem. */
enum xbulk_names_problem_kind {
	/*
	 * A directory the kernel could not read (@err: -EUCLEAN, -EBADMSG,
	 * -EIO...).  Its entry still comes in walks, flagged
	 * XBULK_ENTRY_UNREADABLE with the same error, contents unknown:
	 * print one of the two (find names it when it reaches it).
	 */
	XBULK_PROBLEM_UNREADABLE,
	/*
	 * An inode bulkstat could not read (@err as above); the scan went
	 * on after it.  Its names come in walks flagged
	 * XBULK_ENTRY_BAD_INODE; @path is one of them (NULL if none is
	 * known).
	 */
	XBULK_PROBLEM_BAD_INODE,
	/*
	 * A directory still listed by two directories after both were read
	 * again (a hard link to a directory: damage).  @path is the entry
	 * that is not followed (@parent holds it); the directory is walked
	 * under the parent its ".." names.
	 */
	XBULK_PROBLEM_DIR_LINK,
	/*
	 * A directory whose ".." names a directory that does not list it,
	 * still so after a re-read (damage).  It is walked under the one
	 * directory that lists it, @path.
	 */
	XBULK_PROBLEM_DOTDOT,
	/*
	 * Directories whose parents form a cycle, still so after a re-read
	 * (damage): no walk from the top reaches them and none is followed
	 * around the cycle.  One report per directory of the cycle, @parent
	 * its parent in the cycle; @path is NULL.
	 */
	XBULK_PROBLEM_CYCLE,
	/*
	 * An AG the scan gave up on (@ag_fault: where and why; @err its
	 * error, @ino the inode the failing call started from, @path the
	 * mount point): its inode btree could not be read or walked (see
	 * xbulk_ag_fault_fn).  The build went on with the other AGs; the
	 * inodes of that AG the scan did not reach are unknown, so walks
	 * leave their names out (and a directory's contents with it).
	 */
	XBULK_PROBLEM_AG_FAULT,
};

/* One problem; every pointer is valid during the callback only. */
struct xbulk_names_problem {
	enum xbulk_names_problem_kind	kind;
	int				err;	/* negative errno, or 0 */
	uint64_t			ino;	/* the inode concerned */
	uint64_t			parent;	/* its directory, or 0 */
	/*
	 * Where it is: the mount point followed by the names from the
	 * mount's top ("/mnt/a/b"), any length, NUL-terminated; NULL when
	 * no name reaches it.
	 */
	const char			*path;
	/* XBULK_PROBLEM_AG_FAULT: the scan's report; else NULL */
	const struct xbulk_ag_fault	*ag_fault;
};

/* How far xbulk_names_build() is (struct xbulk_names_progress .phase). */
enum xbulk_names_phase {
	XBULK_PHASE_NONE = 0,	/* not started */
	XBULK_PHASE_SCAN,	/* the bulkstat scan: .inodes, .dirs grow */
	XBULK_PHASE_READ,	/* reading the directories: .dirs_read,
				   .entries grow up to .dirs */
	XBULK_PHASE_LINK,	/* linking and checking the tree */
	XBULK_PHASE_BUILT,	/* built (or failed): walks and snapshot
				   readers add to .walked, .records */
};

/*
 * Since 0.4: live counters of a long run, for a progress display on
 * another thread (xbulk never prints).  The caller allocates it, zeroed,
 * with @size = sizeof(struct xbulk_names_progress), and hands it to
 * xbulk_names_opts.progress, xbulk_snap_scan_opts.progress or
 * xbulk_snap_progress(); the library only adds to the counters (relaxed
 * atomics, once per batch of records, per directory or per 1024
 * entries: never on the caller's behalf per entry), writes nothing past
 * @size, and several users may share one.  Read them with
 * __atomic_load_n(..., __ATOMIC_RELAXED): each is exact once its phase
 * is over, a little behind while it runs.
 */
struct xbulk_names_progress {
	size_t		size;		/* sizeof(struct xbulk_names_progress) */
	uint32_t	phase;		/* enum xbulk_names_phase */
	uint64_t	inodes;		/* records the scan returned */
	uint64_t	dirs;		/* ... that are directories */
	uint64_t	dirs_read;	/* directories read (or found
					   unreadable) */
	uint64_t	entries;	/* entries they held ("." and ".."
					   aside) */
	uint64_t	walked;		/* visits of walks (a directory's
					   POST counts too) */
	uint64_t	records;	/* records read from snapshots
					   (xbulk_snap_next(), the diff; a
					   rewind reads them again) */
};

/* Set @size to sizeof(struct xbulk_names_opts); the library reads
 * nothing past it. */
struct xbulk_names_opts {
	size_t		size;		/* sizeof(struct xbulk_names_opts) */
	unsigned int	threads;	/* scan threads (0 or 1: the serial
					   scan), then as many directory
					   readers */
	uint32_t	fields;		/* XBULK_F_* to keep */
	/*
	 * Optional pre-filter on non-directories, called from the scan's
	 * threads at once (it must be thread-safe): false drops the inode
	 * before any name is read, and no walk shows it.  Directories are
	 * always kept.  Called once per inode, with every field filled.
	 */
	bool		(*keep)(void *arg, const struct xfs_bulkstat *bs);
	/*
	 * Optional: called once per problem (see enum
	 * xbulk_names_problem_kind), from the calling thread, before
	 * xbulk_names_build() returns.  Directories that vanished or moved
	 * during the scan are only counted (struct xbulk_names_result).
	 */
	void		(*problem)(void *arg,
				   const struct xbulk_names_problem *p);
	void		*arg;		/* for keep and problem */
	/*
	 * Optional: once *cancel is nonzero (a signal handler may set it)
	 * the build or a walk stops within 100 ms and returns -EINTR.  A
	 * walk looks at it once per 1024 entries: its callback may still be
	 * called for up to 1023 entries after the flag was set.  Clear it
	 * before walking again.
	 */
	const volatile int *cancel;
	/*
	 * Since 0.4: a memory budget, bytes (0: none).  What grows with the
	 * inode count (the kept inodes' fields, the directory listings and
	 * table, a snapshot's inode-order cursor) is held in memory up to about
	 * three quarters of it; past that it goes to one spill file in
	 * @tmpdir, mapped, whose pages are let go whenever they and the
	 * blocks in memory exceed @memory, so the kernel's page cache
	 * (reclaimable) holds them instead.  Walks give
	 * the same entries in the same order at any budget.  Fixed costs
	 * (threads, buffers) and the scan's notes of the runs of slots
	 * (about half a byte per inode, freed after it) are not counted:
	 * docs/performance.md, "Memory".
	 */
	uint64_t	memory;
	/*
	 * The spill file's directory (NULL: $TMPDIR, then /var/tmp).  The
	 * file is unnamed (O_TMPFILE: nothing is left behind, even after
	 * SIGKILL), its space reserved before use (fallocate), and never
	 * made on the scanned filesystem.  Read only once a spill is needed.
	 */
	const char	*tmpdir;
	/*
	 * Since 0.4, optional: entries a walk need not give one by one.
	 * Called by the directory readers (several threads at once: it
	 * must be thread-safe) for each entry that names a kept
	 * non-directory with one link (its only path), with its kept
	 * fields (bs_ino and bs_mode always);
	 * true folds the entry into its directory: no walk gives it, and
	 * xbulk_names_folded() gives the directory's count of such
	 * entries and the sum of the *@value each set.  It saves the
	 * entry's memory (10 bytes and the name).  Not called when a mount
	 * inside the mount covers a non-directory (its entry must stay),
	 * nor for directories read again after xbulk_names_changed().
	 */
	bool		(*fold)(void *arg, const struct xfs_bulkstat *bs,
				uint64_t *value);
	/*
	 * Since 0.4, optional: counters of the build's phases, and of the
	 * walks of the names built (struct xbulk_names_progress); it must
	 * outlive the names.
	 */
	struct xbulk_names_progress *progress;
	/*
	 * Since 0.4, optional: the operands the walks will take (find's and
	 * du's PATHs, as xbulk_names_walk() gets them), so that the walk
	 * strategy reads only what they hold; with @has_max_depth, walks go
	 * at most @max_depth levels below an operand (find -maxdepth), and
	 * the walk strategy reads no deeper than they can reach.
	 */
	const char *const *paths;
	size_t		npaths;
	bool		has_max_depth;
	uint32_t	max_depth;
	/* Since 0.4: how the names are got (enum xbulk_names_strategy) */
	uint32_t	strategy;
};

/*
 * How xbulk_names_build() gets the names (xbulk_names_opts.strategy,
 * xbulk_names_result.strategy).
 */
enum xbulk_names_strategy {
	/* The walk when every operand (@paths) is below the mount's top,
	 * else the scan. */
	XBULK_STRATEGY_AUTO = 0,
	/* One bulkstat scan of every inode, then one read of every
	 * directory from the filesystem's root. */
	XBULK_STRATEGY_SCAN,
	/*
	 * Only the operands' subtrees: their directories read top-down, a
	 * level at a time (down to @max_depth), and the records of their
	 * entries from bulkstat of just the inode chunks they are in (plus
	 * the directories from the mount's top down to each operand, read
	 * for the paths of problems and mounts).  Walks of paths outside
	 * @paths' subtrees find nothing there (-ESTALE), nothing folds, and
	 * xbulk_names_unreached() is refused.  Without @paths, or when an
	 * operand's parents do not lead to the mount's top (another mount
	 * hides it), the scan.
	 */
	XBULK_STRATEGY_WALK,
	/*
	 * Since 0.5, xbulk_names_plain()'s (not a choice of
	 * xbulk_names_build()): no bulkstat, no names built; each walk
	 * reads its directories as it enters them and stat()s what it must
	 * (directories, entries of unknown type; with XBULK_WALK_LOGICAL
	 * symbolic links too), as GNU find's fts does.
	 */
	XBULK_STRATEGY_PLAIN,
};

/* Where xbulk_names_build() failed. */
enum xbulk_names_fail {
	XBULK_NAMES_OK = 0,
	XBULK_NAMES_FAIL_SCAN,		/* the bulkstat scan: -EPERM means
					   no CAP_SYS_ADMIN (scan.fail,
					   scan.err say more) */
	XBULK_NAMES_FAIL_HANDLE,	/* open_by_handle_at() of the root
					   (O_PATH): -EPERM means no
					   CAP_DAC_READ_SEARCH.  A root
					   that cannot be read (O_NOATIME
					   on one the caller does not own
					   needs CAP_FOWNER) is a problem
					   (UNREADABLE), as any directory */
	XBULK_NAMES_FAIL_MOUNT,		/* finding the mount's top and the
					   mounts inside it (statx,
					   /proc/self/mountinfo) */
	XBULK_NAMES_FAIL_SETUP,		/* memory, threads (as
					   XBULK_SCAN_FAIL_SETUP) */
	XBULK_NAMES_CANCELLED,		/* *cancel was set */
	XBULK_NAMES_FAIL_SPILL,		/* since 0.4: the spill file:
					   -EXDEV (@tmpdir is on the
					   scanned filesystem), -ENOSPC (no
					   room: spill_bytes were placed),
					   -ENOMEM (no addresses left to
					   map it: ulimit -v), or open()'s
					   error in @tmpdir */
};

/* Set @size to sizeof(struct xbulk_names_result); the library writes
 * nothing past it. */
struct xbulk_names_result {
	size_t			size;	/* sizeof(struct xbulk_names_result) */
	enum xbulk_names_fail	fail;
	int			err;	/* negative errno, or 0 */
	/* The bulkstat scan's (struct xbulk_scan_result) */
	enum xbulk_scan_fail	scan_fail;
	uint64_t	scan_records;	/* records the scan returned */
	uint64_t	scan_calls;	/* its ioctls */
	unsigned int	scan_threads;	/* its workers */
	uint64_t	ag_faults;	/* AGs it gave up (XBULK_PROBLEM_AG_FAULT) */
	uint64_t	inodes;		/* kept: directories and what keep
					   accepted */
	uint64_t	dropped;	/* non-directories keep rejected */
	uint64_t	dirs;		/* directories bulkstat returned */
	uint64_t	dirs_read;	/* ... read whole */
	uint64_t	names;		/* entries read ("." and ".." aside) */
	uint64_t	mounts;		/* mount points inside the mount */
	/* Churn: not errors in themselves (find would say "No such file
	 * or directory" for the first and exit 1). */
	uint64_t	dirs_gone;	/* removed or moved during the scan:
					   their name led nowhere (ENOENT,
					   ESTALE); skipped */
	uint64_t	dirs_moved;	/* seen under two parents or with a
					   stale "..", settled by a re-read */
	uint64_t	stale_names;	/* names of inodes that changed
					   type or vanished: skipped */
	/* Problems reported (each also went to opts.problem; AG faults
	 * are counted in ag_faults) */
	uint64_t	dirs_unreadable;
	uint64_t	bad_inodes;
	uint64_t	damage;		/* DIR_LINK, DOTDOT and CYCLE */
	/* Memory held after the build, bytes */
	uint64_t	store_bytes;	/* kept inodes' fields */
	uint64_t	names_bytes;	/* directory entries */
	uint32_t	slot_bytes;	/* per kept inode in the store */
	/* Wall time of the phases, seconds */
	double		scan_s;		/* the bulkstat scan */
	double		read_s;		/* reading the directories */
	double		link_s;		/* linking and checking the tree */
	/* Since 0.4: the memory budget (xbulk_names_memory() says the same
	 * later, with what walks and cursors spilled since) */
	uint64_t	spill_bytes;	/* placed in the spill file */
	uint64_t	spill_trims;	/* times its pages were let go */
	uint64_t	folded;		/* entries opts.fold folded */
	/* Since 0.4: the strategy taken (SCAN or WALK; a caller that used
	 * xbulk_names_plain() may record PLAIN here); with WALK the
	 * scan_* fields count the bulkstat calls of the entries' chunks */
	uint32_t	strategy;	/* enum xbulk_names_strategy */
};

struct xbulk_names;	/* opaque: inode store and directory tree */

/**
 * xbulk_names_build() - scan @fs and read every directory by handle
 * @fs:    an open filesystem (xbulk_fs_open() on any path of the mount)
 * @o:     options; @o->threads scan threads, then as many directory
 *         readers
 * @names: on success, the names (free with xbulk_names_free()); NULL on
 *         failure
 * @r:     what was done and found, filled also on failure
 *
 * The mount is the one @fs->fd is on (statx STATX_MNT_ID,
 * /proc/self/mountinfo): its top is the filesystem's root (bulkstat's
 * special root inode) or, for a bind mount of a subdirectory, that
 * directory; walks never go above it.  Mount points of other filesystems
 * inside it come in walks as find -xdev shows them (XBULK_ENTRY_MOUNT)
 * and are not descended into.
 *
 * Return: 0; -EPERM without CAP_SYS_ADMIN (@r->fail FAIL_SCAN) or
 * CAP_DAC_READ_SEARCH (FAIL_HANDLE); -EINTR if cancelled; -ENOMEM;
 * -EINVAL (nothing done, @r untouched) if the @size of @o or @r is
 * smaller than this library's first version (of @o->progress: -EINVAL
 * in @r); -E2BIG if @o is larger and
 * sets a field this library does not know; or
 * the negative errno of the scan (see xbulk_scan_run()) or of the mount
 * lookup.  Problems with single directories, inodes or AGs (an inode
 * btree the kernel cannot walk) are not failures: they are reported and
 * counted in @r.
 */
int xbulk_names_build(struct xbulk_fs *fs, const struct xbulk_names_opts *o,
		      struct xbulk_names **names, struct xbulk_names_result *r);

/* What a budget (xbulk_names_opts .memory) did, so far. */
struct xbulk_memory_stats {
	size_t		size;		/* sizeof(struct xbulk_memory_stats) */
	uint64_t	budget;		/* bytes; 0: none */
	uint64_t	held_bytes;	/* blocks in memory (anonymous) */
	uint64_t	spill_bytes;	/* blocks placed in the spill file */
	uint64_t	spill_trims;	/* times its pages were let go */
	char		tmpdir[256];	/* where it is ("": no spill yet) */
};

/**
 * xbulk_names_memory() - what @names holds and spilled so far
 * @m: filled up to @m->size (set it to sizeof)
 * Return: 0, or -EINVAL if @m->size is too small.
 */
int xbulk_names_memory(const struct xbulk_names *names,
		       struct xbulk_memory_stats *m);

/** xbulk_names_free() - free what xbulk_names_build() made; NULL is fine */
void xbulk_names_free(struct xbulk_names *names);

/* struct xbulk_entry .flags */
enum {
	/*
	 * A mount point of another filesystem: @bs holds what statx() says
	 * of the path (the mounted root, as find shows it:
	 * xbulk_bulkstat_from_statx(); bs_ino is its inode number on the
	 * other filesystem, bs_blocks in 512-byte units).  Not descended
	 * into.
	 */
	XBULK_ENTRY_MOUNT	= 1u << 0,
	/* A directory the kernel could not read (@err): no contents. */
	XBULK_ENTRY_UNREADABLE	= 1u << 1,
	/*
	 * An inode bulkstat could not read (@err): @bs holds only bs_ino and
	 * the file type bits of bs_mode (from the directory entry).  It
	 * comes once, as a PRE visit, even as a directory: no contents, no
	 * POST, whatever the callback returns.
	 */
	XBULK_ENTRY_BAD_INODE	= 1u << 2,
	/*
	 * After xbulk_names_changed(): @bs holds only bs_ino and the type
	 * bits of bs_mode, from the directory entry as read then (bs_mode 0
	 * and @err set: a directory that vanished before it could be
	 * stat()ed, find's FTS_NS).  xbulk_names_restat() gives the rest.
	 */
	XBULK_ENTRY_LAZY	= 1u << 3,
	/* After xbulk_names_changed(): a directory stat()ed as the walk
	 * reached it (statx; bs_blocks in 512-byte units, @blocklog 9),
	 * not the scan's record. */
	XBULK_ENTRY_LIVE	= 1u << 4,
	/* Since 0.4: a non-directory with more than one link (bs_nlink > 1,
	 * kept or not: XBULK_F_NLINK), from the scan's record: its other
	 * paths come too. */
	XBULK_ENTRY_LINKED	= 1u << 5,
	/*
	 * Since 0.5, plain walks only (xbulk_names_plain()): not a file to
	 * evaluate, @err -ELOOP.  With @nentries, a directory met again
	 * below itself (a symbolic link to one above: fts's FTS_DC), the
	 * first @nentries bytes of @path naming the one above; with
	 * @nentries 0, a symbolic link in a loop of links
	 * (XBULK_WALK_LOGICAL).  Not entered.
	 */
	XBULK_ENTRY_LOOP	= 1u << 6,
	/* Since 0.5: from a plain walk (xbulk_names_plain()), GNU find's
	 * own: a directory O_NOATIME may not open is read without, as the
	 * walk reads it (find -empty) */
	XBULK_ENTRY_PLAIN	= 1u << 7,
};

/*
 * One path of an inode (a hard-linked inode comes once per path), as a
 * walk hands it to its callback and find's evaluator reads it.  Made by
 * the library; it may grow at its end.
 */
struct xbulk_entry {
	const char	*path;		/* the operand as given, then
					   "/name"s; NUL-terminated, any
					   length (past PATH_MAX too) */
	size_t		pathlen;	/* strlen(path) */
	size_t		name_off;	/* where the last name starts (0 at
					   depth 0) */
	unsigned int	depth;		/* 0: the operand itself */
	const struct xfs_bulkstat *bs;	/* kept fields, others 0 */
	uint64_t	nentries;	/* directories: entries but "." and
					   "..", as read; XBULK_ENTRY_LOOP:
					   see there */
	uint32_t	flags;		/* XBULK_ENTRY_* */
	int		err;		/* negative errno with UNREADABLE and
					   BAD_INODE, and with MOUNT when the
					   mounted directory could not be
					   read (@nentries is then 1); else 0 */
	const char	*start;		/* the walk's operand (@path begins
					   with its @startlen bytes) */
	size_t		startlen;
	uint64_t	dev;		/* st_dev: the scanned filesystem's,
					   or at a mount point the mounted
					   one's */
	unsigned int	blocklog;	/* log2 of the unit of bs_blocks: the
					   block size, or 9 at a mount point
					   (statx's 512-byte blocks) */
	const char	*fstype;	/* "xfs", or at a mount point the
					   mounted filesystem's type (as
					   /proc/self/mountinfo names it) */
	unsigned int	dtype;		/* the type its directory entry
					   gives (DT_*), DT_UNKNOWN at depth
					   0: at a mount point over a file,
					   the covered file's (find -type
					   reads it) */
	uint64_t	dino;		/* the inode its directory entry
					   names (bs_ino at depth 0): at a
					   mount point over a file, the
					   covered file's (find -inum reads
					   it) */};

enum xbulk_visit {
	XBULK_VISIT_PRE,	/* a directory before its contents, and
				   every other entry */
	XBULK_VISIT_POST,	/* a directory after its contents
				   (XBULK_WALK_POST only) */
};

/* Values an xbulk_walk_fn returns besides 0 (go on) and -errno (end). */
#define XBULK_WALK_PRUNE	1	/* PRE of a directory: skip contents
					   (its POST still comes) */
#define XBULK_WALK_STOP		2	/* end the walk now (find -quit) */

/*
 * Called for each entry of a walk.  Everything @e points to is valid
 * during the call only.  Return 0, XBULK_WALK_PRUNE, XBULK_WALK_STOP, or a
 * negative errno to end the walk with it.
 */
typedef int (*xbulk_walk_fn)(void *arg, const struct xbulk_entry *e,
			     enum xbulk_visit visit);

/* xbulk_names_walk() flags */
enum {
	XBULK_WALK_POST		= 1u << 0,	/* also visit each directory
						   after its contents (find
						   -depth, du) */
	XBULK_WALK_FOLLOW	= 1u << 1,	/* a symlink operand is
						   followed (find -H, -L) */
	/* Since 0.5, plain walks (xbulk_names_plain()) only: */
	XBULK_WALK_LOGICAL	= 1u << 2,	/* every symlink is followed,
						   loops detected (find -L) */
	XBULK_WALK_XDEV		= 1u << 3,	/* stay on the operand's
						   filesystem (find -xdev;
						   walks of built names
						   always do) */
};

/**
 * xbulk_names_plain() - names for walks that read as they go (since 0.5)
 * @fs:    NULL, or the XFS filesystem the operands are on: the fields
 *         statx does not give (@o->fields) are then read by bulkstat of
 *         each file on it that is stat()ed
 * @o:     options: only @fields, @cancel, @progress, @memory and @tmpdir
 *         are read
 * @names: on success, the names (free with xbulk_names_free())
 *
 * No scan and nothing built (XBULK_STRATEGY_PLAIN): each
 * xbulk_names_walk() reads a directory when it enters it (O_NOATIME),
 * stat()s directories, entries of unknown type and, with
 * XBULK_WALK_LOGICAL, symbolic links, and gives every other entry as
 * XBULK_ENTRY_LAZY (its type from the directory entry;
 * xbulk_names_restat() stats it), as GNU find's fts does.  Any
 * filesystem; the walk crosses mount points unless XBULK_WALK_XDEV.
 * Entries are XBULK_ENTRY_LIVE (st_dev, fstype and statx's 512-byte
 * blocks in each), never XBULK_ENTRY_MOUNT but at the mount points
 * XBULK_WALK_XDEV does not cross; under XBULK_WALK_LOGICAL loops come
 * as XBULK_ENTRY_LOOP.  A walk holds one fd per directory level it is
 * in.  xbulk_names_unreached() and xbulk_names_readlink() are refused.
 *
 * Return: 0, -ENOMEM, -EINVAL (the @size of @o), or statx()'s error on
 * @fs.
 */
int xbulk_names_plain(struct xbulk_fs *fs, const struct xbulk_names_opts *o,
		      struct xbulk_names **names);

/**
 * xbulk_names_walk() - every path under one operand, in GNU find's order
 * @start: the operand as the user typed it: a directory or any other file
 *         on the mount (a symlink is the link itself unless
 *         XBULK_WALK_FOLLOW); paths are @start followed by "/name"s (one
 *         trailing '/' of @start is not doubled, as find does)
 * @flags: XBULK_WALK_*
 *
 * Order (gnulib fts, as GNU find 4.9 and du use it): pre-order, each
 * directory's entries in readdir (getdents) order, except that a
 * directory read in batches of 100,000 entries has each batch of more than
 * 10,000 sorted by inode number (gnulib fts_build(): FTS_MAX_READDIR_ENTRIES,
 * _FTS_INODE_SORT_DIR_ENTRIES_THRESHOLD; dirent_inode_sort_may_be_useful()
 * is true on XFS).  Directories come once, under the parent their ".."
 * names; inodes the keep filter dropped do not come; directories removed
 * during the scan do not come.  Directories are read from the root
 * down: a directory @start below one that could not be read was not
 * read either, and comes flagged XBULK_ENTRY_UNREADABLE with that one's
 * error (the nearest above it).
 *
 * Not thread-safe with other walks of @names; the callback may call
 * xbulk_names_readlink().  No system call per entry but the callback's.
 *
 * Return: 0 at the end, XBULK_WALK_STOP if @fn stopped it; -ENOENT,
 * -EACCES, -ENOTDIR... from fstatat(@start); -EXDEV if @start is not on
 * this mount (another filesystem, or another mount of it); -ESTALE if
 * the scan did not see @start's inode (created or changed since); -EINTR
 * if cancelled; -ENOMEM; or @fn's negative errno.
 */
int xbulk_names_walk(struct xbulk_names *names, const char *start,
		     unsigned int flags, xbulk_walk_fn fn, void *arg);

/**
 * xbulk_names_folded() - the entries of a directory that
 * xbulk_names_opts.fold folded (since 0.4)
 * @e:     a directory's entry, as a walk of @names gives it (PRE or POST)
 * @value: set to the sum of the values fold gave them (0 if none)
 *
 * Return: how many entries were folded into it (0 for anything but a
 * directory read by xbulk_names_build(), e.g. a mount point).
 */
uint64_t xbulk_names_folded(const struct xbulk_names *names,
			    const struct xbulk_entry *e, uint64_t *value);

/**
 * xbulk_names_changed() - the caller changed the filesystem (find ran a
 * command, -delete removed a name): from now on walks read each
 * directory they enter again, as it is then (getdents, O_NOATIME), and
 * stat() each directory they reach (XBULK_ENTRY_LIVE); other files come
 * as their directory entry says (XBULK_ENTRY_LAZY), with no record until
 * xbulk_names_restat().  A directory whose listing a walk already holds
 * goes on with it, as fts does; a name it lists that the scan's filter
 * dropped comes too.  For good: the scan's records are not used again.
 */
void xbulk_names_changed(struct xbulk_names *names);

/**
 * xbulk_names_restat() - @e's file as lstat() sees it now (statx of
 * e->path, any length; from a walk's callback, of its name in its
 * directory as the walk reached it: xbulk_names_dir_fd()), into @out:
 * @e's path fields, a record from
 * statx (xbulk_bulkstat_from_statx(), so @out->blocklog is 9) with the
 * XFS fields the build kept read by bulkstat when the file is on this
 * filesystem, its st_dev and filesystem type (XBULK_ENTRY_MOUNT when it
 * is another's), and a directory's entries.  @out->bs points into
 * @names until the next call.
 * Return: 0 or the negative errno of statx (-ENOENT: gone).
 */
int xbulk_names_restat(struct xbulk_names *names, const struct xbulk_entry *e,
		       struct xbulk_entry *out);

/**
 * xbulk_names_dir_fd() - the directory that holds @e, an entry below the
 * operand (depth 1 or more) that the walk of @names is visiting now
 * (from its callback): opened by handle (O_PATH), as the walk reached
 * it, so that a rename, or a symbolic link put in place of a directory
 * above it since, changes nothing (fts's FTS_CWDFD, find's -delete and
 * -execdir).  The fd is the walk's: valid until the callback returns;
 * do not close it.
 * Return: the fd; -EINVAL outside a walk or for an operand (depth 0:
 * its path is find's); -ESTALE if the directory is gone; another
 * -errno of open_by_handle_at(2).
 */
int xbulk_names_dir_fd(struct xbulk_names *names, const struct xbulk_entry *e);

/**
 * xbulk_names_readlink() - the target of the symlink @bs (an entry's
 * record), read by handle (open_by_handle_at(O_PATH), readlinkat())
 * @buf, @size: where to put it; not NUL-terminated, cut at @size as
 *              readlink(2) does (XFS targets are at most 1024 bytes)
 *
 * Like find's %l it reads the link, which updates the link's atime as
 * the mount's atime options say (directories' atimes never change).
 *
 * Return: bytes written; -ESTALE if the link is gone; -EINVAL if @bs is
 * no symlink; another negative errno.
 */
int xbulk_names_readlink(struct xbulk_names *names,
			 const struct xfs_bulkstat *bs, char *buf, size_t size);

/**
 * xbulk_names_unreached() - call @fn for each kept inode that no path
 * from the mount's top reaches (du --unreachable): open but unlinked
 * files, what is hidden under mount points, what lies outside a bind
 * mount's subdirectory, directories the scan saw that no read listing
 * holds.  In inode order; @bs as in walks.  @fn returns 0 or a negative
 * errno that ends the call.
 *
 * Return: 0, -EINTR if cancelled, -ENOMEM, or @fn's error; -EINVAL if
 * @names folded entries (xbulk_names_opts.fold: their inodes would seem
 * unreached) or were built by the walk strategy (it read a part of the
 * filesystem only: build with XBULK_STRATEGY_SCAN).
 */
int xbulk_names_unreached(struct xbulk_names *names,
			  int (*fn)(void *arg, const struct xfs_bulkstat *bs),
			  void *arg);

#pragma GCC visibility pop

#endif /* XBULK_NAMES_H */
