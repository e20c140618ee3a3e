// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk du: disk usage as GNU du prints it, from one bulkstat scan and
 * the names engine's walk; also by owner, group, project, type, suffix,
 * age and size class, the largest entries, a treemap picture, and the
 * inodes no path reaches.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "du.h"

static const char help[] =
"Usage: xbulk du [OPTION]... [PATH]...\n"
"\n"
"Disk usage of each PATH (default: .) and of every directory under it,\n"
"as GNU du -x prints it, from the kernel's bulk inode records.  Every\n"
"PATH must be on one mounted XFS filesystem.  Needs CAP_SYS_ADMIN,\n"
"CAP_DAC_READ_SEARCH and CAP_FOWNER (root has them).\n"
"\n"
"   -0, --null  End each line with NUL, not newline.\n"
"   -a, --all   Print files too, not only directories.\n"
"   --apparent-size\n"
"               Sum apparent sizes (bs_size), not disk usage.\n"
"   -B, --block-size <size>\n"
"               Print sizes in units of SIZE, as du: 1K, M, GB, MiB,\n"
"               human-readable, si...\n"
"   -b, --bytes Apparent sizes in bytes (--apparent-size -B 1).\n"
"   -c, --total Print a grand total.\n"
"   -d, --max-depth <n>\n"
"               Print directories N or fewer levels below PATH.\n"
"   -h, --human-readable\n"
"               Sizes in powers of 1024 (1K 234M 2G).\n"
"   --si        Sizes in powers of 1000 (1k 234M 2G).\n"
"   --inodes    Count inodes, not bytes.\n"
"   -k          Sizes in KiB (-B 1K).\n"
"   -m          Sizes in MiB (-B 1M).\n"
"   -l, --count-links\n"
"               Count a file with several links at each of them.\n"
"   -S, --separate-dirs\n"
"               A directory's size leaves out its subdirectories.\n"
"   -s, --summarize\n"
"               Print only each PATH's total (-d 0).\n"
"   -t, --threshold <size>\n"
"               Print only figures of at least SIZE (negative: at most).\n"
"   --exclude <pattern>\n"
"               Leave out what matches the shell pattern PATTERN.\n"
"   -X, --exclude-from <file>\n"
"               Leave out what matches a pattern of FILE (one a line).\n"
"   --no-sync   Do not syncfs() the filesystem first: apparent sizes of\n"
"               data not yet written back are then the sizes on disk.\n"
"   -x, --one-file-system\n"
"               Always on: other filesystems' mount points are left out.\n"
"   -j, --threads <n>\n"
"               Scan and read directories with N threads (default:\n"
"               online CPUs).\n"
XB_MEMORY_HELP
XB_STATS_HELP
XB_PROGRESS_HELP
XB_STRATEGY_HELP
"   --by <uid|gid|projid|type|ext|age|size-class>\n"
"               Instead of du's lines, a table of disk usage, apparent\n"
"               size and inodes per group, largest first: for each PATH,\n"
"               or each directory down to -d N.\n"
"   --time <mtime|atime|ctime|birth>\n"
"               The time --by age and --color-by age look at (default:\n"
"               mtime).\n"
"   --top <n>   Instead of du's lines, the N largest files.\n"
"   --top-dirs  With --top: the N largest directories.\n"
"   -o, --format <text|jsonl|csv>\n"
"               Output: du's lines (default), JSON Lines or CSV.\n"
"   --svg <file>\n"
"               Draw a treemap of disk usage into FILE (not on the\n"
"               filesystem scanned); with --trend, a line chart; with\n"
"               --since, the treemap coloured by growth.\n"
"   --svg-depth <n>\n"
"               Levels of boxes in the treemap (default: -d N if N is\n"
"               1 or more, else 3).\n"
"   --color-by <owner|age>\n"
"               Treemap colours by owner (default) or age.\n"
"   --ncdu <file>\n"
"               Also export the tree under PATH in ncdu's JSON format\n"
"               into FILE (ncdu -f FILE reads it).\n"
"   --prometheus <file>\n"
"               Also write disk usage and inodes by user, group,\n"
"               project and directory (down to -d N, default 1), and\n"
"               the scan's figures, as Prometheus gauges into FILE\n"
"               (node_exporter's textfile collector reads it).\n"
"   --max-series <n>\n"
"               With --prometheus: at most N series per grouping, the\n"
"               largest; the rest summed as \"other\" (default 100).\n"
"               With --trend --svg: at most N lines (2 to 10, default\n"
"               10), \"other\" one of them.\n"
"   --unreachable\n"
"               List and sum the inodes no path from the mount's top\n"
"               reaches (deleted but open, under a mount point).\n"
"   --trend     PATH is a history (xbulk snapshot --keep): no scan; the\n"
"               usage at each summary of each directory down to -d N\n"
"               (default 1), or of each --by uid, gid or projid, its\n"
"               growth per day over the last 7 days, the free space and\n"
"               when it runs out at that rate; --svg FILE draws it.\n"
"   --since <file>\n"
"               What grew since FILE, a snapshot: PATH is a mount point\n"
"               of its filesystem (scanned now) or a later snapshot file\n"
"               (nothing scanned).  For each directory down to\n"
"               -d N (default 1; with --by uid, gid or projid, each id\n"
"               in it, default -d 0) a line CHANGE NOW THEN INODES\n"
"               PATH: the disk usage's change, now and then, and the\n"
"               inodes' change, largest growth first; moved\n"
"               directories matched by inode.  --svg FILE draws the\n"
"               treemap of PATH coloured by each directory's growth.\n"
"   --rows <n>  With --since: only the N rows that grew most and the\n"
"               N that shrank most.\n"
"   --help      Show this help.\n"
"\n"
"Exit status: 0 success, 1 runtime failure (a PATH or a directory that\n"
"could not be read, no room for the spill file), 2 usage error, 130/143\n"
"on SIGINT/SIGTERM, 141 when the reader of stdout goes away.  See\n"
"xbulk(8).\n";

enum {
	OPT_APPARENT = 256, OPT_SI, OPT_INODES, OPT_BY, OPT_TIME, OPT_TOP,
	OPT_TOP_DIRS, OPT_SVG, OPT_SVG_DEPTH, OPT_COLOR_BY, OPT_UNREACHABLE,
	OPT_HELP, OPT_EXCLUDE, OPT_NO_SYNC, OPT_NCDU, OPT_PROMETHEUS,
	OPT_MAX_SERIES, OPT_TREND, OPT_SINCE, OPT_ROWS,
};

static const struct option longopts[] = {
	{ "null", no_argument, NULL, '0' },
	{ "all", no_argument, NULL, 'a' },
	{ "apparent-size", no_argument, NULL, OPT_APPARENT },
	{ "block-size", required_argument, NULL, 'B' },
	{ "bytes", no_argument, NULL, 'b' },
	{ "total", no_argument, NULL, 'c' },
	{ "max-depth", required_argument, NULL, 'd' },
	{ "human-readable", no_argument, NULL, 'h' },
	{ "si", no_argument, NULL, OPT_SI },
	{ "inodes", no_argument, NULL, OPT_INODES },
	{ "count-links", no_argument, NULL, 'l' },
	{ "separate-dirs", no_argument, NULL, 'S' },
	{ "summarize", no_argument, NULL, 's' },
	{ "threshold", required_argument, NULL, 't' },
	{ "exclude", required_argument, NULL, OPT_EXCLUDE },
	{ "exclude-from", required_argument, NULL, 'X' },
	{ "no-sync", no_argument, NULL, OPT_NO_SYNC },
	{ "one-file-system", no_argument, NULL, 'x' },
	{ "threads", required_argument, NULL, 'j' },
	{ "by", required_argument, NULL, OPT_BY },
	{ "time", required_argument, NULL, OPT_TIME },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "top-dirs", no_argument, NULL, OPT_TOP_DIRS },
	{ "format", required_argument, NULL, 'o' },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "svg-depth", required_argument, NULL, OPT_SVG_DEPTH },
	{ "color-by", required_argument, NULL, OPT_COLOR_BY },
	{ "ncdu", required_argument, NULL, OPT_NCDU },
	{ "prometheus", required_argument, NULL, OPT_PROMETHEUS },
	{ "max-series", required_argument, NULL, OPT_MAX_SERIES },
	{ "unreachable", no_argument, NULL, OPT_UNREACHABLE },
	{ "trend", no_argument, NULL, OPT_TREND },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "rows", required_argument, NULL, OPT_ROWS },
	{ "help", no_argument, NULL, OPT_HELP },
	XB_MEMORY_LONGOPTS,
	XB_STATS_LONGOPTS,
	XB_STRATEGY_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

/* @arg's index in @words (NULL-terminated) into *@i; XB_EXIT_OK or
 * XB_EXIT_USAGE. */
static enum xb_exit
pick(const char *opt, const char *arg, const char *const *words, int *i)
{
	for (*i = 0; words[*i]; (*i)++)
		if (!strcmp(arg, words[*i]))
			return XB_EXIT_OK;
	return xb_usage_error("du", "%s: unknown value '%s'", opt, arg);
}

static enum xb_exit
parse_units(struct du_run *r, const char *arg)
{
	int err = du_units_parse(arg, &r->units);

	if (!err)
		return XB_EXIT_OK;
	if (err == -ERANGE)
		return xb_usage_error("du", "-B argument '%s' too large", arg);
	if (err == -EILSEQ)
		return xb_usage_error("du", "invalid suffix in -B argument '%s'",
				      arg);
	return xb_usage_error("du", "invalid -B argument '%s'", arg);
}

/* A number of @opt from 1 (0 is refused: it would mean nothing). */
static enum xb_exit
parse_count(const char *opt, const char *arg, uint64_t max, uint64_t *v)
{
	int err = xb_parse_u64(arg, max, v);

	if (err)
		return xb_bad_number("du", opt, arg, err, max);
	return *v ? XB_EXIT_OK :
		    xb_usage_error("du", "%s: must be at least 1", opt);
}

/*
 * getopt's complaint (opterr is 0): one line, naming the option.  A long
 * option is the last element getopt took; a short one is optopt (its
 * element may not be finished: "-Za").
 */
static enum xb_exit
bad_option(int c, char **argv)
{
	char opt[3] = { '-', (char)optopt, '\0' };
	const char *last = argv[optind - 1], *eq = strchr(last, '=');
	bool is_long = !optopt || optopt > 255 ||
		       (c == ':' && !strncmp(last, "--", 2));
	const char *name = is_long ? last : opt;
	size_t i;

	/* "--all=x": getopt gives --all's value as optopt. */
	for (i = 0; c == '?' && eq && !strncmp(last, "--", 2) &&
		    longopts[i].name; i++)
		if (longopts[i].val == optopt &&
		    !strncmp(longopts[i].name, last + 2, eq - last - 2))
			return xb_usage_error("du", "option '%.*s' takes "
					      "no value", (int)(eq - last),
					      last);

	if (c == ':')
		return xb_usage_error("du", "option '%s' needs a value", name);
	return xb_usage_error("du", "unknown option '%s'", name);
}

/* The options: XB_EXIT_OK to go on (or, with @r->help, to stop after
 * --help), else the exit status of a usage error. */
static enum xb_exit
parse_options(struct du_run *r, int argc, char **argv)
{
	static const char *const bys[] = { "uid", "gid", "projid", "type",
		"ext", "age", "size-class", NULL };
	static const char *const times[] = { "mtime", "atime", "ctime",
		"birth", NULL };
	static const char *const colors[] = { "owner", "age", NULL };
	bool summarize = false;
	enum xb_exit ret;
	uint64_t v;
	int c, i, err;

	/* 0, not 1: getopt starts afresh (the fuzzer calls us many times). */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":0abB:cd:hj:klmo:sSt:xX:",
				longopts, NULL)) != -1) {
		ret = XB_EXIT_OK;
		switch (c) {
		case '0': r->nul = true; break;
		case 'a': r->all = true; break;
		case OPT_APPARENT: r->apparent = true; break;
		case OPT_NO_SYNC: r->no_sync = true; break;
		case 'B': ret = parse_units(r, optarg); break;
		case 'b':
			r->apparent = true;
			r->units = (struct du_units){ 1, 0 };
			break;
		case 'c': r->total = true; break;
		case 'd':
			err = xb_parse_u64(optarg, UINT32_MAX, &r->max_depth);
			if (err)
				ret = xb_bad_number("du", "-d", optarg, err,
						    UINT32_MAX);
			r->depth_given = true;
			break;
		case 'h':
			r->units = (struct du_units){ 1,
				DU_HUMAN_AUTOSCALE | DU_HUMAN_SI |
				DU_HUMAN_BASE_1024 };
			break;
		case OPT_SI:
			r->units = (struct du_units){ 1,
				DU_HUMAN_AUTOSCALE | DU_HUMAN_SI };
			break;
		case 'k': r->units = (struct du_units){ 1024, 0 }; break;
		case 'm': r->units = (struct du_units){ 1 << 20, 0 }; break;
		case OPT_INODES: r->inodes = true; break;
		case 'l': r->count_links = true; break;
		case 'S': r->separate_dirs = true; break;
		case 's': summarize = true; break;
		case 't': ret = du_parse_threshold(optarg, &r->threshold); break;
		case OPT_EXCLUDE: ret = du_add_exclude(r, optarg); break;
		case 'X': ret = du_add_exclude_file(r, optarg); break;
		case 'x': break;
		case 'j':
			ret = parse_count("-j", optarg, XB_MAX_THREADS, &v);
			r->threads = (unsigned int)v;
			break;
		case OPT_BY:
			ret = pick("--by", optarg, bys, &i);
			r->by = (enum du_by)i;
			r->by_given = true;
			break;
		case OPT_TIME:
			ret = pick("--time", optarg, times, &i);
			r->time = (enum xbulk_time)i;
			break;
		case OPT_TOP:
			ret = parse_count("--top", optarg, 1 << 24, &v);
			r->top = (size_t)v;
			break;
		case OPT_TOP_DIRS: r->top_dirs = true; break;
		case 'o': ret = xb_parse_format("du", optarg, &r->format); break;
		case OPT_SVG: r->svg_file.path = optarg; break;
		case OPT_SVG_DEPTH:
			ret = parse_count("--svg-depth", optarg, 64, &v);
			r->svg_depth = (unsigned int)v;
			break;
		case OPT_COLOR_BY:
			ret = pick("--color-by", optarg, colors, &i);
			r->color = (enum du_color_by)i;
			r->color_given = true;
			break;
		case OPT_NCDU: r->ncdu_file.path = optarg; break;
		case OPT_PROMETHEUS: r->prom_file.path = optarg; break;
		case OPT_MAX_SERIES:
			ret = parse_count("--max-series", optarg, 1 << 20, &v);
			r->prom.max_series = (size_t)v;
			break;
		case OPT_UNREACHABLE: r->unreachable = true; break;
		case OPT_TREND: r->trend = true; break;
		case OPT_SINCE: r->since = optarg; break;
		case OPT_ROWS:
			ret = parse_count("--rows", optarg, 1 << 24, &v);
			r->rows = (size_t)v;
			break;
		case XB_OPT_MEMORY:
		case XB_OPT_TMPDIR:
			ret = xb_memory_option(&r->mem, "du", c, optarg);
			break;
		case XB_OPT_STATS:
		case XB_OPT_STATS_FILE:
		case XB_OPT_PROGRESS:
			ret = xb_run_stats_option(&r->stats, "du", c, optarg);
			break;
		case XB_OPT_STRATEGY:
			ret = xb_strategy_option("du", optarg, false,
						 &r->strategy);
			break;
		case OPT_HELP:
			fputs(help, stdout);
			r->help = true;
			return XB_EXIT_OK;
		default:
			return bad_option(c, argv);
		}
		if (ret)
			return ret;
	}
	if (summarize && r->all)
		return xb_usage_error("du",
			"cannot both summarize and show all entries");
	if (summarize && r->depth_given && r->max_depth)
		return xb_usage_error("du",
			"summarizing conflicts with --max-depth=%llu",
			(unsigned long long)r->max_depth);
	if (summarize && r->depth_given)
		xb_error("du", "warning: summarizing is the same as using "
			 "--max-depth=0");
	/* The treemap's depth is -d's, not -s's: -s draws the levels
	 * below each PATH all the same. */
	if (!r->svg_depth)
		r->svg_depth = r->depth_given && r->max_depth &&
			       r->max_depth <= 64
			       ? (unsigned int)r->max_depth : 3;
	if (summarize) {
		r->max_depth = 0;
		r->depth_given = true;
	}
	if (r->unreachable && r->strategy == XBULK_STRATEGY_WALK)
		return xb_usage_error("du", "--unreachable needs the whole "
				      "filesystem: not --strategy walk");
	if (r->top_dirs && !r->top)
		return xb_usage_error("du", "--top-dirs needs --top N");
	if (r->rows && !r->since)
		return xb_usage_error("du", "--rows needs --since OLD");
	/* --trend --svg: the chart's lines, one colour each */
	if (r->trend && r->svg_file.path && r->prom.max_series &&
	    (r->prom.max_series < 2 || r->prom.max_series > DU_CHART_LINES))
		return xb_usage_error("du", "--max-series: 2 to %d lines with "
				      "--trend --svg (a colour each)",
				      DU_CHART_LINES);
	if (r->trend && r->svg_file.path)
		r->chart_lines = r->prom.max_series;
	else if (r->prom.max_series && !r->prom_file.path)
		return xb_usage_error("du", "--max-series needs --prometheus "
				      "FILE or --trend --svg FILE");
	if (!r->prom.max_series)
		r->prom.max_series = DU_PROM_MAX_SERIES;
	ret = du_check_conflicts(r);
	if (!ret)
		ret = xb_memory_setup(&r->mem, "du");
	if (ret)
		return ret;
	if (r->inodes && r->apparent)
		xb_error("du", "warning: options --apparent-size and -b are "
			 "ineffective with --inodes");
	return XB_EXIT_OK;
}

/* The treemap's heading: every PATH, as given, ", " between; or NULL. */
static char *
join_paths(char **paths, int npaths)
{
	size_t len = 1, n = 0;
	char *s;
	int i;

	for (i = 0; i < npaths; i++)
		len += strlen(paths[i]) + 2;
	s = malloc(len);
	for (i = 0; s && i < npaths; i++)
		n += (size_t)sprintf(s + n, "%s%s", i ? ", " : "", paths[i]);
	return s;
}

/* Bulkstat fields the run needs: each costs bytes per inode kept. */
static uint32_t
fields_of(const struct du_run *r)
{
	static const uint32_t time_field[XBULK_TIME_NR] = {
		[XBULK_TIME_MTIME] = XBULK_F_MTIME,
		[XBULK_TIME_ATIME] = XBULK_F_ATIME,
		[XBULK_TIME_CTIME] = XBULK_F_CTIME,
		[XBULK_TIME_BTIME] = XBULK_F_BTIME,
	};
	static const uint32_t by_field[DU_BY_NR] = {
		[DU_BY_UID] = XBULK_F_OWNER,
		[DU_BY_GID] = XBULK_F_OWNER,
		[DU_BY_PROJID] = XBULK_F_PROJID,
		[DU_BY_SIZE_CLASS] = XBULK_F_SIZE,
	};
	/* hard links: XBULK_ENTRY_LINKED says which */
	uint32_t f = XBULK_F_BLOCKS;

	if (r->apparent || r->by_given)
		f |= XBULK_F_SIZE;
	if (r->by_given)
		f |= r->by == DU_BY_AGE ? time_field[r->time]
					   : by_field[r->by];
	if (r->svg_file.path)
		f |= XBULK_F_OWNER | time_field[r->time];
	if (r->ncdu_file.path)
		f |= XBULK_F_SIZE | XBULK_F_NLINK;
	if (r->unreachable)
		f |= XBULK_F_OWNER | XBULK_F_SIZE | XBULK_F_NLINK;
	if (r->prom_file.path)
		f |= XBULK_F_OWNER | XBULK_F_PROJID | XBULK_F_SIZE;
	return f;
}

/* Open the filesystem of @path (of its directory if it is neither a
 * directory nor a regular file: a symbolic link is not followed, as du
 * -P does not follow it); 0 or a negative errno. */
static int
try_fs(const char *path, struct xbulk_fs **fs)
{
	struct stat st;
	char *copy;
	int err;

	if (lstat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode))
		return xbulk_fs_open(path, XBULK_ABI_AUTO, fs);
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	err = xbulk_fs_open(dirname(copy), XBULK_ABI_AUTO, fs);
	free(copy);
	return err;
}

/*
 * The filesystem of the first PATH that opens on XFS; the walks name the
 * others that are not on its mount, as du names what it cannot access.
 * None: each PATH named, as du names what it cannot access.
 */
static enum xb_exit
open_fs(char **paths, int npaths, struct xbulk_fs **fs)
{
	int i;

	for (i = 0; i < npaths; i++)
		if (*paths[i] && !try_fs(paths[i], fs))
			return XB_EXIT_OK;
	for (i = 0; i < npaths; i++)
		du_path_error(paths[i], *paths[i] ? try_fs(paths[i], fs) : 0);
	return XB_EXIT_FAILURE;
}

/* Start --ncdu FILE before the scan, its top @path (the only PATH): a
 * directory, named by its absolute path as ncdu names it. */
static enum xb_exit
open_ncdu(struct du_run *r, const struct xbulk_fs *fs, const char *path)
{
	struct stat st;
	enum xb_exit ret;

	/* ncdu -o - is standard output, where du's lines go: not a file
	 * named "-" by surprise (./- is one) */
	if (!strcmp(r->ncdu_file.path, "-"))
		return xb_usage_error("du", "--ncdu: the export goes to a "
				      "file, not to standard output (./- "
				      "names a file -)");
	if (lstat(path, &st) || !(r->ncdu_top = realpath(path, NULL))) {
		du_path_error(path, -errno);
		return XB_EXIT_FAILURE;
	}
	if (!S_ISDIR(st.st_mode))
		return xb_usage_error("du", "--ncdu: %s is not a directory "
				      "(ncdu's export starts at one)", path);
	ret = du_file_open(&r->ncdu_file, fs);
	if (!ret)
		du_ncdu_start(&r->ncdu, r->ncdu_file.out, r->ncdu_top, r->now);
	return ret;
}

static void
on_problem(void *arg, const struct xbulk_names_problem *p)
{
	struct du_run *r = arg;
	char text[XB_AG_FAULT_TEXT];

	/*
	 * Unreadable directories and inodes are named when a walk reaches
	 * them, as du names what it cannot read or stat: damage outside
	 * the PATHs does not change their figures (du -s exits 0 there).
	 * --unreachable walks nothing: what lies below a directory it
	 * cannot read is no path's as far as it can tell, so it says so.
	 */
	if (r->unreachable && p->kind == XBULK_PROBLEM_UNREADABLE) {
		r->failed = true;
		xb_error("du", "cannot read directory '%s': %s%s; what lies "
			 "below it is listed as unreachable",
			 p->path ? p->path : "?", strerror(-p->err),
			 xb_dir_open_hint(p->err));
		return;
	}
	if (p->kind == XBULK_PROBLEM_UNREADABLE ||
	    p->kind == XBULK_PROBLEM_BAD_INODE)
		return;
	r->failed = true;
	if (p->kind == XBULK_PROBLEM_AG_FAULT) {
		xb_ag_fault_text(p->ag_fault, text, sizeof(text));
		xb_error("du", "%s: %s (its inodes are not counted)", p->path,
			 text);
		return;
	}
	xb_error("du", "%s: directory tree damaged (inode %llu)",
		 p->path ? p->path : "?", (unsigned long long)p->ino);
}

/* The names' fold hook: files du prints no line for. */
static bool
fold(void *arg, const struct xfs_bulkstat *bs, uint64_t *value)
{
	const struct du_run *r = arg;

	return xbulk_du_fold(&r->acct, bs, value);
}

static enum xb_exit
build(struct du_run *r, struct xbulk_fs *fs, char **paths, int npaths,
      const volatile int *cancel)
{
	struct xbulk_names_opts o = {
		.size = sizeof(o),
		.threads = r->threads,
		.fields = fields_of(r),
		.problem = on_problem,
		.arg = r,
		.cancel = cancel,
		.memory = r->mem.memory,
		.tmpdir = r->mem.tmpdir,
		.fold = r->fold ? fold : NULL,
		.progress = xb_progress_build(&r->stats.progress, "du", fs),
		/* du sums whole subtrees: no depth limit; --unreachable
		 * looks at every inode */
		.paths = (const char *const *)paths,
		.npaths = (size_t)npaths,
		.strategy = r->unreachable ? XBULK_STRATEGY_SCAN : r->strategy,
	};
	struct xbulk_names_result res = { .size = sizeof(res) };
	int err = xbulk_names_build(fs, &o, &r->names, &res);

	xb_run_stats_names(&r->stats, &res);

	/* Churn: what a removed or renamed directory held is not in the
	 * figures, so they are not whole (find says the same). */
	if (!err && res.dirs_gone) {
		xb_dirs_gone("du", res.dirs_gone);
		r->failed = true;
	}
	if (!err)
		return XB_EXIT_OK;
	if (err == -EINTR)
		return xb_signal_exit_status();
	return xb_names_error("du", fs, paths[0], &r->mem, &res, err);
}

enum xb_exit
xb_cmd_du(int argc, char **argv)
{
	static char dot[] = ".";
	char *dflt[] = { dot };
	struct du_run r = {
		.max_depth = UINT64_MAX,
		.threads = xb_online_cpus(),
		.out = stdout,
		.svg_file = { .opt = "--svg", .mode = 0600 },
		.ncdu_file = { .opt = "--ncdu", .mode = 0600 },
		.prom_file = { .opt = "--prometheus", .mode = 0644 },
	};
	const volatile int *cancel;
	struct xbulk_fs *fs = NULL;
	enum xb_exit ret;
	char **paths;
	int npaths;

	setlocale(LC_NUMERIC, "");
	du_units_default(&r.units);
	ret = parse_options(&r, argc, argv);
	if (ret || r.help)
		return ret;
	/* du always prints: with stdout closed, fail before the scan. */
	if (xb_stdout_fd() < 0)
		return xb_write_error("du", -EBADF);
	paths = optind < argc ? argv + optind : dflt;
	npaths = optind < argc ? argc - optind : 1;
	if (r.trend && argc - optind != 1)
		return xb_usage_error("du", "--trend takes one DIR (a history "
				      "of xbulk snapshot --keep)");
	if (r.trend) {
		if (!r.depth_given)
			r.max_depth = 1;
		return du_trend(&r, paths[0]);
	}
	if (r.since && argc - optind != 1)
		return xb_usage_error("du", "--since OLD takes one PATH (a "
				      "mount point or a later snapshot)");
	if (r.since)
		return du_since(&r, r.since, paths[0]);
	if (r.ncdu_file.path && npaths > 1)
		return xb_usage_error("du", "--ncdu takes one PATH (an ncdu "
				      "export has one top)");
	if (r.prom_file.path && npaths > 1)
		return xb_usage_error("du", "--prometheus takes one PATH (its "
				      "series are labelled with it)");
	if (r.svg_file.path) {
		r.svg_title = join_paths(paths, npaths);
		if (!r.svg_title) {
			ret = XB_EXIT_FAILURE;
			xb_error("du", "%s", strerror(ENOMEM));
			goto out;
		}
	}
	ret = open_fs(paths, npaths, &fs);
	if (!ret)
		ret = xb_memory_check_fs(&r.mem, "du", fs);
	if (!ret && xb_run_stats_begin(&r.stats, "du", paths[0]))
		ret = XB_EXIT_FAILURE;
	r.now = (int64_t)time(NULL);
	if (!ret)
		ret = du_file_open(&r.svg_file, fs);
	if (!ret && r.ncdu_file.path)
		ret = open_ncdu(&r, fs, paths[0]);
	if (!ret && r.prom_file.path)
		ret = du_prom_open(&r, fs, paths[0]);
	/* names of owners, groups and projects: the walks' and
	 * --unreachable's (--by) alike */
	if (!ret && xbulk_ids_new(&r.ids)) {
		xb_error("du", "%s", strerror(ENOMEM));
		ret = XB_EXIT_FAILURE;
	}
	if (ret)
		goto out;
	r.blocklog = xbulk_fs_blocklog(fs);
	cancel = xb_catch_signals();
	/* apparent sizes as stat() gives them: delayed writes first */
	if (!r.no_sync && (fields_of(&r) & XBULK_F_SIZE) &&
	    xb_sync_fs("du", fs, paths[0]))
		r.failed = true;
	du_acct_init(&r, npaths);
	ret = build(&r, fs, paths, npaths, cancel);
	if (ret)
		goto out;
	/* the walks' entries; --unreachable's sweep counts none */
	if (r.unreachable)
		xb_progress_end(&r.stats.progress);
	else
		xb_progress_stage(&r.stats.progress, "du", "walk", 0, true);
	setvbuf(stdout, NULL, _IOFBF, 1 << 20);
	du_print_header(&r);
	ret = r.unreachable ? du_unreachable(&r) : du_walks(&r, paths, npaths);
	if (!ret && *cancel)
		ret = xb_signal_exit_status();
	if ((fflush(stdout) || ferror(stdout)) && !ret)
		ret = xb_write_error("du", -errno);
	if (!ret && r.svg_file.tmp)
		ret = du_file_place(&r.svg_file);
	if (!ret && r.ncdu_file.tmp)
		ret = du_file_place(&r.ncdu_file);
	if (!ret && r.prom_file.tmp)
		ret = du_file_place(&r.prom_file);
	if (!ret && r.failed)
		ret = XB_EXIT_FAILURE;
out:
	/* after du's output; what the budget did, walks included */
	r.stats.completed = !ret;
	xb_run_stats_memory(&r.stats, &r.mem, r.names);
	if (xb_run_stats_end(&r.stats) && !ret)
		ret = XB_EXIT_FAILURE;
	free(r.svg_title);
	/* Not written (an error, a signal): the old picture stays. */
	du_file_abort(&r.svg_file);
	du_file_abort(&r.ncdu_file);
	du_file_abort(&r.prom_file);
	du_prom_free(&r.prom);
	free(r.ncdu_top);
	while (r.nexclude)
		free(r.exclude[--r.nexclude]);
	free(r.exclude);
	xbulk_names_free(r.names);
	xbulk_ids_free(r.ids);
	xbulk_fs_close(fs);
	return ret;
}
