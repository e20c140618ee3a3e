// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk path's targets and the paths found for them, below the command
 * (cli/path.c) and its two ways of finding paths (cli/path_parents.c,
 * cli/path_walk.c), which all add to them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"

int
xb_path_add(struct xb_path_target *t, const char *prefix, size_t plen,
	    const char *rest, size_t rlen)
{
	char *s, **v;

	if (t->npaths == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 4;

		v = realloc(t->paths, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		t->paths = v;
		t->cap = cap;
	}
	s = malloc(plen + rlen + 1);
	if (!s)
		return -ENOMEM;
	memcpy(s, prefix, plen);
	memcpy(s + plen, rest, rlen);
	s[plen + rlen] = '\0';
	t->paths[t->npaths++] = s;
	return 0;
}

void
xb_path_free_targets(struct xb_path_target *t, int n)
{
	int i;
	size_t j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < t[i].npaths; j++)
			free(t[i].paths[j]);
		free(t[i].paths);
	}
	free(t);
}
