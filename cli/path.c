// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk path: every path of the named inodes, as xfs_io 6.13's parent -p
 * and GNU find PATH -inum N print them.  On a filesystem with parent
 * pointers (mkfs.xfs -n parent=1) a few XFS_IOC_GETPARENTS_BY_HANDLE
 * calls per inode answer it (libxbulk's parent pointer reader); without
 * them, the names engine's scan and walk of the whole tree does, and the
 * command says so.  Each inode is first looked up with bulkstat (is it
 * allocated, its generation).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "path.h"

static const char cmd[] = "path";

static const char help[] =
"Usage: xbulk path [-0] [-j threads] [-w] [--memory size] [--tmpdir dir]\n"
"                  PATH INUM[:GEN]...\n"
"\n"
"Prints every path of each inode (all of its hard links) under PATH, a\n"
"directory of the XFS filesystem, as find PATH -inum INUM prints them: PATH\n"
"and the names below it, each inode's paths in byte order, the inodes in\n"
"the order given.  GEN (decimal, or hex with 0x as bulkstat prints\n"
"bs_gen) must be the inode's generation.  With parent pointers\n"
"(mkfs.xfs -n parent=1, Linux 6.10 or later) a few ioctls per inode\n"
"answer it; without them the whole tree is walked, and a line on stderr\n"
"says so.  Each inode that has no path, is not allocated or cannot be\n"
"read gets a line on stderr (exit status 1).\n"
"\n"
"   -0         End each path with a NUL instead of a newline.\n"
"   -j <nr>    Threads for the walk (default: online CPUs).\n"
"   -w         Walk the tree even if the filesystem has parent pointers.\n"
XB_MEMORY_HELP
"              (Both for the walk; parent pointers need no budget.)\n"
"   -h, --help Show this help.\n";

/* A generation: decimal, or hex after 0x (as bulkstat prints bs_gen).
 * XB_EXIT_OK or XB_EXIT_USAGE. */
static enum xb_exit
parse_gen(const char *s, uint32_t *gen)
{
	const char *p = s + 2;
	uint64_t v = 0;
	int err;

	if (strncmp(s, "0x", 2)) {
		err = xb_parse_u64(s, UINT32_MAX, &v);
		if (err)
			return xb_bad_number(cmd, "generation", s, err,
					     UINT32_MAX);
	} else {
		if (!*p || strspn(p, "0123456789abcdefABCDEF") != strlen(p))
			return xb_usage_error(cmd,
				"generation: '%s' is not a hex number", s);
		for (; *p && v <= UINT32_MAX; p++)
			v = v * 16 + (uint64_t)(*p <= '9' ? *p - '0' :
						(*p | 0x20) - 'a' + 10);
		if (v > UINT32_MAX)
			return xb_usage_error(cmd,
				"generation: '%s' is out of range (largest is 0xffffffff)",
				s);
	}
	*gen = (uint32_t)v;
	return XB_EXIT_OK;
}

/* Parse "INUM[:GEN]"; XB_EXIT_OK or XB_EXIT_USAGE. */
static enum xb_exit
parse_target(const char *arg, struct xb_path_target *t)
{
	const char *colon = strchr(arg, ':');
	char ino[32];
	int err;

	memset(t, 0, sizeof(*t));
	t->arg = arg;
	if (!colon) {
		err = xb_parse_u64(arg, UINT64_MAX, &t->ino);
		return err ? xb_bad_number(cmd, "inode", arg, err, UINT64_MAX) :
			     XB_EXIT_OK;
	}
	if ((size_t)(colon - arg) >= sizeof(ino))
		return xb_usage_error(cmd, "inode: '%s' is not INUM or INUM:GEN",
				      arg);
	memcpy(ino, arg, (size_t)(colon - arg));
	ino[colon - arg] = '\0';
	err = xb_parse_u64(ino, UINT64_MAX, &t->ino);
	if (err)
		return xb_bad_number(cmd, "inode", ino, err, UINT64_MAX);
	t->has_gen = true;
	return parse_gen(colon + 1, &t->gen);
}

/*
 * Look @t up with bulkstat: allocated, its generation as asked.  Returns
 * 0 (t->gen set, or t->skip if the inode is reported and skipped), or
 * the negative errno of bulkstat if the whole filesystem fails
 * (reported).  An inode the kernel cannot read holds its parent pointers
 * too: with @walk its names still come from the directories that list it
 * (reported, not skipped).
 */
static int
look_up(struct xbulk_fs *fs, const char *path, bool walk,
	struct xb_path_target *t)
{
	struct xfs_bulkstat bs;
	bool allocated = true;
	int err;

	err = xbulk_bulkstat_single(fs, t->ino, 0, &bs);
	if (err == -ENOENT) {
		xbulk_inode_allocated(fs, t->ino, &allocated);
		if (!allocated)
			xb_error(cmd, "inode %s is not allocated", t->arg);
		else
			xb_error(cmd, "inode %s is allocated but not reported by bulkstat (filesystem metadata, which has no path, or an inode the kernel cannot read)",
				 t->arg);
		t->skip = true;
		return 0;
	}
	if (err == -EUCLEAN || err == -EBADMSG ||
	    (err == -EIO && xbulk_fs_readable(fs))) {
		xb_error(cmd, "inode %s: %s%s", t->arg, strerror(-err),
			 walk ? " (its names from the directories follow)" :
			 " (its parent pointers are in it; -w finds its names in the directories)");
		t->reported = walk;
		t->skip = !walk;
		return 0;
	}
	if (err) {
		xb_ioctl_error(cmd, fs, path, "bulkstat", err);
		return err;
	}
	if (t->has_gen && bs.bs_gen != t->gen) {
		xb_error(cmd, "inode %s: generation 0x%x is not the inode's (it is 0x%x now: freed and used again)",
			 t->arg, t->gen, bs.bs_gen);
		t->skip = true;
		return 0;
	}
	t->gen = bs.bs_gen;
	t->is_dir = S_ISDIR(bs.bs_mode);
	return 0;
}

static int
cmp_paths(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Print @t's paths in byte order; returns 0 or a negative errno. */
static int
print_paths(struct xb_path_target *t, char end)
{
	size_t i;

	if (t->npaths > 1)
		qsort(t->paths, t->npaths, sizeof(*t->paths), cmp_paths);
	for (i = 0; i < t->npaths; i++) {
		fputs(t->paths[i], stdout);
		putchar(end);
	}
	return ferror(stdout) ? -EIO : 0;
}

struct path_opts {
	const char	*path;
	char		end;		/* '\n' or '\0' */
	bool		walk;		/* -w */
	unsigned int	threads;
	struct xb_memory mem;		/* --memory, --tmpdir: the walk's */
	bool		help;		/* --help printed: done */
};

/* XB_EXIT_OK to go on (or, with @o->help, to stop after --help), else the
 * exit status of a usage error. */
static enum xb_exit
parse_opts(int argc, char **argv, struct path_opts *o)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		XB_MEMORY_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	enum xb_exit ret;
	uint64_t v;
	int c, err;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:0hj:w", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case '0':
			o->end = '\0';
			break;
		case 'h':
			fputs(help, stdout);
			o->help = true;
			return XB_EXIT_OK;
		case 'j':
			err = xb_parse_u64(optarg, XB_MAX_THREADS, &v);
			if (err)
				return xb_bad_number(cmd, "-j", optarg, err,
						     XB_MAX_THREADS);
			if (v == 0)
				return xb_usage_error(cmd,
					"-j: at least 1 thread is needed");
			o->threads = (unsigned int)v;
			break;
		case 'w':
			o->walk = true;
			break;
		case XB_OPT_MEMORY:
		case XB_OPT_TMPDIR:
			ret = xb_memory_option(&o->mem, cmd, c, optarg);
			if (ret)
				return ret;
			break;
		default:
			return xb_bad_option(cmd, c, argv);
		}
	}
	if (optind >= argc)
		return xb_usage_error(cmd, "missing PATH");
	if (optind + 1 >= argc)
		return xb_usage_error(cmd, "missing INUM");
	o->path = argv[optind];
	return xb_memory_setup(&o->mem, cmd);
}

/* Look every target up, then find their paths; returns the status. */
static enum xb_exit
run(struct xbulk_fs *fs, const struct path_opts *o, struct xb_path_target *t,
    int n)
{
	const volatile int *cancel = xb_catch_signals();
	enum xb_exit ret, status = XB_EXIT_OK;
	bool walk = o->walk || !xbulk_fs_has_parents(fs);
	int i;

	for (i = 0; i < n && !*cancel; i++) {
		if (look_up(fs, o->path, walk, &t[i]))
			return XB_EXIT_FAILURE;
		if (t[i].skip)
			status = XB_EXIT_FAILURE;
	}
	if (*cancel)
		return xb_signal_exit_status();
	if (walk && !o->walk)
		xb_error(cmd, "%s: no parent pointers (mkfs.xfs -n parent=1): walking the whole tree",
			 o->path);
	ret = walk ? xb_path_walk(fs, o->path, o->threads, &o->mem, t, n,
				  cancel, &status) :
		     xb_path_parents(fs, o->path, t, n, cancel);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		if (t[i].skip)
			continue;
		if (t[i].npaths == 0 && !t[i].reported) {
			xb_error(cmd, "inode %s: no path under %s reaches it (an open file already unlinked, a file elsewhere on the filesystem, or damage)",
				 t[i].arg, o->path);
			status = XB_EXIT_FAILURE;
		}
		if (t[i].reported)
			status = XB_EXIT_FAILURE;
		if (print_paths(&t[i], o->end))
			break;
	}
	if (fflush(stdout) || ferror(stdout))
		return xb_write_error(cmd, errno ? -errno : -EIO);
	return status;
}

enum xb_exit
xb_cmd_path(int argc, char **argv)
{
	struct path_opts o = { .end = '\n', .threads = xb_online_cpus() };
	struct xb_path_target *t;
	struct xbulk_fs *fs;
	enum xb_exit ret;
	struct stat st;
	int i, n;

	ret = parse_opts(argc, argv, &o);
	if (ret || o.help)
		return ret;
	/* the paths go there: with it closed, fail before any work */
	if (xb_stdout_fd() < 0)
		return xb_write_error(cmd, -EBADF);
	n = argc - optind - 1;
	t = calloc((size_t)n, sizeof(*t));
	if (!t)
		return XB_EXIT_FAILURE;
	for (i = 0, ret = XB_EXIT_OK; i < n && !ret; i++)
		ret = parse_target(argv[optind + 1 + i], &t[i]);
	if (!ret)
		ret = xb_open_fs(cmd, o.path, XBULK_ABI_AUTO, &fs);
	if (!ret) {
		if (fstat(xbulk_fs_fd(fs), &st) == 0 && !S_ISDIR(st.st_mode))
			ret = xb_usage_error(cmd, "%s: PATH must be a directory",
					     o.path);
		else if (!(ret = xb_memory_check_fs(&o.mem, cmd, fs)))
			ret = run(fs, &o, t, n);
		xbulk_fs_close(fs);
	}
	xb_path_free_targets(t, n);
	return ret;
}
