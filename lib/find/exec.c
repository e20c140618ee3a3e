// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * -exec, -execdir, -ok and -okdir, as GNU find 4.9 runs them (find's
 * exec.c and parser.c, findutils' buildcmd.c): the command words are
 * kept as typed; for ';' every "{}" inside a word becomes the file's
 * name, for "{} +" names are added to a batch that runs when the next
 * one would not fit find's command line (128 KiB, less if ARG_MAX less
 * the environment is smaller), when the walk changes depth (-execdir) and
 * at the end.  The child gets SIGPIPE back (xbulk ignores it), stdin
 * closed for -ok and -okdir (as find 4.9 leaves it), and for -execdir the
 * file's directory as its working directory and "./NAME" as the name.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "facts.h"
#include "actions.h"
#include "find.h"

extern char **environ;

/* findutils' buildcmd: 2 KiB left for the command's own environment,
 * 128 KiB of arguments (bc_use_sensible_arg_max()), never less than
 * POSIX's 4096. */
#define EXEC_HEADROOM	2048u
#define EXEC_ARG_SIZE	(128u * 1024)
#define EXEC_ARG_MIN	4096u


static void flush_std(struct xbulk_find *f);

void
xf_error(struct xbulk_find *f, const char *fmt, ...)
{
	char msg[1024], *big = NULL;
	va_list ap;
	int len;

	if (!f->opts.error)
		return;
	flush_std(f);		/* gnulib's error() flushes stdout */
	va_start(ap, fmt);
	len = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* a name of any length, whole (a deep path) */
	if (len >= (int)sizeof(msg) && (big = malloc((size_t)len + 1))) {
		va_start(ap, fmt);
		vsnprintf(big, (size_t)len + 1, fmt, ap);
		va_end(ap);
	}
	f->opts.error(f->opts.arg, big ? big : msg);
	free(big);
}

/* A fatal error of the actions: find's die() (status 1, nothing more
 * done, pending batches dropped). */
static void
fatal(struct xbulk_find *f, const char *msg)
{
	f->problems++;
	f->fatal = true;
	xf_error(f, "%s", msg);
}

/* find's check_path_safety(): -execdir and -okdir run "./NAME", so a
 * PATH that searches the current directory would run a file found. */
static int
path_safe(struct xf_parser *ps, const char *action)
{
	const char *path = getenv("PATH"), *s, *end;

	if (!path)
		return 0;
	for (s = path;; s = end + 1) {
		size_t len;

		end = strchr(s, ':');
		len = end ? (size_t)(end - s) : strlen(s);
		if (!len || (len == 1 && *s == '.'))
			return xf_fail(ps, "The current directory is included "
				       "in the PATH environment variable, which "
				       "is insecure in combination with the %s "
				       "action of find.  Please remove the "
				       "current directory from your $PATH (that "
				       "is, remove \".\", doubled colons, or "
				       "leading or trailing colons)", action);
		if (*s != '/') {
			char *rel = strndup(s, len);

			if (!rel)
				return -ENOMEM;
			xf_fail(ps, "The relative path %s is included in the "
				"PATH environment variable, which is insecure "
				"in combination with the %s action of find.  "
				"Please remove that entry from $PATH",
				xf_quote(ps->find, 0, rel), action);
			free(rel);
			return -EINVAL;
		}
		if (!end)
			return 0;
	}
}

/* findutils' bc_init_controlinfo() and bc_use_sensible_arg_max(). */
static int
arg_limits(struct xf_parser *ps)
{
	struct xbulk_find *f = ps->find;
	long sys = sysconf(_SC_ARG_MAX);
	size_t env = 0, max;
	char **e;

	if (f->arg_max)
		return 0;
	for (e = environ; e && *e; e++)
		env += strlen(*e) + 1;
	max = sys > 0 ? (size_t)sys : 131072;
	if (env + EXEC_HEADROOM >= max)
		return xf_fail(ps, "The environment is too large for exec().");
	max -= env + EXEC_HEADROOM;
	f->arg_count_max = max / sizeof(char *) - 2;
	f->arg_max = EXEC_ARG_SIZE > max ? max :
		     EXEC_ARG_SIZE < EXEC_ARG_MIN ? EXEC_ARG_MIN :
		     EXEC_ARG_SIZE;
	return 0;
}

/* Append @n bytes at @p to @x's strings; -ENOMEM. */
static int
add_chars(struct xf_exec *x, const char *p, size_t n)
{
	if (xbl_grow((void **)&x->chars, &x->chars_cap, x->nchars + n + 1, 1))
		return -ENOMEM;
	memcpy(x->chars + x->nchars, p, n);
	x->nchars += n;
	return 0;
}

/* Start argument @x->nargs at the current end of the strings. */
static int
new_arg(struct xf_exec *x)
{
	if (xbl_grow((void **)&x->args, &x->args_cap, x->nargs + 2,
		 sizeof(*x->args)))
		return -ENOMEM;
	x->args[x->nargs++] = x->nchars;
	return 0;
}

static int
end_arg(struct xf_exec *x)
{
	return add_chars(x, "", 1);
}

int
xf_parse_exec(struct xf_parser *ps, const struct xf_primary *p,
	      struct xf_node **out)
{
	struct xbulk_find *f = ps->find;
	const char *name = p->name;
	bool dir = p->arg & XF_EXEC_DIR, ok = p->arg & XF_EXEC_OK;
	bool braces = false;
	int start = ps->i, end, err;
	struct xf_exec *x;
	struct xf_node *n;
	size_t i;

	if (ps->i >= ps->argc)
		return xf_fail(ps, "missing argument to `%s'", name);
	if (dir && (err = path_safe(ps, name)))
		return err;
	/* find's insert_exec_ok(): -execdir and -okdir undo an
	 * -ignore_readdir_race given before them */
	if (dir)
		f->ignore_race = false;
	for (end = start; end < ps->argc && strcmp(ps->argv[end], ";");
	     end++) {
		/* "{} +" ends -exec and -execdir */
		if (!ok && braces && !strcmp(ps->argv[end], "+"))
			break;
		braces = strstr(ps->argv[end], "{}") != NULL;
	}
	if (end == ps->argc || (end == start && end < ps->argc &&
				!strcmp(ps->argv[end], ";"))) {
		if (end < ps->argc)
			return xf_fail(ps, "invalid argument `;' to `%s'",
				       name);
		return xf_fail(ps, "missing argument to `%s'", name);
	}
	if (end == start)
		return xf_fail(ps, "missing argument to `%s'", name);
	x = xf_zalloc(f, sizeof(*x));
	n = xf_node_new(ps, p);
	if (!x || !n)
		return -ENOMEM;
	x->plus = strcmp(ps->argv[end], ";") != 0;
	x->dir = dir;
	x->ok = ok;
	x->action = name;
	x->wd = -1;
	x->words = ps->argv + start;
	x->nwords = (size_t)(end - start);
	if (x->plus) {
		size_t count = 0;

		for (i = 0; i < x->nwords; i++)
			count += strstr(x->words[i], "{}") != NULL;
		if (count > 1)
			return xf_fail(ps, "Only one instance of {} is supported "
				       "with %s ... +", name);
		if (strcmp(x->words[x->nwords - 1], "{}"))
			return xf_fail(ps, "In %s the %s must appear by itself, "
				       "but you specified %s",
				       xf_quote(f, 0, dir ? "-execdir ... {} +"
						: "-exec ... {} +"),
				       xf_quote(f, 1, "{}"),
				       xf_quote(f, 2, x->words[x->nwords - 1]));
		x->nwords--;
	}
	err = arg_limits(ps);
	if (err)
		return err;
	/* the words of "{} +" start every batch */
	for (i = 0; x->plus && i < x->nwords; i++) {
		if (new_arg(x) || add_chars(x, x->words[i],
					    strlen(x->words[i])) || end_arg(x))
			return -ENOMEM;
	}
	x->base_chars = x->nchars;
	if (x->nchars > f->arg_max)
		return xf_fail(ps, "cannot fit single argument within argument "
			       "list size limit");
	ps->i = end + 1;
	n->u.exec = x;
	*f->execs_tail = x;
	f->execs_tail = &x->next;
	if (ok)
		f->ok_stdin = true;
	if (dir && x->plus)
		f->execdir_plus = true;
	*out = n;
	return 0;
}

/* gnulib's last_component(): the name after the last slash (trailing
 * slashes kept). */
static const char *
last_component(const char *name)
{
	const char *base = name, *p;
	bool slash = false;

	while (*base == '/')
		base++;
	for (p = base; *p; p++) {
		if (*p == '/') {
			slash = true;
		} else if (slash) {
			base = p;
			slash = false;
		}
	}
	return base;
}

/*
 * Where -execdir runs for @file and what it names it there (find's
 * record_exec_dir() and base_name()): the directory holding the entry
 * (gnulib's dir_name() of a PATH operand) into @dir, and the name with
 * one trailing slash kept, "./" before it unless it is "/".
 */
static int
exec_dir(const struct xbulk_entry *file, char **dir, char **name)
{
	const char *p = file->path, *base;
	size_t dlen, blen;

	if (file->depth > 0) {
		base = p + file->name_off;
		dlen = file->name_off - 1;
	} else {
		base = last_component(p);
		dlen = (size_t)(base - p);
		while (dlen > (*p == '/') && p[dlen - 1] == '/')
			dlen--;
		if (!*base)		/* all slashes: "/" */
			base = p + strlen(p) - 1;
	}
	blen = strlen(base);
	while (blen > 1 && base[blen - 1] == '/')
		blen--;
	blen += base[blen] == '/';
	*dir = dlen || *p == '/' ? strndup(p, dlen ? dlen : 1) : strdup(".");
	*name = malloc(blen + 3);
	if (!*dir || !*name) {
		free(*dir);
		free(*name);
		return -ENOMEM;
	}
	snprintf(*name, blen + 3, "%s%.*s", *base == '/' ? "" : "./",
		 (int)blen, base);
	return 0;
}

/* Open the directory a -execdir batch runs in (find opens it before
 * the command: failing is fatal): @file's directory as the walk reached
 * it (find's fts directory), an operand's @dir by its path. */
static int
open_wd(struct xbulk_find *f, struct xf_exec *x, const char *dir,
	const struct xbulk_entry *file)
{
	int at = xf_walk_dir(f, file), err = at < 0 ? at : 0;
	bool own = at == -EINVAL;
	const char *rel = ".";

	if (own)
		err = xbl_path_at(dir, &at, &rel);
	if (!err) {
		x->wd = openat(at, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		err = x->wd < 0 ? -errno : 0;
		if (own && at >= 0)
			close(at);
	}
	if (!err)
		return 0;
	f->problems++;
	f->fatal = true;
	xf_error(f, "Failed to save working directory in order to run a "
		 "command on %s: %s", xf_quote(f, 0, file->path),
		 strerror(-err));
	x->wd = -1;
	return -1;
}

/* In the child: find's prep_child_for_exec() and launch(). */
static void __attribute__((noreturn))
child(struct xbulk_find *f, const struct xf_exec *x, char **argv)
{
	sigset_t none;

	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* find 4.9 runs -ok's command with stdin closed */
	if (x->ok)
		close(STDIN_FILENO);
	/* a stdout closed when find started stays closed (the caller's
	 * placeholder goes: xbulk_find_set_output() with fd -1) */
	if (f->nstreams && f->streams[0]->out.fd < 0)
		close(STDOUT_FILENO);
	if (x->dir && fchdir(x->wd)) {
		xf_error(f, "Failed to change directory: %s", strerror(errno));
		_exit(1);
	}
	execvp(argv[0], argv);
	xf_error(f, "%s: %s", xf_quote(f, 0, argv[0]), strerror(errno));
	_exit(1);
}

/* Flush what find's stdout and stderr hold, as find's launch() does
 * before it forks. */
static void
flush_std(struct xbulk_find *f)
{
	size_t i;

	for (i = 0; i < f->nstreams; i++)
		if (f->streams[i]->out.fd == STDOUT_FILENO ||
		    f->streams[i]->out.fd == STDERR_FILENO)
			xf_stream_flush(f->streams[i]);
	fflush(stdout);
	fflush(stderr);
}

/*
 * Wait for child @pid into *@status: 0, -errno of waitpid(), or -EINTR
 * once the caller's cancel flag is set (checked every 100 ms: SA_RESTART
 * restarts waitpid(), not poll()), the command left running as find
 * killed by the signal leaves it.
 */
static int
wait_child(struct xbulk_find *f, pid_t pid, int *status)
{
	const volatile int *cancel = f->opts.cancel;
	struct pollfd p = { .fd = -1, .events = POLLIN };
	pid_t got;
	int err;

	if (cancel)
		p.fd = (int)syscall(SYS_pidfd_open, pid, 0);
	for (;;) {
		if (p.fd >= 0) {
			if (xbl_cancelled(cancel)) {
				close(p.fd);
				return -EINTR;
			}
			if (poll(&p, 1, 100) <= 0)
				continue;
		}
		got = waitpid(pid, status, p.fd >= 0 ? WNOHANG : 0);
		if (got == pid || (got < 0 && errno != EINTR))
			break;
	}
	err = got < 0 ? -errno : 0;
	if (p.fd >= 0)
		close(p.fd);
	return err;
}

/* Run @x's command line; true if it exited 0 (find's launch()). */
static bool
run(struct xbulk_find *f, struct xf_exec *x)
{
	char **argv = malloc((x->nargs + 1) * sizeof(*argv));
	bool ok = false;
	int status, err;
	size_t i;
	pid_t pid;

	if (!argv) {
		fatal(f, strerror(ENOMEM));
		return false;
	}
	for (i = 0; i < x->nargs; i++)
		argv[i] = x->chars + x->args[i];
	argv[x->nargs] = NULL;
	flush_std(f);
	pid = x->nargs ? fork() : -2;
	if (pid == 0)
		child(f, x, argv);
	if (pid == -1) {
		f->problems++;
		f->fatal = true;
		xf_error(f, "cannot fork: %s", strerror(errno));
	}
	if (pid > 0 && (err = wait_child(f, pid, &status)) == -EINTR) {
		f->fatal = true;	/* a signal: find dies of it */
		pid = -1;
	} else if (pid > 0 && err) {
		xf_error(f, "error waiting for %s: %s",
			 xf_quote(f, 0, argv[0]), strerror(-err));
		f->problems++;
		pid = -1;
	}
	if (pid > 0) {
		f->changed = true;
		if (f->opts.changed)
			f->opts.changed(f->opts.arg);
		if (WIFSIGNALED(status))
			xf_error(f, "%s terminated by signal %d",
				 xf_quote(f, 0, argv[0]), WTERMSIG(status));
		ok = WIFEXITED(status) && !WEXITSTATUS(status);
		/* "{} +" is true, but a failure makes find's status 1 */
		if (!ok && x->plus)
			f->problems++;
	}
	free(argv);
	return ok;
}

/* Run a "{} +" batch and start the next one: in the same directory
 * when the batch was full (@more: the name being added goes there). */
static void
run_batch(struct xbulk_find *f, struct xf_exec *x, bool more)
{
	run(f, x);
	x->nargs = x->nwords;
	x->nchars = x->base_chars;
	x->todo = false;
	if (x->wd >= 0 && !more) {
		close(x->wd);
		x->wd = -1;
	}
}

void
xf_exec_flush(struct xbulk_find *f, bool dirs)
{
	struct xf_exec *x;

	for (x = f->execs; x && !f->fatal; x = x->next)
		if (x->plus && x->todo && x->dir == dirs)
			run_batch(f, x, false);
}

/* Add @name to the batch of @x, running it first if it is full. */
static bool
push(struct xbulk_find *f, struct xf_exec *x, const char *name)
{
	size_t len = strlen(name) + 1;

	if (x->nchars + len > f->arg_max) {
		if (x->nargs == x->nwords) {
			fatal(f, "cannot fit single argument within argument "
			      "list size limit");
			return false;
		}
		run_batch(f, x, true);
	}
	if (new_arg(x) || add_chars(x, name, len - 1) || end_arg(x)) {
		fatal(f, strerror(ENOMEM));
		return false;
	}
	x->todo = true;
	if (x->nargs >= f->arg_count_max)
		run_batch(f, x, true);
	return true;
}

/*
 * The words of a ';' command, each "{}" in them replaced by @name, with
 * the limits of findutils' bc_do_insert() and bc_push_arg(): a word of
 * arg_max - 1 bytes or more is "command too long", a command line past
 * arg_max is too long for the first word or for a later one (all fatal).
 * False after a message.
 */
static bool
build(struct xbulk_find *f, struct xf_exec *x, const char *name)
{
	size_t i, nlen = strlen(name), start;

	x->nargs = 0;
	x->nchars = 0;
	for (i = 0; i < x->nwords; i++) {
		const char *w = x->words[i], *b;

		if (new_arg(x))
			goto nomem;
		start = x->nchars;
		while ((b = strstr(w, "{}"))) {
			if (add_chars(x, w, (size_t)(b - w)) ||
			    add_chars(x, name, nlen))
				goto nomem;
			w = b + 2;
		}
		if (add_chars(x, w, strlen(w)) || end_arg(x))
			goto nomem;
		if (x->nchars - start >= f->arg_max) {
			fatal(f, "command too long");
			return false;
		}
		if (x->nchars > f->arg_max) {
			fatal(f, i ? "argument list too long" :
			      "cannot fit single argument within argument "
			      "list size limit");
			return false;
		}
	}
	return true;
nomem:
	fatal(f, strerror(ENOMEM));
	return false;
}

/* -ok, -okdir: find's is_ok(). */
static bool
ask(struct xbulk_find *f, const struct xf_exec *x, const char *path)
{
	size_t len = strlen(x->words[0]) + strlen(path) + 16;
	char *prompt = malloc(len);
	bool yes;

	if (!prompt)
		return false;
	snprintf(prompt, len, "< %s ... %s > ? ", x->words[0], path);
	flush_std(f);
	yes = f->opts.ask && f->opts.ask(f->opts.arg, prompt);
	free(prompt);
	/* a signal ended the wait for the answer: find dies of it */
	if (xbl_cancelled(f->opts.cancel))
		f->fatal = true;
	return yes && !f->fatal;
}

bool
xf_exec(struct xbulk_find *f, struct xf_exec *x,
	const struct xbulk_entry *file)
{
	char *dir = NULL, *name = NULL;
	bool ok = false;

	if (f->fatal || (x->ok && !ask(f, x, file->path)))
		return false;
	if (x->dir && exec_dir(file, &dir, &name)) {
		fatal(f, strerror(ENOMEM));
		return false;
	}
	/* a new batch runs where its first file is */
	if (x->dir && (!x->plus || !x->todo)) {
		if (x->wd >= 0)
			close(x->wd);
		x->wd = -1;
		if (open_wd(f, x, dir, file))
			goto out;
	}
	if (x->plus) {
		ok = push(f, x, x->dir ? name : file->path);
		goto out;
	}
	if (!build(f, x, x->dir ? name : file->path))
		goto out;
	ok = run(f, x);
	if (x->wd >= 0)
		close(x->wd);
	x->wd = -1;
out:
	free(dir);
	free(name);
	return ok;
}

int
xbulk_find_finish(struct xbulk_find *f)
{
	xf_exec_flush(f, false);
	xf_exec_flush(f, true);
	return f->fatal ? -ECANCELED : 0;
}
