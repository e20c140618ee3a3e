/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/find (prefix xf_: CONTRIBUTING.md).
 *
 * What the actions do with a file: -printf (printf.c), --format's
 * records (record.c), -exec and friends (exec.c), -delete and the
 * reads of a tree the expression changed (live.c), -ls (ls.c).
 */
#ifndef XBULK_FIND_ACTIONS_H
#define XBULK_FIND_ACTIONS_H

#include "find.h"

/* printf.c */
struct xf_format *xf_format_compile(struct xf_parser *ps, const char *fmt,
				    uint32_t *fields);
int xf_format_run(struct xbulk_find *f, const struct xf_format *fmt,
		  struct xf_stream *out, const struct xbulk_entry *file);

/* record.c: --format's record and path for -print. */
int xf_record(struct xbulk_find *f, struct xf_stream *out,
	      const struct xbulk_entry *file);
/* --format csv: the header row of every output -print writes to. */
void xf_record_headers(struct xbulk_find *f);

/* exec.c */
/* -exec CMD ;, -exec CMD {} +, -execdir, -ok, -okdir: the words up to
 * the terminator, with find's checks and messages (@p->arg: XF_EXEC_DIR,
 * XF_EXEC_OK). */
#define XF_EXEC_DIR	1
#define XF_EXEC_OK	2
int xf_parse_exec(struct xf_parser *ps, const struct xf_primary *p,
		  struct xf_node **out);
/* Run the command for @file (';'), or add @file to the batch ('+'). */
bool xf_exec(struct xbulk_find *f, struct xf_exec *x,
	     const struct xbulk_entry *file);
/* Run the pending batches: of -exec and -ok (@dirs false) or of
 * -execdir (@dirs true). */
void xf_exec_flush(struct xbulk_find *f, bool dirs);

/* A message of a file or command that could not be handled (exit
 * status 1), through the error hook: "cannot delete 'x': ...". */
void xf_error(struct xbulk_find *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* live.c: files the expression itself may have changed */
/* The file's record as find's stat() would give it now: @file's own,
 * or stat()ed again once a command ran (NULL after a message; with
 * -ignore_readdir_race a file gone since is NULL without one). */
const struct xbulk_entry *xf_stat(struct xbulk_find *f,
				  const struct xbulk_entry *file);
/* -delete: true once @file is removed (with -ignore_readdir_race, also
 * if it was gone already); false after a message. */
bool xf_delete(struct xbulk_find *f, const struct xbulk_entry *file);
/* -empty of a directory: its entries, read now if the tree may have
 * changed (-1 after a message). */
int64_t xf_dir_entries(struct xbulk_find *f, const struct xbulk_entry *file);
/* -readable, -writable, -executable: faccessat(@mode) of @file in its
 * directory as the walk reached it. */
bool xf_access(struct xbulk_find *f, const struct xbulk_entry *file,
	       int mode);

/* ls.c */
int xf_ls(struct xbulk_find *f, struct xf_stream *out,
	  const struct xbulk_entry *file);
#define XF_LS_FIELDS	(XBULK_F_SIZE | XBULK_F_BLOCKS | XBULK_F_MTIME | \
			 XBULK_F_OWNER | XBULK_F_NLINK | XBULK_F_RDEV)

#endif /* XBULK_FIND_ACTIONS_H */
