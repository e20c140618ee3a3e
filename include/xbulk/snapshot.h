/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libxbulk snapshots (lib/snap/): every inode's identity and attributes
 * and every directory entry of a mounted XFS, recorded in one pass (one
 * bulkstat scan and one read of every directory: the names engine), and
 * the streaming diff of two of them.
 *
 *	xbulk_snap_scan()	a live scan, read as a snapshot
 *	xbulk_snap_open()	a snapshot file (docs/formats.md, "Snapshot
 *				files"), checked whole before the first record
 *	xbulk_snap_next()	the records, in inode order
 *	xbulk_snap_error()	what was wrong with the file, and where
 *	xbulk_snap_writer_*()	write one to a file, atomically
 *	xbulk_snap_diff_*()	what changed from one to the other
 *
 * Every object is opaque and made by the library; option structs start
 * with their size (set it to sizeof); records and changes the library
 * hands out are read-only and valid until the next call on their object.
 * Included by <xbulk.h>.
 */
#ifndef XBULK_SNAPSHOT_H
#define XBULK_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xfs/xfs.h>

#include "xbulk/names.h"

#pragma GCC visibility push(default)

struct xbulk_fs;
struct xbulk_names_result;
struct xbulk_names_problem;
struct xbulk_memory_stats;
struct xbulk_names_progress;

/* The snapshot file format this library writes (and the only one it reads). */
#define XBULK_SNAP_VERSION	1

/* What a snapshot's header says (library-owned; fields only grow at the
 * end). */
struct xbulk_snap_info {
	uint32_t	version;	/* XBULK_SNAP_VERSION */
	uint8_t		uuid[16];	/* the filesystem's (geometry) */
	uint32_t	blocksize;	/* bytes */
	uint32_t	agcount;
	uint32_t	agblocks;	/* blocks per AG */
	uint32_t	inodesize;	/* bytes */
	uint64_t	datablocks;
	uint64_t	top;		/* inode number of the mount's top */
	int64_t		start_sec;	/* the scan's start (CLOCK_REALTIME_
					   COARSE, the clock of inode
					   timestamps) */
	uint32_t	start_nsec;
	int64_t		end_sec;	/* and end */
	uint32_t	end_nsec;
	uint32_t	threads;	/* scan threads */
	char		xbulk_version[32];	/* of the writer */
	char		host[65];		/* uname nodename */
	char		mountpoint[256];	/* cut at 255 bytes */
	uint64_t	inodes;		/* records */
	uint64_t	links;		/* directory entries */
	uint64_t	dirs;		/* directories */
	uint64_t	file_bytes;	/* size of the file (0: live) */
};

/* One directory entry naming an inode: entry @name of directory @parent. */
struct xbulk_snap_link {
	uint64_t	parent;		/* its directory's inode number */
	const char	*name;		/* @namelen bytes, not NUL-terminated */
	uint32_t	namelen;
};

/* struct xbulk_snap_rec .flags */
enum {
	/* The inode's recorded ctime is at or after the scan's start: it
	 * changed while the scan ran, so its record and its names may
	 * come from different moments. */
	XBULK_SNAP_CHANGING	= 1u << 0,
};

/* One inode's record. */
struct xbulk_snap_rec {
	/*
	 * The recorded fields: bs_ino, bs_gen, bs_mode, bs_nlink, bs_uid,
	 * bs_gid, bs_projectid, bs_size, bs_blocks (filesystem blocks),
	 * bs_[amcb]time and _nsec, bs_xflags, bs_extents64, bs_aextents,
	 * bs_rdev; every other field 0.
	 */
	const struct xfs_bulkstat	*bs;
	uint32_t			flags;		/* XBULK_SNAP_* */
	uint32_t			nlinks;		/* 0: no name known */
	const struct xbulk_snap_link	*links;
};

struct xbulk_snap;	/* a snapshot being read: a file or a live scan */

/* xbulk_snap_scan_opts .flags */
enum {
	XBULK_SNAP_NO_SYNC	= 1u << 0,	/* skip syncfs() first */
};

struct xbulk_snap_scan_opts {
	size_t		size;		/* sizeof(struct xbulk_snap_scan_opts) */
	unsigned int	threads;	/* scan threads, then directory readers */
	uint32_t	flags;		/* XBULK_SNAP_NO_SYNC */
	/* Inodes left out of the snapshot (non-directories: the snapshot
	 * files themselves, when they lie on the scanned filesystem) */
	const uint64_t	*exclude;
	size_t		nexclude;
	/* As struct xbulk_names_opts .problem (NULL: none reported) */
	void		(*problem)(void *arg,
				   const struct xbulk_names_problem *p);
	void		*arg;
	const volatile int *cancel;	/* as struct xbulk_names_opts */
	/* Since 0.4: as struct xbulk_names_opts (0, NULL: no budget) */
	uint64_t	memory;
	const char	*tmpdir;
	/* Since 0.4, optional: the build's counters, as struct
	 * xbulk_names_opts .progress, and the records read from the
	 * snapshot after it (xbulk_snap_progress()) */
	struct xbulk_names_progress *progress;
};

/**
 * xbulk_snap_scan() - scan @fs now and read the result as a snapshot
 * @fs:  an open filesystem
 * @o:   options (@o->size set)
 * @s:   the snapshot (xbulk_snap_close()); NULL on failure
 * @r:   the names build's result (may be NULL)
 *
 * syncfs() first (unless XBULK_SNAP_NO_SYNC), so that delayed allocation
 * does not show later as a change; then one xbulk_names_build() with the
 * fields a record holds.  The records are the inodes the scan returned,
 * each with the names a walk from the mount's top shows (a directory
 * under the parent its ".." names; the top, and inodes no name reaches,
 * with none).  Needs what xbulk_names_build() needs.
 *
 * Return: 0, -EINVAL (@o->size too small), or xbulk_names_build()'s
 * error (-EPERM, -EINTR, -ENOMEM...).
 */
int xbulk_snap_scan(struct xbulk_fs *fs, const struct xbulk_snap_scan_opts *o,
		    struct xbulk_snap **s, struct xbulk_names_result *r);

/**
 * xbulk_snap_open() - open the snapshot file @path (or the open regular
 * file @fd, with xbulk_snap_open_fd(); the snapshot takes the fd)
 * @why, @whysize: where a failure is explained in one line (what is
 *        wrong and where), NUL-terminated
 *
 * The header, the trailer and the checksum of every block are checked
 * before this returns, and the directories are read, so that
 * xbulk_snap_next() fails only on a read error or a file changed under
 * it.
 *
 * Return: 0; -ENOENT, -EACCES... from open(); -ENODATA for an empty
 * file; -EILSEQ if it is no snapshot (magic); -EPROTONOSUPPORT for
 * another format version; -EBADMSG if it is damaged or truncated;
 * -ENOMEM; -EIO.
 */
int xbulk_snap_open(const char *path, struct xbulk_snap **s, char *why,
		    size_t whysize);
int xbulk_snap_open_fd(int fd, struct xbulk_snap **s, char *why,
		       size_t whysize);

/* The header's facts. */
const struct xbulk_snap_info *xbulk_snap_info(const struct xbulk_snap *s);

/**
 * xbulk_snap_next() - the next record, in inode order
 * Return: 1 and *@rec set (valid until the next call); 0 at the end;
 * -EBADMSG (a file changed since it was opened, or a damaged record that
 * its checksums cover), -EIO, -ENOMEM; xbulk_snap_error() then says
 * what and where.
 */
int xbulk_snap_next(struct xbulk_snap *s, const struct xbulk_snap_rec **rec);

/**
 * xbulk_snap_error() - why the last xbulk_snap_next() on @s, or the last
 * xbulk_snap_diff_next() that read @s, failed because of @s: one line
 * saying what is wrong and where in the file ("damaged record of inode
 * 133 (record 2 of the block at byte 1024)", "reading byte 1024:
 * Input/output error"), valid until the next call on @s.  NULL if no read
 * of @s failed since it was opened or rewound: when a diff fails with
 * neither snapshot's error set, the failure was the diff's own (-ENOMEM).
 */
const char *xbulk_snap_error(const struct xbulk_snap *s);

/* Start again at the first record (0, or a negative errno). */
int xbulk_snap_rewind(struct xbulk_snap *s);

/**
 * xbulk_snap_path() - the path of entry @l from the mount's top
 * ("a/b/c"; "." for the top itself with @l NULL), NUL-terminated, into
 * *@buf of *@cap bytes, grown with realloc() as needed (as getline()).
 * Return: its length; -ENOENT if no name of the snapshot reaches @l's
 * directory; -ENOMEM.
 */
long xbulk_snap_path(const struct xbulk_snap *s,
		     const struct xbulk_snap_link *l, char **buf, size_t *cap);

/**
 * xbulk_snap_progress() - from now on, count the records read from @s
 * (by xbulk_snap_next() or a diff) in @p->records (since 0.4)
 * @p: counters (struct xbulk_names_progress) that outlive @s, or NULL
 *     for none; several snapshots may share them
 *
 * A live scan given xbulk_snap_scan_opts.progress counts into those
 * already.  Return: 0, or -EINVAL if @p->size is too small.
 */
int xbulk_snap_progress(struct xbulk_snap *s, struct xbulk_names_progress *p);

/**
 * xbulk_snap_memory() - what the live scan behind @s holds and spilled
 * so far (xbulk_names_memory()); a snapshot file holds nothing that grows
 * with its inodes: @m says budget 0, nothing spilled
 * Return: 0, or -EINVAL if @m->size is too small.
 */
int xbulk_snap_memory(const struct xbulk_snap *s,
		      struct xbulk_memory_stats *m);

/** xbulk_snap_close() - free @s (NULL is fine) */
void xbulk_snap_close(struct xbulk_snap *s);

/* ------------------------------------------------------------------ */
/* Walking (since 0.4)                                                 */
/* ------------------------------------------------------------------ */

/*
 * A snapshot as a source of walk entries (struct xbulk_entry,
 * xbulk/names.h): the paths under an operand with their records, for a
 * walk callback such as xbulk_find_visit() (xbulk find --snapshot).
 * Nothing is read but the snapshot.
 */
struct xbulk_snap_tree;

/* The record fields (XBULK_F_*) of a snapshot's walk entries; of
 * XBULK_F_OTHER only bs_version (5 when a birth time is recorded). */
#define XBULK_SNAP_FIELDS	(XBULK_F_SIZE | XBULK_F_BLOCKS |	\
				 XBULK_F_ATIME | XBULK_F_MTIME |	\
				 XBULK_F_CTIME | XBULK_F_BTIME |	\
				 XBULK_F_OWNER | XBULK_F_PROJID |	\
				 XBULK_F_NLINK | XBULK_F_RDEV |		\
				 XBULK_F_XFLAGS | XBULK_F_EXTENTS |	\
				 XBULK_F_OTHER)

struct xbulk_snap_tree_opts {
	size_t		size;		/* sizeof(struct xbulk_snap_tree_opts) */
	const volatile int *cancel;	/* -EINTR within 1024 records */
};

/**
 * xbulk_snap_tree_open() - read snapshot @s (a file, or a live scan)
 * once for its walks: every record is decoded, each directory's names
 * are counted and its record kept (about 70 bytes a directory beside
 * the directory table; other inodes stream, nothing is kept of them).
 * @s stays the caller's, to close after xbulk_snap_tree_free(); the
 * walks rewind and read it.
 *
 * Return: 0; -EBADMSG (a damaged record: xbulk_snap_error(@s) says
 * where, before any entry was handed out), a reader's error, -EINTR,
 * -ENOMEM; -EINVAL, -E2BIG (@o's size).
 */
int xbulk_snap_tree_open(struct xbulk_snap *s,
			 const struct xbulk_snap_tree_opts *o,
			 struct xbulk_snap_tree **t);

/**
 * xbulk_snap_walk() - every path of the snapshot under @start, to @fn
 * @start: the operand: relative to the mount's top ("." the top, "a/b"),
 *         or absolute and under the mount point the snapshot was taken
 *         of (xbulk_snap_info() .mountpoint), as find's PATH; paths are
 *         @start followed by "/name"s (a trailing '/' not doubled)
 * @flags: XBULK_WALK_POST; XBULK_WALK_FOLLOW makes an operand that is
 *         a symbolic link fail (-ENOTSUP: a snapshot holds no target)
 *
 * The entries are those a live walk (xbulk_names_walk()) would have
 * given at the snapshot's moment: the same paths and depths, each name
 * of a hard-linked file, the records as the snapshot holds them (the
 * fields of SNAPSHOT in xbulk(8); bs_blksize, the hints, bs_forkoff,
 * bs_sick, bs_checked 0; bs_version 5 when a birth time is recorded,
 * else 1), a directory's @nentries its names in the snapshot; @dev 0,
 * @fstype "xfs", @blocklog the snapshot's block size.  Not in find's
 * order: the directories first, depth first (PRE, then POST after their
 * subdirectories with XBULK_WALK_POST; PRUNE from @fn leaves a
 * subtree out), then every other file in inode order, in one pass over
 * the records.  A snapshot keeps no readdir order: sorted, the paths
 * are the live walk's.
 *
 * Return: 0 at the end, XBULK_WALK_STOP if @fn stopped it; -ENOENT
 * (no such path in the snapshot), -EXDEV (an absolute @start not under
 * its mount point, or ".." above its top), -ENOTSUP (a symbolic link
 * to follow); -EINTR; -ENOMEM; a reader's
 * error (xbulk_snap_error()); or @fn's negative errno.
 */
int xbulk_snap_walk(struct xbulk_snap_tree *t, const char *start,
		    unsigned int flags, xbulk_walk_fn fn, void *arg);

/** xbulk_snap_tree_free() - free @t (NULL is fine) */
void xbulk_snap_tree_free(struct xbulk_snap_tree *t);

/* ------------------------------------------------------------------ */
/* Writing                                                             */
/* ------------------------------------------------------------------ */

struct xbulk_snap_writer;

struct xbulk_snap_write_opts {
	size_t		size;		/* sizeof(struct xbulk_snap_write_opts) */
	int		level;		/* zstd level (1-19); 0: stored as is */
};

/**
 * xbulk_snap_writer_new() - start writing a snapshot to @path
 *
 * The file is made by xbulk_replace_open() (xbulk/replace.h): unnamed in
 * @path's directory, mode 0600, never through a name someone else could
 * have planted; nothing is at @path until xbulk_snap_writer_commit()
 * puts it there, so an interrupted or failed write never replaces a
 * good snapshot.  Only a regular file at @path is replaced (never a
 * symbolic link).
 * Return: 0, -EISDIR (@path is or ends as a directory), -EEXIST (what
 * is at @path is no regular file: a symbolic link, a FIFO...), or the
 * negative errno of creating it.
 */
int xbulk_snap_writer_new(const char *path,
			  const struct xbulk_snap_write_opts *o,
			  struct xbulk_snap_writer **w);

/* The device and inode number of the file being written (to leave it
 * out of a scan). */
void xbulk_snap_writer_ident(const struct xbulk_snap_writer *w,
			     uint64_t *dev, uint64_t *ino);

/**
 * xbulk_snap_writer_add() - append @rec, a record of @src (the first call
 * writes the header from xbulk_snap_info(@src)); records must come in
 * increasing inode order.  Any number of names (an inode with more than
 * a record holds takes continuation records), each of 1 to 255 bytes.
 * Return: 0; -EINVAL (out of order, from another snapshot, or a name a
 * reader refuses: of 0 or more than 255 bytes, with '/' or NUL, "." or
 * ".."); the negative errno of a write (-ENOSPC, -EIO...).
 */
int xbulk_snap_writer_add(struct xbulk_snap_writer *w,
			  const struct xbulk_snap *src,
			  const struct xbulk_snap_rec *rec);

/**
 * xbulk_snap_writer_finish() - write the directories and the trailer and
 * fsync, all but giving the file its name (so that a caller can make
 * sure the file is whole before it acts, and commit after).  No add after
 * it.  Return: 0 or a negative errno (-ENOSPC, -EIO...).
 */
int xbulk_snap_writer_finish(struct xbulk_snap_writer *w);

/**
 * xbulk_snap_writer_commit() - xbulk_snap_writer_finish() if not done,
 * then put the file at its path (replacing what was there), fsync the
 * directory, and free @w.  On failure the file is removed, whatever was
 * at the path stays, and @w is freed.
 * Return: 0 or a negative errno.
 */
int xbulk_snap_writer_commit(struct xbulk_snap_writer *w);

/* Give up: remove the file and free @w (NULL is fine). */
void xbulk_snap_writer_abort(struct xbulk_snap_writer *w);

/* ------------------------------------------------------------------ */
/* Diff                                                                */
/* ------------------------------------------------------------------ */

/* What a change is (struct xbulk_snap_change .kind). */
enum xbulk_change_kind {
	XBULK_CHANGE_CREATED,	/* in NEW only (one per name) */
	XBULK_CHANGE_DELETED,	/* in OLD only (one per name) */
	XBULK_CHANGE_RENAMED,	/* one name in OLD, another one in NEW */
	XBULK_CHANGE_MODIFIED,	/* attributes (facets), same names; no
				   facet: OLD's record was
				   XBULK_SNAP_CHANGING and NEW scanned
				   later (racy: the same record proves
				   nothing) */
	XBULK_CHANGE_ENTRIES,	/* a directory changed only through its
				   entries */
	XBULK_CHANGE_LINKED,	/* a name added (hard link) */
	XBULK_CHANGE_UNLINKED,	/* a name removed (the inode stays) */
	XBULK_CHANGE_MOVED,	/* below a renamed directory, itself
				   unchanged (XBULK_DIFF_EXPAND) */
};

/* Facets of a change (struct xbulk_snap_change .facets). */
enum {
	XBULK_FACET_CONTENT	= 1u << 0,	/* size or mtime */
	XBULK_FACET_MODE	= 1u << 1,	/* permission bits */
	XBULK_FACET_UID		= 1u << 2,
	XBULK_FACET_GID		= 1u << 3,
	XBULK_FACET_PROJID	= 1u << 4,
	XBULK_FACET_XFLAGS	= 1u << 5,
	XBULK_FACET_NLINK	= 1u << 6,
	XBULK_FACET_CTIME	= 1u << 7,	/* ctime only */
	XBULK_FACET_ATIME	= 1u << 8,	/* XBULK_DIFF_ATIME */
	XBULK_FACET_LAYOUT	= 1u << 9,	/* blocks or extents
						   (XBULK_DIFF_LAYOUT) */
};

/* struct xbulk_snap_change .flags */
enum {
	/* OLD's or NEW's record is XBULK_SNAP_CHANGING (of a folded
	 * line: of any inode it stands for) */
	XBULK_CHANGE_CHANGING	= 1u << 0,
	/* Since 0.4: a directory created or deleted with what lay below
	 * it, folded into this one change (XBULK_DIFF_FOLD): @inodes and
	 * @bytes say what it stands for */
	XBULK_CHANGE_SUBTREE	= 1u << 1,
	/* Since 0.4, with XBULK_DIFF_EVERY_NAME: a change of an inode
	 * that only gained names (and maybe lost others) and kept one:
	 * no facet, neither record changing.  Its data and attributes
	 * are OLD's, so a copy that has OLD's names needs only the links
	 * (rsync -H without -I: xbulk diff --linked0) */
	XBULK_CHANGE_LINK_ONLY	= 1u << 2,
};

struct xbulk_snap_change {
	enum xbulk_change_kind		kind;
	uint32_t			facets;		/* XBULK_FACET_* */
	uint32_t			flags;		/* XBULK_CHANGE_* */
	const struct xfs_bulkstat	*old;		/* NULL: CREATED */
	const struct xfs_bulkstat	*new;		/* NULL: DELETED */
	/*
	 * The entry's path from the mount's top: NEW's, OLD's for DELETED
	 * and UNLINKED; NULL if no name reaches the inode.  RENAMED and
	 * MOVED (and MODIFIED, ENTRIES with XBULK_DIFF_EVERY_NAME):
	 * @old_path is the one in OLD.
	 */
	const char			*path;
	const char			*old_path;
	/*
	 * Since 0.4, with XBULK_CHANGE_SUBTREE: the inodes the line stands
	 * for (the directory and every inode folded into it, one each
	 * however many of its names were) and their bytes (sizes of the
	 * files, not of directories); else 0.
	 */
	uint64_t			inodes;
	uint64_t			bytes;
};

/* xbulk_snap_diff_opts .flags */
enum {
	XBULK_DIFF_ATIME	= 1u << 0,	/* atime alone is a change */
	XBULK_DIFF_LAYOUT	= 1u << 1,	/* blocks, extents alone too */
	XBULK_DIFF_EXPAND	= 1u << 2,	/* MOVED: what lies below a
						   renamed directory */
	XBULK_DIFF_FORCE	= 1u << 3,	/* another filesystem (UUID)
						   or top */
	/*
	 * One change per name (for path lists, as xbulk diff -0 and
	 * --deleted0 make): MOVED as XBULK_DIFF_EXPAND, also for the kept
	 * names of an inode that gained or lost others; a MODIFIED or
	 * ENTRIES change on each name the inode kept when it changed or
	 * (since 0.4) gained a name, @old_path its path in OLD (an inode
	 * that kept none has its facets on its LINKED changes): a path
	 * list holds every name of a new hard link, as rsync -H needs.  Each name of NEW whose entry, inode or path changed
	 * is then the @path of exactly one change, each name of OLD whose
	 * entry, inode or path changed the (@old_)path of exactly one.
	 */
	XBULK_DIFF_EVERY_NAME	= 1u << 4,
	/*
	 * Since 0.4: the changes in the byte order of their @path (as
	 * strcmp(), LC_ALL=C sort), a change without a path after every
	 * other; changes of one path (a file deleted and another created
	 * at its name) in inode order.  The diff holds every change before
	 * the first (@memory).
	 */
	XBULK_DIFF_SORT_PATH	= 1u << 5,
	/*
	 * Since 0.4: a directory created (deleted) with everything below
	 * it is one change, XBULK_CHANGE_SUBTREE: the topmost directory
	 * of NEW (OLD) not in OLD (NEW), and every CREATED (DELETED)
	 * change of a name in it or below it through such directories
	 * folded into that one.  What survived below a deleted directory
	 * (moved out: RENAMED; another name kept: UNLINKED), and what was
	 * moved or linked into a created one, keeps its own change.  The
	 * diff holds the changes left before the first (@memory).
	 */
	XBULK_DIFF_FOLD		= 1u << 6,
};

struct xbulk_snap_diff_opts {
	size_t		size;		/* sizeof(struct xbulk_snap_diff_opts) */
	uint32_t	flags;		/* XBULK_DIFF_* */
	const volatile int *cancel;	/* -EINTR within 1024 records */
	/*
	 * Since 0.4: the budget of what XBULK_DIFF_SORT_PATH and
	 * XBULK_DIFF_FOLD hold, as struct xbulk_names_opts (0, NULL: no
	 * budget); a live NEW's scan brings its own, which is used.
	 */
	uint64_t	memory;
	const char	*tmpdir;
};

struct xbulk_snap_diff;

/**
 * xbulk_snap_diff_new() - compare @old with @new (both stay the
 * caller's; they are read to their end by the diff).  Identity is the
 * inode number and generation; the rules: man/xbulk.8, DIFF.
 * Return: 0; -EXDEV if they are of two filesystems (UUID) or of two
 * tops (mounts of two directories of it: their paths do not compare)
 * and not XBULK_DIFF_FORCE; -EINVAL; -E2BIG (@o is larger than this
 * library knows and sets a byte past it); -ENOMEM.
 */
int xbulk_snap_diff_new(struct xbulk_snap *old, struct xbulk_snap *new,
			const struct xbulk_snap_diff_opts *o,
			struct xbulk_snap_diff **d);

/**
 * xbulk_snap_diff_next() - the next change, in inode order (each
 * inode's OLD names before its NEW ones), or in path order
 * (XBULK_DIFF_SORT_PATH)
 * Return: 1 and *@c set (valid until the next call); 0 at the end (then
 * every record of both was read); -EINTR; a reader's error (the snapshot
 * it came from has xbulk_snap_error() set); -ENOMEM; with
 * XBULK_DIFF_SORT_PATH or XBULK_DIFF_FOLD, the budget's spill file's
 * error (-ENOSPC, -EXDEV: on the scanned filesystem; open()'s), before
 * the first change.  To keep NEW
 * as a snapshot too (xbulk diff --save), write it with a writer first
 * (xbulk_snap_writer_finish()), then diff, then commit.
 */
int xbulk_snap_diff_next(struct xbulk_snap_diff *d,
			 const struct xbulk_snap_change **c);

/* Free @d (NULL is fine); the snapshots stay open. */
void xbulk_snap_diff_free(struct xbulk_snap_diff *d);

#pragma GCC visibility pop

#endif /* XBULK_SNAPSHOT_H */
