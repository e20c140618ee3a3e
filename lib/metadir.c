// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * XFS_BULK_IREQ_METADIR on a filesystem handle: lib/ioctl.c adds the
 * handle's extra flags to every bulkstat call and, unlike NREXT64, never
 * drops this one when the kernel refuses it (xfs_io 6.13's bulkstat -m
 * sets it per call in io/bulkstat.c).
 */
#include <errno.h>

#include "base.h"
#include "uapi_compat.h"

int
xbulk_fs_set_metadir(struct xbulk_fs *fs, bool on)
{
	if (!on) {
		__atomic_and_fetch(&fs->extra_flags, ~XFS_BULK_IREQ_METADIR,
				   __ATOMIC_RELAXED);
		return 0;
	}
	if (__atomic_load_n(&fs->abi, __ATOMIC_RELAXED) == XBULK_ABI_V1)
		return -EOPNOTSUPP;
	__atomic_or_fetch(&fs->extra_flags, XFS_BULK_IREQ_METADIR,
			  __ATOMIC_RELAXED);
	return 0;
}

bool
xbulk_fs_metadir(const struct xbulk_fs *fs)
{
	return __atomic_load_n(&fs->extra_flags, __ATOMIC_RELAXED) &
	       XFS_BULK_IREQ_METADIR;
}

bool
xbulk_fs_has_metadir(const struct xbulk_fs *fs)
{
	return fs->geom.flags & XFS_FSOP_GEOM_FLAGS_METADIR;
}
