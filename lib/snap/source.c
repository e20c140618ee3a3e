// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The snapshot object: a snapshot file (reader.c) or a live scan
 * (live.c) behind one interface, so that the writer and the diff take
 * either.  Each source fills s->rec (and s->raw where it has the
 * encoded bytes) in its next().
 */
#include <errno.h>
#include <stdlib.h>

#include "snap.h"

const struct xbulk_snap_info *
xbulk_snap_info(const struct xbulk_snap *s)
{
	return &s->info;
}

int
xbulk_snap_next(struct xbulk_snap *s, const struct xbulk_snap_rec **rec)
{
	int ret = s->ops->next(s);

	*rec = ret == 1 ? &s->rec : NULL;
	return ret;
}

int
xbulk_snap_rewind(struct xbulk_snap *s)
{
	return s->ops->rewind(s);
}

long
xbulk_snap_path(const struct xbulk_snap *s, const struct xbulk_snap_link *l,
		char **buf, size_t *cap)
{
	return snap_dirtab_path(&s->dirs, l, buf, cap);
}

void
xbulk_snap_close(struct xbulk_snap *s)
{
	if (!s)
		return;
	s->ops->close(s);
	snap_dirtab_free(&s->dirs);
	free(s->links);
	free(s);
}
