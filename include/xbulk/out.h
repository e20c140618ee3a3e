/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libxbulk: the output buffer formatters append to (lib/outbuf.c).
 * Part of <xbulk.h>: include that.
 */
#ifndef XBULK_OUT_H
#define XBULK_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(default)

/* ------------------------------------------------------------------ */
/* Output buffer (lib/outbuf.c)                                        */
/* ------------------------------------------------------------------ */

/*
 * A byte buffer that formatters append records to.  When the room left is
 * less than a record can take it is flushed: written to its fd with one
 * write(), or, inside the scan engine, handed on to be written in inode
 * order.
 *
 * Made only by the library: by xbulk_out_new(), or handed to a batch
 * callback by the scan.  Callers never allocate, embed or copy one; they
 * append at @buf + @len (xbulk_out_room()) and add what they wrote to
 * @len.  The library's own fields follow @cap, and may grow.
 */
struct xbulk_out {
	char	*buf;
	size_t	len;	/* bytes held */
	size_t	cap;	/* bytes allocated */
	/* The library's fields follow. */
	int	fd;	/* where the default flush writes */
	int	(*flush)(struct xbulk_out *out);	/* NULL: write to fd */
	void	*priv;	/* for @flush */
};

/**
 * xbulk_out_new() - a buffer of @cap bytes writing to @fd
 * @out: out: the buffer (xbulk_out_free() it)
 * Return: 0 or -ENOMEM.
 */
int xbulk_out_new(int fd, size_t cap, struct xbulk_out **out);

/** xbulk_out_free() - free the buffer without flushing.  NULL is fine. */
void xbulk_out_free(struct xbulk_out *out);

/**
 * xbulk_out_flush() - write all held bytes to the fd (retrying short
 * writes and EINTR) and empty the buffer, or call the flush hook.
 * Return: 0; -EPIPE if the reader went away; -ENOSPC, -EIO, -EBADF...
 */
int xbulk_out_flush(struct xbulk_out *out);

/**
 * xbulk_out_room() - make room for @need bytes, flushing if needed
 * Return: where to append (then add the bytes used to out->len), or NULL
 * with the flush error in *@err.
 */
static inline char *
xbulk_out_room(struct xbulk_out *out, size_t need, int *err)
{
	if (out->cap - out->len < need) {
		*err = xbulk_out_flush(out);
		if (*err)
			return NULL;
	}
	return out->buf + out->len;
}

#pragma GCC visibility pop

#endif /* XBULK_OUT_H */
