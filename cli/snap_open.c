// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Opening snapshots for the snapshot, diff and export commands: a file
 * (one line naming what is wrong with it) or a live scan of a mount
 * point (the names engine's problems named, each one a failure), and
 * the files a scan leaves out.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "snap.h"

/* find -type's letter of @mode. */
char
xb_type_letter(uint32_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return 'f';
	case S_IFDIR: return 'd';
	case S_IFLNK: return 'l';
	case S_IFIFO: return 'p';
	case S_IFSOCK: return 's';
	case S_IFCHR: return 'c';
	case S_IFBLK: return 'b';
	default: return '?';
	}
}

void
xb_uuid_text(char *dst, const uint8_t *u)
{
	int i;

	for (i = 0; i < 16; i++)
		dst += sprintf(dst, "%02x%s", u[i],
			       i == 3 || i == 5 || i == 7 || i == 9 ? "-" : "");
}

void
xb_exclude_path(struct xb_exclude *x, dev_t dev, const char *path)
{
	struct stat st;

	/* lstat(): a symbolic link planted there must not take its
	 * target (any file) out of the scan */
	if (x->n < sizeof(x->ino) / sizeof(x->ino[0]) && !lstat(path, &st) &&
	    S_ISREG(st.st_mode) && st.st_dev == dev)
		x->ino[x->n++] = st.st_ino;
}

void
xb_exclude_writer(struct xb_exclude *x, dev_t dev,
		  const struct xbulk_snap_writer *w)
{
	uint64_t wdev, wino;

	xbulk_snap_writer_ident(w, &wdev, &wino);
	if (wdev == dev && x->n < sizeof(x->ino) / sizeof(x->ino[0]))
		x->ino[x->n++] = wino;
}

enum xb_exit
xb_snap_open_fs(const char *cmd, const char *path, struct xbulk_fs **fs)
{
	struct statx stx;

	if (xb_open_fs(cmd, path, XBULK_ABI_AUTO, fs))
		return XB_EXIT_TROUBLE;
	if (statx(xbulk_fs_fd(*fs), "", AT_EMPTY_PATH, STATX_BASIC_STATS,
		  &stx)) {
		xb_error(cmd, "%s: %s", path, strerror(errno));
	} else if ((stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
		   !(stx.stx_attributes & STATX_ATTR_MOUNT_ROOT)) {
		xb_error(cmd, "%s: not a mount point (a snapshot holds the "
			 "whole filesystem, its paths relative to the mount's "
			 "top: give the mount point)", path);
	} else {
		return XB_EXIT_OK;
	}
	xbulk_fs_close(*fs);
	*fs = NULL;
	return XB_EXIT_TROUBLE;
}

enum xb_exit
xb_snap_open(const char *cmd, const char *path, struct xbulk_snap **s)
{
	char why[256];

	if (!xbulk_snap_open(path, s, why, sizeof(why)))
		return XB_EXIT_OK;
	xb_error(cmd, "%s: %s", path, why);
	return XB_EXIT_TROUBLE;
}

struct live_ctx {
	const char	*cmd;
	uint64_t	problems;
};

static void
problem(void *arg, const struct xbulk_names_problem *p)
{
	static const char *const what[] = {
		[XBULK_PROBLEM_UNREADABLE] = "cannot read directory",
		[XBULK_PROBLEM_BAD_INODE] = "cannot read inode",
		[XBULK_PROBLEM_DIR_LINK] = "directory listed twice",
		[XBULK_PROBLEM_DOTDOT] = "directory whose '..' does not list "
					 "it",
		[XBULK_PROBLEM_CYCLE] = "directory in a cycle of parents",
	};
	struct live_ctx *c = arg;
	char text[XB_AG_FAULT_TEXT];

	c->problems++;
	if (p->kind == XBULK_PROBLEM_AG_FAULT) {
		xb_ag_fault_text(p->ag_fault, text, sizeof(text));
		xb_error(c->cmd, "%s: %s", p->path, text);
	} else if (p->path) {
		xb_error(c->cmd, "'%s': %s%s%s%s", p->path, what[p->kind],
			 p->err ? ": " : "", p->err ? strerror(-p->err) : "",
			 p->kind == XBULK_PROBLEM_UNREADABLE ?
			 xb_dir_open_hint(p->err) : "");
	} else {
		xb_error(c->cmd, "inode %llu: %s%s%s",
			 (unsigned long long)p->ino, what[p->kind],
			 p->err ? ": " : "", p->err ? strerror(-p->err) : "");
	}
}

enum xb_exit
xb_snap_live(const char *cmd, const char *path, struct xbulk_fs *fs,
	     unsigned int threads, uint32_t flags, const struct xb_exclude *x,
	     const struct xb_memory *mem, struct xb_run_stats *stats,
	     const volatile int *cancel, struct xbulk_snap **s)
{
	struct live_ctx c = { .cmd = cmd };
	struct xbulk_snap_scan_opts o = {
		.size = sizeof(o), .threads = threads, .flags = flags,
		.exclude = x->ino, .nexclude = x->n, .problem = problem,
		.arg = &c, .cancel = cancel, .memory = mem->memory,
		.tmpdir = mem->tmpdir,
		.progress = xb_progress_build(&stats->progress, cmd, fs),
	};
	struct xbulk_names_result r = { .size = sizeof(r) };
	int err;

	err = xbulk_snap_scan(fs, &o, s, &r);
	xb_run_stats_names(stats, &r);
	if (err == -EINTR)
		return xb_signal_exit_status();
	if (err) {
		xb_names_error(cmd, fs, path, mem, &r, err);
		return XB_EXIT_TROUBLE;
	}
	if (c.problems) {
		xb_error(cmd, "%s: %llu problem%s above: no snapshot of it",
			 path, (unsigned long long)c.problems,
			 c.problems == 1 ? "" : "s");
		xbulk_snap_close(*s);
		*s = NULL;
		return XB_EXIT_TROUBLE;
	}
	if (r.dirs_gone)
		/* churn: the names below them are missing this time */
		xb_dirs_gone(cmd, r.dirs_gone);
	return XB_EXIT_OK;
}

enum xb_exit
xb_snap_out_error(const char *cmd, int err)
{
	enum xb_exit ret = xb_write_error(cmd, err);

	return ret == XB_EXIT_PIPE ? ret : XB_EXIT_TROUBLE;
}

enum xb_exit
xb_snap_help(const char *cmd, const char *text)
{
	if (xb_stdout_fd() < 0)
		return xb_snap_out_error(cmd, -EBADF);
	fputs(text, stdout);
	return fflush(stdout) ? xb_snap_out_error(cmd, -errno) : XB_EXIT_OK;
}

enum xb_exit
xb_snap_write_error(const char *cmd, const char *path, int err)
{
	xb_error(cmd, "%s: cannot write the snapshot: %s", path,
		 strerror(-err));
	return XB_EXIT_TROUBLE;
}
