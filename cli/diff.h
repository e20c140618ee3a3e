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
	XB_DIFF_NUL,		/* -0 */
	XB_DIFF_DELETED0,	/* --deleted0 */
	XB_DIFF_SUMMARY,	/* --summary */
};

struct xb_diff_out {
	FILE			*f;
	enum xb_diff_fmt	fmt;
	uint32_t		kinds;		/* 1 << enum xbulk_change_kind */
	char			types[16];	/* find -type letters shown */
	/* Counted over what was shown */
	uint64_t		n[XB_CHANGE_KINDS];
	uint64_t		changing;
	uint64_t		added, removed, changed;	/* bytes */
	bool			any;		/* a change was shown */
	struct xb_diff_paths	*paths;		/* --deleted0's */
};

/* The name of each kind ("created"...), as --only takes them. */
extern const char *const xb_change_names[XB_CHANGE_KINDS];
/* CSV's header row. */
extern const char xb_diff_csv_header[];

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

#endif /* XBULK_CLI_DIFF_H */
