// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idmap_mount SRC DST: bind-mount SRC on DST as an idmapped mount (user
 * and group ids 0-65535 shown as 100000-165535), which Debian 12's
 * mount(8) cannot do: open_tree(), mount_setattr() with MOUNT_ATTR_IDMAP
 * and the user namespace of a child process, move_mount(), all through
 * syscall(2).  Exit 0, or 1 with a message.  Unmount DST with umount(8).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int
die(const char *what)
{
	fprintf(stderr, "idmap_mount: %s: %s\n", what, strerror(errno));
	return 1;
}

static int
write_file(pid_t pid, const char *name, const char *text)
{
	char path[64];
	int fd, ok;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok ? 0 : -1;
}

/* A child in a new user namespace with the mapping; its ns fd. */
static int
userns_fd(pid_t *child)
{
	int ready[2], fd;
	char path[64], c;

	if (pipe(ready))
		return -1;
	*child = fork();
	if (*child < 0)
		return -1;
	if (*child == 0) {
		close(ready[0]);
		if (unshare(CLONE_NEWUSER))
			_exit(1);
		(void)!write(ready[1], "x", 1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		return -1;
	close(ready[0]);
	if (write_file(*child, "uid_map", "0 100000 65536\n") ||
	    write_file(*child, "setgroups", "deny\n") ||
	    write_file(*child, "gid_map", "0 100000 65536\n"))
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)*child);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd;
}

int
main(int argc, char **argv)
{
	struct mount_attr attr = { .attr_set = MOUNT_ATTR_IDMAP };
	pid_t child = -1;
	int tree, ns, ret = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: idmap_mount SRC DST\n");
		return 2;
	}
	tree = (int)syscall(SYS_open_tree, AT_FDCWD, argv[1],
			    OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (tree < 0)
		return die("open_tree");
	ns = userns_fd(&child);
	if (ns < 0)
		ret = die("user namespace");
	if (!ret) {
		attr.userns_fd = (__u64)ns;
		if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH, &attr,
			    sizeof(attr)))
			ret = die("mount_setattr");
	}
	if (!ret && syscall(SYS_move_mount, tree, "", AT_FDCWD, argv[2],
			    MOVE_MOUNT_F_EMPTY_PATH))
		ret = die("move_mount");
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	return ret;
}
