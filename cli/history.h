/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to the command (prefix xb_: CONTRIBUTING.md).
 *
 * xbulk snapshot --keep: a history directory of dated snapshots and
 * their summaries (cli/history.c: the directory, its lock, names and
 * pruning; cli/history_sum.c: the summary).  Formats: docs/formats.md,
 * "History directories" and "Summary files".
 */
#ifndef XBULK_CLI_HISTORY_H
#define XBULK_CLI_HISTORY_H

#include <limits.h>
#include <stdint.h>

#include "cli.h"
#include "../lib/hash.h"

/* The summary file format's version (its first line's "version"). */
#define XB_SUMMARY_VERSION	1

/* Exit status of a run that finds the history locked by another. */
#define XB_EXIT_BUSY		75	/* sysexits.h's EX_TEMPFAIL */

/* The name's stamp, "YYYYMMDDTHHMMSSZ", and the suffixes after it. */
#define XB_HIST_STAMP_LEN	16
#define XB_HIST_SNAP_SUFFIX	".xbs"
#define XB_HIST_SUM_SUFFIX	".summary.jsonl"

/* Test-only: the run's time (seconds since the epoch) instead of the
 * clock, so that tests name snapshots without waiting (man/xbulk.8,
 * ENVIRONMENT). */
#define XB_HIST_NOW_ENV		"XBULK_HISTORY_NOW"

/* Room for a path shown or opened: the directory and a name. */
#define XB_HIST_PATH		(PATH_MAX + 64)

/* Default --summary-depth, and the most it takes. */
#define XB_HIST_DEPTH		2
#define XB_HIST_DEPTH_MAX	32

/* An open, checked and locked history directory. */
struct xb_history {
	const char	*dir;		/* as given */
	int		fd;		/* O_DIRECTORY, flock()ed LOCK_EX */
	char		stamp[XB_HIST_STAMP_LEN + 1];
	char		snap[XB_HIST_PATH];	/* /proc/self/fd/N/STAMP.xbs */
	char		sum[XB_HIST_PATH];	/* ... .summary.jsonl */
	char		shown_snap[XB_HIST_PATH];	/* DIR/STAMP.xbs */
	char		shown_sum[XB_HIST_PATH];
};

/*
 * Make @dir (mode 0700) if it is missing, open it without following a
 * symbolic link, refuse it unless it is a directory of the running user
 * that no one else may write, lock it (flock(), never waiting), and name
 * this run's files after the UTC time now (or XBULK_HISTORY_NOW).  Each
 * name is refused if something other than a regular file of ours is
 * there.  XB_EXIT_OK, XB_EXIT_BUSY (locked by another run) or
 * XB_EXIT_TROUBLE, with the message printed.
 */
enum xb_exit xb_history_open(struct xb_history *h, const char *cmd,
			     const char *dir);

/*
 * Remove the oldest snapshots beyond @keep and the oldest summaries
 * beyond @keep_sums (0: every summary stays): only regular files of the
 * running user whose names are exactly a stamp and a suffix.  Returns 0
 * or the negative errno of reading the directory or removing a file.
 */
int xb_history_prune(const struct xb_history *h, uint64_t keep,
		     uint64_t keep_sums);

/* The kind of history file @name is: XB_HIST_SNAP, XB_HIST_SUM, or 0
 * for neither (exactly YYYYMMDDTHHMMSSZ and a suffix). */
enum { XB_HIST_SNAP = 1, XB_HIST_SUM = 2 };
int xb_history_kind(const char *name);

/*
 * The history files in the directory @dirfd, sorted by name (so by
 * time): regular files of the running user named exactly as
 * xb_history_kind() wants.  0 and *@names (xb_history_list_free()), or a
 * negative errno.
 */
int xb_history_list(int dirfd, char ***names, size_t *n);
void xb_history_list_free(char **names, size_t n);

/* Unlock and close. */
void xb_history_close(struct xb_history *h);

/* --- history_sum.c: one snapshot's summary ---------------------------- */

/* Inodes and bytes of one group (a directory's subtree, an id). */
struct xb_sum_row {
	uint64_t	inodes;
	uint64_t	bytes;		/* of disk usage: blocks * blocksize */
	uint64_t	apparent;	/* of apparent size: bs_size */
};

/* One directory: its own inodes' sums, then its subtree's. */
struct xb_sum_dir {
	struct xb_sum_row own;		/* charged to it directly */
	struct xb_sum_row sub;		/* its subtree (depth <= limit),
					   after xb_summary_subtrees() */
	uint64_t	parent;		/* 0: not seen yet, or the top */
	size_t		name;		/* offset in sum->names + 1; 0: none */
	uint32_t	namelen;
	int32_t		depth;		/* -1: not known yet; -2: no chain
					   to the top; -3: being climbed */
	uint64_t	gen;		/* its record's bs_gen */
};

/* Every depth: xb_summary_init()'s @depth for sums of every subtree. */
#define XB_SUM_ALL_DEPTHS	UINT_MAX

/* The sums a summary file holds, gathered record by record. */
struct xb_summary {
	unsigned int	depth;		/* directories down to this depth */
	uint32_t	blocksize;
	unsigned int	blocklog;	/* log2 of blocksize */
	uint64_t	top;		/* the mount's top directory */
	struct xb_sum_row all;
	struct xbl_hash	dirs;		/* ino -> struct xb_sum_dir */
	struct xbl_hash	ids[3];		/* uid, gid, projid -> xb_sum_row */
	char		*names;		/* directories' names, NUL after each */
	size_t		names_len, names_cap;
	int		err;		/* the first -ENOMEM */
};

/* Start empty sums for the snapshot @s, down to @depth. */
void xb_summary_init(struct xb_summary *sum, const struct xbulk_snap *s,
		     unsigned int depth);
/* What @rec counts for (*@v: one inode, its disk usage and size, as
 * du counts them) and the inode of the directory it is charged to: the
 * directory of its first name in (parent, name) order, a directory
 * itself, an inode no name reaches the top. */
uint64_t xb_summary_charge(const struct xb_summary *sum,
			   const struct xbulk_snap_rec *rec,
			   struct xb_sum_row *v);
/* Count @rec (each inode once, where xb_summary_charge() says). */
void xb_summary_add(struct xb_summary *sum,
		    const struct xbulk_snap_rec *rec);
/* Carry each directory's own sums up to its subtree's and those of
 * the directories above it (once, after the last add); each directory's
 * depth is then known (struct xb_sum_dir .depth). */
void xb_summary_subtrees(struct xb_summary *sum);
/* The path of the directory @ino (@d its entry) in @s from the mount's
 * top ("." the top), into *@buf of *@cap bytes (as xbulk_snap_path()):
 * its length, -ENOENT if no name reaches it, or -ENOMEM. */
long xb_summary_dir_path(const struct xb_summary *sum,
			 const struct xbulk_snap *s, uint64_t ino,
			 const struct xb_sum_dir *d, char **buf, size_t *cap);
/*
 * Write the summary of @s (whose records were added) to @path, shown as
 * @shown, with xbulk_replace_open() (0600); @fd is the scanned
 * filesystem (its size and free space).  0 or a negative errno.
 */
int xb_summary_write(struct xb_summary *sum, const struct xbulk_snap *s,
		     int fd, const char *stamp, const char *path);
void xb_summary_free(struct xb_summary *sum);

#endif /* XBULK_CLI_HISTORY_H */
