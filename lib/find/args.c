// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * find's options and primaries with their arguments, checked and
 * prepared once: numbers, sizes, times, patterns, users and groups,
 * outputs.  Messages are GNU find 4.9's (LC_ALL=C quoting).
 */
#include <errno.h>
#include <fnmatch.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "find.h"
#include "../format/columns.h"

/* @s quoted as find's messages quote names, in buffer @slot. */
#define Q(slot, s)	xf_quote(ps->find, (slot), (s))

/* The next argument of the predicate being parsed, or NULL (message). */
static const char *
next_arg(struct xf_parser *ps)
{
	if (ps->i >= ps->argc) {
		xf_fail(ps, "missing argument to `%s'", ps->pred);
		return NULL;
	}
	return ps->argv[ps->i++];
}

/* Does a test of @kind read the file's status (find's need_stat)?
 * -printf says per directive (printf.c), -inum only of a directory. */
static bool
reads_status(enum xf_kind kind)
{
	switch (kind) {
	case XF_SIZE: case XF_EMPTY: case XF_TIME: case XF_NEWER:
	case XF_NUM: case XF_NOUSER: case XF_NOGROUP: case XF_PERM:
	case XF_SAMEFILE: case XF_FSTYPE: case XF_XFLAG: case XF_LS:
		return true;
	default:
		return false;
	}
}

static struct xf_node *
node(struct xf_parser *ps, enum xf_kind kind, uint32_t fields)
{
	struct xf_node *n = xf_zalloc(ps->find, sizeof(*n));

	if (n) {
		n->kind = kind;
		n->fields = fields | (reads_status(kind) ? XF_F_STAT : 0);
	}
	return n;
}

/* find's get_comp_type(): a leading '+' or '-'. */
static enum xf_cmp
comp_type(const char **s)
{
	if (**s == '+') {
		(*s)++;
		return XF_CMP_GT;
	}
	if (**s == '-') {
		(*s)++;
		return XF_CMP_LT;
	}
	return XF_CMP_EQ;
}

/* xstrtoumax(s, 10) with nothing after the number: strtoumax() takes
 * leading blanks and one '+' (so find takes -uid -+1 and -inum ' +5'),
 * xstrtoumax() refuses a '-'. */
static bool
get_u64(const char *s, uint64_t *v)
{
	char *end;

	while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
		s++;
	if (*s == '+')
		s++;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

/* -uid -gid -links -inum and the XFS numbers: [+-]N. */
static int
parse_num(struct xf_parser *ps, enum xf_field field, uint32_t fields,
	  struct xf_node **out)
{
	const char *arg = next_arg(ps), *s = arg;
	struct xf_node *n;

	if (!arg)
		return -EINVAL;
	n = node(ps, XF_NUM, fields);
	if (!n)
		return -ENOMEM;
	n->u.num.field = field;
	n->u.num.cmp = comp_type(&s);
	n->u.num.unit = 1;
	if (!get_u64(s, &n->u.num.n))
		return xf_fail(ps, "invalid argument `%s' to `%s'", arg,
			       ps->pred);
	*out = n;
	return 0;
}

/* -size [+-]N[cwbkMG], and the extent size hints in the same units. */
static int
parse_size(struct xf_parser *ps, enum xf_field field, uint32_t fields,
	   struct xf_node **out)
{
	static const char units[] = "bcwkMG";
	static const uint64_t bytes[] = { 512, 1, 2, 1024, 1 << 20, 1 << 30 };
	const char *arg = next_arg(ps), *s = arg, *u;
	char num[64];
	size_t len;
	struct xf_node *n;

	if (!arg)
		return -EINVAL;
	len = strlen(arg);
	if (!len)
		return xf_fail(ps, "invalid null argument to %s", ps->pred);
	n = node(ps, XF_SIZE, fields);
	if (!n)
		return -ENOMEM;
	n->u.num.field = field;
	n->u.num.unit = 512;
	u = strchr(units, arg[len - 1]);
	if (u) {
		n->u.num.unit = bytes[u - units];
		len--;
	} else if (arg[len - 1] < '0' || arg[len - 1] > '9') {
		return xf_fail(ps, "invalid %s type `%c'", ps->pred,
			       arg[len - 1]);
	}
	if (len >= sizeof(num))
		len = sizeof(num) - 1;
	memcpy(num, arg, len);
	num[len] = 0;
	s = num;
	n->u.num.cmp = comp_type(&s);
	if (!get_u64(s, &n->u.num.n))
		return xf_fail(ps, "Invalid argument `%s' to %s", arg,
			       ps->pred);
	*out = n;
	return 0;
}

/*
 * find's get_relative_timestamp(): @arg units of @unit seconds before
 * @origin, the comparison inverted (+N: older, so before the time).
 * Beyond the range of time_t (-mtime -1e20, -mmin inf) the time is the
 * end of that range: find's answers (everything, or nothing).  NaN is
 * refused (find fails an assertion), and so is a number strtod() cannot
 * hold (1e309, 1e-310), as find refuses it.
 */
static bool
relative_time(const char *arg, struct timespec origin, double unit,
	      enum xf_cmp *cmp, struct timespec *ref)
{
	const char *s = arg;
	double offset, seconds, nsec;
	char *end;

	*cmp = comp_type(&s);
	if (*cmp != XF_CMP_EQ)
		*cmp = *cmp == XF_CMP_LT ? XF_CMP_GT : XF_CMP_LT;
	if (!*s)
		return false;
	errno = 0;
	offset = strtod(s, &end);
	/* find's xstrtod(): an underflow to 0 is taken, an overflow not */
	if (*end || end == s || offset != offset ||
	    (errno == ERANGE && offset != 0))
		return false;
	/* modf(): the whole seconds and the fraction, both signed */
	seconds = offset * unit;
	if (!(seconds < 9.2e18 && seconds > -9.2e18)) {
		ref->tv_sec = seconds > 0 ? INT64_MIN : INT64_MAX;
		ref->tv_nsec = 0;
		return true;
	}
	nsec = (seconds - (double)(int64_t)seconds) * 1e9;
	seconds = (double)(int64_t)seconds;
	ref->tv_sec = origin.tv_sec - (time_t)seconds;
	ref->tv_nsec = origin.tv_nsec - (long)nsec;
	if (origin.tv_nsec < nsec) {
		ref->tv_nsec += 1000000000;
		ref->tv_sec--;
	}
	return true;
}

static uint32_t
time_fields(enum xbulk_time which)
{
	static const uint32_t f[] = {
		/* bs_version (OTHER) says whether there is a birth time */
		[XBULK_TIME_ATIME] = XBULK_F_ATIME,
		[XBULK_TIME_BTIME] = XBULK_F_BTIME | XBULK_F_OTHER,
		[XBULK_TIME_CTIME] = XBULK_F_CTIME,
		[XBULK_TIME_MTIME] = XBULK_F_MTIME,
	};

	return f[which];
}

/* The time of @which, or with @used (-used) atime - ctime. */
#define USED_FIELDS	(XBULK_F_ATIME | XBULK_F_CTIME)

/* -atime -ctime -mtime (days), -amin -cmin -mmin (minutes), -used. */
static int
parse_time(struct xf_parser *ps, enum xbulk_time which, bool used,
	   bool minutes, struct xf_node **out)
{
	const char *arg = next_arg(ps), *s = arg;
	struct timespec origin = ps->day_start;
	struct xf_node *n;

	if (!arg)
		return -EINVAL;
	n = node(ps, XF_TIME, used ? USED_FIELDS : time_fields(which));
	if (!n)
		return -ENOMEM;
	n->u.time.which = which;
	n->u.time.used = used;
	n->u.time.window = minutes ? 60 : 86400;
	if (used)
		origin = (struct timespec){ 0, 0 };
	else if (minutes)
		origin.tv_sec += 86400;
	else if (comp_type(&s) == XF_CMP_LT)
		origin.tv_sec += 86400 - 1;	/* find's end of today */
	if (!relative_time(arg, origin, minutes ? 60 : 86400,
			   &n->u.time.cmp, &n->u.time.ref)) {
		if (used)
			return xf_fail(ps, "Invalid argument %s to -used", arg);
		return xf_fail(ps, "invalid argument `%s' to `%s'", arg,
			       ps->pred);
	}
	*out = n;
	return 0;
}

/* lstat() a reference file (find -P; stat() with -H), with find's
 * message. */
static int
ref_stat(struct xf_parser *ps, const char *file, struct statx *stx)
{
	if (statx(AT_FDCWD, file, ps->find->follow_paths ? 0 :
		  AT_SYMLINK_NOFOLLOW,
		  STATX_BASIC_STATS | STATX_BTIME, stx))
		return xf_fail(ps, "%s: %s", Q(0, file), strerror(errno));
	return 0;
}

static struct timespec
stx_time(const struct statx *stx, char y)
{
	const struct statx_timestamp *t = y == 'a' ? &stx->stx_atime :
		y == 'B' ? &stx->stx_btime : y == 'c' ? &stx->stx_ctime :
		&stx->stx_mtime;

	return (struct timespec){ t->tv_sec, t->tv_nsec };
}

static enum xbulk_time
time_letter(char x)
{
	return x == 'a' ? XBULK_TIME_ATIME : x == 'B' ? XBULK_TIME_BTIME :
		x == 'c' ? XBULK_TIME_CTIME : XBULK_TIME_MTIME;
}

/* -newer -anewer -cnewer FILE (the file's mtime), -newerXY REF. */
static int
parse_newer(struct xf_parser *ps, char x, char y, struct xf_node **out)
{
	const char *arg = next_arg(ps);
	struct xf_node *n;
	struct statx stx;
	int err;

	if (!arg)
		return -EINVAL;
	n = node(ps, XF_NEWER, time_fields(time_letter(x)));
	if (!n)
		return -ENOMEM;
	n->u.time.which = time_letter(x);
	n->u.time.cmp = XF_CMP_GT;
	if (y == 't') {
		if (xf_parse_date(arg, &ps->find->now, &n->u.time.ref))
			return xf_fail(ps, "I cannot figure out how to "
				       "interpret %s as a date or time",
				       Q(0, arg));
	} else {
		err = ref_stat(ps, arg, &stx);
		if (err)
			return err;
		if (y == 'B' && !(stx.stx_mask & STATX_BTIME))
			return xf_fail(ps, "Cannot obtain birth time of file "
				       "%s", Q(0, arg));
		n->u.time.ref = stx_time(&stx, y);
	}
	*out = n;
	return 0;
}

/* -name -iname -path -ipath -wholename -iwholename -lname -ilname. */
static int
parse_match(struct xf_parser *ps, enum xf_kind kind, bool fold,
	    struct xf_node **out)
{
	const char *arg = next_arg(ps), *last;
	struct xf_node *n;
	size_t i;

	if (!arg)
		return -EINVAL;
	n = node(ps, kind, 0);
	if (!n)
		return -ENOMEM;
	n->u.match.pattern = arg;
	n->u.match.flags = fold ? FNM_CASEFOLD : 0;
	if (kind == XF_NAME && strchr(arg, '/'))
		xf_warn(ps, "warning: %s matches against basenames only, "
			"but the given pattern contains a directory "
			"separator (%s), thus the expression will evaluate "
			"to false all the time.  Did you mean %s?",
			Q(0, ps->pred), Q(1, "/"),
			Q(2, fold ? "-iwholename" : "-wholename"));
	last = strrchr(arg, '/');
	if (kind == XF_PATH && last && !last[1]) {
		for (i = 0; i < ps->find->npaths; i++)
			if (!fnmatch(arg, ps->find->paths[i], n->u.match.flags))
				break;
		if (i == ps->find->npaths)
			xf_warn_always(ps, "warning: %s %s will not match "
				       "anything because it ends with /.",
				       ps->pred, arg);
	}
	*out = n;
	return 0;
}

/* -regextype's names (gnulib regextype.c) and their syntax bits. */
static const struct {
	const char	*name;
	int		syntax;
} regex_types[] = {
	{ "findutils-default", RE_SYNTAX_EMACS | RE_DOT_NEWLINE },
	{ "ed", RE_SYNTAX_ED },
	{ "emacs", RE_SYNTAX_EMACS },
	{ "gnu-awk", RE_SYNTAX_GNU_AWK },
	{ "grep", RE_SYNTAX_GREP },
	{ "posix-awk", RE_SYNTAX_POSIX_AWK },
	{ "awk", RE_SYNTAX_AWK },
	{ "posix-basic", RE_SYNTAX_POSIX_BASIC },
	{ "posix-egrep", RE_SYNTAX_POSIX_EGREP },
	{ "egrep", RE_SYNTAX_EGREP },
	{ "posix-extended", RE_SYNTAX_POSIX_EXTENDED },
	{ "posix-minimal-basic", RE_SYNTAX_POSIX_MINIMAL_BASIC },
	{ "sed", RE_SYNTAX_SED },
};

#define NR_REGEX_TYPES	(sizeof(regex_types) / sizeof(regex_types[0]))

static int
parse_regextype(struct xf_parser *ps)
{
	const char *arg = next_arg(ps);
	char list[512];
	size_t i, len = 0;

	if (!arg)
		return -EINVAL;
	for (i = 0; i < NR_REGEX_TYPES; i++) {
		if (!strcmp(arg, regex_types[i].name)) {
			ps->regex_syntax = regex_types[i].syntax;
			return 0;
		}
		len += (size_t)snprintf(list + len, sizeof(list) - len,
					"%s%s", i ? ", " : "",
					Q(0, regex_types[i].name));
	}
	return xf_fail(ps, "Unknown regular expression type %s; valid "
		       "types are %s.", Q(0, arg), list);
}

/*
 * The nodes all -regex of one expression may make (xf_regex_size()).
 * glibc's memory grows with their square at worst: ".{1,4095}" takes
 * 135 MiB, "[a-z]{1,4095}" 260 MiB, where GNU find takes all memory
 * ("a+++" with 30 '+') or 8 GiB (".{1,32767}").
 */
#define REGEX_NODES_MAX	4097u

/* -regex -iregex: GNU regex (re_compile_pattern) with -regextype. */
static int
parse_regex(struct xf_parser *ps, bool fold, struct xf_node **out)
{
	const char *arg = next_arg(ps), *msg;
	struct re_pattern_buffer *re;
	struct xf_node *n;
	uint64_t left = REGEX_NODES_MAX - ps->regex_nodes, size;

	if (!arg)
		return -EINVAL;
	n = node(ps, XF_REGEX, 0);
	re = xf_regex_new(ps->find);
	if (!n || !re)
		return -ENOMEM;
	re_syntax_options = (reg_syntax_t)ps->regex_syntax |
			    (fold ? RE_ICASE : 0);
	size = xf_regex_size(arg, left);
	if (size > left)
		msg = "Regular expression too big";	/* glibc's REG_ESIZE */
	else
		msg = re_compile_pattern(arg, strlen(arg), re);
	ps->regex_nodes += size > left ? 0 : size;
	if (msg)
		return xf_fail(ps, "failed to compile regular expression "
			       "'%s': %s", arg, msg);
	n->u.regex = re;
	*out = n;
	return 0;
}

/* -type and -xtype: comma-separated letters of "bcdpfls". */
static int
parse_type(struct xf_parser *ps, enum xf_kind kind, struct xf_node **out)
{
	static const char letters[] = "bcdpfls";
	static const uint32_t fmt[] = { S_IFBLK, S_IFCHR, S_IFDIR, S_IFIFO,
					S_IFREG, S_IFLNK, S_IFSOCK };
	const char *arg = next_arg(ps), *s;
	struct xf_node *n;

	if (!arg)
		return -EINVAL;
	if (!*arg)
		return xf_fail(ps, "Arguments to %s should contain at least "
			       "one letter", ps->pred);
	n = node(ps, kind, 0);
	if (!n)
		return -ENOMEM;
	for (s = arg; *s; s++) {
		const char *l = strchr(letters, *s);
		uint32_t bit;

		if (*s == 'D')
			return xf_fail(ps, "%s D is not supported because "
				       "Solaris doors are not supported on the "
				       "platform find was compiled on.",
				       ps->pred);
		if (!l || !*s)
			return xf_fail(ps, "Unknown argument to %s: %c",
				       ps->pred, *s);
		bit = 1u << (fmt[l - letters] >> 12);
		if (n->u.types & bit)
			return xf_fail(ps, "Duplicate file type '%c' in the "
				       "argument list to %s.", *s, ps->pred);
		n->u.types |= bit;
		if (!s[1])
			break;
		if (s[1] != ',')
			return xf_fail(ps, "Must separate multiple arguments "
				       "to %s using: ','", ps->pred);
		s++;
		if (!s[1])
			return xf_fail(ps, "Last file type in list argument to "
				       "%s is missing, i.e., list is ending "
				       "on: ','", ps->pred);
	}
	*out = n;
	return 0;
}

/* -user NAME|UID and -group NAME|GID. */
static int
parse_owner(struct xf_parser *ps, bool group, struct xf_node **out)
{
	const char *arg = next_arg(ps);
	struct xf_node *n;
	size_t digits;
	uint64_t id;

	if (!arg)
		return -EINVAL;
	n = node(ps, XF_NUM, XBULK_F_OWNER);
	if (!n)
		return -ENOMEM;
	n->u.num.field = group ? XF_FLD_GID : XF_FLD_UID;
	n->u.num.cmp = XF_CMP_EQ;
	if (group) {
		struct group *gr = getgrnam(arg);

		if (gr) {
			n->u.num.n = gr->gr_gid;
			*out = n;
			return 0;
		}
	} else {
		struct passwd *pw = getpwnam(arg);

		if (pw) {
			n->u.num.n = pw->pw_uid;
			*out = n;
			return 0;
		}
	}
	digits = strspn(arg, "0123456789");
	if (digits && !arg[digits]) {
		/* find takes numbers up to INT_MAX here (-uid: any) */
		if (!get_u64(arg, &id) || id > INT_MAX)
			return xf_fail(ps, "%s: %s", arg, strerror(ERANGE));
		n->u.num.n = id;
		*out = n;
		return 0;
	}
	if (!group)
		return *arg ? xf_fail(ps, "%s is not the name of a known "
				      "user", Q(0, arg)) :
			xf_fail(ps, "The argument to -user should not be "
				"empty");
	if (digits)
		return xf_fail(ps, "%s is not the name of an existing group "
			       "and it does not look like a numeric group ID "
			       "because it has the unexpected suffix %s",
			       Q(0, arg), Q(1, arg + digits));
	return *arg ? xf_fail(ps, "%s is not the name of an existing group",
			      Q(0, arg)) :
		xf_fail(ps, "argument to -group is empty, but should be a "
			"group name");
}

static int
parse_perm(struct xf_parser *ps, struct xf_node **out)
{
	const char *arg = next_arg(ps);
	struct xf_node *n;
	int start = 0;

	if (!arg)
		return -EINVAL;
	n = node(ps, XF_PERM, 0);
	if (!n)
		return -ENOMEM;
	if (arg[0] == '-' || arg[0] == '/') {
		n->u.perm.kind = arg[0];
		start = 1;
	}
	if ((arg[0] == '+' && arg[1] >= '0' && arg[1] < '8') ||
	    xf_parse_mode(arg + start, &n->u.perm.mode[0], &n->u.perm.mode[1]))
		return xf_fail(ps, "invalid mode %s", Q(0, arg));
	if (arg[0] == '/' && !n->u.perm.mode[0] && !n->u.perm.mode[1]) {
		xf_warn_always(ps, "warning: you have specified a mode pattern "
			       "%s (which is equivalent to /000). The meaning "
			       "of -perm /000 has now been changed to be "
			       "consistent with -perm -000; that is, while "
			       "it used to match no files, it now matches all "
			       "files.", arg);
		n->u.perm.kind = '-';
	}
	*out = n;
	return 0;
}

/* -xfs-xflag NAME[,NAME...]: FS_XFLAG_* by columns.c's names. */
static int
parse_xflag(struct xf_parser *ps, struct xf_node **out)
{
	const char *arg = next_arg(ps), *s;
	struct xf_node *n;

	if (!arg)
		return -EINVAL;
	n = node(ps, XF_XFLAG, XBULK_F_XFLAGS);
	if (!n)
		return -ENOMEM;
	for (s = arg; *s;) {
		size_t len = strcspn(s, ","), bit;

		for (bit = 0; bit < xbulk_xflag_names.nbits; bit++) {
			const char *name = xbulk_xflag_names.name[bit];

			if (name && strlen(name) == len && !strncmp(name, s, len))
				break;
		}
		if (bit == xbulk_xflag_names.nbits)
			return xf_fail(ps, "invalid argument `%s' to `%s' "
				       "(flags: see xbulk(8))", arg, ps->pred);
		n->u.xflags |= 1ULL << bit;
		s += len + (s[len] == ',');
	}
	*out = n;
	return 0;
}

/* -samefile FILE: its inode (a file on another filesystem never). */
static int
parse_samefile(struct xf_parser *ps, struct xf_node **out)
{
	const char *arg = next_arg(ps);
	struct xf_node *n;
	struct statx stx;
	int err;

	if (!arg)
		return -EINVAL;
	err = ref_stat(ps, arg, &stx);
	if (err)
		return err;
	n = node(ps, XF_SAMEFILE, 0);
	if (!n)
		return -ENOMEM;
	n->u.same.ino = stx.stx_ino;
	n->u.same.dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
	*out = n;
	return 0;
}

/* The stream of a -fprint FILE, shared by every action naming it. */
static struct xf_stream *
output_stream(struct xf_parser *ps, const char *file)
{
	struct xbulk_find *f = ps->find;
	struct xf_stream **v, *s;
	size_t i;

	if (!file || !strcmp(file, "/dev/stdout"))
		return f->streams[0];
	for (i = 1; i < f->nstreams; i++)
		if (!strcmp(f->streams[i]->name, file))
			return f->streams[i];
	v = realloc(f->streams, (f->nstreams + 1) * sizeof(*v));
	if (!v)
		return NULL;
	f->streams = v;
	s = xf_zalloc(f, sizeof(*s));
	if (!s)
		return NULL;
	s->name = file;
	s->out.fd = -1;		/* until xbulk_find_set_output(): -EBADF */
	v[f->nstreams++] = s;
	return s;
}

/* -print -print0 -printf -ls and their -f variants. */
static int
parse_action(struct xf_parser *ps, enum xf_kind kind, bool file, char end,
	     struct xf_node **out)
{
	const char *name = NULL, *fmt;
	struct xf_node *n = node(ps, kind, kind == XF_LS ? XF_LS_FIELDS : 0);

	if (!n)
		return -ENOMEM;
	if (file && !(name = next_arg(ps)))
		return -EINVAL;
	n->acts = true;
	n->u.act.end = end;
	n->u.act.out = output_stream(ps, name);
	if (!n->u.act.out)
		return -ENOMEM;
	if (kind == XF_PRINT && end == '\n')
		n->u.act.out->records = true;
	if (kind == XF_PRINTF) {
		fmt = next_arg(ps);
		if (!fmt)
			return -EINVAL;
		n->u.act.fmt = xf_format_compile(ps, fmt, &n->fields);
		if (!n->u.act.fmt)
			return -EINVAL;
	}
	*out = n;
	return 0;
}

int
xf_parse_primary(struct xf_parser *ps, const char *p, struct xf_node **out)
{
	size_t i;

	*out = NULL;
#define IS(s)	(!strcmp(p, s))
	if (IS("-true") || IS("-false") || IS("-empty") || IS("-nouser") ||
	    IS("-nogroup") || IS("-prune") || IS("-quit") || IS("-delete")) {
		static const enum xf_kind k[] = { XF_TRUE, XF_FALSE, XF_EMPTY,
			XF_NOUSER, XF_NOGROUP, XF_PRUNE, XF_QUIT, XF_DELETE };
		static const uint32_t fl[] = { 0, 0, XBULK_F_SIZE,
			XBULK_F_OWNER, XBULK_F_OWNER, 0, 0, XBULK_F_NLINK };
		const char *names[] = { "-true", "-false", "-empty", "-nouser",
			"-nogroup", "-prune", "-quit", "-delete" };

		for (i = 0; strcmp(p, names[i]); i++)
			;
		*out = node(ps, k[i], fl[i]);
		if (*out && (k[i] == XF_PRUNE || k[i] == XF_QUIT ||
			     k[i] == XF_DELETE))
			(*out)->acts = true;
		/* -delete implies -depth; -prune then does nothing */
		ps->find->has_prune |= k[i] == XF_PRUNE;
		if (k[i] == XF_DELETE)
			ps->find->has_delete = ps->find->post = true;
		return *out ? 0 : -ENOMEM;
	}
	if (IS("-exec") || IS("-execdir") || IS("-ok") || IS("-okdir"))
		return xf_parse_exec(ps, p, out);
	if (IS("-name") || IS("-iname"))
		return parse_match(ps, XF_NAME, p[1] == 'i', out);
	if (IS("-path") || IS("-ipath") || IS("-wholename") ||
	    IS("-iwholename"))
		return parse_match(ps, XF_PATH, p[1] == 'i', out);
	if (IS("-lname") || IS("-ilname"))
		return parse_match(ps, XF_LNAME, p[1] == 'i', out);
	if (IS("-regex") || IS("-iregex"))
		return parse_regex(ps, p[1] == 'i', out);
	if (IS("-type") || IS("-xtype"))
		return parse_type(ps, p[1] == 'x' ? XF_XTYPE : XF_TYPE, out);
	if (IS("-size"))
		return parse_size(ps, XF_FLD_SIZE, XBULK_F_SIZE, out);
	if (IS("-atime") || IS("-ctime") || IS("-mtime") || IS("-amin") ||
	    IS("-cmin") || IS("-mmin") || IS("-xfs-btime") ||
	    IS("-xfs-bmin"))
		return parse_time(ps, time_letter(p[1] == 'x' ? 'B' : p[1]),
				  false, strstr(p, "min") != NULL, out);
	if (IS("-used"))
		return parse_time(ps, XBULK_TIME_ATIME, true, false, out);
	if (IS("-newer") || IS("-anewer") || IS("-cnewer"))
		return parse_newer(ps, p[1] == 'n' ? 'm' : p[1], 'm', out);
	if (!strncmp(p, "-newer", 6) && strlen(p) == 8) {
		if (p[6] == 't' || !strchr("aBcm", p[6]) || !strchr("aBcmt", p[7]))
			return xf_fail(ps, "invalid predicate `%s'", p);
		if (ps->i >= ps->argc)
			return xf_fail(ps, "The %s test needs an argument",
				       Q(0, p));
		return parse_newer(ps, p[6], p[7], out);
	}
	if (IS("-uid") || IS("-gid"))
		return parse_num(ps, p[1] == 'u' ? XF_FLD_UID : XF_FLD_GID,
				 XBULK_F_OWNER, out);
	if (IS("-links"))
		return parse_num(ps, XF_FLD_NLINK, XBULK_F_NLINK, out);
	if (IS("-inum"))
		return parse_num(ps, XF_FLD_INO, 0, out);
	if (IS("-user") || IS("-group"))
		return parse_owner(ps, p[1] == 'g', out);
	if (IS("-perm"))
		return parse_perm(ps, out);
	if (IS("-samefile"))
		return parse_samefile(ps, out);
	if (IS("-fstype")) {
		const char *arg = next_arg(ps);

		if (!arg)
			return -EINVAL;
		*out = node(ps, XF_FSTYPE, 0);
		if (*out)
			(*out)->u.fstype = arg;
		return *out ? 0 : -ENOMEM;
	}
	if (IS("-readable") || IS("-writable") || IS("-executable")) {
		*out = node(ps, XF_ACCESS, 0);
		if (*out)
			(*out)->u.access = p[1] == 'r' ? R_OK :
					   p[1] == 'w' ? W_OK : X_OK;
		return *out ? 0 : -ENOMEM;
	}
	if (IS("-context"))
		return xf_fail(ps, "invalid predicate -context: SELinux is not "
			       "enabled.");
	if (IS("-print") || IS("-print0") || IS("-fprint") || IS("-fprint0"))
		return parse_action(ps, XF_PRINT, p[1] == 'f',
				    p[strlen(p) - 1] == '0' ? 0 : '\n', out);
	if (IS("-printf") || IS("-fprintf"))
		return parse_action(ps, XF_PRINTF, p[1] == 'f', 0, out);
	if (IS("-ls") || IS("-fls"))
		return parse_action(ps, XF_LS, p[1] == 'f', 0, out);
	if (IS("-xfs-extents") || IS("-xfs-aextents"))
		return parse_num(ps, p[5] == 'a' ? XF_FLD_AEXTENTS :
				 XF_FLD_EXTENTS, XBULK_F_EXTENTS, out);
	if (IS("-xfs-projid"))
		return parse_num(ps, XF_FLD_PROJID, XBULK_F_PROJID, out);
	if (IS("-xfs-extsize") || IS("-xfs-cowextsize"))
		return parse_size(ps, p[5] == 'c' ? XF_FLD_COWEXTSIZE :
				  XF_FLD_EXTSIZE, XBULK_F_HINTS, out);
	if (IS("-xfs-xflag"))
		return parse_xflag(ps, out);
#undef IS
	return xf_fail(ps, "unknown predicate `%s'", p);
}

/* A global option after a test or action: find's warning. */
static void
global_option(struct xf_parser *ps, const char *name)
{
	if (ps->first_nonoption)
		xf_warn(ps, "warning: you have specified the global option %s "
			"after the argument %s, but global options are not "
			"positional, i.e., %s affects tests specified before "
			"it as well as those specified after it.  Please "
			"specify global options before other arguments.",
			name, ps->first_nonoption, name);
}

static int
parse_depth_limit(struct xf_parser *ps, int *limit)
{
	const char *arg = next_arg(ps);
	uint64_t v;

	if (!arg)
		return -EINVAL;
	if (strspn(arg, "0123456789") != strlen(arg) || !*arg)
		return xf_fail(ps, "Expected a positive decimal integer "
			       "argument to %s, but got %s", ps->pred,
			       Q(0, arg));
	if (!get_u64(arg, &v) || v > INT_MAX)
		return xf_fail(ps, "%s: %s", arg, strerror(ERANGE));
	*limit = (int)v;
	return 0;
}

int
xf_parse_option(struct xf_parser *ps, const char *p, bool *handled)
{
	struct xbulk_find *f = ps->find;
	struct tm tm;

	*handled = true;
	if (!strcmp(p, "-daystart")) {
		if (!ps->full_days) {
			ps->day_start.tv_sec += 86400;
			ps->day_start.tv_nsec = 0;
			if (xf_localtime(ps->day_start.tv_sec, &tm))
				ps->day_start.tv_sec -= tm.tm_sec +
					tm.tm_min * 60 + tm.tm_hour * 3600;
			ps->full_days = true;
		}
		return 0;
	}
	if (!strcmp(p, "-regextype"))
		return parse_regextype(ps);
	if (!strcmp(p, "-warn") || !strcmp(p, "-nowarn")) {
		f->warnings = p[1] == 'w';
		return 0;
	}
	if (!strcmp(p, "-follow")) {
		ps->status = XBULK_FIND_EXIT_REFUSED;
		return xf_fail(ps, "%s", XF_NO_FOLLOW("-follow"));
	}
	if (!strcmp(p, "-files0-from")) {
		const char *file = next_arg(ps);

		if (!file)
			return -EINVAL;
		f->files0_from = file;
		return 0;
	}
	if (!strcmp(p, "-d"))
		xf_warn(ps, "warning: the -d option is deprecated; please use "
			"-depth instead, because the latter is a "
			"POSIX-compliant feature.");
	if (!strcmp(p, "-depth") || !strcmp(p, "-d") ||
	    !strcmp(p, "-maxdepth") || !strcmp(p, "-mindepth") ||
	    !strcmp(p, "-xdev") || !strcmp(p, "-mount") ||
	    !strcmp(p, "-noleaf") || !strcmp(p, "-ignore_readdir_race") ||
	    !strcmp(p, "-noignore_readdir_race")) {
		global_option(ps, p);
		if (p[2] == 'e' || !p[2])
			f->post = f->explicit_depth = true;
		if (!strcmp(p, "-maxdepth"))
			return parse_depth_limit(ps, &f->maxdepth);
		if (!strcmp(p, "-mindepth"))
			return parse_depth_limit(ps, &f->mindepth);
		return 0;
	}
	*handled = false;
	return 0;
}
