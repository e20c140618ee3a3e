// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Thin wrappers around the bulk ioctls, with the v5 -> v1 fallback in one
 * place.  The v1 emulation follows xfsprogs' libfrog (bulkstat.c) exactly,
 * cursor quirks included, so that xfs_io's -d lines can be reproduced:
 * the v1 ioctls take the *last* inode seen (lastip), so the cursor is
 * decremented before the call, the kernel writes its own lastip back, and
 * the cursor is then moved past the last record kept.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include "base.h"
#include "uapi_compat.h"

_Static_assert(sizeof(struct xfs_bstat) <= sizeof(struct xfs_bulkstat),
	       "v1 records must fit in place of v5 ones");
_Static_assert(sizeof(struct xfs_inogrp) <= sizeof(struct xfs_inumbers),
	       "v1 inode groups must fit in place of v5 ones");

struct xfs_bulkstat_req *
xbulk_bulkstat_req_alloc(uint32_t icount, uint64_t startino)
{
	struct xfs_bulkstat_req *req;

	req = calloc(1, XFS_BULKSTAT_REQ_SIZE((size_t)icount));
	if (req) {
		req->hdr.icount = icount;
		req->hdr.ino = startino;
	}
	return req;
}

struct xfs_inumbers_req *
xbulk_inumbers_req_alloc(uint32_t icount, uint64_t startino)
{
	struct xfs_inumbers_req *req;

	req = calloc(1, XFS_INUMBERS_REQ_SIZE((size_t)icount));
	if (req) {
		req->hdr.icount = icount;
		req->hdr.ino = startino;
	}
	return req;
}

/* The kernel has no v5 bulk ioctls (before Linux 5.3). */
static bool
lacks_v5(int err)
{
	return err == -ENOTTY || err == -EOPNOTSUPP;
}

static int
abi_get(const struct xbulk_fs *fs)
{
	return __atomic_load_n(&fs->abi, __ATOMIC_RELAXED);
}

/* What ioctl_v5() met besides the ioctl's 0 or -errno (in *@err). */
enum v5_call {
	V5_CALLED,		/* *@err: the ioctl's result */
	V5_METADIR_REJECTED,	/* the kernel rejects XFS_BULK_IREQ_METADIR
				   (before 6.13): *@err is -EOPNOTSUPP */
};

/*
 * Issue a v5 ioctl with the newer header flags (@extra) added; if the
 * kernel rejects them with EINVAL and succeeds without them, drop them
 * from the handle for good.  XFS_BULK_IREQ_METADIR (xbulk_fs_set_metadir())
 * is never dropped: the caller asked for those inodes, so the answer
 * without it is thrown away, the header restored, and V5_METADIR_REJECTED
 * returned.  (Every kernel that knows METADIR knows the other flags.)
 */
static enum v5_call
ioctl_v5(struct xbulk_fs *fs, unsigned long cmd, struct xfs_bulk_ireq *hdr,
	 uint32_t extra, int *err)
{
	uint32_t flags = hdr->flags & ~extra;
	struct xfs_bulk_ireq saved;

	hdr->flags = flags | extra;
	*err = ioctl(fs->fd, cmd, hdr) ? -errno : 0;
	if (*err != -EINVAL || !extra)
		return V5_CALLED;
	saved = *hdr;
	hdr->flags = flags;
	*err = ioctl(fs->fd, cmd, hdr) ? -errno : 0;
	if (*err)
		return V5_CALLED;
	if (extra & XFS_BULK_IREQ_METADIR) {
		*hdr = saved;
		*err = -EOPNOTSUPP;
		return V5_METADIR_REJECTED;
	}
	__atomic_and_fetch(&fs->extra_flags, ~extra, __ATOMIC_RELAXED);
	return V5_CALLED;
}

/* What try_v5() leaves to its caller. */
enum v5_try {
	V5_DONE,		/* *@err: the v5 ioctl's result, or
				   -EOPNOTSUPP if the metadata directory
				   was asked of v1 or of a kernel before
				   6.13 */
	V5_USE_V1,		/* the handle is on v1: call that instead */
};

/* The handle is on v1: use it, unless the metadata directory is asked
 * for (v1 has no flags). */
static enum v5_try
use_v1(uint32_t extra, int *err)
{
	*err = extra & XFS_BULK_IREQ_METADIR ? -EOPNOTSUPP : 0;
	return *err ? V5_DONE : V5_USE_V1;
}

/* Try the v5 ioctl unless the handle is on v1 (or falls back to it). */
static enum v5_try
try_v5(struct xbulk_fs *fs, unsigned long cmd, struct xfs_bulk_ireq *hdr,
       uint32_t extra, int *err)
{
	int abi = abi_get(fs);

	if (abi == XBULK_ABI_V1)
		return use_v1(extra, err);
	if (ioctl_v5(fs, cmd, hdr, extra, err) == V5_METADIR_REJECTED) {
		__atomic_store_n(&fs->abi, XBULK_ABI_V5, __ATOMIC_RELAXED);
		return V5_DONE;
	}
	if (abi == XBULK_ABI_AUTO) {
		if (lacks_v5(*err)) {
			__atomic_store_n(&fs->abi, XBULK_ABI_V1,
					 __ATOMIC_RELAXED);
			return use_v1(extra, err);
		}
		if (*err == 0)
			__atomic_store_n(&fs->abi, XBULK_ABI_V5,
					 __ATOMIC_RELAXED);
	}
	return V5_DONE;
}

/* What v1_setup() found. */
enum v1_setup {
	V1_CALL,		/* call the kernel */
	V1_NO_RECORDS,		/* none, without a call (hdr->ocount 0) */
	V1_BEFORE_AG,		/* the cursor is in an AG before hdr->agno */
};

/*
 * libfrog's xfrog_bulk_req_v1_setup(): turn the v5 header into a v1
 * lastip.
 */
static enum v1_setup
v1_setup(const struct xbulk_fs *fs, struct xfs_bulk_ireq *hdr)
{
	if (hdr->flags & XFS_BULK_IREQ_AGNO) {
		uint32_t agno = xbulk_ino_to_agno(fs, hdr->ino);

		if (hdr->ino == 0)
			hdr->ino = xbulk_agino_to_ino(fs, hdr->agno, 0);
		else if (agno < hdr->agno)
			return V1_BEFORE_AG;
		else if (agno > hdr->agno)
			goto no_records;
	}
	if (xbulk_ino_to_agno(fs, hdr->ino) > fs->geom.agcount)
		goto no_records;
	if (hdr->ino)
		hdr->ino--;
	return V1_CALL;
no_records:
	hdr->ocount = 0;
	return V1_NO_RECORDS;
}

/*
 * Records of a v1 batch to keep: with XFS_BULK_IREQ_AGNO, those before
 * the first one of another AG.  Moves the cursor past the last kept one
 * (by @adj: 1 for inodes, 64 for inode chunks).  An ocount past icount
 * (a kernel bug) is left for xbulk_batch_check() to refuse.
 */
static uint32_t
v1_keep(const struct xbulk_fs *fs, struct xfs_bulk_ireq *hdr,
	const void *first_ino, size_t stride, uint64_t adj)
{
	uint32_t n = hdr->ocount < hdr->icount ? hdr->ocount : hdr->icount;
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint64_t ino = *(const __u64 *)((const char *)first_ino +
						i * stride);

		if ((hdr->flags & XFS_BULK_IREQ_AGNO) &&
		    xbulk_ino_to_agno(fs, ino) != hdr->agno)
			break;
		hdr->ino = ino + adj;
	}
	if (i < n || hdr->ocount <= hdr->icount)
		hdr->ocount = i;
	return i;
}

/* One v1 call for the v5 header @hdr into @ubuffer: 0 (hdr->ocount
 * records, none without a call past the range) or -errno. */
static int
v1_call(struct xbulk_fs *fs, unsigned long cmd, struct xfs_bulk_ireq *hdr,
	void *ubuffer)
{
	struct xfs_fsop_bulkreq breq;

	/*
	 * The v1 count is a signed 32-bit field: ask for at most INT32_MAX
	 * (a larger one would be negative, and EINVAL); the records are the
	 * same, the kernel returns fewer than that in one call anyway.  The
	 * header shows the count passed (-d prints it).
	 */
	if (hdr->icount > INT32_MAX)
		hdr->icount = INT32_MAX;
	/* memset: the struct has padding after icount; hand none over raw */
	memset(&breq, 0, sizeof(breq));
	breq.lastip = (__u64 *)&hdr->ino;
	breq.icount = (__s32)hdr->icount;
	breq.ubuffer = ubuffer;
	breq.ocount = (__s32 *)&hdr->ocount;

	switch (v1_setup(fs, hdr)) {
	case V1_BEFORE_AG:
		return -EINVAL;
	case V1_NO_RECORDS:
		return 0;
	case V1_CALL:
		break;
	}
	return ioctl(fs->fd, cmd, &breq) ? -errno : 0;
}

static int
bulkstat_v1(struct xbulk_fs *fs, struct xfs_bulkstat_req *req)
{
	struct xfs_bstat *v1 = (struct xfs_bstat *)req->bulkstat;
	uint32_t n;
	int ret;

	ret = v1_call(fs, XFS_IOC_FSBULKSTAT, &req->hdr, v1);
	if (ret)
		return ret;
	n = v1_keep(fs, &req->hdr, &v1->bs_ino, sizeof(*v1), 1);
	/* Backwards: record i in v5 only overlaps v1 records >= i. */
	while (n-- > 0) {
		struct xfs_bstat bs1 = v1[n];

		xbulk_bstat_to_bulkstat(&req->bulkstat[n], &bs1, fs->blocklog);
	}
	return 0;
}

bool
xbulk_batch_check(const struct xfs_bulk_ireq *hdr, uint64_t cursor,
		  const void *recs, size_t rec_size, uint64_t span,
		  uint32_t *good, uint64_t *bad)
{
	uint32_t n = hdr->ocount < hdr->icount ? hdr->ocount : hdr->icount;
	uint64_t ino, prev = 0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		ino = *(const __u64 *)((const char *)recs + i * rec_size);
		/* The first may begin before the cursor by less than @span */
		if (i == 0 ? ino < cursor && cursor - ino >= span :
			     ino <= prev) {
			*good = i;
			*bad = ino;
			return false;
		}
		prev = ino;
	}
	*good = n;
	if (n == hdr->ocount &&
	    (n == 0 || (hdr->ino > prev && hdr->ino > cursor)))
		return true;
	*bad = hdr->ino;
	return false;
}

/* After a successful call from @cursor: 0, or -EPROTO if the answer
 * breaks the ioctl's contract (xbulk_batch_check()). */
static int
check_answer(const struct xfs_bulk_ireq *hdr, uint64_t cursor,
	     const void *recs, size_t rec_size, uint64_t span)
{
	uint32_t good;
	uint64_t bad;

	if (xbulk_batch_check(hdr, cursor, recs, rec_size, span, &good, &bad))
		return 0;
	return -EPROTO;
}

/*
 * Put v5 records in the one shape the rest of the program knows:
 * - Without XFS_BULK_IREQ_NREXT64 the kernel puts the data fork extent
 *   count in the 32-bit bs_extents; move it to bs_extents64, where it is
 *   with the flag and after v1 conversion, as xfsprogs 6.1 shows it.
 * - The kernel fills bs_cowextsize_blks only for inodes with a CoW extent
 *   size hint and reuses its record buffer, so the others repeat the last
 *   hint seen in the same call (seen on Linux 6.18): the value would
 *   depend on where a batch starts.  Without the hint flag it is 0.
 */
static void
normalize_v5(const struct xfs_bulk_ireq *hdr, struct xfs_bulkstat *bs)
{
	bool move_extents = !(hdr->flags & XFS_BULK_IREQ_NREXT64);
	uint32_t n = hdr->ocount < hdr->icount ? hdr->ocount : hdr->icount;
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (move_extents) {
			bs[i].bs_extents64 = bs[i].bs_extents;
			bs[i].bs_extents = 0;
		}
		if (!(bs[i].bs_xflags & FS_XFLAG_COWEXTSIZE))
			bs[i].bs_cowextsize_blks = 0;
	}
}

int
xbulk_bulkstat(struct xbulk_fs *fs, struct xfs_bulkstat_req *req)
{
	uint32_t extra = __atomic_load_n(&fs->extra_flags, __ATOMIC_RELAXED);
	uint64_t cursor = req->hdr.ino;
	int ret;

	if (try_v5(fs, XFS_IOC_BULKSTAT, &req->hdr, extra, &ret) == V5_USE_V1)
		ret = bulkstat_v1(fs, req);
	else if (ret == 0)
		normalize_v5(&req->hdr, req->bulkstat);
	if (ret)
		return ret;
	return check_answer(&req->hdr, cursor, req->bulkstat,
			    sizeof(*req->bulkstat), 1);
}

static int
inumbers_v1(struct xbulk_fs *fs, struct xfs_inumbers_req *req)
{
	struct xfs_inogrp *v1 = (struct xfs_inogrp *)req->inumbers;
	uint32_t n;
	int ret;

	ret = v1_call(fs, XFS_IOC_FSINUMBERS, &req->hdr, v1);
	if (ret)
		return ret;
	n = v1_keep(fs, &req->hdr, &v1->xi_startino, sizeof(*v1),
		    XBULK_INODES_PER_CHUNK);
	while (n-- > 0) {
		struct xfs_inogrp ig = v1[n];

		xbulk_inogrp_to_inumbers(&req->inumbers[n], &ig);
	}
	return 0;
}

int
xbulk_inumbers(struct xbulk_fs *fs, struct xfs_inumbers_req *req)
{
	uint64_t cursor = req->hdr.ino;
	int ret;

	if (try_v5(fs, XFS_IOC_INUMBERS, &req->hdr, 0, &ret) == V5_USE_V1)
		ret = inumbers_v1(fs, req);
	if (ret)
		return ret;
	return check_answer(&req->hdr, cursor, req->inumbers,
			    sizeof(*req->inumbers), XBULK_INODES_PER_CHUNK);
}

int
xbulk_inode_allocated(struct xbulk_fs *fs, uint64_t ino, bool *allocated)
{
	struct {
		struct xfs_bulk_ireq	hdr;
		struct xfs_inumbers	rec;
	} req = { .hdr = { .ino = ino, .icount = 1 } };
	uint64_t off;
	int ret;

	ret = xbulk_inumbers(fs, (struct xfs_inumbers_req *)&req);
	if (ret)
		return ret;
	/* The chunk holding @ino, or the next one */
	off = ino - req.rec.xi_startino;
	*allocated = req.hdr.ocount && ino >= req.rec.xi_startino &&
		     off < XBULK_INODES_PER_CHUNK &&
		     (req.rec.xi_allocmask >> off) & 1;
	return 0;
}

/* XFS_IOC_FSBULKSTAT_SINGLE of @ino into @bs1: 0 or -errno. */
static int
v1_single(struct xbulk_fs *fs, uint64_t ino, struct xfs_bstat *bs1)
{
	__u64 lastino = ino;
	struct xfs_fsop_bulkreq breq;

	memset(&breq, 0, sizeof(breq));
	breq.lastip = &lastino;
	breq.icount = 1;
	breq.ubuffer = bs1;
	return ioctl(fs->fd, XFS_IOC_FSBULKSTAT_SINGLE, &breq) ? -errno : 0;
}

/*
 * XFS_IOC_FSBULKSTAT_SINGLE's EINVAL is its answer for a free or internal
 * inode, and also the kernel's refusal of the whole mount (idmapped).
 * Free, by the inobt: -ENOENT.  Allocated: if the inode of our own fd is
 * refused too, the mount is (-EINVAL), else this inode is (-ENOENT).
 */
static int
v1_einval(struct xbulk_fs *fs, uint64_t ino)
{
	struct xfs_bstat bs1 = { 0 };
	bool allocated;
	struct stat st;

	if (xbulk_inode_allocated(fs, ino, &allocated) == 0 && !allocated)
		return -ENOENT;
	if (fstat(fs->fd, &st) == 0 && v1_single(fs, st.st_ino, &bs1) == -EINVAL)
		return -EINVAL;
	return -ENOENT;
}

static int
bulkstat_single_v1(struct xbulk_fs *fs, uint64_t ino, uint32_t flags,
		   struct xfs_bulkstat *bs)
{
	struct xfs_bstat bs1 = { 0 };	/* the kernel fills it; valgrind can't tell */
	int ret;

	if (flags)
		return -EOPNOTSUPP;
	ret = v1_single(fs, ino, &bs1);
	if (ret == -EINVAL)
		return v1_einval(fs, ino);
	if (ret)
		return ret;
	xbulk_bstat_to_bulkstat(bs, &bs1, fs->blocklog);
	return 0;
}

bool
xbulk_fs_readable(struct xbulk_fs *fs)
{
	struct xfs_bulkstat bs;
	struct stat st;

	return fstat(fs->fd, &st) == 0 &&
	       xbulk_bulkstat_single(fs, st.st_ino, 0, &bs) == 0;
}

bool
xbulk_fs_idmapped(const struct xbulk_fs *fs)
{
	struct statx stx;
	char line[4096];
	bool found = false;
	FILE *f;

	if (statx(fs->fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) ||
	    !(stx.stx_mask & STATX_MNT_ID))
		return false;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return false;
	/* "ID PARENT MAJ:MIN ROOT POINT OPTIONS ...": ours by ID */
	while (!found && fgets(line, sizeof(line), f)) {
		char opts[1024] = ",";
		unsigned long long id;

		if (sscanf(line, "%llu %*s %*s %*s %*s %1021s", &id,
			   opts + 1) == 2 && id == stx.stx_mnt_id)
			found = strstr(strcat(opts, ","), ",idmapped,") != NULL;
	}
	fclose(f);
	return found;
}

int
xbulk_bulkstat_single(struct xbulk_fs *fs, uint64_t ino, uint32_t flags,
		      struct xfs_bulkstat *bs)
{
	struct {
		struct xfs_bulk_ireq	hdr;
		struct xfs_bulkstat	rec;
	} req = {
		.hdr = { .ino = ino, .flags = flags, .icount = 1 },
	};
	uint32_t extra = __atomic_load_n(&fs->extra_flags, __ATOMIC_RELAXED);
	int ret;

	_Static_assert(offsetof(struct xfs_bulkstat_req, bulkstat) ==
		       sizeof(struct xfs_bulk_ireq), "request layout");
	if (try_v5(fs, XFS_IOC_BULKSTAT, &req.hdr, extra, &ret) == V5_USE_V1)
		return bulkstat_single_v1(fs, ino, flags, bs);
	if (ret)
		return ret;
	if (req.hdr.ocount == 0 ||
	    (!(flags & XFS_BULK_IREQ_SPECIAL) && req.rec.bs_ino != ino))
		return -ENOENT;
	normalize_v5(&req.hdr, &req.rec);
	*bs = req.rec;
	return 0;
}
