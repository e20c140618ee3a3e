/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The find unit tests' harness: compile an expression with
 * xbulk_find_parse() at a fixed time (XFH_NOW, TZ=UTC), evaluate it on
 * made-up records and read back what it wrote to stdout (a memfd).
 */
#ifndef XBULK_FIND_HARNESS_H
#define XBULK_FIND_HARNESS_H

#include <stdbool.h>
#include <stdint.h>

#include "xbulk.h"

/* 2023-11-14 22:13:20.25 UTC */
#define XFH_NOW_SEC	1700000000
#define XFH_NOW_NSEC	250000000

/* The words of an expression: XFH_ARGS("-size", "1k") */
#define XFH_ARGS(...)	((const char *[]){ __VA_ARGS__, NULL })

struct xfh {
	struct xbulk_find	*f;
	int			fd;		/* stdout: a memfd */
	int			status;		/* parse failure's exit status */
	char			err[1024];	/* parse failure's message */
	char			out[16384];	/* what the last run wrote */
};

/* TZ=UTC, LC_ALL=C: call once from main(). */
void xfh_setup(void);
/* Compile @args (NULL-terminated); 0 or xbulk_find_parse()'s error. */
int xfh_parse(struct xfh *h, const char *const *args);
void xfh_free(struct xfh *h);
/* A record: regular file of @mode bits and @size bytes, inode 131. */
struct xfs_bulkstat xfh_file(uint32_t mode, uint64_t size);
/*
 * Evaluate on @bs at @path, found under the PATH operand @start (@path
 * is @start then "/name"s, one trailing '/' of @start not doubled, as a
 * walk gives it); returns what it wrote, and xbulk_find_visit()'s return
 * in *@ret if @ret.
 */
const char *xfh_run_in(struct xfh *h, const struct xfs_bulkstat *bs,
		       const char *start, const char *path, int *ret);
/* The same with @start "." for a @path starting "./", else @path. */
const char *xfh_run(struct xfh *h, const struct xfs_bulkstat *bs,
		    const char *path, int *ret);
/* Did the expression act (write anything) on @bs at "./x"? */
bool xfh_matches(struct xfh *h, const struct xfs_bulkstat *bs);

#endif /* XBULK_FIND_HARNESS_H */
