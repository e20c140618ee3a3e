// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk: walk every inode of a mounted XFS filesystem through the bulk
 * ioctls.  Dispatches to one file per command.
 *
 * `xbulk help` lists the commands below, one line each, and `xbulk CMD
 * --help` shows a command's options.  The shell completion
 * (completion/xbulk) and tests/pkg/test-help-man.sh read both, so a new
 * command needs only its line here, its --help and its part of the man
 * page.  Their shape, which both parse:
 *   - `xbulk help`: each command on a line of its own below "Commands:",
 *     indented, its name first;
 *   - `xbulk CMD --help`: a "Usage:" synopsis (PATH, `[PATH]...`:
 *     completed with XFS mount points), then a line per option, indented
 *     by 1 to 8 columns, all its names first (`-o, --format <fmt>`,
 *     `-a <agno>`, `--stats[=text|json]`), its argument in angle brackets
 *     (`<file>` completes file names); a fixed set of values shows as
 *     `<text|jsonl|csv>` there or as `[-o text|jsonl|csv]` in the
 *     synopsis.  Description lines are indented deeper.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* A command: its arguments from its name on; its exit status. */
typedef enum xb_exit cmd_fn(int argc, char **argv);

static cmd_fn cmd_help;

static const struct {
	const char	*name;
	cmd_fn		*main;
	const char	*oneline;
} commands[] = {
	{ "bulkstat", xb_cmd_bulkstat,
	  "Bulk stat of inodes in a filesystem (as xfs_io)" },
	{ "bulkstat_single", xb_cmd_bulkstat_single,
	  "Stat one inode in a filesystem (as xfs_io)" },
	{ "inumbers", xb_cmd_inumbers,
	  "Query inode groups in a filesystem (as xfs_io)" },
	{ "du", xb_cmd_du,
	  "Disk usage, as GNU du; by owner, type, age...; a treemap" },
	{ "find", xb_cmd_find, "GNU find's expressions, from bulkstat" },
	{ "snapshot", xb_cmd_snapshot,
	  "Record every inode and name to a file, for diff" },
	{ "diff", xb_cmd_diff,
	  "What changed between a snapshot and another, or the fs now" },
	{ "export", xb_cmd_export,
	  "A snapshot as SQLite tables or CSV files" },
	{ "path", xb_cmd_path, "Every path of inodes, from parent pointers" },
	{ "help", cmd_help, "List the commands, or show one command's help" },
};

#define NR_COMMANDS	(sizeof(commands) / sizeof(commands[0]))

static void
usage(FILE *f)
{
	size_t i;

	fputs("Usage: xbulk COMMAND [options] PATH [args]\n"
	      "       xbulk help [COMMAND]\n"
	      "       xbulk --help | --version\n"
	      "\n"
	      "Commands:\n", f);
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "   %-16s %s\n", commands[i].name,
			commands[i].oneline);
	fputs("\n"
	      "Options:\n"
	      "   -h, --help     Show this help.\n"
	      "   -V, --version  Show the version.\n"
	      "\n"
	      "PATH is any file or directory on a mounted XFS filesystem.\n"
	      "'xbulk COMMAND --help' shows a command's options; see xbulk(8).\n",
	      f);
}

static enum xb_exit
unknown_command(const char *name)
{
	fprintf(stderr, "xbulk: unknown command '%s'\n"
		"Try 'xbulk --help'.\n", name);
	return XB_EXIT_USAGE;
}

/* The command called @name, or NULL. */
static cmd_fn *
find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return commands[i].main;
	return NULL;
}

static const char help_help[] =
"Usage: xbulk help [COMMAND]\n"
"\n"
"Lists xbulk's commands, one line each, or shows COMMAND's help (as\n"
"xbulk COMMAND --help does).\n"
"\n"
"   -h, --help Show this help.\n";

/* xbulk help [COMMAND]: the command list, or COMMAND --help. */
static enum xb_exit
cmd_help(int argc, char **argv)
{
	cmd_fn *cmd;
	char *help_argv[3];

	if (argc < 2) {
		usage(stdout);
		return XB_EXIT_OK;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(help_help, stdout);
		return XB_EXIT_OK;
	}
	if (argv[1][0] == '-') {
		fprintf(stderr, "xbulk help: unknown option '%s'\n"
			"Try 'xbulk help --help'.\n", argv[1]);
		return XB_EXIT_USAGE;
	}
	if (argc > 2) {
		fputs("xbulk help: too many arguments\n"
		      "Try 'xbulk help --help'.\n", stderr);
		return XB_EXIT_USAGE;
	}
	cmd = find_command(argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
	help_argv[0] = argv[1];
	help_argv[1] = (char *)"--help";
	help_argv[2] = NULL;
	return cmd(2, help_argv);
}

int
main(int argc, char **argv)
{
	enum xb_exit ret;
	cmd_fn *cmd;

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
	cmd = find_command(argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
	return cmd(argc - 1, argv + 1);
}
