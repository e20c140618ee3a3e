// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Output buffer: formatters append records, one write() per fill.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "base.h"

int
xbl_out_setup(struct xbulk_out *out, int fd, size_t cap)
{
	out->buf = malloc(cap);
	if (!out->buf)
		return -ENOMEM;
	out->len = 0;
	out->cap = cap;
	out->fd = fd;
	out->flush = NULL;
	out->priv = NULL;
	return 0;
}

void
xbl_out_release(struct xbulk_out *out)
{
	free(out->buf);
	out->buf = NULL;
	out->len = out->cap = 0;
}

int
xbulk_out_new(int fd, size_t cap, struct xbulk_out **outp)
{
	struct xbulk_out *out = malloc(sizeof(*out));

	*outp = NULL;
	if (!out)
		return -ENOMEM;
	if (xbl_out_setup(out, fd, cap)) {
		free(out);
		return -ENOMEM;
	}
	*outp = out;
	return 0;
}

void
xbulk_out_free(struct xbulk_out *out)
{
	if (!out)
		return;
	xbl_out_release(out);
	free(out);
}

int
xbl_write_all(int fd, const char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		done += (size_t)n;
	}
	return 0;
}

int
xbulk_out_flush(struct xbulk_out *out)
{
	int err;

	if (out->flush)
		return out->flush(out);
	err = xbl_write_all(out->fd, out->buf, out->len);
	if (!err)
		out->len = 0;
	return err;
}
