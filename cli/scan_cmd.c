// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The driver shared by "xbulk bulkstat" and "xbulk inumbers": the same
 * options as xfs_io's commands, a scan of the range they name, each batch
 * formatted into one large output buffer.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "watch.h"

struct scan_opts {
	struct xbulk_scan	scan;
	enum xbulk_abi		abi;
	bool			debug;
	bool			quiet;
	bool			metadir;	/* -m */
	enum xb_format		format;
	struct xb_watch		watch;		/* --stats, --interval... */
	const char		*path;
	bool			help;		/* --help printed: done */
};

/* What a batch is formatted with (shared by all workers, read-only). */
struct emit {
	const struct xb_scan_cmd	*cmd;
	const char			*path;
	const struct xb_formatter	*fmt;
	bool				debug;
	bool				quiet;
	uint64_t			*inodes;	/* inumbers: count
							   them here */
	char				*hint_mnt;	/* xb_hint_mount() */
};

/* Longest -d line: six numbers of at most 20 digits and the labels. */
#define DEBUG_LINE_MAX	256

static int
emit_batch(void *arg, struct xbulk_out *out, const struct xfs_bulk_ireq *hdr,
	   const void *recs, uint32_t nrecs)
{
	const struct emit *e = arg;
	const struct xb_scan_cmd *cmd = e->cmd;
	const char *rec = recs;
	uint32_t i;
	char *p;
	int err;

	if (e->inodes) {
		const struct xfs_inumbers *xi = recs;
		uint64_t sum = 0;

		for (i = 0; i < nrecs; i++)
			sum += xi[i].xi_alloccount;
		__atomic_add_fetch(e->inodes, sum, __ATOMIC_RELAXED);
	}
	if (e->debug) {
		p = xbulk_out_room(out, DEBUG_LINE_MAX, &err);
		if (!p)
			return err;
		out->len += cmd->debug_line(p, DEBUG_LINE_MAX, hdr);
	}
	if (e->quiet)
		return 0;
	for (i = 0; i < nrecs; i++, rec += cmd->rec_size) {
		p = xbulk_out_room(out, e->fmt->max, &err);
		if (!p)
			return err;
		out->len += e->fmt->format(p, rec);
	}
	return 0;
}

/* Parse a number option into @out; XB_EXIT_OK or XB_EXIT_USAGE. */
static enum xb_exit
number_opt(const char *cmd, char opt, const char *arg, uint64_t max,
	   uint64_t *out)
{
	char name[3] = { '-', opt, 0 };
	int err = xb_parse_u64(arg, max, out);

	return err ? xb_bad_number(cmd, name, arg, err, max) : XB_EXIT_OK;
}

/* XB_EXIT_OK to go on with the scan (or, with @o->help, to stop after
 * --help), else the exit status of a usage error. */
static enum xb_exit
parse_opts(const struct xb_scan_cmd *cmd, int argc, char **argv,
	   struct scan_opts *o)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		XB_WATCH_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	enum xb_exit ret;
	uint64_t v;
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":a:de:hj:mn:o:qs:v:", longopts,
				NULL)) != -1) {
		ret = XB_EXIT_OK;
		switch (c) {
		case 'a':
			ret = number_opt(cmd->name, 'a', optarg, UINT32_MAX,
					 &v);
			o->scan.has_agno = true;
			o->scan.agno = (uint32_t)v;
			break;
		case 'd':
			o->debug = true;
			break;
		case 'e':
			ret = number_opt(cmd->name, 'e', optarg, UINT64_MAX,
					 &o->scan.endino);
			break;
		case 'h':
			fputs(cmd->help, stdout);
			o->help = true;
			return XB_EXIT_OK;
		case 'j':
			ret = number_opt(cmd->name, 'j', optarg,
					 XB_MAX_THREADS, &v);
			if (!ret && v == 0)
				ret = xb_usage_error(cmd->name,
					"-j: at least 1 thread is needed");
			o->scan.threads = (unsigned int)v;
			break;
		case 'm':
			if (!cmd->has_metadir)
				goto unknown;
			o->metadir = true;
			break;
		case 'n':
			ret = number_opt(cmd->name, 'n', optarg, UINT32_MAX,
					 &v);
			if (!ret && v == 0)
				ret = xb_usage_error(cmd->name,
					"-n: batch size must be at least 1");
			o->scan.batch = (uint32_t)v;
			break;
		case 'o':
			ret = xb_parse_format(cmd->name, optarg, &o->format);
			break;
		case 'q':
			if (!cmd->has_quiet)
				goto unknown;
			o->quiet = true;
			break;
		case 's':
			ret = number_opt(cmd->name, 's', optarg, UINT64_MAX,
					 &o->scan.startino);
			break;
		case 'v':
			ret = xb_parse_abi(cmd->name, optarg, &o->abi);
			break;
		case XB_OPT_STATS:
		case XB_OPT_STATS_FILE:
		case XB_OPT_PROGRESS:
		case XB_OPT_INTERVAL:
			ret = xb_watch_option(&o->watch, cmd->name, c, optarg);
			break;
		case ':':
			return xb_usage_error(cmd->name,
				"option '%s' needs a value", argv[optind - 1]);
		default:
unknown:
			return xb_usage_error(cmd->name, "unknown option '%s'",
					      argv[optind - 1]);
		}
		if (ret)
			return ret;
	}
	if (o->debug && o->format != XB_FORMAT_TEXT)
		return xb_usage_error(cmd->name, "-d works only with -o text");
	if (optind >= argc)
		return xb_usage_error(cmd->name, "missing PATH");
	if (optind + 1 < argc)
		return xb_usage_error(cmd->name, "unexpected argument '%s'",
				      argv[optind + 1]);
	o->path = argv[optind];
	return XB_EXIT_OK;
}

/* A scan steps past an inode the kernel cannot read: name it, and how
 * to find its paths. */
static void
report_bad_inode(void *arg, uint64_t ino, int err)
{
	const struct emit *e = arg;
	char what[24];

	snprintf(what, sizeof(what), "%llu", (unsigned long long)ino);
	xb_report_unreadable(e->cmd->name, e->hint_mnt, what, ino, err);
}

/* A scan gives up the rest of an AG the kernel cannot walk: say why. */
static void
report_ag_fault(void *arg, const struct xbulk_ag_fault *f)
{
	const struct emit *e = arg;
	char text[XB_AG_FAULT_TEXT];

	xb_ag_fault_text(f, text, sizeof(text));
	xb_error(e->cmd->name, "%s: %s", e->path, text);
}

/* Run the scan and report; returns the exit status. */
static enum xb_exit
run_scan(const struct xb_scan_cmd *cmd, struct scan_opts *o,
	 struct xbulk_fs *fs)
{
	struct emit e = {
		.cmd = cmd,
		.path = o->path,
		.fmt = &cmd->formats[o->format],
		.debug = o->debug,
		.quiet = o->quiet,
	};
	struct xbulk_scan_result res = { .size = sizeof(res) };
	char why[XB_THREAD_TEXT];
	enum xb_exit ret;
	int err;

	/* -d shows xfs_io's sequence of ioctls: that is the serial scan. */
	if (o->debug)
		o->scan.threads = 1;
	/* -q: nothing to keep in order (-d's lines come serially) */
	o->scan.out_fd = o->quiet && !o->debug ? -1 : xb_stdout_fd();
	o->scan.batch_fn = emit_batch;
	o->scan.bad_inode_fn = report_bad_inode;
	o->scan.ag_fault_fn = report_ag_fault;
	o->scan.arg = &e;
	o->scan.cancel = xb_catch_signals();
	/* The CSV header, once, before any worker writes a record. */
	if (!o->quiet) {
		err = xb_write_header(o->scan.out_fd, e.fmt);
		if (err)
			return xb_write_error(cmd->name, err);
	}
	o->watch.records_quiet = o->quiet;
	ret = xb_watch_begin(&o->watch, cmd->name, o->path, fs, &o->scan);
	if (ret)
		return ret;
	if (o->scan.live && cmd->kind == XBULK_KIND_INUMBERS)
		e.inodes = &o->watch.inodes;
	e.hint_mnt = xb_hint_mount(o->path);
	xbulk_scan_run(fs, &o->scan, &res);
	free(e.hint_mnt);
	if (xb_watch_end(&o->watch, &res) && res.fail == XBULK_SCAN_OK)
		return XB_EXIT_FAILURE;
	switch (res.fail) {
	case XBULK_SCAN_OK:
		if (!res.bad_inodes && !res.ag_faults)
			return XB_EXIT_OK;
		if (res.bad_inodes)
			xb_error(cmd->name, "%s: %llu inode%s could not be read",
				 o->path, (unsigned long long)res.bad_inodes,
				 res.bad_inodes == 1 ? "" : "s");
		if (res.ag_faults)
			xb_error(cmd->name, "%s: %llu AG%s could not be scanned to the end",
				 o->path, (unsigned long long)res.ag_faults,
				 res.ag_faults == 1 ? "" : "s");
		return XB_EXIT_FAILURE;
	case XBULK_SCAN_CANCELLED:
		return xb_signal_exit_status();
	case XBULK_SCAN_FAIL_OUTPUT:
		return xb_write_error(cmd->name, res.err);
	case XBULK_SCAN_FAIL_SETUP:
		/* the setup's only EAGAIN is pthread_create()'s */
		xb_error(cmd->name, "cannot set up the scan (-n %u, -j %u): %s",
			 o->scan.batch, o->scan.threads,
			 res.err == -EAGAIN ?
			 xb_thread_text(res.err, why, sizeof(why)) :
			 strerror(-res.err));
		return XB_EXIT_FAILURE;
	default:
		return xb_ioctl_error(cmd->name, fs, o->path, cmd->name,
				      res.err);
	}
}

enum xb_exit
xb_scan_cmd_main(const struct xb_scan_cmd *cmd, int argc, char **argv)
{
	struct scan_opts o = {
		.scan = {
			.size = sizeof(struct xbulk_scan),
			.kind = cmd->kind,
			.endino = UINT64_MAX,
			.batch = XB_DEFAULT_BATCH,
			.threads = xb_online_cpus(),
		},
	};
	struct xbulk_fs *fs;
	enum xb_exit ret;

	ret = parse_opts(cmd, argc, argv, &o);
	if (ret || o.help)
		return ret;
	ret = xb_open_fs(cmd->name, o.path, o.abi, &fs);
	if (ret)
		return ret;
	if (o.metadir)
		ret = xb_set_metadir(cmd->name, fs, o.path);
	if (ret) {
		/* the message is printed */
	} else if (o.scan.has_agno && o.scan.agno >= xbulk_fs_geometry(fs)->agcount) {
		ret = xb_usage_error(cmd->name,
			"-a: AG %u does not exist (%s has %u AGs)",
			o.scan.agno, o.path, xbulk_fs_geometry(fs)->agcount);
	} else if (o.scan.has_agno && o.scan.startino &&
		   xbulk_ino_to_agno(fs, o.scan.startino) < o.scan.agno) {
		ret = xb_usage_error(cmd->name,
			"-s: inode %llu is in AG %u, before AG %u of -a",
			(unsigned long long)o.scan.startino,
			xbulk_ino_to_agno(fs, o.scan.startino), o.scan.agno);
	} else {
		ret = run_scan(cmd, &o, fs);
	}
	xbulk_fs_close(fs);
	return ret;
}
