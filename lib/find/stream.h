/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/find (prefix xf_: CONTRIBUTING.md).
 *
 * find's output streams (stream.c): a buffer written with one write() per
 * fill, names quoted on a terminal as find quotes them.  Below every file
 * of lib/find that prints (find.h includes this header): xf_put() and the
 * other inline helpers here call down into stream.c, which calls nothing
 * else of lib/find.
 */
#ifndef XBULK_FIND_STREAM_H
#define XBULK_FIND_STREAM_H

#include <stdbool.h>
#include <string.h>

#include "../base.h"

/* An output of the expression: stdout or a -fprint FILE. */
struct xf_stream {
	struct xbulk_out	out;
	const char		*name;		/* NULL: stdout */
	bool			tty;		/* quote odd names */
	bool			records;	/* -print writes here (--format) */
	int			err;		/* first write error */
};

/* xf_put() when the buffer is full (or the stream failed). */
int xf_put_slow(struct xf_stream *s, const char *p, size_t len);
/* Append @len bytes to @s (a write error sticks: later puts fail). */
static inline int
xf_put(struct xf_stream *s, const char *p, size_t len)
{
	struct xbulk_out *o = &s->out;

	if (__builtin_expect(s->err || o->cap - o->len < len, 0))
		return xf_put_slow(s, p, len);
	memcpy(o->buf + o->len, p, len);
	o->len += len;
	return 0;
}
/* Room for @len bytes at the end of @s's buffer, or NULL (then use
 * xf_put()); xf_commit() what was written there. */
static inline char *
xf_room(struct xf_stream *s, size_t len)
{
	struct xbulk_out *o = &s->out;

	return s->err || o->cap - o->len < len ? NULL : o->buf + o->len;
}

static inline void
xf_commit(struct xf_stream *s, const char *end)
{
	s->out.len = (size_t)(end - s->out.buf);
}
/* A name (path, link target): as it is, or on a terminal as find shows
 * it there (odd characters as '?'); at most @max bytes of that. */
int xf_put_name_max(struct xf_stream *s, const char *p, size_t len,
		    size_t max);
/* How many bytes xf_put_name_max() makes of the whole name. */
size_t xf_name_len(const struct xf_stream *s, const char *p, size_t len);

static inline int
xf_put_name(struct xf_stream *s, const char *p, size_t len)
{
	return xf_put_name_max(s, p, len, len);
}
/* Write what @s holds: 0 or its (sticky) write error. */
int xf_stream_flush(struct xf_stream *s);

#endif /* XBULK_FIND_STREAM_H */
