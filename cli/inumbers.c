// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk inumbers: one record per allocated inode chunk, as xfs_io -c
 * inumbers.
 */
#include <inttypes.h>
#include <stdio.h>

#include "watch.h"

static const char help[] =
"Usage: xbulk inumbers [-a agno] [-d] [-e endino] [-j threads] [-n batchsize]\n"
"                      [-o text|jsonl|csv] [-s startino] [-v 1|5]\n"
"                      [--stats[=text|json]] [--stats-file file]\n"
"                      [--progress] [--interval seconds] PATH\n"
"\n"
"Queries the filesystem for inode chunk allocation information and prints\n"
"it, byte for byte as xfs_io -c inumbers: one record per 64-inode chunk.\n"
"PATH is any file or directory on the XFS filesystem.\n"
"\n"
"   -a <agno>  Only iterate this AG.\n"
"   -d         Print debugging output (one line per ioctl; implies -j 1).\n"
"   -e <ino>   Stop after the chunk holding this inode number.\n"
"   -j <nr>    Scan with this many threads (default: online CPUs);\n"
"              the output is the same as with -j 1.\n"
"   -n <nr>    Ask for this many results at once (default 4096).\n"
XB_FORMAT_HELP
"   -s <ino>   Inode to start with.\n"
"   -v <ver>   Use this version of the ioctl (1 or 5; default 5,\n"
"              falling back to 1 on kernels without it).\n"
XB_WATCH_HELP
"   -h, --help Show this help.\n";

/* Unlike xfs_io, whose inumbers -d lines say "bulkstat:". */
static size_t
debug_line(char *dst, size_t room, const struct xfs_bulk_ireq *hdr)
{
	int n = snprintf(dst, room,
		"inumbers: startino=%" PRIu64 " flags=0x%x agno=%u ret=0 icount=%u ocount=%u\n",
		(uint64_t)hdr->ino, hdr->flags, hdr->agno, hdr->icount,
		hdr->ocount);

	return (size_t)n;
}

static const struct xb_scan_cmd inumbers_cmd = {
	.name = "inumbers",
	.kind = XBULK_KIND_INUMBERS,
	.has_quiet = false,
	.help = help,
	.rec_size = sizeof(struct xfs_inumbers),
	.formats = xb_inumbers_formats,
	.debug_line = debug_line,
};

enum xb_exit
xb_cmd_inumbers(int argc, char **argv)
{
	return xb_scan_cmd_main(&inumbers_cmd, argc, argv);
}
