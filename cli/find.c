// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk find: GNU find's expressions over the names engine (a bulkstat
 * scan plus a read of every directory), in find's order.  Thin: the
 * language is lib/find, the walk lib/names; this file picks the options,
 * opens the outputs, prints messages and chooses exit statuses.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "snap.h"

static const char help[] =
"Usage: xbulk find [-j threads] [--format jsonl|csv] [--no-sync]\n"
"                  [--memory size] [--tmpdir dir] [--stats[=text|json]]\n"
"                  [--stats-file file] [--progress]\n"
"                  [--strategy scan|walk|names|auto] [PATH...]\n"
"                  [EXPRESSION]\n"
"   or: xbulk find --snapshot file [PATH...] [EXPRESSION]\n"
"\n"
"GNU find's expressions, answered from one bulkstat scan and one read of\n"
"every directory instead of a stat() per file.  The PATHs are on one\n"
"mounted XFS filesystem (the whole mount or a subtree; -xdev is implied);\n"
"off XFS, with -L, or for an expression of names only, a plain walk\n"
"(readdir, and stat() where find's would) answers instead.\n"
"The output is find's, in find's order.  A scan needs CAP_SYS_ADMIN,\n"
"CAP_DAC_READ_SEARCH and CAP_FOWNER (root has them).  The scan changes\n"
"nothing; -exec, -execdir, -ok, -okdir and -delete act as find's, in\n"
"find's order.\n"
"Every primary, option, XFS extension and difference from GNU find:\n"
"xbulk(8).\n"
"\n"
"   -j <nr>    Scan and read directories with this many threads each\n"
"              (default: online CPUs); the output is the same.\n"
"   --format <fmt>\n"
"              Make -print write the whole bulkstat record as jsonl or\n"
"              csv, with the path (docs/formats.md).\n"
"   --no-sync  Do not syncfs() the filesystem before a scan that reads\n"
"              sizes: data not yet written back then has its size on disk.\n"
XB_MEMORY_HELP
XB_STATS_HELP
XB_PROGRESS_HELP
XB_STRATEGY_HELP
"              Or names: walk as GNU find does (readdir, and stat() only\n"
"              where find's would), no bulkstat; auto's choice when the\n"
"              expression reads names and types only.\n"
"   --snapshot <file>\n"
"              Answer from this snapshot file (xbulk snapshot), not the\n"
"              filesystem: PATHs are the snapshot's (relative to its\n"
"              mount's top, or under its mount point), the output that of\n"
"              a find at its moment in another order; what it cannot\n"
"              answer (-lname, -exec, -readable, %l...) is refused.\n"
"   -h, --help Show this help.\n"
"\n"
"Options, tests and actions of the expression (as GNU find's):\n";

/*
 * --help: the text above, then the lists from the library's table
 * (xbulk_find_primary()), each group's names after its heading, wrapped
 * at 72 columns; the refused ones on their heading's line (the
 * completion offers none of them).
 */
static void
print_help(void)
{
	static const struct {
		enum xbulk_find_primary_kind	kind;
		const char			*heading;	/* before */
	} groups[] = {
		{ XBULK_FIND_OPTION, NULL },
		{ XBULK_FIND_TEST, NULL },
		{ XBULK_FIND_ACTION, NULL },
		{ XBULK_FIND_XFS_TEST, "XFS tests (directives of -printf: %Xe "
		  "%Xa %Xp %Xx %XX %Xs %Xc %Xg):\n" },
		{ XBULK_FIND_REFUSED, "Refused (xbulk(8) says why):" },
	};
	enum xbulk_find_primary_kind kind;
	const char *name;
	size_t g, i, col;

	fputs(help, stdout);
	for (g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		bool inline_list = groups[g].kind == XBULK_FIND_REFUSED;

		if (groups[g].heading)
			fputs(groups[g].heading, stdout);
		col = 0;
		for (i = 0; (name = xbulk_find_primary(i, &kind)); i++) {
			if (kind != groups[g].kind)
				continue;
			if (!inline_list && (!col ||
					     col + 1 + strlen(name) > 72)) {
				if (col)
					putchar('\n');
				col = (size_t)printf("  ");
			}
			col += (size_t)printf(" %s", name);
		}
		if (inline_list || col)
			putchar('\n');
	}
}

/* @name quoted as GNU find's messages quote file names, in buffer @slot
 * (0 or 1) until that slot is used again. */
static const char *
q(unsigned int slot, const char *name)
{
	static struct { char *p; size_t cap; } b[2];
	size_t len = xbulk_find_quote(b[slot].p, b[slot].cap, name);

	if (len >= b[slot].cap) {
		char *p = realloc(b[slot].p, len + 1);

		if (!p)
			return "?";
		b[slot].p = p;
		b[slot].cap = len + 1;
		xbulk_find_quote(p, len + 1, name);
	}
	return b[slot].p;
}

struct find_ctx {
	struct xbulk_find	*find;
	struct xbulk_names	*names;
	/* --snapshot: the file, and its walks in place of the names' */
	const char		*snap_path;
	struct xbulk_snap	*snap;
	struct xbulk_snap_tree	*tree;
	const char		*start;		/* the PATH being walked */
	const char		*fs_path;	/* the PATH whose fs is open */
	enum xb_exit		status;		/* FAILURE after a problem */
	const volatile int	*cancel;	/* SIGINT, SIGTERM caught */
	/* the PATHs: the operands, or -files0-from's names ("" for an
	 * empty one, said where find says it) */
	const char		**paths;
	size_t			npaths;
	char			*files0;	/* -files0-from's bytes */
	const char		*files0_name;	/* quoted, for messages */
	int			files0_err;	/* reading it failed */
	unsigned int		walk_flags;	/* XBULK_WALK_* */
};

static void
warn(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "xbulk find: %s\n", msg);
}

/*
 * A file that could not be handled.  What was printed before it goes out
 * first (gnulib's error() flushes stdout), so that output and messages
 * sent to one file or terminal keep find's order.
 */
static void
problem(void *arg, const char *path, int err)
{
	struct find_ctx *c = arg;

	xbulk_find_flush(c->find);
	fprintf(stderr, "xbulk find: %s: %s%s\n", q(0, path), strerror(-err),
		xb_dir_open_hint(err));
	c->status = XB_EXIT_FAILURE;
}

/* A message of the actions (find's wording), in the child too. */
static void
action_error(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "xbulk find: %s\n", msg);
}

/* Does stdin's buffer hold bytes (gnulib's freadahead() on glibc)?
 * Elsewhere: yes, read without waiting for a signal. */
static bool
stdin_buffered(void)
{
#ifdef __GLIBC__
	return stdin->_IO_read_ptr < stdin->_IO_read_end;
#else
	return true;
#endif
}

/*
 * -ok, -okdir: find's yesno() (a line from stdin by getline(), the
 * locale's yes).  Until the line is there, poll() stdin: a signal
 * interrupts it (SA_RESTART restarts read()), and a SIGINT or SIGTERM
 * ends the wait as it ends find.
 */
static bool
ask(void *arg, const char *prompt)
{
	struct find_ctx *c = arg;
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	bool yes;
	int n;

	fputs(prompt, stderr);
	fflush(stderr);
	while (!stdin_buffered() && !*c->cancel) {
		n = poll(&p, 1, 100);
		if (n > 0 || (n < 0 && errno != EINTR))
			break;
	}
	if (*c->cancel)
		return false;
	len = getline(&line, &cap, stdin);
	if (len > 0 && line[len - 1] == '\n')
		line[len - 1] = '\0';
	yes = len > 0 && rpmatch(line) > 0;
	free(line);
	return yes;
}

/* The expression changed the filesystem: the walk goes on live. */
static void
changed(void *arg)
{
	struct find_ctx *c = arg;

	xbulk_names_changed(c->names);
}

static int
dir_fd(void *arg, const struct xbulk_entry *file)
{
	struct find_ctx *c = arg;

	return xbulk_names_dir_fd(c->names, file);
}

static int
restat(void *arg, const struct xbulk_entry *file, struct xbulk_entry *out)
{
	struct find_ctx *c = arg;

	return xbulk_names_restat(c->names, file, out);
}

static long
read_link(void *arg, const struct xbulk_entry *file, char *buf,
	  size_t size)
{
	struct find_ctx *c = arg;

	/* not by handle: a mount point, or a file the walk has no record
	 * of (the tree changed), in its directory as the walk reached it
	 * (an operand by its path) */
	if (file->flags & (XBULK_ENTRY_MOUNT | XBULK_ENTRY_LAZY |
			   XBULK_ENTRY_LIVE)) {
		int at = file->depth ? xbulk_names_dir_fd(c->names, file) :
				       -EINVAL;
		ssize_t n;

		if (at == -EINVAL)
			n = readlink(file->path, buf, size);
		else if (at < 0)
			return at == -ESTALE ? -ENOENT : at;
		else
			n = readlinkat(at, file->path + file->name_off, buf,
				       size);
		return n < 0 ? -errno : n;
	}
	return xbulk_names_readlink(c->names, file->bs, buf, size);
}

static void
names_problem(void *arg, const struct xbulk_names_problem *p)
{
	struct find_ctx *c = arg;
	static const char *const what[] = {
		[XBULK_PROBLEM_UNREADABLE] = "cannot read directory",
		[XBULK_PROBLEM_BAD_INODE] = "cannot read inode",
		[XBULK_PROBLEM_DIR_LINK] = "directory listed twice (not "
					   "followed here)",
		[XBULK_PROBLEM_DOTDOT] = "directory whose '..' does not list "
					 "it",
		[XBULK_PROBLEM_CYCLE] = "directory in a cycle of parents",
	};
	char text[XB_AG_FAULT_TEXT];

	if (p->kind == XBULK_PROBLEM_UNREADABLE)
		return;			/* said if the walk descends there */
	c->status = XB_EXIT_FAILURE;
	if (p->kind == XBULK_PROBLEM_AG_FAULT) {
		xb_ag_fault_text(p->ag_fault, text, sizeof(text));
		xb_error("find", "%s: %s (the names of its inodes are left "
			 "out)", q(0, p->path), text);
		return;
	}
	/* during the build: xb_error() erases a --progress line first */
	if (p->path)
		xb_error("find", "%s: %s%s%s", q(0, p->path), what[p->kind],
			 p->err ? ": " : "", p->err ? strerror(-p->err) : "");
	else
		xb_error("find", "inode %llu: %s%s%s",
			 (unsigned long long)p->ino, what[p->kind],
			 p->err ? ": " : "", p->err ? strerror(-p->err) : "");
}

/* The directory that holds @path, into @buf (PATH_MAX): "." for a bare
 * name. */
static const char *
parent_dir(const char *path, char *buf)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		strcpy(buf, ".");
	else
		snprintf(buf, PATH_MAX, "%.*s", slash == path ? 1 :
			 (int)(slash - path), path);
	return buf;
}

/* Open a -fprint FILE as find does (fopen "w": created, or truncated);
 * the fd, or -1 after a message. */
static int
open_output(const char *name)
{
	int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY |
			    O_CLOEXEC, 0666);

	if (fd < 0)
		xb_error("find", "%s: %s", q(0, name), strerror(errno));
	return fd;
}

/* Give the outputs their fds: stdout (-1 if it was closed: writing to it
 * fails), /dev/stderr, and the -fprint FILEs (opened as find opens them,
 * before the walk: a FILE on the scanned filesystem is in the scan). */
static enum xb_exit
open_outputs(struct xbulk_find *f)
{
	size_t i, j, n = xbulk_find_noutputs(f);
	struct stat *st = calloc(n, sizeof(*st));
	enum xb_exit ret = XB_EXIT_OK;
	int fd = xb_stdout_fd();

	if (!st || xbulk_find_set_output(f, 0, fd, fd >= 0 && isatty(fd)))
		ret = XB_EXIT_FAILURE;
	for (i = 1; !ret && i < n; i++) {
		const char *name = xbulk_find_output_name(f, i);

		if (!strcmp(name, "/dev/stderr"))
			fd = STDERR_FILENO;
		else if ((fd = open_output(name)) < 0 || fstat(fd, &st[i]))
			ret = XB_EXIT_FAILURE;
		/* a file named twice: one stream (find's sharefile; st_nlink
		 * 0: /dev/stderr, not opened) */
		for (j = 1; !ret && fd != STDERR_FILENO && j < i; j++) {
			if (st[j].st_ino == st[i].st_ino && st[j].st_nlink &&
			    st[j].st_dev == st[i].st_dev) {
				close(fd);
				fd = -1;
				ret = xbulk_find_share_output(f, i, j) ?
				      XB_EXIT_FAILURE : XB_EXIT_OK;
				break;
			}
		}
		if (!ret && fd >= 0 && xbulk_find_set_output(f, i, fd,
							     isatty(fd)))
			ret = XB_EXIT_FAILURE;
	}
	free(st);
	return ret;
}

/*
 * After the walk: each output's write error, as find names them (the
 * FILE; stdout as xbulk's other commands do, exit 141 on EPIPE).
 */
static enum xb_exit
output_errors(struct xbulk_find *f)
{
	enum xb_exit ret = XB_EXIT_OK;
	size_t i;
	int err;

	xbulk_find_flush(f);
	for (i = 1; i < xbulk_find_noutputs(f); i++) {
		err = xbulk_find_output_error(f, i);
		if (err) {
			xb_error("find", "%s: %s",
				 q(0, xbulk_find_output_name(f, i)),
				 strerror(-err));
			ret = XB_EXIT_FAILURE;
		}
	}
	err = xbulk_find_output_error(f, 0);
	return err ? xb_write_error("find", err) : ret;
}

/* find's message for PATH @i, empty: of the command line, or of
 * -files0-from (with its number there). */
static void
empty_name(const struct find_ctx *c, size_t i)
{
	if (c->files0_name)
		xb_error("find", "%s:%zu: invalid zero-length file name",
			 c->files0_name, i + 1);
	else
		xb_error("find", "%s: %s", q(0, ""), strerror(ENOENT));
}

/* find's messages for the PATHs before @n that do not exist (none is
 * walked: the run fails). */
static void
missing(const struct find_ctx *c, size_t n)
{
	struct stat st;
	size_t i;

	for (i = 0; i < n; i++) {
		const char *path = c->paths[i];

		if (!*path)
			empty_name(c, i);
		else if (lstat(path, &st))
			xb_error("find", "%s: %s", q(0, path),
				 strerror(errno));
	}
}

/*
 * Open the filesystem of the first PATH that exists (as find -P sees
 * it: a symbolic link, a FIFO, a device is opened by its directory; it
 * names the filesystem in later messages), named in the message when it
 * fails, after find's messages for the PATHs before it; when none
 * exists, find's message for each.  With @plain_ok a filesystem that is
 * not XFS is no failure: *@fs stays NULL (a plain walk needs none).
 */
static enum xb_exit
open_fs(struct find_ctx *c, bool plain_ok, struct xbulk_fs **fs)
{
	size_t i, n = c->npaths;
	char dir[PATH_MAX];
	struct stat st;
	int err;

	for (i = 0; i < n; i++) {
		const char *path = c->paths[i];

		if (!*path || lstat(path, &st))
			continue;
		err = xbulk_fs_open(S_ISDIR(st.st_mode) ||
				    S_ISREG(st.st_mode) ? path :
				    parent_dir(path, dir), XBULK_ABI_AUTO, fs);
		if (!err || (err == -ENOTTY && plain_ok)) {
			c->fs_path = path;
			return XB_EXIT_OK;
		}
		missing(c, i);
		xb_error("find", "%s: %s", q(0, path), err == -ENOTTY ?
			 "not on an XFS filesystem" : strerror(-err));
		return XB_EXIT_FAILURE;
	}
	missing(c, n);
	return XB_EXIT_FAILURE;
}

/*
 * -files0-from FILE (- for stdin): its NUL-separated names become the
 * PATHs, with find's refusals (stdin that -ok and -okdir read too) and
 * messages.  A read error is said after the names read before it are
 * walked, as find reads them one by one.
 */
static enum xb_exit
read_files0(struct find_ctx *c, const char *file)
{
	bool ok = xbulk_find_reads_stdin(c->find), in = !strcmp(file, "-");
	size_t len = 0, cap = 0, i, n = 0;
	struct stat a, b;
	ssize_t got;
	int fd;

	c->files0_name = strdup(q(0, in ? "(standard input)" : file));
	if (!c->files0_name)
		return XB_EXIT_FAILURE;
	if (in && ok) {
		/* find 4.9 ends these two with an empty line */
		xb_error("find", "option -files0-from reading from standard "
			 "input cannot be combined with -ok, -okdir\n");
		return XB_EXIT_FAILURE;
	}
	fd = in ? STDIN_FILENO : open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		xb_error("find", "cannot open %s for reading: %s",
			 c->files0_name, strerror(errno));
		return XB_EXIT_FAILURE;
	}
	if (!in && ok && !fstat(fd, &a) && !fstat(STDIN_FILENO, &b) &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
		xb_error("find", "option -files0-from: standard input must not "
			 "refer to the same file when combined with -ok, "
			 "-okdir: %s\n", c->files0_name);
		close(fd);
		return XB_EXIT_FAILURE;
	}
	for (;;) {
		if (len + 65536 + 1 > cap) {
			char *p = realloc(c->files0, cap = 2 * cap + 65536 + 1);

			if (!p)
				return XB_EXIT_FAILURE;
			c->files0 = p;
		}
		got = read(fd, c->files0 + len, cap - len - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	c->files0_err = got < 0 ? errno : 0;
	if (!in)
		close(fd);
	if (!c->files0)
		return XB_EXIT_OK;
	c->files0[len] = '\0';
	/* a last name without its NUL counts too */
	for (i = 0; i < len; i++)
		n += !c->files0[i];
	n += len && c->files0[len - 1];
	free(c->paths);
	c->paths = calloc(n ? n : 1, sizeof(*c->paths));
	if (!c->paths)
		return XB_EXIT_FAILURE;
	for (i = 0; i < len; i += strlen(c->files0 + i) + 1)
		c->paths[c->npaths++] = c->files0 + i;
	return XB_EXIT_OK;
}

/* The pre-filter, from the scan's threads. */
static bool
keep(void *arg, const struct xfs_bulkstat *bs)
{
	const struct find_ctx *c = arg;

	return xbulk_find_keep(c->find, bs);
}

/* Build the names by a scan or a walk.  *@refused: the build needs a
 * capability the caller lacks (EPERM) and @strategy is auto, which then
 * walks plainly, as find would (nothing said). */
static enum xb_exit
build_names(struct find_ctx *c, struct xbulk_fs *fs, unsigned int threads,
	    uint32_t strategy, const struct xb_memory *mem,
	    struct xb_run_stats *stats, bool *refused)
{
	int maxdepth = xbulk_find_maxdepth(c->find);
	struct xbulk_names_opts o = {
		.size = sizeof(o), .threads = threads,
		.fields = xbulk_find_fields(c->find),
		.keep = keep, .problem = names_problem, .arg = c,
		.cancel = c->cancel, .memory = mem->memory,
		.tmpdir = mem->tmpdir,
		.progress = xb_progress_build(&stats->progress, "find", fs),
		.paths = c->paths, .npaths = c->npaths,
		.has_max_depth = maxdepth >= 0,
		.max_depth = maxdepth >= 0 ? (uint32_t)maxdepth : 0,
		.strategy = strategy,
	};
	struct xbulk_names_result r = { .size = sizeof(r) };
	int err;

	err = xbulk_names_build(fs, &o, &c->names, &r);
	xb_run_stats_names(stats, &r);
	if (err == -EINTR)
		return xb_signal_exit_status();
	*refused = err == -EPERM && strategy == XBULK_STRATEGY_AUTO;
	if (*refused)
		return XB_EXIT_OK;
	if (err)	/* also idmapped, shut down */
		return xb_names_error("find", fs, c->fs_path, mem,
				      &r, err);
	if (r.dirs_gone) {
		xb_dirs_gone("find", r.dirs_gone);
		c->status = XB_EXIT_FAILURE;
	}
	return XB_EXIT_OK;
}

/* No names built: walks that read as they go (xbulk_names_plain(); @fs
 * NULL off XFS). */
static enum xb_exit
plain_names(struct find_ctx *c, struct xbulk_fs *fs,
	    const struct xb_memory *mem, struct xb_run_stats *stats)
{
	struct xbulk_names_opts o = {
		.size = sizeof(o), .fields = xbulk_find_fields(c->find),
		.cancel = c->cancel, .memory = mem->memory,
		.tmpdir = mem->tmpdir,
		/* the walk prints as it goes: on stderr alone (not with
		 * stdout on the terminal too), the entries walked */
		.progress = xb_progress_stage(&stats->progress, "find",
					      "walk", 0, true),
	};
	struct xbulk_names_result r = {
		.size = sizeof(r), .strategy = XBULK_STRATEGY_PLAIN,
	};
	int err = xbulk_names_plain(fs, &o, &c->names);

	xb_run_stats_names(stats, &r);
	stats->plain = c->walk_flags & XBULK_WALK_LOGICAL ? XB_PLAIN_FOLLOW :
		       xbulk_find_names_only(c->find) ? XB_PLAIN_NAMES :
		       XB_PLAIN_STAT;
	if (err) {
		xb_error("find", "%s", strerror(-err));
		return XB_EXIT_FAILURE;
	}
	return XB_EXIT_OK;
}

/*
 * Does a plain walk answer (XBULK_STRATEGY_PLAIN)?  Forced by --strategy
 * names; needed by -L (no scan follows links); auto's choice when the
 * expression reads names and types only (no bulkstat pays then).  A PATH
 * off XFS (open_fs()), an idmapped mount and a build refused for want
 * of a capability make it too.  XB_EXIT_OK, or the status of a
 * usage error: -L with --strategy scan or walk.
 */
static enum xb_exit
choose_plain(const struct find_ctx *c, uint32_t strategy, bool *plain)
{
	bool logical = c->walk_flags & XBULK_WALK_LOGICAL;

	if (logical && (strategy == XBULK_STRATEGY_SCAN ||
			strategy == XBULK_STRATEGY_WALK))
		return xb_usage_error("find", "-L and -follow walk the tree "
				      "as they go: not --strategy scan or "
				      "walk");
	*plain = strategy == XBULK_STRATEGY_PLAIN || logical ||
		 (strategy == XBULK_STRATEGY_AUTO &&
		  xbulk_find_names_only(c->find));
	return XB_EXIT_OK;
}

/* Has an output failed (its error sticks)? */
static bool
output_failed(const struct xbulk_find *find)
{
	size_t i;

	for (i = 0; i < xbulk_find_noutputs(find); i++)
		if (xbulk_find_output_error(find, i))
			return true;
	return false;
}

/* A walk of the snapshot failed: a PATH outside it, or the file (changed
 * since it was read whole) */
static void
snap_walk_error(struct find_ctx *c, int err)
{
	xbulk_find_flush(c->find);
	if (err == -EXDEV)
		xb_error("find", "%s: not in the snapshot (of %s)",
			 q(0, c->start),
			 q(1, xbulk_snap_info(c->snap)->mountpoint));
	else if (err == -ENOTSUP)
		xb_error("find", "%s: a symbolic link, which -H cannot follow "
			 "in a snapshot (it holds no link's target)",
			 q(0, c->start));
	else
		xb_error("find", "%s: %s", c->snap_path,
			 xbulk_snap_error(c->snap));
	c->status = XB_EXIT_FAILURE;
}

/* Walk every PATH; returns XB_EXIT_OK or the exit status of a signal (an
 * output error ends the walk too: output_errors() reports it). */
static enum xb_exit
walk_all(struct find_ctx *c)
{
	bool skipped = false, stopped = false;
	size_t i;
	int err;

	for (i = 0; i < c->npaths; i++) {
		c->start = c->paths[i];
		if (!*c->start) {	/* find's messages, and status 1 */
			xbulk_find_flush(c->find);
			empty_name(c, i);
			c->status = XB_EXIT_FAILURE;
			skipped = true;
			continue;
		}
		err = c->tree ?
		      xbulk_snap_walk(c->tree, c->start, c->walk_flags,
				      xbulk_find_visit, c->find) :
		      xbulk_names_walk(c->names, c->start, c->walk_flags,
				       xbulk_find_visit, c->find);
		if (err == -EINTR)
			return xb_signal_exit_status();
		/* an output failed: output_errors() says which */
		if (output_failed(c->find))
			return XB_EXIT_OK;
		/* -quit, or an action's fatal error: the pending commands */
		if (err == XBULK_WALK_STOP) {
			stopped = true;
			break;
		}
		if (c->tree && (err == -EXDEV || err == -ENOTSUP ||
				xbulk_snap_error(c->snap))) {
			snap_walk_error(c, err);
		} else if (err == -EXDEV) {
			xbulk_find_flush(c->find);
			xb_error("find", "%s: not on the XFS mount of %s "
				 "(one filesystem per run)", q(0, c->start),
				 q(1, c->fs_path));
			c->status = XB_EXIT_FAILURE;
		} else if (err < 0) {
			problem(c, c->start, err == -ESTALE ? -ENOENT : err);
		}
	}
	/* find runs the pending "{} +" batches at -quit, or after a walk
	 * of every name: not after an empty name or a read error of
	 * -files0-from (its process_all_startpoints() fails) */
	if ((stopped || (!skipped && !c->files0_err)) &&
	    xbulk_find_finish(c->find))
		c->status = XB_EXIT_FAILURE;
	if (c->files0_err) {
		xbulk_find_flush(c->find);
		xb_error("find", "%s: read error: %s", c->files0_name,
			 strerror(c->files0_err));
		c->status = XB_EXIT_FAILURE;
	}
	return XB_EXIT_OK;
}

/*
 * The exit status of the command: that of a SIGINT or SIGTERM caught at
 * any time, even after the walk (the default action again from here on,
 * so that none is lost on the way out); else @status.
 */
static enum xb_exit
signal_status(const volatile int *cancel, enum xb_exit status)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	return cancel && *cancel ? xb_signal_exit_status() : status;
}

static enum xb_exit
missing_value(const char *option)
{
	return xb_usage_error("find", "option '%s' needs a value", option);
}

/* xbulk's own options of find, before find's. */
struct own_opts {
	unsigned int		threads;	/* -j N */
	enum xbulk_find_record	record;		/* --format FMT */
	bool			no_sync;	/* --no-sync */
	struct xb_memory	mem;		/* --memory, --tmpdir */
	struct xb_run_stats	stats;		/* --stats, --stats-file */
	uint32_t		strategy;	/* --strategy */
	bool			threads_given;	/* -j */
	const char		*snapshot;	/* --snapshot FILE */
	bool			help;		/* --help printed: done */
};

/* The long options of xbulk's own that take a value (--NAME VALUE or
 * --NAME=VALUE; --stats only the second), with their getopt codes. */
static const struct {
	const char	*name;
	int		code;
	bool		optional;	/* --stats: the value after '=' only */
} own_long[] = {
	{ "--memory", XB_OPT_MEMORY, false },
	{ "--tmpdir", XB_OPT_TMPDIR, false },
	{ "--stats", XB_OPT_STATS, true },
	{ "--stats-file", XB_OPT_STATS_FILE, false },
	{ "--strategy", XB_OPT_STRATEGY, false },
};

/* Is @a (@len bytes) one of own_long's options, with or without its
 * "=VALUE"?  Its index, or -1. */
static int
own_long_index(const char *a, size_t len)
{
	size_t i, n;

	for (i = 0; i < sizeof(own_long) / sizeof(own_long[0]); i++) {
		n = strlen(own_long[i].name);
		if (len >= n && !strncmp(a, own_long[i].name, n) &&
		    (len == n || a[n] == '='))
			return (int)i;
	}
	return -1;
}

/* Take own_long[@k], given as argv[*@i] (@a); XB_EXIT_OK or the status
 * of a usage error. */
static enum xb_exit
own_long_option(int argc, char **argv, int *i, const char *a, int k,
		 struct own_opts *o)
{
	size_t n = strlen(own_long[k].name);
	const char *val = a[n] ? a + n + 1 : NULL;
	int code = own_long[k].code;

	if (!val && !own_long[k].optional)
		val = *i + 1 < argc ? argv[++*i] : NULL;
	if (!val && !own_long[k].optional)
		return missing_value(own_long[k].name);
	if (code == XB_OPT_STATS || code == XB_OPT_STATS_FILE)
		return xb_stats_option("find", code, val, &o->stats.stats,
				       &o->stats.file);
	if (code == XB_OPT_STRATEGY)
		return xb_strategy_option("find", val, true, &o->strategy);
	return xb_memory_option(&o->mem, "find", code, val);
}

/* --snapshot reads a file: refuse the options of a live scan, and
 * --format (a snapshot holds only some of a record's fields). */
static enum xb_exit
snapshot_options(const struct own_opts *o)
{
	const char *opt = o->threads_given ? "-j" :
			  o->record ? "--format" :
			  o->strategy ? "--strategy" :
			  o->no_sync ? "--no-sync" :
			  o->mem.memory_given || o->mem.tmpdir_given ?
			  "--memory and --tmpdir" :
			  o->stats.stats || o->stats.file ? "--stats" :
			  o->stats.progress.want ? "--progress" : NULL;

	if (!opt)
		return XB_EXIT_OK;
	return xb_usage_error("find", "%s: not with --snapshot (which reads "
			      "a file, not the filesystem)", opt);
}

/* The options before find's, up to argv[*@i]: XB_EXIT_OK to go on (or,
 * with @o->help, to stop after --help), else the exit status of a usage
 * error. */
static enum xb_exit
own_options(int argc, char **argv, int *i, struct own_opts *o)
{
	enum xb_exit ret;
	uint64_t v;
	int err, k;

	for (*i = 1; *i < argc; (*i)++) {
		const char *a = argv[*i], *val = NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			print_help();
			o->help = true;
			return XB_EXIT_OK;
		}
		if (!strncmp(a, "-j", 2)) {
			val = a[2] ? a + 2 : *i + 1 < argc ? argv[++*i] : NULL;
			if (!val)
				return missing_value("-j");
			err = xb_parse_u64(val, XB_MAX_THREADS, &v);
			if (err || !v)
				return err ? xb_bad_number("find", "-j", val,
							   err, XB_MAX_THREADS) :
				       xb_usage_error("find", "-j: at least 1");
			o->threads = (unsigned int)v;
			o->threads_given = true;
		} else if (!strcmp(a, "--no-sync")) {
			o->no_sync = true;
		} else if (!strncmp(a, "--progress", 10) &&
			   (!a[10] || a[10] == '=')) {
			if (a[10])
				return xb_usage_error("find", "option "
						      "'--progress' takes no "
						      "value");
			o->stats.progress.want = true;
		} else if ((k = own_long_index(a, strlen(a))) >= 0) {
			ret = own_long_option(argc, argv, i, a, k, o);
			if (ret)
				return ret;
		} else if (!strncmp(a, "--snapshot", 10) &&
			   (!a[10] || a[10] == '=')) {
			o->snapshot = a[10] ? a + 11 :
				      *i + 1 < argc ? argv[++*i] : NULL;
			if (!o->snapshot)
				return missing_value("--snapshot");
		} else if (!strncmp(a, "--format", 8) && (!a[8] || a[8] == '=')) {
			val = a[8] ? a + 9 : *i + 1 < argc ? argv[++*i] : NULL;
			if (!val)
				return missing_value("--format");
			if (!strcmp(val, "jsonl"))
				o->record = XBULK_FIND_RECORD_JSONL;
			else if (!strcmp(val, "csv"))
				o->record = XBULK_FIND_RECORD_CSV;
			else
				return xb_usage_error("find", "--format: unknown "
						      "format '%s' (jsonl or "
						      "csv)", val);
		} else {
			break;
		}
	}
	return o->snapshot ? snapshot_options(o) :
			     xb_memory_setup(&o->mem, "find");
}

/*
 * xbulk_find_parse() failed with find's message @msg and its status
 * @status (XBULK_FIND_EXIT_*): print each line as find prints it; the
 * exit status.
 */
static enum xb_exit
parse_error(char *msg, int status)
{
	const char *name = strstr(msg, "predicate `");
	size_t len = name ? strcspn(name += 11, "'") : 0;
	/* xbulk's own options after a PATH: -j, -jN, --format[=F],
	 * --no-sync, --progress, --memory, --tmpdir, --stats, --stats-file,
	 * --strategy
	 * (not -jtime, a typo of find's) */
	bool late = name && ((len >= 2 && !strncmp(name, "-j", 2) &&
			      strspn(name + 2, "0123456789") == len - 2) ||
			     (len >= 8 && !strncmp(name, "--format", 8) &&
			      (len == 8 || name[8] == '=')) ||
			     (len == 9 && !strncmp(name, "--no-sync", 9)) ||
			     (len == 10 && !strncmp(name, "--progress", 10)) ||
			     (len >= 10 && !strncmp(name, "--snapshot", 10) &&
			      (len == 10 || name[10] == '=')) ||
			     own_long_index(name, len) >= 0);
	char *line;

	for (line = strtok(msg, "\n"); line; line = strtok(NULL, "\n"))
		fprintf(stderr, "xbulk find: %s\n", line);
	if (late)
		fputs("xbulk find: -j, --format, --no-sync, --progress, "
		      "--memory, --tmpdir, --stats, --strategy and "
		      "--snapshot, xbulk find's own options, come before the "
		      "PATHs\n", stderr);
	if (status == XBULK_FIND_EXIT_REFUSED)
		return XB_EXIT_USAGE;
	return status == XBULK_FIND_EXIT_BAD ? XB_EXIT_FAILURE : XB_EXIT_OK;
}

enum xb_exit
xb_cmd_find(int argc, char **argv)
{
	struct find_ctx c = { 0 };
	struct xbulk_find_opts o = {
		.size = sizeof(o),
		.warnings = isatty(STDIN_FILENO), .warn = warn,
		.problem = problem, .readlink = read_link, .arg = &c,
		.error = action_error, .ask = ask, .changed = changed,
		.restat = restat, .dir_fd = dir_fd,
	};
	struct own_opts own = { .threads = xb_online_cpus() };
	struct xbulk_fs *fs = NULL;
	enum xb_exit ret;
	char msg[1024];
	struct stat st;
	bool plain = false;
	int i, parsed, status;

	/* find matches names, quotes them on a terminal and formats times
	 * in the user's locale */
	setlocale(LC_ALL, "");
	ret = own_options(argc, argv, &i, &own);
	if (ret || own.help)
		return ret;
	clock_gettime(CLOCK_REALTIME, &o.now);
	/* a SIGINT or SIGTERM ends the walk, and the wait for a command
	 * or an answer of -ok */
	o.cancel = c.cancel = xb_catch_signals();
	parsed = xbulk_find_parse(argc - i, argv + i, &o, &c.find, msg,
				  sizeof(msg), &status);
	if (parsed == XBULK_FIND_HELP || parsed == XBULK_FIND_VERSION) {
		if (parsed == XBULK_FIND_HELP) {
			print_help();
		} else {
			printf("xbulk %s\n", XBULK_VERSION_STRING);
		}
		return fflush(stdout) ? xb_write_error("find", -errno) :
					XB_EXIT_OK;
	}
	if (parsed)
		return parse_error(msg, status);
	xbulk_find_set_record(c.find, own.record);
	c.npaths = xbulk_find_npaths(c.find);
	c.paths = calloc(c.npaths + 1, sizeof(*c.paths));
	for (i = 0; c.paths && i < (int)c.npaths; i++)
		c.paths[i] = xbulk_find_path(c.find, (size_t)i);
	ret = c.paths ? open_outputs(c.find) : XB_EXIT_FAILURE;
	if (!ret && xbulk_find_files0_from(c.find))
		ret = read_files0(&c, xbulk_find_files0_from(c.find));
	if (!ret && !c.npaths) {	/* an empty -files0-from */
		ret = walk_all(&c);
		goto out;
	}
	c.walk_flags = xbulk_find_walk_flags(c.find);
	if (!ret && own.snapshot) {
		c.snap_path = own.snapshot;
		ret = xb_find_snap_open(own.snapshot, c.find, c.cancel,
					&c.snap, &c.tree);
		if (!ret)
			ret = walk_all(&c);
		if (!ret)
			ret = output_errors(c.find);
		goto out;
	}
	if (!ret)
		ret = choose_plain(&c, own.strategy, &plain);
	/* off XFS a plain walk, unless a scan or walk was asked for */
	if (!ret)
		ret = open_fs(&c, own.strategy != XBULK_STRATEGY_SCAN &&
			      own.strategy != XBULK_STRATEGY_WALK, &fs);
	/* the kernel refuses bulkstat on an idmapped mount: auto walks */
	if (!ret && fs && own.strategy == XBULK_STRATEGY_AUTO &&
	    xbulk_fs_idmapped(fs))
		plain = true;
	if (!ret && fs)
		ret = xb_memory_check_fs(&own.mem, "find", fs);
	if (!ret && xb_run_stats_begin(&own.stats, "find", c.fs_path))
		ret = XB_EXIT_FAILURE;
	if (!ret && fs && fstat(xbulk_fs_fd(fs), &st))
		ret = XB_EXIT_FAILURE;
	/* sizes as stat() gives them: delayed writes first (a plain walk
	 * stat()s) */
	if (!ret && fs && !plain && !own.no_sync &&
	    (xbulk_find_fields(c.find) & XBULK_F_SIZE) &&
	    xb_sync_fs("find", fs, c.fs_path))
		c.status = XB_EXIT_FAILURE;
	if (!ret && fs && !plain) {
		xbulk_find_set_fs(c.find, xbulk_fs_blocklog(fs), st.st_dev);
		ret = build_names(&c, fs, own.threads, own.strategy, &own.mem,
				  &own.stats, &plain);
	} else if (!ret) {
		plain = true;		/* off XFS */
	}
	if (!ret && plain) {
		/* on XFS -xdev is implied, whatever the strategy */
		if (fs)
			c.walk_flags |= XBULK_WALK_XDEV;
		xbulk_find_set_fs(c.find, fs ? xbulk_fs_blocklog(fs) : 9,
				  fs ? st.st_dev : 0);
		ret = plain_names(&c, fs, &own.mem, &own.stats);
	}
	/* the walk runs the expression, whose actions may write to the
	 * terminal (-exec, -ok, -fprint /dev/stderr): no line over it */
	xb_progress_end(&own.stats.progress);
	if (!ret)
		ret = walk_all(&c);
	if (!ret)
		ret = output_errors(c.find);
out:
	if (!ret && xbulk_find_problems(c.find))
		ret = XB_EXIT_FAILURE;
	/* after find's output (flushed by output_errors()); what the
	 * budget did, walks included */
	own.stats.completed = !ret;
	xb_run_stats_memory(&own.stats, &own.mem, c.names);
	if (xb_run_stats_end(&own.stats) && !ret)
		ret = XB_EXIT_FAILURE;
	free(c.paths);
	free(c.files0);
	free((char *)c.files0_name);
	xbulk_names_free(c.names);
	xbulk_snap_tree_free(c.tree);
	xbulk_snap_close(c.snap);
	xbulk_find_free(c.find);
	xbulk_fs_close(fs);
	return signal_status(c.cancel, ret ? ret : c.status);
}
