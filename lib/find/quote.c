// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * File names in messages, quoted as GNU find 4.9 quotes them
 * (safely_quote_err_filename(): gnulib quotearg's locale_quoting_style).
 * Between the locale's quotes ('' in C; U+2018 and U+2019 in a UTF-8
 * locale, as gnulib's gettext_quote() picks them without a translation):
 * \a \b \f \n \r \t \v and \\ as C escapes, the closing quote escaped
 * with a backslash, and every byte that is not part of a printable
 * character of the locale (LC_CTYPE) as a three-digit octal escape.
 */
#include <langinfo.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>
#include <wctype.h>

#include "find.h"

/* The locale's quotes (gettext_quote()). */
static void
locale_quotes(const char **open, const char **close)
{
	const char *cs = nl_langinfo(CODESET);

	if (!strcasecmp(cs, "UTF-8")) {
		*open = "\xe2\x80\x98";
		*close = "\xe2\x80\x99";
	} else if (!strcasecmp(cs, "GB18030")) {
		*open = "\xa1\xae";
		*close = "\xa1\xaf";
	} else {
		*open = *close = "'";
	}
}

struct qbuf {
	char	*p;
	size_t	size, len;	/* @len counts what did not fit too */
};

static void
put(struct qbuf *q, const char *s, size_t n)
{
	size_t room = q->len + 1 < q->size ? q->size - 1 - q->len : 0;

	if (q->size)
		memcpy(q->p + (q->len < q->size ? q->len : q->size - 1), s,
		       n < room ? n : room);
	q->len += n;
}

static void
put_octal(struct qbuf *q, unsigned char c)
{
	char e[4] = { '\\', (char)('0' + (c >> 6)),
		      (char)('0' + ((c >> 3) & 7)), (char)('0' + (c & 7)) };

	put(q, e, 4);
}

/* How many bytes of @s (@n left) make one printable character: 0 if the
 * first byte is not part of one. */
static size_t
printable(const char *s, size_t n)
{
	unsigned char c = (unsigned char)*s;
	mbstate_t st;
	wchar_t wc;
	size_t r;

	if (c >= 0x20 && c < 0x7f)
		return 1;
	if (MB_CUR_MAX == 1)
		return 0;
	memset(&st, 0, sizeof(st));
	r = mbrtowc(&wc, s, n, &st);
	if (r == (size_t)-1 || r == (size_t)-2 || !r || !iswprint((wint_t)wc))
		return 0;
	return r;
}

size_t
xbulk_find_quote(char *buf, size_t size, const char *name)
{
	static const char esc[] = "\aa\bb\ff\nn\rr\tt\vv\\\\";
	struct qbuf q = { buf, size, 0 };
	const char *open, *close, *e;
	size_t n = strlen(name), i, k, clen;

	locale_quotes(&open, &close);
	clen = strlen(close);
	put(&q, open, strlen(open));
	for (i = 0; i < n; i += k) {
		unsigned char c = (unsigned char)name[i];

		k = 1;
		if (c && (e = strchr(esc, c)) && (e - esc) % 2 == 0) {
			char two[2] = { '\\', e[1] };

			put(&q, two, 2);
		} else if (n - i >= clen && !memcmp(name + i, close, clen)) {
			put(&q, "\\", 1);
			put(&q, close, clen);
			k = clen;
		} else if ((k = printable(name + i, n - i))) {
			put(&q, name + i, k);
		} else {
			put_octal(&q, c);
			k = 1;
		}
	}
	put(&q, close, clen);
	if (size)
		buf[q.len < size ? q.len : size - 1] = 0;
	return q.len;
}

const char *
xf_quote(struct xbulk_find *f, unsigned int slot, const char *name)
{
	struct xf_quoted *qs = &f->quoted[slot % XF_QUOTE_SLOTS];
	size_t len = xbulk_find_quote(qs->buf, qs->cap, name);

	if (len >= qs->cap) {
		char *p = realloc(qs->buf, len + 1);

		if (!p)
			return qs->buf ? qs->buf : "'?'";
		qs->buf = p;
		qs->cap = len + 1;
		xbulk_find_quote(qs->buf, qs->cap, name);
	}
	return qs->buf;
}
