/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libxbulk: walk every inode of a mounted XFS filesystem through the
 * kernel's bulk ioctls (bulkstat, inumbers) and format the records.
 *
 * One record type flows through the library: the kernel's v5
 * struct xfs_bulkstat and struct xfs_inumbers from <xfs/xfs.h>.  Results
 * of the v1 ioctls are converted into them once, in lib/ioctl.c.
 *
 * Every function that can fail returns 0 or a negative errno; nothing in
 * the library prints.
 *
 * The public API, by layer (each header names the files behind it):
 *
 *   xbulk/fs.h      open a filesystem, its geometry, inode numbers
 *   xbulk/ioctl.h   one bulkstat or inumbers call, the v5/v1 fallback
 *   xbulk/record.h  v1 and statx records into v5, a record's times
 *   xbulk/format.h  text (xfs_io 6.1 byte for byte), JSON Lines, CSV
 *   xbulk/out.h     the output buffer formatters append to
 *   xbulk/scan.h    the scan engine: serial and parallel ordered scans
 *   xbulk/stats.h   counters around a scan (CPU, devices, icache)
 *   xbulk/names.h   every inode's paths, walks in GNU find's order
 *   xbulk/du.h      du's accounting over a walk
 *   xbulk/find.h    GNU find's expression language
 *   xbulk/ids.h     names of owners, groups and projects by id
 *   xbulk/metadir.h the metadata directory tree's inodes (Linux 6.13)
 *   xbulk/parent.h  an inode's paths from parent pointers (Linux 6.10)
 *   xbulk/snapshot.h snapshots of a filesystem, and what changed
 *   xbulk/replace.h a file that replaces another when whole, safely as root
 *
 * These headers are the library's ABI.  libxbulk is built with
 * -fvisibility=hidden, and each header's "#pragma GCC visibility
 * push(default)" makes what it declares exported, and nothing else.
 * tests/pkg/test-symbols.sh checks that `nm -D` of libxbulk.so lists
 * exactly what they declare.  A struct that callers allocate starts with
 * a size field they set, or is opaque and made by the library; an
 * incompatible change changes the soname (docs/design.md, "Versions and
 * the soname"; tests/pkg/test-abi.sh).
 */
#ifndef XBULK_H
#define XBULK_H

#include "xbulk/fs.h"
#include "xbulk/ioctl.h"
#include "xbulk/record.h"
#include "xbulk/format.h"
#include "xbulk/out.h"
#include "xbulk/scan.h"
#include "xbulk/stats.h"
#include "xbulk/names.h"
#include "xbulk/du.h"
#include "xbulk/find.h"
#include "xbulk/ids.h"
#include "xbulk/metadir.h"
#include "xbulk/parent.h"
#include "xbulk/snapshot.h"
#include "xbulk/replace.h"

#endif /* XBULK_H */
