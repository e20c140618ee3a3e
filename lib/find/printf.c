// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * -printf FORMAT compiled once into steps (GNU find 4.9's
 * insert_fprintf(): its escapes, directives, flags, widths, warnings and
 * errors), then run per file without parsing.  As in find, most
 * directives are strings to printf's %s (so only '-', the width and the
 * precision apply, and the precision truncates), %d and %m honour every
 * flag, %S is a %g.  Numbers are written by hand (digits.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../format/columns.h"
#include "../format/digits.h"
#include "facts.h"
#include "actions.h"
#include "find.h"

enum { ST_TEXT, ST_DIRECTIVE };

struct step {
	int		kind;
	char		conv;		/* directive letter */
	char		aux;		/* its second letter (%Ak, %Xe) */
	bool		left;		/* '-' */
	int		width;		/* 0: none */
	int		prec;		/* -1: none */
	const char	*text;		/* ST_TEXT bytes; %d %m %S: format */
	size_t		len;
};

struct xf_format {
	size_t		n;
	struct step	steps[];
};

/* Directives of one letter, and of two (%Ak), as find knows them. */
static const char one_letter[] = "abcdDfFgGhHiklmMnpPsStuUyYZ%";
static const char two_letters[] = "ABCTX";

/* The bulkstat fields a directive reads. */
static uint32_t
directive_fields(char conv, char aux)
{
	switch (conv) {
	case 's': return XBULK_F_SIZE;
	case 'b': case 'k': return XBULK_F_BLOCKS;
	case 'S': return XBULK_F_BLOCKS | XBULK_F_SIZE;
	case 'a': case 'A': return XBULK_F_ATIME;
	case 'c': case 'C': return XBULK_F_CTIME;
	case 't': case 'T': return XBULK_F_MTIME;
	case 'B': return XBULK_F_BTIME | XBULK_F_OTHER;
	case 'u': case 'U': case 'g': case 'G': return XBULK_F_OWNER;
	case 'n': return XBULK_F_NLINK;
	case 'X':
		return aux == 'e' || aux == 'a' ? XBULK_F_EXTENTS :
		       aux == 'p' ? XBULK_F_PROJID :
		       aux == 's' || aux == 'c' ? XBULK_F_HINTS :
		       aux == 'x' || aux == 'X' ? XBULK_F_XFLAGS : 0;
	default: return 0;
	}
}

static bool
add_step(struct xf_parser *ps, struct xf_format **fmt, size_t *cap,
	 const struct step *s)
{
	struct xf_format *f = *fmt;

	if (!f || f->n == *cap) {
		size_t n = *cap ? 2 * *cap : 8;

		f = realloc(f, sizeof(*f) + n * sizeof(f->steps[0]));
		if (!f) {
			xf_fail(ps, "%s", strerror(ENOMEM));
			return false;
		}
		if (!*fmt)
			f->n = 0;
		*fmt = f;
		*cap = n;
	}
	f->steps[f->n++] = *s;
	return true;
}

/* Literal bytes @p..@p+@len (copied: escapes rewrite them). */
static bool
add_text(struct xf_parser *ps, struct xf_format **fmt, size_t *cap,
	 const char *p, size_t len)
{
	struct step s = { .kind = ST_TEXT, .len = len };
	char *copy;

	if (!len)
		return true;
	copy = xf_keep(ps->find, malloc(len));
	if (!copy)
		return false;
	memcpy(copy, p, len);
	s.text = copy;
	return add_step(ps, fmt, cap, &s);
}

/* find's octal escape: up to three digits; how many were read. */
static size_t
octal_escape(const char *p, char *value)
{
	size_t n = 0;
	int v = 0;

	while (n < 3 && p[n] >= '0' && p[n] <= '7')
		v = 8 * v + (p[n++] - '0');
	*value = (char)v;
	return n;
}

static char
escape_char(char c)
{
	static const char from[] = "abfnrtv\\", to[] = "\a\b\f\n\r\t\v\\";
	const char *p = c ? strchr(from, c) : NULL;

	return p ? to[p - from] : 0;
}

/* A width or precision: digits, at most INT_MAX (printf's limit). */
static bool
spec_number(const char *p, int *v)
{
	unsigned long long n = 0;

	for (; *p >= '0' && *p <= '9'; p++) {
		n = 10 * n + (unsigned long long)(*p - '0');
		if (n > INT_MAX)
			return false;
	}
	*v = (int)n;
	return true;
}

/*
 * A directive's flags, width and precision ("%-5.3" of "%-5.3p").  A
 * width or precision past INT_MAX is refused: find's printf fails on
 * every file with EOVERFLOW, after reading it as a huge number.
 */
static bool
directive_spec(struct xf_parser *ps, const char *spec, size_t len,
	       struct step *s)
{
	size_t i = 1;
	char *fmt;

	s->prec = -1;
	for (; i < len && strchr("-+ #", spec[i]); i++)
		if (spec[i] == '-')
			s->left = true;
	if (!spec_number(spec + i, &s->width))
		goto overflow;
	while (i < len && spec[i] >= '0' && spec[i] <= '9')
		i++;
	if (i < len && spec[i] == '.' && !spec_number(spec + i + 1, &s->prec))
		goto overflow;
	/* %d %m %S honour all of printf's flags: keep a format for them. */
	if (strchr("dmS", s->conv)) {
		fmt = xf_keep(ps->find, malloc(len + 2));
		if (fmt) {
			memcpy(fmt, spec, len);
			fmt[len] = s->conv == 'd' ? 'd' :
				   s->conv == 'm' ? 'o' : 'g';
			fmt[len + 1] = 0;
		}
		s->text = fmt ? fmt : "%d";
	}
	return true;
overflow:
	/* the directive's letters follow @spec */
	xf_fail(ps, "error: the width or precision of `%.*s' is too large",
		(int)len + 1 + !!s->aux, spec);
	return false;
}

struct xf_format *
xf_format_compile(struct xf_parser *ps, const char *src, uint32_t *fields)
{
	size_t len = strlen(src), pos, seg = 0, cap = 0;
	struct xf_format *fmt = NULL;
	char *buf = malloc(len + 1);

	if (!buf)
		return NULL;
	memcpy(buf, src, len + 1);
	for (pos = 0; pos < len; pos++) {
		if (buf[pos] == '\\' && buf[pos + 1] == 'c') {
			len = pos;		/* \c: the rest is never printed */
			break;
		}
		if (buf[pos] == '\\') {
			size_t read = 1;
			char v;

			if (!buf[pos + 1]) {
				xf_warn_always(ps, "warning: escape `\\' "
					       "followed by nothing at all");
				read = 0;
				v = '\\';
			} else if (buf[pos + 1] >= '0' && buf[pos + 1] <= '7') {
				read = octal_escape(buf + pos + 1, &v);
			} else if (!(v = escape_char(buf[pos + 1]))) {
				xf_warn_always(ps, "warning: unrecognized "
					       "escape `\\%c'", buf[pos + 1]);
				pos++;
				continue;
			}
			buf[pos] = v;
			if (!add_text(ps, &fmt, &cap, buf + seg, pos + 1 - seg))
				goto fail;
			seg = pos + read + 1;
			pos += read;
		} else if (buf[pos] == '%') {
			size_t start = pos, n;
			struct step s = { .kind = ST_DIRECTIVE };

			if (!buf[pos + 1]) {
				xf_fail(ps, "error: %% at end of format string");
				goto fail;
			}
			if (buf[pos + 1] == '%') {
				pos++;
			} else {
				for (pos++; buf[pos] && strchr("-+ #", buf[pos]);)
					pos++;
				while (buf[pos] >= '0' && buf[pos] <= '9')
					pos++;
				if (buf[pos] == '.')
					for (pos++; buf[pos] >= '0' &&
						    buf[pos] <= '9';)
						pos++;
			}
			n = !buf[pos] ? 0 : strchr(one_letter, buf[pos]) ? 1 :
			    strchr(two_letters, buf[pos]) ? 2 : 0;
			if (n && buf[pos] == '%') {
				/* find writes what came before the second % */
				if (!add_text(ps, &fmt, &cap, buf + seg,
					      pos - seg))
					goto fail;
				seg = pos + 1;
				continue;
			}
			if (n && buf[pos + n - 1]) {
				if (!add_text(ps, &fmt, &cap, buf + seg,
					      start - seg))
					goto fail;
				s.conv = buf[pos];
				s.aux = n == 2 ? buf[pos + 1] : 0;
				if (!directive_spec(ps, buf + start,
						    pos - start, &s))
					goto fail;
				*fields |= directive_fields(s.conv, s.aux);
				/* find stats for all but names and depth */
				if (!strchr("fhpPHd", s.conv))
					*fields |= XF_F_STAT;
				if (!add_step(ps, &fmt, &cap, &s))
					goto fail;
				pos += n - 1;
				seg = pos + 1;
				continue;
			}
			if (!buf[pos]) {	/* find's message has a NUL */
				xf_fail(ps, "error: %.*s at end of format "
					"string", (int)(pos - start), buf + start);
				goto fail;
			}
			if (strchr("{[(", buf[pos])) {
				xf_fail(ps, "error: the format directive `%%%c' "
					"is reserved for future use", buf[pos]);
				goto fail;
			}
			if (strchr(two_letters, buf[pos]))
				xf_warn_always(ps, "warning: format directive "
					       "`%%%c' should be followed by "
					       "another character", buf[pos]);
			else
				xf_warn_always(ps, "warning: unrecognized "
					       "format directive `%%%c'",
					       buf[pos]);
			if (!add_text(ps, &fmt, &cap, buf + seg, pos + 1 - seg))
				goto fail;
			seg = pos + 1;
		}
	}
	if (len > seg && !add_text(ps, &fmt, &cap, buf + seg, len - seg))
		goto fail;
	if (!fmt) {
		struct step none = { .kind = ST_TEXT, .text = "", .len = 0 };

		if (!add_step(ps, &fmt, &cap, &none))
			goto fail;
	}
	free(buf);
	return xf_keep(ps->find, fmt);
fail:
	free(buf);
	free(fmt);
	return NULL;
}

/* The first directive of @fmt that entries holding only @fields
 * (XBULK_F_*) and no live filesystem cannot answer ("%l": a link's
 * target, "%Y": what it points to, "%D": st_dev, or a field not held),
 * into @buf (4 bytes); NULL if there is none. */
static const char *
format_offline(const struct xf_format *fmt, uint32_t fields, char *buf)
{
	size_t i;

	for (i = 0; i < fmt->n; i++) {
		const struct step *s = &fmt->steps[i];

		if (s->kind != ST_DIRECTIVE ||
		    (!strchr("lYD", s->conv) &&
		     !(directive_fields(s->conv, s->aux) & ~fields)))
			continue;
		buf[0] = '%';
		buf[1] = s->conv;
		buf[2] = s->aux;
		buf[3] = '\0';
		return buf;
	}
	return NULL;
}

/*
 * @p..@len as printf's %s with the step's '-', width and precision; a
 * name as find prints it (on a terminal: quoted first, then padded or
 * cut, as find's printf of its quoted copy).
 */
static int
put_spec(struct xf_stream *out, const struct step *s, const char *p,
	 size_t len, bool name)
{
	static const char spaces[64] = "                                "
				       "                                ";
	size_t pad, shown = len;
	int err = 0;

	if (name && (s->width || s->prec >= 0))
		shown = xf_name_len(out, p, len);
	if (s->prec >= 0 && (size_t)s->prec < shown)
		shown = (size_t)s->prec;
	pad = (size_t)s->width > shown ? (size_t)s->width - shown : 0;
	while (!s->left && pad && !err) {
		size_t n = pad < sizeof(spaces) ? pad : sizeof(spaces);

		err = xf_put(out, spaces, n);
		pad -= n;
	}
	if (!err)
		err = name ? xf_put_name_max(out, p, len, shown) :
			     xf_put(out, p, shown);
	while (pad && !err) {
		size_t n = pad < sizeof(spaces) ? pad : sizeof(spaces);

		err = xf_put(out, spaces, n);
		pad -= n;
	}
	return err;
}

static int
put_num(struct xf_stream *out, const struct step *s, uint64_t v)
{
	char buf[XBF_DEC_MAX], *p;

	if (!s->width && s->prec < 0 && (p = xf_room(out, XBF_DEC_MAX))) {
		xf_commit(out, put_dec(p, v));	/* the usual case */
		return 0;
	}
	return put_spec(out, s, buf, (size_t)(put_dec(buf, v) - buf), false);
}

/* gnulib base_name(): the last component, one trailing slash kept. */
static void
base_name(const struct xbulk_entry *file, const char **p, size_t *len)
{
	const char *path = file->path;
	size_t end = file->pathlen, start;

	if (file->depth > 0) {
		*p = path + file->name_off;
		*len = file->pathlen - file->name_off;
		return;
	}
	while (end > 0 && path[end - 1] == '/')
		end--;
	if (!end) {			/* only slashes: "/" */
		*p = path;
		*len = file->pathlen ? 1 : 0;
		return;
	}
	start = end;
	while (start > 0 && path[start - 1] != '/')
		start--;
	*p = path + start;
	*len = end - start + (end < file->pathlen);
}

/*
 * Where %h looks for the last '/': the whole path, but a PATH operand's
 * trailing slashes are left out when more than one character precedes
 * them (find 4.9: "zz/" has %h ".", "a/" has "a", "a//" has "a/").
 */
static size_t
dir_part(const struct xbulk_entry *file)
{
	size_t end = file->pathlen;

	if (file->depth)
		return end;
	while (end > 0 && file->path[end - 1] == '/')
		end--;
	return end > 1 ? end : file->pathlen;
}

/* A time directive: %a %c %t, %Ak %Bk %Ck %Tk. */
static int
put_time(struct xf_stream *out, const struct step *s,
	 const struct xfs_bulkstat *bs)
{
	char buf[512];
	int64_t sec;
	uint32_t nsec;
	size_t len;

	switch (s->conv) {
	case 'a': case 'A':
		sec = bs->bs_atime;
		nsec = bs->bs_atime_nsec;
		break;
	case 'c': case 'C':
		sec = bs->bs_ctime;
		nsec = bs->bs_ctime_nsec;
		break;
	case 'B':
		if (bs->bs_version < XFS_BULKSTAT_VERSION_V5 && s->aux != '@')
			return put_spec(out, s, "", 0, false);
		sec = bs->bs_btime;
		nsec = bs->bs_btime_nsec;
		break;
	default:
		sec = bs->bs_mtime;
		nsec = bs->bs_mtime_nsec;
		break;
	}
	if (s->aux)
		len = xf_date_format(buf, sizeof(buf), sec, nsec, s->aux);
	else
		len = xf_ctime_format(buf, sec, nsec);
	return put_spec(out, s, buf, len, false);
}

/* %S: find's file_sparseness(). */
static double
sparseness(const struct xbulk_find *f, const struct xbulk_entry *file)
{
	uint64_t blocks = xf_blocks512(f, file);
	uint64_t size = file->bs->bs_size;

	if (!size)
		return blocks ? __builtin_inf() : 1.0;
	return 512.0 * (double)blocks / (double)size;
}

/* snprintf() of a %d %m %S step's own format. */
static int
format_step(char *buf, size_t size, const struct step *s, double g, long d)
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	return s->conv == 'S' ? snprintf(buf, size, s->text, g) :
				snprintf(buf, size, s->text, d);
#pragma GCC diagnostic pop
}

/* A directive that printf formats itself: %d %m %S (a width past the
 * buffer, as %600d, formats into memory of its size). */
static int
put_printf(struct xf_stream *out, const struct step *s, double g, long d)
{
	char buf[512], *big;
	int n = format_step(buf, sizeof(buf), s, g, d), err;

	if (n < 0)
		return 0;
	if ((size_t)n < sizeof(buf))
		return xf_put(out, buf, (size_t)n);
	big = malloc((size_t)n + 1);
	if (!big)
		return -ENOMEM;
	format_step(big, (size_t)n + 1, s, g, d);
	err = xf_put(out, big, (size_t)n);
	free(big);
	return err;
}

/* %Y: the type of what a symlink points to ("N": nothing, "L": loop). */
static const char *
target_type(struct xbulk_find *f, const struct xbulk_entry *file,
	    char *letter)
{
	struct stat st;
	int err;

	letter[1] = 0;
	letter[0] = xf_type_letter(file->bs->bs_mode);
	if (!S_ISLNK(file->bs->bs_mode))
		return letter;
	err = xf_stat_target(f, file, &st, 0);
	if (!err) {
		letter[0] = xf_type_letter(st.st_mode);
		return letter;
	}
	if (err == -ENOENT || err == -ENOTDIR)	/* as find 4.9 */
		return "N";
	if (err == -ELOOP)
		return "L";
	xf_problem(f, file->path, err);
	return "?";
}

/* %X?: the XFS fields find lacks. */
static int
put_xfs(struct xbulk_find *f, struct xf_stream *out, const struct step *s,
	const struct xfs_bulkstat *bs)
{
	char buf[XBF_FLAG_NAMES_MAX + 4], *p = buf;

	switch (s->aux) {
	case 'e': return put_num(out, s, bs->bs_extents64);
	case 'a': return put_num(out, s, bs->bs_aextents);
	case 'p': return put_num(out, s, bs->bs_projectid);
	case 'g': return put_num(out, s, bs->bs_gen);
	case 's':
		return put_num(out, s, (uint64_t)bs->bs_extsize_blks <<
			       f->blocklog);
	case 'c':
		return put_num(out, s, (uint64_t)bs->bs_cowextsize_blks <<
			       f->blocklog);
	case 'X':
		p = PUT(p, "0x");
		p = put_hex(p, bs->bs_xflags);
		break;
	case 'x':
		p = xbf_put_flag_names(p, bs->bs_xflags, &xbf_xflag_names,
				       false);
		break;
	default:
		return put_spec(out, s, "", 0, false);
	}
	return put_spec(out, s, buf, (size_t)(p - buf), false);
}

static int
directive(struct xbulk_find *f, const struct step *s,
	  struct xf_stream *out, const struct xbulk_entry *file)
{
	const struct xfs_bulkstat *bs = file->bs;
	const char *p;
	char buf[16];
	size_t len;

	switch (s->conv) {
	case 'p': return put_spec(out, s, file->path, file->pathlen, true);
	case 'f':
		base_name(file, &p, &len);
		return put_spec(out, s, p, len, true);
	case 'h':
		p = memrchr(file->path, '/', dir_part(file));
		if (!p)
			return put_spec(out, s, ".", 1, true);
		return put_spec(out, s, file->path,
				(size_t)(p - file->path), true);
	case 'H': return put_spec(out, s, file->start, file->startlen, false);
	case 'P':
		if (!file->depth)
			return put_spec(out, s, "", 0, true);
		p = file->path + file->startlen;
		p += *p == '/';
		return put_spec(out, s, p, file->pathlen - (size_t)(p -
				file->path), true);
	case 's': return put_num(out, s, bs->bs_size);
	case 'b': return put_num(out, s, xf_blocks512(f, file));
	case 'k': return put_num(out, s, (xf_blocks512(f, file) + 1) / 2);
	case 'i': return put_num(out, s, xf_ino(file));
	case 'n': return put_num(out, s, bs->bs_nlink);
	case 'D': return put_num(out, s, file->dev ? file->dev : f->dev);
	case 'U': return put_num(out, s, bs->bs_uid);
	case 'G': return put_num(out, s, bs->bs_gid);
	case 'u':
	case 'g':
		p = s->conv == 'u' ? xf_user_name(f, bs->bs_uid) :
				     xf_group_name(f, bs->bs_gid);
		if (!p)
			return put_num(out, s, s->conv == 'u' ? bs->bs_uid :
				       bs->bs_gid);
		return put_spec(out, s, p, strlen(p), false);
	case 'd': return put_printf(out, s, 0, (long)file->depth);
	case 'm': return put_printf(out, s, 0, (long)(bs->bs_mode & 07777));
	case 'S': return put_printf(out, s, sparseness(f, file), 0);
	case 'M':
		xf_mode_string(bs->bs_mode, buf);
		return put_spec(out, s, buf, 10, false);
	case 'y':
		buf[0] = xf_type_letter(bs->bs_mode);
		return put_spec(out, s, buf, 1, false);
	case 'Y':
		p = target_type(f, file, buf);
		return put_spec(out, s, p, strlen(p), false);
	case 'l':
		p = S_ISLNK(bs->bs_mode) ? xf_readlink(f, file) : NULL;
		return put_spec(out, s, p ? p : "", p ? strlen(p) : 0, true);
	case 'F':
		p = file->fstype ? file->fstype : "xfs";
		return put_spec(out, s, p, strlen(p), true);
	case 'Z': return put_spec(out, s, "", 0, false);
	case 'X': return put_xfs(f, out, s, bs);
	default: return put_time(out, s, bs);
	}
}

int
xf_format_run(struct xbulk_find *f, const struct xf_format *fmt,
	      struct xf_stream *out, const struct xbulk_entry *file)
{
	size_t i;
	int err = 0;

	for (i = 0; i < fmt->n && !err; i++) {
		const struct step *s = &fmt->steps[i];

		if (s->kind == ST_TEXT)
			err = xf_put(out, s->text, s->len);
		else
			err = directive(f, s, out, file);
	}
	return err;
}

/* The first node under @n (in the command line's order) that entries
 * holding only @fields cannot answer, named into @what: a row that
 * needs the filesystem, a -printf directive, a field not held. */
static bool
offline(const struct xf_node *n, uint32_t fields, char *what, size_t size)
{
	const struct xf_primary *p = n->prim;
	const char *d = NULL;
	char buf[4];

	if (n->kind != XF_PRIMARY)
		return (n->left && offline(n->left, fields, what, size)) ||
		       (n->right && offline(n->right, fields, what, size));
	if ((p->props & XF_P_STREAM) && n->u.act.fmt)	/* -printf */
		d = format_offline(n->u.act.fmt, fields, buf);
	if (!d && !(p->props & XF_P_LIVE) &&
	    !(n->fields & ~XF_F_STAT & ~fields))
		return false;
	snprintf(what, size, "%s%s%s", p->name, d ? " " : "", d ? d : "");
	return true;
}

int
xbulk_find_offline(const struct xbulk_find *f, uint32_t fields, char *what,
		   size_t size)
{
	/* no link's target to follow */
	if (f->logical) {
		snprintf(what, size, "-L or -follow");
		return -ENOTSUP;
	}
	return f->root && offline(f->root, fields, what, size) ? -ENOTSUP : 0;
}
