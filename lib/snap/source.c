// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The snapshot object: a snapshot file (reader.c) or a live scan
 * (live.c) behind one interface, so that the writer and the diff take
 * either.  Each source's next() fills s->rec (decoded set), or only
 * s->raw, the encoded bytes, for snap_decode() to decode when asked:
 * the diff compares those first and decodes what differs.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "snap.h"

const struct xbulk_snap_info *
xbulk_snap_info(const struct xbulk_snap *s)
{
	return &s->info;
}

int
snap_fail(struct xbulk_snap *s, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->why, sizeof(s->why), fmt, ap);
	va_end(ap);
	return err;
}

const char *
snap_where(const struct xbulk_snap *s, char *buf, size_t size)
{
	if (!s->raw_block)
		return "";
	snprintf(buf, size, " (record %u of the block at byte %llu)",
		 s->raw_index, (unsigned long long)s->raw_block);
	return buf;
}

int
snap_next(struct xbulk_snap *s)
{
	int ret = s->ops->next(s);

	if (s->progress && (ret != 1 || ++s->unsent == SNAP_PROGRESS_EVERY)) {
		XBL_PROGRESS_ADD(s->progress, records, s->unsent);
		s->unsent = 0;
	}
	if (ret < 0 && !s->why[0])
		snap_fail(s, ret, "%s", strerror(-ret));
	return ret;
}

int
snap_decode(struct xbulk_snap *s)
{
	char where[80];
	int ret;

	if (s->decoded)
		return 0;
	ret = snap_decode_rec(&s->raw, &s->bs, &s->rec.flags, &s->links,
			      &s->lcap, &s->rec.nlinks);
	if (ret == -EBADMSG)
		return snap_fail(s, ret, "damaged record of inode %llu%s",
				 (unsigned long long)s->raw.ino,
				 snap_where(s, where, sizeof(where)));
	if (ret)
		return snap_fail(s, ret, "%s", strerror(-ret));
	s->rec.bs = &s->bs;
	s->rec.links = s->links;
	s->decoded = true;
	return 0;
}

int
xbulk_snap_next(struct xbulk_snap *s, const struct xbulk_snap_rec **rec)
{
	int ret = snap_next(s);

	*rec = NULL;
	if (ret == 1 && !s->decoded) {
		int err = snap_decode(s);

		if (err)
			return err;
	}
	if (ret == 1)
		*rec = &s->rec;
	return ret;
}

int
xbulk_snap_rewind(struct xbulk_snap *s)
{
	s->why[0] = '\0';
	return s->ops->rewind(s);
}

const char *
xbulk_snap_error(const struct xbulk_snap *s)
{
	return s->why[0] ? s->why : NULL;
}

long
xbulk_snap_path(const struct xbulk_snap *s, const struct xbulk_snap_link *l,
		char **buf, size_t *cap)
{
	return snap_dirtab_path(&s->dirs, l, buf, cap);
}

int
xbulk_snap_progress(struct xbulk_snap *s, struct xbulk_names_progress *p)
{
	if (p && p->size < XBL_SIZE_TO(struct xbulk_names_progress, records))
		return -EINVAL;
	s->progress = p;
	s->unsent = 0;
	return 0;
}

int
xbulk_snap_memory(const struct xbulk_snap *s, struct xbulk_memory_stats *m)
{
	struct xbulk_memory_stats none = { .size = sizeof(none) };

	if (s->names)
		return xbulk_names_memory(s->names, m);
	if (m->size < XBL_SIZE_TO(struct xbulk_memory_stats, tmpdir))
		return -EINVAL;
	xbl_sized_out(m, &none, sizeof(none),
		      XBL_SIZE_TO(struct xbulk_memory_stats, tmpdir));
	return 0;
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
