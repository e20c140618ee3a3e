/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to the command (prefix xb_: CONTRIBUTING.md).
 *
 * The xbulk command line: shared declarations of the command files.
 * The measurements around bulkstat's and inumbers' scans: watch.h.
 */
#ifndef XBULK_CLI_H
#define XBULK_CLI_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "xbulk.h"

/*
 * Exit statuses, as man/xbulk.8's EXIT STATUS documents them: the return
 * type of every function that returns one.  Any other function that can
 * fail returns 0 or a negative errno; none returns both.
 */
enum xb_exit {
	XB_EXIT_OK = 0,
	XB_EXIT_FAILURE = 1,	/* runtime failure */
	XB_EXIT_USAGE = 2,	/* bad command line */
	/* snapshot, diff and export (man/xbulk.8, SNAPSHOT AND DIFF) */
	XB_EXIT_CHANGES = 1,	/* diff: changes found */
	XB_EXIT_TROUBLE = 2,	/* any trouble */
	/* 128 + the signal that stopped the command */
	XB_EXIT_SIGINT = 130,
	XB_EXIT_PIPE = 141,	/* stdout's reader went away (SIGPIPE) */
	XB_EXIT_SIGTERM = 143,
};

/* Default records per ioctl, as xfs_io. */
#define XB_DEFAULT_BATCH	4096

/* Most threads -j takes. */
#define XB_MAX_THREADS		1024

/* --- parse.c: numbers on the command line ------------------------- */

/**
 * xb_parse_u64() - parse a plain decimal number no larger than @max
 * Return: 0; -EINVAL if @s is empty or not all decimal digits (signs,
 * spaces, hex prefixes and trailing junk are refused); -ERANGE if > @max.
 */
int xb_parse_u64(const char *s, uint64_t max, uint64_t *out);

/* --- common.c: messages, opening the filesystem, output ----------- */

/* "xbulk CMD: message" on stderr. */
void xb_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "xbulk CMD: PATH: message" for xbulk_replace_open()'s error @err
 * (-EEXIST: PATH is no regular file, left as it is). */
void xb_create_error(const char *cmd, const char *path, int err);

/* Error for a bad number @arg of option @opt; returns XB_EXIT_USAGE. */
enum xb_exit xb_bad_number(const char *cmd, const char *opt, const char *arg,
			   int err, uint64_t max);

/* A usage error with a hint to --help; returns XB_EXIT_USAGE. */
enum xb_exit xb_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* getopt's ':' (a missing value) or '?' (an unknown option) @c of the
 * option just read, as a usage error; returns XB_EXIT_USAGE. */
enum xb_exit xb_bad_option(const char *cmd, int c, char **argv);

/* Parse -v's argument into an ABI; XB_EXIT_OK or XB_EXIT_USAGE. */
enum xb_exit xb_parse_abi(const char *cmd, const char *arg,
			  enum xbulk_abi *abi);

/*
 * Process-wide set-up before any command: refuse setuid/setgid, put
 * /dev/null on closed fds 0-2 (so no file we open lands there) and
 * ignore SIGPIPE (a gone reader shows as EPIPE).  XB_EXIT_OK or
 * XB_EXIT_FAILURE.
 */
enum xb_exit xb_process_init(void);

/* The fd to write records to: 1, or -1 if stdout was closed at start. */
int xb_stdout_fd(void);

/*
 * Catch SIGINT and SIGTERM for a scan: the returned flag becomes the
 * signal number (the scan's cancel flag); a second signal kills.
 */
const volatile int *xb_catch_signals(void);

/* Exit status after a caught signal: 128 + its number (XB_EXIT_SIGINT,
 * XB_EXIT_SIGTERM). */
enum xb_exit xb_signal_exit_status(void);

/* Online CPUs (the default -j), at least 1, at most XB_MAX_THREADS. */
unsigned int xb_online_cpus(void);

/* Open @path with messages; XB_EXIT_OK or the exit status of a failure. */
enum xb_exit xb_open_fs(const char *cmd, const char *path, enum xbulk_abi abi,
			struct xbulk_fs **fs);

/* -m: ask @fs for the metadata directory inodes too; XB_EXIT_OK,
 * XB_EXIT_USAGE (with -v 1, which has no flags) or XB_EXIT_FAILURE (the
 * kernel rejects XFS_BULK_IREQ_METADIR: one bulkstat call of the root
 * finds out, before any output; said on stderr, @path in the message). */
enum xb_exit xb_set_metadir(const char *cmd, struct xbulk_fs *fs,
			    const char *path);

/* The --help line of -m. */
#define XB_METADIR_HELP							\
"   -m         Include metadata directories (the metadata directory\n"	\
"              tree's inodes; Linux 6.13 or later).\n"

/*
 * Report a failed ioctl of @what (e.g. "bulkstat") on @path and return
 * the exit status; explains EPERM (CAP_SYS_ADMIN) and, with @fs, the
 * EINVAL of an idmapped mount.
 */
enum xb_exit xb_ioctl_error(const char *cmd, const struct xbulk_fs *fs,
			    const char *path, const char *what, int err);

/*
 * Why a thread could not start: "cannot start a thread: " and
 * pthread_create()'s error @err (negative) in @buf of @size bytes
 * (XB_THREAD_TEXT is enough); for -EAGAIN (no memory for its stack, or
 * a limit on threads reached: glibc says EAGAIN for both) the limits
 * that apply, as ulimit names them.
 */
#define XB_THREAD_TEXT	256
const char *xb_thread_text(int err, char *buf, size_t size);

/*
 * Report the failure @err of xbulk_names_build() on @path (@r its
 * result) and return XB_EXIT_FAILURE: the capability that is missing
 * (CAP_SYS_ADMIN for bulkstat, CAP_DAC_READ_SEARCH for handles), a
 * thread that could not start, the scan's setup, the ioctl's error, or
 * the spill file in @mem's tmpdir (the build's budget and directory),
 * with the bytes a full one needs.
 */
struct xb_memory;
enum xb_exit xb_names_error(const char *cmd, const struct xbulk_fs *fs,
			    const char *path, const struct xb_memory *mem,
			    const struct xbulk_names_result *r, int err);

/*
 * What a scan that gave up on the rest of an AG says about it ("AG 2:
 * inumbers from inode N: why; the rest of AG 2 was not scanned"), in
 * @buf of @size bytes (XB_AG_FAULT_TEXT is enough), for each command to
 * print in its style.
 */
#define XB_AG_FAULT_TEXT	384
void xb_ag_fault_text(const struct xbulk_ag_fault *f, char *buf, size_t size);

/* Report a failed write to stdout (quietly for EPIPE); exit status. */
enum xb_exit xb_write_error(const char *cmd, int err);

/* Length of the UTF-8 sequence at @p (NUL-terminated: the NUL is never
 * part of one), 1 for an ASCII byte, or 0 where the bytes are not UTF-8
 * as Unicode allows it (overlong forms, surrogates and code points past
 * U+10FFFF are not). */
size_t xb_utf8_len(const unsigned char *p);
/* The @n bytes at @p in base64 (RFC 4648, padded) to @f. */
void xb_base64(FILE *f, const unsigned char *p, size_t n);

/* The one line that says @n directories went away under a names build. */
void xb_dirs_gone(const char *cmd, uint64_t n);

/*
 * syncfs() @fs before a scan that reports apparent sizes (find -size,
 * du -b: xbulk_fs_sync()).  A failure is named, with @path, and the
 * scan goes on: returns true then (the command exits 1 at the end).
 */
bool xb_sync_fs(const char *cmd, const struct xbulk_fs *fs,
		const char *path);

/*
 * Why a directory could not be opened, after strerror(-@err): for -EPERM
 * (O_NOATIME on a directory one does not own needs CAP_FOWNER; what lies
 * below it is not reached either), a note in parentheses with a leading
 * space; otherwise "".
 */
const char *xb_dir_open_hint(int err);

/* --- encode.c: names written one way (docs/formats.md) ----------- */

/* How xb_put_text() quotes: not at all (raw text); a CSV field's quotes
 * doubled; a JSON string's escapes; a Prometheus label value's (\\, \",
 * \n). */
enum xb_quote { XB_QUOTE_NONE, XB_QUOTE_CSV, XB_QUOTE_JSON, XB_QUOTE_PROM };
/* The text of @s inside quotes of @q, each byte that is not UTF-8 as
 * U+FFFD; true if any was. */
bool xb_put_text(FILE *f, const char *s, enum xb_quote q);
/* @s as a JSON string (quotes included); true if it is not UTF-8. */
bool xb_json_value(FILE *f, const char *s);
/* "<key>":"<s>" (JSON escapes, U+FFFD for bytes that are not UTF-8),
 * then ,"<key>_b64": the exact bytes in base64 if there were any, else
 * null, as find's records (@s NULL: both null). */
void xb_json_string(FILE *f, const char *key, const char *s);
/* @s as a quoted CSV field (RFC 4180); true if it is not UTF-8. */
bool xb_csv_quoted(FILE *f, const char *s);
/* A comma, then @s's bytes in base64 if @lossy (a CSV *_b64 column). */
void xb_csv_b64(FILE *f, const char *s, bool lossy);
/* Is @s (NUL-terminated) UTF-8 throughout? */
bool xb_utf8_valid(const char *s);
/* A copy of @s (malloc()ed) with U+FFFD for each byte that is not UTF-8,
 * or NULL without memory. */
char *xb_utf8_fffd(const char *s);
/* @s for a line people read: C escapes (\\, \n, \t, \NNN octal for
 * each byte) of a byte that is not UTF-8, a C0 or C1 control, DEL, a
 * Unicode format character (bidi overrides...), the line and paragraph
 * separators, and of a '>' after '-' (so "->" is only a rename's). */
void xb_put_escaped(FILE *f, const char *s);

/* --- json_read.c: one flat JSON object (a line xbulk wrote) ------- */

/* Most pairs of an object xb_jr_object() keeps (the rest are read and
 * dropped). */
#define XB_JR_KV_MAX	24

/* One key and its value: a string, an integer, or neither (true, false,
 * null; a real is its integer part). */
struct xb_jr_kv {
	const char	*key;
	const char	*str;		/* NULL: not a string */
	int64_t		num;
	bool		isnum;
};

/*
 * xb_jr_object() - the flat JSON object @line ("{...}": string and
 * number values, no nested object or array) into @kv, at most
 * XB_JR_KV_MAX pairs; its strings are unescaped in place in @line
 * (\uXXXX as UTF-8).  Return: the pairs kept, or -EBADMSG.
 */
int xb_jr_object(char *line, struct xb_jr_kv *kv);
/* The pair of @key among @n, or NULL. */
const struct xb_jr_kv *xb_jr_get(const struct xb_jr_kv *kv, int n,
				 const char *key);
/* The integer of @key among @n; 0 and *@ok false if there is none. */
int64_t xb_jr_int(const struct xb_jr_kv *kv, int n, const char *key,
		  bool *ok);
/*
 * xb_jr_b64() - the bytes of @key's base64 string among @n (a "*_b64"
 * key: RFC 4648, padded, as xb_base64() writes it) into *@out, malloc()ed
 * and NUL-terminated.  Return: 1; 0 if there is no such string (null,
 * none, or empty); -EBADMSG if it is not base64 or holds a NUL byte;
 * -ENOMEM.
 */
int xb_jr_b64(const struct xb_jr_kv *kv, int n, const char *key,
	      char **out);

/* --- figures.c: numbers with their units, for --stats, --progress - */

/* Seconds in @buf with a unit: "850 us", "12.976 ms", "3.250 s"; "n/a"
 * if negative. */
const char *xb_fig_dur(char *buf, size_t size, double s);
/* @v in @buf with an SI prefix: "812", "812.3k", "1.62M" (counts and
 * rates); "n/a" if negative. */
const char *xb_fig_si(char *buf, size_t size, double v);
/*
 * A progress figure in @buf: "48.1% 249.9k/519.3k inodes, 124.1k
 * inodes/s, ETA 0:00:02" for @done of @total @unit after @elapsed_ns
 * (rate and ETA averages since then), or without a @total (0: unknown)
 * "249.9k inodes, 124.1k inodes/s".  Past @total it stays at 99.9%.
 */
const char *xb_fig_progress(char *buf, size_t size, uint64_t done,
			    uint64_t total, const char *unit,
			    uint64_t elapsed_ns);
/* Bytes in @buf with a binary unit: "512 B", "1.5 MiB"; "n/a" if
 * negative. */
const char *xb_fig_iec(char *buf, size_t size, double v);
/* JSON: a string, escaped; "KEY": N (null if XBULK_STAT_NA); "KEY": a
 * real (null if negative); each followed by @sep. */
void xb_json_str(FILE *f, const char *s);
void xb_json_u64(FILE *f, const char *key, uint64_t v, const char *sep);
void xb_json_num(FILE *f, const char *key, double v, const char *sep);

/* --- hint.c: how to find the paths of an unreadable inode ------- */

/* @s quoted for a POSIX shell: itself if it has only characters that need
 * no quoting (and is not empty), else in single quotes ('\'' for a
 * quote).  malloc'd; NULL if out of memory. */
char *xb_shell_quote(const char *s);

/* The topmost directory above @path (resolved) on @path's device: its
 * mount point, malloc'd; NULL if @path cannot be resolved. */
char *xb_mount_point(const char *path);
/* The mount point of the filesystem that holds @path (@path itself when
 * it cannot be resolved), quoted with xb_shell_quote(); NULL if out of
 * memory. */
char *xb_hint_mount(const char *path);

/* "inode WHAT: REASON (xbulk path -w MNT INO looks for its paths in the
 * directories)" for an inode the kernel cannot read (@err: -EUCLEAN,
 * -EBADMSG, -EIO); without the parenthesis if @mnt (from
 * xb_hint_mount()) is NULL.  Parent pointers cannot name the inode: they
 * are in it. */
void xb_report_unreadable(const char *cmd, const char *mnt, const char *what,
			  uint64_t ino, int err);

/* --- formats.c: -o text|jsonl|csv --------------------------------- */

enum xb_format {
	XB_FORMAT_TEXT,		/* xfs_io's, byte for byte (the default) */
	XB_FORMAT_JSONL,	/* JSON Lines (docs/formats.md) */
	XB_FORMAT_CSV,		/* RFC 4180 with a header row */
	XB_FORMAT_NR,
};

/* How the records of one kind are written in one format. */
struct xb_formatter {
	size_t		(*format)(char *dst, const void *rec);
	size_t		max;		/* most bytes of one record */
	const char	*header;	/* once before the records, or NULL */
};

/* Indexed by enum xb_format. */
extern const struct xb_formatter xb_bulkstat_formats[XB_FORMAT_NR];
extern const struct xb_formatter xb_inumbers_formats[XB_FORMAT_NR];

/* The --help lines of -o. */
#define XB_FORMAT_HELP							\
"   -o, --format <fmt>\n"						\
"              Print the records as text (xfs_io's, the default), jsonl\n" \
"              (one JSON object per line) or csv (RFC 4180 with a header\n" \
"              row); see docs/formats.md.  -d needs text.\n"

/* Parse -o's argument; XB_EXIT_OK or XB_EXIT_USAGE. */
enum xb_exit xb_parse_format(const char *cmd, const char *arg,
			     enum xb_format *fmt);

/*
 * Write @fmt's header (if it has one) to @fd before the first record.
 * Returns 0 or a negative errno.
 */
int xb_write_header(int fd, const struct xb_formatter *fmt);

/* --- scan_cmd.c: the driver shared by bulkstat and inumbers ------- */

struct xb_scan_cmd {
	const char	*name;		/* "bulkstat" */
	enum xbulk_kind	kind;
	bool		has_quiet;	/* accepts -q */
	bool		has_metadir;	/* accepts -m */
	const char	*help;		/* --help text */
	size_t		rec_size;	/* bytes of a record */
	const struct xb_formatter *formats;	/* by enum xb_format */
	/* -d: one line after each ioctl; returns bytes written */
	size_t		(*debug_line)(char *dst, size_t room,
				      const struct xfs_bulk_ireq *hdr);
};

enum xb_exit xb_scan_cmd_main(const struct xb_scan_cmd *cmd, int argc,
			      char **argv);

/* --- the commands: each returns its exit status ------------------ */

enum xb_exit xb_cmd_bulkstat(int argc, char **argv);
enum xb_exit xb_cmd_inumbers(int argc, char **argv);
enum xb_exit xb_cmd_bulkstat_single(int argc, char **argv);
enum xb_exit xb_cmd_du(int argc, char **argv);
enum xb_exit xb_cmd_find(int argc, char **argv);
enum xb_exit xb_cmd_path(int argc, char **argv);
enum xb_exit xb_cmd_snapshot(int argc, char **argv);
enum xb_exit xb_cmd_diff(int argc, char **argv);
enum xb_exit xb_cmd_export(int argc, char **argv);

#endif /* XBULK_CLI_H */
