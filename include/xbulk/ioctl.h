/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libxbulk: the bulk ioctls with the v5/v1 fallback (lib/ioctl.c).
 * Part of <xbulk.h>: include that.
 */
#ifndef XBULK_IOCTL_H
#define XBULK_IOCTL_H

#include "xbulk/fs.h"

#pragma GCC visibility push(default)

/* ------------------------------------------------------------------ */
/* Bulk ioctls with the v5/v1 fallback (lib/ioctl.c)                   */
/* ------------------------------------------------------------------ */

/**
 * xbulk_bulkstat_req_alloc() - allocate a bulkstat request for @icount
 * records (XFS_BULKSTAT_REQ_SIZE(@icount) bytes, zeroed), header set to
 * start at inode @startino.
 *
 * Return: the request (free() it), or NULL with errno ENOMEM.
 */
struct xfs_bulkstat_req *xbulk_bulkstat_req_alloc(uint32_t icount,
						  uint64_t startino);

/** xbulk_inumbers_req_alloc() - the same for an inumbers request. */
struct xfs_inumbers_req *xbulk_inumbers_req_alloc(uint32_t icount,
						  uint64_t startino);

/**
 * xbulk_bulkstat() - one XFS_IOC_BULKSTAT call (or its v1 emulation)
 * @fs:  handle
 * @req: request; in: hdr.ino (first inode to consider, inclusive),
 *       hdr.icount, hdr.flags (XFS_BULK_IREQ_AGNO with hdr.agno);
 *       out: hdr.ocount records, hdr.ino = next inode to ask for.
 *
 * Adds XFS_BULK_IREQ_NREXT64 when the geometry has large extent counters
 * (and drops it for good if the kernel rejects it with EINVAL).  The data
 * fork extent count is always in bs_extents64, bs_extents is 0 (as
 * xfsprogs 6.1 presents it, whichever ioctl and flag gave it), and
 * bs_cowextsize_blks is 0 unless FS_XFLAG_COWEXTSIZE is set (the kernel
 * leaves a stale value there; xfs_io prints it).  v1
 * results are converted to struct xfs_bulkstat in place, with the same
 * cursor semantics as xfsprogs' libfrog emulation, so that xfs_io's -d
 * output can be reproduced.  hdr.ocount == 0 is the only end of scan.
 * The v1 count is a signed 32-bit field: hdr.icount above INT32_MAX is
 * lowered to INT32_MAX (the header shows the count passed).
 *
 * Every answer is checked (xbulk_batch_check()): with a damaged inode
 * btree the kernel's cursor can stop advancing or go back (seen on Linux
 * 6.18), and a loop that trusted it would never end.
 *
 * Return: 0; -EPERM without CAP_SYS_ADMIN; -EINVAL for a bad header
 * (AG out of range, ino in an earlier AG than hdr.agno), or on an
 * idmapped mount, where the kernel refuses bulkstat; -EUCLEAN, -EBADMSG
 * or -EIO for a corrupt inode (the kernel returns the records before it
 * first, then fails on the next call) or an unreadable inode btree; -EIO
 * after a shutdown; -EPROTO if the answer breaks the ioctl's contract
 * (the header and records are left as the kernel wrote them:
 * xbulk_batch_check() tells which records are good).
 */
int xbulk_bulkstat(struct xbulk_fs *fs, struct xfs_bulkstat_req *req);

/**
 * xbulk_inumbers() - one XFS_IOC_INUMBERS call (or XFS_IOC_FSINUMBERS):
 * one struct xfs_inumbers per allocated inode chunk; same cursor and
 * errors as xbulk_bulkstat().  The first record is the chunk holding
 * hdr.ino, which may start before it.
 */
int xbulk_inumbers(struct xbulk_fs *fs, struct xfs_inumbers_req *req);

/**
 * xbulk_batch_check() - does an answer keep the bulk ioctls' contract?
 * @hdr:      the header as the call left it
 * @cursor:   hdr.ino before the call (the first inode asked for)
 * @recs:     the records; each begins with its 64-bit key (bs_ino,
 *            xi_startino)
 * @rec_size: bytes per record
 * @span:     inodes a record covers: 1 (bulkstat), XBULK_INODES_PER_CHUNK
 *            (inumbers: the first record is the chunk holding @cursor)
 * @good:     out: how many records, from the first, keep it
 * @bad:      out, when false: the first key out of place (a record's, or
 *            the new cursor hdr.ino)
 *
 * The contract: at most hdr.icount records, keys strictly increasing,
 * the first at or past @cursor (covering it, for chunks), and unless
 * there are none, a new cursor past both the last key and @cursor: each
 * call moves the scan forward.  v1 answers are checked once converted
 * (the v1 ioctls take the last inode seen; lib/ioctl.c turns that into
 * the v5 cursor first).
 *
 * Return: true if the whole answer keeps it.
 */
bool xbulk_batch_check(const struct xfs_bulk_ireq *hdr, uint64_t cursor,
		       const void *recs, size_t rec_size, uint64_t span,
		       uint32_t *good, uint64_t *bad);

/**
 * xbulk_bulkstat_single() - stat exactly inode @ino
 * @ino:   inode number, or XFS_BULK_IREQ_SPECIAL_ROOT with @flags
 *         XFS_BULK_IREQ_SPECIAL
 * @flags: 0 or XFS_BULK_IREQ_SPECIAL
 * @bs:    result
 *
 * v5: a BULKSTAT of one record, which returns the next allocated inode at
 * or after @ino; unlike xfs_io, a record for another inode is reported as
 * -ENOENT.  v1: XFS_IOC_FSBULKSTAT_SINGLE (exact lookup; the kernel
 * answers EINVAL for a free or internal inode, passed on as -ENOENT).
 *
 * v1's EINVAL is also the kernel's refusal of a whole mount: when the
 * inobt marks @ino allocated, the inode of the handle's own fd is probed,
 * and if it is refused too the answer is -EINVAL.
 *
 * Return: 0, -ENOENT (@ino is not an allocated, user-visible inode:
 * xbulk_inode_allocated() tells which), -EOPNOTSUPP (special inode asked
 * of the v1 ABI), -EINVAL (the kernel refuses bulkstat on this mount:
 * xbulk_fs_idmapped()), or as xbulk_bulkstat(): -EUCLEAN, -EBADMSG, -EIO
 * for an inode the kernel cannot read (or the first allocated one after
 * a free @ino, with v5), -EIO after a shutdown (xbulk_fs_readable()).
 */
int xbulk_bulkstat_single(struct xbulk_fs *fs, uint64_t ino, uint32_t flags,
			  struct xfs_bulkstat *bs);

/**
 * xbulk_inode_allocated() - does the inode btree mark @ino allocated?
 * One inumbers call (it reads no inode; it works on idmapped mounts).
 * Return: 0 with *@allocated set, or as xbulk_inumbers().
 */
int xbulk_inode_allocated(struct xbulk_fs *fs, uint64_t ino,
			  bool *allocated);

/**
 * xbulk_fs_idmapped() - is the handle's mount idmapped?  The kernel
 * refuses bulkstat there with EINVAL (Linux 5.12+, dmesg: "bulkstat not
 * supported inside of idmapped mounts"); inumbers works.  From the
 * "idmapped" option of the mount's line in /proc/self/mountinfo.
 */
bool xbulk_fs_idmapped(const struct xbulk_fs *fs);

/**
 * xbulk_fs_readable() - can the filesystem still be read?  A bulkstat of
 * the inode of the handle's own fd: false after a shutdown (every call
 * then fails with EIO), true when an EIO concerned other inodes.
 */
bool xbulk_fs_readable(struct xbulk_fs *fs);

#pragma GCC visibility pop

#endif /* XBULK_IOCTL_H */
