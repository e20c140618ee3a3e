// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/find: bad expressions get GNU find 4.9's message and exit status
 * (the messages were printed by find itself, LC_ALL=C); the actions
 * xbulk refuses get exit status 2; the field mask holds what the
 * expression and its output read; the pre-filter (xbulk_find_keep) drops
 * exactly the records no name could make act.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "find_harness.h"

static const struct {
	const char	*args[6];
	const char	*msg;
} bad[] = {
	/* the actions: find 4.9's words */
	{ { "-exec" }, "missing argument to `-exec'" },
	{ { "-exec", ";" }, "invalid argument `;' to `-exec'" },
	{ { "-exec", "echo" }, "missing argument to `-exec'" },
	{ { "-exec", "echo", "+" }, "missing argument to `-exec'" },
	{ { "-exec", "echo", "{}", "x", "+" }, "missing argument to `-exec'" },
	{ { "-exec", "echo", "x{}", "+" }, "In '-exec ... {} +' the '{}' must "
	  "appear by itself, but you specified 'x{}'" },
	{ { "-execdir", "echo", "{}", "{}", "+" }, "Only one instance of {} "
	  "is supported with -execdir ... +" },
	{ { "-exec", "echo", "{}x", "{}", "+" }, "Only one instance of {} is "
	  "supported with -exec ... +" },
	{ { "-ok", "echo", "{}", "+" }, "missing argument to `-ok'" },
	{ { "-okdir", "echo", "{}", "+" }, "missing argument to `-okdir'" },
	{ { "-delete", "-prune" }, "The -delete action automatically turns on "
	  "-depth, but -prune does nothing when -depth is in effect.  If you "
	  "want to carry on anyway, just explicitly use the -depth option." },
	{ { "-prune", "-o", "-delete" }, "The -delete action automatically "
	  "turns on -depth, but -prune does nothing when -depth is in effect."
	  "  If you want to carry on anyway, just explicitly use the -depth "
	  "option." },
	{ { "-files0-from" }, "missing argument to `-files0-from'" },
	{ { "/", "-files0-from", "x" }, "extra operand '/'\nfile operands "
	  "cannot be combined with -files0-from" },
	{ { "-foo" }, "unknown predicate `-foo'" },
	/* a typo: the table's nearest name, one edit in three characters */
	{ { "-nmae", "x" }, "unknown predicate `-nmae'\ndid you mean "
	  "`-name'?" },
	{ { "-maxdepht", "1" }, "unknown predicate `-maxdepht'\ndid you "
	  "mean `-maxdepth'?" },
	{ { "-xfs-extent", "1" }, "unknown predicate `-xfs-extent'\ndid you "
	  "mean `-xfs-extents'?" },
	{ { "-j", "2" }, "unknown predicate `-j'" },
	{ { "-follw" }, "unknown predicate `-follw'\ndid you mean "
	  "`-follow'?" },
	{ { "-name" }, "missing argument to `-name'" },
	{ { "(", "-print" }, "invalid expression; I was expecting to find a "
	  "')' somewhere but did not see one." },
	{ { "(", ")" }, "invalid expression; empty parentheses are not "
	  "allowed." },
	{ { "-print", ")" }, "you have too many ')'" },
	{ { "-name", "a", "b" }, "paths must precede expression: `b'" },
	/* a file that exists: likely a pattern the shell expanded */
	{ { "-name", "a", "/" }, "paths must precede expression: `/'\n"
	  "possible unquoted pattern after predicate `-name'?" },
	{ { "(", "-o", "/" }, "paths must precede expression: `/'\n"
	  "possible unquoted pattern after predicate `-o'?" },
	{ { "-type", "x" }, "Unknown argument to -type: x" },
	{ { "-type", "f,f" }, "Duplicate file type 'f' in the argument list "
	  "to -type." },
	{ { "-type", "f," }, "Last file type in list argument to -type is "
	  "missing, i.e., list is ending on: ','" },
	{ { "-size", "1x" }, "invalid -size type `x'" },
	{ { "-size", "-" }, "invalid -size type `-'" },
	{ { "-size", "abc" }, "Invalid argument `abc' to -size" },
	{ { "-perm", "abc" }, "invalid mode 'abc'" },
	{ { "-perm", "+222" }, "invalid mode '+222'" },
	{ { "-perm", "8" }, "invalid mode '8'" },
	{ { "-uid", "abc" }, "invalid argument `abc' to `-uid'" },
	{ { "-links", "1x" }, "invalid argument `1x' to `-links'" },
	{ { "-mtime", "abc" }, "invalid argument `abc' to `-mtime'" },
	{ { "-used", "x" }, "Invalid argument x to -used" },
	{ { "-mmin" }, "missing argument to `-mmin'" },
	{ { "-maxdepth", "-1" }, "Expected a positive decimal integer "
	  "argument to -maxdepth, but got '-1'" },
	{ { "-printf", "%" }, "error: % at end of format string" },
	{ { "-printf", "%{" }, "error: the format directive `%{' is reserved "
	  "for future use" },
	{ { "!" }, "expected an expression after '!'" },
	{ { "-print", "-o" }, "invalid expression" },
	{ { "-newerta", "x" }, "invalid predicate `-newerta'" },
	{ { "-regex", "a\\(" }, "failed to compile regular expression "
	  "'a\\(': Unmatched ( or \\(" },
	{ { "-newer", "/nonexistent/x" }, "'/nonexistent/x': No such file or "
	  "directory" },
	{ { "-newermt", "yesterday" }, "I cannot figure out how to interpret "
	  "'yesterday' as a date or time" },
	{ { "(" }, "invalid expression; expected to find a ')' but didn't "
	  "see one. Perhaps you need an extra predicate after '('" },
	{ { "-print", "(", "(" }, "invalid expression; expected to find a "
	  "')' but didn't see one. Perhaps you need an extra predicate after "
	  "'('" },
	{ { "-newermt" }, "The '-newermt' test needs an argument" },
	{ { "-maxdepth", "99999999999999999999" }, "99999999999999999999: "
	  "Numerical result out of range" },
	{ { "-mindepth", "2147483648" }, "2147483648: Numerical result out "
	  "of range" },
	{ { "-user", "4294967294" }, "4294967294: Numerical result out of "
	  "range" },
	{ { "-group", "2147483648" }, "2147483648: Numerical result out of "
	  "range" },
	{ { "-mtime", "1e309" }, "invalid argument `1e309' to `-mtime'" },
	{ { "-mmin", "-1e-310" }, "invalid argument `-1e-310' to `-mmin'" },
	{ { "-used", "1e400" }, "Invalid argument 1e400 to -used" },
	{ { "-O" }, "The -O option must be immediately followed by a decimal "
	  "integer" },
	{ { "-Ox", "." }, "Please specify a decimal number immediately after "
	  "-O" },
	{ { "-O3x" }, "Invalid optimisation level 3x" },
	{ { "-O18446744073709551616" }, "Invalid optimisation level "
	  "18446744073709551616: Numerical result out of range" },
	{ { "-O65536" }, "Optimisation level 65536 is too high.  If you want "
	  "to find files very quickly, consider using GNU locate." },
	/* find builds 2^14 copies of "a" here (with 30 '+', it takes all
	 * memory); the bound is checked before glibc builds anything */
	{ { "-regex", "a++++++++++++++" }, "failed to compile regular "
	  "expression 'a++++++++++++++': Regular expression too big" },
	/* find crashes on an assertion here */
	{ { "-mtime", "nan" }, "invalid argument `nan' to `-mtime'" },
	/* find's message has a NUL byte: "`%\0' is reserved ..." */
	{ { "-printf", "%5" }, "error: %5 at end of format string" },
	/* find fails every file with EOVERFLOW */
	{ { "-printf", "%99999999999p" }, "error: the width or precision of "
	  "`%99999999999p' is too large" },
	{ { "-printf", "%.2147483648Tk" }, "error: the width or precision of "
	  "`%.2147483648Tk' is too large" },
};

static void
test_bad_expressions(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct xfh h;
		const char *const *args = bad[i].args;

		if (xfh_parse(&h, args) != -EINVAL)
			fail_msg("%s: accepted", args[0]);
		if (strcmp(h.err, bad[i].msg))
			fail_msg("%s: '%s', find says '%s'", args[0], h.err,
				 bad[i].msg);
		assert_int_equal(h.status, XBULK_FIND_EXIT_BAD);
	}
}

/* What xbulk refuses: exit status 2 and a message saying what instead. */
static void
test_refused(void **state)
{
	static const struct {
		const char *arg, *hint;
	} refused[] = {
		{ "-D", "no debug options" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		struct xfh h;

		assert_int_equal(xfh_parse(&h, XFH_ARGS(refused[i].arg, "x")),
				 -EINVAL);
		assert_int_equal(h.status, XBULK_FIND_EXIT_REFUSED);
		if (!strstr(h.err, refused[i].hint))
			fail_msg("%s: '%s'", refused[i].arg, h.err);
	}
}

/* -execdir and -okdir refuse a PATH that searches the current
 * directory, as find does; -exec does not care. */
static void
test_execdir_path(void **state)
{
	static const struct {
		const char *path, *msg;
	} t[] = {
		{ "/usr/bin:.", "The current directory is included" },
		{ ":/usr/bin", "The current directory is included" },
		{ "/usr/bin::/bin", "The current directory is included" },
		{ "/usr/bin:", "The current directory is included" },
		{ "/usr/bin:foo", "The relative path 'foo' is included" },
		{ "bin:/usr/bin", "The relative path 'bin' is included" },
		{ "/usr/bin:/bin", NULL },
	};
	char *saved = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct xfh h;
		int ret;

		setenv("PATH", t[i].path, 1);
		ret = xfh_parse(&h, XFH_ARGS("-okdir", "true", ";"));
		if (t[i].msg) {
			assert_int_equal(ret, -EINVAL);
			if (!strstr(h.err, t[i].msg) ||
			    !strstr(h.err, "with the -okdir action"))
				fail_msg("%s: '%s'", t[i].path, h.err);
		} else {
			assert_int_equal(ret, 0);
			xfh_free(&h);
		}
		assert_int_equal(xfh_parse(&h, XFH_ARGS("-exec", "true", ";")),
				 0);
		xfh_free(&h);
	}
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
}

/* Regular expressions of up to 4097 nodes (after repetitions) compile,
 * larger ones are refused before glibc builds them, in every syntax's
 * way of writing groups and intervals. */
static void
test_regex_size(void **state)
{
	static const char *const ok[][4] = {
		{ "-regex", "a+++++++++++", "-regex", "ab" },
		{ "-regextype", "posix-basic", "-regex", ".\\{1,999\\}" },
		{ "-regex", "\\(\\(\\(a+\\)+\\)+\\)+" },
		{ "-regextype", "posix-extended", "-regex",
		  "[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}" },
		{ "-regextype", "posix-extended", "-regex", "[]{1,9999}]+" },
	};
	static const char *const big[][4] = {
		{ "-regex", "a+++++++++++", "-regex", "abc" },
		{ "-regextype", "posix-extended", "-regex", ".{1,4096}" },
		{ "-regextype", "posix-basic", "-regex", ".\\{4096,\\}" },
		{ "-regex", "\\(\\(\\(a+\\)+\\)+\\)\\{1,300\\}" },
		{ "-regextype", "posix-extended", "-regex", NULL },
	};
	char deep[2 * 65 + 2] = "";	/* 65 nested groups: no bound kept */
	struct xfh h;
	size_t i;

	(void)state;
	memset(deep, '(', 65);
	deep[65] = 'a';
	memset(deep + 66, ')', 65);
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (xfh_parse(&h, (const char *[]){ ok[i][0], ok[i][1],
						   ok[i][2], ok[i][3], NULL }))
			fail_msg("%s: %s", ok[i][3] ? ok[i][3] : ok[i][1],
				 h.err);
		xfh_free(&h);
	}
	for (i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
		const char *re = big[i][3] ? big[i][3] : deep;

		if (xfh_parse(&h, (const char *[]){ big[i][0], big[i][1],
						   big[i][2], re, NULL })
		    != -EINVAL || !strstr(h.err, "Regular expression too big"))
			fail_msg("%s: accepted or '%s'", re, h.err);
	}
}

/* find takes any -O level up to 65535 before the PATHs (and ignores it) */
static void
test_optimisation_level(void **state)
{
	struct xfh h;

	(void)state;
	assert_int_equal(xfh_parse(&h, XFH_ARGS("-O4", "-O65535", ".")), 0);
	xfh_free(&h);
}

/* -help and -version (and --help, --version) stop the parse there:
 * find prints its help or version and exits 0, whatever follows. */
static void
test_help_version(void **state)
{
	struct xfh h;

	(void)state;
	assert_int_equal(xfh_parse(&h, XFH_ARGS("-help", "-foo")),
			 XBULK_FIND_HELP);
	assert_int_equal(xfh_parse(&h, XFH_ARGS("-name", "-help",
						"--version")),
			 XBULK_FIND_VERSION);
	assert_int_equal(xfh_parse(&h, XFH_ARGS("--help")), XBULK_FIND_HELP);
	assert_int_equal(xfh_parse(&h, XFH_ARGS("-foo", "-version")),
			 -EINVAL);
	assert_string_equal(h.err, "unknown predicate `-foo'");
}

/* The fields each expression reads: no more (memory per inode) and no
 * less (a field not kept reads as 0). */
/* What a snapshot cannot answer is named: the first primary or
 * -printf directive in the command line's order; the rest passes. */
static void
test_offline(void **state)
{
	static const struct {
		const char	*args[6];
		const char	*what;		/* NULL: answerable */
	} t[] = {
		{ { "-print" }, NULL },
		{ { "-name", "x", "-o", "-empty", "-print0" }, NULL },
		{ { "-newerBt", "@0", "-xfs-extents", "+1" }, NULL },
		{ { "-printf", "%p %s %b %n %Xe %Xp %Xg %F %B@\n" }, NULL },
		{ { "-fstype", "xfs", "-prune", "-o", "-quit" }, NULL },
		{ { "-lname", "x" }, "-lname" },
		{ { "-follow", "-print" }, "-L or -follow" },
		{ { "-name", "x", "-o", "-ilname", "x" }, "-ilname" },
		{ { "-xtype", "l" }, "-xtype" },
		{ { "-readable", "-o", "-lname", "x" }, "-readable" },
		{ { "-ls" }, "-ls" },
		{ { "-exec", "true", "{}", ";" }, "-exec" },
		{ { "-delete" }, "-delete" },
		{ { "-xfs-extsize", "0" }, "-xfs-extsize" },
		{ { "-printf", "%p %l\n" }, "-printf %l" },
		{ { "-name", "x", "-printf", "%D" }, "-printf %D" },
		{ { "-fprintf", "/dev/null", "%Xc" }, "-fprintf %Xc" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct xfh h;
		char what[64];
		int ret;

		assert_int_equal(xfh_parse(&h, t[i].args), 0);
		ret = xbulk_find_offline(h.f, XBULK_SNAP_FIELDS, what,
					 sizeof(what));
		if (!t[i].what) {
			assert_int_equal(ret, 0);
		} else {
			assert_int_equal(ret, -ENOTSUP);
			assert_string_equal(what, t[i].what);
		}
		xfh_free(&h);
	}
}

static void
test_field_mask(void **state)
{
	static const struct {
		const char	*args[4];
		uint32_t	fields;
	} t[] = {
		{ { "-print" }, 0 },
		{ { "-name", "x", "-print0" }, 0 },
		{ { "-type", "f" }, 0 },
		{ { "-size", "+1M" }, XBULK_F_SIZE },
		{ { "-empty" }, XBULK_F_SIZE },
		{ { "-mtime", "+30" }, XBULK_F_MTIME },
		{ { "-amin", "5" }, XBULK_F_ATIME },
		{ { "-used", "1" }, XBULK_F_ATIME | XBULK_F_CTIME },
		/* and bs_version: v1 records have no birth time */
		{ { "-newerBt", "@0" }, XBULK_F_BTIME | XBULK_F_OTHER },
		{ { "-xfs-bmin", "-5" }, XBULK_F_BTIME | XBULK_F_OTHER },
		{ { "-user", "0" }, XBULK_F_OWNER },
		{ { "-nogroup" }, XBULK_F_OWNER },
		{ { "-links", "2" }, XBULK_F_NLINK },
		{ { "-perm", "-u+s" }, 0 },
		{ { "-xfs-extents", "+1" }, XBULK_F_EXTENTS },
		{ { "-xfs-xflag", "immutable" }, XBULK_F_XFLAGS },
		{ { "-xfs-projid", "7" }, XBULK_F_PROJID },
		{ { "-printf", "%s %u %Tk\n" }, XBULK_F_SIZE | XBULK_F_OWNER |
		  XBULK_F_MTIME },
		{ { "-printf", "%b %n %Xe %Xp\n" }, XBULK_F_BLOCKS |
		  XBULK_F_NLINK | XBULK_F_EXTENTS | XBULK_F_PROJID },
		{ { "-size", "+1", "-o", "-mtime" }, 0 },	/* bad: skipped */
		{ { "-ls" }, XBULK_F_SIZE | XBULK_F_BLOCKS | XBULK_F_MTIME |
		  XBULK_F_OWNER | XBULK_F_NLINK | XBULK_F_RDEV },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct xfh h;

		if (xfh_parse(&h, t[i].args))
			continue;
		if (xbulk_find_fields(h.f) != t[i].fields)
			fail_msg("%s %s: fields 0x%x, want 0x%x", t[i].args[0],
				 t[i].args[1] ? t[i].args[1] : "",
				 xbulk_find_fields(h.f), t[i].fields);
		xfh_free(&h);
	}
}

/* The expressions a plain walk answers from names and d_type alone
 * (xbulk_find_names_only(): auto's "names"), and some that stat(). */
static void
test_names_only(void **state)
{
	static const struct {
		const char	*args[6];
		bool		names;
	} t[] = {
		{ { "-print" }, true },
		{ { "-name", "x", "-o", "-iname", "y" }, true },
		{ { "-path", "./d", "-prune", "-o", "-print0" }, true },
		{ { "-type", "d", "-maxdepth", "2" }, true },
		{ { "-regex", ".*c", "-lname", "*x" }, true },
		{ { "-printf", "%p %f %h %P %H %d\n" }, true },
		{ { "-exec", "true", "{}", ";" }, true },
		{ { "-printf", "%p %y\n" }, false },	/* find stats for %y */
		{ { "-size", "+1" }, false },
		{ { "-perm", "-u+s" }, false },
		{ { "-xtype", "l" }, false },
		{ { "-empty" }, false },
		{ { "-inum", "5" }, false },
		{ { "-ls" }, false },
		{ { "-delete" }, false },
		{ { "-newer", "/" }, false },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct xfh h;

		assert_int_equal(xfh_parse(&h, t[i].args), 0);
		if (xbulk_find_names_only(h.f) != t[i].names)
			fail_msg("%s %s: names only %d", t[i].args[0],
				 t[i].args[1] ? t[i].args[1] : "", !t[i].names);
		xbulk_find_set_record(h.f, XBULK_FIND_RECORD_JSONL);
		if (xbulk_find_names_only(h.f))
			fail_msg("%s: names only with --format", t[i].args[0]);
		xfh_free(&h);
	}
}

/*
 * The pre-filter: true when the record may make an action run, whatever
 * its name; false only when no name can.  Each case on a small (10 B)
 * and a big (2 MiB) regular file of mode 0644.
 */
static void
test_prefilter(void **state)
{
	static const struct {
		const char	*args[8];
		bool		small, big;
	} t[] = {
		{ { "-print" }, true, true },
		{ { "-size", "+1M" }, false, true },
		{ { "-type", "d" }, false, false },
		{ { "-type", "f", "-size", "+1M" }, false, true },
		/* unknown (a name) and false is false; or true is true */
		{ { "-name", "x", "-size", "+1M" }, false, true },
		{ { "-size", "+1M", "-o", "-name", "x" }, true, true },
		{ { "-size", "+1M", "-o", "-false" }, false, true },
		{ { "!", "-size", "+1M" }, true, false },
		{ { "!", "-name", "x" }, true, true },
		{ { "-depth", "-size", "-2M" }, true, false },
		/* an action before the false test still runs */
		{ { "-print", ",", "-false" }, true, true },
		{ { "-size", "+1M", "-print", ",", "-name", "x" }, false, true },
		{ { "-false" }, false, false },
		{ { "-quit" }, true, true },
		/* -prune alone does nothing to a file: only the -print */
		{ { "-size", "+1M", "-prune" }, false, true },
		{ { "-path", "./d", "-prune", "-o", "-size", "+1M", "-print" },
		  false, true },
		{ { "-empty" }, false, false },
		{ { "-perm", "-u+w", "-size", "-2k" }, true, false },
		/* tests that need more than the record: kept */
		{ { "-nouser", "-size", "+1M" }, false, true },
		{ { "-size", "+1M", "-a", "-readable" }, false, true },
		{ { "-fstype", "xfs", "-o", "-size", "+1M" }, true, true },
		/* times are the record's: known */
		{ { "-newer", "/", "-o", "-size", "+1M" }, false, true },
	};
	struct xfs_bulkstat small = xfh_file(0644, 10);
	struct xfs_bulkstat big = xfh_file(0644, 2 << 20);
	size_t i;

	(void)state;
	small.bs_mtime = big.bs_mtime = 0;	/* older than "/" */
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct xfh h;

		assert_int_equal(xfh_parse(&h, t[i].args), 0);
		if (xbulk_find_keep(h.f, &small) != t[i].small ||
		    xbulk_find_keep(h.f, &big) != t[i].big)
			fail_msg("case %zu (%s %s ...): small %d big %d", i,
				 t[i].args[0], t[i].args[1] ? t[i].args[1] : "",
				 xbulk_find_keep(h.f, &small),
				 xbulk_find_keep(h.f, &big));
		xfh_free(&h);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_expressions),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_execdir_path),
		cmocka_unit_test(test_regex_size),
		cmocka_unit_test(test_optimisation_level),
		cmocka_unit_test(test_help_version),
		cmocka_unit_test(test_field_mask),
		cmocka_unit_test(test_offline),
		cmocka_unit_test(test_names_only),
		cmocka_unit_test(test_prefilter),
	};

	xfh_setup();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
