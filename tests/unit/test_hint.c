// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/hint.c: the command line that damage reports print must survive a
 * POSIX shell: each quoted word, run through sh -c 'printf %s WORD', is
 * the word again; words that need no quoting stay as they are.  The mount
 * point of a path is the topmost directory above it on its device.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"

/* What sh prints for the word @q. */
static char *
through_sh(const char *q)
{
	char cmd[512], *out = calloc(1, 256);
	FILE *f;
	size_t n;

	assert_non_null(out);
	snprintf(cmd, sizeof(cmd), "printf %%s %s", q);
	f = popen(cmd, "r");
	assert_non_null(f);
	n = fread(out, 1, 255, f);
	out[n] = '\0';
	assert_int_equal(pclose(f), 0);
	return out;
}

static void
expect_quote(const char *s, const char *want)
{
	char *q = xb_shell_quote(s), *back;

	assert_non_null(q);
	assert_string_equal(q, want);
	back = through_sh(q);
	assert_string_equal(back, s);
	free(back);
	free(q);
}

static void
test_plain_words_stay(void **state)
{
	(void)state;
	expect_quote("/mnt/xfs", "/mnt/xfs");
	expect_quote("/srv/a-b_c.d/e+f,g:h@i%j=k", "/srv/a-b_c.d/e+f,g:h@i%j=k");
}

static void
test_odd_words_quoted(void **state)
{
	(void)state;
	expect_quote("/mnt/with space", "'/mnt/with space'");
	expect_quote("/mnt/it's", "'/mnt/it'\\''s'");
	expect_quote("$HOME;`id`*?", "'$HOME;`id`*?'");
	expect_quote("a\nb\tc\\d", "'a\nb\tc\\d'");
	expect_quote("''", "''\\'''\\'''");
}

static void
test_empty_word_quoted(void **state)
{
	char *q = xb_shell_quote("");

	(void)state;
	assert_non_null(q);
	assert_string_equal(q, "''");
	free(q);
}

static void
test_mount_point(void **state)
{
	char *m = xb_hint_mount("/");

	(void)state;
	assert_non_null(m);
	assert_string_equal(m, "/");
	free(m);
	/* /proc is a mount of its own: /proc/self/... resolves below it */
	m = xb_hint_mount("/proc/self/fd");
	assert_non_null(m);
	assert_string_equal(m, "/proc");
	free(m);
	/* Not resolvable: the path as given, quoted */
	m = xb_hint_mount("/nonexistent dir/x");
	assert_non_null(m);
	assert_string_equal(m, "'/nonexistent dir/x'");
	free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_words_stay),
		cmocka_unit_test(test_odd_words_quoted),
		cmocka_unit_test(test_empty_word_quoted),
		cmocka_unit_test(test_mount_point),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
