// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * find's diagnostics: a parse error (the message and exit status the
 * parser returns), warnings (through the caller's hook), and a file that
 * could not be fully handled (the problem hook; exit status 1).  Nothing
 * here prints.  bfs keeps these in diag.c, below every other module.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "find.h"

int
xf_fail(struct xf_parser *ps, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ps->err, ps->errlen, fmt, ap);
	va_end(ap);
	if (!ps->status)
		ps->status = XBULK_FIND_EXIT_BAD;
	return -EINVAL;
}

static void __attribute__((format(printf, 2, 0)))
vwarn(struct xf_parser *ps, const char *fmt, va_list ap)
{
	char msg[1024];

	if (!ps->find->opts.warn)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	ps->find->opts.warn(ps->find->opts.arg, msg);
}

void
xf_warn(struct xf_parser *ps, const char *fmt, ...)
{
	va_list ap;

	if (!ps->find->warnings)
		return;
	va_start(ap, fmt);
	vwarn(ps, fmt, ap);
	va_end(ap);
}

void
xf_warn_always(struct xf_parser *ps, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(ps, fmt, ap);
	va_end(ap);
}

void
xf_problem(struct xbulk_find *f, const char *path, int err)
{
	f->problems++;
	if (f->opts.problem)
		f->opts.problem(f->opts.arg, path, err);
}
