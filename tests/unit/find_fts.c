// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * find_fts: libxbulk's find expressions driven by fts(3) and statx(2)
 * instead of bulkstat, on any filesystem.  Tests compare it with GNU
 * find on the same tree, for the evaluator alone (the XFS walk has its
 * own tests).  Usage: find_fts [PATH...] [EXPRESSION], as find.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "xbulk.h"

static int status;

static void
warn(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "find: %s\n", msg);
}

static void
problem(void *arg, const char *path, int err)
{
	(void)arg;
	fprintf(stderr, "find: '%s': %s\n", path, strerror(-err));
	status = 1;
}

static long
read_link(void *arg, const struct xbulk_entry *file, char *buf,
	  size_t size)
{
	ssize_t n = readlink(file->path, buf, size);

	(void)arg;
	return n < 0 ? -errno : n;
}

/* A bulkstat record from statx (st_blocks as 512-byte blocks). */
static void
fill(struct xfs_bulkstat *bs, const char *path)
{
	struct statx st;

	memset(bs, 0, sizeof(*bs));
	if (!statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_ALL, &st))
		xbulk_bulkstat_from_statx(bs, &st);
}

static uint64_t
count_entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	uint64_t n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

int
main(int argc, char **argv)
{
	struct xbulk_find_opts o = {
		.size = sizeof(o),
		.warnings = isatty(0), .warn = warn, .problem = problem,
		.readlink = read_link,
	};
	struct xbulk_find *f;
	struct stat st;
	char err[1024];
	size_t i, n;
	int ret, st_code;
	char **paths;
	FTS *fts;
	FTSENT *e;

	clock_gettime(CLOCK_REALTIME, &o.now);
	ret = xbulk_find_parse(argc - 1, argv + 1, &o, &f, err, sizeof(err),
			       &st_code);
	if (ret) {
		fprintf(stderr, "find: %s\n", err);
		return st_code;
	}
	for (i = 0; i < xbulk_find_noutputs(f); i++) {
		const char *name = xbulk_find_output_name(f, i);
		int fd = !name ? 1 : !strcmp(name, "/dev/stderr") ? 2 :
			 open(name, O_WRONLY | O_CREAT | O_TRUNC, 0666);

		if (fd < 0 || xbulk_find_set_output(f, i, fd, isatty(fd)))
			return 1;
	}
	stat(".", &st);
	xbulk_find_set_fs(f, 9, st.st_dev);
	n = xbulk_find_npaths(f);
	paths = calloc(n + 1, sizeof(*paths));
	for (i = 0; i < n; i++) {
		paths[i] = (char *)xbulk_find_path(f, i);
		fts = fts_open((char *[]){ paths[i], NULL },
			       FTS_PHYSICAL | FTS_NOCHDIR, NULL);
		while (fts && (e = fts_read(fts))) {
			struct xfs_bulkstat bs;
			struct xbulk_entry file = {
				.path = e->fts_path, .pathlen = e->fts_pathlen,
				.name_off = e->fts_pathlen - e->fts_namelen,
				.depth = (unsigned int)e->fts_level, .bs = &bs,
				.start = paths[i],
				.startlen = strlen(paths[i]),
			};
			bool post = e->fts_info == FTS_DP;

			if (e->fts_info == FTS_NS || e->fts_info == FTS_ERR) {
				fprintf(stderr, "find: '%s': %s\n",
					e->fts_path, strerror(e->fts_errno));
				status = 1;
				continue;
			}
			fill(&bs, e->fts_accpath);
			if (S_ISDIR(bs.bs_mode))
				file.nentries = count_entries(e->fts_accpath);
			ret = xbulk_find_visit(f, &file, post ? XBULK_VISIT_POST :
					       XBULK_VISIT_PRE);
			if (ret == XBULK_WALK_PRUNE && !post)
				fts_set(fts, e, FTS_SKIP);
			if (ret == XBULK_WALK_STOP || ret < 0)
				break;
		}
		if (fts)
			fts_close(fts);
		if (ret == XBULK_WALK_STOP || ret < 0)
			break;
	}
	xbulk_find_flush(f);
	xbulk_find_free(f);
	free(paths);
	return status;
}
