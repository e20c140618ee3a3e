// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The squarified treemap layout (Bruls, Huizing and van Wijk, "Squarified
 * Treemaps", 2000): rows of boxes along the shorter side of the space
 * left, a box joining the row while it makes the row's worst aspect
 * ratio no worse.  Areas are exact: each box's area is its share of the
 * rectangle's.
 */
#include "treemap.h"

/* The worst aspect ratio of a row of total area @s, largest @big and
 * smallest @small, laid along a side of length @side. */
static double
worst(double s, double big, double small, double side)
{
	double s2 = s * s, w2 = side * side;
	double a = w2 * big / s2, b = s2 / (w2 * small);

	return a > b ? a : b;
}

void
du_treemap_squarify(const double *sizes, size_t n,
		       const struct du_rect *r, struct du_rect *out)
{
	double x = r->x, y = r->y, w = r->w, h = r->h, total = 0, scale;
	size_t i, j, k;

	for (i = 0; i < n; i++)
		total += sizes[i];
	if (total <= 0 || w <= 0 || h <= 0) {
		for (i = 0; i < n; i++)
			out[i] = (struct du_rect){ x, y, 0, 0 };
		return;
	}
	scale = w * h / total;
	for (i = 0; i < n; i = j + 1) {
		double side = w < h ? w : h, sum = sizes[i] * scale;
		double ratio = worst(sum, sum, sum, side), t, pos;

		for (j = i; j + 1 < n; j++) {
			double a = sizes[j + 1] * scale;
			double next = worst(sum + a, sizes[i] * scale, a, side);

			if (next > ratio)
				break;
			ratio = next;
			sum += a;
		}
		/* The last row takes what is left, whatever rounding did. */
		t = j + 1 == n ? (w < h ? h : w) : sum / side;
		pos = 0;
		for (k = i; k <= j; k++) {
			double len = sizes[k] * scale / t;

			if (k == j)
				len = side - pos;
			if (w < h)
				out[k] = (struct du_rect){ x + pos, y, len, t };
			else
				out[k] = (struct du_rect){ x, y + pos, t, len };
			pos += len;
		}
		if (w < h) {
			y += t;
			h -= t;
		} else {
			x += t;
			w -= t;
		}
	}
}
