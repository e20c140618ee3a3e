// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * User and group names by id (%u %g, -ls, -nouser, -nogroup): one NSS
 * lookup per id, then an open-addressing table.  Used by the thread that
 * evaluates, never by the pre-filter.
 */
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "find.h"

void
xf_ids_init(struct xf_idcache *c, bool group)
{
	memset(c, 0, sizeof(*c));
	c->group = group;
}

void
xf_ids_free(struct xf_idcache *c)
{
	free(c->slot);
	c->slot = NULL;
}

static struct xf_id *
lookup(struct xf_idcache *c, uint32_t id)
{
	size_t i = (id * 2654435761u) & c->mask;

	while (c->slot[i].used && c->slot[i].id != id)
		i = (i + 1) & c->mask;
	return &c->slot[i];
}

/* Double the table (start at 64 slots); false if out of memory. */
static bool
grow(struct xf_idcache *c)
{
	struct xf_idcache old = *c;
	size_t n = c->slot ? 2 * (c->mask + 1) : 64, i;

	c->slot = calloc(n, sizeof(*c->slot));
	if (!c->slot) {
		c->slot = old.slot;
		return false;
	}
	c->mask = n - 1;
	for (i = 0; old.slot && i <= old.mask; i++)
		if (old.slot[i].used)
			*lookup(c, old.slot[i].id) = old.slot[i];
	free(old.slot);
	return true;
}

const char *
xf_id_name(struct xf_idcache *c, uint32_t id)
{
	struct xf_id *e;
	const char *name = NULL;

	if ((!c->slot || 2 * (c->used + 1) > c->mask + 1) && !grow(c))
		goto direct;
	e = lookup(c, id);
	if (e->used)
		return e->known ? e->name : NULL;
	e->used = true;
	e->id = id;
	c->used++;
	if (c->group) {
		struct group *gr = getgrgid(id);

		name = gr ? gr->gr_name : NULL;
	} else {
		struct passwd *pw = getpwuid(id);

		name = pw ? pw->pw_name : NULL;
	}
	e->known = name != NULL;
	if (name)
		snprintf(e->name, sizeof(e->name), "%s", name);
	return e->known ? e->name : NULL;
direct:
	if (c->group) {
		struct group *gr = getgrgid(id);

		return gr ? gr->gr_name : NULL;
	}
	{
		struct passwd *pw = getpwuid(id);

		return pw ? pw->pw_name : NULL;
	}
}
