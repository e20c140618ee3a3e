// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A file that replaces another only when it is whole, written safely as
 * root in a directory others may write (include/xbulk/replace.h).
 *
 * Unnamed: O_TMPFILE in the destination's directory; at the end linked
 * there (linkat() of /proc/self/fd/N), or, when something is there,
 * linked under a hidden name of our own (linkat() never replaces, so a
 * name someone planted only makes us take the next one) and renamed
 * over it.  Named: a directory of our own (mkdirat() fails on anything
 * planted; then opened O_NOFOLLOW and checked to be ours), the file made
 * O_EXCL inside, renamed into place at the end.  Hidden names are
 * .xbulk-tmp.PID.SUFFIX; a kill between link and rename, or while a
 * named file is written, leaves one, which the next writer in that
 * directory removes once PID no longer runs (and only its own user's:
 * never a file someone else made look like ours).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base.h"

#define TMP_PREFIX	".xbulk-tmp."
/* what a 0.3 snapshot writer left */
#define OLD_PREFIX	".xbulk-snap."
/* tries at a fresh hidden name before giving up (-EEXIST) */
#define TRIES		100

struct xbulk_replace {
	int	dirfd;		/* the destination's directory */
	int	fd;		/* the file */
	char	*base;		/* the destination's name in dirfd */
	int	tmpfd;		/* named: our directory in dirfd, else -1 */
	char	tmpdir[48];	/* its name in dirfd */
	char	*name;		/* named: the file's path */
	mode_t	mode;
};

/* The PID in @name, a hidden name a writer made; 0 if it is none. */
static long
writer_pid(const char *name)
{
	const char *p = NULL;
	char *end;
	long pid;

	if (!strncmp(name, TMP_PREFIX, strlen(TMP_PREFIX)))
		p = name + strlen(TMP_PREFIX);
	else if (!strncmp(name, OLD_PREFIX, strlen(OLD_PREFIX)))
		p = name + strlen(OLD_PREFIX);
	if (!p)
		return 0;
	/* as hidden_name() writes it: digits, no sign, no leading 0 */
	if (*p < '1' || *p > '9')
		return 0;
	pid = strtol(p, &end, 10);
	return *end == '.' && pid > 0 ? pid : 0;
}

/* Remove every entry of directory @fd (a file left by SQLite beside
 * ours, a journal...); @fd stays open.  getdents64() on @fd itself: no
 * other fd is needed (EMFILE must not leave the directory behind). */
static void
empty_dir(int fd)
{
	char buf[4096];
	bool removed = true;
	long len, pos;

	while (removed) {		/* until a pass removes nothing */
		removed = false;
		if (lseek(fd, 0, SEEK_SET) < 0)
			return;
		while ((len = syscall(SYS_getdents64, fd, buf,
				      sizeof(buf))) > 0) {
			for (pos = 0; pos < len;) {
				const struct dirent64 *e = (void *)(buf + pos);

				pos += e->d_reclen;
				if (strcmp(e->d_name, ".") &&
				    strcmp(e->d_name, "..") &&
				    !unlinkat(fd, e->d_name, 0))
					removed = true;
			}
		}
	}
}

/* Remove the hidden directory @name of dirfd @dirfd and what it holds. */
static void
remove_tmpdir(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			O_CLOEXEC);

	if (fd < 0)
		return;
	empty_dir(fd);
	close(fd);
	unlinkat(dirfd, name, AT_REMOVEDIR);
}

/* Remove what killed writers of this user left in @dirfd. */
static void
sweep(int dirfd)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	struct stat st;
	long pid;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d))) {
		pid = writer_pid(e->d_name);
		if (!pid || pid == (long)getpid() ||
		    !kill((pid_t)pid, 0) || errno != ESRCH ||
		    fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    st.st_uid != geteuid())
			continue;
		if (S_ISREG(st.st_mode))
			unlinkat(dirfd, e->d_name, 0);
		else if (S_ISDIR(st.st_mode))
			remove_tmpdir(dirfd, e->d_name);
	}
	closedir(d);
}

/* A fresh hidden name in @buf (@size bytes): .xbulk-tmp.PID.RANDOM */
static void
hidden_name(char *buf, size_t size)
{
	unsigned long long r = 0;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
		r ^= xbl_clock_ns(CLOCK_MONOTONIC);
	snprintf(buf, size, TMP_PREFIX "%ld.%016llx", (long)getpid(), r);
}

/* Make the file in a directory of our own in r->dirfd. */
static int
make_named(struct xbulk_replace *r, const char *path)
{
	const char *slash = strrchr(path, '/');
	int len = slash ? (int)(slash - path) + 1 : 0;
	struct stat st;
	int i;

	/* The file is opened by name (a library's open()); where anyone
	 * may rename what is in the directory (world-writable, no sticky
	 * bit) they could swap our directory for theirs in between. */
	if (fstat(r->dirfd, &st))
		return -errno;
	if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))
		return -EPERM;

	for (i = 0; i < TRIES; i++) {
		hidden_name(r->tmpdir, sizeof(r->tmpdir));
		if (!mkdirat(r->dirfd, r->tmpdir, 0700))
			break;
		if (errno != EEXIST)
			return -errno;
	}
	if (i == TRIES)
		return -EEXIST;
	r->tmpfd = openat(r->dirfd, r->tmpdir, O_RDONLY | O_DIRECTORY |
			  O_NOFOLLOW | O_CLOEXEC);
	/* ours, and only ours may enter it (whatever the umask was) */
	if (r->tmpfd < 0 || fstat(r->tmpfd, &st))
		return -errno;
	if (st.st_uid != geteuid()) {
		/* swapped for someone else's: leave it and all in it */
		close(r->tmpfd);
		r->tmpfd = -1;
		*r->tmpdir = 0;
		return -EPERM;
	}
	if (fchmod(r->tmpfd, 0700))
		return -errno;
	r->fd = openat(r->tmpfd, r->base, O_RDWR | O_CREAT | O_EXCL |
		       O_NOFOLLOW | O_CLOEXEC, r->mode);
	if (r->fd < 0)
		return -errno;
	if (asprintf(&r->name, "%.*s%s/%s", len, path, r->tmpdir,
		     r->base) < 0) {
		r->name = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* Make the file: unnamed where the filesystem can, else named. */
static int
make_file(struct xbulk_replace *r, const char *path, unsigned int flags)
{
	if (!(flags & XBULK_REPLACE_NAMED)) {
		r->fd = openat(r->dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC,
			       r->mode);
		if (r->fd >= 0)
			return 0;
		if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
			return -errno;
	}
	return make_named(r, path);
}

int
xbulk_replace_open(const char *path, mode_t mode, unsigned int flags,
		   struct xbulk_replace **out)
{
	const char *slash = strrchr(path, '/');
	struct xbulk_replace *r;
	struct stat st;
	char *dir;
	int ret;

	*out = NULL;
	if ((flags & ~(unsigned int)XBULK_REPLACE_NAMED) || (mode & ~07777))
		return -EINVAL;
	if (!*path)
		return -ENOENT;
	if (path[strlen(path) - 1] == '/')
		return -EISDIR;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->fd = r->tmpfd = r->dirfd = -1;
	r->mode = mode;
	r->base = strdup(slash ? slash + 1 : path);
	dir = slash == path ? strdup("/") :
	      slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
	ret = r->base && dir ? 0 : -ENOMEM;
	if (!ret) {
		r->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		ret = r->dirfd < 0 ? -errno : 0;
	}
	free(dir);
	/* only a regular file is replaced: never a directory, a device
	 * (/dev/null), a FIFO, a socket, nor a symbolic link, wherever it
	 * leads (/dev/stdout: replacing it would take it from everyone) */
	if (!ret && strlen(r->base) > NAME_MAX)
		ret = -ENAMETOOLONG;
	if (!ret && !fstatat(r->dirfd, r->base, &st, AT_SYMLINK_NOFOLLOW) &&
	    !S_ISREG(st.st_mode))
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -EEXIST;
	if (!ret) {
		sweep(r->dirfd);
		ret = make_file(r, path, flags);
	}
	/* the mode asked for, whatever the umask */
	if (!ret && fchmod(r->fd, mode))
		ret = -errno;
	if (ret) {
		xbulk_replace_abort(r);
		return ret;
	}
	*out = r;
	return 0;
}

int
xbulk_replace_fd(const struct xbulk_replace *r)
{
	return r->fd;
}

const char *
xbulk_replace_name(const struct xbulk_replace *r)
{
	return r->name;
}

/* Link the unnamed file at @name in r->dirfd: 0 or -errno (-EEXIST). */
static int
link_at(const struct xbulk_replace *r, const char *name)
{
	char proc[64];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", r->fd);
	if (!linkat(AT_FDCWD, proc, r->dirfd, name, AT_SYMLINK_FOLLOW))
		return 0;
	if (errno != ENOENT)
		return -errno;
	/* no /proc: needs CAP_DAC_READ_SEARCH */
	return linkat(r->fd, "", r->dirfd, name, AT_EMPTY_PATH) ? -errno : 0;
}

/* Give the unnamed file its name: link it there, or beside it and
 * rename it over what is there. */
static int
put_unnamed(const struct xbulk_replace *r)
{
	char tmp[48];
	int ret = link_at(r, r->base), i;

	if (ret != -EEXIST)
		return ret;
	for (i = 0; i < TRIES && ret == -EEXIST; i++) {
		hidden_name(tmp, sizeof(tmp));
		ret = link_at(r, tmp);
	}
	if (ret)
		return ret;
	if (renameat(r->dirfd, tmp, r->dirfd, r->base)) {
		ret = -errno;
		unlinkat(r->dirfd, tmp, 0);
	}
	return ret;
}

int
xbulk_replace_commit(struct xbulk_replace *r)
{
	int ret = fsync(r->fd) ? -errno : 0;

	if (!ret && r->tmpfd >= 0)
		ret = renameat(r->tmpfd, r->base, r->dirfd, r->base) ?
		      -errno : 0;
	else if (!ret)
		ret = put_unnamed(r);
	if (!ret && fsync(r->dirfd))
		ret = -errno;
	xbulk_replace_abort(r);
	return ret;
}

void
xbulk_replace_abort(struct xbulk_replace *r)
{
	if (!r)
		return;
	if (r->tmpfd >= 0) {
		/* the file if it was not renamed, and what else is there */
		empty_dir(r->tmpfd);
		close(r->tmpfd);
	}
	if (*r->tmpdir)
		unlinkat(r->dirfd, r->tmpdir, AT_REMOVEDIR);
	if (r->fd >= 0)
		close(r->fd);
	if (r->dirfd >= 0)
		close(r->dirfd);
	free(r->base);
	free(r->name);
	free(r);
}
