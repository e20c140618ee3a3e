// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Re-checking a directory whose listers disagree with each other or with
 * its "..": what do they say now?  Each question is answered by the
 * kernel afresh, by handle: the directory's ".." as the directory itself
 * holds it (its getdents entry: a path walk's ".." would be the dentry
 * cache's parent, which for a directory listed twice is wherever it was
 * last looked up) and, for each entry naming it, whether that name in
 * that directory still leads to it (fstatat of the name).  A
 * disagreement that goes away was churn (a rename during the scan); one
 * that stays is damage.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "tree.h"

/* Rounds of questions before what is left is called damage. */
#define ROUNDS		3

/* The inode the ".." entry of directory @d names now (XFS lists "." and
 * ".." first), 0 if unknown; -ESTALE if @d is gone. */
static int64_t
dotdot_now(const struct xbulk_names *nm, const struct xbn_dir *d)
{
	char buf[4096];
	int64_t dd = 0;
	ssize_t len, pos;
	int fd;

	fd = xbn_open_dir(nm->mfd, d->ino, d->gen);
	if (fd == -ESTALE || fd == -ENOENT)
		return -ESTALE;
	if (fd < 0)
		return 0;
	len = getdents64(fd, buf, sizeof(buf));
	for (pos = 0; pos < len && !dd;) {
		const struct dirent64 *de = (void *)(buf + pos);

		if (!de->d_reclen)
			break;
		if (!strcmp(de->d_name, ".."))
			dd = (int64_t)de->d_ino;
		pos += de->d_reclen;
	}
	close(fd);
	return dd;
}

/* Does the entry at @off of directory @p still lead to inode @ino? */
static bool
entry_now(const struct xbulk_names *nm, uint32_t p, uint64_t off,
	  uint64_t ino)
{
	char name[256];
	struct stat st;
	int fd, ret;

	fd = xbn_open_parent(nm, p, off, name);
	if (fd < 0)
		return false;
	ret = fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW);
	close(fd);
	return ret == 0 && st.st_ino == ino;
}

static int
damage(struct xbulk_names *nm, struct xbulk_names_result *r,
       enum xbulk_names_problem_kind kind, uint32_t c, const struct xbn_edge *e,
       uint64_t ino)
{
	struct xbn_problem p = {
		.kind = kind, .dir = c, .pdir = e ? e->p : XBN_NONE,
		.off = e ? e->off : 0, .ino = ino,
	};

	r->damage++;
	return xbn_problem_add(nm, &p);
}

int
xbn_recheck(struct xbulk_names *nm, struct xbulk_names_result *r, uint32_t c,
	    const struct xbn_edge *edges, size_t nedges)
{
	struct xbn_dir *d = xbn_dir(&nm->dirs, c);
	bool valid[XBN_MAX_EDGES];
	const struct xbn_edge *pick = NULL, *first = NULL;
	int64_t dd = 0;
	size_t i;
	bool stale;
	int round, ret = 0;

	if (nedges > XBN_MAX_EDGES)
		nedges = XBN_MAX_EDGES;
	for (round = 0; round < ROUNDS && !pick; round++) {
		dd = dotdot_now(nm, d);
		if (dd == -ESTALE) {
			d->flags |= XBN_DIR_GONE;
			d->parent = XBN_NONE;
			return 0;
		}
		first = NULL;
		for (i = 0; i < nedges; i++) {
			const struct xbn_edge *e = &edges[i];

			valid[i] = entry_now(nm, e->p, e->off, d->ino);
			if (!valid[i])
				continue;
			if (!first)
				first = e;
			if (!pick && c != nm->root &&
			    xbn_dir(&nm->dirs, e->p)->ino == (uint64_t)dd)
				pick = e;
		}
		if (!first)
			break;
	}
	d->parent = XBN_NONE;
	if (c != nm->root && !pick && first) {
		/* Only a lister that ".." does not name: follow it anyway. */
		pick = first;
		ret = damage(nm, r, XBULK_PROBLEM_DOTDOT, c, NULL,
			     dd > 0 ? (uint64_t)dd : d->dotdot);
	}
	if (pick) {
		d->parent = pick->p;
		d->entry_off = pick->off;
	}
	for (i = 0; i < nedges && !ret; i++) {
		if (&edges[i] == pick)
			continue;
		if (valid[i])
			ret = damage(nm, r, XBULK_PROBLEM_DIR_LINK, c,
				     &edges[i], 0);
	}
	/* Stale names or a stale "..": the scan saw it move. */
	stale = d->dotdot != (uint64_t)dd;
	for (i = 0; i < nedges; i++)
		stale |= !valid[i];
	if (stale) {
		d->flags |= XBN_DIR_MOVED;
		r->dirs_moved++;
	}
	return ret;
}
