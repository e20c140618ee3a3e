// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The outputs of a find expression: stdout and -fprint FILEs, each a
 * buffer written with one write() per fill.  Names go out as raw bytes,
 * but on a terminal control characters show as '?', as find shows them.
 */
#include <errno.h>
#include <string.h>

#include "find.h"
#include "../internal.h"

/* Size of each output's buffer. */
#define XF_OUT_BUFSIZE	(1U << 20)

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
		err = xbulk_write_all(o->fd, p, len);
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

int
xf_put_name(struct xf_stream *s, const char *p, size_t len)
{
	char chunk[256];
	size_t i, n;
	int err;

	if (!s->tty)
		return xf_put(s, p, len);
	for (i = 0; i < len; i += n) {
		size_t k;

		n = len - i < sizeof(chunk) ? len - i : sizeof(chunk);
		for (k = 0; k < n; k++) {
			unsigned char c = (unsigned char)p[i + k];

			chunk[k] = c < 0x20 || c == 0x7f ? '?' : (char)c;
		}
		err = xf_put(s, chunk, n);
		if (err)
			return err;
	}
	return 0;
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

size_t
xbulk_find_noutputs(const struct xbulk_find *f)
{
	return f->nstreams;
}

const char *
xbulk_find_output_name(const struct xbulk_find *f, size_t i)
{
	return f->streams[i]->name;
}

int
xbulk_find_set_output(struct xbulk_find *f, size_t i, int fd, bool tty)
{
	struct xf_stream *s = f->streams[i];

	if (!s->out.buf && xbulk_out_init(&s->out, fd, XF_OUT_BUFSIZE))
		return -ENOMEM;
	s->out.fd = fd;
	s->tty = tty;
	return 0;
}

int
xbulk_find_flush(struct xbulk_find *f)
{
	int first = 0, err;
	size_t i;

	for (i = 0; i < f->nstreams; i++) {
		err = xf_stream_flush(f->streams[i]);
		if (err && !first)
			first = err;
	}
	return first;
}
