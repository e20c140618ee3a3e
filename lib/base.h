/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What every layer of libxbulk uses and callers never see: a clock, the
 * write loop (lib/outbuf.c) and the output buffer's size.
 */
#ifndef XBULK_BASE_H
#define XBULK_BASE_H

#include <time.h>

#include "xbulk.h"

/* Nanoseconds on clock @id. */
static inline uint64_t
xbulk_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Output buffer size: one write() per this many bytes. */
#define XBULK_OUT_BUFSIZE	(1U << 20)

/* write() all of @buf, retrying short writes and EINTR; 0 or -errno. */
int xbulk_write_all(int fd, const char *buf, size_t len);

#endif /* XBULK_BASE_H */
