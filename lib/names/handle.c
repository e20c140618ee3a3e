// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * XFS file handles: open any inode of the mounted filesystem from its
 * bulkstat record, without a path (xfsdump and xfs_scrub do the same).
 * The layout is that of the kernel's xfs_fs_encode_fh() for a 64-bit
 * inode number without the parent: handle type FILEID_INO32_GEN (1) with
 * XFS_FILEID_TYPE_64FLAG (0x80), then the inode number and generation in
 * host order (tests/integration/names_dump.c checks it against
 * name_to_handle_at()).  open_by_handle_at() needs CAP_DAC_READ_SEARCH.
 */
#include <errno.h>
#include <fcntl.h>

#include "names.h"

void
xbn_handle_pack(union xbn_handle *h, uint64_t ino, uint32_t gen)
{
	memset(h, 0, sizeof(*h));
	h->fh.handle_bytes = XBN_HANDLE_BYTES;
	h->fh.handle_type = XBN_HANDLE_TYPE;
	memcpy(h->fh.f_handle, &ino, sizeof(ino));
	memcpy(h->fh.f_handle + sizeof(ino), &gen, sizeof(gen));
}

int
xbn_open_handle(int mfd, uint64_t ino, uint32_t gen, int flags)
{
	union xbn_handle h;
	int fd;

	xbn_handle_pack(&h, ino, gen);
	fd = open_by_handle_at(mfd, &h.fh, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int
xbn_open_dir(int mfd, uint64_t ino, uint32_t gen)
{
	return xbn_open_handle(mfd, ino, gen,
			       O_RDONLY | O_DIRECTORY | O_NOATIME);
}

int
xbn_open_parent(const struct xbulk_names *nm, uint32_t p, uint64_t off,
		char *name)
{
	const struct xbn_dir *pd = xbn_dir(&nm->dirs, p);

	xbn_ent_cname(pd->list + off, name);
	return xbn_open_handle(nm->mfd, pd->ino, pd->gen, O_PATH | O_DIRECTORY);
}
