// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Output buffer: formatters append records, one write() per fill.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "xbulk.h"

int
xbulk_out_init(struct xbulk_out *out, int fd, size_t cap)
{
	out->buf = malloc(cap);
	if (!out->buf)
		return -ENOMEM;
	out->len = 0;
	out->cap = cap;
	out->fd = fd;
	return 0;
}

void
xbulk_out_free(struct xbulk_out *out)
{
	free(out->buf);
	out->buf = NULL;
	out->len = out->cap = 0;
}

int
xbulk_out_flush(struct xbulk_out *out)
{
	size_t done = 0;

	while (done < out->len) {
		ssize_t n = write(out->fd, out->buf + done, out->len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		done += (size_t)n;
	}
	out->len = 0;
	return 0;
}
