// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * find's command line into an expression tree, once: leading options,
 * PATH operands, then the expression with GNU find 4.9's grammar
 * (precedence from loose to tight: ',', -o, -a (also implicit), !, then
 * parentheses and primaries), its messages, and the -print it adds when
 * the expression has no action.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "find.h"

/* Tokens of the expression: operators, or a primary already parsed. */
enum xf_tok { T_PRIMARY, T_AND, T_OR, T_NOT, T_COMMA, T_OPEN, T_CLOSE };

struct xf_token {
	enum xf_tok	tok;
	const char	*text;		/* as typed, for messages */
	struct xf_node	*node;		/* T_PRIMARY */
};

struct xf_tokens {
	struct xf_token	*v;
	size_t		n, pos;
	bool		has_action;	/* one that inhibits the -print */
};

/* find's looks_like_expression(): is @arg part of the expression? */
static bool
looks_like_expression(const char *arg, bool leading)
{
	switch (arg[0]) {
	case '-':
		return arg[1] != 0;	/* "-" alone is a file name */
	case ')':
	case ',':
		return !arg[1] && !leading;
	case '(':
	case '!':
		return !arg[1];
	default:
		return false;
	}
}

static struct xf_node *
new_node(struct xbulk_find *f, enum xf_kind kind, struct xf_node *l,
	 struct xf_node *r)
{
	struct xf_node *n = xf_zalloc(f, sizeof(*n));

	if (!n)
		return NULL;
	n->kind = kind;
	n->left = l;
	n->right = r;
	n->fields = (l ? l->fields : 0) | (r ? r->fields : 0);
	return n;
}

static int
push_token(struct xf_tokens *t, enum xf_tok tok, const char *text,
	   struct xf_node *node)
{
	struct xf_token *v = realloc(t->v, (t->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	t->v = v;
	v[t->n++] = (struct xf_token){ tok, text, node };
	return 0;
}

static const struct {
	const char	*text;
	enum xf_tok	tok;
} operators[] = {
	{ "!", T_NOT }, { "-not", T_NOT }, { "(", T_OPEN }, { ")", T_CLOSE },
	{ ",", T_COMMA }, { "-a", T_AND }, { "-and", T_AND }, { "-o", T_OR },
	{ "-or", T_OR },
};

/* Read the expression's words into tokens, parsing each primary. */
static int
tokenize(struct xf_parser *ps, struct xf_tokens *t)
{
	const char *last = NULL;	/* the last word that began a token */
	int err;

	while (ps->i < ps->argc) {
		const char *arg = ps->argv[ps->i];
		const struct xf_primary *prim;
		struct xf_node *node = NULL;
		size_t k;

		/* a file there: likely a pattern the shell expanded */
		if (!looks_like_expression(arg, false) && last &&
		    !access(arg, F_OK))
			return xf_fail(ps, "paths must precede expression: `%s'"
				       "\npossible unquoted pattern after "
				       "predicate `%s'?", arg, last);
		if (!looks_like_expression(arg, false))
			return xf_fail(ps, "paths must precede expression: `%s'",
				       arg);
		last = arg;
		/* find prints its help or version here and exits */
		if (!strcmp(arg, "-help") || !strcmp(arg, "--help"))
			return XBULK_FIND_HELP;
		if (!strcmp(arg, "-version") || !strcmp(arg, "--version"))
			return XBULK_FIND_VERSION;
		for (k = 0; k < sizeof(operators) / sizeof(operators[0]); k++)
			if (!strcmp(arg, operators[k].text))
				break;
		ps->i++;
		if (k < sizeof(operators) / sizeof(operators[0])) {
			if (!ps->first_nonoption)
				ps->first_nonoption = arg;
			err = push_token(t, operators[k].tok, arg, NULL);
			if (err)
				return err;
			continue;
		}
		ps->pred = arg;
		prim = xf_primary_lookup(arg);
		if (!prim || !(prim->props & XF_P_OPTION))
			if (!ps->first_nonoption)
				ps->first_nonoption = arg;
		if (!prim)
			return xf_unknown_primary(ps, arg);
		err = prim->parse(ps, prim, &node);
		if (err)
			return err;
		if (prim->props & XF_P_NO_PRINT)
			t->has_action = true;
		/* an option is -true where it stands; -daystart not even */
		if (node)
			err = push_token(t, T_PRIMARY, arg, node);
		if (err)
			return err;
	}
	return 0;
}

static int parse_expr(struct xf_parser *ps, struct xf_tokens *t,
		      int min_prec, struct xf_node **out);

/* What find says when an operand is missing after @op (a token). */
static int
missing_operand(struct xf_parser *ps, struct xf_tokens *t,
		const struct xf_token *op)
{
	if (t->pos < t->n)	/* a ')' */
		return xf_fail(ps, "expected an expression between '%s' and "
			       "')'", op->text);
	if (t->has_action)
		return xf_fail(ps, "invalid expression");
	return xf_fail(ps, "expected an expression after '%s'", op->text);
}

/* An operand: ! operand | ( expr ) | primary. */
static int
parse_unary(struct xf_parser *ps, struct xf_tokens *t, struct xf_node **out)
{
	const struct xf_token *tok = &t->v[t->pos];
	struct xf_node *sub;
	int err;

	switch (tok->tok) {
	case T_PRIMARY:
		t->pos++;
		*out = tok->node;
		return 0;
	case T_NOT:
		t->pos++;
		if (t->pos >= t->n || t->v[t->pos].tok == T_CLOSE)
			return missing_operand(ps, t, tok);
		err = parse_unary(ps, t, &sub);
		if (err)
			return err;
		*out = new_node(ps->find, XF_NOT, NULL, sub);
		return *out ? 0 : -ENOMEM;
	case T_OPEN:
		t->pos++;
		if (t->pos >= t->n)
			return xf_fail(ps, "invalid expression; expected to "
				       "find a ')' but didn't see one. Perhaps "
				       "you need an extra predicate after '%s'",
				       tok->text);
		if (t->v[t->pos].tok == T_CLOSE)
			return xf_fail(ps, "invalid expression; empty "
				       "parentheses are not allowed.");
		err = parse_expr(ps, t, 1, out);
		if (err)
			return err;
		if (t->pos >= t->n || t->v[t->pos].tok != T_CLOSE)
			return xf_fail(ps, "invalid expression; I was "
				       "expecting to find a ')' somewhere but "
				       "did not see one.");
		t->pos++;
		return 0;
	case T_CLOSE:
		return xf_fail(ps, "you have too many ')'");
	default:
		return xf_fail(ps, "invalid expression; you have used a binary "
			       "operator '%s' with nothing before it.",
			       tok->text);
	}
}

/* Binding strength of a binary operator: ',' < -o < -a. */
static int
precedence(enum xf_tok tok)
{
	return tok == T_COMMA ? 1 : tok == T_OR ? 2 : 3;
}

/*
 * Operands joined by operators binding at least @min_prec tight,
 * left-associative; an operand right after an operand is an implicit -a.
 */
static int
parse_expr(struct xf_parser *ps, struct xf_tokens *t, int min_prec,
	   struct xf_node **out)
{
	struct xf_node *left, *right;
	int err;

	err = parse_unary(ps, t, &left);
	if (err)
		return err;
	while (t->pos < t->n) {
		const struct xf_token *op = &t->v[t->pos];
		enum xf_tok tok = op->tok;
		enum xf_kind kind;

		if (tok == T_CLOSE)
			break;
		if (tok == T_PRIMARY || tok == T_NOT || tok == T_OPEN)
			tok = T_AND;		/* implicit -a */
		if (precedence(tok) < min_prec)
			break;
		if (tok == op->tok)
			t->pos++;
		if (t->pos >= t->n || t->v[t->pos].tok == T_CLOSE)
			return missing_operand(ps, t, op);
		err = parse_expr(ps, t, precedence(tok) + 1, &right);
		if (err)
			return err;
		kind = tok == T_COMMA ? XF_COMMA : tok == T_OR ? XF_OR : XF_AND;
		left = new_node(ps->find, kind, left, right);
		if (!left)
			return -ENOMEM;
	}
	*out = left;
	return 0;
}

/* find's -Olevel (accepted, ignored), with find's messages. */
static int
optimisation_level(struct xf_parser *ps, const char *level)
{
	unsigned long v;
	char *end;

	if (!*level)
		return xf_fail(ps, "The -O option must be immediately followed "
			       "by a decimal integer");
	if (*level < '0' || *level > '9')
		return xf_fail(ps, "Please specify a decimal number "
			       "immediately after -O");
	errno = 0;
	v = strtoul(level, &end, 10);
	if (*end)
		return xf_fail(ps, "Invalid optimisation level %s", level);
	if (errno)
		return xf_fail(ps, "Invalid optimisation level %s: %s", level,
			       strerror(errno));
	if (v > USHRT_MAX)
		return xf_fail(ps, "Optimisation level %lu is too high.  If "
			       "you want to find files very quickly, consider "
			       "using GNU locate.", v);
	return 0;
}

/* find's -P -H -L -D -O before the PATHs. */
static int
leading_options(struct xf_parser *ps)
{
	while (ps->i < ps->argc) {
		const char *arg = ps->argv[ps->i];

		if (arg[0] != '-' || !arg[1])
			break;
		if (!strcmp(arg, "--")) {
			ps->i++;
			break;
		}
		if (arg[1] == 'O' && optimisation_level(ps, arg + 2))
			return -EINVAL;
		/* the last of -P, -H and -L wins, as in find */
		if (!strcmp(arg, "-P") || !strcmp(arg, "-H") ||
		    !strcmp(arg, "-L") || arg[1] == 'O') {
			if (arg[1] != 'O') {
				ps->find->follow_paths = arg[1] != 'P';
				ps->find->logical = arg[1] == 'L';
			}
			ps->i++;
			continue;
		}
		if (!strcmp(arg, "-D")) {
			ps->status = XBULK_FIND_EXIT_REFUSED;
			return xf_fail(ps, "-D is not supported: xbulk find has "
				       "no debug options");
		}
		break;
	}
	return 0;
}

static int
collect_paths(struct xf_parser *ps)
{
	struct xbulk_find *f = ps->find;
	int start = ps->i;

	while (ps->i < ps->argc && !looks_like_expression(ps->argv[ps->i],
							  true))
		ps->i++;
	f->npaths = (size_t)(ps->i - start);
	f->paths_given = f->npaths > 0;
	if (!f->npaths) {
		static char dot[] = ".";

		f->paths = xf_zalloc(f, sizeof(char *));
		if (!f->paths)
			return -ENOMEM;
		f->paths[0] = dot;
		f->npaths = 1;
		return 0;
	}
	f->paths = xf_zalloc(f, f->npaths * sizeof(char *));
	if (!f->paths)
		return -ENOMEM;
	memcpy(f->paths, ps->argv + start, f->npaths * sizeof(char *));
	return 0;
}

/* Without an action but -prune and -quit, find prints what is true. */
static int
add_default_print(struct xf_parser *ps, struct xf_node **root, bool action)
{
	struct xf_node *print;

	if (action)
		return 0;
	print = xf_node_new(ps, xf_primary_lookup("-print"));
	if (!print)
		return -ENOMEM;
	print->u.act.out = ps->find->streams[0];
	print->u.act.end = '\n';
	print->u.act.out->records = true;
	if (!*root) {
		*root = print;
		return 0;
	}
	*root = new_node(ps->find, XF_AND, *root, print);
	return *root ? 0 : -ENOMEM;
}

static int
parse_all(struct xf_parser *ps)
{
	struct xf_tokens t = { 0 };
	struct xf_node *root = NULL;
	int err;

	err = leading_options(ps);
	if (!err)
		err = collect_paths(ps);
	if (!err)
		err = tokenize(ps, &t);
	if (!err && t.n) {
		err = parse_expr(ps, &t, 1, &root);
		if (!err && t.pos < t.n)
			err = xf_fail(ps, "you have too many ')'");
	}
	if (!err)
		err = add_default_print(ps, &root, t.has_action);
	if (!err && ps->find->has_delete && ps->find->has_prune &&
	    !ps->find->explicit_depth)
		err = xf_fail(ps, "The -delete action automatically turns on "
			      "-depth, but -prune does nothing when -depth is "
			      "in effect.  If you want to carry on anyway, "
			      "just explicitly use the -depth option.");
	if (!err && ps->find->files0_from && ps->find->paths_given)
		err = xf_fail(ps, "extra operand %s\nfile operands cannot be "
			      "combined with -files0-from",
			      xf_quote(ps->find, 0, ps->find->paths[0]));
	if (!err && ps->find->files0_from)
		ps->find->npaths = 0;
	free(t.v);
	ps->find->root = root;
	return err;
}

/* The first version of struct xbulk_find_opts ends with @arg. */
#define OPTS_SIZE_1	XBL_SIZE_TO(struct xbulk_find_opts, arg)

int
xbulk_find_parse(int argc, char **argv, const struct xbulk_find_opts *opts,
		 struct xbulk_find **out, char *errbuf, size_t errlen,
		 int *status)
{
	struct xbulk_find *f = calloc(1, sizeof(*f));
	struct xf_parser ps = {
		.find = f, .argv = argv, .argc = argc, .err = errbuf,
		.errlen = errlen,
		/* find's default is emacs, not -regextype
		 * findutils-default: '.' does not match a newline */
		.regex_syntax = RE_SYNTAX_EMACS,
	};
	int err;

	*out = NULL;
	*status = 0;
	if (errlen)
		errbuf[0] = 0;
	if (!f) {
		*status = XBULK_FIND_EXIT_BAD;
		snprintf(errbuf, errlen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	err = xbl_sized_in(&f->opts, sizeof(f->opts), opts, OPTS_SIZE_1);
	if (err) {
		*status = XBULK_FIND_EXIT_BAD;
		snprintf(errbuf, errlen, "struct xbulk_find_opts of %zu bytes: %s",
			 opts->size, strerror(-err));
		free(f);
		return err;
	}
	f->now = f->opts.now;
	f->warnings = f->opts.warnings;
	f->maxdepth = -1;
	f->level = -1;
	f->execs_tail = &f->execs;
	f->ls = (struct xf_ls_widths){ 9, 6, 8, 8, 3, 3, 8 };
	f->blocklog = 12;
	/* find's cur_day_start before -daystart: a day before now. */
	ps.day_start = f->now;
	ps.day_start.tv_sec -= 86400;
	f->streams = calloc(1, sizeof(*f->streams));
	if (f->streams)
		f->streams[0] = xf_zalloc(f, sizeof(struct xf_stream));
	f->nstreams = 1;
	/* symlink targets: at most PATH_MAX - 1 bytes on Linux */
	f->linkcap = 4096;
	f->linkbuf = malloc(f->linkcap);
	err = f->streams && f->streams[0] && f->linkbuf &&
	      !xbulk_ids_new(&f->ids) &&
	      !xbl_out_setup(&f->streams[0]->out, 1, 1U << 20) ?
	      parse_all(&ps) : -ENOMEM;
	if (err > 0) {			/* -help, -version */
		xbulk_find_free(f);
		return err;
	}
	if (err) {
		*status = ps.status ? ps.status : XBULK_FIND_EXIT_BAD;
		if (err == -ENOMEM)
			snprintf(errbuf, errlen, "%s", strerror(ENOMEM));
		xbulk_find_free(f);
		return err;
	}
	*out = f;
	return 0;
}
