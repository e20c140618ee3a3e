// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The compiled find's lifecycle: what the parser allocates is kept on the
 * object (xf_keep()) and freed with it; its accessors.
 */
#include <regex.h>
#include <stdlib.h>
#include <unistd.h>

#include "actions.h"
#include "find.h"

void *
xf_keep(struct xbulk_find *f, void *p)
{
	if (!p)
		return NULL;
	if (f->nallocs == f->allocs_cap) {
		size_t cap = f->allocs_cap ? 2 * f->allocs_cap : 32;
		void **v = realloc(f->allocs, cap * sizeof(*v));

		if (!v) {
			free(p);
			return NULL;
		}
		f->allocs = v;
		f->allocs_cap = cap;
	}
	f->allocs[f->nallocs++] = p;
	return p;
}

void *
xf_zalloc(struct xbulk_find *f, size_t size)
{
	return xf_keep(f, calloc(1, size));
}

regex_t *
xf_regex_new(struct xbulk_find *f)
{
	regex_t **v = realloc(f->regexes, (f->nregexes + 1) * sizeof(*v));
	regex_t *re;

	if (!v)
		return NULL;
	f->regexes = v;
	re = calloc(1, sizeof(*re));
	if (!re)
		return NULL;
	re->fastmap = malloc(256);
	if (!re->fastmap) {
		free(re);
		return NULL;
	}
	v[f->nregexes++] = re;
	return re;
}

void
xbulk_find_free(struct xbulk_find *f)
{
	struct xf_exec *x;
	size_t i;

	if (!f)
		return;
	for (x = f->execs; x; x = x->next) {	/* the batches */
		free(x->args);
		free(x->chars);
		if (x->wd >= 0)
			close(x->wd);
	}
	for (i = 0; i < f->nstreams; i++)
		if (f->streams[i])
			xbl_out_release(&f->streams[i]->out);
	for (i = 0; i < f->nregexes; i++) {
		regfree(f->regexes[i]);
		free(f->regexes[i]);
	}
	for (i = 0; i < f->nallocs; i++)
		free(f->allocs[i]);
	free(f->regexes);
	xbulk_ids_free(f->ids);
	free(f->streams);
	free(f->allocs);
	free(f->linkbuf);
	for (i = 0; i < XF_QUOTE_SLOTS; i++)
		free(f->quoted[i].buf);
	free(f);
}

size_t
xbulk_find_npaths(const struct xbulk_find *f)
{
	return f->npaths;
}

const char *
xbulk_find_path(const struct xbulk_find *f, size_t i)
{
	return f->paths[i];
}

bool
xbulk_find_post_order(const struct xbulk_find *f)
{
	return f->post;
}

int
xbulk_find_maxdepth(const struct xbulk_find *f)
{
	return f->maxdepth;
}

uint32_t
xbulk_find_fields(const struct xbulk_find *f)
{
	return f->root->fields & ~XF_F_STAT;
}

unsigned int
xbulk_find_walk_flags(const struct xbulk_find *f)
{
	return (f->post || f->execdir_plus ? XBULK_WALK_POST : 0) |
	       (f->follow_paths ? XBULK_WALK_FOLLOW : 0) |
	       (f->logical ? XBULK_WALK_LOGICAL : 0) |
	       (f->xdev ? XBULK_WALK_XDEV : 0);
}

bool
xbulk_find_names_only(const struct xbulk_find *f)
{
	return !f->root->fields && f->record == XBULK_FIND_RECORD_NONE;
}

const char *
xbulk_find_files0_from(const struct xbulk_find *f)
{
	return f->files0_from;
}

bool
xbulk_find_reads_stdin(const struct xbulk_find *f)
{
	return f->ok_stdin;
}

void
xbulk_find_set_fs(struct xbulk_find *f, unsigned int blocklog, uint64_t dev)
{
	f->blocklog = blocklog < 9 ? 9 : blocklog;
	f->dev = dev;
}

uint64_t
xbulk_find_problems(const struct xbulk_find *f)
{
	return f->problems;
}

struct xf_node *
xf_node_new(struct xf_parser *ps, const struct xf_primary *p)
{
	struct xf_node *n = xf_zalloc(ps->find, sizeof(*n));

	if (n) {
		n->kind = XF_PRIMARY;
		n->prim = p;
		n->fields = p->fields | (p->props & XF_P_STAT ? XF_F_STAT : 0);
	}
	return n;
}
