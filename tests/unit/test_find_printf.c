// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/find's output: -printf's directives, flags, widths, precisions and
 * escapes, %P %H %f %h along a walk, -ls, and the time formats with
 * find's fractional seconds (lib/find/time.c), against what GNU find 4.9
 * printed for a real file of the same attributes (TZ=UTC LC_ALL=C).
 */
#include <errno.h>
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "find/facts.h"
#include "find_harness.h"

/* pf/dir/file: 1234 bytes, mode 0640, 12345:54321 (no names), modified
 * 2021-03-04 05:06:07.123456789, accessed 1969-12-31 23:59:59.5 */
static struct xfs_bulkstat
pf_file(void)
{
	struct xfs_bulkstat bs = xfh_file(0640, 1234);

	bs.bs_ino = 10952891;
	bs.bs_uid = 12345;
	bs.bs_gid = 54321;
	bs.bs_mtime = 1614834367;
	bs.bs_mtime_nsec = 123456789;
	bs.bs_atime = -1;
	bs.bs_atime_nsec = 500000000;
	return bs;
}

static void
expect_printf(const char *fmt, const char *want)
{
	struct xfs_bulkstat bs = pf_file();
	struct xfh h;
	const char *got;

	assert_int_equal(xfh_parse(&h, XFH_ARGS("-printf", fmt)), 0);
	got = xfh_run(&h, &bs, "pf/dir/file", NULL);
	if (strcmp(got, want))
		fail_msg("-printf '%s': got '%s', find prints '%s'", fmt, got,
			 want);
	xfh_free(&h);
}

static void
test_directives(void **state)
{
	(void)state;
	expect_printf("%p|%f|%h|%P|%H|%d|%y|%m|%M|%n|%s|%b|%k|%u|%g|%U|%G|"
		      "%i|%S\n", "pf/dir/file|file|pf/dir||pf/dir/file|0|f|"
		      "640|-rw-r-----|1|1234|8|4|12345|54321|12345|54321|"
		      "10952891|3.31929\n");
	expect_printf("%t|%a\n", "Thu Mar  4 05:06:07.1234567890 2021|"
		      "Wed Dec 31 23:59:59.5000000000 1969\n");
	expect_printf("%T+|%T@|%TS|%Tk|%TY-%Tm-%Td|%A@|%AT|%Ab|%TT|%TX|%Tc|"
		      "%TD|%Ta %TA %TB %Th|%Tj %TU %Tw|%Tr|%TZ\n",
		      "2021-03-04+05:06:07.1234567890|1614834367.1234567890|"
		      "07.1234567890| 5|2021-03-04|-1.5000000000|"
		      "23:59:59.5000000000|Dec|05:06:07.1234567890|"
		      "05:06:07.1234567890|Thu Mar  4 05:06:07 2021|03/04/21|"
		      "Thu Thursday March Mar|063 09 4|05:06:07 AM|UTC\n");
	/* most directives are strings: '-', width and a truncating
	 * precision only (%08s pads with spaces); %d %m take every flag */
	expect_printf("%-8s|%8s|%08s|%-6m|%#m|%+d|%.2p|%5.2f|%05d|%-4d|%5i|"
		      "%.3s|%10.4M\n", "1234    |    1234|    1234|640   |0640|"
		      "+0|pf|   fi|00000|0   |10952891|123|      -rw-\n");
	/* escapes; \c ends the output there */
	expect_printf("a\\tb\\\\n\\101%%\\x\\c more", "a\tb\\nA%\\x");
	/* unknown directives print as they are */
	expect_printf("%Q|%z\n", "%Q|%z\n");
}

/* %P %H %f %h %d along walks from "pf" and "pf/", and of "/". */
static void
test_walk_names(void **state)
{
	static const struct {
		const char *start, *path, *want;
	} t[] = {
		{ "pf", "pf", "0||pf|pf|." },
		{ "pf", "pf/dir", "1|dir|pf|dir|pf" },
		{ "pf", "pf/dir/file", "2|dir/file|pf|file|pf/dir" },
		{ "pf/", "pf/", "0||pf/|pf/|." },
		{ "pf/", "pf/dir", "1|dir|pf/|dir|pf" },
		{ "/", "/", "0||/|/|" },
		/* %h of a PATH with trailing slashes: find 4.9's quirk */
		{ "zz/", "zz/", "0||zz/|zz/|." },
		{ "a/", "a/", "0||a/|a/|a" },
		{ "a//", "a//", "0||a//|a/|a/" },
		{ "hh/a/", "hh/a/", "0||hh/a/|a/|hh" },
		{ "a//b//", "a//b//", "0||a//b//|b/|a/" },
		{ "//", "//", "0||//|/|/" },
		{ ".//", ".//", "0||.//|./|./" },
	};
	struct xfs_bulkstat bs = pf_file();
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct xfh h;
		const char *got;

		assert_int_equal(xfh_parse(&h, XFH_ARGS("-printf",
							"%d|%P|%H|%f|%h")), 0);
		got = xfh_run_in(&h, &bs, t[i].start, t[i].path, NULL);
		if (strcmp(got, t[i].want))
			fail_msg("%s under %s: got '%s', find prints '%s'",
				 t[i].path, t[i].start, got, t[i].want);
		xfh_free(&h);
	}
}

static void
test_ls(void **state)
{
	struct xfs_bulkstat bs = pf_file();
	struct xfh h;

	(void)state;
	assert_int_equal(xfh_parse(&h, XFH_ARGS("-ls")), 0);
	assert_string_equal(xfh_run(&h, &bs, "pf/dir/file", NULL),
			    " 10952891      4 -rw-r-----   1 12345    54321    "
			    "    1234 Mar  4  2021 pf/dir/file\n");
	xfh_free(&h);
}

/* %d %m %S are printf's own: a width past 511 is printed whole. */
static void
test_wide_numbers(void **state)
{
	char want[2048];

	(void)state;
	snprintf(want, sizeof(want), "%600d|%-600o|\n", 0, 0640);
	expect_printf("%600d|%-600m|\n", want);
}

/*
 * Names on a terminal, as find 4.9 printed them there (LC_ALL=C and
 * C.UTF-8): what the terminal could not show is '?', one per character
 * (a control character, C1's U+009B) or per byte of an invalid sequence,
 * one for an incomplete one at the end; a width or precision applies to
 * what is shown.
 */
static void
test_tty_names(void **state)
{
	static const struct {
		const char *locale, *name, *want;
	} t[] = {
		{ "C", "a\nb\xff\xc3\xa9", "[a?b???  |a?b]" },
		{ "C.UTF-8", "a\nb\xff\xc3\xa9", "[a?b?\xc3\xa9  |a?b]" },
		{ "C.UTF-8", "\xc3\xa9", "[\xc3\xa9      |\xc3\xa9]" },
		{ "C.UTF-8", "a\xc3", "[a?      |a?]" },
		{ "C.UTF-8", "\xe2\x80\x8b", "[\xe2\x80\x8b     |"
		  "\xe2\x80\x8b]" },
		{ "C.UTF-8", "c\xc2\x9b" "d", "[c?d     |c?d]" },
	};
	struct xfs_bulkstat bs = pf_file();
	char path[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct xfh h;
		const char *got;

		if (!setlocale(LC_CTYPE, t[i].locale))
			skip();
		snprintf(path, sizeof(path), "./%s", t[i].name);
		assert_int_equal(xfh_parse(&h, XFH_ARGS("-printf",
							"[%-8f|%.3f]")), 0);
		assert_int_equal(xbulk_find_set_output(h.f, 0, h.fd, true), 0);
		got = xfh_run(&h, &bs, path, NULL);
		if (strcmp(got, t[i].want))
			fail_msg("%s in %s: got '%s', find prints '%s'",
				 t[i].name, t[i].locale, got, t[i].want);
		xfh_free(&h);
	}
	setlocale(LC_CTYPE, "C");
}

/* lib/find/time.c: find's ctime-like %t, %Tk with its fraction, -ls. */
static void
test_time_formats(void **state)
{
	static const struct {
		int64_t		sec;
		uint32_t	nsec;
		const char	*ctime, *plus, *at;
	} t[] = {
		{ 1614834367, 123456789, "Thu Mar  4 05:06:07.1234567890 2021",
		  "2021-03-04+05:06:07.1234567890", "1614834367.1234567890" },
		{ -1, 500000000, "Wed Dec 31 23:59:59.5000000000 1969",
		  "1969-12-31+23:59:59.5000000000", "-1.5000000000" },
		{ 0, 5, "Thu Jan  1 00:00:00.0000000050 1970",
		  "1970-01-01+00:00:00.0000000050", "0.0000000050" },
		{ 2147483648, 0, "Tue Jan 19 03:14:08.0000000000 2038",
		  "2038-01-19+03:14:08.0000000000", "2147483648.0000000000" },
		{ 7258118400, 250000000, "Wed Jan  1 00:00:00.2500000000 2200",
		  "2200-01-01+00:00:00.2500000000", "7258118400.2500000000" },
		{ -2147483648, 0, "Fri Dec 13 20:45:52.0000000000 1901",
		  "1901-12-13+20:45:52.0000000000", "-2147483648.0000000000" },
	};
	char buf[256];
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		n = xf_ctime_format(buf, t[i].sec, t[i].nsec);
		assert_string_equal(buf, t[i].ctime);
		assert_int_equal(n, strlen(t[i].ctime));
		n = xf_date_format(buf, sizeof(buf), t[i].sec, t[i].nsec, '+');
		assert_string_equal(buf, t[i].plus);
		assert_int_equal(n, strlen(t[i].plus));
		xf_date_format(buf, sizeof(buf), t[i].sec, t[i].nsec, '@');
		assert_string_equal(buf, t[i].at);
	}
	/* the fraction goes after the seconds, whatever the format */
	xf_date_format(buf, sizeof(buf), 1614834367, 123456789, 'S');
	assert_string_equal(buf, "07.1234567890");
	xf_date_format(buf, sizeof(buf), 1614834367, 123456789, 'X');
	assert_string_equal(buf, "05:06:07.1234567890");
	xf_date_format(buf, sizeof(buf), 1614834367, 123456789, 'c');
	assert_string_equal(buf, "Thu Mar  4 05:06:07 2021");
	/* -ls: hours within six months, else the year */
	xf_ls_date(buf, XFH_NOW_SEC - 86400, XFH_NOW_SEC);
	assert_string_equal(buf, "Nov 13 22:13");
	xf_ls_date(buf, 1614834367, XFH_NOW_SEC);
	assert_string_equal(buf, "Mar  4  2021");
	xf_ls_date(buf, 7258118400, XFH_NOW_SEC);
	assert_string_equal(buf, "Jan  1  2200");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_directives),
		cmocka_unit_test(test_walk_names),
		cmocka_unit_test(test_ls),
		cmocka_unit_test(test_wide_numbers),
		cmocka_unit_test(test_tty_names),
		cmocka_unit_test(test_time_formats),
	};

	xfh_setup();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
