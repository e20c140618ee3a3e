// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Names by id for find's %u %g -ls -nouser -nogroup and du's --by uid,
 * gid and projid: one lookup per id, then a table per kind from the id
 * to its name (lib/hash.c).  Users and groups come from NSS with the
 * reentrant calls (the buffer grows on ERANGE); projects from
 * /etc/projid, read whole the first time one is asked.
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "hash.h"

enum { USER, GROUP, PROJECT, KINDS };

/* Each table: id -> char * (NULL: the id has none). */
struct xbulk_ids {
	struct xbl_hash	t[KINDS];
	bool		projid_read;
};

int
xbulk_ids_new(struct xbulk_ids **ids)
{
	size_t k;

	*ids = calloc(1, sizeof(**ids));
	if (!*ids)
		return -ENOMEM;
	for (k = 0; k < KINDS; k++)
		xbl_hash_init(&(*ids)->t[k], sizeof(char *));
	return 0;
}

void
xbulk_ids_free(struct xbulk_ids *ids)
{
	uint64_t id;
	size_t k, pos;
	char **name;

	if (!ids)
		return;
	for (k = 0; k < KINDS; k++) {
		for (pos = 0; (name = xbl_hash_next(&ids->t[k], &pos, &id));)
			free(*name);
		xbl_hash_free(&ids->t[k]);
	}
	free(ids);
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
	char *line = NULL, *colon, *end, **name;
	size_t cap = 0;
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
		name = xbl_hash_add(&ids->t[PROJECT], id, &fresh);
		if (!name)
			break;
		if (fresh)
			*name = strdup(line);
	}
	free(line);
	if (f)
		fclose(f);
}

static const char *
name_of(struct xbulk_ids *ids, int kind, uint32_t id)
{
	char **name;
	bool fresh;

	if (kind == PROJECT && !ids->projid_read)
		read_projid(ids);
	name = xbl_hash_add(&ids->t[kind], id, &fresh);
	if (!name)
		return NULL;
	if (fresh && kind != PROJECT)
		*name = nss_name(kind, id);
	return *name;
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
