/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to the du command (prefix du_: CONTRIBUTING.md).
 *
 * The treemap's boxes, shared by cli/du/svg.c (collecting them from du's
 * counted entries) and cli/du/svgwrite.c (laying them out and drawing);
 * the text helpers of every picture (cli/du/svgtext.c), the treemap's
 * and du --trend's chart's (cli/du/chart.c).
 */
#ifndef DU_SVG_H
#define DU_SVG_H

#include <stdio.h>

#include "treemap.h"
#include "units.h"

struct svg_node {
	char		*path;
	uint64_t	bytes;		/* subtree's disk usage */
	uint64_t	inodes;		/* ... and inodes */
	int64_t		time;		/* newest of its boxes */
	uint32_t	uid;
	bool		dir;
	struct svg_node	**kids;		/* largest first */
	size_t		nkids;
	/* DU_COLOR_GROWTH (du --since --svg): its growth since OLD */
	enum du_grown	grown;
	uint64_t	then;		/* bytes at OLD */
	char		*old_path;	/* DU_GROWN_MOVED: OLD's path */
};

/* The boxes of one depth waiting for their directory's post-order. */
struct svg_level {
	struct svg_node	**v;
	size_t		n, cap;
};

struct du_svg {
	struct du_svg_opts	o;
	struct svg_level	*lvl;	/* o.depth + 2 */
	uint64_t		total;
	uint64_t		total_inodes;
};

void svg_node_free(struct svg_node *n);
/* Sort @n's boxes largest first and keep the DU_SVG_KEEP largest. */
void svg_node_keep(struct svg_node *n);

/* --- svgtext.c ---------------------------------------------------- */

/* Bytes of @s as XML text: markup escaped, control characters and bytes
 * that are not UTF-8 as U+FFFD. */
void svg_put_text(FILE *f, const char *s);
/* Pixels @s takes at @font_size px as svg_put_text() writes it, never
 * less than DejaVu Sans draws it (kerning aside). */
double svg_text_width(const char *s, double font_size);
/* svg_put_text() of @s, or of as many of its first characters as fit
 * in @room px at @font_size px followed by "...". */
void svg_put_fitted(FILE *f, const char *s, double font_size, double room);
/* The XML declaration, the <svg> element's start (@width x @height px,
 * DejaVu Sans first), @defs (NULL: none) and a white background. */
void svg_begin(FILE *f, unsigned int width, unsigned int height,
	       const char *defs);

#endif
