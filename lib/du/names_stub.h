/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* TEMPORARY: the names engine's walk types from the lead's sketch, until
 * NAMES lands its header on main. */
#ifndef XBULK_NAMES_STUB_H
#define XBULK_NAMES_STUB_H
#include <stddef.h>
#include <stdint.h>
#include <xfs/xfs.h>

struct xbulk_entry {
	const char			*path;
	size_t				pathlen;
	size_t				name_off;
	unsigned int			depth;
	const struct xfs_bulkstat	*bs;
	uint64_t			nentries;
	uint32_t			flags;
};
#define XBULK_ENTRY_MOUNTPOINT	(1u << 0)
enum xbulk_visit { XBULK_VISIT_PRE, XBULK_VISIT_POST };
#define XBULK_WALK_PRUNE	1
#define XBULK_WALK_STOP		2
#endif
