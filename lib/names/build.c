// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Names for inodes: the entry points (skeleton; the engine lands next).
 */
#include <errno.h>
#include <string.h>

#include "xbulk.h"

int
xbulk_names_build(struct xbulk_fs *fs, const struct xbulk_names_opts *o,
		  struct xbulk_names **names, struct xbulk_names_result *r)
{
	(void)fs;
	(void)o;
	memset(r, 0, sizeof(*r));
	*names = NULL;
	r->fail = XBULK_NAMES_FAIL_SETUP;
	r->err = -ENOSYS;
	return -ENOSYS;
}

void
xbulk_names_free(struct xbulk_names *names)
{
	(void)names;
}

int
xbulk_names_walk(struct xbulk_names *names, const char *start,
		 unsigned int flags, xbulk_walk_fn fn, void *arg)
{
	(void)names;
	(void)start;
	(void)flags;
	(void)fn;
	(void)arg;
	return -ENOSYS;
}

int
xbulk_names_readlink(struct xbulk_names *names, const struct xfs_bulkstat *bs,
		     char *buf, size_t size)
{
	(void)names;
	(void)bs;
	(void)buf;
	(void)size;
	return -ENOSYS;
}

int
xbulk_names_unreached(struct xbulk_names *names,
		      int (*fn)(void *arg, const struct xfs_bulkstat *bs),
		      void *arg)
{
	(void)names;
	(void)fn;
	(void)arg;
	return -ENOSYS;
}
