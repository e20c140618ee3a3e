// SPDX-License-Identifier: GPL-2.0-or-later
/* The find unit tests' harness (find_harness.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "find_harness.h"

void
xfh_setup(void)
{
	setenv("TZ", "UTC", 1);
	setenv("LC_ALL", "C", 1);
	tzset();
}

int
xfh_parse(struct xfh *h, const char *const *args)
{
	struct xbulk_find_opts o = {
		.size = sizeof(o),
		.now = { XFH_NOW_SEC, XFH_NOW_NSEC },
	};
	int argc = 0, ret;

	memset(h, 0, sizeof(*h));
	while (args[argc])
		argc++;
	ret = xbulk_find_parse(argc, (char **)args, &o, &h->f, h->err,
			       sizeof(h->err), &h->status);
	if (ret)
		return ret;
	h->fd = memfd_create("xfh", 0);
	assert_true(h->fd >= 0);
	assert_int_equal(xbulk_find_set_output(h->f, 0, h->fd, false), 0);
	xbulk_find_set_fs(h->f, 12, 0x801);	/* 4 KiB blocks, dev 8:1 */
	return 0;
}

void
xfh_free(struct xfh *h)
{
	xbulk_find_free(h->f);
	if (h->fd > 0)
		close(h->fd);
	h->f = NULL;
	h->fd = -1;
}

struct xfs_bulkstat
xfh_file(uint32_t mode, uint64_t size)
{
	struct xfs_bulkstat bs = {
		.bs_ino = 131, .bs_mode = S_IFREG | mode, .bs_size = size,
		.bs_blocks = (size + 4095) / 4096, .bs_nlink = 1,
		.bs_blksize = 4096, .bs_version = XFS_BULKSTAT_VERSION_V5,
	};

	return bs;
}

const char *
xfh_run_in(struct xfh *h, const struct xfs_bulkstat *bs, const char *start,
	   const char *path, int *ret)
{
	const char *slash = strrchr(path, '/'), *p = path + strlen(start);
	struct xbulk_entry file = {
		.path = path, .pathlen = strlen(path), .bs = bs,
		.start = start, .startlen = strlen(start),
	};
	ssize_t n;
	int r;

	if (*p) {			/* below the PATH operand */
		file.name_off = (size_t)(slash - path) + 1;
		for (p += *p == '/', file.depth = 1; *p; p++)
			file.depth += *p == '/';
	}
	assert_int_equal(ftruncate(h->fd, 0), 0);
	assert_int_equal(lseek(h->fd, 0, SEEK_SET), 0);
	r = xbulk_find_visit(h->f, &file, XBULK_VISIT_PRE);
	if (ret)
		*ret = r;
	assert_int_equal(xbulk_find_flush(h->f), 0);
	n = pread(h->fd, h->out, sizeof(h->out) - 1, 0);
	assert_true(n >= 0);
	h->out[n] = 0;
	return h->out;
}

const char *
xfh_run(struct xfh *h, const struct xfs_bulkstat *bs, const char *path,
	int *ret)
{
	return xfh_run_in(h, bs, strncmp(path, "./", 2) ? path : ".", path,
			  ret);
}

bool
xfh_matches(struct xfh *h, const struct xfs_bulkstat *bs)
{
	return *xfh_run(h, bs, "./x", NULL) != 0;
}
