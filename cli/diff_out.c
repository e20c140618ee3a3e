// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The change lines of xbulk diff: text (a code column, as rsync's
 * --itemize-changes, then the path; a folded subtree's counts after
 * it), JSON Lines, CSV and --summary (its table by directory: in
 * diff_dirs.c); the filters, and the NUL-terminated path lists (-0,
 * --deleted0: in diff_paths.c).  The formats are the man page's (DIFF, "Change
 * lines").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "diff.h"

static const char kind_code[] = { [XBULK_CHANGE_CREATED] = '+',
	[XBULK_CHANGE_DELETED] = '-', [XBULK_CHANGE_RENAMED] = 'R',
	[XBULK_CHANGE_MODIFIED] = 'M', [XBULK_CHANGE_ENTRIES] = 'E',
	[XBULK_CHANGE_LINKED] = 'L', [XBULK_CHANGE_UNLINKED] = 'U',
	[XBULK_CHANGE_MOVED] = '>' };

const char *const xb_change_names[XB_CHANGE_KINDS] = {
	[XBULK_CHANGE_CREATED] = "created", [XBULK_CHANGE_DELETED] = "deleted",
	[XBULK_CHANGE_RENAMED] = "renamed",
	[XBULK_CHANGE_MODIFIED] = "modified",
	[XBULK_CHANGE_ENTRIES] = "entries", [XBULK_CHANGE_LINKED] = "linked",
	[XBULK_CHANGE_UNLINKED] = "unlinked", [XBULK_CHANGE_MOVED] = "moved",
};

/* Facet letters and names, in the code column's order. */
static const struct {
	uint32_t	bit;
	char		letter;
	const char	*name;
} facets[] = {
	{ XBULK_FACET_CONTENT, 'c', "content" },
	{ XBULK_FACET_MODE, 'p', "mode" },
	{ XBULK_FACET_UID, 'o', "owner" },
	{ XBULK_FACET_GID, 'g', "group" },
	{ XBULK_FACET_PROJID, 'j', "project" },
	{ XBULK_FACET_XFLAGS, 'x', "xflags" },
	{ XBULK_FACET_NLINK, 'n', "nlink" },
	{ XBULK_FACET_CTIME, 'k', "ctime" },
	{ XBULK_FACET_ATIME, 'a', "atime" },
	{ XBULK_FACET_LAYOUT, 'l', "layout" },
};

#define NFACETS	(sizeof(facets) / sizeof(facets[0]))

/* A path for a line of text (xb_put_escaped()), or the inode's number. */
static void
put_text_path(FILE *f, const struct xbulk_snap_change *c, const char *p)
{
	if (p)
		xb_put_escaped(f, p);
	else
		fprintf(f, "<inode %llu>",
			(unsigned long long)xb_diff_rec(c)->bs_ino);
}

static void
put_text(FILE *f, const struct xbulk_snap_change *c)
{
	size_t i;

	putc(kind_code[c->kind], f);
	putc(xb_type_letter(xb_diff_rec(c)->bs_mode), f);
	for (i = 0; i < NFACETS; i++)
		putc(c->facets & facets[i].bit ? facets[i].letter : '.', f);
	putc(c->flags & XBULK_CHANGE_CHANGING ? '!' : '.', f);
	putc(' ', f);
	if (c->kind == XBULK_CHANGE_RENAMED || c->kind == XBULK_CHANGE_MOVED) {
		put_text_path(f, c, c->old_path);
		fputs(" -> ", f);
	}
	put_text_path(f, c, c->path);
	if (c->flags & XBULK_CHANGE_SUBTREE) {
		char b[32];

		fprintf(f, " (%llu inodes, %s)", (unsigned long long)c->inodes,
			xb_fig_iec(b, sizeof(b), (double)c->bytes));
	}
	putc('\n', f);
}

static void
put_facet_list(FILE *f, uint32_t bits, const char *sep)
{
	size_t i;
	bool first = true;

	for (i = 0; i < NFACETS; i++) {
		if (!(bits & facets[i].bit))
			continue;
		fprintf(f, "%s%s%s%s", first ? "" : sep, *sep == ',' ? "\"" : "",
			facets[i].name, *sep == ',' ? "\"" : "");
		first = false;
	}
}

static void
put_jsonl(FILE *f, const struct xbulk_snap_change *c)
{
	const struct xfs_bulkstat *r = xb_diff_rec(c);

	fprintf(f, "{\"change\":\"%s\",\"code\":\"%c\",\"type\":\"%c\","
		"\"ino\":%llu,\"gen\":%u,\"facets\":[",
		xb_change_names[c->kind], kind_code[c->kind],
		xb_type_letter(r->bs_mode), (unsigned long long)r->bs_ino,
		r->bs_gen);
	put_facet_list(f, c->facets, ",");
	fprintf(f, "],\"changing\":%s",
		c->flags & XBULK_CHANGE_CHANGING ? "true" : "false");
	putc(',', f);
	xb_json_string(f, "path", c->path);
	putc(',', f);
	xb_json_string(f, "old_path", c->old_path);
	/* mode: 0.3's form; bs_mode: find's and bulkstat's (%#o) */
	if (c->new)
		fprintf(f, ",\"size\":%llu,\"mode\":\"%o\",\"uid\":%u,"
			"\"gid\":%u,\"bs_mode\":\"%#o\"",
			(unsigned long long)c->new->bs_size, c->new->bs_mode,
			c->new->bs_uid, c->new->bs_gid, c->new->bs_mode);
	if (c->old)
		fprintf(f, ",\"old_size\":%llu,\"old_mode\":\"%o\","
			"\"old_uid\":%u,\"old_gid\":%u,\"old_bs_mode\":\"%#o\"",
			(unsigned long long)c->old->bs_size, c->old->bs_mode,
			c->old->bs_uid, c->old->bs_gid, c->old->bs_mode);
	if (c->flags & XBULK_CHANGE_SUBTREE)
		fprintf(f, ",\"inodes\":%llu,\"bytes\":%llu",
			(unsigned long long)c->inodes,
			(unsigned long long)c->bytes);
	fputs("}\n", f);
}

/* ,"path" (U+FFFD for bytes that are not UTF-8; true then), or a
 * comma alone. */
static bool
put_csv_path(FILE *f, const char *p)
{
	putc(',', f);
	return p && xb_csv_quoted(f, p);
}

void
xb_diff_out_begin(struct xb_diff_out *o)
{
	if (o->fmt == XB_DIFF_CSV)
		fprintf(o->f, "change,type,ino,gen,facets,changing,path,"
			"old_path,size,old_size%s,path_b64,old_path_b64\r\n",
			o->fold ? ",inodes,bytes" : "");
}

static void
put_csv(FILE *f, const struct xbulk_snap_change *c, bool fold)
{
	const struct xfs_bulkstat *r = xb_diff_rec(c);
	bool lossy, old_lossy;

	fprintf(f, "%s,%c,%llu,%u,", xb_change_names[c->kind],
		xb_type_letter(r->bs_mode), (unsigned long long)r->bs_ino,
		r->bs_gen);
	put_facet_list(f, c->facets, "|");
	fprintf(f, ",%d", c->flags & XBULK_CHANGE_CHANGING ? 1 : 0);
	lossy = put_csv_path(f, c->path);
	old_lossy = put_csv_path(f, c->old_path);
	putc(',', f);
	if (c->new)
		fprintf(f, "%llu", (unsigned long long)c->new->bs_size);
	putc(',', f);
	if (c->old)
		fprintf(f, "%llu", (unsigned long long)c->old->bs_size);
	if (fold && (c->flags & XBULK_CHANGE_SUBTREE))
		fprintf(f, ",%llu,%llu", (unsigned long long)c->inodes,
			(unsigned long long)c->bytes);
	else if (fold)
		fputs(",,", f);
	xb_csv_b64(f, c->path, lossy);
	xb_csv_b64(f, c->old_path, old_lossy);
	fputs("\r\n", f);
}

int
xb_diff_out_change(struct xb_diff_out *o, const struct xbulk_snap_change *c)
{
	bool shown = (o->kinds & (1u << c->kind)) &&
		     strchr(o->types, xb_type_letter(xb_diff_rec(c)->bs_mode));
	bool link_only = c->flags & XBULK_CHANGE_LINK_ONLY;

	if (o->fmt == XB_DIFF_NUL && o->links != XB_LINKS_ALL &&
	    link_only != (o->links == XB_LINKS_ONLY))
		shown = false;

	if (o->fmt == XB_DIFF_DELETED0 && xb_diff_paths_add(o, c, shown))
		return -ENOMEM;
	if (!shown)
		return 0;
	o->any = true;
	xb_diff_tally_add(&o->total, c);
	switch (o->fmt) {
	case XB_DIFF_TEXT: put_text(o->f, c); break;
	case XB_DIFF_JSONL: put_jsonl(o->f, c); break;
	case XB_DIFF_CSV: put_csv(o->f, c, o->fold); break;
	case XB_DIFF_NUL: xb_diff_paths_put(o->f, c); break;
	case XB_DIFF_DELETED0: break;
	case XB_DIFF_SUMMARY: return o->depth ? xb_diff_dirs_add(o, c) : 0;
	}
	return 0;
}

int
xb_diff_out_end(struct xb_diff_out *o)
{
	size_t k;

	if (o->fmt == XB_DIFF_DELETED0)
		return xb_diff_paths_deleted(o);
	if (o->fmt != XB_DIFF_SUMMARY)
		return 0;
	xb_diff_dirs_print(o);
	for (k = 0; k < XB_CHANGE_KINDS; k++)
		fprintf(o->f, "%-9s %llu\n", xb_change_names[k],
			(unsigned long long)o->total.n[k]);
	fprintf(o->f, "bytes added %llu, removed %llu, changed %llu\n"
		"changing  %llu (changed while a scan ran)\n",
		(unsigned long long)o->total.added,
		(unsigned long long)o->total.removed,
		(unsigned long long)o->total.changed,
		(unsigned long long)o->total.changing);
	return 0;
}

void
xb_diff_out_free(struct xb_diff_out *o)
{
	xb_diff_paths_free(o);
	xb_diff_dirs_free(o);
}
