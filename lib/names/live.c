// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * After the caller changed the filesystem (find's -exec, -delete:
 * xbulk_names_changed()), walks go on as fts would: each directory read
 * when the walk enters it, each directory stat()ed when the walk reaches
 * it, other files stat()ed when asked (xbulk_names_restat()).  The
 * scan's records are not used again: the command may have changed any
 * of them.  As fts's, each of these reaches a file from its directory
 * as the walk reached it (opened by handle: xbulk_names_dir_fd()), not
 * by its path.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "names.h"
#include "walk.h"

/* Fields statx does not give. */
#define XFS_ONLY	(XBULK_F_PROJID | XBULK_F_XFLAGS | XBULK_F_EXTENTS | \
			 XBULK_F_HINTS | XBULK_F_OTHER)

bool
xbn_live_ours(const struct xbulk_names *nm, const struct statx *stx)
{
	return makedev(stx->stx_dev_major, stx->stx_dev_minor) == nm->dev &&
	       (!(stx->stx_mask & STATX_MNT_ID) || stx->stx_mnt_id == nm->mnt_id);
}

const char *
xbn_live_fstype(struct xbulk_names *nm, const struct statx *stx)
{
	if (xbn_live_ours(nm, stx))
		return "xfs";
	xbn_mount_fstype(stx->stx_mnt_id, nm->live_fstype,
			 sizeof(nm->live_fstype));
	return nm->live_fstype;
}

int
xbulk_names_dir_fd(struct xbulk_names *nm, const struct xbulk_entry *e)
{
	const struct xbn_walk *w = nm->walk;
	const struct xbn_frame *f;
	const struct xbn_dir *d;
	uint64_t ino;
	uint32_t gen;
	int fd;

	if (!w || !e->depth || !w->sp)
		return -EINVAL;
	/* the directory being listed: the top frame (a directory's POST
	 * comes once its frame is popped) */
	f = (const struct xbn_frame *)nm->stack + w->sp - 1;
	if (f->depth + 1 != e->depth)
		return -EINVAL;
	if (nm->plain)		/* the directory it holds open */
		return f->fd >= 0 ? f->fd : -EINVAL;
	if (f->dir == XBN_NONE) {
		ino = f->dino;
		gen = f->gen;
	} else {
		d = xbn_dir(&nm->dirs, f->dir);
		ino = d->ino;
		gen = d->gen;
	}
	if (nm->dir_fd >= 0 && nm->dir_fd_ino == ino && nm->dir_fd_gen == gen)
		return nm->dir_fd;
	fd = xbn_open_handle(nm->mfd, ino, gen, O_PATH | O_DIRECTORY);
	if (fd < 0)
		return fd;
	if (nm->dir_fd >= 0)
		close(nm->dir_fd);
	nm->dir_fd = fd;
	nm->dir_fd_ino = ino;
	nm->dir_fd_gen = gen;
	return fd;
}

int
xbn_entry_at(struct xbulk_names *nm, const struct xbulk_entry *e, int *at,
	     const char **rel, bool *own)
{
	int fd = e->depth ? xbulk_names_dir_fd(nm, e) : -EINVAL;

	*own = fd == -EINVAL;
	if (*own)
		return xbl_path_at(e->path, at, rel);
	if (fd < 0)
		return fd == -ESTALE ? -ENOENT : fd;
	*at = fd;
	*rel = e->path + e->name_off;
	return 0;
}

int
xbn_live_stat(struct xbulk_names *nm, const struct xbulk_entry *e,
	      bool follow, struct xfs_bulkstat *bs, struct statx *stx)
{
	struct xfs_bulkstat xb;
	const char *rel;
	bool own;
	int at, err = xbn_entry_at(nm, e, &at, &rel, &own);

	if (err)
		return err;
	err = statx(at, rel, (follow ? 0 : AT_SYMLINK_NOFOLLOW) |
		    AT_NO_AUTOMOUNT,
		    STATX_BASIC_STATS | STATX_BTIME | STATX_MNT_ID, stx) ?
	      -errno : 0;
	if (own && at >= 0)
		close(at);
	if (err)
		return err;
	xbulk_bulkstat_from_statx(bs, stx);
	if ((nm->fields & XFS_ONLY) && nm->fs && xbn_live_ours(nm, stx) &&
	    !xbulk_bulkstat_single(nm->fs, stx->stx_ino, 0, &xb)) {
		bs->bs_projectid = xb.bs_projectid;
		bs->bs_xflags = xb.bs_xflags;
		bs->bs_extents64 = xb.bs_extents64;
		bs->bs_aextents = xb.bs_aextents;
		bs->bs_extsize_blks = xb.bs_extsize_blks;
		bs->bs_cowextsize_blks = xb.bs_cowextsize_blks;
		bs->bs_forkoff = xb.bs_forkoff;
		bs->bs_sick = xb.bs_sick;
		bs->bs_checked = xb.bs_checked;
		bs->bs_gen = xb.bs_gen;
	}
	return 0;
}

void
xbn_plain_fill(struct xbulk_names *nm, struct xbulk_entry *e,
	       const struct statx *stx)
{
	e->dev = makedev(stx->stx_dev_major, stx->stx_dev_minor);
	e->blocklog = 9;		/* statx's 512-byte blocks */
	if (!(stx->stx_mask & STATX_MNT_ID)) {
		e->fstype = "";
		return;
	}
	/* read mountinfo again only when the mount changes */
	if (!nm->live_fstype_mnt || nm->live_fstype_mnt != stx->stx_mnt_id) {
		xbn_mount_fstype(stx->stx_mnt_id, nm->live_fstype,
				 sizeof(nm->live_fstype));
		nm->live_fstype_mnt = stx->stx_mnt_id;
	}
	e->fstype = nm->live_fstype;
}

/* Is directory @fd on a filesystem where gnulib's fts does not sort a
 * big directory by inode (dirent_inode_sort_may_be_useful(): its
 * S_MAGIC_TMPFS, S_MAGIC_NFS, S_MAGIC_CIFS)? */
static bool
unsorted_fs(int fd)
{
	struct statfs sf;

	if (fstatfs(fd, &sf))
		return false;
	return sf.f_type == TMPFS_MAGIC || sf.f_type == NFS_SUPER_MAGIC ||
	       sf.f_type == CIFS_SUPER_MAGIC;
}

int
xbn_live_read(struct xbulk_names *nm, const struct xbulk_entry *e,
	      bool follow, uint64_t ino, const uint8_t **list, uint64_t *len,
	      uint64_t *n, uint32_t *gen, int *keep)
{
	struct xbn_dir d = { .ino = ino };
	int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC |
		    (follow ? 0 : O_NOFOLLOW);
	const char *rel;
	bool own;
	int at, fd, err, g = 0;

	if (!nm->live_ready) {
		err = xbn_reader_init(&nm->live_reader, &nm->spill,
				      nm->cancel);
		if (err)
			return err;
		nm->live_reader.own_lists = nm->plain;
		nm->live_ready = true;
	}
	err = xbn_entry_at(nm, e, &at, &rel, &own);
	if (err)
		return err;
	/* no atime changes after a scan: without CAP_FOWNER a directory
	 * one does not own is unreadable (EPERM), as in the scan; a plain
	 * walk, find's own, reads it as find does (O_NOATIME where
	 * permitted) */
	fd = openat(at, rel, flags | O_NOATIME);
	if (fd < 0 && errno == EPERM && nm->plain)
		fd = openat(at, rel, flags);
	err = fd < 0 ? -errno : 0;
	if (own && at >= 0)
		close(at);
	if (err)
		return err;
	/* once per filesystem a plain walk enters */
	if (nm->plain && (!nm->sort_dev || nm->sort_dev != e->dev)) {
		nm->sort_dev = e->dev;
		nm->live_reader.no_sort = unsorted_fs(fd);
	}
	err = xbn_read_fd(&nm->live_reader, fd, &d);
	/* for xbulk_names_dir_fd(): XFS's i_generation (int), or the fd
	 * itself */
	if (!err && !keep && ioctl(fd, FS_IOC_GETVERSION, &g))
		err = -errno;
	*gen = (uint32_t)g;
	if (keep && !err && !(d.flags & XBN_DIR_UNREADABLE))
		*keep = fd;
	else
		close(fd);
	if (err == -ESTALE)
		return -ENOENT;		/* another directory there now */
	if (!err && (d.flags & XBN_DIR_UNREADABLE))
		err = d.err;
	if (err && nm->plain) {
		free((void *)d.list);
		d.list = NULL;
	}
	*list = d.list;
	*len = d.listlen;
	*n = d.nentries;
	return err;
}

void
xbulk_names_changed(struct xbulk_names *nm)
{
	nm->live = true;
}

int
xbulk_names_restat(struct xbulk_names *nm, const struct xbulk_entry *e,
		   struct xbulk_entry *out)
{
	struct statx stx;
	int err = xbn_live_stat(nm, e, false, &nm->restat_bs, &stx);

	if (err)
		return err;
	*out = *e;
	out->bs = &nm->restat_bs;
	out->flags = XBULK_ENTRY_LIVE;
	out->err = 0;
	if (nm->plain) {
		out->flags |= XBULK_ENTRY_PLAIN;
		xbn_plain_fill(nm, out, &stx);
		return 0;
	}
	if (!xbn_live_ours(nm, &stx))
		out->flags |= XBULK_ENTRY_MOUNT;
	out->dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
	out->blocklog = 9;
	out->fstype = xbn_live_fstype(nm, &stx);
	return 0;
}
