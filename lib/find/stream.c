// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * find's output streams (stream.h): each a buffer written with one
 * write() per fill.  Names go out as raw bytes, but on a terminal what it
 * could not show (control characters, bytes that are not a character of
 * the locale) shows as '?', as find shows it.
 */
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "stream.h"

/* xf_put() when the buffer is full (or the stream failed). */
int
xf_put_slow(struct xf_stream *s, const char *p, size_t len)
{
	struct xbulk_out *o = &s->out;
	int err;

	if (s->err)
		return s->err;
	err = xbulk_out_flush(o);
	if (!err && len > o->cap)
		err = xbl_write_all(o->fd, p, len);
	if (err) {
		s->err = err;
		return err;
	}
	if (len <= o->cap) {
		memcpy(o->buf + o->len, p, len);
		o->len += len;
	}
	return 0;
}

/*
 * find's qmark_chars(): the bytes of @p as a terminal should see them, in
 * the locale of LC_CTYPE: printable characters as they are, each other
 * character (a control character, one wcwidth() calls unprintable) as
 * one '?', each byte of an invalid sequence as one '?', an incomplete
 * one at the end as one '?'.  At most @max bytes of that go to @s (if
 * not NULL); returns how many it made (all of them without @s).
 */
static size_t
qmark(struct xf_stream *s, const char *p, size_t len, size_t max, int *err)
{
	char chunk[256];
	size_t i = 0, k = 0, out = 0, n, r;
	mbstate_t st;
	wchar_t wc;

	while (i < len && out + k < max && !*err) {
		unsigned char c = (unsigned char)p[i];

		n = 1;
		if (c >= 0x20 && c < 0x7f) {
			chunk[k++] = (char)c;
		} else if (MB_CUR_MAX == 1) {
			chunk[k++] = isprint(c) ? (char)c : '?';
		} else {
			memset(&st, 0, sizeof(st));
			r = mbrtowc(&wc, p + i, len - i, &st);
			n = r == (size_t)-2 ? len - i :
			    r == (size_t)-1 || !r ? 1 : r;
			if (r == (size_t)-1 || r == (size_t)-2 || !r ||
			    wcwidth(wc) < 0) {
				chunk[k++] = '?';
			} else {
				memcpy(chunk + k, p + i, n);
				k += n;
			}
		}
		i += n;
		if (k > sizeof(chunk) - MB_LEN_MAX || i >= len || out + k >= max) {
			if (out + k > max)
				k = max - out;
			if (s)
				*err = xf_put(s, chunk, k);
			out += k;
			k = 0;
		}
	}
	return out;
}

size_t
xf_name_len(const struct xf_stream *s, const char *p, size_t len)
{
	int err = 0;

	return s->tty ? qmark(NULL, p, len, SIZE_MAX, &err) : len;
}

int
xf_put_name_max(struct xf_stream *s, const char *p, size_t len, size_t max)
{
	int err = 0;

	if (!s->tty)
		return xf_put(s, p, len < max ? len : max);
	qmark(s, p, len, max, &err);
	return err;
}

int
xf_stream_flush(struct xf_stream *s)
{
	int err;

	if (s->err || !s->out.buf)
		return s->err;
	err = xbulk_out_flush(&s->out);
	if (err)
		s->err = err;
	return err;
}
