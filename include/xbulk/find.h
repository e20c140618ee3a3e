/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libxbulk: GNU find's expression language (lib/find/).
 * Part of <xbulk.h>: include that.
 */
#ifndef XBULK_FIND_H
#define XBULK_FIND_H

#include <time.h>
#include "xbulk/names.h"

#pragma GCC visibility push(default)

/* ------------------------------------------------------------------ */
/* find expressions (lib/find/)                                        */
/* ------------------------------------------------------------------ */

/*
 * GNU find 4.9's expression language (man/xbulk.8 lists every primary
 * and every difference), compiled once by xbulk_find_parse() and
 * evaluated on each entry of a walk (struct xbulk_entry, xbulk/names.h)
 * by xbulk_find_visit() without parsing or allocating.
 * A compiled expression is used by one thread, but xbulk_find_keep() may
 * be called from any number of threads at once.
 */
struct xbulk_find;

/* Set @size to sizeof(struct xbulk_find_opts); the library reads nothing
 * past it.  Every hook is optional (NULL). */
struct xbulk_find_opts {
	size_t		size;		/* sizeof(struct xbulk_find_opts) */
	struct timespec	now;		/* find's start time */
	bool		warnings;	/* find's default: stdin is a tty */
	/* A parse warning, without "find: " (may be NULL). */
	void		(*warn)(void *arg, const char *msg);
	/* A file that could not be fully handled (a symlink that could
	 * not be read for %l, an entry the walk could not read: a bad
	 * inode, an unreadable directory where find would descend, a
	 * mounted directory -empty could not read): the caller prints,
	 * exit status 1. */
	void		(*problem)(void *arg, const char *path, int err);
	/* The target of symlink @file into @buf (not NUL-terminated):
	 * xbulk_names_readlink() of @file->bs, or readlink(2) of the path
	 * for a mount point (XBULK_ENTRY_MOUNT).  Return: its length, or a
	 * negative errno.  Without it, each %l, -lname and -ls of a
	 * symlink is a problem (-ENOSYS) and shows no target. */
	long		(*readlink)(void *arg,
				    const struct xbulk_entry *file,
				    char *buf, size_t size);
	void		*arg;
	/*
	 * Since 0.3 (the library reads them when @size covers them).
	 * A message of the actions (without "find: "): a command that
	 * could not be run or was killed by a signal, a -delete that
	 * failed, a limit.  The caller prints it as it is (find's
	 * wording; exit status 1).  Called in the child too, before it
	 * exits, for a program it could not execute.
	 */
	void		(*error)(void *arg, const char *msg);
	/* -ok and -okdir: show @prompt ("< CMD ... FILE > ? ") on stderr
	 * and read the answer from stdin as find's yesno() does.  Return
	 * true for yes.  Without it the answer is no. */
	bool		(*ask)(void *arg, const char *prompt);
	/* The expression changed the filesystem: a command ran (-exec,
	 * -ok...) or -delete removed a name of a file with other names.
	 * The records a walk still holds may be stale from now on
	 * (xbulk_names_changed()). */
	void		(*changed)(void *arg);
	/* @file as lstat() sees it now, into @out as a walk would give
	 * it (xbulk_names_restat()); once the filesystem changed, each
	 * test that reads a file's status asks this first, as find
	 * stats a file when a test needs it.  Return 0 or a negative
	 * errno (then the caller's problem hook hears of it). */
	int		(*restat)(void *arg, const struct xbulk_entry *file,
				  struct xbulk_entry *out);
	/* Set non-zero by the caller's SIGINT or SIGTERM handler (may be
	 * NULL): a command being waited for is left running and its
	 * action is false, as find killed by the signal leaves it; the
	 * caller ends the walk (the names engine's cancel flag). */
	const volatile int *cancel;
	/* The directory that holds @file (depth 1 or more) as the walk
	 * reached it: xbulk_names_dir_fd() (the walk's fd, not to be
	 * closed, or a negative errno).  -delete and -execdir act there,
	 * as find's do in fts's directory, so that a directory above
	 * renamed or replaced by a symbolic link since changes nothing.
	 * Without it they go by the path. */
	int		(*dir_fd)(void *arg, const struct xbulk_entry *file);
};

/* Exit statuses of parse errors, as GNU find and xbulk give them. */
#define XBULK_FIND_EXIT_BAD	1	/* a bad expression (find's) */
#define XBULK_FIND_EXIT_REFUSED	2	/* -exec -delete ...: refused */

/**
 * xbulk_find_parse() - compile find's command line
 * @argc, @argv: the words after "find" (options -P..., PATHs, the
 *               expression); the strings must outlive the result
 * @opts:        time, warnings and hooks (copied)
 * @out:         the compiled expression (xbulk_find_free() it)
 * @err:         a message (without "find: ") on failure: one line, or
 *               two (find's hint after a PATH among the expression;
 *               "did you mean `-name'?" after an unknown predicate);
 *               NUL-terminated, cut to @errlen bytes
 * @status:      exit status for the failure (XBULK_FIND_EXIT_*); 0 with
 *               XBULK_FIND_HELP and XBULK_FIND_VERSION
 *
 * Return: 0; -EINVAL for a bad expression (find's own message and
 * status) or a refused action; -ENOMEM; XBULK_FIND_HELP or
 * XBULK_FIND_VERSION when the expression reached find's -help or
 * -version (--help, --version): nothing is compiled (*@out is NULL) and
 * the caller prints its help or version, as find does, exit status 0.
 */
#define XBULK_FIND_HELP		1
#define XBULK_FIND_VERSION	2
int xbulk_find_parse(int argc, char **argv,
		     const struct xbulk_find_opts *opts,
		     struct xbulk_find **out, char *err, size_t errlen,
		     int *status);

/* What a name of xbulk_find_primary() is. */
enum xbulk_find_primary_kind {
	XBULK_FIND_OPTION,	/* -depth, -maxdepth...; -P -H before PATHs */
	XBULK_FIND_TEST,	/* -name, -size... */
	XBULK_FIND_ACTION,	/* -print, -exec... */
	XBULK_FIND_XFS_TEST,	/* xbulk's own: -xfs-extents... */
	XBULK_FIND_REFUSED,	/* known, refused: -L, -follow (GNU find's) */
};

/**
 * xbulk_find_primary() - the options and primaries xbulk find knows, for
 * a help text or a completion: the @i-th ("-name"; "-newerXY" stands for
 * that family), counting from 0 in the order xbulk(8) lists them, and its
 * kind into *@kind.  Return: the name, or NULL past the last.
 */
const char *xbulk_find_primary(size_t i, enum xbulk_find_primary_kind *kind);

/** xbulk_find_free() - release @find (NULL is fine).  What its outputs
 * still hold is dropped (xbulk_find_flush() first); the
 * fds given by xbulk_find_set_output() are the caller's to close. */
void xbulk_find_free(struct xbulk_find *find);

/* The PATH operands ("." when none were given). */
size_t xbulk_find_npaths(const struct xbulk_find *find);
const char *xbulk_find_path(const struct xbulk_find *find, size_t i);

/* Walk options: -depth (visit directories after their contents),
 * -maxdepth (-1: none) and -mindepth. */
bool xbulk_find_post_order(const struct xbulk_find *find);
int xbulk_find_maxdepth(const struct xbulk_find *find);

/**
 * xbulk_find_walk_flags() - the XBULK_WALK_* flags to walk with:
 * XBULK_WALK_POST for -depth and -delete (and for -execdir ... {} +,
 * whose batches end where find's walk changes depth), XBULK_WALK_FOLLOW
 * for -H and -L (a symbolic link given as a PATH is followed),
 * XBULK_WALK_LOGICAL for -L and -follow (every symbolic link is: a
 * plain walk only, xbulk_names_plain()), XBULK_WALK_XDEV for -xdev and
 * -mount.
 */
unsigned int xbulk_find_walk_flags(const struct xbulk_find *find);

/**
 * xbulk_find_names_only() - does the expression read nothing of a file
 * but its path, name and the type its directory entry gives (since
 * 0.5)?  Then a plain walk (xbulk_names_plain()) answers it with no
 * stat() of a file that is not a directory, as GNU find's own walk
 * does: -name, -path, -regex, -type, -prune, -print, -printf's %p %f
 * %h %P %H %d...  False with --format (xbulk_find_set_record()).
 */
bool xbulk_find_names_only(const struct xbulk_find *find);

/**
 * xbulk_find_files0_from() - the FILE of -files0-from (NUL-separated
 * PATHs; "-" is stdin), or NULL.  Parsing refused PATHs beside it, and
 * "-" with -ok or -okdir (find's messages).  xbulk_find_npaths() is 0
 * then: the caller reads the names and walks each.
 */
const char *xbulk_find_files0_from(const struct xbulk_find *find);

/* Does the expression read answers from stdin (-ok, -okdir)? */
bool xbulk_find_reads_stdin(const struct xbulk_find *find);

/**
 * xbulk_find_finish() - after the last walk, or after one ended with
 * XBULK_WALK_STOP: run the commands -exec ... {} + and -execdir ... {} +
 * still hold, as find does when it exits (also at -quit).  Nothing
 * after a fatal error of the actions (a path longer than a command line
 * may be, no fork: said through the error hook).
 * Return: 0, or -ECANCELED after such an error (exit status 1).
 */
int xbulk_find_finish(struct xbulk_find *find);

/* The XBULK_F_* fields the expression and its output read. */
uint32_t xbulk_find_fields(const struct xbulk_find *find);

/**
 * xbulk_find_offline() - can the expression be answered from walk
 * entries of a source that is not the live filesystem (a snapshot:
 * xbulk_snap_walk()), whose records hold only @fields (XBULK_F_*)?
 * (since 0.4)
 * @what, @size: the first primary (in the command line's order) that
 *        cannot, NUL-terminated: "-lname", "-printf %l", "-xfs-extsize"
 *
 * Such a source has no symbolic link's target (-L -follow -lname
 * -ilname -xtype -ls -fls, -printf's %l %Y), no file to check or act on (-readable
 * -writable -executable -samefile -exec -execdir -ok -okdir -delete)
 * and no st_dev (%D).
 * Return: 0 if it can, -ENOTSUP if not.
 */
int xbulk_find_offline(const struct xbulk_find *find, uint32_t fields,
		       char *what, size_t size);

/**
 * xbulk_find_keep() - the pre-filter: may a file with this record (not a
 * directory) make the expression do anything, whatever its name?
 * @arg: the struct xbulk_find
 *
 * The part of the expression that reads only bulkstat fields, evaluated
 * three-valued (true, false, unknown: needs a name); actions count as
 * unknown.  False only when no name, path or depth can make an action
 * run.  Thread-safe; no syscall, no allocation.
 */
bool xbulk_find_keep(void *arg, const struct xfs_bulkstat *bs);

/*
 * Outputs: [0] is stdout; [1..] are the FILEs of -fprint, -fprint0,
 * -fprintf and -fls in command-line order, opened by the caller before
 * the scan, as find opens them (one on the scanned filesystem is in the
 * scan, with its size then).  "/dev/stdout" and
 * "/dev/stderr" name the caller's streams, as in find.
 */
size_t xbulk_find_noutputs(const struct xbulk_find *find);
const char *xbulk_find_output_name(const struct xbulk_find *find, size_t i);
/* Give output @i its fd (@tty: quote odd characters as find does on a
 * terminal); output 0 starts as fd 1, an output never given one fails
 * with -EBADF (xbulk_find_output_error()).  Each output buffers 1 MiB.
 * Return: 0 or -ENOMEM. */
int xbulk_find_set_output(struct xbulk_find *find, size_t i, int fd,
			  bool tty);
/* Output @i is the file of output @j (1 <= @j < @i) under another name
 * (the same st_dev and st_ino once opened): its actions write through
 * output @j, as find shares one stream per file (its sharefile); @i
 * needs no fd then.  Return: 0 or -EINVAL. */
int xbulk_find_share_output(struct xbulk_find *find, size_t i, size_t j);

/* The scanned filesystem: log2 of its block size (st_blocks from
 * bs_blocks) and its st_dev (%D). */
void xbulk_find_set_fs(struct xbulk_find *find, unsigned int blocklog,
		       uint64_t dev);

/**
 * xbulk_find_visit() - the walk callback: evaluate the expression on one
 * entry (pass it to xbulk_names_walk() with the find as its argument,
 * and XBULK_WALK_POST when xbulk_find_post_order())
 * @find:  the struct xbulk_find
 * @visit: XBULK_VISIT_PRE before a directory's contents (and the only
 *         visit of other files); XBULK_VISIT_POST after them (-depth)
 *
 * Applies -mindepth, -maxdepth and -depth, runs the actions, and tells
 * the problem hook of entries the walk could not read where find would
 * have (a bad inode; an unreadable directory when find descends into
 * it).
 * Return: 0, XBULK_WALK_PRUNE (do not descend), XBULK_WALK_STOP (-quit),
 * or a negative errno of writing an output (-EPIPE...).
 */
int xbulk_find_visit(void *find, const struct xbulk_entry *e,
		     enum xbulk_visit visit);

/* Write out everything buffered.  Return: 0 or the first write error. */
int xbulk_find_flush(struct xbulk_find *find);

/* The first write error of output @i (a negative errno), or 0. */
int xbulk_find_output_error(const struct xbulk_find *find, size_t i);

/* --format: what -print (and the default -print) writes instead of the
 * path: the whole bulkstat record as JSON Lines or CSV (docs/formats.md)
 * plus "path" (UTF-8, U+FFFD for bytes that are not) and "path_b64" (the
 * exact bytes in base64 when the path is not UTF-8; else null or empty).
 * Makes xbulk_find_fields() all fields. */
enum xbulk_find_record {
	XBULK_FIND_RECORD_NONE,
	XBULK_FIND_RECORD_JSONL,
	XBULK_FIND_RECORD_CSV,
};
void xbulk_find_set_record(struct xbulk_find *find,
			   enum xbulk_find_record record);
/* The CSV header's last columns, after xbulk_bulkstat_csv_header's
 * (without its CRLF): ",path,path_b64\r\n". */
extern const char xbulk_find_csv_header_tail[];


/**
 * xbulk_find_quote() - @name as GNU find's messages quote a file name
 * (gnulib quotearg's locale_quoting_style, in the current LC_CTYPE):
 * between '' ('x\ny', 'it\'s') or, in a UTF-8 locale, U+2018 and
 * U+2019; C escapes for \a \b \f \n \r \t \v and \\, the closing quote
 * escaped, every byte that is not part of a printable character as
 * \ooo.  Writes at most @size - 1 bytes and a NUL into @buf, as
 * snprintf() does.
 *
 * Return: the length of the whole quoted name (without the NUL).
 */
size_t xbulk_find_quote(char *buf, size_t size, const char *name);

/* Files the problem hook was called for (find then exits 1). */
uint64_t xbulk_find_problems(const struct xbulk_find *find);

#pragma GCC visibility pop

#endif /* XBULK_FIND_H */
