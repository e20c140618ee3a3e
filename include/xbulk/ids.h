/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libxbulk: names of owners, groups and XFS projects by id, each id looked
 * up once (lib/ids.c).  Part of <xbulk.h>: include that.
 */
#ifndef XBULK_IDS_H
#define XBULK_IDS_H

#include <stdint.h>

#pragma GCC visibility push(default)

/*
 * A cache of id -> name (opaque): users and groups from NSS
 * (getpwuid_r(), getgrgid_r()), projects from /etc/projid ("name:id"
 * lines, as xfs_quota reads them, read once).  Hashed: a scan of millions
 * of inodes asks NSS once per distinct id.  One thread at a time.
 */
struct xbulk_ids;

/** xbulk_ids_new() - an empty cache; Return: 0 or -ENOMEM */
int xbulk_ids_new(struct xbulk_ids **ids);
/** xbulk_ids_free() - NULL is fine */
void xbulk_ids_free(struct xbulk_ids *ids);

/*
 * The name of user @uid, group @gid or project @projid, or NULL when there
 * is none (or no memory).  The string lives as long as @ids.
 */
const char *xbulk_ids_user(struct xbulk_ids *ids, uint32_t uid);
const char *xbulk_ids_group(struct xbulk_ids *ids, uint32_t gid);
const char *xbulk_ids_project(struct xbulk_ids *ids, uint32_t projid);

#pragma GCC visibility pop

#endif /* XBULK_IDS_H */
