// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The treemap drawn as SVG: operands side by side in the canvas, each
 * directory's boxes inside it under a header strip, boxes too small to
 * see merged into the directory's hatched "more" box, labels only where
 * they fit, a <title> tooltip on every box, and a legend of the colours:
 * the largest owners by name, the age classes, or du --since's growth
 * scale.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "svg.h"

#define TITLE_H		24.0	/* heading strip */
#define LEGEND_H	22.0	/* legend strip */
#define HEADER		16.0	/* a directory's label strip: 11 px fits */
#define PAD		2.0	/* around a directory's boxes */
#define MIN_AREA	12.0	/* px^2: smaller boxes go to "more" */
#define LEGEND_FONT	11.0

/* Age classes' colours, new (green) to old (red): --by age's classes. */
static const unsigned int age_rgb[DU_AGE_CLASSES] = {
	0x1a9850, 0x66bd63, 0xa6d96a, 0xd9ef8b, 0xfee08b, 0xfdae61, 0xf46d43,
};

/*
 * Owners' colours, the owner of the most bytes drawn first (ColorBrewer
 * Set2 and Set3): apart from each other, light enough for black labels.
 * Owners past them share OWNER_REST.
 */
#define OWNER_COLORS	10
static const unsigned int owner_rgb[OWNER_COLORS] = {
	0x66c2a5, 0xfc8d62, 0x8da0cb, 0xe78ac3, 0xa6d854, 0xffd92f, 0xe5c494,
	0x80b1d3, 0xbc80bd, 0xfb8072,
};
#define OWNER_REST	0xcccccc

/*
 * Growth since OLD (DU_COLOR_GROWTH), ColorBrewer RdBu: grew in red,
 * shrunk in blue, GROWTH_CLASSES each, darker for more bytes on a log
 * scale (growth_class()); unchanged in neutral grey, a new directory in
 * purple (PRGn) whatever its size.
 */
#define GROWTH_CLASSES	4
static const unsigned int grew_rgb[GROWTH_CLASSES] = {
	0xfddbc7, 0xf4a582, 0xd6604d, 0xb2182b,
};
static const unsigned int shrunk_rgb[GROWTH_CLASSES] = {
	0xd1e5f0, 0x92c5de, 0x4393c3, 0x2166ac,
};
#define GROWTH_SAME	0xd9d9d9
#define GROWTH_NEW	0xaf8dc3

/* The "more" boxes: light grey, hatched, unlike any owner or age. */
static const char more_defs[] =
	"<defs><pattern id=\"more\" width=\"6\" height=\"6\" "
	"patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
	"<rect width=\"6\" height=\"6\" fill=\"#eeeeee\"/>"
	"<rect width=\"2\" height=\"6\" fill=\"#c4c4c4\"/></pattern></defs>\n";

struct owner {
	uint32_t	uid;
	uint64_t	bytes;		/* of the boxes drawn in its colour */
};

struct writer {
	const struct du_svg	*svg;
	FILE			*f;
	unsigned long		next_id;
	struct du_units	units;	/* -h */
	struct owner		owner[OWNER_COLORS];
	size_t			nowners;
	uint64_t		rest_bytes;	/* owners past them */
	bool			more;		/* a "more" box drawn */
	/* DU_COLOR_GROWTH: the upper bound of each class's change, bytes */
	uint64_t		bound[GROWTH_CLASSES];
	int			err;	/* -ENOMEM: something left out */
};

/* The change of @n's bytes since OLD, and its size. */
static int64_t
growth_of(const struct svg_node *n, uint64_t *abs)
{
	*abs = n->bytes >= n->then ? n->bytes - n->then : n->then - n->bytes;
	return (int64_t)(n->bytes - n->then);
}

/* Binary orders of magnitude of @v: 0 for 0, 1 for 1, 11 for 1024. */
static unsigned int
bits(uint64_t v)
{
	return v ? 64 - (unsigned int)__builtin_clzll(v) : 0;
}

/*
 * The classes of change, on a log scale between the smallest change of
 * a box drawn in full colour, @lo bytes, and the largest, @hi (grown or
 * shrunk alike): their binary orders of magnitude (bits()) split in
 * GROWTH_CLASSES equal parts, class k holding the changes up to
 * w->bound[k] (a power of two, at least twice the class before), the
 * last one the rest.  So a change a thousandth of the largest still
 * shows, and the same changes give the same picture.
 */
static void
growth_bounds(struct writer *w, uint64_t lo, uint64_t hi)
{
	unsigned int b0 = lo ? bits(lo) - 1 : 0, b1 = bits(hi), k;
	uint64_t b;

	for (k = 0; k < GROWTH_CLASSES; k++) {
		b = (uint64_t)1 << (b0 + (b1 - b0) * (k + 1) / GROWTH_CLASSES);
		if (k && b <= w->bound[k - 1])
			b = 2 * w->bound[k - 1];
		w->bound[k] = k + 1 == GROWTH_CLASSES || b > hi ? hi : b;
	}
}

/* The class (0 to 3) of a change of @abs bytes, not 0. */
static size_t
growth_class(const struct writer *w, uint64_t abs)
{
	size_t k = 0;

	while (k + 1 < GROWTH_CLASSES && abs > w->bound[k])
		k++;
	return k;
}

/* The smallest and largest changes (not 0) of the boxes under @n drawn
 * in full colour, those without boxes inside, new ones aside: a
 * directory's change is its boxes' summed, and would take the scale. */
static void
growth_range(const struct svg_node *n, uint64_t *lo, uint64_t *hi)
{
	uint64_t abs = 0;
	size_t i;

	if (!n->nkids && n->grown != DU_GROWN_NEW)
		growth_of(n, &abs);
	if (abs && (!*lo || abs < *lo))
		*lo = abs;
	if (abs > *hi)
		*hi = abs;
	for (i = 0; i < n->nkids; i++)
		growth_range(n->kids[i], lo, hi);
}

/* data-growth's word for @n, and its colour into *@rgb. */
static const char *
growth_color(const struct writer *w, const struct svg_node *n,
	     unsigned int *rgb)
{
	uint64_t abs;
	int64_t d = growth_of(n, &abs);

	if (n->grown == DU_GROWN_NEW) {
		*rgb = GROWTH_NEW;
		return "new";
	}
	if (!d) {
		*rgb = GROWTH_SAME;
		return "same";
	}
	*rgb = (d > 0 ? grew_rgb : shrunk_rgb)[growth_class(w, abs)];
	return d > 0 ? "grew" : "shrunk";
}

/* "#rrggbb" of @rgb, mixed 65% towards white if @light. */
static void
color_text(unsigned int rgb, bool light, char *buf)
{
	unsigned int c[3] = { rgb >> 16, (rgb >> 8) & 255, rgb & 255 };
	int i;

	for (i = 0; light && i < 3; i++)
		c[i] += (255 - c[i]) * 65 / 100;
	sprintf(buf, "#%02x%02x%02x", c[0], c[1], c[2]);
}

/* A box's fill: its owner's or its age's colour; @light for a directory
 * seen around its boxes. */
static void
fill_of(const struct writer *w, const struct svg_node *n, bool light,
	char *buf)
{
	const struct du_svg *svg = w->svg;
	unsigned int rgb = OWNER_REST;
	size_t i;

	if (svg->o.color == DU_COLOR_AGE) {
		rgb = age_rgb[du_age_class(svg->o.now, n->time)];
	} else if (svg->o.color == DU_COLOR_GROWTH) {
		growth_color(w, n, &rgb);
	} else {
		for (i = 0; i < w->nowners; i++)
			if (w->owner[i].uid == n->uid)
				rgb = owner_rgb[i];
	}
	color_text(rgb, light, buf);
}

static size_t
count_leaves(const struct svg_node *n)
{
	size_t i, k = !n->nkids;

	for (i = 0; i < n->nkids; i++)
		k += count_leaves(n->kids[i]);
	return k;
}

static void
gather_leaves(const struct svg_node *n, struct owner *v, size_t *k)
{
	size_t i;

	if (!n->nkids)
		v[(*k)++] = (struct owner){ n->uid, n->bytes };
	for (i = 0; i < n->nkids; i++)
		gather_leaves(n->kids[i], v, k);
}

static int
cmp_uid(const void *pa, const void *pb)
{
	const struct owner *a = pa, *b = pb;

	return (a->uid > b->uid) - (a->uid < b->uid);
}

static int
cmp_owner_bytes(const void *pa, const void *pb)
{
	const struct owner *a = pa, *b = pb;

	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? 1 : -1;
	return cmp_uid(pa, pb);
}

/* The owners of the most bytes in boxes without boxes inside (what the
 * picture is coloured with), most first. */
static void
rank_owners(struct writer *w, const struct svg_node *top)
{
	size_t n = count_leaves(top), k = 0, m = 0, i;
	struct owner *v = malloc((n ? n : 1) * sizeof(*v));

	if (!v) {
		w->err = -ENOMEM;
		return;
	}
	gather_leaves(top, v, &k);
	qsort(v, k, sizeof(*v), cmp_uid);
	for (i = 0; i < k; i++) {
		if (m && v[m - 1].uid == v[i].uid)
			v[m - 1].bytes += v[i].bytes;
		else
			v[m++] = v[i];
	}
	qsort(v, m, sizeof(*v), cmp_owner_bytes);
	for (i = 0; i < m && v[i].bytes; i++) {
		if (i < OWNER_COLORS)
			w->owner[w->nowners++] = v[i];
		else
			w->rest_bytes += v[i].bytes;
	}
	free(v);
}

/* The label "name size" (or "name") at 11 or 9 px if it fits in @r
 * with a pixel to spare; @top: in a directory's header strip. */
static void
label(struct writer *w, const char *name, const char *size,
      const struct du_rect *r, bool top)
{
	static const double sizes[] = { 11, 9 };
	size_t i;

	for (i = 0; i < 2 * 2; i++) {
		double fs = sizes[i % 2];
		bool with_size = i < 2;
		double tw = svg_text_width(name, fs) +
			    (with_size ? svg_text_width(" ", fs) +
					 svg_text_width(size, fs) : 0);
		double x = r->x + 3, y = r->y + 2 + fs;

		if (top && fs * 1.25 + 2 > HEADER)
			continue;
		if (x + tw > r->x + r->w - 1 || y + 0.25 * fs > r->y + r->h - 1)
			continue;
		fprintf(w->f, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%g\">",
			x, y, fs);
		svg_put_text(w->f, name);
		if (with_size)
			fprintf(w->f, " %s", size);
		fputs("</text>", w->f);
		return;
	}
}

static const char *
owner_name(const struct writer *w, uint32_t uid, char *num)
{
	const char *name = w->svg->o.owner_name
		? w->svg->o.owner_name(w->svg->o.arg, uid) : NULL;

	if (name)
		return name;
	sprintf(num, "%u", uid);
	return num;
}

/* A signed change "+1.5M" (or "-"), and its bytes, into @buf. */
static void
change_text(const struct writer *w, const struct svg_node *n, char *buf,
	    size_t len)
{
	char size[DU_UNITS_MAX];
	uint64_t abs;
	int64_t d = growth_of(n, &abs);

	du_units_format(size, abs, &w->units);
	if (!d)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%s%s (%+lld bytes)", d < 0 ? "-" : "+",
			 size, (long long)d);
}

/* The tooltip's lines of growth: then, the change, the old path. */
static void
growth_lines(struct writer *w, const struct svg_node *n)
{
	char size[DU_UNITS_MAX], change[DU_UNITS_MAX + 40];

	if (n->grown == DU_GROWN_NEW) {
		fputs("\nthen: not there (new)", w->f);
	} else {
		du_units_format(size, n->then, &w->units);
		fprintf(w->f, "\nthen: %s (%llu bytes)", size,
			(unsigned long long)n->then);
	}
	change_text(w, n, change, sizeof(change));
	fprintf(w->f, "\nchange: %s", change);
	if (n->grown == DU_GROWN_MOVED && n->old_path) {
		fputs("\nmoved from ", w->f);
		svg_put_text(w->f, n->old_path);
	}
}

static void
tooltip(struct writer *w, const char *prefix, const char *what,
	uint64_t bytes, const struct svg_node *n)
{
	static const char *const time_name[XBULK_TIME_NR] = {
		[XBULK_TIME_MTIME] = "mtime", [XBULK_TIME_ATIME] = "atime",
		[XBULK_TIME_CTIME] = "ctime", [XBULK_TIME_BTIME] = "birth",
	};
	char size[DU_UNITS_MAX], when[32], num[16];
	time_t t;
	struct tm tm;

	du_units_format(size, bytes, &w->units);
	fprintf(w->f, "<title>%s", prefix);
	svg_put_text(w->f, what);
	fprintf(w->f, "\n%s%s (%llu bytes)",
		n && w->svg->o.color == DU_COLOR_GROWTH ? "now: " : "", size,
		(unsigned long long)bytes);
	if (n && w->svg->o.color == DU_COLOR_GROWTH) {
		growth_lines(w, n);
	} else if (n) {
		fputs("\nowner: ", w->f);
		svg_put_text(w->f, owner_name(w, n->uid, num));
		t = (time_t)n->time;
		if (gmtime_r(&t, &tm) &&
		    strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm))
			fprintf(w->f, "\n%s%s: %s",
				n->nkids ? "newest " : "",
				time_name[w->svg->o.time], when);
	}
	fputs("</title>", w->f);
}

static void
rect(FILE *f, const struct du_rect *r, const char *fill)
{
	fprintf(f, "<rect x=\"%.4f\" y=\"%.4f\" width=\"%.4f\" "
		"height=\"%.4f\" fill=\"%s\" stroke=\"#ffffff\" "
		"stroke-width=\"0.5\"/>", r->x, r->y, r->w, r->h, fill);
}

static const char *
base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

static void draw(struct writer *w, const struct svg_node *n,
		 const struct du_rect *r, unsigned long parent, bool top);

/* The "more" box of directory @dir: @inodes in entries not kept or too
 * small to draw, and the directory's own blocks. */
static void
draw_more(struct writer *w, const struct svg_node *dir, uint64_t bytes,
	  uint64_t inodes, const struct du_rect *r, unsigned long parent)
{
	char size[DU_UNITS_MAX], name[40];
	unsigned long id = w->next_id++;

	du_units_format(size, bytes, &w->units);
	fprintf(w->f, "<g data-id=\"%lu\" data-parent=\"%lu\" "
		"data-bytes=\"%llu\" data-kind=\"other\">", id, parent,
		(unsigned long long)bytes);
	if (inodes)
		snprintf(name, sizeof(name), "%llu more",
			 (unsigned long long)inodes);
	else
		strcpy(name, "the directory");
	fprintf(w->f, "<title>%s", name);
	if (inodes)
		fputs(" (too small to draw) in ", w->f);
	else
		fputs(" itself: ", w->f);
	svg_put_text(w->f, *dir->path ? dir->path : "the PATHs");
	fprintf(w->f, "\n%s (%llu bytes)</title>", size,
		(unsigned long long)bytes);
	rect(w->f, r, "url(#more)");
	label(w, name, size, r, false);
	w->more = true;
	fputs("</g>\n", w->f);
}

struct item {
	double			size;
	const struct svg_node	*node;	/* NULL: the more box */
};

static int
cmp_items(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;

	return (a->size < b->size) - (a->size > b->size);
}

/* Lay out @n's boxes in @inner and draw them. */
static void
draw_kids(struct writer *w, const struct svg_node *n,
	  const struct du_rect *inner, unsigned long id)
{
	double area = inner->w * inner->h, scale = area / (double)n->bytes;
	uint64_t more = n->bytes;
	/* The entries of the more box: the directory's own inode aside. */
	uint64_t more_inodes = n->inodes - (*n->path != '\0');
	struct item *items = malloc((n->nkids + 1) * sizeof(*items));
	double *sizes = malloc((n->nkids + 1) * sizeof(*sizes));
	struct du_rect *out = malloc((n->nkids + 1) * sizeof(*out));
	size_t i, k = 0;

	if (!items || !sizes || !out) {
		w->err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n->nkids; i++) {
		const struct svg_node *c = n->kids[i];

		if (!c->bytes || (double)c->bytes * scale < MIN_AREA)
			continue;
		items[k++] = (struct item){ (double)c->bytes, c };
		more -= c->bytes;
		more_inodes -= c->inodes;
	}
	if (more)
		items[k++] = (struct item){ (double)more, NULL };
	qsort(items, k, sizeof(*items), cmp_items);
	for (i = 0; i < k; i++)
		sizes[i] = items[i].size;
	du_treemap_squarify(sizes, k, inner, out);
	for (i = 0; i < k; i++) {
		/* An operand's box is labelled with its PATH as given. */
		if (items[i].node)
			draw(w, items[i].node, &out[i], id, !*n->path);
		else
			draw_more(w, n, more, more_inodes, &out[i], id);
	}
out:
	free(items);
	free(sizes);
	free(out);
}

static void
draw(struct writer *w, const struct svg_node *n, const struct du_rect *r,
     unsigned long parent, bool top)
{
	char size[DU_UNITS_MAX], fill[16];
	unsigned long id = w->next_id++;
	struct du_rect inner = {
		r->x + PAD, r->y + HEADER, r->w - 2 * PAD, r->h - HEADER - PAD,
	};
	bool open = n->dir && n->nkids && n->bytes && inner.w >= 8 &&
		    inner.h >= 8;

	du_units_format(size, n->bytes, &w->units);
	fprintf(w->f, "<g data-id=\"%lu\" data-parent=\"%lu\" "
		"data-bytes=\"%llu\" data-kind=\"%s\"", id, parent,
		(unsigned long long)n->bytes, n->dir ? "dir" : "file");
	if (w->svg->o.color == DU_COLOR_GROWTH)
		fprintf(w->f, " data-then=\"%llu\" data-growth=\"%s\"",
			(unsigned long long)n->then,
			growth_color(w, n, &(unsigned int){ 0 }));
	if (open)
		fprintf(w->f, " data-inner=\"%.4f %.4f %.4f %.4f\"", inner.x,
			inner.y, inner.w, inner.h);
	fputc('>', w->f);
	tooltip(w, "", n->path, n->bytes, n);
	fill_of(w, n, open, fill);
	rect(w->f, r, fill);
	label(w, top ? n->path : base_name(n->path), size, r, open);
	fputs("</g>\n", w->f);
	if (open)
		draw_kids(w, n, &inner, id);
}

/* One legend entry at *@x if it fits before @right: a swatch of @fill
 * and @text; false if it does not fit. */
static bool
legend_item(struct writer *w, double *x, double y, double right,
	    const char *fill, const char *text)
{
	double tw = svg_text_width(text, LEGEND_FONT);

	if (*x + 18 + tw > right)
		return false;
	fprintf(w->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" "
		"height=\"14\" fill=\"%s\" stroke=\"#999999\" "
		"stroke-width=\"0.5\"/><text x=\"%.1f\" y=\"%.1f\" "
		"font-size=\"%g\">", *x, y + 4, fill, *x + 18, y + 15,
		LEGEND_FONT);
	svg_put_text(w->f, text);
	fputs("</text>\n", w->f);
	*x += 18 + tw + 14;
	return true;
}

/* The growth scale: the classes' bounds, shrunk (most first) to grew,
 * in du -h units; new directories; what was deleted. */
static bool
growth_legend(struct writer *w, double *x, double y, double right)
{
	char fill[16], text[64 + DU_UNITS_MAX], size[DU_UNITS_MAX];
	bool fits = true;
	int c;

	/* left to right: shrunk most, ..., unchanged, ..., grew most;
	 * each swatch labelled with the largest change of its class */
	for (c = -GROWTH_CLASSES; fits && c <= GROWTH_CLASSES; c++) {
		unsigned int rgb = c < 0 ? shrunk_rgb[-c - 1] :
				   c > 0 ? grew_rgb[c - 1] : GROWTH_SAME;

		if (c)
			du_units_format(size, w->bound[abs(c) - 1], &w->units);
		snprintf(text, sizeof(text), "%s%s", c < 0 ? "-" : "+", size);
		color_text(rgb, false, fill);
		fits = legend_item(w, x, y, right, fill, c ? text :
				   "unchanged");
	}
	if (fits) {
		color_text(GROWTH_NEW, false, fill);
		fits = legend_item(w, x, y, right, fill, "new");
	}
	if (fits) {
		du_units_format(size, w->svg->o.deleted, &w->units);
		snprintf(text, sizeof(text), "deleted: %s in %llu %s", size,
			 (unsigned long long)w->svg->o.ndeleted,
			 w->svg->o.ndeleted == 1 ? "directory" : "directories");
		fits = legend_item(w, x, y, right, "#ffffff", text);
	}
	return fits;
}

static void
legend(struct writer *w, double y)
{
	const struct du_agg ages = { .by = DU_BY_AGE };
	double x = 8, right = w->svg->o.width - 8;
	char fill[16], text[96 + DU_UNITS_MAX], size[DU_UNITS_MAX];
	char num[16];
	bool fits = true;
	size_t k;

	if (w->svg->o.color == DU_COLOR_GROWTH)
		fits = growth_legend(w, &x, y, right);
	if (w->svg->o.color == DU_COLOR_AGE) {
		for (k = 0; fits && k < DU_AGE_CLASSES; k++) {
			color_text(age_rgb[k], false, fill);
			fits = legend_item(w, &x, y, right, fill,
					   du_agg_label(&ages, k));
		}
	}
	for (k = 0; fits && k < w->nowners; k++) {
		du_units_format(size, w->owner[k].bytes, &w->units);
		snprintf(text, sizeof(text), "%.64s %s",
			 owner_name(w, w->owner[k].uid, num), size);
		color_text(owner_rgb[k], false, fill);
		fits = legend_item(w, &x, y, right, fill, text);
	}
	if (fits && w->rest_bytes) {
		du_units_format(size, w->rest_bytes, &w->units);
		snprintf(text, sizeof(text), "other owners %s", size);
		color_text(OWNER_REST, false, fill);
		fits = legend_item(w, &x, y, right, fill, text);
	}
	if (fits && w->more)
		legend_item(w, &x, y, right, "url(#more)",
			    "too small to draw");
}

/* The picture's heading, "@title (@size)", at 14 px: a title too long
 * for the width ends in "..." where it fits. */
static void
heading(struct writer *w, const char *title, const char *size)
{
	double room = w->svg->o.width - 16 -
		      svg_text_width(" ()", 14) - svg_text_width(size, 14);

	svg_put_fitted(w->f, title, 14, room);
	fprintf(w->f, " (%s)</text>\n", size);
}

int
du_svg_write(struct du_svg *svg, FILE *f)
{
	const struct svg_level *roots = &svg->lvl[0];
	double W = svg->o.width, H = svg->o.height;
	struct du_rect canvas = { 0, TITLE_H, W, H - TITLE_H - LEGEND_H };
	struct writer w = {
		.svg = svg, .f = f, .next_id = 1,
		.units = { 1, DU_HUMAN_AUTOSCALE | DU_HUMAN_SI |
			      DU_HUMAN_BASE_1024 },
	};
	struct svg_node top = {
		.path = (char *)"", .bytes = svg->total,
		.inodes = svg->total_inodes, .dir = true,
		.kids = roots->v, .nkids = roots->n,
	};
	char size[DU_UNITS_MAX];

	if (svg->o.color == DU_COLOR_OWNER)
		rank_owners(&w, &top);
	if (svg->o.color == DU_COLOR_GROWTH) {
		uint64_t lo = 0, hi = 0;

		growth_range(&top, &lo, &hi);
		growth_bounds(&w, lo, hi);
	}
	du_units_format(size, svg->total, &w.units);
	svg_begin(f, svg->o.width, svg->o.height, more_defs);
	fputs("<text x=\"8\" y=\"17\" font-size=\"14\">", f);
	heading(&w, svg->o.title ? svg->o.title : "xbulk du", size);
	/* The operands share the canvas as a directory's boxes do. */
	fprintf(f, "<g data-id=\"0\" data-bytes=\"%llu\" data-kind=\"top\" "
		"data-inner=\"%.4f %.4f %.4f %.4f\"/>\n",
		(unsigned long long)svg->total, canvas.x, canvas.y, canvas.w,
		canvas.h);
	if (top.bytes)
		draw_kids(&w, &top, &canvas, 0);
	legend(&w, H - LEGEND_H);
	fputs("</svg>\n", f);
	if (fflush(f) || ferror(f))
		return errno ? -errno : -EIO;
	return w.err;
}
