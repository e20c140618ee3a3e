// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text in the pictures (the treemap, du --trend's chart): names (any
 * bytes) as XML text, how wide a label will be, so that only labels
 * that fit are drawn, and the start every picture shares.
 */
#include <stdlib.h>
#include <string.h>

#include "../cli.h"
#include "svg.h"

/*
 * DejaVu Sans's advance widths of ' ' to '~', in 1/2048 em (its hmtx
 * table), the font the picture asks for first.  Any other character is
 * taken as NON_ASCII_WIDTH: as wide
 * as DejaVu Sans's U+FFFD (which svg_put_text() writes for bad bytes),
 * wider than a CJK ideograph (1 em), so that an estimate is short only
 * for rare wide glyphs.
 */
#define NON_ASCII_WIDTH	2100
static const unsigned short ascii_width[95] = {
	651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716,
	651, 739, 651, 690, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303,
	1303, 1303, 690, 690, 1716, 1716, 1716, 1087, 2048, 1401, 1405, 1430,
	1577, 1294, 1178, 1587, 1540, 604, 604, 1343, 1141, 1767, 1532, 1612,
	1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799,
	690, 799, 1716, 1024, 1024, 1255, 1300, 1126, 1300, 1260, 721, 1300,
	1298, 569, 569, 1186, 569, 1995, 1298, 1253, 1300, 1300, 842, 1067,
	803, 1298, 1212, 1675, 1212, 1212, 1075, 1303, 690, 1303, 1716,
};

/* Bytes of the character at @p as svg_put_text() writes it: a valid
 * UTF-8 sequence's length, or 0 for a byte that becomes U+FFFD. */
static size_t
char_len(const unsigned char *p)
{
	return *p < 0x20 && *p != '\t' ? 0 : xb_utf8_len(p);
}

void
svg_put_text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t len = char_len(p);

		if (!len) {
			fputs("\xef\xbf\xbd", f);
			p++;
			continue;
		}
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fwrite(p, 1, len, f); break;
		}
		p += len;
	}
}

double
svg_text_width(const char *s, double font_size)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned long units = 0;

	while (*p) {
		size_t len = char_len(p);

		if (len == 1 && *p >= ' ' && *p <= '~')
			units += ascii_width[*p - ' '];
		else
			units += NON_ASCII_WIDTH;
		p += len ? len : 1;
	}
	return font_size * (double)units / 2048;
}

void
svg_put_fitted(FILE *f, const char *s, double font_size, double room)
{
	size_t len = strlen(s);
	char *cut;

	if (svg_text_width(s, font_size) <= room || !(cut = strdup(s))) {
		svg_put_text(f, s);
		return;
	}
	room -= svg_text_width("...", font_size);
	/* Shorten by whole UTF-8 characters until it fits. */
	do {
		while (len && ((unsigned char)cut[--len] & 0xc0) == 0x80)
			;
		cut[len] = '\0';
	} while (len && svg_text_width(cut, font_size) > room);
	svg_put_text(f, cut);
	fputs("...", f);
	free(cut);
}

void
svg_begin(FILE *f, unsigned int width, unsigned int height,
	  const char *defs)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
		"font-family=\"DejaVu Sans, Verdana, sans-serif\">\n%s"
		"<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" "
		"fill=\"#ffffff\"/>\n", width, height, width, height,
		defs ? defs : "", width, height);
}
