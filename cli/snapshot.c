// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk snapshot [-j N] [--no-sync] [--level N] MNT FILE: one scan (bulkstat
 * and the names engine's directory read) written to FILE as a snapshot
 * (docs/formats.md), atomically: FILE is replaced only by a whole,
 * fsynced snapshot.  The file itself (and what is at FILE now) is left
 * out of the scan when it lies on the scanned filesystem.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "snap.h"

static const char help[] =
"Usage: xbulk snapshot [-j <threads>] [--no-sync] [--level <n>]\n"
"                      [--memory <size>] [--tmpdir <dir>]\n"
"                      [--stats[=text|json]] [--stats-file <file>]\n"
"                      [--progress] PATH FILE\n"
"\n"
"Write every inode's identity and attributes and every directory entry of\n"
"the XFS filesystem mounted at PATH (a mount point: paths start there) to\n"
"FILE: one bulkstat scan and one read of every directory.  FILE is written\n"
"under no name, fsynced and only then put in place (0600), so a failed or\n"
"interrupted snapshot never replaces a good one.  Compare two with\n"
"'xbulk diff'.\n"
"\n"
XB_SNAP_SCAN_HELP
"   --level <n>\n"
"              zstd level of FILE's blocks, 1 to 19 (default 1), or 0:\n"
"              stored as they are.\n"
XB_STATS_HELP
XB_PROGRESS_HELP
"   -h, --help Show this help.\n"
"\n"
"Exit status: 0 written, 2 trouble (nothing written; no room for the\n"
"spill file too), 130/143 on a signal.\n";

enum { OPT_NO_SYNC = 256, OPT_LEVEL };

static const struct option longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "threads", required_argument, NULL, 'j' },
	{ "no-sync", no_argument, NULL, OPT_NO_SYNC },
	{ "level", required_argument, NULL, OPT_LEVEL },
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
		  struct xbulk_snap_writer *w, const volatile int *cancel)
{
	const struct xbulk_snap_rec *rec;
	uint64_t n = 0;
	int err;

	while ((err = xbulk_snap_next(s, &rec)) == 1) {
		if ((++n % 1024) == 0 && *cancel)
			return xb_signal_exit_status();
		err = xbulk_snap_writer_add(w, s, rec);
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
	const char *mnt, *file;
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
				      "needs PATH and FILE" :
				      "too many arguments");
	mnt = argv[optind];
	file = argv[optind + 1];
	ret = xb_memory_setup(&mem, "snapshot");
	if (ret)
		return ret;
	ret = xb_snap_open_fs("snapshot", mnt, &fs);
	if (ret)
		return ret;
	ret = xb_memory_check_fs(&mem, "snapshot", fs);
	if (!ret && xb_run_stats_begin(&stats, "snapshot", mnt))
		ret = XB_EXIT_TROUBLE;
	if (ret) {
		xbulk_fs_close(fs);
		return ret;
	}
	cancel = xb_catch_signals();
	err = fstat(xbulk_fs_fd(fs), &st) ? -errno : 0;
	if (!err)
		err = xbulk_snap_writer_new(file, &wo, &w);
	if (err) {
		xbulk_fs_close(fs);
		xb_create_error("snapshot", file, err);
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
	if (!ret)
		ret = xb_snap_write_all("snapshot", file, s, w, cancel);
	if (!ret && cancel && *cancel)
		ret = xb_signal_exit_status();
	if (!ret) {
		err = xbulk_snap_writer_commit(w);
		w = NULL;
		if (err)
			ret = xb_snap_write_error("snapshot", file, err);
	}
	xbulk_snap_writer_abort(w);
	/* what the budget did, the inode-order cursor's spill included */
	stats.completed = !ret;
	xb_run_stats_snap_memory(&stats, &mem, s);
	if (xb_run_stats_end(&stats) && !ret)
		ret = XB_EXIT_TROUBLE;
	xbulk_snap_close(s);
	xbulk_fs_close(fs);
	return ret;
}
