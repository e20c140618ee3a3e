// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The outputs of a find expression, stdout and -fprint FILEs, as the
 * caller sees them: their names, fds, sharing, errors and the last flush.
 * Each is a stream (stream.c).
 */
#include <errno.h>

#include "find.h"

/* Size of each output's buffer. */
#define XF_OUT_BUFSIZE	(1U << 20)

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

	if (!s->out.buf && xbl_out_setup(&s->out, fd, XF_OUT_BUFSIZE))
		return -ENOMEM;
	s->out.fd = fd;
	s->tty = tty;
	return 0;
}

/* Point the actions of @n's tree that write to @from at @to. */
static void
repoint(struct xf_node *n, const struct xf_stream *from,
	struct xf_stream *to)
{
	if (!n)
		return;
	repoint(n->left, from, to);
	repoint(n->right, from, to);
	if (n->kind == XF_PRIMARY && (n->prim->props & XF_P_STREAM) &&
	    n->u.act.out == from)
		n->u.act.out = to;
}

int
xbulk_find_share_output(struct xbulk_find *f, size_t i, size_t j)
{
	if (!j || j >= i || i >= f->nstreams)
		return -EINVAL;
	repoint(f->root, f->streams[i], f->streams[j]);
	f->streams[j]->records |= f->streams[i]->records;
	return 0;
}

int
xbulk_find_output_error(const struct xbulk_find *f, size_t i)
{
	return f->streams[i]->err;
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
