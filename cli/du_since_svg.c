// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk du --since OLD NEW --svg FILE: the treemap of NEW (du --svg's
 * layout and drawing, cli/du/svgwrite.c) coloured by each directory's
 * growth since OLD (DU_COLOR_GROWTH).  Its boxes are NEW's directories
 * down to --svg-depth, each sized by its subtree's disk usage as
 * du_since.c counts it (cli/history_sum.c's rule); a directory's files
 * are its "more" box.  A directory is matched with OLD's by inode and
 * generation (du_since_old()), so a moved one keeps its growth and says
 * its old path; one OLD lacks is new.  What OLD's directories held that
 * NEW has not (the highest directory of each subtree gone) has no box of
 * NEW: the legend states it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "du.h"
#include "du/svg.h"

const struct xb_sum_dir *
du_since_old(const struct xb_summary *old, uint64_t ino,
	     const struct xb_sum_dir *d)
{
	const struct xb_sum_dir *o = xbl_hash_get(&old->dirs, ino);

	return o && d && o->gen == d->gen && o->depth >= 0 && d->depth >= 0
	       ? o : NULL;
}

/* A copy of directory @ino's path in @sum and @s: 0 or a negative errno
 * (-ENOENT: no name reaches it). */
static int
path_of(const struct xb_summary *sum, const struct xbulk_snap *s,
	uint64_t ino, const struct xb_sum_dir *d, char **buf, size_t *cap,
	char **path)
{
	long len = xb_summary_dir_path(sum, s, ino, d, buf, cap);

	if (len < 0)
		return (int)len;
	*path = strdup(*buf);
	return *path ? 0 : -ENOMEM;
}

/* The box of NEW's directory @ino (@d), with its growth since OLD. */
static int
new_node(const struct xb_summary sum[2], struct xbulk_snap *const s[2],
	 uint64_t ino, const struct xb_sum_dir *d, const char *top,
	 char **buf, size_t *cap, struct svg_node **np)
{
	const struct xb_sum_dir *o = du_since_old(&sum[0], ino, d);
	struct svg_node *n = calloc(1, sizeof(*n));
	int err;

	if (!n)
		return -ENOMEM;
	n->bytes = d->sub.bytes;
	n->inodes = d->sub.inodes;
	n->dir = true;
	n->grown = o ? DU_GROWN_SAME : DU_GROWN_NEW;
	n->then = o ? o->sub.bytes : 0;
	/* the top is labelled with PATH as given */
	if (ino == sum[1].top)
		err = (n->path = strdup(top)) ? 0 : -ENOMEM;
	else
		err = path_of(&sum[1], s[1], ino, d, buf, cap, &n->path);
	if (!err && o && ino != sum[1].top)
		err = path_of(&sum[0], s[0], ino, o, buf, cap, &n->old_path);
	if (!err && n->old_path && !strcmp(n->path, n->old_path)) {
		free(n->old_path);
		n->old_path = NULL;
	} else if (!err && n->old_path) {
		n->grown = DU_GROWN_MOVED;
	}
	if (err) {
		svg_node_free(n);
		return err;
	}
	*np = n;
	return 0;
}

/* Add @kid to @parent's boxes; 0 or -ENOMEM. */
static int
adopt(struct svg_node *parent, struct svg_node *kid)
{
	struct svg_node **v = realloc(parent->kids,
				      (parent->nkids + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	v[parent->nkids++] = kid;
	parent->kids = v;
	return 0;
}

static void
keep_all(struct svg_node *n)
{
	size_t i;

	svg_node_keep(n);
	for (i = 0; i < n->nkids; i++)
		keep_all(n->kids[i]);
}

/*
 * NEW's directories down to @depth as a tree under *@top: each depth's
 * boxes made, then put in their parent's (made at the depth above).
 * 0 or a negative errno.
 */
static int
build_tree(const struct xb_summary sum[2], struct xbulk_snap *const s[2],
	   unsigned int depth, const char *path, struct svg_node **top)
{
	struct xbl_hash at;	/* ino -> struct svg_node * */
	const struct xb_sum_dir *d;
	struct svg_node *n, **slot, **parent;
	char *buf = NULL;
	size_t cap = 0, pos;
	uint64_t ino;
	bool fresh;
	int err = 0;

	*top = NULL;
	xbl_hash_init(&at, sizeof(struct svg_node *));
	for (unsigned int k = 0; !err && k <= depth; k++) {
		pos = 0;
		while (!err && (d = xbl_hash_next(&sum[1].dirs, &pos, &ino))) {
			if (d->depth != (int32_t)k)
				continue;
			parent = k ? xbl_hash_get(&at, d->parent) : NULL;
			if (k && !parent)
				continue;
			err = new_node(sum, s, ino, d, path, &buf, &cap, &n);
			if (err)
				break;
			slot = xbl_hash_add(&at, ino, &fresh);
			if (!slot || (k && adopt(*parent, n))) {
				svg_node_free(n);
				err = -ENOMEM;
				break;
			}
			*slot = n;
			if (!k)
				*top = n;
		}
	}
	free(buf);
	xbl_hash_free(&at);
	if (err) {
		svg_node_free(*top);
		*top = NULL;
	} else if (*top) {
		keep_all(*top);
	}
	return err == -ENOENT ? -EBADMSG : err;
}

/* OLD's directories NEW has not: the bytes and number of the highest of
 * each subtree gone. */
static void
deleted(const struct xb_summary sum[2], struct du_svg_opts *o)
{
	const struct xb_sum_dir *d, *up;
	size_t pos = 0;
	uint64_t ino;

	while ((d = xbl_hash_next(&sum[0].dirs, &pos, &ino))) {
		if (d->depth <= 0 ||
		    du_since_old(&sum[0], ino, xbl_hash_get(&sum[1].dirs, ino)))
			continue;
		up = xbl_hash_get(&sum[1].dirs, d->parent);
		if (!du_since_old(&sum[0], d->parent, up))
			continue;	/* its parent went too */
		o->deleted += d->sub.bytes;
		o->ndeleted++;
	}
}

int
du_since_svg(struct du_run *r, const char *old, const char *new,
	     const struct xb_summary sum[2], struct xbulk_snap *const s[2])
{
	struct du_svg_opts o = {
		.depth = r->svg_depth,
		.color = DU_COLOR_GROWTH,
	};
	struct svg_node *top;
	struct du_svg *svg = NULL;
	size_t len = strlen(new) + strlen(old) + sizeof(" since ");
	char *title = malloc(len);
	int err;

	if (!title)
		return -ENOMEM;
	snprintf(title, len, "%s since %s", new, old);
	o.title = title;
	deleted(sum, &o);
	err = build_tree(sum, s, r->svg_depth, new, &top);
	if (!err)
		err = du_svg_new(&o, &svg);
	if (!err && top)
		err = du_svg_tree(svg, top);
	else if (top)
		svg_node_free(top);
	if (!err)
		err = du_svg_write(svg, r->svg_file.out);
	du_svg_free(svg);
	free(title);
	return err;
}
