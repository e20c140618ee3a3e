/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libxbulk: writing a file that replaces another only when it is whole,
 * safely as root in a directory others may write (lib/replace.c).  Every
 * file xbulk writes that lists names goes through it: snapshots, the
 * export's database and CSV files, du's picture.  Part of <xbulk.h>:
 * include that.
 *
 * The file is made where no one else can have put anything: unnamed
 * (O_TMPFILE) in the destination's directory, or, for a library that
 * opens files by name (SQLite), under a fresh name inside a fresh
 * directory of mode 0700 made there (".xbulk-tmp.PID.RANDOM").  No name
 * that someone else could have planted (a symbolic link, a hard link to
 * a file of root's, a file they hold open) is ever opened.  When it is
 * whole it is fsynced, linked at the destination or renamed over what is
 * there, and the directory is fsynced: a crash, a kill or a failure at
 * any moment leaves the old file or the new one, whole.
 */
#ifndef XBULK_REPLACE_H
#define XBULK_REPLACE_H

#include <sys/types.h>

#pragma GCC visibility push(default)

/* xbulk_replace_open() flags */
enum {
	/*
	 * The file needs a name while it is written (xbulk_replace_name()):
	 * it is made in a private directory beside the destination.
	 */
	XBULK_REPLACE_NAMED = 1 << 0,
};

/* A file being written (opaque). */
struct xbulk_replace;

/**
 * xbulk_replace_open() - start writing the file that will replace @path
 *
 * @path: the destination: a name (not "" and not ending in '/') whose
 *        directory exists.  Only a regular file there will be replaced:
 *        never a symbolic link, wherever it leads.
 * @mode: the file's permission bits, set exactly (not masked by the
 *        umask): 0600 for a file that lists names.
 * @flags: 0 or XBULK_REPLACE_NAMED.
 *
 * What killed writers left in @path's directory (".xbulk-tmp.PID.*" of
 * this user, of a PID that no longer runs) is removed first.  Where the
 * filesystem has no O_TMPFILE the file is made as with
 * XBULK_REPLACE_NAMED.
 *
 * Return: 0 and *@out, or -EINVAL (@flags, @mode), -ENOENT (@path ""),
 * -EISDIR (@path is a directory or ends in '/'), -EEXIST (something
 * other than a regular file is at @path: a symbolic link, a FIFO, a
 * device, a socket; left as it is), -ENAMETOOLONG (the name), -EPERM
 * (a named file, in a directory anyone may write without the sticky
 * bit: they could rename our directory and put theirs in its place
 * before the library opens the name), -ENOMEM, or the negative errno of
 * opening the directory or making the file (-EACCES, -EROFS...).
 */
int xbulk_replace_open(const char *path, mode_t mode, unsigned int flags,
		       struct xbulk_replace **out);

/* The file's descriptor, open read-write; it stays @r's (never close
 * it: dup() it for a stream). */
int xbulk_replace_fd(const struct xbulk_replace *r);

/* The file's path while it is written (XBULK_REPLACE_NAMED), for a
 * library that opens it by name; NULL when the file has none. */
const char *xbulk_replace_name(const struct xbulk_replace *r);

/**
 * xbulk_replace_commit() - fsync the file, put it at its path (replacing
 * what is there), fsync the directory, and free @r.
 *
 * Return: 0, or the negative errno of the step that failed (-ENOSPC,
 * -EIO...); then the file is removed, what was at the path stays, and
 * @r is freed all the same.
 */
int xbulk_replace_commit(struct xbulk_replace *r);

/* Give up: remove the file, leave the path as it is, free @r (NULL is
 * fine). */
void xbulk_replace_abort(struct xbulk_replace *r);

#pragma GCC visibility pop

#endif /* XBULK_REPLACE_H */
