/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xbulk diff's output (cli/diff_out.c) for the command (cli/diff.c).
 */
#ifndef XBULK_CLI_DIFF_H
#define XBULK_CLI_DIFF_H

#include "snap.h"

#define XB_CHANGE_KINDS	(XBULK_CHANGE_MOVED + 1)

enum xb_diff_fmt {
	XB_DIFF_TEXT,
	XB_DIFF_JSONL,
	XB_DIFF_CSV,
	XB_DIFF_NUL,		/* -0, --linked0, --copy0 */
	XB_DIFF_DELETED0,	/* --deleted0 */
	XB_DIFF_SUMMARY,	/* --summary */
};

/* Counts of changes shown, and bytes (of files: created, deleted, new
 * sizes of content changes). */
struct xb_diff_tally {
	uint64_t		n[XB_CHANGE_KINDS];
	uint64_t		changing;
	uint64_t		added, removed, changed;
};

/* Which names of XB_DIFF_NUL: every one (-0), only those of inodes
 * that only gained names (--linked0: XBULK_CHANGE_LINK_ONLY), or all
 * others (--copy0): the last two split -0 in two. */
enum xb_diff_links {
	XB_LINKS_ALL,
	XB_LINKS_ONLY,
	XB_LINKS_NONE,
};

struct xb_diff_out {
	FILE			*f;
	enum xb_diff_fmt	fmt;
	enum xb_diff_links	links;		/* of XB_DIFF_NUL */
	uint32_t		kinds;		/* 1 << enum xbulk_change_kind */
	char			types[16];	/* find -type letters shown */
	struct xb_diff_tally	total;		/* of what was shown */
	bool			any;		/* a change was shown */
	bool			fold;		/* --fold: jsonl and csv
						   say what a line holds */
	unsigned int		depth;		/* --summary --depth */
	struct xb_diff_paths	*paths;		/* --deleted0's */
	void			*dirs;		/* --depth: rows (tsearch) */
};

/* The name of each kind ("created"...), as --only takes them. */
extern const char *const xb_change_names[XB_CHANGE_KINDS];

/* NEW's record of @c, or OLD's if it has none. */
const struct xfs_bulkstat *xb_diff_rec(const struct xbulk_snap_change *c);
/* Count @c into @t. */
void xb_diff_tally_add(struct xb_diff_tally *t,
		       const struct xbulk_snap_change *c);
/* Before the first change: CSV's header row. */
void xb_diff_out_begin(struct xb_diff_out *o);
/* Write @c if the filters keep it (then o->any is set): 0 or -ENOMEM. */
int xb_diff_out_change(struct xb_diff_out *o,
		       const struct xbulk_snap_change *c);
/* After the last change: --summary's lines, --deleted0's paths (0 or
 * -ENOMEM). */
int xb_diff_out_end(struct xb_diff_out *o);
/* Free what the output holds. */
void xb_diff_out_free(struct xb_diff_out *o);

/* The path lists (cli/diff_paths.c), of a diff made with
 * XBULK_DIFF_EVERY_NAME. */
/* -0: the path of @c, if it names an entry of NEW. */
void xb_diff_paths_put(FILE *f, const struct xbulk_snap_change *c);
/* --deleted0: note the paths of @c (every change, @shown if the filters
 * keep it): 0 or -ENOMEM. */
int xb_diff_paths_add(struct xb_diff_out *o,
		      const struct xbulk_snap_change *c, bool shown);
/* --deleted0: print the paths noted that are gone, topmost only (0 or
 * -ENOMEM). */
int xb_diff_paths_deleted(struct xb_diff_out *o);
void xb_diff_paths_free(struct xb_diff_out *o);

/* --summary --depth (cli/diff_dirs.c): the counts by directory. */
/* Count @c (shown) into its directory's row: 0 or -ENOMEM. */
int xb_diff_dirs_add(struct xb_diff_out *o,
		     const struct xbulk_snap_change *c);
/* The table, one row per directory in path order. */
void xb_diff_dirs_print(struct xb_diff_out *o);
void xb_diff_dirs_free(struct xb_diff_out *o);

#endif /* XBULK_CLI_DIFF_H */
