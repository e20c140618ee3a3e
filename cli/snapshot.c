// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk snapshot [-j N] [--no-sync] [--level N] MNT FILE: one scan (bulkstat
 * and the names engine's directory read) written to FILE as a snapshot
 * (docs/formats.md), atomically: FILE is replaced only by a whole,
 * fsynced snapshot.  The file itself (and what is at FILE now) is left
 * out of the scan when it lies on the scanned filesystem.  With --keep N,
 * DIR is a history (cli/history.c): a dated snapshot and its summary are
 * added, the oldest beyond N (and beyond --keep-summaries) removed.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "history.h"
#include "snap.h"

static const char help[] =
"Usage: xbulk snapshot [-j <threads>] [--no-sync] [--level <n>]\n"
"                      [--memory <size>] [--tmpdir <dir>]\n"
"                      [--stats[=text|json]] [--stats-file <file>]\n"
"                      [--progress] PATH FILE\n"
"       xbulk snapshot --keep <n> [--keep-summaries <n>]\n"
"                      [--summary-depth <n>] [options] PATH DIR\n"
"\n"
"Write every inode's identity and attributes and every directory entry of\n"
"the XFS filesystem mounted at PATH (a mount point: paths start there) to\n"
"FILE: one bulkstat scan and one read of every directory.  FILE is written\n"
"under no name, fsynced and only then put in place (0600), so a failed or\n"
"interrupted snapshot never replaces a good one.  Compare two with\n"
"'xbulk diff'.\n"
"\n"
"With --keep, DIR is a history directory (made 0700; refused if another\n"
"user owns it or others may write it): the snapshot is written there as\n"
"DIR/YYYYMMDDTHHMMSSZ.xbs (UTC), with its summary (inodes and bytes per\n"
"directory and per uid, gid and project) as YYYYMMDDTHHMMSSZ.summary.jsonl.\n"
"One run at a time: another finds the directory locked and exits 75.\n"
"\n"
XB_SNAP_SCAN_HELP
"   --level <n>\n"
"              zstd level of FILE's blocks, 1 to 19 (default 1), or 0:\n"
"              stored as they are.\n"
"   --keep <n> DIR is a history: keep its <n> newest snapshots.\n"
"   --keep-summaries <n>\n"
"              Keep the <n> newest summaries (default: every one).\n"
"   --summary-depth <n>\n"
"              Summarize directories down to depth <n> below PATH\n"
"              (default 2).\n"
XB_STATS_HELP
XB_PROGRESS_HELP
"   -h, --help Show this help.\n"
"\n"
"Exit status: 0 written, 2 trouble (nothing written; no room for the\n"
"spill file too), 75 the history is locked by another run, 130/143 on a\n"
"signal.\n";

enum {
	OPT_NO_SYNC = 256, OPT_LEVEL, OPT_KEEP, OPT_KEEP_SUMS, OPT_SUM_DEPTH,
};

static const struct option longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "threads", required_argument, NULL, 'j' },
	{ "no-sync", no_argument, NULL, OPT_NO_SYNC },
	{ "level", required_argument, NULL, OPT_LEVEL },
	{ "keep", required_argument, NULL, OPT_KEEP },
	{ "keep-summaries", required_argument, NULL, OPT_KEEP_SUMS },
	{ "summary-depth", required_argument, NULL, OPT_SUM_DEPTH },
	XB_MEMORY_LONGOPTS,
	XB_STATS_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

enum xb_exit
xb_snap_option(const char *cmd, int c, char **argv)
{
	const char *last = argv[optind - 1];
	const char *eq = strchr(last, '=');

	if (c == ':')
		return xb_usage_error(cmd, "option '%s' needs a value",
				      !strncmp(last, "--", 2) ? last :
				      (char[]){ '-', (char)optopt, 0 });
	if (optopt && optopt < 256)
		return xb_usage_error(cmd, "unknown option '-%c'", optopt);
	/* "--progress=x": getopt gives the long option's code as optopt */
	if (optopt && eq && !strncmp(last, "--", 2))
		return xb_usage_error(cmd, "option '%.*s' takes no value",
				      (int)(eq - last), last);
	return xb_usage_error(cmd, "unknown option '%s'", last);
}

enum xb_exit
xb_snap_count(const char *cmd, const char *opt, const char *arg, uint64_t min,
	      uint64_t max, uint64_t *v)
{
	int err = xb_parse_u64(arg, max, v);

	if (err)
		return xb_bad_number(cmd, opt, arg, err, max);
	if (*v < min)
		return xb_usage_error(cmd, "%s: must be at least %llu", opt,
				      (unsigned long long)min);
	return XB_EXIT_OK;
}

enum xb_exit
xb_snap_write_all(const char *cmd, const char *file, struct xbulk_snap *s,
		  struct xbulk_snap_writer *w, struct xb_summary *sum,
		  const volatile int *cancel)
{
	const struct xbulk_snap_rec *rec;
	uint64_t n = 0;
	int err;

	while ((err = xbulk_snap_next(s, &rec)) == 1) {
		if ((++n % 1024) == 0 && *cancel)
			return xb_signal_exit_status();
		err = xbulk_snap_writer_add(w, s, rec);
		if (sum)
			xb_summary_add(sum, rec);
		if (err)
			return xb_snap_write_error(cmd, file, err);
	}
	if (err) {			/* the source's: not the writer's */
		xb_error(cmd, "%s: cannot read what was scanned: %s", file,
			 xbulk_snap_error(s) ? xbulk_snap_error(s) :
					       strerror(-err));
		return XB_EXIT_TROUBLE;
	}
	err = xbulk_snap_writer_finish(w);
	return err ? xb_snap_write_error(cmd, file, err) : XB_EXIT_OK;
}

/* --keep, --keep-summaries, --summary-depth */
struct keep {
	uint64_t		keep;		/* 0: no history, FILE */
	uint64_t		sums;		/* 0: every summary */
	uint64_t		depth;
	bool			depth_given;
	struct xb_history	h;
	struct xb_summary	sum;
	bool			summing;
};

/* A history option @c; XB_EXIT_OK or XB_EXIT_USAGE. */
static enum xb_exit
keep_option(struct keep *k, int c, const char *arg)
{
	switch (c) {
	case OPT_KEEP:
		return xb_snap_count("snapshot", "--keep", arg, 1, UINT32_MAX,
				     &k->keep);
	case OPT_KEEP_SUMS:
		return xb_snap_count("snapshot", "--keep-summaries", arg, 1,
				     UINT32_MAX, &k->sums);
	default:
		k->depth_given = true;
		return xb_snap_count("snapshot", "--summary-depth", arg, 0,
				     XB_HIST_DEPTH_MAX, &k->depth);
	}
}

/* After the snapshot is in place: its summary, then the pruning. */
static enum xb_exit
keep_finish(struct keep *k, const struct xbulk_snap *s, int fsfd)
{
	int err = xb_summary_write(&k->sum, s, fsfd, k->h.stamp, k->h.sum);

	if (err) {
		xb_error("snapshot", "%s: %s", k->h.shown_sum, strerror(-err));
		return XB_EXIT_TROUBLE;
	}
	err = xb_history_prune(&k->h, k->keep, k->sums);
	if (err) {
		xb_error("snapshot", "%s: removing the oldest: %s", k->h.dir,
			 strerror(-err));
		return XB_EXIT_TROUBLE;
	}
	return XB_EXIT_OK;
}

enum xb_exit
xb_cmd_snapshot(int argc, char **argv)
{
	unsigned int threads = xb_online_cpus();
	struct xbulk_snap_write_opts wo = { .size = sizeof(wo),
					    .level = XB_SNAP_LEVEL };
	struct xbulk_fs *fs = NULL;
	struct xbulk_snap_writer *w = NULL;
	struct xbulk_snap *s = NULL;
	const volatile int *cancel;
	struct xb_exclude x = { .n = 0 };
	struct xb_memory mem = { .memory = 0 };
	struct xb_run_stats stats = { .stats = XB_STATS_NONE };
	struct keep k = { .depth = XB_HIST_DEPTH, .h.fd = -1 };
	const char *mnt, *file, *shown;
	uint32_t flags = 0;
	enum xb_exit ret;
	struct stat st;
	uint64_t v;
	int c, err;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hj:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			return xb_snap_help("snapshot", help);
		case 'j':
			ret = xb_snap_count("snapshot", "-j", optarg, 1,
					    XB_MAX_THREADS, &v);
			if (ret)
				return ret;
			threads = (unsigned int)v;
			break;
		case OPT_NO_SYNC:
			flags |= XBULK_SNAP_NO_SYNC;
			break;
		case OPT_LEVEL:
			ret = xb_snap_count("snapshot", "--level", optarg, 0,
					    19, &v);
			if (ret)
				return ret;
			wo.level = (int)v;
			break;
		case OPT_KEEP:
		case OPT_KEEP_SUMS:
		case OPT_SUM_DEPTH:
			ret = keep_option(&k, c, optarg);
			if (ret)
				return ret;
			break;
		case XB_OPT_MEMORY:
		case XB_OPT_TMPDIR:
			ret = xb_memory_option(&mem, "snapshot", c, optarg);
			if (ret)
				return ret;
			break;
		case XB_OPT_STATS:
		case XB_OPT_STATS_FILE:
		case XB_OPT_PROGRESS:
			ret = xb_run_stats_option(&stats, "snapshot", c,
						  optarg);
			if (ret)
				return ret;
			break;
		default:
			return xb_snap_option("snapshot", c, argv);
		}
	}
	if (argc - optind != 2)
		return xb_usage_error("snapshot", argc - optind < 2 ?
				      k.keep ? "needs PATH and DIR" :
				      "needs PATH and FILE" :
				      "too many arguments");
	if (!k.keep && (k.sums || k.depth_given))
		return xb_usage_error("snapshot", "%s needs --keep",
				      k.sums ? "--keep-summaries" :
				      "--summary-depth");
	mnt = argv[optind];
	file = shown = argv[optind + 1];
	ret = xb_memory_setup(&mem, "snapshot");
	if (ret)
		return ret;
	ret = xb_snap_open_fs("snapshot", mnt, &fs);
	if (ret)
		return ret;
	ret = xb_memory_check_fs(&mem, "snapshot", fs);
	if (!ret && k.keep) {
		ret = xb_history_open(&k.h, "snapshot", shown);
		file = k.h.snap;
		shown = k.h.shown_snap;
	}
	if (!ret && xb_run_stats_begin(&stats, "snapshot", mnt))
		ret = XB_EXIT_TROUBLE;
	if (ret) {
		xb_history_close(&k.h);
		xbulk_fs_close(fs);
		return ret;
	}
	cancel = xb_catch_signals();
	err = fstat(xbulk_fs_fd(fs), &st) ? -errno : 0;
	if (!err)
		err = xbulk_snap_writer_new(file, &wo, &w);
	if (err) {
		xb_history_close(&k.h);
		xbulk_fs_close(fs);
		xb_create_error("snapshot", shown, err);
		xb_run_stats_end(&stats);
		return XB_EXIT_TROUBLE;
	}
	xb_exclude_writer(&x, st.st_dev, w);
	xb_exclude_path(&x, st.st_dev, file);
	ret = xb_snap_live("snapshot", mnt, fs, threads, flags, &x, &mem,
			   &stats, cancel, &s);
	/* the live scan counts its records read into the line already */
	if (!ret)
		xb_progress_stage(&stats.progress, "snapshot", "write",
				  xbulk_snap_info(s)->inodes, false);
	if (!ret && k.keep) {
		xb_summary_init(&k.sum, s, (unsigned int)k.depth);
		k.summing = true;
	}
	if (!ret)
		ret = xb_snap_write_all("snapshot", shown, s, w,
					k.summing ? &k.sum : NULL, cancel);
	if (!ret && cancel && *cancel)
		ret = xb_signal_exit_status();
	if (!ret) {
		err = xbulk_snap_writer_commit(w);
		w = NULL;
		if (err)
			ret = xb_snap_write_error("snapshot", shown, err);
	}
	xbulk_snap_writer_abort(w);
	if (!ret && k.keep)
		ret = keep_finish(&k, s, xbulk_fs_fd(fs));
	if (k.summing)
		xb_summary_free(&k.sum);
	xb_history_close(&k.h);
	/* what the budget did, the inode-order cursor's spill included */
	stats.completed = !ret;
	xb_run_stats_snap_memory(&stats, &mem, s);
	if (xb_run_stats_end(&stats) && !ret)
		ret = XB_EXIT_TROUBLE;
	xbulk_snap_close(s);
	xbulk_fs_close(fs);
	return ret;
}
