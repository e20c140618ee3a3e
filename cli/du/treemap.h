/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to the du command (prefix du_: CONTRIBUTING.md).
 *
 * xbulk du's --svg: the squarified treemap (cli/du/treemap.c) and its SVG
 * (cli/du/svg.c collects the boxes, cli/du/svgwrite.c draws them).
 */
#ifndef DU_TREEMAP_H
#define DU_TREEMAP_H

#include <stdio.h>
#include "xbulk.h"
#include "agg.h"

struct du_rect {
	double	x, y, w, h;
};

/**
 * du_treemap_squarify() - lay out @n boxes of @sizes (largest first,
 * none negative) in @r, squarified (Bruls, Huizing, van Wijk 2000): each
 * box's area is its share of the sum, to rounding; @out[i] is @sizes[i]'s.
 */
void du_treemap_squarify(const double *sizes, size_t n,
			    const struct du_rect *r,
			    struct du_rect *out);

enum du_color_by {
	DU_COLOR_OWNER,	/* a colour for each of the 10 owners of
				   the most bytes drawn, one for the rest */
	DU_COLOR_AGE,	/* the age classes of --by age */
	DU_COLOR_GROWTH,	/* du --since --svg: growth since OLD
				   (cli/du_since_svg.c) */
};

/* What became of a box's directory since OLD (DU_COLOR_GROWTH). */
enum du_grown {
	DU_GROWN_SAME,		/* there, at the same path */
	DU_GROWN_MOVED,		/* there, at another path */
	DU_GROWN_NEW,		/* not in OLD */
};

struct du_svg_opts {
	unsigned int	depth;		/* levels of boxes under an operand */
	enum du_color_by color;
	enum xbulk_time	time;		/* for DU_COLOR_AGE */
	int64_t		now;		/* seconds since the epoch */
	unsigned int	width, height;	/* pixels; 0: 1280 x 800 */
	const char	*title;		/* the heading; any bytes */
	/* The name of a uid for tooltips and the legend (NULL or
	 * returning NULL: the number). */
	const char	*(*owner_name)(void *arg, uint32_t uid);
	void		*arg;
	/* DU_COLOR_GROWTH: what the legend states besides the scale */
	uint64_t	deleted;	/* bytes of OLD's directories gone */
	uint64_t	ndeleted;	/* ... how many (the highest each) */
};

/*
 * The picture: fed du's counted entries (xbulk_du_fn calls), it keeps a
 * box for each entry down to @depth, at most DU_SVG_KEEP per directory
 * (the largest; the rest, and what is too small to draw, is drawn as one
 * hatched "N more" box per directory), then writes an SVG file.
 */
struct du_svg;

#define DU_SVG_KEEP		200

/** du_svg_new() - Return: 0 or -ENOMEM. */
int du_svg_new(const struct du_svg_opts *o, struct du_svg **svg);
/** du_svg_charge() - one counted entry.  Return: 0 or -ENOMEM. */
int du_svg_charge(struct du_svg *svg, const struct xbulk_entry *e,
		     const struct xbulk_du_sum *sum);
/**
 * du_svg_write() - the treemap of everything charged, as SVG 1.1:
 * one <g> per box (attributes data-id, data-parent, data-bytes,
 * data-kind dir|file|other, and data-inner "x y w h" for a directory
 * whose boxes are drawn inside) holding a <title> tooltip (path, size,
 * owner, time), a <rect> and a label <text> where it fits: its box, as
 * wide as DejaVu Sans sets it (any character not ASCII taken as 1.03 em)
 * from the baseline's start and from 1 em above the baseline to 0.25 em
 * below, lies inside the rect; then a legend of the colours.
 * Return: 0, the negative errno of writing @f, or -ENOMEM (then boxes
 * are missing).
 */
int du_svg_write(struct du_svg *svg, FILE *f);
/**
 * du_svg_tree() - draw @top's boxes (a directory tree built by the
 * caller, each node from calloc(), paths from malloc()) as the picture's
 * one operand, instead of charged entries; @svg owns it from here.
 * Return: 0 or -ENOMEM (@top freed).
 */
struct svg_node;
int du_svg_tree(struct du_svg *svg, struct svg_node *top);
/** du_svg_free() - release @svg (NULL is fine). */
void du_svg_free(struct du_svg *svg);

#endif /* DU_TREEMAP_H */
