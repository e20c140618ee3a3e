// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names of owners, groups and projects for xbulk du: NSS (getpwuid_r,
 * getgrgid_r) and /etc/projid (xfs_quota's "name:id" lines), each id
 * looked up once.
 */
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "du.h"

struct name_cache {
	struct {
		uint32_t	id;
		char		*name;		/* NULL: none */
	} *v;
	size_t	n, cap;
};

enum { USER, GROUP, PROJECT };

static struct name_cache caches[3];
static bool projid_read;

static char *
lookup(int kind, uint32_t id)
{
	char buf[4096];
	struct passwd pw, *pwp = NULL;
	struct group gr, *grp = NULL;

	if (kind == USER) {
		if (!getpwuid_r(id, &pw, buf, sizeof(buf), &pwp) && pwp)
			return strdup(pw.pw_name);
	} else if (!getgrgid_r(id, &gr, buf, sizeof(buf), &grp) && grp) {
		return strdup(gr.gr_name);
	}
	return NULL;
}

static const char *
cached(int kind, uint32_t id)
{
	struct name_cache *c = &caches[kind];
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->v[i].id == id)
			return c->v[i].name;
	if (kind == PROJECT)
		return NULL;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		void *v = realloc(c->v, cap * sizeof(*c->v));

		if (!v)
			return NULL;
		c->v = v;
		c->cap = cap;
	}
	c->v[c->n].id = id;
	c->v[c->n].name = lookup(kind, id);
	return c->v[c->n++].name;
}

const char *
du_user_name(uint32_t uid)
{
	return cached(USER, uid);
}

const char *
du_group_name(uint32_t gid)
{
	return cached(GROUP, gid);
}

/* /etc/projid: "name:id" per line, as xfs_quota reads it. */
static void
read_projid(void)
{
	struct name_cache *c = &caches[PROJECT];
	FILE *f = fopen("/etc/projid", "re");
	char line[512];

	projid_read = true;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *end;
		unsigned long id;
		void *v;

		if (!colon || line[0] == '#')
			continue;
		*colon = '\0';
		id = strtoul(colon + 1, &end, 10);
		if (end == colon + 1 || id > UINT32_MAX)
			continue;
		if (c->n == c->cap) {
			v = realloc(c->v, (c->cap + 16) * sizeof(*c->v));
			if (!v)
				break;
			c->v = v;
			c->cap += 16;
		}
		c->v[c->n].id = (uint32_t)id;
		c->v[c->n].name = strdup(line);
		if (c->v[c->n].name)
			c->n++;
	}
	fclose(f);
}

const char *
du_project_name(uint32_t projid)
{
	if (!projid_read)
		read_projid();
	return cached(PROJECT, projid);
}

const char *
du_svg_owner(void *arg, uint32_t uid)
{
	(void)arg;
	return du_user_name(uid);
}
