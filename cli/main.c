// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk: walk every inode of a mounted XFS filesystem through the bulk
 * ioctls.  Dispatches to one file per command.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct {
	const char	*name;
	int		(*main)(int argc, char **argv);
	const char	*oneline;
} commands[] = {
	{ "bulkstat", xb_cmd_bulkstat, "Bulk stat of inodes in a filesystem" },
	{ "bulkstat_single", xb_cmd_bulkstat_single,
	  "Stat one inode in a filesystem" },
	{ "inumbers", xb_cmd_inumbers, "Query inode groups in a filesystem" },
	{ "du", xb_cmd_du, "Disk usage, as GNU du, by attribute, as a treemap" },
};

#define NR_COMMANDS	(sizeof(commands) / sizeof(commands[0]))

static void
usage(FILE *f)
{
	size_t i;

	fputs("Usage: xbulk COMMAND [options] PATH [args]\n"
	      "       xbulk COMMAND --help\n"
	      "       xbulk --help | --version\n"
	      "\n"
	      "Commands (as xfs_io's, byte for byte):\n", f);
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "   %-16s %s\n", commands[i].name,
			commands[i].oneline);
	fputs("\nPATH is any file or directory on a mounted XFS filesystem.\n"
	      "See xbulk(8).\n", f);
}

int
main(int argc, char **argv)
{
	size_t i;
	int ret;

	ret = xb_process_init();
	if (ret)
		return ret;
	if (argc < 2) {
		fputs("xbulk: missing COMMAND\nTry 'xbulk --help'.\n", stderr);
		return XB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return XB_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("xbulk %s\n", XBULK_VERSION_STRING);
		return XB_EXIT_OK;
	}
	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].main(argc - 1, argv + 1);
	fprintf(stderr, "xbulk: unknown command '%s'\n"
		"Try 'xbulk --help'.\n", argv[1]);
	return XB_EXIT_USAGE;
}
