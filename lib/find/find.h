/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/find (prefix xf_: CONTRIBUTING.md).
 *
 * find expressions: the compiled form shared by lib/find's files.
 *
 * parse.c turns the command line into a tree of struct xf_node, once,
 * each primary's node made by its row of args.c's table; eval.c walks
 * the tree per file through the rows' evaluators (evaluators.h).
 * Nothing on the per-file path parses or allocates.  Beside this header:
 * facts.h (what find knows of a file), actions.h (what the actions do),
 * stream.h (the outputs).
 */
#ifndef XBULK_FIND_INT_H
#define XBULK_FIND_INT_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "../base.h"
#include "stream.h"

/* A node of the expression: an operator, or a primary (its row). */
enum xf_kind {
	XF_AND, XF_OR, XF_NOT, XF_COMMA,
	XF_PRIMARY,	/* a test or an action: n->prim says which */
};

enum xf_cmp { XF_CMP_EQ, XF_CMP_LT, XF_CMP_GT };

/* Which number of the record -size or a numeric test compares. */
enum xf_field {
	XF_FLD_UID, XF_FLD_GID, XF_FLD_NLINK, XF_FLD_INO, XF_FLD_SIZE,
	XF_FLD_EXTENTS, XF_FLD_AEXTENTS, XF_FLD_PROJID, XF_FLD_EXTSIZE,
	XF_FLD_COWEXTSIZE,
};

struct xf_format;

/* -exec, -execdir, -ok, -okdir (exec.c; freed by xbulk_find_free()). */
struct xf_exec {
	struct xf_exec	*next;		/* the expression's, in order */
	char		**words;	/* CMD ARGS up to the terminator;
					   '+': without the "{}" */
	size_t		nwords;
	const char	*action;	/* "-exec"... for messages */
	bool		plus;		/* "{} +" */
	bool		dir;		/* -execdir, -okdir */
	bool		ok;		/* -ok, -okdir */
	/* the batch of "{} +" (and the one command line of ';') */
	size_t		*args;		/* offsets in @chars */
	size_t		nargs, args_cap;
	char		*chars;
	size_t		nchars, chars_cap;
	size_t		base_chars;	/* of the words */
	bool		todo;		/* names added */
	int		wd;		/* -execdir: where the batch runs */
};

/*
 * Not a bulkstat field: the node reads what find's stat() gives (find's
 * need_stat), so on a file whose record may be stale it stats it first
 * (live.c).  Never passed to the names engine.
 */
#define XF_F_STAT	(1u << 31)

struct xf_node {
	enum xf_kind		kind;
	const struct xf_primary	*prim;		/* XF_PRIMARY: its row */
	struct xf_node		*left, *right;	/* operators (NOT: right) */
	uint32_t		fields;		/* XBULK_F_* this subtree needs */
	union {				/* the primary's argument */
		struct {			/* -name -path -lname... */
			const char	*pattern;
			int		flags;	/* FNM_CASEFOLD */
		} match;
		regex_t			*regex;
		uint32_t		types;	/* -type -xtype: bit per S_IFMT>>12 */
		struct {			/* -size, numbers */
			enum xf_field	field;
			enum xf_cmp	cmp;
			uint64_t	n;
			uint64_t	unit;	/* -size: bytes per unit */
		} num;
		struct {			/* -mtime..., -newer... */
			enum xbulk_time	which;
			bool		used;	/* -used: atime - ctime */
			enum xf_cmp	cmp;
			struct timespec	ref;
			int64_t		window;	/* seconds (-mtime N) */
		} time;
		struct {
			int		kind;	/* 0 exact, '-' all, '/' any */
			uint32_t	mode[2];	/* [0] files, [1] dirs */
		} perm;
		struct {			/* -samefile */
			uint64_t	ino;
			uint64_t	dev;
		} same;
		const char		*fstype;
		int			access;	/* R_OK W_OK X_OK */
		uint64_t		xflags;	/* -xfs-xflag */
		struct {			/* -print -printf -ls... */
			struct xf_stream	*out;
			struct xf_format	*fmt;	/* -printf */
			char			end;	/* -print: '\n' or 0 */
		} act;
		struct xf_exec		*exec;	/* -exec... */
	} u;
};

/* What a primary is and does (struct xf_primary .props). */
enum {
	XF_P_OPTION	= 1u << 0,	/* an option: true (or nothing) */
	XF_P_LEADING	= 1u << 1,	/* before the PATHs only (parse.c) */
	XF_P_REFUSED	= 1u << 2,	/* not supported: use GNU find */
	XF_P_XFS	= 1u << 3,	/* an XFS extension */
	XF_P_ACTION	= 1u << 4,	/* an action */
	XF_P_KEEPS	= 1u << 5,	/* the pre-filter keeps the inodes it
					   may act on: prints, runs, deletes
					   or quits (not -prune) */
	XF_P_NO_PRINT	= 1u << 6,	/* no default -print (find's
					   no_default_print) */
	XF_P_STREAM	= 1u << 7,	/* writes to n->u.act.out */
	XF_P_FILE	= 1u << 8,	/* takes an output FILE first (-f...) */
	XF_P_FOLD	= 1u << 9,	/* case-insensitive (-iname...) */
	XF_P_STAT	= 1u << 10,	/* reads the file's status (find's
					   need_stat): stat()ed again once
					   the expression changed the tree */
	XF_P_STAT_DIR	= 1u << 11,	/* ... of a directory only (-inum:
					   d_ino answers for the rest) */
	XF_P_LIVE	= 1u << 12,	/* needs the live filesystem, not
					   only names and records: a link's
					   target, access(2), another file,
					   a program run, a name removed
					   (refused over a snapshot:
					   xbulk_find_offline()) */
};

struct xf_parser;
struct xf_state;

/*
 * One row per primary and option of find's language (args.c's table,
 * in xbulk(8)'s order).  Everything about a primary is here: how its
 * arguments are parsed, how it is evaluated on a file (@eval) and, when
 * the bulkstat record alone can decide it, on the record before any name
 * is read (@pre: the pre-filter, xbulk find's central idea), the record's
 * fields it needs and its properties.
 */
struct xf_primary {
	const char	*name;		/* "-name"; "-newerXY" for the family */
	/* Parse the arguments after the name into *@out (NULL: the option
	 * makes no node); 0 or -EINVAL (xf_fail()) or -ENOMEM.  NULL for a
	 * leading option (parse.c handles it). */
	int		(*parse)(struct xf_parser *ps,
				 const struct xf_primary *p,
				 struct xf_node **out);
	/* On the file (st->file, find's stat() of it once need_stat()
	 * has run): true or false. */
	bool		(*eval)(struct xbulk_find *f, const struct xf_node *n,
				struct xf_state *st);
	/* On the bulkstat record alone: XF_V_TRUE, XF_V_FALSE or XF_V_UNKNOWN
	 * (the name, or more than the record, would tell); NULL: always
	 * unknown. */
	int		(*pre)(const struct xbulk_find *f,
			       const struct xf_node *n,
			       const struct xfs_bulkstat *bs);
	uint32_t	fields;		/* XBULK_F_* it reads of the record */
	uint32_t	props;		/* XF_P_* */
	int		arg;		/* the parser's: a field, a time... */
};

/* Three-valued results of a primary's @pre. */
enum { XF_V_FALSE = 0, XF_V_TRUE = 1, XF_V_UNKNOWN = 2 };

/* The row of @name (the -newerXY row for "-newer" and two letters, not
 * checked), NULL if none can be parsed (leading options too). */
const struct xf_primary *xf_primary_lookup(const char *name);

/* Longest user or group name kept (longer ones print as numbers). */
#define XF_ID_NAME_MAX	256

/* -ls's column widths, which grow as wider values are met (find's). */
struct xf_ls_widths {
	int	ino, blocks, owner, group, major, minor, size;
};

/* A buffer for one quoted name of a message (quote.c). */
struct xf_quoted {
	char	*buf;
	size_t	cap;
};

/* Names one message may quote at once. */
#define XF_QUOTE_SLOTS	3

struct xbulk_find {
	struct xf_node		*root;
	/* options */
	bool			post;		/* -depth */
	int			maxdepth;	/* -1: none */
	int			mindepth;
	bool			warnings;
	/* the PATH operands */
	char			**paths;
	size_t			npaths;
	/* outputs: [0] is stdout, then -fprint files in command order */
	struct xf_stream	**streams;
	size_t			nstreams;
	/* compiled -regex patterns (regfree() them) */
	regex_t			**regexes;
	size_t			nregexes;
	/* everything the parser allocated, freed together */
	void			**allocs;
	size_t			nallocs, allocs_cap;
	/* the filesystem */
	unsigned int		blocklog;
	uint64_t		dev;
	/* now, for -mtime -ls and friends */
	struct timespec		now;
	struct xbulk_ids	*ids;		/* user and group names */
	struct xbulk_find_opts	opts;
	uint64_t		problems;	/* non-fatal, for exit 1 */
	struct xf_ls_widths	ls;
	enum xbulk_find_record	record;		/* --format */
	bool			started;	/* a file was evaluated */
	char			*linkbuf;	/* readlink results */
	size_t			linkcap;
	struct xf_quoted	quoted[XF_QUOTE_SLOTS];
	bool			follow_paths;	/* -H, -L */
	bool			logical;	/* -L, -follow: every symbolic
						   link followed */
	bool			xdev;		/* -xdev, -mount */
	bool			ignore_race;	/* -ignore_readdir_race: a
						   file gone since its
						   directory was read is
						   not told (live.c) */
	bool			paths_given;	/* not the default "." */
	const char		*files0_from;	/* -files0-from FILE */
	/* actions that run programs or delete (exec.c, live.c) */
	bool			explicit_depth;	/* -depth or -d given */
	bool			has_prune;
	bool			has_delete;
	bool			execdir_plus;	/* an -execdir ... {} + */
	bool			ok_stdin;	/* -ok or -okdir read stdin */
	bool			changed;	/* a command ran or -delete
						   unlinked a linked file:
						   records may be stale */
	bool			deleted;	/* -delete removed a name */
	bool			fatal;		/* find's error(EXIT_FAILURE) */
	int			level;		/* depth of the last visit */
	struct xf_exec		*execs;		/* every -exec..., in order */
	struct xf_exec		**execs_tail;
	size_t			arg_max;	/* bytes of a command line */
	size_t			arg_count_max;	/* its arguments */
	struct xbulk_entry	restat;		/* a record stat()ed now */
};

/* parse.c's helpers for the argument parsers (args.c). */
struct xf_parser {
	struct xbulk_find	*find;
	char			**argv;
	int			argc;
	int			i;		/* next argument */
	const char		*pred;		/* the predicate being parsed */
	int			regex_syntax;	/* -regextype */
	uint64_t		regex_nodes;	/* xf_regex_size()s so far */
	struct timespec		day_start;	/* options.cur_day_start */
	bool			full_days;	/* -daystart seen */
	const char		*first_nonoption;
	char			*err;		/* message buffer */
	size_t			errlen;
	int			status;		/* exit status of the error */
};

/* object.c */
/* Keep @p with the find's other allocations; NULL: out of memory. */
void *xf_keep(struct xbulk_find *f, void *p);
void *xf_zalloc(struct xbulk_find *f, size_t size);
/* A zeroed pattern buffer with a fastmap, regfree()d with the find. */
regex_t *xf_regex_new(struct xbulk_find *f);
/* A new node of row @p with its fields (and XF_F_STAT as the row
 * says); NULL: out of memory. */
struct xf_node *xf_node_new(struct xf_parser *ps, const struct xf_primary *p);

/*
 * An upper bound of the nodes glibc's regcomp makes of @re in any
 * -regextype (repetitions copy what they repeat); more than @cap: cap + 1.
 */
uint64_t xf_regex_size(const char *re, uint64_t cap);

/* diag.c */
/* Set the parser's error message; returns -EINVAL. */
int xf_fail(struct xf_parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A warning, if warnings are on. */
void xf_warn(struct xf_parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A warning whatever -warn says (find prints some always). */
void xf_warn_always(struct xf_parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A file that could not be fully handled: counted, and told to the
 * caller's problem hook (find then exits 1). */
void xf_problem(struct xbulk_find *f, const char *path, int err);

/* quote.c */
/* @name quoted as find's messages quote file names (xbulk_find_quote()),
 * in buffer @slot of @f (valid until that slot is used again). */
const char *xf_quote(struct xbulk_find *f, unsigned int slot,
		     const char *name);

/* args.c: the table, the primaries' arguments */
/* find's message for a name no row has (and, on a second line, the row
 * @name is likely a typo of); returns -EINVAL. */
int xf_unknown_primary(struct xf_parser *ps, const char *name);

#endif /* XBULK_FIND_INT_H */
