/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the snapshot, diff and export commands share (cli/snap_open.c).
 */
#ifndef XBULK_CLI_SNAP_H
#define XBULK_CLI_SNAP_H

#include "memory.h"

/* Default zstd level of a snapshot file. */
#define XB_SNAP_LEVEL	1

/* find -type's letter of @mode ('?' for none). */
char xb_type_letter(uint32_t mode);

/* The UUID @u as text (37 bytes with the NUL). */
void xb_uuid_text(char *dst, const uint8_t *u);

/* Files a live scan leaves out: those we write or read on its fs. */
struct xb_exclude {
	uint64_t	ino[4];
	size_t		n;
};

/* Leave the regular file at @path (if it is on the device @dev; never
 * what a symbolic link there leads to) out of the scan. */
void xb_exclude_path(struct xb_exclude *x, dev_t dev, const char *path);
/* Leave the file @w writes out of the scan. */
void xb_exclude_writer(struct xb_exclude *x, dev_t dev,
		       const struct xbulk_snap_writer *w);

/*
 * Open the filesystem mounted at @path for a live scan of @cmd: a mount
 * point only (the paths of a snapshot start at the mount's top).
 * XB_EXIT_OK, or XB_EXIT_TROUBLE with the message printed.
 */
enum xb_exit xb_snap_open_fs(const char *cmd, const char *path,
			     struct xbulk_fs **fs);

/*
 * Open the snapshot file @path for @cmd; on failure print one line
 * ("xbulk CMD: PATH: what is wrong") and return XB_EXIT_TROUBLE.
 */
enum xb_exit xb_snap_open(const char *cmd, const char *path,
			  struct xbulk_snap **s);

/*
 * Scan the XFS @fs (opened on @path) as a snapshot, leaving out @x, in
 * the budget @mem, with messages: every problem of the names build is
 * named, and any makes the scan fail (a snapshot missing inodes or names
 * is no snapshot).  What the build did goes to @stats.  Returns
 * XB_EXIT_OK, XB_EXIT_TROUBLE, or the exit status of a signal.
 */
enum xb_exit xb_snap_live(const char *cmd, const char *path,
			  struct xbulk_fs *fs, unsigned int threads,
			  uint32_t flags, const struct xb_exclude *x,
			  const struct xb_memory *mem,
			  struct xb_run_stats *stats,
			  const volatile int *cancel, struct xbulk_snap **s);

struct xb_summary;

/*
 * Every record of @s to @w (and counted into @sum unless it is NULL:
 * cli/history.h), then xbulk_snap_writer_finish() (all but its name):
 * XB_EXIT_OK, XB_EXIT_TROUBLE (message printed, naming @file), or the
 * exit status of a signal (*@cancel is looked at every 1024 records).
 */
enum xb_exit xb_snap_write_all(const char *cmd, const char *file,
			       struct xbulk_snap *s,
			       struct xbulk_snap_writer *w,
			       struct xb_summary *sum,
			       const volatile int *cancel);

/* xb_write_error() (standard output, error @err) with these commands'
 * exit status: XB_EXIT_PIPE for -EPIPE, else XB_EXIT_TROUBLE. */
enum xb_exit xb_snap_out_error(const char *cmd, int err);

/* Print @cmd's --help @text: XB_EXIT_OK, or as xb_snap_out_error() (also
 * when standard output was closed). */
enum xb_exit xb_snap_help(const char *cmd, const char *text);

/* "xbulk CMD: PATH: message" for a failed snapshot write; returns
 * XB_EXIT_TROUBLE. */
enum xb_exit xb_snap_write_error(const char *cmd, const char *path, int err);

/* getopt_long's complaint (opterr 0) as a usage error of @cmd;
 * XB_EXIT_USAGE. */
enum xb_exit xb_snap_option(const char *cmd, int c, char **argv);
/* A number from @min to @max for option @opt: XB_EXIT_OK, or
 * XB_EXIT_USAGE after a message. */
enum xb_exit xb_snap_count(const char *cmd, const char *opt, const char *arg,
			   uint64_t min, uint64_t max, uint64_t *v);

/*
 * xbulk find --snapshot @path (cli/find_snap.c): refuse what @find reads
 * that a snapshot cannot answer (XB_EXIT_USAGE, the primary named), then
 * open @path and read it once for its walks (xbulk_snap_tree_open(); a
 * damaged file is said in one line before any output: XB_EXIT_FAILURE),
 * and give @find its block size.  XB_EXIT_OK, or the status after the
 * message (or of a signal).
 */
enum xb_exit xb_find_snap_open(const char *path, struct xbulk_find *find,
			       const volatile int *cancel,
			       struct xbulk_snap **s,
			       struct xbulk_snap_tree **t);

/* The help lines of the options of a live scan: -j, --no-sync,
 * --memory, --tmpdir. */
#define XB_SNAP_SCAN_HELP						\
"   -j <threads>\n"							\
"              Scan and read directories with this many threads (default:\n" \
"              online CPUs).\n"						\
"   --no-sync  Do not syncfs() the filesystem before the scan.\n"	\
XB_MEMORY_HELP

#endif /* XBULK_CLI_SNAP_H */
