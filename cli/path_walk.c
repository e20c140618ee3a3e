// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk path without parent pointers: the names engine's scan (keeping
 * only the inodes asked about, and the directories) and one walk of PATH
 * in find's order; every path that reaches one of the inodes is kept, as
 * find PATH -inum N -o -inum M ... would print it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"

struct walk_ctx {
	struct xb_path_target	*t;
	int			n;
	uint64_t		*inos;		/* sorted, the targets' */
	size_t			ninos;
	enum xb_exit		status;		/* FAILURE after a problem */
};

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool
wanted(const struct walk_ctx *c, uint64_t ino)
{
	return bsearch(&ino, c->inos, c->ninos, sizeof(ino), cmp_u64);
}

static bool
keep(void *arg, const struct xfs_bulkstat *bs)
{
	return wanted(arg, bs->bs_ino);
}

/* Damage the build found; unreadable directories are named by the walk. */
static void
names_problem(void *arg, const struct xbulk_names_problem *p)
{
	struct walk_ctx *c = arg;
	char text[XB_AG_FAULT_TEXT];

	if (p->kind == XBULK_PROBLEM_UNREADABLE)
		return;
	c->status = XB_EXIT_FAILURE;
	if (p->kind == XBULK_PROBLEM_AG_FAULT) {
		xb_ag_fault_text(p->ag_fault, text, sizeof(text));
		xb_error("path", "%s: %s (the paths through its inodes are left out)",
			 p->path, text);
	} else if (p->kind == XBULK_PROBLEM_BAD_INODE) {
		if (wanted(c, p->ino))
			return;		/* said for the inode asked about */
		xb_error("path", "%s: cannot read inode %llu: %s",
			 p->path ? p->path : "?", (unsigned long long)p->ino,
			 strerror(-p->err));
	} else {
		xb_error("path", "%s: directory tree damage at inode %llu (see xfs_repair -n)",
			 p->path ? p->path : "?", (unsigned long long)p->ino);
	}
}

static int
visit(void *arg, const struct xbulk_entry *e, enum xbulk_visit v)
{
	struct walk_ctx *c = arg;
	int i, err;

	(void)v;
	if (e->flags & XBULK_ENTRY_UNREADABLE) {
		xb_error("path", "%s: cannot read directory: %s%s", e->path,
			 strerror(-e->err), xb_dir_open_hint(e->err));
		c->status = XB_EXIT_FAILURE;
	}
	if (e->flags & XBULK_ENTRY_MOUNT || !wanted(c, e->bs->bs_ino))
		return 0;
	for (i = 0; i < c->n; i++) {
		if (c->t[i].skip || c->t[i].ino != e->bs->bs_ino)
			continue;
		err = xb_path_add(&c->t[i], e->path, e->pathlen, "", 0);
		if (err)
			return err;
	}
	return 0;
}

enum xb_exit
xb_path_walk(struct xbulk_fs *fs, const char *path, unsigned int threads,
	     const struct xb_memory *mem, struct xb_path_target *t, int n,
	     const volatile int *cancel, enum xb_exit *status)
{
	struct walk_ctx c = { .t = t, .n = n };
	struct xbulk_names_opts o = {
		.size = sizeof(o), .threads = threads, .keep = keep, .problem = names_problem,
		.arg = &c, .cancel = cancel, .memory = mem->memory,
		.tmpdir = mem->tmpdir,
	};
	struct xbulk_names_result r = { .size = sizeof(r) };
	struct xbulk_names *names = NULL;
	int i, err;

	c.inos = calloc((size_t)n + 1, sizeof(*c.inos));
	if (!c.inos)
		return XB_EXIT_FAILURE;
	for (i = 0; i < n; i++)
		if (!t[i].skip)
			c.inos[c.ninos++] = t[i].ino;
	qsort(c.inos, c.ninos, sizeof(*c.inos), cmp_u64);
	err = xbulk_names_build(fs, &o, &names, &r);
	if (!err) {
		if (r.dirs_gone) {
			xb_dirs_gone("path", r.dirs_gone);
			c.status = XB_EXIT_FAILURE;
		}
		err = xbulk_names_walk(names, path, 0, visit, &c);
	}
	xbulk_names_free(names);
	free(c.inos);
	if (err == -EINTR || *cancel)
		return xb_signal_exit_status();
	if (err)
		return xb_names_error("path", fs, path, mem, &r, err);
	if (c.status)
		*status = c.status;
	return XB_EXIT_OK;
}
