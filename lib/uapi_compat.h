/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The XFS UAPI that Debian 12's <xfs/xfs.h> (xfslibs-dev 6.1) lacks and
 * libxbulk uses, defined once here, each under #ifndef so that a newer
 * header's own definitions win.  Values and layouts are the kernel's
 * (include/uapi/linux/xfs_fs.h, libxfs/xfs_fs.h of xfsprogs 6.13);
 * tests/unit/test-uapi-compat.sh compiles static assertions of every size,
 * offset and value below against xfslibs-dev 6.13's header, so that a
 * libxbulk built on Debian 12 speaks the same ABI.
 */
#ifndef XBULK_UAPI_COMPAT_H
#define XBULK_UAPI_COMPAT_H

#include <stdint.h>
#include <sys/ioctl.h>
#include <xfs/xfs.h>

/* Bulkstat also returns the metadata directory tree's inodes (6.13). */
#ifndef XFS_BULK_IREQ_METADIR
#define XFS_BULK_IREQ_METADIR		(1U << 3)
#endif

/* bs_sick, bs_checked: the directory tree's structure (6.10). */
#ifndef XFS_BS_SICK_DIRTREE
#define XFS_BS_SICK_DIRTREE		(1 << 8)
#endif

/* Geometry feature flags (6.10: exchange range, parent pointers; 6.13:
 * metadata directories). */
#ifndef XFS_FSOP_GEOM_FLAGS_EXCHANGE_RANGE
#define XFS_FSOP_GEOM_FLAGS_EXCHANGE_RANGE	(1 << 24)
#endif
#ifndef XFS_FSOP_GEOM_FLAGS_PARENT
#define XFS_FSOP_GEOM_FLAGS_PARENT	(1 << 25)
#endif
#ifndef XFS_FSOP_GEOM_FLAGS_METADIR
#define XFS_FSOP_GEOM_FLAGS_METADIR	(1 << 26)
#endif

/*
 * Parent pointers (Linux 6.10): XFS_IOC_GETPARENTS on an fd of the file,
 * XFS_IOC_GETPARENTS_BY_HANDLE on any fd of the filesystem with the
 * file's handle.  The cursor starts zeroed; each call fills gp_buffer with
 * 8-byte aligned records until gp_oflags has XFS_GETPARENTS_OFLAG_DONE.
 */
#ifndef XFS_IOC_GETPARENTS

#define XFS_GETPARENTS_OFLAG_ROOT	(1U << 0)	/* the file is the root */
#define XFS_GETPARENTS_OFLAG_DONE	(1U << 1)	/* no more records */

struct xfs_getparents_rec {
	struct xfs_handle	gpr_parent;	/* the parent directory */
	__u32			gpr_reclen;	/* bytes of this record */
	__u32			gpr_reserved;
	char			gpr_name[];	/* NUL-terminated */
};

struct xfs_getparents {
	struct xfs_attrlist_cursor gp_cursor;	/* zero, then the kernel's */
	__u16			gp_iflags;	/* none defined: 0 */
	__u16			gp_oflags;	/* XFS_GETPARENTS_OFLAG_* */
	__u32			gp_bufsize;	/* bytes at gp_buffer */
	__u64			gp_reserved;	/* 0 */
	__u64			gp_buffer;	/* user address of the records */
};

struct xfs_getparents_by_handle {
	struct xfs_handle	gph_handle;	/* the file asked about */
	struct xfs_getparents	gph_request;
};

#define XFS_IOC_GETPARENTS	_IOWR('X', 62, struct xfs_getparents)
#define XFS_IOC_GETPARENTS_BY_HANDLE \
	_IOWR('X', 63, struct xfs_getparents_by_handle)

#endif /* XFS_IOC_GETPARENTS */

#endif /* XBULK_UAPI_COMPAT_H */
