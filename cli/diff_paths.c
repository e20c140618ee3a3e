// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk diff's path lists for a backup (the diff runs with
 * XBULK_DIFF_EVERY_NAME): -0, the names of NEW whose entry, inode or
 * path changed (what rsync --files-from copies), and --deleted0, the
 * paths of OLD that name nothing in NEW (what the other side removes).
 *
 * --deleted0 is safe in either order (before or after the copy): it
 * never names a path that exists in NEW, nor one below a path that is no
 * directory in NEW (rm -rf would follow a symlink there; rsync --force
 * replaces such a directory whole).  It lists the topmost of the gone
 * paths: a path whose parent path is a directory in NEW.  For that it
 * holds the OLD and NEW paths of every change, sorted once at the end:
 * a path of OLD that no change names has the same entry in NEW (same
 * parent, name and inode, the parent's path unchanged).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diff.h"

enum { P_DIR = 1, P_SHOWN = 2 };

struct path_ent {
	size_t		off;		/* of the path in the set's bytes */
	unsigned int	flags;		/* P_* */
};

/* Paths noted as they come (a flags byte, the path, a NUL each, in a
 * memory stream), indexed and sorted once at the end. */
struct path_set {
	FILE		*f;
	char		*buf;
	size_t		len;
	size_t		n;
	struct path_ent	*v;
};

struct xb_diff_paths {
	struct path_set	old, new;
};

static int
set_add(struct path_set *t, const char *p, unsigned int flags)
{
	if (!t->f && !(t->f = open_memstream(&t->buf, &t->len)))
		return -ENOMEM;
	putc((int)flags, t->f);
	fputs(p, t->f);
	putc('\0', t->f);
	t->n++;
	return ferror(t->f) ? -ENOMEM : 0;
}

static int
ent_cmp(const void *x, const void *y, void *base)
{
	return strcmp((const char *)base + ((const struct path_ent *)x)->off,
		      (const char *)base + ((const struct path_ent *)y)->off);
}

/* Close the stream, index the paths and sort them: 0 or -ENOMEM. */
static int
set_seal(struct path_set *t)
{
	size_t i, off = 0;

	if (t->f && fclose(t->f)) {
		t->f = NULL;
		return -ENOMEM;
	}
	t->f = NULL;
	t->v = calloc(t->n ? t->n : 1, sizeof(*t->v));
	if (!t->v)
		return -ENOMEM;
	for (i = 0; i < t->n; i++) {
		t->v[i].flags = (unsigned char)t->buf[off];
		t->v[i].off = off + 1;
		off += 2 + strlen(t->buf + off + 1);
	}
	if (t->n)
		qsort_r(t->v, t->n, sizeof(*t->v), ent_cmp, t->buf);
	return 0;
}

static void
set_free(struct path_set *t)
{
	if (t->f)
		fclose(t->f);
	free(t->buf);
	free(t->v);
}

/* The entry of @t at the path of @len bytes at @p, or NULL. */
static const struct path_ent *
set_find(const struct path_set *t, const char *p, size_t len)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *s = t->buf + t->v[mid].off;
		int c = strncmp(p, s, len);

		if (!c && s[len])
			c = -1;		/* @p is a prefix of s */
		if (!c)
			return &t->v[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

int
xb_diff_paths_add(struct xb_diff_out *o, const struct xbulk_snap_change *c,
		  bool shown)
{
	struct xb_diff_paths *d = o->paths;
	const char *op = NULL;
	int ret = 0;

	if (!d) {
		d = o->paths = calloc(1, sizeof(*d));
		if (!d)
			return -ENOMEM;
	}
	if (c->kind == XBULK_CHANGE_DELETED ||
	    c->kind == XBULK_CHANGE_UNLINKED)
		op = c->path;
	else
		op = c->old_path;
	if (op)
		ret = set_add(&d->old, op, shown ? P_SHOWN : 0);
	if (!ret && c->new && c->path && c->kind != XBULK_CHANGE_UNLINKED)
		ret = set_add(&d->new, c->path,
			      S_ISDIR(c->new->bs_mode) ? P_DIR : 0);
	return ret;
}

/* Is the old path @p (of @len bytes) one --deleted0 lists? */
static bool
listed(const struct xb_diff_paths *d, const char *p, size_t len)
{
	const char *slash = memrchr(p, '/', len);
	const struct path_ent *e;

	if (set_find(&d->new, p, len))
		return false;			/* it exists in NEW */
	if (!slash)
		return true;			/* the top is a directory */
	len = (size_t)(slash - p);
	if (!set_find(&d->old, p, len))
		return true;			/* the parent is unchanged */
	e = set_find(&d->new, p, len);
	return e && (e->flags & P_DIR);
}

int
xb_diff_paths_deleted(struct xb_diff_out *o)
{
	struct xb_diff_paths *d = o->paths;
	size_t i;

	if (!d)
		return 0;
	if (set_seal(&d->old) || set_seal(&d->new))
		return -ENOMEM;
	for (i = 0; i < d->old.n; i++) {
		const char *p = d->old.buf + d->old.v[i].off;

		if ((d->old.v[i].flags & P_SHOWN) &&
		    listed(d, p, strlen(p))) {
			fputs(p, o->f);
			putc('\0', o->f);
		}
	}
	return 0;
}

void
xb_diff_paths_put(FILE *f, const struct xbulk_snap_change *c)
{
	if (c->path && c->kind != XBULK_CHANGE_DELETED &&
	    c->kind != XBULK_CHANGE_UNLINKED) {
		fputs(c->path, f);
		putc('\0', f);
	}
}

void
xb_diff_paths_free(struct xb_diff_out *o)
{
	struct xb_diff_paths *d = o->paths;

	if (!d)
		return;
	set_free(&d->old);
	set_free(&d->new);
	free(d);
	o->paths = NULL;
}
