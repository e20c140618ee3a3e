// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * find's options and primaries: one table with a row for each (struct
 * xf_primary: name, parser, evaluators, fields, properties), and the
 * parsers that check and prepare their arguments once: numbers, sizes,
 * times, patterns, users and groups, outputs.  Messages are GNU find
 * 4.9's (LC_ALL=C quoting).
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

#include "facts.h"
#include "actions.h"
#include "evaluators.h"
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

/* -uid -gid -links -inum and the XFS numbers: [+-]N of field p->arg. */
static int
parse_num(struct xf_parser *ps, const struct xf_primary *p,
	  struct xf_node **out)
{
	const char *arg = next_arg(ps), *s = arg;
	struct xf_node *n;

	if (!arg)
		return -EINVAL;
	n = xf_node_new(ps, p);
	if (!n)
		return -ENOMEM;
	n->u.num.field = (enum xf_field)p->arg;
	n->u.num.cmp = comp_type(&s);
	n->u.num.unit = 1;
	if (!get_u64(s, &n->u.num.n))
		return xf_fail(ps, "invalid argument `%s' to `%s'", arg,
			       ps->pred);
	*out = n;
	return 0;
}

/* -size [+-]N[cwbkMG], and the extent size hints in the same units
 * (field p->arg). */
static int
parse_size(struct xf_parser *ps, const struct xf_primary *p,
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
	n = xf_node_new(ps, p);
	if (!n)
		return -ENOMEM;
	n->u.num.field = (enum xf_field)p->arg;
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

/* parse_time()'s p->arg: an enum xbulk_time, and these */
#define TIME_MIN	0x100		/* minutes, not days */
#define TIME_USED	0x200		/* -used: atime - ctime */
#define TIME_WHICH(arg)	((enum xbulk_time)((arg) & 0xff))

/* -atime -ctime -mtime (days), -amin -cmin -mmin (minutes), -used. */
static int
parse_time(struct xf_parser *ps, const struct xf_primary *p,
	   struct xf_node **out)
{
	const char *arg = next_arg(ps), *s = arg;
	struct timespec origin = ps->day_start;
	enum xbulk_time which = TIME_WHICH(p->arg);
	bool used = p->arg & TIME_USED, minutes = p->arg & TIME_MIN;
	struct xf_node *n;

	if (!arg)
		return -EINVAL;
	n = xf_node_new(ps, p);
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

/*
 * A reference file's status as find's xstat gives it, with find's
 * message: lstat() (-P); with -H stat(), and lstat() when that fails
 * with ENOENT or ENOTDIR, so that a dangling symbolic link, or one
 * through a file ("file/"), is the link itself (findutils' optionh_stat()
 * and fallback_stat()).
 */
static int
ref_stat(struct xf_parser *ps, const char *file, struct statx *stx)
{
	const unsigned int mask = STATX_BASIC_STATS | STATX_BTIME;
	bool follow = ps->find->follow_paths;

	if (follow && !statx(AT_FDCWD, file, 0, mask, stx))
		return 0;
	if ((follow && errno != ENOENT && errno != ENOTDIR) ||
	    statx(AT_FDCWD, file, AT_SYMLINK_NOFOLLOW, mask, stx))
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

/* The time X of the file newer than the time Y of REF (or the date). */
static int
newer(struct xf_parser *ps, const struct xf_primary *p, char x, char y,
      struct xf_node **out)
{
	const char *arg = next_arg(ps);
	struct xf_node *n;
	struct statx stx;
	int err;

	if (!arg)
		return -EINVAL;
	n = xf_node_new(ps, p);
	if (!n)
		return -ENOMEM;
	n->fields |= time_fields(time_letter(x));
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

/* -newer -anewer -cnewer FILE: the file's mtime (X: p->arg). */
static int
parse_newer(struct xf_parser *ps, const struct xf_primary *p,
	    struct xf_node **out)
{
	return newer(ps, p, (char)p->arg, 'm', out);
}

/* -newerXY REF: X and Y from the name. */
static int
parse_newerxy(struct xf_parser *ps, const struct xf_primary *p,
	      struct xf_node **out)
{
	const char *name = ps->pred, x = name[6], y = name[7];

	if (x == 't' || !strchr("aBcm", x) || !strchr("aBcmt", y))
		return xf_fail(ps, "invalid predicate `%s'", name);
	if (ps->i >= ps->argc)
		return xf_fail(ps, "The %s test needs an argument",
			       Q(0, name));
	return newer(ps, p, x, y, out);
}

/* parse_match()'s p->arg: what the pattern is matched against */
enum { MATCH_NAME = 'n', MATCH_PATH = 'p', MATCH_LINK = 'l' };

/* -name -iname -path -ipath -wholename -iwholename -lname -ilname. */
static int
parse_match(struct xf_parser *ps, const struct xf_primary *p,
	    struct xf_node **out)
{
	const char *arg = next_arg(ps), *last;
	bool fold = p->props & XF_P_FOLD;
	struct xf_node *n;
	size_t i;

	if (!arg)
		return -EINVAL;
	n = xf_node_new(ps, p);
	if (!n)
		return -ENOMEM;
	n->u.match.pattern = arg;
	n->u.match.flags = fold ? FNM_CASEFOLD : 0;
	if (p->arg == MATCH_NAME && strchr(arg, '/'))
		xf_warn(ps, "warning: %s matches against basenames only, "
			"but the given pattern contains a directory "
			"separator (%s), thus the expression will evaluate "
			"to false all the time.  Did you mean %s?",
			Q(0, ps->pred), Q(1, "/"),
			Q(2, fold ? "-iwholename" : "-wholename"));
	last = strrchr(arg, '/');
	if (p->arg == MATCH_PATH && last && !last[1]) {
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

/* An option's node: -true (an option is true where it stands). */
static int
option_true(struct xf_parser *ps, struct xf_node **out)
{
	*out = xf_node_new(ps, xf_primary_lookup("-true"));
	return *out ? 0 : -ENOMEM;
}

static int
opt_regextype(struct xf_parser *ps, const struct xf_primary *p,
	      struct xf_node **out)
{
	const char *arg = next_arg(ps);
	char list[512];
	size_t i, len = 0;

	(void)p;
	if (!arg)
		return -EINVAL;
	for (i = 0; i < NR_REGEX_TYPES; i++) {
		if (!strcmp(arg, regex_types[i].name)) {
			ps->regex_syntax = regex_types[i].syntax;
			return option_true(ps, out);
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
parse_regex(struct xf_parser *ps, const struct xf_primary *p,
	    struct xf_node **out)
{
	const char *arg = next_arg(ps), *msg;
	bool fold = p->props & XF_P_FOLD;
	struct re_pattern_buffer *re;
	struct xf_node *n;
	uint64_t left = REGEX_NODES_MAX - ps->regex_nodes, size;

	if (!arg)
		return -EINVAL;
	n = xf_node_new(ps, p);
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
parse_type(struct xf_parser *ps, const struct xf_primary *p,
	   struct xf_node **out)
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
	n = xf_node_new(ps, p);
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

/* -user NAME|UID and -group NAME|GID (p->arg XF_FLD_GID). */
static int
parse_owner(struct xf_parser *ps, const struct xf_primary *p,
	    struct xf_node **out)
{
	const char *arg = next_arg(ps);
	bool group = p->arg == XF_FLD_GID;
	struct xf_node *n;
	size_t digits;
	uint64_t id;

	if (!arg)
		return -EINVAL;
	n = xf_node_new(ps, p);
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
parse_perm(struct xf_parser *ps, const struct xf_primary *p,
	   struct xf_node **out)
{
	const char *arg = next_arg(ps);
	struct xf_node *n;
	int start = 0;

	if (!arg)
		return -EINVAL;
	n = xf_node_new(ps, p);
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
parse_xflag(struct xf_parser *ps, const struct xf_primary *p,
	    struct xf_node **out)
{
	const char *arg = next_arg(ps), *s;
	struct xf_node *n;

	if (!arg)
		return -EINVAL;
	n = xf_node_new(ps, p);
	if (!n)
		return -ENOMEM;
	for (s = arg; *s;) {
		size_t len = strcspn(s, ","), bit;

		for (bit = 0; bit < xbf_xflag_names.nbits; bit++) {
			const char *name = xbf_xflag_names.name[bit];

			if (name && strlen(name) == len && !strncmp(name, s, len))
				break;
		}
		if (bit == xbf_xflag_names.nbits)
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
parse_samefile(struct xf_parser *ps, const struct xf_primary *p,
	       struct xf_node **out)
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
	n = xf_node_new(ps, p);
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

/* parse_action()'s p->arg */
enum { ACT_PRINT = 1, ACT_PRINT0, ACT_PRINTF, ACT_LS };

/* -print -print0 -printf -ls and their -f variants (XF_P_FILE). */
static int
parse_action(struct xf_parser *ps, const struct xf_primary *p,
	     struct xf_node **out)
{
	const char *name = NULL, *fmt;
	struct xf_node *n = xf_node_new(ps, p);

	if (!n)
		return -ENOMEM;
	if ((p->props & XF_P_FILE) && !(name = next_arg(ps)))
		return -EINVAL;
	n->u.act.end = p->arg == ACT_PRINT ? '\n' : 0;
	n->u.act.out = output_stream(ps, name);
	if (!n->u.act.out)
		return -ENOMEM;
	if (p->arg == ACT_PRINT)
		n->u.act.out->records = true;
	if (p->arg == ACT_PRINTF) {
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

/* A primary without arguments. */
static int
parse_bare(struct xf_parser *ps, const struct xf_primary *p,
	   struct xf_node **out)
{
	*out = xf_node_new(ps, p);
	return *out ? 0 : -ENOMEM;
}

static int
parse_prune(struct xf_parser *ps, const struct xf_primary *p,
	    struct xf_node **out)
{
	ps->find->has_prune = true;
	return parse_bare(ps, p, out);
}

/* -delete implies -depth; -prune then does nothing */
static int
parse_delete(struct xf_parser *ps, const struct xf_primary *p,
	     struct xf_node **out)
{
	ps->find->has_delete = ps->find->post = true;
	return parse_bare(ps, p, out);
}

static int
parse_fstype(struct xf_parser *ps, const struct xf_primary *p,
	     struct xf_node **out)
{
	const char *arg = next_arg(ps);

	if (!arg)
		return -EINVAL;
	*out = xf_node_new(ps, p);
	if (*out)
		(*out)->u.fstype = arg;
	return *out ? 0 : -ENOMEM;
}

/* -readable -writable -executable: the access(2) mode p->arg. */
static int
parse_access(struct xf_parser *ps, const struct xf_primary *p,
	     struct xf_node **out)
{
	*out = xf_node_new(ps, p);
	if (*out)
		(*out)->u.access = p->arg;
	return *out ? 0 : -ENOMEM;
}

static int
parse_context(struct xf_parser *ps, const struct xf_primary *p,
	      struct xf_node **out)
{
	(void)p, (void)out;
	return xf_fail(ps, "invalid predicate -context: SELinux is not "
		       "enabled.");
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
depth_limit(struct xf_parser *ps, int *limit, struct xf_node **out)
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
	return option_true(ps, out);
}

static int
opt_maxdepth(struct xf_parser *ps, const struct xf_primary *p,
	     struct xf_node **out)
{
	global_option(ps, p->name);
	return depth_limit(ps, &ps->find->maxdepth, out);
}

static int
opt_mindepth(struct xf_parser *ps, const struct xf_primary *p,
	     struct xf_node **out)
{
	global_option(ps, p->name);
	return depth_limit(ps, &ps->find->mindepth, out);
}

/* -depth, and -d (deprecated: p->arg) */
static int
opt_depth(struct xf_parser *ps, const struct xf_primary *p,
	  struct xf_node **out)
{
	/* find's order: the option's place first, then -d's age */
	global_option(ps, p->name);
	if (p->arg)
		xf_warn(ps, "warning: the -d option is deprecated; please use "
			"-depth instead, because the latter is a "
			"POSIX-compliant feature.");
	ps->find->post = ps->find->explicit_depth = true;
	return option_true(ps, out);
}

/* -xdev -mount -noleaf (p->arg: -xdev, -mount): what a walk of built
 * names does anyway (one filesystem, no leaf optimisation); a plain walk
 * stays on each PATH's filesystem with -xdev */
static int
opt_global(struct xf_parser *ps, const struct xf_primary *p,
	   struct xf_node **out)
{
	global_option(ps, p->name);
	if (p->arg)
		ps->find->xdev = true;
	return option_true(ps, out);
}

static int
opt_daystart(struct xf_parser *ps, const struct xf_primary *p,
	     struct xf_node **out)
{
	struct tm tm;

	(void)p;
	*out = NULL;			/* not even -true */
	if (ps->full_days)
		return 0;
	ps->day_start.tv_sec += 86400;
	ps->day_start.tv_nsec = 0;
	if (xf_localtime(ps->day_start.tv_sec, &tm))
		ps->day_start.tv_sec -= tm.tm_sec + tm.tm_min * 60 +
					tm.tm_hour * 3600;
	ps->full_days = true;
	return 0;
}

/* -ignore_readdir_race -noignore_readdir_race (p->arg: ignore): the last
 * one given counts, as in find (and -execdir, -okdir turn it off:
 * xf_parse_exec()) */
static int
opt_race(struct xf_parser *ps, const struct xf_primary *p,
	 struct xf_node **out)
{
	global_option(ps, p->name);
	ps->find->ignore_race = p->arg;
	return option_true(ps, out);
}

/* -warn -nowarn (p->arg: on) */
static int
opt_warn(struct xf_parser *ps, const struct xf_primary *p,
	 struct xf_node **out)
{
	ps->find->warnings = p->arg;
	return option_true(ps, out);
}

static int
opt_files0_from(struct xf_parser *ps, const struct xf_primary *p,
		struct xf_node **out)
{
	const char *file = next_arg(ps);

	(void)p;
	if (!file)
		return -EINVAL;
	ps->find->files0_from = file;
	return option_true(ps, out);
}

/* -follow: -L from here (find's set_follow_state(SYMLINK_ALWAYS_DEREF):
 * the walk, and -newer's and -samefile's files after it) */
static int
opt_follow(struct xf_parser *ps, const struct xf_primary *p,
	   struct xf_node **out)
{
	(void)p;	/* positional: no warning (find's parse_follow()) */
	ps->find->follow_paths = ps->find->logical = true;
	return option_true(ps, out);
}

/* The table's rows: a test the record decides (its @pre on the file's
 * record), a test that needs more, an action, an option. */
#define REC(name, parse, pre, fields, props, arg) \
	{ name, parse, xf_eval_record, pre, fields, props, arg }
#define TEST(name, parse, eval, pre, fields, props, arg) \
	{ name, parse, eval, pre, fields, props, arg }
#define ACT(name, parse, eval, pre, fields, props, arg) \
	{ name, parse, eval, pre, fields, XF_P_ACTION | (props), arg }
#define OPT(name, parse, props, arg) \
	{ name, parse, NULL, NULL, 0, XF_P_OPTION | (props), arg }

#define STAT		XF_P_STAT
#define LIVE		XF_P_LIVE
#define FOLD		XF_P_FOLD
#define XFS		(XF_P_XFS | XF_P_STAT)
/* runs a program or deletes: what the pre-filter cannot foresee */
#define ACTS		(XF_P_KEEPS | XF_P_NO_PRINT)
/* ... and needs the live filesystem */
#define RUNS		(ACTS | LIVE)
/* writes to a stream (-f...: given a FILE first) */
#define OUT		(ACTS | XF_P_STREAM)
#define OUT_FILE	(OUT | XF_P_FILE)
#define F(x)		XBULK_F_##x
#define T(x)		((int)XBULK_TIME_##x)

/*
 * Every option and primary of xbulk find, in xbulk(8)'s order (the
 * order of --help, xbulk_find_primary()).  Adding a primary: a row here,
 * its parser above (or one that fits), its evaluators in evaluators.c
 * (docs/design.md, "Adding a find primary").
 */
static const struct xf_primary table[] = {
	/* options: before the PATHs (parse.c), then anywhere */
	OPT("-P", NULL, XF_P_LEADING, 0),
	OPT("-H", NULL, XF_P_LEADING, 0),
	OPT("-L", NULL, XF_P_LEADING, 0),
	OPT("-depth", opt_depth, 0, 0),
	OPT("-d", opt_depth, 0, 1),
	OPT("-maxdepth", opt_maxdepth, 0, 0),
	OPT("-mindepth", opt_mindepth, 0, 0),
	OPT("-daystart", opt_daystart, 0, 0),
	OPT("-regextype", opt_regextype, 0, 0),
	OPT("-warn", opt_warn, 0, 1),
	OPT("-nowarn", opt_warn, 0, 0),
	OPT("-xdev", opt_global, 0, 1),
	OPT("-mount", opt_global, 0, 1),
	OPT("-noleaf", opt_global, 0, 0),
	OPT("-follow", opt_follow, 0, 0),
	OPT("-ignore_readdir_race", opt_race, 0, 1),
	OPT("-noignore_readdir_race", opt_race, 0, 0),
	OPT("-files0-from", opt_files0_from, 0, 0),
	/* tests */
	REC("-true", parse_bare, xf_pre_true, 0, 0, 0),
	REC("-false", parse_bare, xf_pre_false, 0, 0, 0),
	TEST("-name", parse_match, xf_eval_name, NULL, 0, 0, MATCH_NAME),
	TEST("-iname", parse_match, xf_eval_name, NULL, 0, FOLD, MATCH_NAME),
	TEST("-path", parse_match, xf_eval_path, NULL, 0, 0, MATCH_PATH),
	TEST("-ipath", parse_match, xf_eval_path, NULL, 0, FOLD, MATCH_PATH),
	TEST("-wholename", parse_match, xf_eval_path, NULL, 0, 0, MATCH_PATH),
	TEST("-iwholename", parse_match, xf_eval_path, NULL, 0, FOLD,
	     MATCH_PATH),
	TEST("-regex", parse_regex, xf_eval_regex, NULL, 0, 0, 0),
	TEST("-iregex", parse_regex, xf_eval_regex, NULL, 0, FOLD, 0),
	TEST("-lname", parse_match, xf_eval_lname, xf_pre_lname, 0, LIVE,
	     MATCH_LINK),
	TEST("-ilname", parse_match, xf_eval_lname, xf_pre_lname, 0,
	     FOLD | LIVE,
	     MATCH_LINK),
	TEST("-type", parse_type, xf_eval_type, xf_pre_type, 0, 0, 0),
	TEST("-xtype", parse_type, xf_eval_xtype, xf_pre_xtype, 0,
	     STAT | LIVE, 0),
	REC("-size", parse_size, xf_pre_size, F(SIZE), STAT, XF_FLD_SIZE),
	TEST("-empty", parse_bare, xf_eval_empty, xf_pre_empty, F(SIZE),
	     STAT, 0),
	REC("-amin", parse_time, xf_pre_time, F(ATIME), STAT,
	    T(ATIME) | TIME_MIN),
	REC("-atime", parse_time, xf_pre_time, F(ATIME), STAT, T(ATIME)),
	REC("-cmin", parse_time, xf_pre_time, F(CTIME), STAT,
	    T(CTIME) | TIME_MIN),
	REC("-ctime", parse_time, xf_pre_time, F(CTIME), STAT, T(CTIME)),
	REC("-mmin", parse_time, xf_pre_time, F(MTIME), STAT,
	    T(MTIME) | TIME_MIN),
	REC("-mtime", parse_time, xf_pre_time, F(MTIME), STAT, T(MTIME)),
	REC("-used", parse_time, xf_pre_time, F(ATIME) | F(CTIME), STAT,
	    T(ATIME) | TIME_USED),
	/* the fields of -newer...: by the letters (newer()) */
	REC("-newer", parse_newer, xf_pre_time, 0, STAT, 'm'),
	REC("-anewer", parse_newer, xf_pre_time, 0, STAT, 'a'),
	REC("-cnewer", parse_newer, xf_pre_time, 0, STAT, 'c'),
	REC("-newerXY", parse_newerxy, xf_pre_time, 0, STAT, 0),
	REC("-uid", parse_num, xf_pre_num, F(OWNER), STAT, XF_FLD_UID),
	REC("-gid", parse_num, xf_pre_num, F(OWNER), STAT, XF_FLD_GID),
	REC("-user", parse_owner, xf_pre_num, F(OWNER), STAT, XF_FLD_UID),
	REC("-group", parse_owner, xf_pre_num, F(OWNER), STAT, XF_FLD_GID),
	TEST("-nouser", parse_bare, xf_eval_nouser, NULL, F(OWNER), STAT, 0),
	TEST("-nogroup", parse_bare, xf_eval_nogroup, NULL, F(OWNER), STAT,
	     0),
	REC("-perm", parse_perm, xf_pre_perm, 0, STAT, 0),
	REC("-links", parse_num, xf_pre_num, F(NLINK), STAT, XF_FLD_NLINK),
	TEST("-inum", parse_num, xf_eval_inum, xf_pre_num, 0,
	     STAT | XF_P_STAT_DIR, XF_FLD_INO),
	TEST("-samefile", parse_samefile, xf_eval_samefile, xf_pre_samefile,
	     0, STAT | LIVE, 0),
	TEST("-fstype", parse_fstype, xf_eval_fstype, NULL, 0, STAT, 0),
	TEST("-readable", parse_access, xf_eval_access, NULL, 0, LIVE, R_OK),
	TEST("-writable", parse_access, xf_eval_access, NULL, 0, LIVE, W_OK),
	TEST("-executable", parse_access, xf_eval_access, NULL, 0, LIVE,
	     X_OK),
	/* actions */
	ACT("-print", parse_action, xf_eval_print, xf_pre_true, 0, OUT,
	    ACT_PRINT),
	ACT("-print0", parse_action, xf_eval_print, xf_pre_true, 0, OUT,
	    ACT_PRINT0),
	ACT("-printf", parse_action, xf_eval_printf, xf_pre_true, 0, OUT,
	    ACT_PRINTF),
	ACT("-fprint", parse_action, xf_eval_print, xf_pre_true, 0, OUT_FILE,
	    ACT_PRINT),
	ACT("-fprint0", parse_action, xf_eval_print, xf_pre_true, 0, OUT_FILE,
	    ACT_PRINT0),
	ACT("-fprintf", parse_action, xf_eval_printf, xf_pre_true, 0,
	    OUT_FILE, ACT_PRINTF),
	ACT("-ls", parse_action, xf_eval_ls, xf_pre_true, XF_LS_FIELDS,
	    OUT | STAT | LIVE, ACT_LS),
	ACT("-fls", parse_action, xf_eval_ls, xf_pre_true, XF_LS_FIELDS,
	    OUT_FILE | STAT | LIVE, ACT_LS),
	/* no effect on what is not a directory: no inode kept for it */
	ACT("-prune", parse_prune, xf_eval_prune, xf_pre_true, 0, 0, 0),
	ACT("-quit", parse_bare, xf_eval_quit, xf_pre_true, 0, XF_P_KEEPS, 0),
	ACT("-exec", xf_parse_exec, xf_eval_exec, NULL, 0, RUNS, 0),
	ACT("-execdir", xf_parse_exec, xf_eval_exec, NULL, 0, RUNS,
	    XF_EXEC_DIR),
	ACT("-ok", xf_parse_exec, xf_eval_exec, NULL, 0, RUNS, XF_EXEC_OK),
	ACT("-okdir", xf_parse_exec, xf_eval_exec, NULL, 0, RUNS,
	    XF_EXEC_DIR | XF_EXEC_OK),
	ACT("-delete", parse_delete, xf_eval_delete, NULL, F(NLINK), RUNS, 0),
	/* XFS tests */
	REC("-xfs-extents", parse_num, xf_pre_num, F(EXTENTS), XFS,
	    XF_FLD_EXTENTS),
	REC("-xfs-aextents", parse_num, xf_pre_num, F(EXTENTS), XFS,
	    XF_FLD_AEXTENTS),
	REC("-xfs-xflag", parse_xflag, xf_pre_xflag, F(XFLAGS), XFS, 0),
	REC("-xfs-projid", parse_num, xf_pre_num, F(PROJID), XFS,
	    XF_FLD_PROJID),
	REC("-xfs-extsize", parse_size, xf_pre_size, F(HINTS), XFS,
	    XF_FLD_EXTSIZE),
	REC("-xfs-cowextsize", parse_size, xf_pre_size, F(HINTS), XFS,
	    XF_FLD_COWEXTSIZE),
	REC("-xfs-btime", parse_time, xf_pre_time, F(BTIME) | F(OTHER), XFS,
	    T(BTIME)),
	REC("-xfs-bmin", parse_time, xf_pre_time, F(BTIME) | F(OTHER), XFS,
	    T(BTIME) | TIME_MIN),
	/* refused: GNU find's own */
	OPT("-D", NULL, XF_P_LEADING | XF_P_REFUSED, 0),
	TEST("-context", parse_context, NULL, NULL, 0, XF_P_REFUSED, 0),
};

#define NR_ROWS	(sizeof(table) / sizeof(table[0]))

const struct xf_primary *
xf_primary_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < NR_ROWS; i++)
		if (table[i].parse && !strcmp(table[i].name, name))
			return &table[i];
	if (!strncmp(name, "-newer", 6) && strlen(name) == 8)
		return xf_primary_lookup("-newerXY");
	return NULL;
}

/*
 * Edits from @a to @b (Damerau-Levenshtein: insert, delete, replace,
 * swap two neighbours); SIZE_MAX for names of 64 bytes or more.
 */
static size_t
distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, v, d[64][64];

	if (la >= 64 || lb >= 64)
		return SIZE_MAX;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb];
}

int
xf_unknown_primary(struct xf_parser *ps, const char *name)
{
	size_t i, d, best = SIZE_MAX, most = strlen(name) / 3;
	const char *like = NULL;

	/* a typo: one edit in three characters at most (one at least), of
	 * a name long enough to tell (not "-j": xbulk's own -j misplaced) */
	for (i = 0; strlen(name) > 3 && i < NR_ROWS; i++) {
		if (!table[i].parse || (table[i].props & XF_P_REFUSED) ||
		    table[i].parse == parse_newerxy)
			continue;
		d = distance(name, table[i].name);
		if (d < best) {
			best = d;
			like = table[i].name;
		}
	}
	if (like && best <= (most ? most : 1))
		return xf_fail(ps, "unknown predicate `%s'\ndid you mean "
			       "`%s'?", name, like);
	return xf_fail(ps, "unknown predicate `%s'", name);
}

const char *
xbulk_find_primary(size_t i, enum xbulk_find_primary_kind *kind)
{
	uint32_t props;

	if (i >= NR_ROWS)
		return NULL;
	props = table[i].props;
	*kind = props & XF_P_REFUSED ? XBULK_FIND_REFUSED :
		props & XF_P_OPTION ? XBULK_FIND_OPTION :
		props & XF_P_XFS ? XBULK_FIND_XFS_TEST :
		props & XF_P_ACTION ? XBULK_FIND_ACTION : XBULK_FIND_TEST;
	return table[i].name;
}
