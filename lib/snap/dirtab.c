// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The directory table of a snapshot: every directory's inode number,
 * generation, parent and name, sorted by inode number.  It is all a
 * snapshot keeps in memory (what paths need); records stream.  Sealing
 * links each directory to its parent's index and refuses a cycle of
 * parents (only a damaged or forged file has one), so that a path is
 * always a walk up to a directory without a parent.
 */
#include <errno.h>
#include <stdlib.h>

#include "snap.h"

enum {
	DIR_TOP		= 1u << 0,	/* the mount's top */
	DIR_ROOTED	= 1u << 1,	/* its parents lead to the top */
	DIR_SEEN	= 1u << 2,	/* sealing: settled */
	DIR_WALK	= 1u << 3,	/* sealing: on this walk */
};

int
snap_dirtab_add(struct snap_dirtab *t, uint64_t ino, uint32_t gen,
		uint64_t parent, const char *name, uint32_t namelen)
{
	struct snap_dir *d;

	if (t->n && t->v[t->n - 1].ino >= ino)
		return -EBADMSG;
	if (xbl_grow((void **)&t->v, &t->cap, t->n + 1, sizeof(*t->v)) ||
	    xbl_grow((void **)&t->names, &t->namescap, t->nameslen + namelen + 1,
		 1))
		return -ENOMEM;
	d = &t->v[t->n++];
	d->ino = ino;
	d->gen = gen;
	d->parent = parent;
	d->namelen = namelen;
	d->name = t->nameslen;
	d->pidx = UINT32_MAX;
	d->flags = ino == t->top ? DIR_TOP : 0;
	memcpy(t->names + t->nameslen, name, namelen);
	t->nameslen += namelen;
	return 0;
}

uint32_t
snap_dirtab_find(const struct snap_dirtab *t, uint64_t ino)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->n && t->v[lo].ino == ino ? (uint32_t)lo : UINT32_MAX;
}

int
snap_dirtab_seal(struct snap_dirtab *t)
{
	uint32_t *path;
	size_t i;

	if (t->n >= UINT32_MAX)
		return -EBADMSG;
	for (i = 0; i < t->n; i++) {
		struct snap_dir *d = &t->v[i];

		if (d->parent && !(d->flags & DIR_TOP))
			d->pidx = snap_dirtab_find(t, d->parent);
	}
	path = malloc((t->n ? t->n : 1) * sizeof(*path));
	if (!path)
		return -ENOMEM;
	/* Walk up from each directory not yet settled, to the top, to one
	 * without a parent, or to one settled before; meeting the walk
	 * itself is a cycle.  Then settle every directory of the walk. */
	for (i = 0; i < t->n; i++) {
		uint32_t x = (uint32_t)i, rooted;
		size_t len = 0;

		while (x != UINT32_MAX && !(t->v[x].flags & DIR_SEEN)) {
			if (t->v[x].flags & DIR_TOP)
				break;
			t->v[x].flags |= DIR_SEEN | DIR_WALK;
			path[len++] = x;
			x = t->v[x].pidx;
		}
		if (x != UINT32_MAX && (t->v[x].flags & DIR_WALK)) {
			free(path);
			return -EBADMSG;
		}
		rooted = x != UINT32_MAX &&
			 (t->v[x].flags & (DIR_TOP | DIR_ROOTED)) ? DIR_ROOTED : 0;
		while (len--)
			t->v[path[len]].flags = (t->v[path[len]].flags &
						 ~DIR_WALK) | rooted;
	}
	free(path);
	return 0;
}

/* Put directory @x's path ("a/b", "" for the top) at the start of *@buf;
 * return its length, -ENOENT (not rooted) or -ENOMEM. */
static long
dir_path(const struct snap_dirtab *t, uint32_t x, char **buf, size_t *cap)
{
	size_t len = 0, pos;
	uint32_t y;

	if (!(t->v[x].flags & (DIR_TOP | DIR_ROOTED)))
		return -ENOENT;
	for (y = x; !(t->v[y].flags & DIR_TOP); y = t->v[y].pidx)
		len += t->v[y].namelen + 1;
	if (len)
		len--;
	if (xbl_grow((void **)buf, cap, len + 258, 1))
		return -ENOMEM;
	pos = len;
	for (y = x; !(t->v[y].flags & DIR_TOP); y = t->v[y].pidx) {
		const struct snap_dir *d = &t->v[y];

		pos -= d->namelen;
		memcpy(*buf + pos, t->names + d->name, d->namelen);
		if (pos)
			(*buf)[--pos] = '/';
	}
	return (long)len;
}

long
snap_dirtab_path(const struct snap_dirtab *t, const struct xbulk_snap_link *l,
		 char **buf, size_t *cap)
{
	uint32_t x;
	long len;

	if (!l) {
		if (xbl_grow((void **)buf, cap, 2, 1))
			return -ENOMEM;
		memcpy(*buf, ".", 2);
		return 1;
	}
	x = snap_dirtab_find(t, l->parent);
	if (x == UINT32_MAX)
		return -ENOENT;
	len = dir_path(t, x, buf, cap);
	if (len < 0)
		return len;
	if (xbl_grow((void **)buf, cap, (size_t)len + l->namelen + 2, 1))
		return -ENOMEM;
	if (len)
		(*buf)[len++] = '/';
	memcpy(*buf + len, l->name, l->namelen);
	len += l->namelen;
	(*buf)[len] = '\0';
	return len;
}

void
snap_dirtab_free(struct snap_dirtab *t)
{
	free(t->v);
	free(t->names);
	memset(t, 0, sizeof(*t));
}
