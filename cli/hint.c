// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The end of a damage report that names an inode the kernel cannot read:
 * the command line that looks for its paths, xbulk path -w MNT INO.
 * Parent pointers cannot name such an inode, as they are kept in it (on
 * Linux 6.18 XFS_IOC_GETPARENTS_BY_HANDLE fails with ESTALE for it and
 * for the other unreadable inodes of its cluster); the directories that
 * list it can.  MNT is the mount point of the filesystem, found once per
 * command, quoted for a POSIX shell when it needs it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

char *
xb_shell_quote(const char *s)
{
	static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "abcdefghijklmnopqrstuvwxyz"
				    "0123456789%+,-./:=@_";
	size_t n = 2;
	const char *c;
	char *q, *p;

	if (*s && strspn(s, plain) == strlen(s))
		return strdup(s);
	for (c = s; *c; c++)
		n += *c == '\'' ? 4 : 1;
	q = malloc(n + 1);
	if (!q)
		return NULL;
	p = q;
	*p++ = '\'';
	for (c = s; *c; c++) {
		if (*c == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = *c;
		}
	}
	*p++ = '\'';
	*p = '\0';
	return q;
}

char *
xb_mount_point(const char *path)
{
	char *p = realpath(path, NULL), *slash;
	struct stat st, up;

	if (!p || stat(p, &st)) {
		free(p);
		return NULL;
	}
	while ((slash = strrchr(p, '/'))) {
		if (slash == p) {	/* the parent is "/" */
			if (stat("/", &up) == 0 && up.st_dev == st.st_dev)
				p[1] = '\0';
			break;
		}
		*slash = '\0';
		if (stat(p, &up) || up.st_dev != st.st_dev) {
			*slash = '/';
			break;
		}
	}
	return p;
}

char *
xb_hint_mount(const char *path)
{
	char *mnt = xb_mount_point(path), *q;

	q = xb_shell_quote(mnt ? mnt : path);
	free(mnt);
	return q;
}

void
xb_report_unreadable(const char *cmd, const char *mnt, const char *what,
		     uint64_t ino, int err)
{
	if (mnt)
		xb_error(cmd, "inode %s: %s (xbulk path -w %s %llu looks for its paths in the directories)",
			 what, strerror(-err), mnt, (unsigned long long)ino);
	else
		xb_error(cmd, "inode %s: %s", what, strerror(-err));
}
