/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to the du command (prefix du_: CONTRIBUTING.md).
 *
 * du --ncdu: the walk written as ncdu 1.x exports a tree (ncdu -o), JSON
 * format 1.2 (https://dev.yorhel.nl/ncdu/jsonfmt), for ncdu -f to read.
 * It streams: a directory's array opens at its PRE visit and closes at
 * its POST one, and nothing is kept per entry.
 */
#ifndef DU_NCDU_H
#define DU_NCDU_H

#include <stdbool.h>
#include <stdio.h>

#include "xbulk.h"

struct du_ncdu {
	FILE		*f;
	const char	*top;		/* the top's name: an absolute path */
	uint64_t	dev;		/* st_dev of the directories walked
					   (0 before the top: ncdu writes
					   "dev" where it differs) */
	size_t		open;		/* arrays not closed yet */
	bool		skip_post;	/* the last PRE was a directory
					   written as an object */
	bool		started;	/* the top is written */
	int		err;		/* the first write error */
};

/* Start the export on @f, the header dated @now (seconds): @top is the
 * walk's PATH as an absolute path (ncdu's top-level name). */
void du_ncdu_start(struct du_ncdu *n, FILE *f, const char *top,
		   int64_t now);
/*
 * One visit of du's walk (before du's accounting sees it): @excluded if
 * --exclude leaves @e out.  Return 0, or the negative errno of a write
 * that failed (kept in @n->err).
 */
int du_ncdu_visit(struct du_ncdu *n, const struct xbulk_entry *e,
		  enum xbulk_visit v, bool excluded);
/* Close what is open; 0 or the first write's negative errno. */
int du_ncdu_end(struct du_ncdu *n);

#endif
