// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Problems found while building the names, reported once the tree is
 * whole so that each comes with its path: unreadable directories,
 * AGs the scan gave up on, inodes bulkstat could not read (with one of
 * their names), directories listed twice, stale "..", cycles (tree.c,
 * recheck.c find those).
 */
#include <stdlib.h>

#include "names.h"

/* The path of entry @off of directory @p, or NULL; free() it. */
static char *
entry_path(const struct xbulk_names *nm, uint32_t p, uint64_t off)
{
	const uint8_t *e = xbn_dir(&nm->dirs, p)->list + off;
	char *dp = xbn_dir_path(nm, p), *path;
	size_t len, nl = xbn_ent_namelen(e);

	if (!dp)
		return NULL;
	len = strlen(dp);
	path = realloc(dp, len + nl + 2);
	if (!path) {
		free(dp);
		return NULL;
	}
	path[len] = '/';
	memcpy(path + len + 1, xbn_ent_name(e), nl);
	path[len + nl + 1] = '\0';
	return path;
}

/* Where a name of each bad inode is: one pass over the listings. */
static void
locate_bad(struct xbulk_names *nm)
{
	uint32_t p;

	for (p = 0; p < nm->dirs.n && nm->nbad; p++) {
		const struct xbn_dir *pd = xbn_dir(&nm->dirs, p);
		const uint8_t *e, *end = pd->list + pd->listlen;

		for (e = pd->list; e && e < end; e = xbn_ent_next(e)) {
			struct xbn_bad key = { .ino = xbn_ent_ino(e) };
			struct xbn_bad *b;
			size_t lo = 0, hi = nm->nbad;

			while (lo < hi) {
				size_t mid = (lo + hi) / 2;

				if (nm->bad[mid].ino < key.ino)
					lo = mid + 1;
				else
					hi = mid;
			}
			b = &nm->bad[lo];
			if (lo < nm->nbad && b->ino == key.ino &&
			    b->dir == XBN_NONE) {
				b->dir = p;
				b->off = (uint64_t)(e - pd->list);
			}
		}
	}
}

/* Report one problem with its path. */
static void
report(const struct xbulk_names *nm, const struct xbulk_names_opts *o,
       const struct xbn_problem *p)
{
	struct xbulk_names_problem out = { .kind = p->kind, .err = p->err };
	const struct xbn_dir *d = NULL;
	char *path = NULL;

	if (p->dir != XBN_NONE) {
		d = xbn_dir(&nm->dirs, p->dir);
		out.ino = d->ino;
	}
	switch (p->kind) {
	case XBULK_PROBLEM_BAD_INODE:
		out.ino = p->ino;
		if (p->pdir != XBN_NONE) {
			out.parent = xbn_dir(&nm->dirs, p->pdir)->ino;
			path = entry_path(nm, p->pdir, p->off);
		}
		break;
	case XBULK_PROBLEM_DIR_LINK:
		out.parent = xbn_dir(&nm->dirs, p->pdir)->ino;
		path = entry_path(nm, p->pdir, p->off);
		break;
	case XBULK_PROBLEM_DOTDOT:
		out.parent = p->ino;
		path = xbn_dir_path(nm, p->dir);
		break;
	case XBULK_PROBLEM_CYCLE:
		if (p->pdir != XBN_NONE)
			out.parent = xbn_dir(&nm->dirs, p->pdir)->ino;
		break;
	case XBULK_PROBLEM_UNREADABLE:
		if (d->parent != XBN_NONE)
			out.parent = xbn_dir(&nm->dirs, d->parent)->ino;
		path = xbn_dir_path(nm, p->dir);
		break;
	case XBULK_PROBLEM_AG_FAULT:	/* reported apart: no xbn_problem */
		break;
	}
	out.path = path;
	if (o->problem)
		o->problem(o->arg, &out);
	free(path);
}

int
xbn_report_all(struct xbulk_names *nm, const struct xbulk_names_opts *o,
	       struct xbulk_names_result *r)
{
	uint32_t i;
	size_t k;

	for (k = 0; k < nm->nfaults; k++) {
		struct xbulk_names_problem p = {
			.kind = XBULK_PROBLEM_AG_FAULT,
			.err = nm->faults[k].err, .ino = nm->faults[k].cursor,
			.path = nm->mountpoint, .ag_fault = &nm->faults[k],
		};

		if (o->problem)
			o->problem(o->arg, &p);
	}
	for (i = 0; i < nm->dirs.n; i++) {
		const struct xbn_dir *d = xbn_dir(&nm->dirs, i);

		r->dirs_read += !!(d->flags & XBN_DIR_READ);
		r->dirs_gone += !!(d->flags & XBN_DIR_GONE);
		r->names += d->nentries;
		r->folded += d->folded;
		if (d->flags & XBN_DIR_UNREADABLE) {
			struct xbn_problem p = {
				.kind = XBULK_PROBLEM_UNREADABLE, .err = d->err,
				.dir = i, .pdir = XBN_NONE,
			};

			r->dirs_unreadable++;
			report(nm, o, &p);
		}
	}
	locate_bad(nm);
	for (k = 0; k < nm->nbad; k++) {
		struct xbn_problem p = {
			.kind = XBULK_PROBLEM_BAD_INODE, .err = nm->bad[k].err,
			.dir = XBN_NONE, .pdir = nm->bad[k].dir,
			.off = nm->bad[k].off, .ino = nm->bad[k].ino,
		};

		r->bad_inodes++;
		report(nm, o, &p);
	}
	for (k = 0; k < nm->nproblems; k++)
		report(nm, o, &nm->problems[k]);
	return 0;
}

int
xbn_problem_add(struct xbulk_names *nm, const struct xbn_problem *p)
{
	if (xbl_grow((void **)&nm->problems, &nm->problems_cap,
		     nm->nproblems + 1, sizeof(*nm->problems)))
		return -ENOMEM;
	nm->problems[nm->nproblems++] = *p;
	return 0;
}
