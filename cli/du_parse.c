// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk du's -t/--threshold, --exclude and -X/--exclude-from, read as GNU
 * du reads them (gnulib xstrtoimax() with the suffixes "kKmMGTPEZY0";
 * exclude_fnmatch() without anchoring), and the options that cannot go
 * together.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "du.h"

static int
suffix_power(char c)
{
	static const char units[] = "kKmMGTPEZY";
	static const int power[] = { 1, 1, 2, 2, 3, 4, 5, 6, 7, 8 };
	const char *p = c ? strchr(units, c) : NULL;

	return p ? power[p - units] : -1;
}

enum xb_exit
du_parse_threshold(const char *arg, int64_t *v)
{
	char *end;
	int power;
	unsigned int base = 1024;
	long long n;

	errno = 0;
	n = strtoll(arg, &end, 0);
	if (end == arg) {
		if (suffix_power(*end) < 0)
			goto invalid;
		n = 1;
	} else if (errno == ERANGE) {
		goto large;
	}
	if (*end) {
		power = suffix_power(*end);
		if (power < 0)
			goto suffix;
		if (end[1] == 'i' && end[2] == 'B') {
			end += 2;
		} else if (end[1] == 'B' || end[1] == 'D') {
			base = 1000;
			end++;
		}
		if (*++end)
			goto suffix;
		while (power--) {
			if (n > INT64_MAX / base || n < INT64_MIN / base)
				goto large;
			n *= base;
		}
	}
	if (!n && strchr(arg, '-'))
		return xb_usage_error("du", "invalid --threshold argument '-0'");
	*v = n;
	return XB_EXIT_OK;
invalid:
	return xb_usage_error("du", "invalid -t argument '%s'", arg);
suffix:
	return xb_usage_error("du", "invalid suffix in -t argument '%s'", arg);
large:
	return xb_usage_error("du", "-t argument '%s' too large", arg);
}

enum xb_exit
du_add_exclude(struct du_run *r, const char *pattern)
{
	char **v = realloc(r->exclude, (r->nexclude + 1) * sizeof(*v));

	if (!v || !(v[r->nexclude] = strdup(pattern))) {
		if (v)
			r->exclude = v;
		xb_error("du", "%s", strerror(ENOMEM));
		return XB_EXIT_FAILURE;
	}
	r->exclude = v;
	r->nexclude++;
	return XB_EXIT_OK;
}

enum xb_exit
du_add_exclude_file(struct du_run *r, const char *file)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "re") : stdin;
	enum xb_exit ret = XB_EXIT_OK;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	if (!f) {
		xb_error("du", "%s: %s", file, strerror(errno));
		return XB_EXIT_FAILURE;
	}
	while (!ret && (len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (len)
			ret = du_add_exclude(r, line);
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return ret;
}

bool
du_excluded(void *arg, const struct xbulk_entry *e)
{
	const struct du_run *r = arg;
	const char *p;
	size_t i;

	for (i = 0; i < r->nexclude; i++) {
		if (!fnmatch(r->exclude[i], e->path, 0))
			return true;
		for (p = e->path; *p; p++)
			if (*p == '/' && p[1] != '/' &&
			    !fnmatch(r->exclude[i], p + 1, 0))
				return true;
	}
	return false;
}

/*
 * Options that cannot go together: each pair names what the run would
 * otherwise leave out silently.
 */
enum xb_exit
du_check_conflicts(const struct du_run *r)
{
	/* what --trend and --since (no walk of PATH) cannot give: the
	 * walk's other products (each draws its own --svg), and du's
	 * lines' options */
	const bool walk_only = r->top || r->ncdu_file.path ||
			       r->prom_file.path || r->unreachable;
	const bool line_opts = r->all || r->separate_dirs || r->threshold ||
			       r->count_links || r->total || r->nul ||
			       r->nexclude;
	const struct {
		bool		both;
		const char	*what, *why;
	} no[] = {
		{ r->unreachable && r->top, "--unreachable and --top", "" },
		{ r->unreachable && r->svg_file.path, "--unreachable and --svg",
		  "" },
		{ r->unreachable && r->ncdu_file.path,
		  "--unreachable and --ncdu", "" },
		{ r->by_given && r->top, "--by and --top", "" },
		{ r->separate_dirs && r->svg_file.path, "-S and --svg",
		  " (a treemap needs whole subtrees)" },
		{ r->separate_dirs && (r->by_given || r->unreachable),
		  "-S and --by or --unreachable", "" },
		{ r->threshold && (r->by_given || r->top || r->unreachable),
		  "-t and --by, --top or --unreachable",
		  " (-t chooses du's lines)" },
		{ r->prom_file.path && (r->by_given || r->top ||
					r->unreachable),
		  "--prometheus and --by, --top or --unreachable",
		  " (its file has the tables by owner)" },
		{ r->prom_file.path && (r->apparent || r->separate_dirs),
		  "--prometheus and --apparent-size, -b or -S",
		  " (its figures are the disk usage of whole trees)" },
		{ r->nul && r->format != XB_FORMAT_TEXT,
		  "-0 and -o jsonl or csv", "" },
		{ r->trend && (r->top || r->ncdu_file.path ||
			       r->prom_file.path || r->unreachable),
		  "--trend and --top, --ncdu, --prometheus or "
		  "--unreachable", " (--trend reads summaries, no scan)" },
		{ r->trend && line_opts,
		  "--trend and -a, -S, -t, -l, -c, -0 or --exclude",
		  " (a summary holds whole subtrees to a depth)" },
		{ r->trend && r->by_given && r->by > DU_BY_PROJID,
		  "--trend and --by other than uid, gid or projid",
		  " (a summary holds those)" },
		{ r->since && (r->trend || walk_only),
		  "--since and --trend, --top, --ncdu, --prometheus "
		  "or --unreachable", "" },
		{ r->since && r->svg_file.path && (r->by_given ||
						   r->color_given),
		  "--since --svg and --by or --color-by",
		  " (its colours are the growth)" },
		{ r->since && line_opts,
		  "--since and -a, -S, -t, -l, -c, -0 or --exclude",
		  " (its rows are whole subtrees to a depth)" },
		{ r->since && r->by_given && r->by > DU_BY_PROJID,
		  "--since and --by other than uid, gid or projid", "" },
	};
	size_t i;

	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (no[i].both)
			return xb_usage_error("du", "%s cannot be combined%s",
					      no[i].what, no[i].why);
	return XB_EXIT_OK;
}
