// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * --format jsonl|csv for find: -print and -fprint write the file's whole
 * bulkstat record in the format of lib/format/format_jsonl.c or
 * lib/format/format_csv.c (the column list of columns.h) plus "path" (UTF-8,
 * U+FFFD for bytes that are not) and "path_b64" (the exact bytes, base64,
 * when they are not UTF-8); CSV with its header row on each of those
 * outputs, first.
 */
#include <string.h>

#include "actions.h"
#include "find.h"

const char xbulk_find_csv_header_tail[] = ",path,path_b64\r\n";

/* Length of the valid UTF-8 sequence at @p (at most @n bytes), or 0. */
static size_t
utf8_len(const unsigned char *p, size_t n)
{
	size_t len, i;
	uint32_t c;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (len > n)
		return 0;
	c = p[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (p[i] & 0x3f);
	}
	if ((len == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
	    (len == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;
	return len;
}

static bool
valid_utf8(const char *s, size_t n)
{
	size_t i, len;

	for (i = 0; i < n; i += len) {
		len = utf8_len((const unsigned char *)s + i, n - i);
		if (!len)
			return false;
	}
	return true;
}

/* The path as JSON string contents or a CSV field's, U+FFFD for junk. */
static int
put_text(struct xf_stream *out, const char *s, size_t n, bool json)
{
	char buf[512];
	size_t i, len, b = 0;
	int err = 0;

	for (i = 0; i < n && !err; i += len ? len : 1) {
		unsigned char c = (unsigned char)s[i];

		if (b > sizeof(buf) - 8) {
			err = xf_put(out, buf, b);
			b = 0;
		}
		len = utf8_len((const unsigned char *)s + i, n - i);
		if (!len) {
			memcpy(buf + b, "\xef\xbf\xbd", 3);
			b += 3;
		} else if (len > 1) {
			memcpy(buf + b, s + i, len);
			b += len;
		} else if (!json) {
			if (c == '"')
				buf[b++] = '"';
			buf[b++] = (char)c;
		} else if (c == '"' || c == '\\') {
			buf[b++] = '\\';
			buf[b++] = (char)c;
		} else if (c < 0x20 || c == 0x7f) {
			static const char hex[] = "0123456789abcdef";

			memcpy(buf + b, "\\u00", 4);
			buf[b + 4] = hex[c >> 4];
			buf[b + 5] = hex[c & 15];
			b += 6;
		} else {
			buf[b++] = (char)c;
		}
	}
	return err ? err : xf_put(out, buf, b);
}

static int
put_base64(struct xf_stream *out, const unsigned char *s, size_t n)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "abcdefghijklmnopqrstuvwxyz0123456789+/";
	char buf[4];
	size_t i;
	int err = 0;

	for (i = 0; i < n && !err; i += 3) {
		uint32_t v = (uint32_t)s[i] << 16;

		if (i + 1 < n)
			v |= (uint32_t)s[i + 1] << 8;
		if (i + 2 < n)
			v |= s[i + 2];
		buf[0] = tab[v >> 18];
		buf[1] = tab[(v >> 12) & 63];
		buf[2] = i + 1 < n ? tab[(v >> 6) & 63] : '=';
		buf[3] = i + 2 < n ? tab[v & 63] : '=';
		err = xf_put(out, buf, 4);
	}
	return err;
}

int
xf_record(struct xbulk_find *f, struct xf_stream *out,
	  const struct xbulk_entry *file)
{
	bool json = f->record == XBULK_FIND_RECORD_JSONL;
	bool valid = valid_utf8(file->path, file->pathlen);
	char buf[XBULK_BULKSTAT_JSONL_MAX];
	size_t n;
	int err;

	if (json)
		n = xbulk_format_bulkstat_jsonl(buf, file->bs) - 2; /* "}\n" */
	else
		n = xbulk_format_bulkstat_csv(buf, file->bs) - 2;   /* CRLF */
	err = xf_put(out, buf, n);
	if (!err)
		err = xf_put(out, json ? ",\"path\":\"" : ",\"", json ? 9 : 2);
	if (!err)
		err = put_text(out, file->path, file->pathlen, json);
	if (!err && valid)
		err = json ? xf_put(out, "\",\"path_b64\":null}\n", 19) :
			     xf_put(out, "\",\r\n", 4);
	if (err || valid)
		return err;
	err = xf_put(out, json ? "\",\"path_b64\":\"" : "\",", json ? 14 : 2);
	if (!err)
		err = put_base64(out, (const unsigned char *)file->path,
				 file->pathlen);
	return err ? err : json ? xf_put(out, "\"}\n", 3) :
				  xf_put(out, "\r\n", 2);
}

void
xf_record_headers(struct xbulk_find *f)
{
	size_t i, n = strlen(xbulk_bulkstat_csv_header) - 2;	/* CRLF */

	for (i = 0; f->record == XBULK_FIND_RECORD_CSV && i < f->nstreams;
	     i++) {
		if (!f->streams[i]->records)
			continue;
		if (!xf_put(f->streams[i], xbulk_bulkstat_csv_header, n))
			xf_put(f->streams[i], xbulk_find_csv_header_tail,
			       strlen(xbulk_find_csv_header_tail));
	}
}

void
xbulk_find_set_record(struct xbulk_find *f, enum xbulk_find_record record)
{
	f->record = record;
	if (record)
		f->root->fields = XBULK_F_ALL;
}
