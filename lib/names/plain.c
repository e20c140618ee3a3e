// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Plain names (XBULK_STRATEGY_PLAIN, issue 26): nothing is built, no
 * bulkstat is called; every walk is the live walk of walk.c and live.c
 * (the one that goes on after the caller changed the filesystem) from
 * its operand on.  A directory is read when the walk enters it and held
 * open while it is listed (its fd is xbulk_names_dir_fd()'s; below
 * xbn_plain_fds() levels, entries are reached by their paths); a
 * directory, an entry of unknown type and, under -L, a symbolic link
 * are stat()ed when the walk reaches them, every other entry is LAZY
 * (its type from the directory entry, stat()ed only when the caller
 * asks: xbulk_names_restat()).  That is gnulib fts's FTS_NOSTAT walk,
 * GNU find's own, on any filesystem: what find -L, a PATH that is not
 * on XFS, and an expression that reads names only need.
 *
 * Loops (fts's FTS_DC): a directory whose st_dev and st_ino are those of
 * one being listed above it is not entered and comes flagged LOOP with
 * the length of that one's path (in its nentries); under -L a symbolic
 * link whose stat() fails with ELOOP comes flagged LOOP too (find's
 * symlink_loop()).  Each listing is memory of its own, freed as the walk
 * leaves the directory (walk.c), so a walk holds what fts holds.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tree.h"
#include "walk.h"

/* stat() @e (following a symbolic link if @follow; a dangling one is
 * itself, as fts's FTS_SLNONE) into w->bs. */
static int
plain_stat(struct xbn_walk *w, struct xbulk_entry *e, bool follow,
	   struct statx *stx)
{
	int err = xbn_live_stat(w->nm, e, follow, &w->bs, stx);

	if (err == -ENOENT && follow)
		err = xbn_live_stat(w->nm, e, false, &w->bs, stx);
	return err;
}

/* The length of the path of the directory being listed that is inode
 * @ino of @dev (the walk's frames), or 0. */
static size_t
loop_above(const struct xbn_walk *w, uint64_t dev, uint64_t ino)
{
	const struct xbn_frame *f = w->nm->stack;
	size_t i;

	for (i = w->sp; i-- > 0;)
		if (f[i].dir == XBN_NONE && f[i].dev == dev &&
		    f[i].bs.bs_ino == ino)
			return f[i].plen ? f[i].plen : 1;
	return 0;
}

void
xbn_plain_child(struct xbn_walk *w, struct xbulk_entry *e, const uint8_t *de,
		uint32_t *di)
{
	struct xbulk_names *nm = w->nm;
	const struct xbn_frame *f = (const struct xbn_frame *)nm->stack +
				    w->sp - 1;
	unsigned int dt = xbn_ent_dtype(de);
	struct statx stx;
	int err;

	*di = XBN_NONE;
	e->dtype = dt;
	e->dino = xbn_ent_ino(de);
	e->bs = &w->bs;
	/* until stat()ed: its directory's */
	e->dev = f->dev;
	e->blocklog = 9;
	e->fstype = nm->live_fstype;
	if (dt != DT_DIR && dt != DT_UNKNOWN &&
	    !(dt == DT_LNK && w->logical)) {
		memset(&w->bs, 0, sizeof(w->bs));
		w->bs.bs_ino = e->dino;
		w->bs.bs_mode = (uint16_t)DTTOIF(dt);
		e->flags = XBULK_ENTRY_LAZY;
		return;
	}
	err = plain_stat(w, e, w->logical, &stx);
	if (err) {		/* gone: its name, no type (FTS_NS) */
		memset(&w->bs, 0, sizeof(w->bs));
		w->bs.bs_ino = e->dino;
		e->flags = err == -ELOOP && w->logical ? XBULK_ENTRY_LOOP :
			   XBULK_ENTRY_LAZY;
		e->err = err;
		return;
	}
	e->flags = XBULK_ENTRY_LIVE;
	xbn_plain_fill(nm, e, &stx);
	if (!S_ISDIR(stx.stx_mode))
		return;
	e->nentries = loop_above(w, e->dev, stx.stx_ino);
	if (e->nentries) {
		e->flags |= XBULK_ENTRY_LOOP;
		e->err = -ELOOP;
		return;
	}
	/* a mount point -xdev does not cross: enter() shows it empty */
	if (w->xdev && e->dev != w->dev0) {
		e->flags |= XBULK_ENTRY_MOUNT;
		e->nentries = 1;
	}
	*di = XBN_LIVE;
}

unsigned int
xbn_plain_fds(void)
{
	unsigned int n = xbn_fds_free() / 2;

	return n < 1024 ? n : 1024;
}

int
xbn_plain_start(struct xbn_walk *w, struct xbulk_entry *e)
{
	struct statx stx;
	int err = plain_stat(w, e, w->follow, &stx);

	if (err)
		return err;
	e->bs = &w->bs;
	e->dino = stx.stx_ino;
	e->flags = XBULK_ENTRY_LIVE;
	xbn_plain_fill(w->nm, e, &stx);
	w->dev0 = e->dev;
	return 0;
}

int
xbulk_names_plain(struct xbulk_fs *fs, const struct xbulk_names_opts *uo,
		  struct xbulk_names **names)
{
	struct xbulk_names_opts o;
	struct xbulk_names *nm;
	struct statx stx;
	int ret;

	*names = NULL;
	ret = xbl_sized_in(&o, sizeof(o), uo,
			   XBL_SIZE_TO(struct xbulk_names_opts, cancel));
	if (ret)
		return ret;
	if (o.progress && o.progress->size <
	    XBL_SIZE_TO(struct xbulk_names_progress, records))
		return -EINVAL;
	nm = calloc(1, sizeof(*nm));
	if (!nm)
		return -ENOMEM;
	if (fs) {
		if (statx(fs->fd, "", AT_EMPTY_PATH, STATX_INO | STATX_MNT_ID,
			  &stx)) {
			ret = -errno;
			free(nm);
			return ret;
		}
		nm->fs = fs;
		nm->mfd = fs->fd;
		nm->dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
		nm->mnt_id = stx.stx_mask & STATX_MNT_ID ? stx.stx_mnt_id : 0;
	}
	if (xbn_spill_init(&nm->spill, o.memory, o.tmpdir, nm->dev)) {
		free(nm);
		return -ENOMEM;
	}
	nm->spill.ahead_held = XBN_WALK_AHEAD;
	nm->fields = o.fields & XBULK_F_ALL;
	nm->cancel = o.cancel;
	nm->progress = o.progress;
	nm->dir_fd = -1;
	if (!fs)
		nm->mfd = -1;
	nm->strategy = XBULK_STRATEGY_PLAIN;
	nm->live = nm->plain = true;
	ret = xbn_store_init(&nm->store, nm->fields, &nm->spill);
	if (!ret)
		ret = xbn_dirs_init(&nm->dirs, &nm->spill);
	if (ret) {
		xbulk_names_free(nm);
		return ret;
	}
	*names = nm;
	return 0;
}
