// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/encode.c: names written one way.  The text form escapes every byte
 * a terminal hides or acts on (C0, C1, DEL, format characters, bytes
 * that are not UTF-8) and leaves "->" to a rename's arrow; JSON and CSV
 * carry U+FFFD where the bytes are not UTF-8 and say so.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"

/* What @put writes for @s. */
static char *
out(void (*put)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t size;
	FILE *f = open_memstream(&buf, &size);

	assert_non_null(f);
	put(f, s);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void
expect_escaped(const char *s, const char *want)
{
	char *got = out(xb_put_escaped, s);

	assert_string_equal(got, want);
	free(got);
}

static void
test_escaped(void **state)
{
	(void)state;
	expect_escaped("plain/é/😀", "plain/é/😀");
	expect_escaped("a\\b\n\t", "a\\\\b\\n\\t");
	expect_escaped("c0\x01\x1f\x7f", "c0\\001\\037\\177");
	expect_escaped("ff\xff x80\x80 c1\x9b", "ff\\377 x80\\200 c1\\233");
	expect_escaped("u9b\xc2\x9b", "u9b\\302\\233");		/* U+009B */
	expect_escaped("rlo\xe2\x80\xae", "rlo\\342\\200\\256");	/* U+202E */
	expect_escaped("zw\xe2\x80\x8b", "zw\\342\\200\\213");	/* U+200B */
	expect_escaped("bom\xef\xbb\xbf", "bom\\357\\273\\277");
	expect_escaped("shy\xc2\xad", "shy\\302\\255");
	expect_escaped("ls\xe2\x80\xa8", "ls\\342\\200\\250");
	expect_escaped("a -> b", "a -\\076 b");
	expect_escaped("->x", "-\\076x");
	expect_escaped(">a->", ">a-\\076");
	expect_escaped("over\xc0\xaf", "over\\300\\257");
	expect_escaped("cut\xe2\x80", "cut\\342\\200");
}

static void
put_json(FILE *f, const char *s)
{
	xb_json_string(f, "path", s);
}

static void
put_csv(FILE *f, const char *s)
{
	bool lossy = xb_csv_quoted(f, s);

	xb_csv_b64(f, s, lossy);
}

static void
test_json_csv(void **state)
{
	char *got;

	(void)state;
	got = out(put_json, "t\tq\"\xff");
	assert_string_equal(got, "\"path\":\"t\\u0009q\\\"\\ufffd\","
			    "\"path_b64\":\"dAlxIv8=\"");
	free(got);
	got = out(put_json, "ok");
	assert_string_equal(got, "\"path\":\"ok\",\"path_b64\":null");
	free(got);
	got = out(put_json, NULL);
	assert_string_equal(got, "\"path\":null,\"path_b64\":null");
	free(got);
	got = out(put_csv, "a,\"b\"\n\xff");
	assert_string_equal(got, "\"a,\"\"b\"\"\n\xef\xbf\xbd\",YSwiYiIK/w==");
	free(got);
	got = out(put_csv, "ok");
	assert_string_equal(got, "\"ok\",");
	free(got);
}

static void
test_utf8(void **state)
{
	char *s;

	(void)state;
	assert_true(xb_utf8_valid("é\t\x7f"));
	assert_false(xb_utf8_valid("\xed\xa0\x80"));		/* surrogate */
	assert_false(xb_utf8_valid("\xe2\x80"));
	s = xb_utf8_fffd("a\xff\x80\"b");
	assert_string_equal(s, "a\xef\xbf\xbd\xef\xbf\xbd\"b");
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escaped),
		cmocka_unit_test(test_json_csv),
		cmocka_unit_test(test_utf8),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
