// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/json_read.c: the lines du --trend reads back (a summary of
 * snapshot --keep) come out as written: strings unescaped (\" \\ \n
 * \uXXXX and surrogate pairs as UTF-8), integers of either sign, other
 * values neither; anything malformed is -EBADMSG, and pairs past
 * XB_JR_KV_MAX are dropped without overwriting the first.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"

static void
test_summary_line(void **state)
{
	char line[] = "{\"kind\":\"dir\",\"path\":\"a\\\"b\\\\c\\u00e9\\ud83d"
		      "\\ude00\\n\",\"depth\":1,\"inodes\":-7,\"x\":null,"
		      "\"r\":1.5e3}\n";
	struct xb_jr_kv kv[XB_JR_KV_MAX];
	bool ok = true;
	int n;

	(void)state;
	n = xb_jr_object(line, kv);
	assert_int_equal(n, 6);
	assert_string_equal(xb_jr_get(kv, n, "kind")->str, "dir");
	assert_string_equal(xb_jr_get(kv, n, "path")->str,
			    "a\"b\\c\xc3\xa9\xf0\x9f\x98\x80\n");
	assert_int_equal(xb_jr_int(kv, n, "depth", &ok), 1);
	assert_int_equal(xb_jr_int(kv, n, "inodes", &ok), -7);
	assert_int_equal(xb_jr_int(kv, n, "r", &ok), 1);
	assert_true(ok);
	xb_jr_int(kv, n, "x", &ok);		/* null: no number */
	assert_false(ok);
	ok = true;
	xb_jr_int(kv, n, "kind", &ok);		/* a string: no number */
	assert_false(ok);
	assert_null(xb_jr_get(kv, n, "missing"));
}

static void
test_malformed(void **state)
{
	static const char *const bad[] = {
		"", "[]", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1 \"b\":2}",
		"{\"a\":\"open}", "{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}",
		"{a:1}", "{\"a\":99999999999999999999}",
	};
	struct xb_jr_kv kv[XB_JR_KV_MAX];
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(buf, sizeof(buf), "%s", bad[i]);
		assert_int_equal(xb_jr_object(buf, kv), -EBADMSG);
	}
	snprintf(buf, sizeof(buf), " { } ");
	assert_int_equal(xb_jr_object(buf, kv), 0);
}

static void
test_many_pairs(void **state)
{
	struct xb_jr_kv kv[XB_JR_KV_MAX];
	char line[2048] = "{\"kind\":\"uid\"";
	size_t len = strlen(line);
	bool ok = true;
	int n;

	(void)state;
	for (int i = 0; i < 2 * XB_JR_KV_MAX; i++)
		len += (size_t)snprintf(line + len, sizeof(line) - len,
					",\"k%d\":%d", i, i);
	snprintf(line + len, sizeof(line) - len, "}");
	n = xb_jr_object(line, kv);
	assert_int_equal(n, XB_JR_KV_MAX);
	assert_string_equal(xb_jr_get(kv, n, "kind")->str, "uid");
	assert_int_equal(xb_jr_int(kv, n, "k0", &ok), 0);
	assert_true(ok);
	assert_null(xb_jr_get(kv, n, "k40"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_line),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_many_pairs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
