// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What find knows of a file beyond its record: the names of its owner and
 * group, the type letter of %y and -ls, st_blocks in 512-byte units, a
 * symbolic link's target, its directory as the walk reached it (bfs keeps
 * such facts in stat.c).  Below eval.c, printf.c, ls.c, exec.c and
 * live.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

#include "facts.h"
#include "find.h"

static const char *
short_name(const char *name)
{
	return name && strlen(name) < XF_ID_NAME_MAX ? name : NULL;
}

const char *
xf_user_name(struct xbulk_find *f, uint32_t uid)
{
	return short_name(xbulk_ids_user(f->ids, uid));
}

const char *
xf_group_name(struct xbulk_find *f, uint32_t gid)
{
	return short_name(xbulk_ids_group(f->ids, gid));
}

char
xf_type_letter(uint32_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return 'f';
	case S_IFDIR: return 'd';
	case S_IFLNK: return 'l';
	case S_IFSOCK: return 's';
	case S_IFBLK: return 'b';
	case S_IFCHR: return 'c';
	case S_IFIFO: return 'p';
	default: return 'U';
	}
}

bool
xf_covered(const struct xbulk_entry *file)
{
	/* nothing is mounted over a symbolic link: one -L followed onto
	 * another filesystem is flagged a mount point, but is its target */
	return (file->flags & XBULK_ENTRY_MOUNT) &&
	       file->dtype != DT_UNKNOWN && file->dtype != DT_LNK;
}

uint64_t
xf_ino(const struct xbulk_entry *file)
{
	/* a mount point over a file: the covered file's (find's d_ino) */
	if (xf_covered(file) && file->dtype != DT_DIR)
		return file->dino;
	return file->bs->bs_ino;
}

uint64_t
xf_blocks512(const struct xbulk_find *f, const struct xbulk_entry *file)
{
	unsigned int log = file->blocklog ? file->blocklog : f->blocklog;

	return file->bs->bs_blocks << (log - 9);
}

const char *
xf_readlink(struct xbulk_find *f, const struct xbulk_entry *file)
{
	long n = -ENOSYS;

	if (f->linkcap && f->opts.readlink)
		n = f->opts.readlink(f->opts.arg, file, f->linkbuf,
				     f->linkcap - 1);
	if (n < 0) {
		xf_problem(f, file->path, (int)n);
		return NULL;
	}
	f->linkbuf[n] = 0;
	return f->linkbuf;
}

int
xf_walk_dir(struct xbulk_find *f, const struct xbulk_entry *file)
{
	int fd = file->depth && f->opts.dir_fd ?
		 f->opts.dir_fd(f->opts.arg, file) : -EINVAL;

	return fd == -ESTALE ? -ENOENT : fd;
}

int
xf_stat_target(struct xbulk_find *f, const struct xbulk_entry *file,
	       struct stat *st, int flags)
{
	int at = xf_walk_dir(f, file);

	if (at == -EINVAL)
		return fstatat(AT_FDCWD, file->path, st, flags) ? -errno : 0;
	if (at < 0)
		return at;
	return fstatat(at, file->path + file->name_off, st, flags) ? -errno :
	       0;
}
