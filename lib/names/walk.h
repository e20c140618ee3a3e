/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/names (prefix xbn_: CONTRIBUTING.md).
 *
 * Walks (walk.c): a directory being listed and the walk under way; and
 * walks after the caller changed the filesystem, reading and stat()ing
 * live as fts does (live.c).
 */
#ifndef XBULK_NAMES_WALK_H
#define XBULK_NAMES_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "../base.h"

struct xbulk_names;

struct xbn_frame {
	uint32_t	dir;		/* XBN_NONE: read live */
	uint32_t	depth;		/* of the directory */
	const uint8_t	*e;		/* next entry */
	const uint8_t	*end;
	size_t		plen;		/* its path's length */
	size_t		name_off;	/* its entry's name_off */
	/* a directory read live: its entry as the walk reached it */
	uint32_t	flags;
	uint32_t	gen;		/* its generation, when read */
	uint64_t	dino;
	struct xfs_bulkstat bs;
	/* a plain walk's (xbulk_names_plain()): the directory, open while
	 * it is listed (-1: none), and its st_dev */
	int		fd;
	uint64_t	dev;
	uint8_t		*list;		/* its listing, freed at its pop */
};

/* A directory a live walk enters (no index in the table). */
#define XBN_LIVE	(XBN_NONE - 1)

struct xbn_walk {
	struct xbulk_names	*nm;
	xbulk_walk_fn		fn;
	void			*arg;
	bool			post;
	bool			follow;		/* XBULK_WALK_FOLLOW */
	bool			logical;	/* XBULK_WALK_LOGICAL */
	bool			xdev;		/* XBULK_WALK_XDEV */
	uint64_t		dev0;		/* a plain walk: the operand's
						   st_dev */
	unsigned int		fds, fds_max;	/* a plain walk: directories
						   held open, and at most */
	uint32_t		mark;
	uint64_t		count;
	size_t			sp;		/* frames in use */
	struct xfs_bulkstat	bs;		/* the store's fields */
	struct xfs_bulkstat	bad;		/* a bad inode: ino, type */
	const char		*start;		/* the operand */
	size_t			startlen;
};

/* live.c */
/*
 * Where the *at() calls reach entry @e: below the operand, in its
 * directory as the walk reached it (*@at: xbulk_names_dir_fd(), the
 * walk's; *@rel its name), as fts reaches it, so that a directory above
 * renamed or replaced by a symbolic link since changes nothing; an
 * operand, or outside a walk, by its path (xbl_path_at(); *@own: the
 * caller closes *@at if it is not AT_FDCWD).  Return 0 or -errno
 * (-ENOENT: its directory is gone).
 */
int xbn_entry_at(struct xbulk_names *nm, const struct xbulk_entry *e,
		 int *at, const char **rel, bool *own);
/*
 * lstat() entry @e (stat() with @follow) now into @bs
 * (xbulk_bulkstat_from_statx(), with the XFS fields the build kept read
 * by bulkstat when it is on this filesystem) and @stx.  @e is reached
 * as xbn_entry_at() says.  Return 0 or -errno.
 */
int xbn_live_stat(struct xbulk_names *nm, const struct xbulk_entry *e,
		  bool follow, struct xfs_bulkstat *bs, struct statx *stx);
/* Is @stx on the scanned mount (not a mount point inside it)? */
bool xbn_live_ours(const struct xbulk_names *nm, const struct statx *stx);
/* The filesystem type of @stx's mount ("xfs" for ours). */
const char *xbn_live_fstype(struct xbulk_names *nm, const struct statx *stx);
/* A plain walk's entry @e: its st_dev, block unit (statx's 512 bytes)
 * and filesystem type (mountinfo's, read again only when the mount
 * changes), from @stx. */
void xbn_plain_fill(struct xbulk_names *nm, struct xbulk_entry *e,
		    const struct statx *stx);
/*
 * Read directory @e (inode @ino: a directory there now that is another
 * one is -ENOENT, as fts says; a symbolic link to one only if @follow:
 * an operand under -H, any under -L) into a listing in fts's order, and
 * its generation into *@gen; with @keep, its fd into *@keep instead
 * (the caller closes it; -1 if none is kept).  Names built plain: the
 * caller frees *@list (NULL after an error).  Return 0 or -errno of
 * opening or reading it.
 */
int xbn_live_read(struct xbulk_names *nm, const struct xbulk_entry *e,
		  bool follow, uint64_t ino, const uint8_t **list,
		  uint64_t *len, uint64_t *n, uint32_t *gen, int *keep);

/* plain.c: walks of xbulk_names_plain()'s names */
/*
 * @e (its path in place) for the entry @de of the directory being listed:
 * a directory, an entry of unknown type or (XBULK_WALK_LOGICAL) a
 * symbolic link stat()ed now, LIVE, entered (*@di XBN_LIVE) if it is a
 * directory the walk goes into; LOOP if it is one above it or a link in
 * a loop; another file LAZY, its type from the entry.
 */
void xbn_plain_child(struct xbn_walk *w, struct xbulk_entry *e,
		     const uint8_t *de, uint32_t *di);
/* How many directories a plain walk may hold open: half the fds left
 * (fdbudget.c), at most 1024; deeper ones are reached by their paths. */
unsigned int xbn_plain_fds(void);
/* The operand @e of a plain walk, stat()ed into w->bs; 0 or -errno. */
int xbn_plain_start(struct xbn_walk *w, struct xbulk_entry *e);


#endif /* XBULK_NAMES_WALK_H */
