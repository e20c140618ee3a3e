// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading one flat JSON object, a line of a JSON Lines file xbulk wrote
 * (cli/cli.h: a summary of snapshot --keep, read by du --trend): string
 * and integer values, the strings unescaped in place.  Not a general
 * JSON parser: nested objects and arrays are refused, reals are read as
 * their integer part.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Append code point @c to @w as UTF-8; the end. */
static char *
put_utf8(char *w, unsigned long c)
{
	if (c < 0x80) {
		*w++ = (char)c;
	} else if (c < 0x800) {
		*w++ = (char)(0xc0 | c >> 6);
		*w++ = (char)(0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		*w++ = (char)(0xe0 | c >> 12);
		*w++ = (char)(0x80 | ((c >> 6) & 0x3f));
		*w++ = (char)(0x80 | (c & 0x3f));
	} else {
		*w++ = (char)(0xf0 | c >> 18);
		*w++ = (char)(0x80 | ((c >> 12) & 0x3f));
		*w++ = (char)(0x80 | ((c >> 6) & 0x3f));
		*w++ = (char)(0x80 | (c & 0x3f));
	}
	return w;
}

/* Four hex digits at @p into *@c; false if they are not. */
static bool
hex4(const char *p, unsigned long *c)
{
	char buf[5] = { 0 }, *end;

	memcpy(buf, p, 4);
	if (strlen(buf) != 4)
		return false;
	*c = strtoul(buf, &end, 16);
	return !*end;
}

/* The JSON string after the quote at *@p, unescaped in place (it only
 * shrinks); *@p after its closing quote.  NULL if it is malformed. */
static char *
json_string(char **p)
{
	char *r = *p + 1, *w = r, *s = r;
	unsigned long c, lo;

	while (*r != '"') {
		if (!*r)
			return NULL;
		if (*r != '\\') {
			*w++ = *r++;
			continue;
		}
		switch (r[1]) {
		case '"': case '\\': case '/': *w++ = r[1]; break;
		case 'b': *w++ = '\b'; break;
		case 'f': *w++ = '\f'; break;
		case 'n': *w++ = '\n'; break;
		case 'r': *w++ = '\r'; break;
		case 't': *w++ = '\t'; break;
		case 'u':
			if (!hex4(r + 2, &c))
				return NULL;
			r += 4;
			if (c >= 0xd800 && c < 0xdc00 && r[2] == '\\' &&
			    r[3] == 'u' && hex4(r + 4, &lo) &&
			    lo >= 0xdc00 && lo < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) +
				    (lo - 0xdc00);
				r += 6;
			}
			w = put_utf8(w, c);
			break;
		default:
			return NULL;
		}
		r += 2;
	}
	*p = r + 1;
	*w = 0;
	return s;
}

int
xb_jr_object(char *p, struct xb_jr_kv *kv)
{
	struct xb_jr_kv spare, *e;
	int n = 0;
	char *key, *end;

	p += strspn(p, " \t\r\n");
	if (*p++ != '{')
		return -EBADMSG;
	for (;;) {
		p += strspn(p, " \t\r\n");
		if (*p == '}')
			return n;
		if (*p != '"' || !(key = json_string(&p)))
			return -EBADMSG;
		p += strspn(p, " \t\r\n");
		if (*p++ != ':')
			return -EBADMSG;
		p += strspn(p, " \t\r\n");
		/* past XB_JR_KV_MAX pairs: read, not kept (no key of ours) */
		e = n < XB_JR_KV_MAX ? &kv[n] : &spare;
		*e = (struct xb_jr_kv){ .key = key };
		if (*p == '"') {
			if (!(e->str = json_string(&p)))
				return -EBADMSG;
		} else if (*p == '-' || (*p >= '0' && *p <= '9')) {
			errno = 0;
			e->num = strtoll(p, &end, 10);
			if (errno || end == p)
				return -EBADMSG;
			e->isnum = true;
			p = end + strspn(end, ".0123456789eE+-");
		} else if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4)) {
			p += 4;
		} else if (!strncmp(p, "false", 5)) {
			p += 5;
		} else {
			return -EBADMSG;
		}
		if (n < XB_JR_KV_MAX)
			n++;
		p += strspn(p, " \t\r\n");
		if (*p == ',')
			p++;
		else if (*p != '}')
			return -EBADMSG;
	}
}

const struct xb_jr_kv *
xb_jr_get(const struct xb_jr_kv *kv, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return &kv[i];
	return NULL;
}

int64_t
xb_jr_int(const struct xb_jr_kv *kv, int n, const char *key, bool *ok)
{
	const struct xb_jr_kv *e = xb_jr_get(kv, n, key);

	if (!e || !e->isnum) {
		*ok = false;
		return 0;
	}
	return e->num;
}
