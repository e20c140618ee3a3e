// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk bulkstat_single: the stat records of the named inodes, as xfs_io
 * -c bulkstat_single, except that an inode that is not allocated is an
 * error instead of a silent record of the next allocated one, and an
 * inode the kernel cannot read is named and the others still printed.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char cmd[] = "bulkstat_single";

static const char help[] =
"Usage: xbulk bulkstat_single [-d] [-m] [-o text|jsonl|csv] [-v 1|5] PATH\n"
"                             INUM|root...\n"
"\n"
"Queries the filesystem for the stat information of each named inode and\n"
"prints it, byte for byte as xfs_io -c bulkstat_single.  An inode that is\n"
"not allocated or cannot be read is reported on stderr and the others are\n"
"still printed (exit status 1).  PATH is any file or directory on the\n"
"XFS filesystem.\n"
"\n"
"   -d         Print debugging information.\n"
XB_METADIR_HELP
XB_FORMAT_HELP
"   -v <ver>   Use this version of the ioctl (1 or 5; default 5,\n"
"              falling back to 1 on kernels without it).\n"
"   -h, --help Show this help.\n"
"\n"
"Pass in inode numbers or a special inode name:\n"
"    root     Root directory.\n";

struct target {
	uint64_t	ino;
	uint32_t	flags;	/* XFS_BULK_IREQ_SPECIAL for "root" */
};

/* Parse the INUM|root arguments; XB_EXIT_OK or XB_EXIT_USAGE. */
static enum xb_exit
parse_targets(char **args, int n, struct target *t)
{
	int i, err;

	for (i = 0; i < n; i++) {
		t[i].flags = 0;
		if (!strcmp(args[i], "root")) {
			t[i].ino = XFS_BULK_IREQ_SPECIAL_ROOT;
			t[i].flags = XFS_BULK_IREQ_SPECIAL;
			continue;
		}
		err = xb_parse_u64(args[i], UINT64_MAX, &t[i].ino);
		if (err)
			return xb_bad_number(cmd, "inode", args[i], err,
					     UINT64_MAX);
	}
	return XB_EXIT_OK;
}

/* Does @fs have a metadata directory tree that bulkstat hides (no -m)? */
static bool
metadir_hidden(const struct xbulk_fs *fs)
{
	return xbulk_fs_has_metadir(fs) &&
	       !xbulk_fs_metadir(fs);
}

/*
 * Report a failed lookup of @arg; returns true if the other inodes may go
 * on (the failure concerns this inode), false if it concerns the whole
 * filesystem (no CAP_SYS_ADMIN, a mount that refuses bulkstat, a
 * shutdown...).
 */
static bool
report_failure(struct xbulk_fs *fs, const char *path, const char *arg,
	       const struct target *t, int err, const char *hint_mnt)
{
	bool allocated = true;

	if (err == -EOPNOTSUPP && xbulk_fs_metadir(fs)) {
		xb_ioctl_error(cmd, fs, path, "bulkstat", err);
		return false;
	}
	if (err == -EOPNOTSUPP) {
		xb_error(cmd, "%s: the v1 ioctl cannot look up special inodes; use -v 5",
			 arg);
		return true;
	}
	if (err == -EIO && !xbulk_fs_readable(fs)) {
		xb_ioctl_error(cmd, fs, path, "bulkstat", err);
		return false;
	}
	if (err != -ENOENT && err != -EUCLEAN && err != -EBADMSG &&
	    err != -EIO) {
		xb_ioctl_error(cmd, fs, path, "bulkstat", err);
		return false;
	}
	/* v5 answers for the next allocated inode: was this one free? */
	if (!t->flags)
		xbulk_inode_allocated(fs, t->ino, &allocated);
	if (!allocated)
		xb_error(cmd, "inode %s is not allocated", arg);
	else if (err == -ENOENT && metadir_hidden(fs))
		xb_error(cmd, "inode %s is allocated but not reported by bulkstat (a metadata directory inode, which -m shows, or an inode the kernel cannot read)",
			 arg);
	else if (err == -ENOENT)
		xb_error(cmd, "inode %s is allocated but not reported by bulkstat (filesystem metadata such as quota or realtime inodes, or an inode the kernel cannot read)",
			 arg);
	else
		xb_report_unreadable(cmd, t->flags ? NULL : hint_mnt, arg,
				     t->ino, err);
	return true;
}

/* Look up and print the @n targets @t; the exit status. */
static enum xb_exit
lookup_all(struct xbulk_fs *fs, const char *path, char **args,
	   const struct target *t, int n, bool debug,
	   const struct xb_formatter *fmt)
{
	const volatile int *cancel = xb_catch_signals();
	enum xb_exit status = XB_EXIT_OK;
	struct xbulk_out *out;
	struct xfs_bulkstat bs;
	int i, err = 0;
	char *p, *hint_mnt = NULL;

	if (xbulk_out_new(xb_stdout_fd(), 64 * 1024, &out))
		return XB_EXIT_FAILURE;
	if (fmt->header) {
		/* The buffer is empty and far larger than a header. */
		out->len = strlen(fmt->header);
		memcpy(out->buf, fmt->header, out->len);
	}
	for (i = 0; i < n && !*cancel; i++) {
		int lookup = xbulk_bulkstat_single(fs, t[i].ino, t[i].flags,
						   &bs);

		if (lookup) {
			/* Keep stdout and stderr in order on a terminal. */
			err = xbulk_out_flush(out);
			if (err)
				break;
			status = XB_EXIT_FAILURE;
			if (!hint_mnt)
				hint_mnt = xb_hint_mount(path);
			if (!report_failure(fs, path, args[i], &t[i], lookup,
					    hint_mnt))
				break;
			continue;
		}
		p = xbulk_out_room(out, fmt->max + 128, &err);
		if (!p)
			break;
		if (debug)
			p += sprintf(p,
				"bulkstat_single: startino=%" PRIu64 " flags=0x%x ret=0\n",
				t[i].ino, t[i].flags);
		p += fmt->format(p, &bs);
		out->len = (size_t)(p - out->buf);
	}
	if (!err)
		err = xbulk_out_flush(out);
	xbulk_out_free(out);
	free(hint_mnt);
	if (err)
		return xb_write_error(cmd, err);
	return *cancel ? xb_signal_exit_status() : status;
}

enum xb_exit
xb_cmd_bulkstat_single(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum xbulk_abi abi = XBULK_ABI_AUTO;
	enum xb_format format = XB_FORMAT_TEXT;
	struct xbulk_fs *fs;
	struct target *t;
	bool debug = false, metadir = false;
	enum xb_exit ret;
	int c, n;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":dhmo:v:", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			debug = true;
			break;
		case 'h':
			fputs(help, stdout);
			return XB_EXIT_OK;
		case 'm':
			metadir = true;
			break;
		case 'o':
			ret = xb_parse_format(cmd, optarg, &format);
			if (ret)
				return ret;
			break;
		case 'v':
			ret = xb_parse_abi(cmd, optarg, &abi);
			if (ret)
				return ret;
			break;
		default:
			return xb_bad_option(cmd, c, argv);
		}
	}
	if (debug && format != XB_FORMAT_TEXT)
		return xb_usage_error(cmd, "-d works only with -o text");
	if (optind >= argc)
		return xb_usage_error(cmd, "missing PATH");
	n = argc - optind - 1;
	if (n == 0)
		return xb_usage_error(cmd, "missing INUM or root");
	t = calloc((size_t)n, sizeof(*t));
	if (!t)
		return XB_EXIT_FAILURE;
	ret = parse_targets(argv + optind + 1, n, t);
	if (!ret)
		ret = xb_open_fs(cmd, argv[optind], abi, &fs);
	if (!ret && metadir) {
		ret = xb_set_metadir(cmd, fs, argv[optind]);
		if (ret)
			xbulk_fs_close(fs);
	}
	if (!ret) {
		ret = lookup_all(fs, argv[optind], argv + optind + 1, t, n,
				 debug, &xb_bulkstat_formats[format]);
		xbulk_fs_close(fs);
	}
	free(t);
	return ret;
}
