// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk path with parent pointers: each inode's paths from the root
 * (libxbulk's xbulk_parents_paths()), those under PATH kept, PATH put in
 * front of the rest, as find PATH -inum prints them.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "path.h"

struct collect {
	struct xb_path_target	*t;
	const char		*path;		/* PATH as typed */
	size_t			base;		/* xb_path_base_len(path) */
	const char		*top;		/* PATH's path from the root,
						   "" for the root */
	size_t			toplen;
};

/* Keep @rel ("/a/b" from the root) if it is PATH or below it. */
static int
collect(void *arg, const char *rel, size_t len)
{
	struct collect *c = arg;
	const char *rest;

	if (len == 1 && c->toplen == 0)		/* the root, as PATH */
		return xb_path_add(c->t, c->path, strlen(c->path), "", 0);
	if (len < c->toplen || memcmp(rel, c->top, c->toplen))
		return 0;
	rest = rel + c->toplen;
	if (*rest == '\0')
		return xb_path_add(c->t, c->path, strlen(c->path), "", 0);
	if (*rest != '/')
		return 0;
	return xb_path_add(c->t, c->path, c->base, rest, len - c->toplen);
}

/* PATH's own path from the root, into @top (a directory has one). */
static int
keep_first(void *arg, const char *rel, size_t len)
{
	char **top = arg;

	if (*top)
		return 0;
	*top = strndup(len == 1 ? "" : rel, len == 1 ? 0 : len);
	return *top ? 0 : -ENOMEM;
}

static const char *
why(int err)
{
	switch (err) {
	case -ENOENT:
		return "no parent pointer leads to it from the root (an open file already unlinked, or damage)";
	case -ELOOP:
		return "the directories above it form a cycle (damage: see xfs_repair -n)";
	case -ESTALE:
		return "it was freed meanwhile";
	case -EPROTO:
		return "the kernel's parent pointer records break the ioctl's contract";
	default:
		return strerror(-err);
	}
}

/*
 * Say why @t has no path: @err at inode @fail (xbulk_parents_failed_ino():
 * @t itself, or a directory above it, which is named).  An unreadable
 * directory gets the command that looks for its own paths; *@mnt is
 * the mount point for it, found the first time.
 */
static void
say_why(const char *path, const struct xb_path_target *t, uint64_t fail,
	int err, char **mnt)
{
	unsigned long long d = fail;
	bool unreadable = err == -EUCLEAN || err == -EBADMSG || err == -EIO;

	if (fail == t->ino || err == -ELOOP || err == -EPROTO) {
		xb_error("path", "inode %s: %s%s", t->arg, why(err),
			 unreadable ? " (its parent pointers are in it; -w finds its names in the directories)" :
				      "");
	} else if (err == -ENOENT) {
		xb_error("path", "inode %s: directory inode %llu above it has no parent pointer (damage: see xfs_repair -n)",
			 t->arg, d);
	} else if (err == -ESTALE) {
		xb_error("path", "inode %s: directory inode %llu above it was freed meanwhile (moved or removed during the run)",
			 t->arg, d);
	} else if (!unreadable) {
		xb_error("path", "inode %s: directory inode %llu above it: %s",
			 t->arg, d, why(err));
	} else {
		char what[256];

		if (!*mnt)
			*mnt = xb_hint_mount(path);
		snprintf(what, sizeof(what), "%s: directory inode %llu above it",
			 t->arg, d);
		xb_report_unreadable("path", *mnt, what, fail, err);
	}
}

enum xb_exit
xb_path_parents(struct xbulk_fs *fs, const char *path,
		struct xb_path_target *t, int n, const volatile int *cancel)
{
	struct collect c = { .path = path, .base = xb_path_base_len(path) };
	struct xbulk_parents *p;
	struct xfs_bulkstat bs;
	char *top = NULL, *mnt = NULL;
	struct stat st;
	int i, err;

	err = xbulk_parents_open(fs, &p);
	if (err)
		return xb_ioctl_error("path", fs, path, "getparents", err);
	xbulk_parents_set_cancel(p, cancel);
	err = fstat(xbulk_fs_fd(fs), &st) ? -errno : 0;
	if (!err)
		err = xbulk_bulkstat_single(fs, st.st_ino, 0, &bs);
	if (!err)
		err = xbulk_parents_paths(p, bs.bs_ino, bs.bs_gen, keep_first,
					  &top);
	if (err) {
		xbulk_parents_free(p);
		if (*cancel)
			return xb_signal_exit_status();
		xb_error("path", "%s: its own path from the root: %s", path,
			 why(err));
		return XB_EXIT_FAILURE;
	}
	c.top = top;
	c.toplen = strlen(top);
	for (i = 0; i < n && !*cancel; i++) {
		if (t[i].skip)
			continue;
		c.t = &t[i];
		err = xbulk_parents_paths(p, t[i].ino, t[i].gen, collect, &c);
		if (err == -EPERM || err == -ENOMEM || err == -EINTR)
			break;
		if (err) {
			say_why(path, &t[i], xbulk_parents_failed_ino(p), err,
				&mnt);
			t[i].reported = true;
			err = 0;
		}
	}
	free(mnt);
	free(top);
	xbulk_parents_free(p);
	if (*cancel)
		return xb_signal_exit_status();
	if (err)
		return xb_ioctl_error("path", fs, path, "getparents", err);
	return XB_EXIT_OK;
}
