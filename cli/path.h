/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xbulk path: what path.c (options, lookups, output) shares with its two
 * ways of finding paths, path_parents.c (parent pointers) and
 * path_walk.c (the names engine's walk of the whole tree), and the
 * targets below them all (path_target.c).
 */
#ifndef XBULK_CLI_PATH_H
#define XBULK_CLI_PATH_H

#include <string.h>

#include "memory.h"

/* One INUM[:GEN] of the command line. */
struct xb_path_target {
	const char	*arg;		/* as typed */
	uint64_t	ino;
	uint32_t	gen;		/* asked for, then bs_gen */
	bool		has_gen;
	bool		is_dir;
	bool		skip;		/* not allocated, unreadable: said */
	bool		reported;	/* a message said why paths lack */
	char		**paths;	/* found so far, PATH-prefixed */
	size_t		npaths, cap;
};

/* Append @prefix (@plen bytes) followed by @rest to @t's paths; 0 or
 * -ENOMEM. */
int xb_path_add(struct xb_path_target *t, const char *prefix, size_t plen,
		const char *rest, size_t rlen);
/* Free the @n targets @t and their paths. */
void xb_path_free_targets(struct xb_path_target *t, int n);

/*
 * Find the paths under directory @path of the @n targets not skipped,
 * with parent pointers or with a walk of the whole tree (@threads
 * threads, in the budget @mem).  Per-inode problems are printed and marked in t->reported;
 * other damage seen on the way (the paths found may then be incomplete)
 * is printed and sets *@status to XB_EXIT_FAILURE.  Return XB_EXIT_OK, or
 * the exit status after a failure of the whole run (printed) or a signal.
 */
enum xb_exit xb_path_parents(struct xbulk_fs *fs, const char *path,
			     struct xb_path_target *t, int n,
			     const volatile int *cancel);
enum xb_exit xb_path_walk(struct xbulk_fs *fs, const char *path,
			  unsigned int threads, const struct xb_memory *mem,
			  struct xb_path_target *t, int n,
			  const volatile int *cancel, enum xb_exit *status);

/* The length of @path without one trailing '/' (find's joining: "/mnt/"
 * and "name" make "/mnt/name"; "/" and "name" make "/name"). */
static inline size_t
xb_path_base_len(const char *path)
{
	size_t len = strlen(path);

	return len && path[len - 1] == '/' ? len - 1 : len;
}

#endif /* XBULK_CLI_PATH_H */
