/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xbulk export: the command (cli/export.c), its two writers
 * (cli/export_sqlite.c, cli/export_csv.c) and the walk over a snapshot's
 * rows below them all (cli/export_rows.c).
 */
#ifndef XBULK_CLI_EXPORT_H
#define XBULK_CLI_EXPORT_H

#include "snap.h"

/* Where the rows go; each returns 0 or a negative errno. */
struct xb_export_sink {
	int	(*inode)(void *arg, const struct xbulk_snap_rec *rec);
	/* @l NULL: the mount's top (path ".", @name ""); @name is @l's,
	 * NUL-terminated; @path from the top */
	int	(*entry)(void *arg, uint64_t ino,
			 const struct xbulk_snap_link *l, const char *name,
			 const char *path);
};

/* Every record of @s, then its entries, to @k: 0, -EINTR once *@cancel
 * is set (looked at every 1024 records), or a negative errno. */
int xb_export_each(struct xbulk_snap *s, const struct xb_export_sink *k,
		   void *arg, const volatile int *cancel);

/* The two formats; each returns XB_EXIT_OK or XB_EXIT_TROUBLE (message
 * printed, but when reading the snapshot failed: xbulk_snap_error(@s)
 * says why; nothing left behind, a signal's cancel too). */
enum xb_exit xb_export_sqlite(struct xbulk_snap *s, const char *db,
			      const volatile int *cancel);
enum xb_exit xb_export_csv(struct xbulk_snap *s, const char *dir,
			   const volatile int *cancel);

#endif /* XBULK_CLI_EXPORT_H */
