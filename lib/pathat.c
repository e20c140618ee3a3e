// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A path of any length for the *at() system calls: one longer than
 * PATH_MAX - 1 bytes is opened a piece at a time, each piece a run of
 * whole names shorter than PATH_MAX, as fts reaches deep directories
 * from their parents' fds.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base.h"

int
xbl_path_at(const char *path, int *dirfd, const char **rel)
{
	char piece[PATH_MAX];
	int fd = AT_FDCWD, next;

	*dirfd = AT_FDCWD;
	*rel = path;
	while (strlen(path) >= PATH_MAX) {
		const char *slash = path + PATH_MAX - 1;

		while (slash > path && *slash != '/')
			slash--;
		if (slash == path && *path != '/') {
			if (fd >= 0)
				close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(piece, path, (size_t)(slash - path));
		piece[slash - path] = '\0';
		next = openat(fd, slash == path ? "/" : piece,
			      O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (next < 0)
			next = -errno;
		if (fd >= 0)
			close(fd);
		if (next < 0)
			return next;
		fd = next;
		while (*slash == '/')
			slash++;
		path = slash;
	}
	*dirfd = fd;
	*rel = *path ? path : ".";
	return 0;
}
