// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk export's walk over a snapshot's rows, below the command
 * (cli/export.c) and the two writers that call it (cli/export_sqlite.c,
 * cli/export_csv.c): each record, then the paths of its entries.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"

int
xb_export_each(struct xbulk_snap *s, const struct xb_export_sink *k, void *arg,
	       const volatile int *cancel)
{
	const struct xbulk_snap_info *info = xbulk_snap_info(s);
	const struct xbulk_snap_rec *rec;
	char *path = NULL, name[256];	/* a name has 1-255 bytes */
	size_t cap = 0;
	uint64_t n = 0;
	uint32_t i;
	long len;
	int ret;

	while ((ret = xbulk_snap_next(s, &rec)) == 1) {
		if ((++n % 1024) == 0 && *cancel) {
			ret = -EINTR;
			break;
		}
		ret = k->inode(arg, rec);
		if (!ret && rec->bs->bs_ino == info->top) {
			len = xbulk_snap_path(s, NULL, &path, &cap);
			ret = len < 0 ? (int)len :
			      k->entry(arg, rec->bs->bs_ino, NULL, "", path);
		}
		for (i = 0; !ret && i < rec->nlinks; i++) {
			len = xbulk_snap_path(s, &rec->links[i], &path, &cap);
			if (len == -ENOENT)
				continue;	/* a name no path reaches */
			memcpy(name, rec->links[i].name, rec->links[i].namelen);
			name[rec->links[i].namelen] = '\0';
			ret = len < 0 ? (int)len :
			      k->entry(arg, rec->bs->bs_ino, &rec->links[i],
				       name, path);
		}
		if (ret)
			break;
	}
	free(path);
	return ret;
}
