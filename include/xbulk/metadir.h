/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libxbulk: the metadata directory tree's inodes in bulkstat answers
 * (lib/metadir.c).  Part of <xbulk.h>: include that.
 */
#ifndef XBULK_METADIR_H
#define XBULK_METADIR_H

#include <stdbool.h>

#pragma GCC visibility push(default)

struct xbulk_fs;

/**
 * xbulk_fs_set_metadir() - have every bulkstat of @fs (scans,
 * xbulk_bulkstat(), xbulk_bulkstat_single()) also return the inodes of
 * the metadata directory tree, as xfs_io 6.13's bulkstat -m
 * (XFS_BULK_IREQ_METADIR, Linux 6.13 and later).  The kernel fills only
 * bs_ino, bs_gen, the file type bits of bs_mode, bs_sick, bs_checked and
 * bs_version of those.  Inumbers is not affected (it has no such flag).
 * @fs: an open handle, before any scan on it starts
 * @on: true to ask for them, false for the default
 *
 * A kernel that rejects the flag (before 6.13) makes those calls fail
 * with -EOPNOTSUPP, as do the v1 ioctls (they have no flags): the answer
 * without the flag is never passed off as the one asked for.
 *
 * Return: 0, or -EOPNOTSUPP if @on and @fs is forced to the v1 ioctls.
 */
int xbulk_fs_set_metadir(struct xbulk_fs *fs, bool on);

/** xbulk_fs_metadir() - whether xbulk_fs_set_metadir() turned it on. */
bool xbulk_fs_metadir(const struct xbulk_fs *fs);

/**
 * xbulk_fs_has_metadir() - whether the filesystem has a metadata directory
 * tree (mkfs.xfs 6.13 -m metadir=1: XFS_FSOP_GEOM_FLAGS_METADIR in its
 * geometry), whose inodes bulkstat hides unless asked.
 */
bool xbulk_fs_has_metadir(const struct xbulk_fs *fs);

#pragma GCC visibility pop

#endif /* XBULK_METADIR_H */
