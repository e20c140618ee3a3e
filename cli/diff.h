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
};

/* The name of each kind ("created"...), as --only takes them. */
extern const char *const xb_change_names[XB_CHANGE_KINDS];
/* CSV's header row. */
extern const char xb_diff_csv_header[];

/* Write @c if the filters keep it; true if they did. */
bool xb_diff_out_change(struct xb_diff_out *o,
			const struct xbulk_snap_change *c);
/* --summary's lines. */
void xb_diff_out_summary(const struct xb_diff_out *o);

#endif /* XBULK_CLI_DIFF_H */
