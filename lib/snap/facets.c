// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What changed between two records of one inode (same number and
 * generation): the facets of a change and whether a directory changed
 * only through its entries.  The rules are the man page's (DIFF):
 * content is size or mtime; ctime is a facet only when no other facet
 * explains it (an atime change does not); atime and layout (blocks,
 * extents) count only when asked.
 */
#include "snap.h"

uint32_t
snap_facets(const struct xfs_bulkstat *a, const struct xfs_bulkstat *b,
	    uint32_t flags)
{
	uint32_t f = 0;

	if (a->bs_size != b->bs_size || a->bs_mtime != b->bs_mtime ||
	    a->bs_mtime_nsec != b->bs_mtime_nsec)
		f |= XBULK_FACET_CONTENT;
	if ((a->bs_mode ^ b->bs_mode) & 07777)
		f |= XBULK_FACET_MODE;
	if (a->bs_uid != b->bs_uid)
		f |= XBULK_FACET_UID;
	if (a->bs_gid != b->bs_gid)
		f |= XBULK_FACET_GID;
	if (a->bs_projectid != b->bs_projectid)
		f |= XBULK_FACET_PROJID;
	/* Two flags only describe the inode's forks: FS_XFLAG_HASATTR (an
	 * attribute fork: an xattr set or removed is a ctime change) and
	 * FS_XFLAG_PREALLOC (preallocated extents: layout) */
	if ((a->bs_xflags ^ b->bs_xflags) &
	    ~(uint64_t)(FS_XFLAG_HASATTR | FS_XFLAG_PREALLOC))
		f |= XBULK_FACET_XFLAGS;
	if (a->bs_nlink != b->bs_nlink)
		f |= XBULK_FACET_NLINK;
	/* ctime moved and nothing above says why: an xattr set or removed,
	 * a chmod to the same mode, or utimensat(), which an atime change
	 * does not explain: touch -a looks the same as touch -d or cp -p
	 * putting back the times of a write of the same size (a read since
	 * moves atime on in both) */
	if (!f && (a->bs_ctime != b->bs_ctime ||
		   a->bs_ctime_nsec != b->bs_ctime_nsec))
		f |= XBULK_FACET_CTIME;
	if ((flags & XBULK_DIFF_ATIME) &&
	    (a->bs_atime != b->bs_atime || a->bs_atime_nsec != b->bs_atime_nsec))
		f |= XBULK_FACET_ATIME;
	if ((flags & XBULK_DIFF_LAYOUT) &&
	    (a->bs_blocks != b->bs_blocks ||
	     ((a->bs_xflags ^ b->bs_xflags) & FS_XFLAG_PREALLOC) ||
	     a->bs_extents64 != b->bs_extents64 ||
	     a->bs_aextents != b->bs_aextents))
		f |= XBULK_FACET_LAYOUT;
	return f;
}

bool
snap_entries_only(const struct xfs_bulkstat *a, const struct xfs_bulkstat *b,
		  uint32_t facets)
{
	return snap_is_dir(b) && (facets & XBULK_FACET_CONTENT) &&
	       !(facets & ~(XBULK_FACET_CONTENT | XBULK_FACET_NLINK |
			    XBULK_FACET_CTIME | XBULK_FACET_ATIME |
			    XBULK_FACET_LAYOUT)) &&
	       (a->bs_mtime != b->bs_mtime ||
		a->bs_mtime_nsec != b->bs_mtime_nsec);
}
