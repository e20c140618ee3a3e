// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Filesystem handle: open a path on a mounted XFS read-only, check it is
 * XFS and read the geometry the inode number arithmetic needs.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "base.h"

/* statfs f_type of XFS (XFS_SUPER_MAGIC, "XFSB") */
#define XBULK_XFS_MAGIC	0x58465342

/* Smallest r with 2^r >= v (libfrog's log2_roundup). */
static unsigned int
log2_roundup(uint32_t v)
{
	unsigned int r = 0;

	while (r < 32 && (1ULL << r) < v)
		r++;
	return r;
}

/* Index of the highest set bit of v (v > 0). */
static unsigned int
highbit32(uint32_t v)
{
	return 31 - (unsigned int)__builtin_clz(v);
}

static int
check_file_type(const struct stat *st)
{
	return S_ISDIR(st->st_mode) || S_ISREG(st->st_mode) ? 0 : -EINVAL;
}

static int
fs_init(struct xbulk_fs *fs, const char *path, enum xbulk_abi abi)
{
	struct statfs sfs;
	struct stat st;
	int ret;

	/* Refuse fifos, sockets and device nodes before opening them. */
	if (stat(path, &st))
		return -errno;
	ret = check_file_type(&st);
	if (ret)
		return ret;

	fs->fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fs->fd < 0)
		return -errno;
	if (fstat(fs->fd, &st) || fstatfs(fs->fd, &sfs))
		return -errno;
	ret = check_file_type(&st);
	if (ret)
		return ret;
	if (sfs.f_type != XBULK_XFS_MAGIC)
		return -ENOTTY;
	if (ioctl(fs->fd, XFS_IOC_FSGEOMETRY, &fs->geom))
		return -errno;
	if (fs->geom.blocksize == 0 || fs->geom.inodesize == 0 ||
	    fs->geom.agblocks == 0 ||
	    fs->geom.blocksize < fs->geom.inodesize)
		return -EUCLEAN;
	fs->blocklog = highbit32(fs->geom.blocksize);
	fs->agino_log = log2_roundup(fs->geom.agblocks) + fs->blocklog -
			highbit32(fs->geom.inodesize);
	fs->abi = abi;
	fs->abi_forced = abi != XBULK_ABI_AUTO;
	fs->extra_flags = 0;
	if (fs->geom.flags & XFS_FSOP_GEOM_FLAGS_NREXT64)
		fs->extra_flags |= XFS_BULK_IREQ_NREXT64;
	return 0;
}

int
xbulk_fs_open(const char *path, enum xbulk_abi abi, struct xbulk_fs **fsp)
{
	struct xbulk_fs *fs = calloc(1, sizeof(*fs));
	int ret;

	*fsp = NULL;
	if (!fs)
		return -ENOMEM;
	fs->fd = -1;
	ret = fs_init(fs, path, abi);
	if (ret) {
		xbulk_fs_close(fs);
		return ret;
	}
	*fsp = fs;
	return 0;
}

void
xbulk_fs_close(struct xbulk_fs *fs)
{
	if (!fs)
		return;
	if (fs->fd >= 0)
		close(fs->fd);
	free(fs);
}

int
xbulk_fs_fd(const struct xbulk_fs *fs)
{
	return fs->fd;
}

const struct xfs_fsop_geom *
xbulk_fs_geometry(const struct xbulk_fs *fs)
{
	return &fs->geom;
}

unsigned int
xbulk_fs_blocklog(const struct xbulk_fs *fs)
{
	return fs->blocklog;
}

int
xbulk_fs_sync(const struct xbulk_fs *fs)
{
	return syncfs(fs->fd) ? -errno : 0;
}

enum xbulk_abi
xbulk_fs_abi(const struct xbulk_fs *fs)
{
	return (enum xbulk_abi)__atomic_load_n(&fs->abi, __ATOMIC_RELAXED);
}

uint32_t
xbulk_ino_to_agno(const struct xbulk_fs *fs, uint64_t ino)
{
	return (uint32_t)(ino >> fs->agino_log);
}

uint64_t
xbulk_agino_to_ino(const struct xbulk_fs *fs, uint32_t agno, uint32_t agino)
{
	return ((uint64_t)agno << fs->agino_log) | agino;
}
