// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk snapshot --keep: the history directory (cli/history.h).  It
 * lists every name of the filesystem, so it must be root's (the running
 * user's) alone: made 0700, refused if another user owns it or others
 * may write it, opened without following a symbolic link.  Its files are
 * written through /proc/self/fd/N of that open directory, so they land
 * in the directory checked and locked even if its path changes meanwhile.
 *
 * The lock is flock() on the directory itself: no lock file that
 * someone could plant or that a kill could leave behind, released by the
 * kernel when the process ends however it ends.  A second run does not
 * wait: it fails at once with XB_EXIT_BUSY (a timer's run finds the
 * person's; the next timer catches up).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "history.h"

/* Now, or XBULK_HISTORY_NOW's seconds (tests). */
static int
history_now(const char *cmd, time_t *t)
{
	const char *env = getenv(XB_HIST_NOW_ENV);
	uint64_t v;

	if (!env || !*env) {
		*t = time(NULL);
		return 0;
	}
	if (xb_parse_u64(env, 253402300799ULL, &v)) {	/* 9999-12-31 */
		xb_error(cmd, "%s=%s: not seconds since the epoch",
			 XB_HIST_NOW_ENV, env);
		return -EINVAL;
	}
	*t = (time_t)v;
	return 0;
}

/* Refuse @fd (the directory @dir) unless ours and written by us alone. */
static enum xb_exit
check_dir(const char *cmd, const char *dir, int fd)
{
	struct stat st;

	if (fstat(fd, &st)) {
		xb_error(cmd, "%s: %s", dir, strerror(errno));
		return XB_EXIT_TROUBLE;
	}
	if (st.st_uid != geteuid()) {
		xb_error(cmd, "%s: owned by uid %lu, not by the running user "
			 "(uid %lu): refused", dir, (unsigned long)st.st_uid,
			 (unsigned long)geteuid());
		return XB_EXIT_TROUBLE;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		xb_error(cmd, "%s: others may write it (mode %04o): refused",
			 dir, (unsigned int)(st.st_mode & 07777));
		return XB_EXIT_TROUBLE;
	}
	return XB_EXIT_OK;
}

/* Refuse the name @name of the history unless it is free or a regular
 * file of ours (the writer replaces that one). */
static enum xb_exit
check_name(const struct xb_history *h, const char *cmd, const char *name,
	   const char *shown)
{
	struct stat st;

	if (fstatat(h->fd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (errno == ENOENT)
			return XB_EXIT_OK;
		xb_error(cmd, "%s: %s", shown, strerror(errno));
		return XB_EXIT_TROUBLE;
	}
	if (S_ISREG(st.st_mode) && st.st_uid == geteuid())
		return XB_EXIT_OK;
	xb_error(cmd, "%s: not a regular file of the running user: left as "
		 "it is", shown);
	return XB_EXIT_TROUBLE;
}

/* @dir (its first @len bytes), "/", @stamp and @suffix into @buf, of
 * XB_HIST_PATH bytes: 0 or -ENAMETOOLONG. */
static int
name_one(char *buf, const char *dir, size_t len, const char *stamp,
	 const char *suffix)
{
	const char *sep = len == 1 && *dir == '/' ? "" : "/";
	int n = snprintf(buf, XB_HIST_PATH, "%.*s%s%s%s", (int)len, dir, sep,
			 stamp, suffix);

	return n < 0 || n >= XB_HIST_PATH ? -ENAMETOOLONG : 0;
}

/* Name this run's files; 0 or -ENAMETOOLONG. */
static int
name_files(struct xb_history *h, time_t now)
{
	size_t len = strlen(h->dir);
	char proc[32];
	struct tm tm;

	/* DIR/ shows as DIR, / as itself */
	while (len > 1 && h->dir[len - 1] == '/')
		len--;
	gmtime_r(&now, &tm);
	strftime(h->stamp, sizeof(h->stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", h->fd);
	if (name_one(h->snap, proc, strlen(proc), h->stamp,
		     XB_HIST_SNAP_SUFFIX) ||
	    name_one(h->sum, proc, strlen(proc), h->stamp,
		     XB_HIST_SUM_SUFFIX) ||
	    name_one(h->shown_snap, h->dir, len, h->stamp,
		     XB_HIST_SNAP_SUFFIX) ||
	    name_one(h->shown_sum, h->dir, len, h->stamp, XB_HIST_SUM_SUFFIX))
		return -ENAMETOOLONG;
	return 0;
}

enum xb_exit
xb_history_open(struct xb_history *h, const char *cmd, const char *dir)
{
	enum xb_exit ret;
	bool made;
	time_t now;
	int err;

	h->dir = dir;
	h->fd = -1;
	if (history_now(cmd, &now))
		return XB_EXIT_USAGE;
	made = !mkdir(dir, 0700);
	if (!made && errno != EEXIST) {
		xb_error(cmd, "%s: cannot make the directory: %s", dir,
			 strerror(errno));
		return XB_EXIT_TROUBLE;
	}
	h->fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (h->fd < 0) {
		err = errno;
		xb_error(cmd, "%s: %s", dir, err == ELOOP || err == ENOTDIR ?
			 "not a directory (a symbolic link is refused)" :
			 strerror(err));
		return XB_EXIT_TROUBLE;
	}
	/* 0700 whatever the umask, only if we made it: on what we opened,
	 * never through the path again */
	ret = check_dir(cmd, dir, h->fd);
	if (!ret && made && fchmod(h->fd, 0700)) {
		xb_error(cmd, "%s: %s", dir, strerror(errno));
		ret = XB_EXIT_TROUBLE;
	}
	if (ret)
		goto fail;
	if (flock(h->fd, LOCK_EX | LOCK_NB)) {
		err = errno;
		if (err == EWOULDBLOCK) {
			xb_error(cmd, "%s: another xbulk snapshot is writing "
				 "this history (locked): nothing written", dir);
			ret = XB_EXIT_BUSY;
		} else {
			xb_error(cmd, "%s: cannot lock: %s", dir,
				 strerror(err));
			ret = XB_EXIT_TROUBLE;
		}
		goto fail;
	}
	if (name_files(h, now)) {
		xb_error(cmd, "%s: %s", dir, strerror(ENAMETOOLONG));
		ret = XB_EXIT_TROUBLE;
		goto fail;
	}
	ret = check_name(h, cmd, strrchr(h->snap, '/') + 1, h->shown_snap);
	if (!ret)
		ret = check_name(h, cmd, strrchr(h->sum, '/') + 1,
				 h->shown_sum);
	if (!ret)
		return XB_EXIT_OK;
fail:
	xb_history_close(h);
	return ret;
}

int
xb_history_kind(const char *name)
{
	for (int i = 0; i < XB_HIST_STAMP_LEN; i++) {
		char c = name[i];
		bool digit = c >= '0' && c <= '9';

		if (i == 8 ? c != 'T' : i == 15 ? c != 'Z' : !digit)
			return 0;
	}
	name += XB_HIST_STAMP_LEN;
	if (!strcmp(name, XB_HIST_SNAP_SUFFIX))
		return XB_HIST_SNAP;
	if (!strcmp(name, XB_HIST_SUM_SUFFIX))
		return XB_HIST_SUM;
	return 0;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Remove the oldest files of kind @kind beyond @keep among @names (@n,
 * sorted). */
static int
remove_oldest(const struct xb_history *h, char **names, size_t n, int kind,
	      uint64_t keep)
{
	size_t have = 0, i;
	int err = 0;

	for (i = 0; i < n; i++)
		have += xb_history_kind(names[i]) == kind;
	for (i = 0; i < n && have > keep; i++) {
		if (xb_history_kind(names[i]) != kind)
			continue;
		if (unlinkat(h->fd, names[i], 0) && !err)
			err = -errno;
		have--;
	}
	return err;
}

int
xb_history_list(int dirfd, char ***out, size_t *nout)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	char **names = NULL, **grown;
	size_t n = 0, cap = 0;
	struct dirent *e;
	struct stat st;
	int err = 0;

	*out = NULL;
	*nout = 0;
	if (!d) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		return err;
	}
	while (!err && (e = readdir(d))) {
		/* only what a run of ours could have made: a regular file
		 * of the running user (never a symlink, nor another's) */
		if (!xb_history_kind(e->d_name) ||
		    fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid())
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			grown = realloc(names, cap * sizeof(*names));
			if (!grown) {
				err = -ENOMEM;
				break;
			}
			names = grown;
		}
		names[n] = strdup(e->d_name);
		if (!names[n])
			err = -ENOMEM;
		else
			n++;
	}
	closedir(d);
	if (err) {
		xb_history_list_free(names, n);
		return err;
	}
	qsort(names, n, sizeof(*names), by_name);
	*out = names;
	*nout = n;
	return 0;
}

void
xb_history_list_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int
xb_history_prune(const struct xb_history *h, uint64_t keep,
		 uint64_t keep_sums)
{
	char **names;
	size_t n;
	int err = xb_history_list(h->fd, &names, &n), e2;

	if (err)
		return err;
	err = remove_oldest(h, names, n, XB_HIST_SNAP, keep);
	if (keep_sums) {
		e2 = remove_oldest(h, names, n, XB_HIST_SUM, keep_sums);
		err = err ? err : e2;
	}
	xb_history_list_free(names, n);
	if (!err && fsync(h->fd))
		err = -errno;
	return err;
}

void
xb_history_close(struct xb_history *h)
{
	if (h->fd >= 0)
		close(h->fd);	/* and the lock with it */
	h->fd = -1;
}
