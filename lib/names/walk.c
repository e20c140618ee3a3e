// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Walks: the paths under one operand in GNU find's order, from the
 * listings (already in fts's order) and the accepted parents.  An
 * explicit stack of directories and one growing path buffer, so depth and
 * path length are bounded by memory only; no system call and no
 * allocation per entry (the buffers only grow).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tree.h"
#include "walk.h"

/* Look at the cancel flag once per this many entries. */
#define CANCEL_EVERY	1024

/* A bad inode's error, or 0. */
static int
bad_err(const struct xbulk_names *nm, uint64_t ino)
{
	size_t lo = 0, hi = nm->nbad;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (nm->bad[mid].ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nm->nbad && nm->bad[lo].ino == ino ? nm->bad[lo].err : 0;
}

/* The fields of inode @ino's @slot in w->bs (the others stay 0). */
static const struct xfs_bulkstat *
fill(struct xbn_walk *w, uint64_t ino, const struct xbn_slot *slot,
     const struct xbn_dir *d)
{
	w->bs.bs_ino = ino;
	w->bs.bs_mode = slot->mode;
	w->bs.bs_gen = d ? d->gen : slot->aux;
	xbn_unpack(&w->nm->store.lay, &w->bs, slot);
	return &w->bs;
}

/* @e for the non-directory @ino of @slot. */
static void
file_entry(struct xbn_walk *w, struct xbulk_entry *e, uint64_t ino,
	   const struct xbn_slot *slot)
{
	e->bs = fill(w, ino, slot, NULL);
	if (slot->flags & XBN_SLOT_LINKED)
		e->flags |= XBULK_ENTRY_LINKED;
}

static int
visit(struct xbn_walk *w, struct xbulk_entry *e, enum xbulk_visit v)
{
	int ret;

	if (++w->count % CANCEL_EVERY == 0)
		XBL_PROGRESS_ADD(w->nm->progress, walked, CANCEL_EVERY);
	/* at every entry once commands run (one may have been stopped) */
	if ((w->count % CANCEL_EVERY == 0 || w->nm->live) &&
	    xbl_cancelled(w->nm->cancel))
		return -EINTR;
	xbn_spill_tick(&w->nm->spill, 1);
	e->start = w->start;
	e->startlen = w->startlen;
	/* a plain walk's entries carry their own */
	if (w->nm->plain) {
		e->flags |= XBULK_ENTRY_PLAIN;
	} else if (!(e->flags & XBULK_ENTRY_MOUNT)) {
		e->dev = w->nm->dev;
		/* statx's 512-byte blocks, or the scan's */
		e->blocklog = e->flags & XBULK_ENTRY_LIVE ? 9 :
			      w->nm->fs->blocklog;
		e->fstype = "xfs";
	}
	ret = w->fn(w->arg, e, v);
	if (ret == XBULK_WALK_PRUNE && (v == XBULK_VISIT_POST ||
					!S_ISDIR(e->bs->bs_mode)))
		ret = 0;
	return ret;
}

/*
 * Read directory @e now (the filesystem changed): its frame keeps @e's
 * record for its POST.  A directory that cannot be read comes again at
 * once, flagged UNREADABLE and LIVE with the error (find's FTS_DNR: said,
 * and evaluated with -depth).
 */
static int
enter_live(struct xbn_walk *w, struct xbulk_entry *e)
{
	struct xbulk_names *nm = w->nm;
	const uint8_t *list = NULL;
	uint64_t len = 0, n = 0;
	struct xbn_frame *f;
	uint32_t gen = 0;
	int err, fd = -1;

	/* -H: an operand that is a symbolic link is followed; -L: any;
	 * a plain walk keeps the directory open while it lists it */
	err = xbn_live_read(nm, e, (!e->depth && w->follow) || w->logical,
			    e->bs->bs_ino, &list, &len, &n, &gen,
			    nm->plain && w->fds < w->fds_max ? &fd : NULL);
	if (err == -EINTR || err == -ENOMEM)
		return err;
	if (err) {
		e->flags |= XBULK_ENTRY_UNREADABLE | XBULK_ENTRY_LIVE;
		e->err = err;
		return visit(w, e, XBULK_VISIT_POST);
	}
	if (xbl_grow(&nm->stack, &nm->stack_cap, w->sp + 1, sizeof(*f))) {
		if (fd >= 0)
			close(fd);
		if (nm->plain)
			free((void *)list);
		return -ENOMEM;
	}
	f = (struct xbn_frame *)nm->stack + w->sp++;
	f->fd = fd;
	f->list = nm->plain ? (uint8_t *)list : NULL;
	w->fds += fd >= 0;
	f->dev = e->dev;
	f->dir = XBN_NONE;
	f->depth = e->depth;
	f->e = list;
	f->end = list + len;
	f->plen = e->pathlen;
	f->name_off = e->name_off;
	f->flags = e->flags & (XBULK_ENTRY_LIVE | XBULK_ENTRY_LAZY);
	f->gen = gen;
	f->dino = e->dino;
	f->bs = *e->bs;
	return 0;
}

/* Enter directory @d (its entry just visited): push it, or visit its
 * POST now if it has nothing to show. */
static int
enter(struct xbn_walk *w, uint32_t di, struct xbulk_entry *e, bool prune)
{
	struct xbulk_names *nm = w->nm;
	const struct xbn_dir *d = di < XBN_LIVE ? xbn_dir(&nm->dirs, di) :
			NULL;
	struct xbn_frame *f;

	/* A mount point is a directory with nothing to show */
	if (prune || (e->flags & XBULK_ENTRY_MOUNT) ||
	    (d && (d->flags & XBN_DIR_MOUNT)))
		return w->post ? visit(w, e, XBULK_VISIT_POST) : 0;
	if (nm->live)
		return enter_live(w, e);
	if (!d->list)
		return w->post ? visit(w, e, XBULK_VISIT_POST) : 0;
	if (xbl_grow(&nm->stack, &nm->stack_cap, w->sp + 1, sizeof(*f)))
		return -ENOMEM;
	f = (struct xbn_frame *)nm->stack + w->sp++;
	f->fd = -1;
	f->list = NULL;
	f->dir = di;
	f->depth = e->depth;
	f->e = d->list;
	f->end = d->list + d->listlen;
	f->plen = e->pathlen;
	f->name_off = e->name_off;
	return 0;
}

/*
 * After xbulk_names_changed(): the entry @de as fts gives it then, its
 * path already in @e: a directory (or an entry of unknown type)
 * stat()ed now, LIVE, entered if it is a directory of this mount (@di
 * XBN_LIVE); another file LAZY, its type from the entry.
 */
static void
live_child(struct xbn_walk *w, struct xbulk_entry *e, const uint8_t *de,
	   uint32_t *di)
{
	struct xbulk_names *nm = w->nm;
	unsigned int dt = xbn_ent_dtype(de);
	struct statx stx;
	int err;

	if (nm->plain) {
		xbn_plain_child(w, e, de, di);
		return;
	}
	*di = XBN_NONE;
	e->dtype = dt;
	e->dino = xbn_ent_ino(de);
	e->bs = &w->bs;
	if (dt != DT_DIR && dt != DT_UNKNOWN) {
		memset(&w->bs, 0, sizeof(w->bs));
		w->bs.bs_ino = e->dino;
		w->bs.bs_mode = (uint16_t)DTTOIF(dt);
		e->flags = XBULK_ENTRY_LAZY;
		return;
	}
	err = xbn_live_stat(nm, e, false, &w->bs, &stx);
	if (err) {		/* gone: its name, no type (FTS_NS) */
		memset(&w->bs, 0, sizeof(w->bs));
		w->bs.bs_ino = e->dino;
		e->flags = XBULK_ENTRY_LAZY;
		e->err = err;
		return;
	}
	e->flags = XBULK_ENTRY_LIVE;
	if (S_ISDIR(stx.stx_mode))
		*di = XBN_LIVE;
	if (!xbn_live_ours(nm, &stx)) {
		e->flags |= XBULK_ENTRY_MOUNT;
		e->dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
		e->blocklog = 9;
		e->fstype = xbn_live_fstype(nm, &stx);
		e->nentries = S_ISDIR(stx.stx_mode);
	}
}

/* The entry of the mount @m: what statx says of its root. */
static void
mount_entry(struct xbulk_entry *e, const struct xbn_mount *m)
{
	e->bs = &m->bs;
	e->flags = XBULK_ENTRY_MOUNT;
	e->dev = m->dev;
	e->blocklog = 9;
	e->fstype = m->fstype;
	e->nentries = m->nentries;
	e->err = m->err;
}

/* A directory's entry: the store's record, or the mount on it. */
static void
dir_entry(struct xbn_walk *w, struct xbulk_entry *e,
	  const struct xbn_slot *slot, const struct xbn_dir *d)
{
	if (d->flags & XBN_DIR_MOUNT) {
		mount_entry(e, &w->nm->mounts[d->mount]);
		return;
	}
	e->bs = fill(w, d->ino, slot, d);
	e->nentries = d->nentries;
	if (d->flags & XBN_DIR_UNREADABLE) {
		e->flags = XBULK_ENTRY_UNREADABLE;
		e->err = d->err;
	}
}

/* The mount on entry @off of directory @p, if any. */
static const struct xbn_mount *
mount_at(const struct xbulk_names *nm, uint32_t p, uint64_t off)
{
	size_t i;

	for (i = 0; i < nm->nmounts; i++) {
		if (nm->mounts[i].parent == p && nm->mounts[i].entry_off == off)
			return &nm->mounts[i];
	}
	return NULL;
}

/* Fill @e for the inode of entry @de; false if a walk does not show it. */
static bool
child_entry(struct xbn_walk *w, struct xbulk_entry *e,
	    const struct xbn_frame *f, const uint8_t *de, uint32_t *di)
{
	struct xbulk_names *nm = w->nm;
	uint64_t ino = xbn_ent_ino(de), off;
	unsigned int dt = xbn_ent_dtype(de);
	const struct xbn_slot *slot = xbn_lookup(&nm->store, ino);
	const struct xbn_mount *m;
	struct xbn_dir *d;

	*di = XBN_NONE;
	e->dtype = dt;
	e->dino = ino;
	off = (uint64_t)(de - xbn_dir(&nm->dirs, f->dir)->list);
	/* A mount over a file keep dropped: the mount's stat decides */
	m = !slot && nm->nmounts ? mount_at(nm, f->dir, off) : NULL;
	if (m) {
		mount_entry(e, m);
		return true;
	}
	if (!slot) {
		e->err = nm->nbad ? bad_err(nm, ino) : 0;
		if (!e->err)
			return false;	/* dropped by keep, or new */
		w->bad.bs_ino = ino;
		w->bad.bs_mode = (uint16_t)DTTOIF(dt);
		e->bs = &w->bad;
		e->flags = XBULK_ENTRY_BAD_INODE;
		return true;
	}
	if (dt != DT_UNKNOWN && DTTOIF(dt) != (slot->mode & S_IFMT))
		return false;		/* the inode was reused */
	d = xbn_slot_dir(nm, slot);
	if (d) {
		if (!xbn_is_edge(d, f->dir, off) || d->mark == w->mark ||
		    (d->flags & XBN_DIR_GONE))
			return false;
		d->mark = w->mark;
		*di = slot->aux;
		dir_entry(w, e, slot, d);
		return true;
	}
	m = slot->flags & XBN_SLOT_MOUNT ? mount_at(nm, f->dir, off) : NULL;
	if (m) {
		mount_entry(e, m);
	} else {
		file_entry(w, e, ino, slot);
	}
	return true;
}

/* Put @f's path and "/" + the entry's name in the buffer. */
static int
child_path(struct xbn_walk *w, struct xbulk_entry *e, const struct xbn_frame *f,
	   const uint8_t *de)
{
	struct xbulk_names *nm = w->nm;
	unsigned int nl = xbn_ent_namelen(de);
	size_t pos = f->plen;

	/* fts: a trailing '/' of the operand is not doubled */
	if (!f->depth && pos && nm->path[pos - 1] == '/')
		pos--;
	if (xbl_grow((void **)&nm->path, &nm->path_cap, pos + nl + 17, 1))
		return -ENOMEM;
	nm->path[pos++] = '/';
	xbn_copy_name(nm->path + pos, xbn_ent_name(de), nl);
	nm->path[pos + nl] = '\0';
	e->path = nm->path;
	e->name_off = pos;
	e->pathlen = pos + nl;
	e->depth = f->depth + 1;
	return 0;
}

/* The POST visit of the directory of frame @f, popped. */
static int
leave(struct xbn_walk *w, const struct xbn_frame *f)
{
	struct xbulk_names *nm = w->nm;
	const struct xbn_dir *d = f->dir == XBN_NONE ? NULL :
				  xbn_dir(&nm->dirs, f->dir);
	struct xbulk_entry e = {
		.path = nm->path, .pathlen = f->plen, .name_off = f->name_off,
		.depth = f->depth, .dino = d ? d->ino : 0,
	};

	if (!w->post)
		return 0;
	nm->path[f->plen] = '\0';
	if (f->dir == XBN_NONE) {	/* read live */
		e.dino = f->dino;
		e.flags = f->flags;
		w->bs = f->bs;
		e.bs = &w->bs;
	} else {
		dir_entry(w, &e, xbn_lookup(&nm->store, d->ino), d);
	}
	return visit(w, &e, XBULK_VISIT_POST);
}

static int
run(struct xbn_walk *w)
{
	struct xbulk_names *nm = w->nm;

	while (w->sp) {
		struct xbn_frame *f = (struct xbn_frame *)nm->stack + w->sp - 1;
		struct xbulk_entry e = { .bs = NULL };
		const uint8_t *de = f->e;
		uint32_t di = XBN_NONE;
		int ret;

		if (de >= f->end) {
			struct xbn_frame done = *f;

			w->sp--;
			if (done.fd >= 0) {
				close(done.fd);
				w->fds--;
			}
			free(done.list);
			ret = leave(w, &done);
			if (ret)
				return ret;
			continue;
		}
		f->e = xbn_ent_next(de);
		if (nm->live) {
			ret = child_path(w, &e, f, de);
			if (!ret)
				live_child(w, &e, de, &di);
		} else {
			if (!child_entry(w, &e, f, de, &di))
				continue;
			ret = child_path(w, &e, f, de);
		}
		if (!ret)
			ret = visit(w, &e, XBULK_VISIT_PRE);
		/* An unreadable inode (no directory record) has nothing to
		 * prune and no POST: do not enter it. */
		if (ret == XBULK_WALK_PRUNE && di == XBN_NONE)
			ret = 0;
		if (ret == XBULK_WALK_PRUNE || (!ret && di != XBN_NONE))
			ret = enter(w, di, &e, ret == XBULK_WALK_PRUNE);
		if (ret)
			return ret;
	}
	return 0;
}

/* The slot of operand @start and its inode in *@ino; -EXDEV, -ESTALE,
 * or stat's error. */
static int
find_start(struct xbulk_names *nm, const char *start, unsigned int flags,
	   struct xbn_slot **slot, uint64_t *ino)
{
	struct statx stx;
	int at = flags & XBULK_WALK_FOLLOW ? 0 : AT_SYMLINK_NOFOLLOW;

	*slot = NULL;
	/* fts's FTS_COMFOLLOW: a dangling symbolic link is itself */
	if (statx(AT_FDCWD, start, at | AT_NO_AUTOMOUNT,
		  STATX_TYPE | STATX_INO | STATX_MNT_ID, &stx) &&
	    (errno != ENOENT || at ||
	     statx(AT_FDCWD, start, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
		   STATX_TYPE | STATX_INO | STATX_MNT_ID, &stx)))
		return -errno;
	if (makedev(stx.stx_dev_major, stx.stx_dev_minor) != nm->dev ||
	    ((stx.stx_mask & STATX_MNT_ID) && stx.stx_mnt_id != nm->mnt_id))
		return -EXDEV;
	*ino = stx.stx_ino;
	*slot = xbn_lookup(&nm->store, stx.stx_ino);
	if (!*slot)
		/* A file keep dropped comes in no walk; other inodes the
		 * scan must have seen. */
		return S_ISDIR(stx.stx_mode) || !nm->filtered ? -ESTALE : 0;
	if (((*slot)->mode & S_IFMT) != (stx.stx_mode & S_IFMT))
		return -ESTALE;
	return 0;
}

/* The operand @e of a walk after xbulk_names_changed(), stat()ed into
 * w->bs now; 0 or -errno. */
static int
live_start(struct xbn_walk *w, struct xbulk_entry *e)
{
	struct statx stx;
	int ret;

	ret = xbn_live_stat(w->nm, e, w->follow, &w->bs, &stx);
	if (ret == -ENOENT && w->follow)	/* dangling: as find_start() */
		ret = xbn_live_stat(w->nm, e, false, &w->bs, &stx);
	if (ret)
		return ret;
	if (!xbn_live_ours(w->nm, &stx))
		return -EXDEV;
	e->bs = &w->bs;
	e->dino = stx.stx_ino;
	e->flags = XBULK_ENTRY_LIVE;
	return 0;
}

/* A walk after xbulk_names_changed(), or of plain names: the operand
 * stat()ed now. */
static int
walk_live(struct xbn_walk *w, struct xbulk_entry *e)
{
	int ret = w->nm->plain ? xbn_plain_start(w, e) : live_start(w, e);

	if (ret)
		return ret;
	ret = visit(w, e, XBULK_VISIT_PRE);
	if (S_ISDIR(w->bs.bs_mode) && !(e->flags & XBULK_ENTRY_MOUNT) &&
	    (ret == 0 || ret == XBULK_WALK_PRUNE))
		ret = enter(w, XBN_LIVE, e, ret == XBULK_WALK_PRUNE);
	if (!ret)
		ret = run(w);
	return ret == XBULK_WALK_STOP || ret < 0 ? ret : 0;
}

/*
 * Why the directory of operand @start was never read: no readable path
 * from the filesystem's root reaches it, a directory above it could not
 * be read.  That directory's error: the nearest one above @start (its
 * ".." after ".."), else the root's (a mount of a directory below it);
 * -EUCLEAN if no directory above it is unreadable (a damaged tree);
 * -ENOMEM.
 */
static int
unreached_err(const struct xbulk_names *nm, const char *start)
{
	const struct xbn_dir *root = xbn_dir(&nm->dirs, nm->root);
	size_t len = strlen(start), cap = len + 3 * 64 + 1;
	char *p = malloc(cap);
	int err = 0;

	if (!p)
		return -ENOMEM;
	memcpy(p, start, len);
	/* up to 64 levels: a deeper tree below the unreadable directory
	 * falls back on the root's error */
	while (!err && len + 3 < cap) {
		const struct xbn_slot *slot;
		const struct xbn_dir *d;
		struct statx stx;

		memcpy(p + len, "/..", 4);
		len += 3;
		if (statx(AT_FDCWD, p, AT_NO_AUTOMOUNT,
			  STATX_TYPE | STATX_INO | STATX_MNT_ID, &stx) ||
		    makedev(stx.stx_dev_major, stx.stx_dev_minor) != nm->dev ||
		    ((stx.stx_mask & STATX_MNT_ID) &&
		     stx.stx_mnt_id != nm->mnt_id))
			break;		/* out of the mount */
		slot = xbn_lookup(&nm->store, stx.stx_ino);
		d = slot ? xbn_slot_dir(nm, slot) : NULL;
		if (!d || d == root)
			break;
		if (d->flags & XBN_DIR_UNREADABLE)
			err = d->err;
	}
	free(p);
	if (!err)
		err = root->flags & XBN_DIR_UNREADABLE ? root->err : -EUCLEAN;
	return err;
}

static int
walk(struct xbn_walk *w, unsigned int flags)
{
	struct xbulk_names *nm = w->nm;
	const char *start = w->start;
	struct xbulk_entry e = { .depth = 0 };
	struct xbn_slot *slot;
	struct xbn_dir *d;
	size_t len = strlen(start);
	int ret;

	if (xbl_grow((void **)&nm->path, &nm->path_cap, len + 1, 1))
		return -ENOMEM;
	memcpy(nm->path, start, len + 1);
	e.path = nm->path;
	e.pathlen = len;
	nm->walk = w;
	if (nm->live)
		return walk_live(w, &e);
	ret = find_start(nm, start, flags, &slot, &e.dino);
	if (ret || !slot)
		return ret;
	w->mark = ++nm->pass;
	d = xbn_slot_dir(nm, slot);
	if (!d) {
		file_entry(w, &e, e.dino, slot);
		ret = visit(w, &e, XBULK_VISIT_PRE);
		return ret == XBULK_WALK_STOP || ret < 0 ? ret : 0;
	}
	/* the walk strategy read only the operands' subtrees */
	if ((d->flags & XBN_DIR_GONE) ||
	    (nm->strategy == XBULK_STRATEGY_WALK &&
	     !(d->flags & (XBN_DIR_READ | XBN_DIR_UNREADABLE |
			   XBN_DIR_MOUNT))))
		return -ESTALE;
	d->mark = w->mark;
	dir_entry(w, &e, slot, d);
	if (!(d->flags & (XBN_DIR_READ | XBN_DIR_UNREADABLE | XBN_DIR_MOUNT))) {
		/* below a directory that could not be read: its contents
		 * are as unknown as that one's */
		e.flags = XBULK_ENTRY_UNREADABLE;
		e.err = unreached_err(nm, start);
		if (e.err == -ENOMEM)
			return e.err;
	}
	ret = visit(w, &e, XBULK_VISIT_PRE);
	if (ret == 0 || ret == XBULK_WALK_PRUNE)
		ret = enter(w, slot->aux, &e, ret == XBULK_WALK_PRUNE);
	if (!ret)
		ret = run(w);
	return ret == XBULK_WALK_STOP || ret < 0 ? ret : 0;
}

int
xbulk_names_walk(struct xbulk_names *nm, const char *start,
		 unsigned int flags, xbulk_walk_fn fn, void *arg)
{
	struct xbn_walk w = {
		.nm = nm, .fn = fn, .arg = arg,
		.post = flags & XBULK_WALK_POST,
		.follow = flags & XBULK_WALK_FOLLOW,
		.logical = flags & XBULK_WALK_LOGICAL,
		.xdev = flags & XBULK_WALK_XDEV,
		.start = start, .startlen = strlen(start),
	};
	int ret;

	if (w.logical && !nm->plain)
		return -EINVAL;
	if (nm->plain)
		w.fds_max = xbn_plain_fds();
	ret = walk(&w, flags);
	XBL_PROGRESS_ADD(nm->progress, walked, w.count % CANCEL_EVERY);
	/* stopped inside: the directories a plain walk holds open */
	while (w.sp) {
		const struct xbn_frame *f =
			(const struct xbn_frame *)nm->stack + --w.sp;

		if (f->fd >= 0)
			close(f->fd);
		free(f->list);
	}
	nm->walk = NULL;
	if (nm->dir_fd >= 0)
		close(nm->dir_fd);
	nm->dir_fd = -1;
	return ret;
}

int
xbulk_names_readlink(struct xbulk_names *nm, const struct xfs_bulkstat *bs,
		     char *buf, size_t size)
{
	ssize_t len;
	int fd;

	if (!S_ISLNK(bs->bs_mode) || nm->plain)
		return -EINVAL;
	fd = xbn_open_handle(nm->mfd, bs->bs_ino, bs->bs_gen,
			     O_PATH | O_NOFOLLOW);
	if (fd < 0)
		return fd;
	len = readlinkat(fd, "", buf, size);
	if (len < 0)
		len = -errno;
	close(fd);
	return (int)len;
}

int
xbulk_names_unreached(struct xbulk_names *nm,
		      int (*fn)(void *arg, const struct xfs_bulkstat *bs),
		      void *arg)
{
	struct xbn_walk w = { .nm = nm };
	struct xbn_run *runs;
	uint32_t *stack;
	size_t i, n, k = 0;
	int ret;

	if (nm->fold.fn || nm->strategy == XBULK_STRATEGY_WALK || nm->plain)
		return -EINVAL;
	stack = malloc(((size_t)nm->dirs.n + 1) * sizeof(*stack));
	if (!stack)
		return -ENOMEM;
	xbn_reach(nm, ++nm->pass, stack);
	free(stack);
	ret = xbn_store_runs(&nm->store, &runs, &n);
	/* past an error of @fn the sweep goes on, only clearing the flags
	 * (a later call would take stale ones as reached); not when
	 * cancelled */
	for (i = 0; i < n && ret != -EINTR; i++) {
		uint64_t m;

		for (m = runs[i].mask; m && ret != -EINTR; m &= m - 1) {
			unsigned int bit = (unsigned int)__builtin_ctzll(m);
			struct xbn_slot *slot =
				xbn_run_slot(&nm->store, &runs[i], bit);
			const struct xbn_dir *d;

			xbn_spill_tick(&nm->spill, 1);
			if (slot->flags & XBN_SLOT_REACHED) {
				slot->flags &= (uint16_t)~XBN_SLOT_REACHED;
				continue;
			}
			d = xbn_slot_dir(nm, slot);
			if (ret || (d && (d->flags & XBN_DIR_GONE)))
				continue;
			if (k++ % CANCEL_EVERY == 0 &&
			    xbl_cancelled(nm->cancel))
				ret = -EINTR;
			else
				ret = fn(arg, fill(&w, runs[i].chunk << 6 | bit,
						   slot, d));
		}
	}
	free(runs);
	return ret;
}
