/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libxbulk: the paths of an inode from its parent pointers (lib/parent.c).
 * Part of <xbulk.h>: include that.
 *
 * Filesystems made with mkfs.xfs -n parent=1 (xfsprogs 6.10 and later)
 * keep in every file the directories that name it and the names, as
 * extended attributes the kernel reads with XFS_IOC_GETPARENTS_BY_HANDLE
 * (Linux 6.10 and later; CAP_SYS_ADMIN).  A path of depth d then costs
 * at most d + 1 calls, fewer when its directories were seen before.
 */
#ifndef XBULK_PARENT_H
#define XBULK_PARENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(default)

struct xbulk_fs;

/* Opaque: the parent pointer reader and its cache of directory paths. */
struct xbulk_parents;

/**
 * xbulk_fs_has_parents() - whether the filesystem keeps parent pointers
 * (XFS_FSOP_GEOM_FLAGS_PARENT in its geometry: mkfs.xfs -n parent=1).
 */
bool xbulk_fs_has_parents(const struct xbulk_fs *fs);

/**
 * xbulk_parents_open() - make a parent pointer reader for @fs
 * @fs:  an open handle; it must stay open while the reader is used
 * @out: the reader (free it with xbulk_parents_free()); NULL on failure
 *
 * Reads the filesystem's handle id (XFS_IOC_FD_TO_HANDLE) and the root
 * directory's inode (bulkstat's special root inode).
 *
 * Return: 0; -EOPNOTSUPP if the filesystem has no parent pointers;
 * -ENOMEM; -EPERM without CAP_SYS_ADMIN; another negative errno of those
 * ioctls.
 */
int xbulk_parents_open(struct xbulk_fs *fs, struct xbulk_parents **out);

/**
 * xbulk_parents_set_cancel() - have the calls of @p stop before their next
 * ioctl once *@cancel is nonzero (a flag that a signal handler sets):
 * they then return -EINTR, and so does every later call.  NULL (the
 * default): never.
 */
void xbulk_parents_set_cancel(struct xbulk_parents *p,
			      const volatile int *cancel);

/** xbulk_parents_free() - free a reader; NULL is fine. */
void xbulk_parents_free(struct xbulk_parents *p);

/*
 * One parent pointer: directory @dir_ino of generation @dir_gen names
 * the inode @name (@namelen bytes, NUL-terminated, any bytes but '/').
 * Valid during the call only.  Return 0 to go on, 1 to stop (the call
 * then returns 0), or a negative errno that ends the call with it.
 */
typedef int (*xbulk_parent_fn)(void *arg, uint64_t dir_ino, uint32_t dir_gen,
			       const char *name, size_t namelen);

/* xbulk_parents_each(): @ino is the root directory (it has no parent). */
#define XBULK_PARENTS_ROOT	1

/**
 * xbulk_parents_each() - every parent pointer of inode @ino, generation
 * @gen (bs_gen), in the kernel's order (XFS_IOC_GETPARENTS_BY_HANDLE until
 * XFS_GETPARENTS_OFLAG_DONE).  A file with n hard links has n of them.
 *
 * Return: 0; XBULK_PARENTS_ROOT for the root (@fn is not called);
 * -ESTALE if @ino is free or of another generation; -EUCLEAN, -EBADMSG,
 * -EIO if the kernel cannot read it (its parent pointers are in it:
 * Linux 6.18 answers ESTALE then, as xfs_nfs_get_inode() turns
 * EFSCORRUPTED into ESTALE, and a bulkstat of @ino tells the two apart);
 * -EPROTO if an answer breaks the ioctl's contract (a malformed record,
 * or no progress); -EINTR once cancelled (xbulk_parents_set_cancel());
 * -ENOMEM; or @fn's error.
 */
int xbulk_parents_each(struct xbulk_parents *p, uint64_t ino, uint32_t gen,
		       xbulk_parent_fn fn, void *arg);

/*
 * One path: "/" for the root, else "/name/.../name" from the root of the
 * filesystem (NUL-terminated, @len bytes, any length: past PATH_MAX too).
 * Valid during the call only.  Return 0 to go on or a negative errno.
 */
typedef int (*xbulk_path_fn)(void *arg, const char *path, size_t len);

/**
 * xbulk_parents_paths() - every path of inode @ino, generation @gen: one
 * per parent pointer of it, each the path of that directory (one parent
 * pointer per directory, read once per reader and cached) and the name.
 * Directories' paths are cached as they are found: a reader is for one
 * moment of the tree; renames after they were cached are not seen.
 *
 * Return: 0 after the last path; -ENOENT if the inode or a directory
 * above it has no parent pointer (an open file already unlinked, or
 * damage); -ELOOP if a directory is its own ancestor (damage); -ESTALE,
 * -EUCLEAN, -EBADMSG, -EIO, -EPROTO, -EINTR as xbulk_parents_each(), for
 * the inode or a directory above it; -ENOMEM; or @fn's error.
 */
int xbulk_parents_paths(struct xbulk_parents *p, uint64_t ino, uint32_t gen,
			xbulk_path_fn fn, void *arg);

/**
 * xbulk_parents_failed_ino() - where the last xbulk_parents_paths() call
 * of @p that returned an error stopped: the inode it was asked about, or
 * the directory above it whose parent pointers could not be read or
 * followed (-ENOENT: it has none; -ESTALE: freed or used again;
 * -EUCLEAN, -EBADMSG, -EIO: unreadable; -ELOOP: where the cycle closed;
 * -EPROTO).  After -ENOMEM or an error of the callback, any inode of the
 * chain.  Directories that failed are remembered by the reader: a later
 * path through one fails at the same directory.
 */
uint64_t xbulk_parents_failed_ino(const struct xbulk_parents *p);

#pragma GCC visibility pop

#endif /* XBULK_PARENT_H */
