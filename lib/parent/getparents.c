// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * XFS_IOC_GETPARENTS_BY_HANDLE (Linux 6.10): the parent pointers of one
 * inode by number and generation, as xfsprogs 6.13's libfrog/getparents.c
 * reads them for xfs_io's parent command.  Facts the loop relies on,
 * checked on Linux 6.18: the cursor starts zeroed and the kernel moves it;
 * records are packed from the buffer's start and the last one's
 * gpr_reclen reaches the end of gp_bufsize (which the kernel leaves as
 * it was); a call with no record leaves the buffer untouched; the root
 * answers XFS_GETPARENTS_OFLAG_ROOT with no record; EMSGSIZE if not one
 * record fits; ESTALE for a free inode or another generation, and also
 * for an inode it cannot read (xfs_nfs_get_inode() turns xfs_iget()'s
 * EFSCORRUPTED into ESTALE), which a bulkstat of the inode tells apart.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "../base.h"
#include "parent.h"
#include "../uapi_compat.h"

/* Most calls for one inode: each must return a record and move the
 * cursor, and an inode has at most 2^32 - 1 links. */
#define MAX_CALLS	(1u << 26)

bool
xbulk_fs_has_parents(const struct xbulk_fs *fs)
{
	return fs->geom.flags & XFS_FSOP_GEOM_FLAGS_PARENT;
}

/* ha_fsid of the filesystem: the first bytes of any of its handles. */
static int
read_fsid(struct xbulk_parents *p)
{
	struct xfs_handle h;
	struct xfs_fsop_handlereq hreq;
	__u32 hlen = sizeof(h);

	memset(&hreq, 0, sizeof(hreq));
	memset(&h, 0, sizeof(h));
	hreq.fd = (__u32)p->fs->fd;
	hreq.ohandle = &h;
	hreq.ohandlen = &hlen;
	if (ioctl(p->fs->fd, XFS_IOC_FD_TO_HANDLE, &hreq) < 0)
		return -errno;
	if (hlen < sizeof(h.ha_fsid))
		return -EPROTO;
	memcpy(p->fsid, &h.ha_fsid, sizeof(p->fsid));
	return 0;
}

int
xbulk_parents_open(struct xbulk_fs *fs, struct xbulk_parents **out)
{
	struct xbulk_parents *p;
	struct xfs_bulkstat bs;
	int ret;

	*out = NULL;
	if (!xbulk_fs_has_parents(fs))
		return -EOPNOTSUPP;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->fs = fs;
	xbl_hash_init(&p->index, sizeof(uint32_t));
	p->bufsize = XBP_BUF_SIZE;
	p->buf = malloc(p->bufsize);
	ret = p->buf ? read_fsid(p) : -ENOMEM;
	if (!ret)
		ret = xbulk_bulkstat_single(fs, XFS_BULK_IREQ_SPECIAL_ROOT,
					    XFS_BULK_IREQ_SPECIAL, &bs);
	if (ret) {
		xbulk_parents_free(p);
		return ret;
	}
	p->root_ino = bs.bs_ino;
	p->root_gen = bs.bs_gen;
	*out = p;
	return 0;
}

void
xbulk_parents_set_cancel(struct xbulk_parents *p, const volatile int *cancel)
{
	p->cancel = cancel;
}

void
xbulk_parents_free(struct xbulk_parents *p)
{
	if (!p)
		return;
	free(p->buf);
	free(p->dirs);
	xbl_hash_free(&p->index);
	free(p->names);
	free(p->stack);
	free(p->path);
	free(p);
}

/*
 * Hand the records of one answer to @fn; *@n counts them.  Return 0, 1 if
 * @fn stopped, -EPROTO for a malformed record, or @fn's error.
 */
static int
each_record(struct xbulk_parents *p, xbulk_parent_fn fn, void *arg,
	    uint32_t *n)
{
	const size_t head = offsetof(struct xfs_getparents_rec, gpr_name);
	size_t off = 0;
	int ret;

	*n = 0;
	while (off + head < p->bufsize) {
		const struct xfs_getparents_rec *r =
			(const void *)(p->buf + off);
		size_t room, len;

		if (r->gpr_reclen == 0 && off == 0)
			return 0;	/* no record: the mark stayed */
		if (r->gpr_reclen <= head ||
		    r->gpr_reclen > p->bufsize - off ||
		    (r->gpr_reclen % 8 && off + r->gpr_reclen < p->bufsize))
			return -EPROTO;
		room = r->gpr_reclen - head;
		len = strnlen(r->gpr_name, room);
		if (len == 0 || len == room)
			return -EPROTO;
		(*n)++;
		ret = fn(arg, r->gpr_parent.ha_fid.fid_ino,
			 r->gpr_parent.ha_fid.fid_gen, r->gpr_name, len);
		if (ret)
			return ret;
		off += r->gpr_reclen;
	}
	return 0;
}

/* The kernel's ESTALE for @ino: freed or used again, or (bulkstat says
 * so) unreadable: that error instead. */
static int
stale(struct xbulk_parents *p, uint64_t ino)
{
	struct xfs_bulkstat bs;
	int err = xbulk_bulkstat_single(p->fs, ino, 0, &bs);

	return err == -EUCLEAN || err == -EBADMSG || err == -EIO ? err :
								   -ESTALE;
}

int
xbulk_parents_each(struct xbulk_parents *p, uint64_t ino, uint32_t gen,
		   xbulk_parent_fn fn, void *arg)
{
	struct xfs_getparents_by_handle gph;
	struct xfs_getparents *gp = &gph.gph_request;
	struct xfs_attrlist_cursor prev;
	uint32_t calls, n;
	int ret;

	memset(&gph, 0, sizeof(gph));
	memcpy(&gph.gph_handle.ha_fsid, p->fsid, sizeof(p->fsid));
	gph.gph_handle.ha_fid.fid_len = sizeof(gph.gph_handle.ha_fid) -
					sizeof(gph.gph_handle.ha_fid.fid_len);
	gph.gph_handle.ha_fid.fid_gen = gen;
	gph.gph_handle.ha_fid.fid_ino = ino;
	gp->gp_buffer = (uintptr_t)p->buf;
	for (calls = 0; calls < MAX_CALLS; calls++) {
		if (p->cancel && *p->cancel)
			return -EINTR;
		prev = gp->gp_cursor;
		gp->gp_bufsize = p->bufsize;
		/* A record's length is never 0: mark "no record". */
		memset(p->buf, 0, sizeof(struct xfs_getparents_rec));
		if (ioctl(p->fs->fd, XFS_IOC_GETPARENTS_BY_HANDLE, &gph) < 0)
			return errno == ESTALE ? stale(p, ino) : -errno;
		if (gp->gp_oflags & XFS_GETPARENTS_OFLAG_ROOT)
			return XBULK_PARENTS_ROOT;
		ret = each_record(p, fn, arg, &n);
		if (ret)
			return ret < 0 ? ret : 0;
		if (gp->gp_oflags & XFS_GETPARENTS_OFLAG_DONE)
			return 0;
		/* Not done: the call must have returned something. */
		if (n == 0 || !memcmp(&prev, &gp->gp_cursor, sizeof(prev)))
			return -EPROTO;
	}
	return -EPROTO;
}
