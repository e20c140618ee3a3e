/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to the command (prefix xb_: CONTRIBUTING.md).
 *
 * What the commands that join names to inodes share (find, du, snapshot,
 * diff, path -w; --stats for export too): the memory budget and its
 * spill directory (--memory, XBULK_MEMORY, --tmpdir) and --stats of the
 * whole run (cli/memory.c).
 */
#ifndef XBULK_CLI_MEMORY_H
#define XBULK_CLI_MEMORY_H

#include "progress.h"

/*
 * getopt_long codes of the options the commands share (above every
 * command's own codes, which start at 256).  bulkstat and inumbers take
 * the two --stats ones and --progress (watch.h).
 */
enum {
	XB_OPT_MEMORY = 0x200,	/* --memory SIZE */
	XB_OPT_TMPDIR,		/* --tmpdir DIR */
	XB_OPT_STATS,		/* --stats[=text|json] */
	XB_OPT_STATS_FILE,	/* --stats-file FILE */
	XB_OPT_PROGRESS,	/* --progress */
	XB_OPT_STRATEGY,	/* --strategy scan|walk|auto */
};

#define XB_MEMORY_LONGOPTS						\
	{ "memory", required_argument, NULL, XB_OPT_MEMORY },		\
	{ "tmpdir", required_argument, NULL, XB_OPT_TMPDIR }
#define XB_STRATEGY_LONGOPTS						\
	{ "strategy", required_argument, NULL, XB_OPT_STRATEGY }
#define XB_STATS_LONGOPTS						\
	{ "stats", optional_argument, NULL, XB_OPT_STATS },		\
	{ "stats-file", required_argument, NULL, XB_OPT_STATS_FILE },	\
	{ "progress", no_argument, NULL, XB_OPT_PROGRESS }

/* The --help lines of --memory and --tmpdir, and of the --stats and
 * --progress of the commands that join names to inodes (and export). */
#define XB_MEMORY_HELP							\
"   --memory <size>\n"							\
"              Hold at most about SIZE bytes of what grows with the inode\n" \
"              count (K, M, G, T: KiB to TiB); past it, spill to a file\n" \
"              in --tmpdir (default: $XBULK_MEMORY, else an eighth of RAM\n" \
"              or of the memory cgroup's limit, at least 64M but at most\n" \
"              a quarter).\n"						\
"   --tmpdir <dir>\n"							\
"              Where the spill file goes, never on the filesystem\n"	\
"              scanned (default: $TMPDIR, else /var/tmp).\n"
#define XB_STATS_HELP							\
"   --stats[=text|json]\n"						\
"              At the end, print the run's figures on stderr: the scan,\n" \
"              the names, the memory budget and what was spilled, peak\n" \
"              RSS, wall and CPU time.\n"				\
"   --stats-file <file>\n"						\
"              Write the --stats figures to this file (implies --stats).\n"
#define XB_PROGRESS_HELP						\
"   --progress Show a progress line on stderr (only on a terminal): the\n" \
"              phase, what is done, its rate and the time left.\n"

/* The --help lines of --strategy (find and du). */
#define XB_STRATEGY_HELP						\
"   --strategy <scan|walk|auto>\n"					\
"              How the names are got: scan every inode and read every\n" \
"              directory, or read the PATHs' subtrees only and bulkstat\n" \
"              the inode chunks of their entries; auto (the default)\n" \
"              walks unless a PATH is the mount's top.\n"

/* Take --strategy @arg into *@strategy (enum xbulk_names_strategy;
 * "names", XBULK_STRATEGY_PLAIN, only if @plain_ok: find); XB_EXIT_OK or
 * XB_EXIT_USAGE. */
enum xb_exit xb_strategy_option(const char *cmd, const char *arg,
				bool plain_ok, uint32_t *strategy);

/* What --stats prints: text or JSON (docs/formats.md). */
enum xb_stats { XB_STATS_NONE, XB_STATS_TEXT, XB_STATS_JSON };

/* Take --stats (@arg NULL, "text" or "json") or --stats-file; XB_EXIT_OK
 * or XB_EXIT_USAGE. */
enum xb_exit xb_stats_option(const char *cmd, int opt, const char *arg,
			     enum xb_stats *stats, const char **file);

/* The budget of one command: xbulk_names_opts .memory and .tmpdir. */
struct xb_memory {
	uint64_t	memory;		/* bytes, never 0 once set up */
	const char	*tmpdir;	/* never NULL once set up */
	bool		memory_given;	/* --memory */
	bool		tmpdir_given;	/* --tmpdir: checked at the start */
};

/* Take --memory or --tmpdir; XB_EXIT_OK or XB_EXIT_USAGE. */
enum xb_exit xb_memory_option(struct xb_memory *m, const char *cmd, int opt,
			      const char *arg);
/*
 * After the options: the budget from $XBULK_MEMORY when --memory was not
 * given, else the default (an eighth of the smaller of MemTotal and the
 * memory cgroup's limit, at least 64 MiB), the tmpdir from $TMPDIR or
 * /var/tmp; --tmpdir must be a writable directory.  XB_EXIT_OK or
 * XB_EXIT_USAGE (one line).
 */
enum xb_exit xb_memory_setup(struct xb_memory *m, const char *cmd);
/* --tmpdir may not lie on @fs (a scan must not change what it scans):
 * XB_EXIT_OK or XB_EXIT_USAGE (one line). */
enum xb_exit xb_memory_check_fs(const struct xb_memory *m, const char *cmd,
				const struct xbulk_fs *fs);
/* The default budget, bytes (exposed for the unit test). */
uint64_t xb_memory_default(void);
/* Parse SIZE (digits, then K, M, G, T, KiB, MiB, GiB or TiB); 0,
 * -EINVAL (empty, not digits, a decimal point, a bad suffix), -ERANGE
 * (more than 2^64 - 1 bytes), -EDOM (negative or 0). */
int xb_parse_size(const char *s, uint64_t *out);

/* What --stats says of a plain walk (XBULK_STRATEGY_PLAIN): "names" (the
 * expression reads names and types only), "stat" (it stat()s), "follow"
 * (find -L). */
enum { XB_PLAIN_NAMES, XB_PLAIN_STAT, XB_PLAIN_FOLLOW };

/* --stats of the commands that join names to inodes, and export's. */
struct xb_run_stats {
	enum xb_stats	stats;
	const char	*file;		/* --stats-file; NULL: stderr */
	const char	*cmd, *path;
	uint64_t	start_ns;	/* CLOCK_MONOTONIC */
	bool		has_names;	/* a names build ran: @names */
	struct xbulk_names_result names;
	uint32_t	plain;		/* strategy PLAIN: XB_PLAIN_* */
	bool		has_memory;	/* @mem read */
	struct xbulk_memory_stats mem;
	bool		has_export;	/* export: the three below */
	uint64_t	records, links, written_bytes;
	bool		completed;	/* the command ran to its end */
	FILE		*out;		/* --stats-file, open */
	struct xb_progress progress;	/* --progress */
};

/* Take --stats, --stats-file or --progress into @s; XB_EXIT_OK or
 * XB_EXIT_USAGE. */
enum xb_exit xb_run_stats_option(struct xb_run_stats *s, const char *cmd,
				 int opt, const char *arg);

/* Start the clock of @s (the whole command's wall time) and open
 * --stats-file: 0, or -EIO after a message naming it. */
int xb_run_stats_begin(struct xb_run_stats *s, const char *cmd,
		       const char *path);
/* What the names build said (@r). */
void xb_run_stats_names(struct xb_run_stats *s,
			const struct xbulk_names_result *r);
/* What the budget @m did in @names or the live scan @snap (NULL: no
 * build ran), read at the end: walks and cursors spill later than the
 * build.  The budget and directory shown are @m's. */
void xb_run_stats_memory(struct xb_run_stats *s, const struct xb_memory *m,
			 const struct xbulk_names *names);
void xb_run_stats_snap_memory(struct xb_run_stats *s,
			      const struct xb_memory *m,
			      const struct xbulk_snap *snap);
/*
 * End the --progress line, and print --stats (nothing without it): after
 * the command's output, on stderr or --stats-file.  0, or -EIO if it
 * could not be written (message printed).
 */
int xb_run_stats_end(struct xb_run_stats *s);

#endif /* XBULK_CLI_MEMORY_H */
