/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/names (prefix xbn_: CONTRIBUTING.md).
 *
 * The names object: struct xbulk_names, which build.c fills and frees,
 * and what building it leaves behind: the mounts inside ours (mounts.c),
 * problems to report with their paths (problems.c).  The other headers
 * of lib/names/ say what their files do: store.h, listing.h, dirs.h,
 * tree.h (parents, reading, re-checks), walk.h, inodes.h.
 */
#ifndef XBULK_NAMES_NAMES_H
#define XBULK_NAMES_NAMES_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "../base.h"
#include "dirs.h"
#include "listing.h"
#include "spill.h"
#include "store.h"

struct xbn_walk;

/* An inode bulkstat could not read. */
struct xbn_bad {
	uint64_t	ino;
	int		err;
	uint32_t	dir;		/* where a name of it is, or XBN_NONE */
	uint64_t	off;
};

struct xbulk_names {
	struct xbn_spill	spill;		/* the budget: first, freed
						   last */
	struct xbulk_fs		*fs;
	int			mfd;		/* fs->fd */
	uint64_t		mnt_id;
	dev_t			dev;
	uint32_t		fields;
	bool			filtered;	/* a keep filter ran */
	uint32_t		strategy;	/* the one taken: SCAN, WALK */
	struct xbn_fold		fold;		/* fn NULL: none */
	struct xbn_store	store;
	struct xbn_dirs		dirs;
	struct xbn_lblock	*lists;		/* every listing's memory */
	uint64_t		list_bytes;
	uint32_t		root;		/* the filesystem's root dir */
	uint32_t		top;		/* the mount's top dir */
	char			*mountpoint;
	struct xbn_mount	*mounts;
	size_t			nmounts;
	struct xbn_bad		*bad;		/* sorted by ino */
	size_t			nbad;
	struct xbulk_ag_fault	*faults;	/* AGs the scan gave up */
	size_t			nfaults;
	struct xbn_problem	*problems;
	size_t			nproblems;
	size_t			problems_cap;
	uint32_t		pass;		/* for xbn_dir.mark */
	const volatile int	*cancel;
	struct xbulk_names_progress *progress;	/* NULL: none */
	/* The walk's path buffer and stack, kept between walks */
	char			*path;
	size_t			path_cap;
	void			*stack;
	size_t			stack_cap;
	/* The walk under way (walk.c), for xbulk_names_dir_fd(), and the
	 * directory it last opened (-1: none) */
	struct xbn_walk		*walk;
	int			dir_fd;
	uint64_t		dir_fd_ino;
	uint32_t		dir_fd_gen;
	/* After xbulk_names_changed(): walks read and stat live (live.c) */
	bool			live;
	bool			live_ready;	/* live_reader set up */
	struct xbn_reader	live_reader;
	struct xfs_bulkstat	restat_bs;
	char			live_fstype[64];
	uint64_t		live_fstype_mnt;	/* its mount id */
	/* xbulk_names_plain(): nothing built, every walk live; @fs, @dev
	 * and @mnt_id only if the caller gave an XFS filesystem */
	bool			plain;
	uint64_t		sort_dev;	/* live_reader.no_sort's */
};

/* ------------------------------------------------------------------ */
/* Mounts (mounts.c)                                                   */
/* ------------------------------------------------------------------ */

/* A mount on a path inside ours (find -xdev shows it, as statx does). */
struct xbn_mount {
	char			*path;		/* from our top: "a/b" */
	uint32_t		parent;		/* directory holding it */
	uint64_t		entry_off;	/* its entry there */
	uint64_t		ino;		/* the covered inode */
	struct xfs_bulkstat	bs;		/* what statx says of it */
	uint64_t		dev;		/* its st_dev */
	uint64_t		nentries;	/* a directory's, as -empty
						   reads them; 1 if unread */
	int			err;		/* reading them failed */
	char			fstype[64];	/* mountinfo's type */
};

/* Our mount, from /proc/self/mountinfo. */
struct xbn_mountinfo {
	uint64_t	mnt_id;
	char		*mountpoint;	/* where it is mounted */
	char		*root;		/* its top in the filesystem */
	char		**inside;	/* mount points of child mounts,
					   relative to mountpoint */
	size_t		ninside;
};

/* Undo mountinfo's octal escapes (\040 and the like) in place. */
void xbn_unescape(char *s);
/* Parse one mountinfo line into its fields (modifies @line).  Return 0 or
 * -EINVAL. */
int xbn_mountinfo_line(char *line, uint64_t *id, uint64_t *parent,
		       char **root, char **mountpoint);
/* @child's path below @mp, or NULL if it is not below it. */
const char *xbn_path_below(const char *mp, const char *child);
/* Find mount @mnt_id and the mounts on it.  Return 0 or -errno. */
int xbn_mountinfo_read(struct xbn_mountinfo *mi, uint64_t mnt_id);
void xbn_mountinfo_free(struct xbn_mountinfo *mi);

/* Is every mount inside ours on a directory (stat() of each mount point
 * says so)?  False if one could not be stat()ed. */
bool xbn_mounts_on_dirs(const struct xbn_mountinfo *mi);
/* The type of mount @mnt_id, as mountinfo names it. */
void xbn_mount_fstype(uint64_t mnt_id, char *buf, size_t size);
/* Mark the mounts inside ours in the tree. */
int xbn_mounts_resolve(struct xbulk_names *nm, struct xbn_mountinfo *mi);

/* ------------------------------------------------------------------ */
/* Problems (problems.c)                                               */
/* ------------------------------------------------------------------ */

/* A problem found while building, reported once paths are known. */
struct xbn_problem {
	enum xbulk_names_problem_kind	kind;
	int				err;
	uint32_t			dir;	/* the directory concerned */
	uint32_t			pdir;	/* DIR_LINK: the lister */
	uint64_t			off;	/* DIR_LINK: its entry */
	uint64_t			ino;	/* DOTDOT: ".."; BAD_INODE */
};

/*
 * problems.c: count what the directories say in @r and report every
 * problem through @o->problem, with its path.  Return 0.
 */
int xbn_report_all(struct xbulk_names *nm, const struct xbulk_names_opts *o,
		   struct xbulk_names_result *r);
/* Append to nm->problems; -ENOMEM. */
int xbn_problem_add(struct xbulk_names *nm, const struct xbn_problem *p);

#endif /* XBULK_NAMES_NAMES_H */
