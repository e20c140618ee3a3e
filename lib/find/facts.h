/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/find (prefix xf_: CONTRIBUTING.md).
 *
 * What find knows of a file, and how it says it: -perm's modes and ls's
 * mode string (mode.c), dates and times (time.c), owners' names, types,
 * inode numbers, link targets (facts.c).
 */
#ifndef XBULK_FIND_FACTS_H
#define XBULK_FIND_FACTS_H

#include "find.h"

/* mode.c */
/* -perm's MODE (gnulib mode_compile/mode_adjust): files and dirs. */
int xf_parse_mode(const char *s, uint32_t *file_mode, uint32_t *dir_mode);
/* ls -l's ten characters ("drwxr-xr-x") of @mode at @p. */
void xf_mode_string(uint32_t mode, char *p);

/* time.c */
/* -newermt DATE: parse_datetime()'s numeric forms and @EPOCH, in local
 * time unless a zone is given; a time alone is on @now's day. */
int xf_parse_date(const char *s, const struct timespec *now,
		  struct timespec *ts);
/* -printf's %a %c %t: "Wed Nov 30 15:42:09.5834523710 2022" */
size_t xf_ctime_format(char *dst, int64_t sec, uint32_t nsec);
/* -printf's %Ak etc: strftime %k, with find's fractional seconds. */
size_t xf_date_format(char *dst, size_t size, int64_t sec, uint32_t nsec,
		      char k);
/* -ls's date column. */
size_t xf_ls_date(char *dst, int64_t mtime, int64_t now);
/* Local time of @sec; false if it cannot be represented. */
bool xf_localtime(int64_t sec, struct tm *tm);

/* facts.c */
/* The name of owner @uid or group @gid, NULL if it has none or one
 * longer than XF_ID_NAME_MAX - 1 bytes (find prints the number then). */
const char *xf_user_name(struct xbulk_find *f, uint32_t uid);
const char *xf_group_name(struct xbulk_find *f, uint32_t gid);
/* Type letter of find's %y and -type ("f", "d", ..., "U"). */
char xf_type_letter(uint32_t mode);
/* Do @file's directory entry facts (dtype, dino) stand for a file a
 * mount covers, as find reads them? */
bool xf_covered(const struct xbulk_entry *file);
/* The inode number of find's -inum and %i: the directory entry's (at a
 * mount over a file, the covered file's, as find reads d_ino there). */
uint64_t xf_ino(const struct xbulk_entry *file);
/* st_blocks (512-byte units) of a record. */
uint64_t xf_blocks512(const struct xbulk_find *f,
		      const struct xbulk_entry *file);
/* @file's directory as the walk reached it (the dir_fd hook: the walk's
 * fd, not to be closed); -EINVAL for an operand, outside a walk or
 * without the hook (go by the path then), -ENOENT if it is gone. */
int xf_walk_dir(struct xbulk_find *f, const struct xbulk_entry *file);
/* stat() of @file (following a symbolic link; -xtype, %Y; with @flags
 * AT_SYMLINK_NOFOLLOW, lstat(): -xtype under -L) in its directory as
 * the walk reached it: 0 or -errno. */
int xf_stat_target(struct xbulk_find *f, const struct xbulk_entry *file,
		   struct stat *st, int flags);
/* The symlink target of @file into f->linkbuf, or NULL (a problem). */
const char *xf_readlink(struct xbulk_find *f,
			const struct xbulk_entry *file);
/* The major and minor numbers of bs_rdev (sysv_encode_dev()). */
static inline uint32_t
xf_rdev_major(uint32_t rdev)
{
	return rdev >> 18;
}

static inline uint32_t
xf_rdev_minor(uint32_t rdev)
{
	return rdev & 0x3ffff;
}

#endif /* XBULK_FIND_FACTS_H */
