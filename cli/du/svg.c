// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The treemap's boxes, collected from du's counted entries in du's order:
 * a box waits at its depth until its directory comes (after its
 * contents), which takes the largest DU_SVG_KEEP of them; the bytes of
 * the rest stay in the directory's figure and are drawn as "other".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "svg.h"

int
du_svg_new(const struct du_svg_opts *o, struct du_svg **svgp)
{
	struct du_svg *svg = calloc(1, sizeof(*svg));

	if (!svg)
		return -ENOMEM;
	svg->o = *o;
	if (!svg->o.width || !svg->o.height) {
		svg->o.width = 1280;
		svg->o.height = 800;
	}
	svg->lvl = calloc((size_t)o->depth + 2, sizeof(*svg->lvl));
	if (!svg->lvl) {
		free(svg);
		return -ENOMEM;
	}
	*svgp = svg;
	return 0;
}

void
svg_node_free(struct svg_node *n)
{
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n->nkids; i++)
		svg_node_free(n->kids[i]);
	free(n->kids);
	free(n->path);
	free(n->old_path);
	free(n);
}

void
du_svg_free(struct du_svg *svg)
{
	size_t d, i;

	if (!svg)
		return;
	for (d = 0; d < (size_t)svg->o.depth + 2; d++) {
		for (i = 0; i < svg->lvl[d].n; i++)
			svg_node_free(svg->lvl[d].v[i]);
		free(svg->lvl[d].v);
	}
	free(svg->lvl);
	free(svg);
}

static int
cmp_bytes(const void *pa, const void *pb)
{
	const struct svg_node *a = *(struct svg_node *const *)pa;
	const struct svg_node *b = *(struct svg_node *const *)pb;

	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? 1 : -1;
	/* ties in path order: the picture is the same whatever order
	 * the boxes came in (du --since's from a hash) */
	return strcmp(a->path, b->path);
}

/* Keep the largest DU_SVG_KEEP boxes of @l (sorted), free the rest. */
static void
trim(struct svg_level *l)
{
	size_t i;

	qsort(l->v, l->n, sizeof(*l->v), cmp_bytes);
	for (i = DU_SVG_KEEP; i < l->n; i++)
		svg_node_free(l->v[i]);
	if (l->n > DU_SVG_KEEP)
		l->n = DU_SVG_KEEP;
}

static int push(struct svg_level *l, struct svg_node *n);

void
svg_node_keep(struct svg_node *n)
{
	struct svg_level l = { n->kids, n->nkids, n->nkids };

	trim(&l);
	n->nkids = l.n;
}

int
du_svg_tree(struct du_svg *svg, struct svg_node *top)
{
	int err;

	svg->total += top->bytes;
	svg->total_inodes += top->inodes;
	err = push(&svg->lvl[0], top);
	if (err)
		svg_node_free(top);
	return err;
}

static int
push(struct svg_level *l, struct svg_node *n)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct svg_node **v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = n;
	/* A directory of many small files: keep the memory bounded. */
	if (l->n >= 4 * DU_SVG_KEEP)
		trim(l);
	return 0;
}

int
du_svg_charge(struct du_svg *svg, const struct xbulk_entry *e,
		 const struct xbulk_du_sum *sum)
{
	struct svg_level *below;
	struct svg_node *n;
	size_t i;
	int err;

	if (e->depth > svg->o.depth)
		return 0;
	n = calloc(1, sizeof(*n));
	if (!n || !(n->path = strdup(e->path))) {
		free(n);
		return -ENOMEM;
	}
	n->bytes = sum->bytes;
	n->inodes = sum->inodes;
	n->uid = e->bs->bs_uid;
	n->time = xbulk_time_of(e->bs, svg->o.time);
	n->dir = S_ISDIR(e->bs->bs_mode);
	below = &svg->lvl[e->depth + 1];
	if (n->dir && below->n) {
		trim(below);
		n->kids = below->v;
		n->nkids = below->n;
		*below = (struct svg_level){ 0 };
		for (i = 0; i < n->nkids; i++)
			if (n->kids[i]->time > n->time)
				n->time = n->kids[i]->time;
	}
	if (!e->depth) {
		svg->total += n->bytes;
		svg->total_inodes += n->inodes;
	}
	err = push(&svg->lvl[e->depth], n);
	if (err)
		svg_node_free(n);
	return err;
}
