// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk bulkstat: every inode's stat record, as xfs_io -c bulkstat.
 */
#include <stdio.h>

#include "watch.h"

static const char help[] =
"Usage: xbulk bulkstat [-a agno] [-d] [-e endino] [-j threads] [-m]\n"
"                      [-n batchsize] [-o text|jsonl|csv] [-q] [-s startino]\n"
"                      [-v 1|5]\n"
"                      [--stats[=text|json]] [--stats-file file]\n"
"                      [--progress] [--interval seconds] PATH\n"
"\n"
"Bulk-queries the filesystem for inode stat information and prints it,\n"
"byte for byte as xfs_io -c bulkstat.  PATH is any file or directory on\n"
"the XFS filesystem.\n"
"\n"
"   -a <agno>  Only iterate this AG.\n"
"   -d         Print debugging output (one line per ioctl; implies -j 1).\n"
"   -e <ino>   Stop after this inode (no ioctl is issued past it).\n"
"   -j <nr>    Scan with this many threads (default: online CPUs);\n"
"              the output is the same as with -j 1.\n"
XB_METADIR_HELP
"   -n <nr>    Ask for this many results at once (default 4096).\n"
XB_FORMAT_HELP
"   -q         Be quiet, no output: drive the kernel as hard as possible.\n"
"   -s <ino>   Inode to start with.\n"
"   -v <ver>   Use this version of the ioctl (1 or 5; default 5,\n"
"              falling back to 1 on kernels without it).\n"
XB_WATCH_HELP
"   -h, --help Show this help.\n";

/* xfs_io prints the cursor as a signed long long. */
static size_t
debug_line(char *dst, size_t room, const struct xfs_bulk_ireq *hdr)
{
	int n = snprintf(dst, room,
		"bulkstat: startino=%lld flags=0x%x agno=%u ret=0 icount=%u ocount=%u\n",
		(long long)hdr->ino, hdr->flags, hdr->agno, hdr->icount,
		hdr->ocount);

	return (size_t)n;
}

static const struct xb_scan_cmd bulkstat_cmd = {
	.name = "bulkstat",
	.kind = XBULK_KIND_BULKSTAT,
	.has_quiet = true,
	.has_metadir = true,
	.help = help,
	.rec_size = sizeof(struct xfs_bulkstat),
	.formats = xb_bulkstat_formats,
	.debug_line = debug_line,
};

enum xb_exit
xb_cmd_bulkstat(int argc, char **argv)
{
	return xb_scan_cmd_main(&bulkstat_cmd, argc, argv);
}
