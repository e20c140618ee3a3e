// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * How many more fds this process may open: the soft RLIMIT_NOFILE less
 * the fds open now (/proc/self/fd).  The directory readers (travel.c)
 * size what they keep open from it, so that a build fits any limit find
 * fits (find needs a handful), only with fewer directories opened ahead.
 */
#include <dirent.h>
#include <sys/resource.h>

#include "tree.h"

unsigned int
xbn_fds_free(void)
{
	struct rlimit rl;
	struct dirent *de;
	unsigned long open = 0;
	DIR *d;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur > 1u << 20)
		rl.rlim_cur = 1u << 20;
	d = opendir("/proc/self/fd");
	if (!d)
		return rl.rlim_cur > 64 ? (unsigned int)rl.rlim_cur - 64 : 0;
	while ((de = readdir(d)))
		open += de->d_name[0] != '.';
	closedir(d);
	/* the one opendir() used is free again */
	open = open ? open - 1 : 0;
	return rl.rlim_cur > open ? (unsigned int)(rl.rlim_cur - open) : 0;
}
