// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Stepping past inodes the kernel cannot read.  xfs_bulkstat() returns the
 * records it formatted before a bad inode without error, with the cursor
 * on the bad inode; the next call then fails without formatting anything.
 * So when a call fails, the bad inode is the first allocated inode at or
 * after the cursor, which the inobt (inumbers) still tells.
 */
#include <errno.h>
#include <sys/stat.h>

#include "internal.h"

/*
 * Is @err the failure of one inode?  Corruption and checksum errors are;
 * EIO is only if the inode of our own fd can still be read (after a
 * shutdown every call fails with EIO).
 */
static bool
single_inode_error(struct xbulk_fs *fs, int err)
{
	struct xfs_bulkstat bs;
	struct stat st;

	if (err == -EUCLEAN || err == -EBADMSG)
		return true;
	if (err != -EIO || fstat(fs->fd, &st))
		return false;
	return xbulk_bulkstat_single(fs, st.st_ino, 0, &bs) == 0;
}

/* First allocated inode at or after @ino, from the inobt. */
static int
first_allocated(struct xbulk_fs *fs, uint64_t ino, uint64_t *found)
{
	struct {
		struct xfs_bulk_ireq	hdr;
		struct xfs_inumbers	rec;
	} req;
	int ret;

	for (;;) {
		uint64_t mask, off;

		req.hdr = (struct xfs_bulk_ireq){ .ino = ino, .icount = 1 };
		ret = xbulk_inumbers(fs, (struct xfs_inumbers_req *)&req);
		if (ret)
			return ret;
		if (req.hdr.ocount == 0)
			return -ENOENT;
		mask = req.rec.xi_allocmask;
		if (ino > req.rec.xi_startino) {
			off = ino - req.rec.xi_startino;
			mask = off >= 64 ? 0 : mask & (~0ULL << off);
		}
		if (mask) {
			*found = req.rec.xi_startino +
				 (uint64_t)__builtin_ctzll(mask);
			return 0;
		}
		ino = req.rec.xi_startino + XBULK_INODES_PER_CHUNK;
	}
}

int
xbulk_step_past_bad(struct xbulk_fs *fs, const struct xbulk_scan *scan,
		    uint64_t cursor, uint64_t last, int err, uint64_t *next,
		    uint64_t *nbad)
{
	uint64_t bad;

	if (!scan->bad_inode_fn || scan->kind != XBULK_KIND_BULKSTAT ||
	    !single_inode_error(fs, err))
		return err;
	if (first_allocated(fs, cursor, &bad))
		return err;
	if (bad <= last) {
		scan->bad_inode_fn(scan->arg, bad, err);
		__atomic_add_fetch(nbad, 1, __ATOMIC_RELAXED);
	}
	*next = bad + 1;
	return 0;
}
