// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk diff [options] OLD NEW: what changed from the snapshot OLD to
 * NEW, a snapshot or a mounted XFS scanned now (--save FILE also writes
 * that scan as a snapshot, put in place only once every change was
 * written).  Exit status as diff and cmp: 0 no change, 1 changes, 2
 * trouble.  The rules and the change lines: man/xbulk.8, DIFF.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diff.h"

static const char help[] =
"Usage: xbulk diff [options] OLD NEW\n"
"\n"
"What changed from the snapshot OLD to NEW: another snapshot, or the\n"
"mount point of an XFS filesystem (then scanned now).  One line per\n"
"change, in inode order: a code column (what and which facets) and the\n"
"path, relative to the mount's top.\n"
"\n"
"   --save <file>\n"
"              NEW is a filesystem: also write its scan as a snapshot to\n"
"              this file, put in place only after every change was written.\n"
XB_SNAP_SCAN_HELP
"   -o, --format <text|jsonl|csv>\n"
"              The change lines as text (the default), JSON Lines or CSV.\n"
"   -0         Print the paths (NUL-terminated) of every name of NEW\n"
"              whose inode, entry or path changed, all that lies below a\n"
"              moved directory included: what rsync --files-from copies.\n"
"   --linked0  The part of -0 that rsync -H links without copying data:\n"
"              every name of each inode that only gained names.\n"
"   --copy0    The rest of -0: what rsync -I copies.\n"
"   --deleted0 Print the paths (NUL-terminated) of OLD that name nothing in\n"
"              NEW, topmost only, never one below what is no directory in\n"
"              NEW: safe to remove before or after copying the -0 paths.\n"
"   --summary  Print counts and bytes instead of the changes.\n"
"   --depth <n>\n"
"              With --summary: also count them by directory, N names deep\n"
"              (1: each directory at the mount's top).\n"
"   --sort <inode|path>\n"
"              The changes in inode order (the default) or by path (byte\n"
"              order); text by path folds as --fold does.\n"
"   --fold     A directory created or deleted with all below it is one\n"
"              line with the inodes and bytes it holds (jsonl, csv: fields\n"
"              inodes and bytes).\n"
"   --only <kinds>\n"
"              Only these kinds of change, comma-separated: created,\n"
"              deleted, renamed, modified, entries, linked, unlinked, moved.\n"
"   --type <letters>\n"
"              Only these file types (find -type letters: f,d,l,p,s,c,b).\n"
"   --expand   Also list what lies below a renamed directory (moved);\n"
"              fold nothing.\n"
"   --atime    A changed atime alone is a change.\n"
"   --layout   Changed blocks or extents alone are a change.\n"
"   --force    Compare snapshots of two filesystems (UUIDs differ), or\n"
"              of two directories of one (two mounts: tops differ).\n"
XB_STATS_HELP
XB_PROGRESS_HELP
"   -h, --help Show this help.\n"
"\n"
"-j and --no-sync are for a NEW that is scanned now; --memory and --tmpdir\n"
"for it and for what --sort path and --fold hold.\n"
"Exit status: 0 no change, 1 changes, 2 trouble (no room for the spill\n"
"file too), 130/143 on a signal; with -0, --linked0, --copy0 or\n"
"--deleted0: 0 unless trouble.\n";

enum {
	OPT_SAVE = 256, OPT_NO_SYNC, OPT_DELETED0, OPT_LINKED0, OPT_COPY0,
	OPT_SUMMARY, OPT_ONLY,
	OPT_TYPE, OPT_EXPAND, OPT_ATIME, OPT_LAYOUT, OPT_FORCE,
	OPT_SORT, OPT_FOLD, OPT_DEPTH,
};

static const struct option longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "threads", required_argument, NULL, 'j' },
	{ "format", required_argument, NULL, 'o' },
	{ "save", required_argument, NULL, OPT_SAVE },
	{ "no-sync", no_argument, NULL, OPT_NO_SYNC },
	{ "deleted0", no_argument, NULL, OPT_DELETED0 },
	{ "linked0", no_argument, NULL, OPT_LINKED0 },
	{ "copy0", no_argument, NULL, OPT_COPY0 },
	{ "summary", no_argument, NULL, OPT_SUMMARY },
	{ "only", required_argument, NULL, OPT_ONLY },
	{ "type", required_argument, NULL, OPT_TYPE },
	{ "expand", no_argument, NULL, OPT_EXPAND },
	{ "atime", no_argument, NULL, OPT_ATIME },
	{ "layout", no_argument, NULL, OPT_LAYOUT },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "sort", required_argument, NULL, OPT_SORT },
	{ "fold", no_argument, NULL, OPT_FOLD },
	{ "depth", required_argument, NULL, OPT_DEPTH },
	XB_MEMORY_LONGOPTS,
	XB_STATS_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

struct diff_cmd {
	const char		*old_path, *new_path, *save;
	unsigned int		threads;
	uint32_t		scan_flags;
	uint32_t		diff_flags;
	struct xb_diff_out	out;
	struct xb_memory	mem;		/* --memory, --tmpdir */
	struct xb_run_stats	stats;		/* --stats, --stats-file */
	bool			fmt_given;
	bool			sort_path;	/* --sort path */
	bool			fold;		/* --fold */
	bool			help;		/* -h: print the help, done */
};

static enum xb_exit
parse_only(struct diff_cmd *d, char *arg)
{
	char *tok, *save = NULL;
	size_t k;

	d->out.kinds = 0;
	for (tok = strtok_r(arg, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (k = 0; k < XB_CHANGE_KINDS; k++)
			if (!strcmp(tok, xb_change_names[k]))
				break;
		if (k == XB_CHANGE_KINDS)
			return xb_usage_error("diff", "--only: unknown kind "
					      "'%s'", tok);
		d->out.kinds |= 1u << k;
	}
	return d->out.kinds ? XB_EXIT_OK :
	       xb_usage_error("diff", "--only: no kind given");
}

static enum xb_exit
parse_type(struct diff_cmd *d, const char *arg)
{
	size_t n = 0;

	for (; *arg; arg++) {
		if (*arg == ',' || memchr(d->out.types, *arg, n))
			continue;	/* a letter again: once is enough */
		if (!strchr("fdlpscb", *arg))
			return xb_usage_error("diff", "--type: unknown type "
					      "'%c'", *arg);
		d->out.types[n++] = *arg;
	}
	d->out.types[n] = '\0';
	return n ? XB_EXIT_OK :
	       xb_usage_error("diff", "--type: no type given");
}

static enum xb_exit
set_fmt(struct diff_cmd *d, enum xb_diff_fmt fmt, enum xb_diff_links links)
{
	if (d->fmt_given && (d->out.fmt != fmt || d->out.links != links))
		return xb_usage_error("diff", "-o, -0, --linked0, --copy0, "
				      "--deleted0 and --summary exclude each "
				      "other");
	d->fmt_given = true;
	d->out.fmt = fmt;
	d->out.links = links;
	return XB_EXIT_OK;
}

/* The options that pick a form of output but -o. */
static const struct {
	int			opt;
	enum xb_diff_fmt	fmt;
	enum xb_diff_links	links;
} fmt_opts[] = {
	{ '0', XB_DIFF_NUL, XB_LINKS_ALL },
	{ OPT_LINKED0, XB_DIFF_NUL, XB_LINKS_ONLY },
	{ OPT_COPY0, XB_DIFF_NUL, XB_LINKS_NONE },
	{ OPT_DELETED0, XB_DIFF_DELETED0, XB_LINKS_ALL },
	{ OPT_SUMMARY, XB_DIFF_SUMMARY, XB_LINKS_ALL },
};

/* -0, --linked0, --copy0, --deleted0, --summary (option @c). */
static enum xb_exit
fmt_option(struct diff_cmd *d, int c)
{
	size_t i = 0;

	while (i + 1 < sizeof(fmt_opts) / sizeof(fmt_opts[0]) &&
	       fmt_opts[i].opt != c)
		i++;
	return set_fmt(d, fmt_opts[i].fmt, fmt_opts[i].links);
}

/* --sort, --fold, --depth (issue 26: diffs a person can read). */
static enum xb_exit
parse_readable(struct diff_cmd *d, int c, const char *arg)
{
	uint64_t v;
	enum xb_exit ret;

	if (c == OPT_FOLD) {
		d->fold = true;
	} else if (c == OPT_DEPTH) {
		ret = xb_snap_count("diff", "--depth", arg, 1, 4096, &v);
		if (ret)
			return ret;
		d->out.depth = (unsigned int)v;
	} else if (!strcmp(arg, "path") || !strcmp(arg, "inode")) {
		d->sort_path = arg[0] == 'p';
	} else {
		return xb_usage_error("diff", "--sort: unknown order '%s' "
				      "(inode or path)", arg);
	}
	return XB_EXIT_OK;
}

/*
 * After the options: what --sort, --fold and --depth go with, and the
 * diff's flags for them.  Text sorted by path folds unless --expand;
 * JSON Lines and CSV fold only with --fold, which then adds their
 * fields.  XB_EXIT_OK or a usage error.
 */
static enum xb_exit
readable(struct diff_cmd *d)
{
	bool lines = d->out.fmt == XB_DIFF_TEXT || d->out.fmt == XB_DIFF_JSONL ||
		     d->out.fmt == XB_DIFF_CSV;
	bool expand = d->diff_flags & XBULK_DIFF_EXPAND;

	if ((d->sort_path || d->fold) && !lines)
		return xb_usage_error("diff", "--sort path and --fold are for "
				      "-o text, jsonl and csv, not -0, "
				      "--deleted0 or --summary");
	if (d->fold && expand)
		return xb_usage_error("diff", "--fold and --expand exclude "
				      "each other");
	if (d->out.depth && d->out.fmt != XB_DIFF_SUMMARY)
		return xb_usage_error("diff", "--depth needs --summary");
	if (d->sort_path)
		d->diff_flags |= XBULK_DIFF_SORT_PATH;
	if (d->sort_path && d->out.fmt == XB_DIFF_TEXT && !expand)
		d->fold = true;
	d->out.fold = d->fold;
	/* a folded line is a directory's: without d, nothing to fold into */
	if (d->fold && strchr(d->out.types, 'd'))
		d->diff_flags |= XBULK_DIFF_FOLD;
	return XB_EXIT_OK;
}

/* The options: XB_EXIT_OK to go on (or, with @d->help, to print the help
 * and stop), else the exit status of a usage error. */
static enum xb_exit
parse(struct diff_cmd *d, int argc, char **argv)
{
	enum xb_exit ret = XB_EXIT_OK;
	uint64_t v;
	int c;

	optind = 0;
	opterr = 0;
	while (!ret &&
	       (c = getopt_long(argc, argv, ":0hj:o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			d->help = true;
			return XB_EXIT_OK;
		case 'j':
			ret = xb_snap_count("diff", "-j", optarg, 1,
					    XB_MAX_THREADS, &v);
			d->threads = (unsigned int)v;
			break;
		case 'o':
			if (!strcmp(optarg, "text"))
				ret = set_fmt(d, XB_DIFF_TEXT, XB_LINKS_ALL);
			else if (!strcmp(optarg, "jsonl"))
				ret = set_fmt(d, XB_DIFF_JSONL, XB_LINKS_ALL);
			else if (!strcmp(optarg, "csv"))
				ret = set_fmt(d, XB_DIFF_CSV, XB_LINKS_ALL);
			else
				ret = xb_usage_error("diff", "-o: unknown "
						     "format '%s' (text, jsonl "
						     "or csv)", optarg);
			break;
		case '0':
		case OPT_LINKED0:
		case OPT_COPY0:
		case OPT_DELETED0:
		case OPT_SUMMARY:
			ret = fmt_option(d, c);
			break;
		case OPT_SAVE: d->save = optarg; break;
		case OPT_NO_SYNC: d->scan_flags |= XBULK_SNAP_NO_SYNC; break;
		case OPT_ONLY: ret = parse_only(d, optarg); break;
		case OPT_TYPE: ret = parse_type(d, optarg); break;
		case OPT_EXPAND: d->diff_flags |= XBULK_DIFF_EXPAND; break;
		case OPT_ATIME: d->diff_flags |= XBULK_DIFF_ATIME; break;
		case OPT_LAYOUT: d->diff_flags |= XBULK_DIFF_LAYOUT; break;
		case OPT_FORCE: d->diff_flags |= XBULK_DIFF_FORCE; break;
		case OPT_SORT:
		case OPT_FOLD:
		case OPT_DEPTH:
			ret = parse_readable(d, c, optarg);
			break;
		case XB_OPT_MEMORY:
		case XB_OPT_TMPDIR:
			ret = xb_memory_option(&d->mem, "diff", c, optarg);
			break;
		case XB_OPT_STATS:
		case XB_OPT_STATS_FILE:
		case XB_OPT_PROGRESS:
			ret = xb_run_stats_option(&d->stats, "diff", c, optarg);
			break;
		default: return xb_snap_option("diff", c, argv);
		}
	}
	if (ret)
		return ret;
	if (argc - optind != 2)
		return xb_usage_error("diff", argc - optind < 2 ?
				      "needs OLD and NEW" :
				      "too many arguments");
	d->old_path = argv[optind];
	d->new_path = argv[optind + 1];
	/* the path lists: every name whose entry or path changed */
	if (d->out.fmt == XB_DIFF_NUL || d->out.fmt == XB_DIFF_DELETED0)
		d->diff_flags |= XBULK_DIFF_EVERY_NAME;
	ret = readable(d);
	return ret ? ret : xb_memory_setup(&d->mem, "diff");
}

/*
 * OLD (@oi) and NEW (UUID @uuid, top inode @top) are of two filesystems
 * or two directories of one: without --force, say so and return
 * XB_EXIT_TROUBLE; else XB_EXIT_OK.
 */
static enum xb_exit
apart(const struct diff_cmd *d, const struct xbulk_snap_info *oi,
      const uint8_t *uuid, uint64_t top)
{
	char u1[40], u2[40];

	if (d->diff_flags & XBULK_DIFF_FORCE)
		return XB_EXIT_OK;
	xb_uuid_text(u1, oi->uuid);
	xb_uuid_text(u2, uuid);
	if (strcmp(u1, u2))
		xb_error("diff", "%s: a snapshot of another filesystem (UUID "
			 "%s; %s is %s); --force compares them anyway",
			 d->old_path, u1, d->new_path, u2);
	else if (oi->top != top)
		xb_error("diff", "%s: a snapshot of another directory (its top "
			 "is inode %llu, mounted at %s; %s's is inode %llu): "
			 "paths do not compare; --force compares them anyway",
			 d->old_path, (unsigned long long)oi->top,
			 oi->mountpoint, d->new_path, (unsigned long long)top);
	else
		return XB_EXIT_OK;
	return XB_EXIT_TROUBLE;
}

/* The diff stopped on @err: name the snapshot it could not read (damaged
 * or changed since it was checked, a read error) and where, or say
 * @err. */
static void
read_error(const struct diff_cmd *d, const struct xbulk_snap *old,
	   const struct xbulk_snap *new, int err)
{
	const char *why = xbulk_snap_error(new), *path = d->new_path;

	if (!why) {
		why = xbulk_snap_error(old);
		path = d->old_path;
	}
	if (why)
		xb_error("diff", "%s: %s; the changes above are not all",
			 path, why);
	else if ((d->diff_flags & (XBULK_DIFF_SORT_PATH | XBULK_DIFF_FOLD)) &&
		 err != -ENOMEM && err != -EIO)
		/* the changes held for --sort or --fold spilled: none shown */
		xb_error("diff", "%s: cannot hold the changes in a spill file "
			 "there: %s (--tmpdir, --memory)", d->mem.tmpdir,
			 strerror(-err));
	else
		xb_error("diff", "%s; the changes above are not all",
			 strerror(-err));
}

/* Run the diff and print; XB_EXIT_OK, XB_EXIT_CHANGES, or the exit status
 * of trouble or a signal. */
static enum xb_exit
run(struct diff_cmd *d, struct xbulk_snap *old, struct xbulk_snap *new,
    const volatile int *cancel)
{
	struct xbulk_snap_diff_opts o = {
		.size = sizeof(o), .flags = d->diff_flags, .cancel = cancel,
		.memory = d->mem.memory, .tmpdir = d->mem.tmpdir,
	};
	const struct xbulk_snap_change *c;
	struct xbulk_snap_diff *diff;
	struct xbulk_names_progress *p;
	int err;

	/* both are read to their end; the changes go to stdout */
	p = xb_progress_stage(&d->stats.progress, "diff", "compare",
			      xbulk_snap_info(old)->inodes +
			      xbulk_snap_info(new)->inodes, true);
	xbulk_snap_progress(old, p);
	xbulk_snap_progress(new, p);
	err = xbulk_snap_diff_new(old, new, &o, &diff);
	if (err == -EXDEV)
		return apart(d, xbulk_snap_info(old),
			     xbulk_snap_info(new)->uuid,
			     xbulk_snap_info(new)->top);
	if (err) {
		xb_error("diff", "%s", strerror(-err));
		return XB_EXIT_TROUBLE;
	}
	xb_diff_out_begin(&d->out);
	while ((err = xbulk_snap_diff_next(diff, &c)) == 1) {
		err = xb_diff_out_change(&d->out, c);
		if (err)
			break;
	}
	xbulk_snap_diff_free(diff);
	if (!err)
		err = xb_diff_out_end(&d->out);
	if (err == -EINTR)
		return xb_signal_exit_status();
	if (err) {
		read_error(d, old, new, err);
		return XB_EXIT_TROUBLE;
	}
	if (fflush(d->out.f) || ferror(d->out.f))
		return xb_snap_out_error("diff", -errno);
	/* the path lists feed pipelines run with pipefail: 0 unless trouble */
	return d->out.any && d->out.fmt != XB_DIFF_NUL &&
	       d->out.fmt != XB_DIFF_DELETED0 ? XB_EXIT_CHANGES : XB_EXIT_OK;
}

/* Did the diff run to its end (@ret: changes or none)? */
static bool
whole(enum xb_exit ret)
{
	return ret == XB_EXIT_OK || ret == XB_EXIT_CHANGES;
}

/* NEW scanned now; with --save, the writer is made first (to leave it
 * out of the scan). */
static enum xb_exit
live(struct diff_cmd *d, struct xbulk_snap *old, const volatile int *cancel)
{
	struct xbulk_snap_write_opts wo = { .size = sizeof(wo),
					    .level = XB_SNAP_LEVEL };
	struct xbulk_fs *fs = NULL;
	struct xbulk_snap_writer *w = NULL;
	struct xb_exclude x = { .n = 0 };
	struct xbulk_snap *new = NULL;
	enum xb_exit ret;
	struct stat st;
	int err;

	if (xb_snap_open_fs("diff", d->new_path, &fs))
		return XB_EXIT_TROUBLE;
	ret = xb_memory_check_fs(&d->mem, "diff", fs);
	if (ret) {
		xbulk_fs_close(fs);
		return ret;
	}
	if (fstat(xbulk_fs_fd(fs), &st)) {
		xb_error("diff", "%s: %s", d->new_path, strerror(errno));
		xbulk_fs_close(fs);
		return XB_EXIT_TROUBLE;
	}
	/* before the scan, which may take long */
	ret = apart(d, xbulk_snap_info(old), xbulk_fs_geometry(fs)->uuid,
		    st.st_ino);
	if (ret) {
		xbulk_fs_close(fs);
		return ret;
	}
	if (d->save) {
		err = xbulk_snap_writer_new(d->save, &wo, &w);
		if (err) {
			xbulk_fs_close(fs);
			xb_create_error("diff", d->save, err);
			return XB_EXIT_TROUBLE;
		}
		xb_exclude_writer(&x, st.st_dev, w);
		xb_exclude_path(&x, st.st_dev, d->save);
	}
	xb_exclude_path(&x, st.st_dev, d->old_path);
	ret = xb_snap_live("diff", d->new_path, fs, d->threads,
			   d->scan_flags, &x, &d->mem, &d->stats, cancel,
			   &new);
	/* The save file first, whole (unnamed yet), so that ENOSPC or an I/O
	 * error stops the diff before its first line */
	if (!ret && w)
		ret = xb_snap_write_all("diff", d->save, new, w, NULL,
					 cancel);
	if (!ret)
		ret = run(d, old, new, cancel);
	if (whole(ret) && cancel && *cancel)
		ret = xb_signal_exit_status();
	if (whole(ret) && w) {
		err = xbulk_snap_writer_commit(w);
		w = NULL;
		if (err)
			ret = xb_snap_write_error("diff", d->save, err);
	}
	xbulk_snap_writer_abort(w);
	/* what the budget did, the inode-order cursor's spill included */
	xb_run_stats_snap_memory(&d->stats, &d->mem, new);
	xbulk_snap_close(new);
	xbulk_fs_close(fs);
	return ret;
}

enum xb_exit
xb_cmd_diff(int argc, char **argv)
{
	struct diff_cmd d = {
		.threads = xb_online_cpus(),
		.out = { .f = stdout, .kinds = ~0u, .types = "fdlpscb?" },
	};
	struct xbulk_snap *old = NULL, *new = NULL;
	const volatile int *cancel;
	enum xb_exit ret;
	struct stat st;

	ret = parse(&d, argc, argv);
	if (ret)
		return ret;
	if (d.help)
		return xb_snap_help("diff", help);
	/* the changes go there: with it closed, fail before the scan */
	if (xb_stdout_fd() < 0)
		return xb_snap_out_error("diff", -EBADF);
	if (stat(d.new_path, &st)) {
		xb_error("diff", "%s: %s", d.new_path, strerror(errno));
		return XB_EXIT_TROUBLE;
	}
	if (S_ISDIR(st.st_mode) == false && d.save)
		return xb_usage_error("diff", "--save needs NEW to be a "
				      "mounted filesystem");
	ret = xb_snap_open("diff", d.old_path, &old);
	if (ret)
		return ret;
	if (xb_run_stats_begin(&d.stats, "diff", d.new_path)) {
		xbulk_snap_close(old);
		return XB_EXIT_TROUBLE;
	}
	cancel = xb_catch_signals();
	if (S_ISDIR(st.st_mode)) {
		ret = live(&d, old, cancel);
	} else {
		ret = xb_snap_open("diff", d.new_path, &new);
		if (!ret)
			ret = run(&d, old, new, cancel);
		if (whole(ret) && *cancel)
			ret = xb_signal_exit_status();
	}
	/* after the changes (flushed by run()) */
	d.stats.completed = whole(ret);
	if (xb_run_stats_end(&d.stats) && whole(ret))
		ret = XB_EXIT_TROUBLE;
	xbulk_snap_close(new);
	xbulk_snap_close(old);
	xb_diff_out_free(&d.out);
	return ret;
}
