// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names written one way (docs/formats.md, "Names and modes"), for every
 * command's text, JSON Lines, CSV, SQLite and Prometheus output: valid
 * UTF-8 as text, each byte that is not UTF-8 as U+FFFD with the exact
 * bytes beside it in base64 (xb_base64(), find's "path_b64"); in lines
 * for people, C escapes for every byte a terminal would not show as
 * itself.  libxbulk's find writes the same into its own streams
 * (lib/find/record.c, which cannot reach the command's helpers).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Does @q escape byte @c?  A quote always, but in raw text. */
static bool
escaped(enum xb_quote q, unsigned char c)
{
	return q != XB_QUOTE_NONE &&
	       (c == '"' || (q != XB_QUOTE_CSV && c == '\\') ||
		(q == XB_QUOTE_JSON && c < 0x20) ||
		(q == XB_QUOTE_PROM && c == '\n'));
}

bool
xb_put_text(FILE *f, const char *s, enum xb_quote q)
{
	const unsigned char *p = (const unsigned char *)s, *run;
	bool lossy = false;
	size_t len = 0;

	while (*p) {
		/* the longest run written as it is, in one fwrite() */
		for (run = p; *p && (len = xb_utf8_len(p)) && !escaped(q, *p);
		     p += len)
			;
		if (p > run)
			fwrite(run, 1, (size_t)(p - run), f);
		if (!*p)
			break;
		if (!len) {
			fputs(q == XB_QUOTE_JSON ? "\\ufffd" : "\xef\xbf\xbd",
			      f);
			lossy = true;
		} else if (q == XB_QUOTE_CSV) {
			fputs("\"\"", f);
		} else if (*p == '\n' && q == XB_QUOTE_PROM) {
			fputs("\\n", f);
		} else if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p);
		} else {
			fprintf(f, "\\u%04x", *p);
		}
		p++;
	}
	return lossy;
}

/* @s between double quotes, quoted as @q; true if it is not UTF-8. */
static bool
quoted(FILE *f, const char *s, enum xb_quote q)
{
	bool lossy;

	fputc('"', f);
	lossy = xb_put_text(f, s, q);
	fputc('"', f);
	return lossy;
}

bool
xb_json_value(FILE *f, const char *s)
{
	return quoted(f, s, XB_QUOTE_JSON);
}

void
xb_json_string(FILE *f, const char *key, const char *s)
{
	fprintf(f, "\"%s\":", key);
	if (!s) {
		fprintf(f, "null,\"%s_b64\":null", key);
	} else if (xb_json_value(f, s)) {
		fprintf(f, ",\"%s_b64\":\"", key);
		xb_base64(f, (const unsigned char *)s, strlen(s));
		fputc('"', f);
	} else {
		fprintf(f, ",\"%s_b64\":null", key);
	}
}

bool
xb_csv_quoted(FILE *f, const char *s)
{
	return quoted(f, s, XB_QUOTE_CSV);
}

void
xb_csv_b64(FILE *f, const char *s, bool lossy)
{
	fputc(',', f);
	if (lossy)
		xb_base64(f, (const unsigned char *)s, strlen(s));
}

bool
xb_utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len;

	for (; *p; p += len)
		if (!(len = xb_utf8_len(p)))
			return false;
	return true;
}

char *
xb_utf8_fffd(const char *s)
{
	char *buf = NULL;
	size_t size;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		return NULL;
	xb_put_text(f, s, XB_QUOTE_NONE);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The code point of the @len-byte UTF-8 sequence at @p (valid). */
static uint32_t
code_point(const unsigned char *p, size_t len)
{
	uint32_t c = p[0] & (0x7f >> len);
	size_t i;

	for (i = 1; i < len; i++)
		c = (c << 6) | (p[i] & 0x3f);
	return c;
}

/*
 * Does a terminal not show @c as a character of its own?  C1 controls,
 * the line and paragraph separators, and Unicode's format characters
 * (general category Cf, Unicode 15: bidirectional overrides and
 * isolates, zero-width characters, the byte order mark, tags), which
 * change how the text around them looks.
 */
static bool
hidden(uint32_t c)
{
	static const uint32_t ranges[][2] = {
		{ 0x80, 0x9f }, { 0xad, 0xad }, { 0x600, 0x605 },
		{ 0x61c, 0x61c }, { 0x6dd, 0x6dd }, { 0x70f, 0x70f },
		{ 0x890, 0x891 }, { 0x8e2, 0x8e2 }, { 0x180e, 0x180e },
		{ 0x200b, 0x200f }, { 0x2028, 0x202e }, { 0x2060, 0x2064 },
		{ 0x2066, 0x206f }, { 0xfeff, 0xfeff }, { 0xfff9, 0xfffb },
		{ 0x110bd, 0x110bd }, { 0x110cd, 0x110cd },
		{ 0x13430, 0x1343f }, { 0x1bca0, 0x1bca3 },
		{ 0x1d173, 0x1d17a }, { 0xe0001, 0xe0001 },
		{ 0xe0020, 0xe007f },
	};
	size_t i;

	for (i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (c >= ranges[i][0] && c <= ranges[i][1])
			return true;
	return false;
}

void
xb_put_escaped(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len, i;

	for (; *p; p += len ? len : 1) {
		len = xb_utf8_len(p);
		if (len > 1 && !hidden(code_point(p, len))) {
			fwrite(p, 1, len, f);
		} else if (len > 1 || !len) {
			for (i = 0; i < (len ? len : 1); i++)
				fprintf(f, "\\%03o", p[i]);
		} else if (*p == '\\') {
			fputs("\\\\", f);
		} else if (*p == '\n') {
			fputs("\\n", f);
		} else if (*p == '\t') {
			fputs("\\t", f);
		} else if (*p < 0x20 || *p == 0x7f ||
			   /* "->" is a rename's arrow only */
			   (*p == '>' && p > (const unsigned char *)s &&
			    p[-1] == '-')) {
			fprintf(f, "\\%03o", *p);
		} else {
			putc(*p, f);
		}
	}
}
