// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The files xbulk du writes besides its lines (--svg's picture, --ncdu's
 * export): made before the scan, so that one that cannot be written
 * fails at once, never on the filesystem scanned, and put in place only
 * when du has run through (xbulk/replace.h: unnamed until then, mode
 * 0600, --prometheus's 0644 for node_exporter, the old file kept on any
 * failure).
 */
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "du.h"

/*
 * Its directory is checked before anything is made there: writing on
 * the filesystem scanned would change what is measured.  Nothing someone
 * planted at the path (a symbolic link, a FIFO) is followed or opened.
 */
enum xb_exit
du_file_open(struct du_file *f, const struct xbulk_fs *fs)
{
	struct stat fst, st;
	char *copy;
	int fd, err;

	if (!f->path)
		return XB_EXIT_OK;
	if (!*f->path)
		return xb_usage_error("du", "%s: empty file name", f->opt);
	copy = strdup(f->path);
	if (!copy || (fs && fstat(xbulk_fs_fd(fs), &fst))) {
		free(copy);
		xb_error("du", "%s", strerror(errno));
		return XB_EXIT_FAILURE;
	}
	err = stat(dirname(copy), &st) ? -errno : 0;
	free(copy);
	if (!err && fs && st.st_dev == fst.st_dev)
		return xb_usage_error("du", "%s: %s is on the filesystem "
				      "being scanned; write it elsewhere",
				      f->opt, f->path);
	if (!err)
		err = xbulk_replace_open(f->path, f->mode, 0, &f->tmp);
	if (!err) {
		fd = dup(xbulk_replace_fd(f->tmp));
		f->out = fd < 0 ? NULL : fdopen(fd, "w");
		if (!f->out) {
			err = -errno;
			if (fd >= 0)
				close(fd);
		}
	}
	if (!err)
		return XB_EXIT_OK;
	if (err == -EEXIST)
		xb_error("du", "%s: %s: not a regular file: left as it is",
			 f->opt, f->path);
	else
		xb_error("du", "%s: %s: %s", f->opt, f->path, strerror(-err));
	return XB_EXIT_FAILURE;
}

enum xb_exit
du_file_close(struct du_file *f, int err)
{
	FILE *out = f->out;

	f->out = NULL;
	if (fclose(out) && !err)
		err = -errno;
	if (!err)
		return XB_EXIT_OK;
	xb_error("du", "%s: %s: %s", f->opt, f->path, strerror(-err));
	return XB_EXIT_FAILURE;
}

enum xb_exit
du_file_place(struct du_file *f)
{
	int err = xbulk_replace_commit(f->tmp);

	f->tmp = NULL;
	if (!err)
		return XB_EXIT_OK;
	xb_error("du", "%s: %s: %s", f->opt, f->path, strerror(-err));
	return XB_EXIT_FAILURE;
}

void
du_file_abort(struct du_file *f)
{
	if (f->out)
		fclose(f->out);
	f->out = NULL;
	xbulk_replace_abort(f->tmp);
	f->tmp = NULL;
}
