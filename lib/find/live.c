// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Files the expression itself changes: -delete (find's pred_delete()),
 * a file's status stat()ed again once a command may have changed it
 * (find stats a file when a test first needs it), and -empty of a
 * directory read again then (find's pred_empty() reads it each time).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "facts.h"
#include "actions.h"
#include "find.h"

const struct xbulk_entry *
xf_stat(struct xbulk_find *f, const struct xbulk_entry *file)
{
	int err = f->opts.restat ? f->opts.restat(f->opts.arg, file,
						  &f->restat) : -ENOSYS;

	if (err) {
		/* -ignore_readdir_race: gone since its directory was read,
		 * silently (find's get_statinfo()) */
		if (err != -ENOENT || !f->ignore_race)
			xf_problem(f, file->path, err);
		return NULL;
	}
	return &f->restat;
}

/*
 * Where the *at() calls reach @file: in its directory as the walk
 * reached it (the dir_fd hook: find's fts directory, the walk's fd), an
 * operand (or without the hook, or outside a walk) by its path, any
 * length (*@own: close *@at after, unless AT_FDCWD).  0 or -errno
 * (-ENOENT: that directory is gone).
 */
static int
file_at(struct xbulk_find *f, const struct xbulk_entry *file, int *at,
	const char **rel, bool *own)
{
	int fd = xf_walk_dir(f, file);

	*own = fd == -EINVAL;
	if (*own)
		return xbl_path_at(file->path, at, rel);
	if (fd < 0)
		return fd;
	*at = fd;
	*rel = file->path + file->name_off;
	return 0;
}

/* Remove @file (AT_REMOVEDIR in @flags for a directory). */
static int
unlink_file(struct xbulk_find *f, const struct xbulk_entry *file, int flags)
{
	const char *rel;
	bool own;
	int at, err = file_at(f, file, &at, &rel, &own);

	if (err)
		return err;
	err = unlinkat(at, rel, flags) ? -errno : 0;
	if (own && at >= 0)
		close(at);
	return err;
}

bool
xf_delete(struct xbulk_find *f, const struct xbulk_entry *file)
{
	const struct xfs_bulkstat *bs = file->bs;
	bool dir = S_ISDIR(bs->bs_mode);
	int err;

	/* find leaves the PATH "." alone */
	if (!file->depth && !strcmp(file->path, "."))
		return true;
	err = unlink_file(f, file, dir ? AT_REMOVEDIR : 0);
	if (err == -EISDIR && !dir)
		err = unlink_file(f, file, AT_REMOVEDIR);
	/* gone already: true with -ignore_readdir_race (find's
	 * pred_delete()) */
	if (err == -ENOENT && f->ignore_race)
		return true;
	if (err) {
		xf_error(f, "cannot delete %s: %s",
			 xf_quote(f, 0, file->path), strerror(-err));
		f->problems++;
		return false;
	}
	f->deleted = true;
	/* its other names show another link count */
	if (!dir && (bs->bs_nlink != 1 || (file->flags & XBULK_ENTRY_LAZY)) &&
	    !f->changed) {
		f->changed = true;
		if (f->opts.changed)
			f->opts.changed(f->opts.arg);
	}
	return true;
}

/* The entries of directory @file but "." and "..", read now. */
static int64_t
count_entries(struct xbulk_find *f, const struct xbulk_entry *file)
{
	char buf[16384];
	const char *rel;
	int64_t n = 0;
	long len = 0, pos;
	bool own;
	int at, fd, err = file_at(f, file, &at, &rel, &own);

	if (err)
		return err;
	/* no atime changes after a scan: without CAP_FOWNER a directory
	 * one does not own is unreadable (EPERM), as in the scan; a plain
	 * walk's is read as find reads it */
	fd = openat(at, rel, O_RDONLY | O_DIRECTORY | O_NOATIME | O_CLOEXEC);
	if (fd < 0 && errno == EPERM && (file->flags & XBULK_ENTRY_PLAIN))
		fd = openat(at, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	err = fd < 0 ? -errno : 0;
	if (own && at >= 0)
		close(at);
	while (!err && (len = getdents64(fd, buf, sizeof(buf))) > 0) {
		for (pos = 0; pos < len;) {
			const struct dirent64 *de = (void *)(buf + pos);

			pos += de->d_reclen;
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				n++;
		}
	}
	if (!err && len < 0)
		err = -errno;
	if (fd >= 0)
		close(fd);
	return err ? err : n;
}

int64_t
xf_dir_entries(struct xbulk_find *f, const struct xbulk_entry *file)
{
	int64_t n;

	if (!f->changed && !(file->flags & (XBULK_ENTRY_LIVE |
					    XBULK_ENTRY_LAZY)))
		return (int64_t)file->nentries;
	n = count_entries(f, file);
	if (n < 0) {
		xf_problem(f, file->path, (int)n);
		return -1;
	}
	return n;
}

bool
xf_access(struct xbulk_find *f, const struct xbulk_entry *file, int mode)
{
	const char *rel;
	bool own, ok;
	int at;

	if (file_at(f, file, &at, &rel, &own))
		return false;
	ok = !faccessat(at, rel, mode, 0);
	if (own && at >= 0)
		close(at);
	return ok;
}
