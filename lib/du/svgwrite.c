// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The treemap drawn as SVG: operands side by side in the canvas, each
 * directory's boxes inside it under a header strip, boxes too small to
 * see merged into the directory's "other" box, labels only where their
 * estimated size fits, a <title> tooltip on every box.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "svg.h"

#define TITLE_H		24.0	/* heading strip */
#define LEGEND_H	22.0	/* legend strip */
#define HEADER		15.0	/* a directory's label strip */
#define PAD		2.0	/* around a directory's boxes */
#define MIN_AREA	12.0	/* px^2: smaller boxes go to "other" */
#define EM_WIDTH	0.62	/* estimated glyph width, em */

/* Age classes' colours, new (green) to old (red): --by age's classes. */
static const char *const age_color[XBULK_AGE_CLASSES] = {
	"#1a9850", "#66bd63", "#a6d96a", "#d9ef8b", "#fee08b", "#fdae61",
	"#f46d43",
};
struct writer {
	const struct xbulk_svg	*svg;
	FILE			*f;
	unsigned long		next_id;
	struct xbulk_units	units;	/* -h */
};

/* Bytes of @s as XML text: markup escaped, control characters and bytes
 * that are not UTF-8 as U+FFFD. */
static void
put_text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		unsigned char c = *p;
		size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2
			   : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
		size_t i;

		for (i = 1; i < len; i++)
			if ((p[i] & 0xc0) != 0x80)
				len = 0;
		if (!len || (len == 1 && c < 0x20 && c != '\t')) {
			fputs("\xef\xbf\xbd", f);
			p++;
			continue;
		}
		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fwrite(p, 1, len, f); break;
		}
		p += len;
	}
}

/* Characters of @s as put_text() writes them (one per UTF-8 start). */
static size_t
text_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* @v modulo @m, for @v >= 0. */
static double
wrap(double v, double m)
{
	return v - m * (double)(long long)(v / m);
}

/* A box's fill: its owner's hue or its age's colour; @light for a
 * directory seen around its boxes. */
static void
fill_of(const struct xbulk_svg *svg, const struct svg_node *n, bool light,
	char *buf)
{
	double l = light ? 0.88 : 0.62, s = 0.45, h, c, x, m;
	static const int big[6] = { 0, 1, 1, 2, 2, 0 };
	static const int mid[6] = { 1, 0, 2, 1, 0, 2 };
	double rgb[3];
	int sector;

	if (svg->o.color == XBULK_COLOR_AGE) {
		strcpy(buf, light ? "#f0f0f0"
				  : age_color[xbulk_age_class(svg->o.now,
							    n->time)]);
		return;
	}
	/* HSL to RGB; the golden angle spreads consecutive uids. */
	h = wrap((double)n->uid * 137.508, 360.0) / 60.0;
	c = (1 - (2 * l > 1 ? 2 * l - 1 : 1 - 2 * l)) * s;
	x = c * (1 - (wrap(h, 2.0) > 1 ? wrap(h, 2.0) - 1
				       : 1 - wrap(h, 2.0)));
	m = l - c / 2;
	sector = (int)h;
	rgb[0] = rgb[1] = rgb[2] = m;
	/* The largest channel gets c, the middle one x. */
	rgb[big[sector]] += c;
	rgb[mid[sector]] += x;
	sprintf(buf, "#%02x%02x%02x", (int)(rgb[0] * 255 + 0.5),
		(int)(rgb[1] * 255 + 0.5), (int)(rgb[2] * 255 + 0.5));
}

/* The label "name size" (or "name") at @fs px if its estimated box fits
 * in @r with a pixel to spare; @top: in a directory's header strip. */
static void
label(struct writer *w, const char *name, const char *size,
      const struct xbulk_rect *r, bool top)
{
	static const double sizes[] = { 11, 9 };
	size_t i, nn = text_chars(name), ns = strlen(size);

	for (i = 0; i < 2 * 2; i++) {
		double fs = sizes[i % 2];
		bool with_size = i < 2;
		size_t chars = nn + (with_size ? 1 + ns : 0);
		double tw = EM_WIDTH * fs * (double)chars;
		double x = r->x + 3, y = r->y + 2 + fs;

		if (top && fs * 1.25 + 2 > HEADER)
			continue;
		if (x + tw > r->x + r->w - 1 || y + 0.25 * fs > r->y + r->h - 1)
			continue;
		fprintf(w->f, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%g\">",
			x, y, fs);
		put_text(w->f, name);
		if (with_size)
			fprintf(w->f, " %s", size);
		fputs("</text>", w->f);
		return;
	}
}

static void
tooltip(struct writer *w, const char *prefix, const char *what,
	uint64_t bytes, const struct svg_node *n)
{
	char size[XBULK_UNITS_MAX], when[32];
	const char *owner = NULL;
	time_t t;
	struct tm tm;

	xbulk_units_format(size, bytes, &w->units);
	fprintf(w->f, "<title>%s", prefix);
	put_text(w->f, what);
	fprintf(w->f, "\n%s (%llu bytes)", size, (unsigned long long)bytes);
	if (n) {
		if (w->svg->o.owner_name)
			owner = w->svg->o.owner_name(w->svg->o.arg, n->uid);
		fputs("\nowner: ", w->f);
		if (owner)
			put_text(w->f, owner);
		else
			fprintf(w->f, "%u", n->uid);
		t = (time_t)n->time;
		if (gmtime_r(&t, &tm) &&
		    strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm))
			fprintf(w->f, "\nnewest: %s", when);
	}
	fputs("</title>", w->f);
}

static void
rect(FILE *f, const struct xbulk_rect *r, const char *fill)
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
		 const struct xbulk_rect *r, unsigned long parent, bool top);

/* The "other" box of directory @dir: its own inode, and its boxes not
 * kept or too small to draw. */
static void
draw_other(struct writer *w, const struct svg_node *dir, uint64_t bytes,
	   const struct xbulk_rect *r, unsigned long parent)
{
	char size[XBULK_UNITS_MAX];
	unsigned long id = w->next_id++;

	xbulk_units_format(size, bytes, &w->units);
	fprintf(w->f, "<g data-id=\"%lu\" data-parent=\"%lu\" "
		"data-bytes=\"%llu\" data-kind=\"other\">", id, parent,
		(unsigned long long)bytes);
	tooltip(w, "other: small entries of ", dir->path, bytes, NULL);
	rect(w->f, r, "#bdbdbd");
	label(w, "other", size, r, false);
	fputs("</g>\n", w->f);
}

struct item {
	double			size;
	const struct svg_node	*node;	/* NULL: the other box */
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
	  const struct xbulk_rect *inner, unsigned long id)
{
	double area = inner->w * inner->h, scale = area / (double)n->bytes;
	uint64_t other = n->bytes;
	struct item *items = malloc((n->nkids + 1) * sizeof(*items));
	double *sizes = malloc((n->nkids + 1) * sizeof(*sizes));
	struct xbulk_rect *out = malloc((n->nkids + 1) * sizeof(*out));
	size_t i, k = 0;

	if (!items || !sizes || !out)
		goto out;
	for (i = 0; i < n->nkids; i++) {
		const struct svg_node *c = n->kids[i];

		if (!c->bytes || (double)c->bytes * scale < MIN_AREA)
			continue;
		items[k++] = (struct item){ (double)c->bytes, c };
		other -= c->bytes;
	}
	if (other)
		items[k++] = (struct item){ (double)other, NULL };
	qsort(items, k, sizeof(*items), cmp_items);
	for (i = 0; i < k; i++)
		sizes[i] = items[i].size;
	xbulk_treemap_squarify(sizes, k, inner, out);
	for (i = 0; i < k; i++) {
		if (items[i].node)
			draw(w, items[i].node, &out[i], id, false);
		else
			draw_other(w, n, other, &out[i], id);
	}
out:
	free(items);
	free(sizes);
	free(out);
}

static void
draw(struct writer *w, const struct svg_node *n, const struct xbulk_rect *r,
     unsigned long parent, bool top)
{
	char size[XBULK_UNITS_MAX], fill[16];
	unsigned long id = w->next_id++;
	struct xbulk_rect inner = {
		r->x + PAD, r->y + HEADER, r->w - 2 * PAD, r->h - HEADER - PAD,
	};
	bool open = n->dir && n->nkids && n->bytes && inner.w >= 8 &&
		    inner.h >= 8;

	xbulk_units_format(size, n->bytes, &w->units);
	fprintf(w->f, "<g data-id=\"%lu\" data-parent=\"%lu\" "
		"data-bytes=\"%llu\" data-kind=\"%s\"", id, parent,
		(unsigned long long)n->bytes, n->dir ? "dir" : "file");
	if (open)
		fprintf(w->f, " data-inner=\"%.4f %.4f %.4f %.4f\"", inner.x,
			inner.y, inner.w, inner.h);
	fputc('>', w->f);
	tooltip(w, "", n->path, n->bytes, n);
	fill_of(w->svg, n, open, fill);
	rect(w->f, r, fill);
	label(w, top ? n->path : base_name(n->path), size, r, open);
	fputs("</g>\n", w->f);
	if (open)
		draw_kids(w, n, &inner, id);
}

static void
legend(struct writer *w, double y)
{
	const struct xbulk_agg ages = { .by = XBULK_BY_AGE };
	double x = 8;
	int k;

	if (w->svg->o.color != XBULK_COLOR_AGE) {
		fprintf(w->f, "<text x=\"8\" y=\"%.1f\" font-size=\"11\">"
			"colour: owner (see each box's tooltip); grey: other"
			"</text>\n", y + 15);
		return;
	}
	for (k = 0; k < XBULK_AGE_CLASSES; k++) {
		fprintf(w->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" "
			"height=\"14\" fill=\"%s\"/><text x=\"%.1f\" "
			"y=\"%.1f\" font-size=\"11\">",
			x, y + 4, age_color[k], x + 18, y + 15);
		put_text(w->f, xbulk_agg_label(&ages, (uint64_t)k));
		fputs("</text>\n", w->f);
		x += 70;
	}
}

int
xbulk_svg_write(struct xbulk_svg *svg, FILE *f)
{
	const struct svg_level *roots = &svg->lvl[0];
	double W = svg->o.width, H = svg->o.height;
	struct xbulk_rect canvas = { 0, TITLE_H, W, H - TITLE_H - LEGEND_H };
	struct writer w = {
		.svg = svg, .f = f, .next_id = 1,
		.units = { 1, XBULK_HUMAN_AUTOSCALE | XBULK_HUMAN_SI |
			      XBULK_HUMAN_BASE_1024 },
	};
	struct svg_node top = {
		.path = (char *)"", .bytes = svg->total, .dir = true,
		.kids = roots->v, .nkids = roots->n,
	};
	char size[XBULK_UNITS_MAX];

	xbulk_units_format(size, svg->total, &w.units);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
		"font-family=\"DejaVu Sans, Verdana, sans-serif\">\n"
		"<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" "
		"fill=\"#ffffff\"/>\n<text x=\"8\" y=\"17\" font-size=\"14\">",
		svg->o.width, svg->o.height, svg->o.width, svg->o.height,
		svg->o.width, svg->o.height);
	put_text(f, svg->o.title ? svg->o.title : "xbulk du");
	fprintf(f, " (%s)</text>\n", size);
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
		return -EIO;
	return 0;
}
