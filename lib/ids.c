// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Names by id for find's %u %g -ls -nouser -nogroup and du's --by uid,
 * gid and projid: one lookup per id, then an open-addressing table per
 * kind (ids hashed by Knuth's multiplicative hash).  Users and groups come
 * from NSS with the reentrant calls (the buffer grows on ERANGE);
 * projects from /etc/projid, read whole the first time one is asked.
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

enum { USER, GROUP, PROJECT, KINDS };

struct id_slot {
	uint32_t	id;
	bool		used;
	char		*name;		/* NULL: the id has none */
};

struct id_table {
	struct id_slot	*slot;
	size_t		mask;		/* slots - 1 */
	size_t		used;
};

struct xbulk_ids {
	struct id_table	t[KINDS];
	bool		projid_read;
};

int
xbulk_ids_new(struct xbulk_ids **ids)
{
	*ids = calloc(1, sizeof(**ids));
	return *ids ? 0 : -ENOMEM;
}

void
xbulk_ids_free(struct xbulk_ids *ids)
{
	size_t k, i;

	if (!ids)
		return;
	for (k = 0; k < KINDS; k++) {
		for (i = 0; ids->t[k].slot && i <= ids->t[k].mask; i++)
			free(ids->t[k].slot[i].name);
		free(ids->t[k].slot);
	}
	free(ids);
}

static struct id_slot *
slot_of(const struct id_table *t, uint32_t id)
{
	size_t i = (id * 2654435761u) & t->mask;

	while (t->slot[i].used && t->slot[i].id != id)
		i = (i + 1) & t->mask;
	return &t->slot[i];
}

/* Double the table (64 slots at first); -ENOMEM. */
static int
grow(struct id_table *t)
{
	struct id_table old = *t;
	size_t n = t->slot ? 2 * (t->mask + 1) : 64, i;

	t->slot = calloc(n, sizeof(*t->slot));
	if (!t->slot) {
		*t = old;
		return -ENOMEM;
	}
	t->mask = n - 1;
	for (i = 0; old.slot && i <= old.mask; i++)
		if (old.slot[i].used)
			*slot_of(t, old.slot[i].id) = old.slot[i];
	free(old.slot);
	return 0;
}

/* The slot of @id in @t, added (with no name yet) if it is new; NULL if
 * out of memory.  *@fresh: it was added now. */
static struct id_slot *
get(struct id_table *t, uint32_t id, bool *fresh)
{
	struct id_slot *s;

	if ((!t->slot || 2 * (t->used + 1) > t->mask + 1) && grow(t))
		return NULL;
	s = slot_of(t, id);
	*fresh = !s->used;
	if (*fresh) {
		s->used = true;
		s->id = id;
		t->used++;
	}
	return s;
}

/* getpwuid_r() or getgrgid_r() of @id: a copy of the name, or NULL. */
static char *
nss_name(int kind, uint32_t id)
{
	size_t size = 1024;
	char *buf = NULL, *name = NULL;
	int err;

	do {
		struct passwd pw, *pwp = NULL;
		struct group gr, *grp = NULL;
		char *nbuf = realloc(buf, size *= 2);

		if (!nbuf)
			break;
		buf = nbuf;
		if (kind == USER) {
			err = getpwuid_r(id, &pw, buf, size, &pwp);
			if (!err && pwp)
				name = strdup(pw.pw_name);
		} else {
			err = getgrgid_r(id, &gr, buf, size, &grp);
			if (!err && grp)
				name = strdup(gr.gr_name);
		}
	} while (err == ERANGE && size < (1U << 20));
	free(buf);
	return name;
}

/* /etc/projid: "name:id" per line; the first name of an id counts. */
static void
read_projid(struct xbulk_ids *ids)
{
	FILE *f = fopen("/etc/projid", "re");
	char *line = NULL, *colon, *end;
	size_t cap = 0;
	struct id_slot *s;
	unsigned long id;
	bool fresh;

	ids->projid_read = true;
	while (f && getline(&line, &cap, f) > 0) {
		colon = strchr(line, ':');
		if (!colon || line[0] == '#')
			continue;
		*colon = '\0';
		id = strtoul(colon + 1, &end, 10);
		if (end == colon + 1 || id > UINT32_MAX)
			continue;
		s = get(&ids->t[PROJECT], (uint32_t)id, &fresh);
		if (!s)
			break;
		if (fresh)
			s->name = strdup(line);
	}
	free(line);
	if (f)
		fclose(f);
}

static const char *
name_of(struct xbulk_ids *ids, int kind, uint32_t id)
{
	struct id_slot *s;
	bool fresh;

	if (kind == PROJECT && !ids->projid_read)
		read_projid(ids);
	s = get(&ids->t[kind], id, &fresh);
	if (!s)
		return NULL;
	if (fresh && kind != PROJECT)
		s->name = nss_name(kind, id);
	return s->name;
}

const char *
xbulk_ids_user(struct xbulk_ids *ids, uint32_t uid)
{
	return name_of(ids, USER, uid);
}

const char *
xbulk_ids_group(struct xbulk_ids *ids, uint32_t gid)
{
	return name_of(ids, GROUP, gid);
}

const char *
xbulk_ids_project(struct xbulk_ids *ids, uint32_t projid)
{
	return name_of(ids, PROJECT, projid);
}
