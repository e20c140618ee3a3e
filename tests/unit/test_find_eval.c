// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/find's tests on made-up records, against tables printed by GNU find
 * 4.9 itself on real files: -size and its rounding up to whole units,
 * -perm (exact, -all, /any; octal and symbolic; X for directories), the
 * times (-mtime, -mmin, fractions, -daystart; ages kept away from the
 * boundaries find's own clock would blur), -newermt's date forms, and
 * -type lists, -empty, -links, -xfs-xflag.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "find_harness.h"

/* The records of @list ("1 3 511" ...) that @args matches must be @want. */
static void
expect_set(const char *const *args, const char *list,
	   struct xfs_bulkstat (*make)(const char *item), const char *want)
{
	char got[1024] = "", item[64];
	const char *p = list;
	struct xfh h;
	int n;

	assert_int_equal(xfh_parse(&h, args), 0);
	while (sscanf(p, "%63s%n", item, &n) == 1) {
		struct xfs_bulkstat bs = make(item);

		p += n;
		if (xfh_matches(&h, &bs))
			snprintf(got + strlen(got), sizeof(got) - strlen(got),
				 "%s%s", *got ? " " : "", item);
	}
	xfh_free(&h);
	if (strcmp(got, want))
		fail_msg("%s %s: got '%s', find says '%s'", args[0], args[1],
			 got, want);
}

/* -size: sparse files of these sizes (find . -type f -size N). */
static const char sizes[] = "0 1 3 4 511 512 513 1023 1024 1025 2047 2048 "
			    "1048575 1048576 1048577 3221225472 3221225473";

static struct xfs_bulkstat
sized(const char *item)
{
	return xfh_file(0644, strtoull(item, NULL, 10));
}

static void
test_size(void **state)
{
	static const struct {
		const char *arg, *want;
	} t[] = {
		{ "0", "0" },
		{ "-1", "0" },
		{ "1", "1 3 4 511 512" },
		{ "+1", "513 1023 1024 1025 2047 2048 1048575 1048576 1048577 3221225472 3221225473" },
		{ "2", "513 1023 1024" },
		{ "512c", "512" },
		{ "-513c", "0 1 3 4 511 512" },
		{ "+511c", "512 513 1023 1024 1025 2047 2048 1048575 1048576 1048577 3221225472 3221225473" },
		{ "1k", "1 3 4 511 512 513 1023 1024" },
		{ "-1k", "0" },
		{ "-2k", "0 1 3 4 511 512 513 1023 1024" },
		{ "+1k", "1025 2047 2048 1048575 1048576 1048577 3221225472 3221225473" },
		{ "1M", "1 3 4 511 512 513 1023 1024 1025 2047 2048 1048575 1048576" },
		{ "-1M", "0" },
		{ "+1M", "1048577 3221225472 3221225473" },
		{ "2w", "3 4" },
		{ "3G", "3221225472" },
		{ "+2G", "3221225472 3221225473" },
		{ "-3G", "0 1 3 4 511 512 513 1023 1024 1025 2047 2048 1048575 1048576 1048577" },
		{ "+0", "1 3 4 511 512 513 1023 1024 1025 2047 2048 1048575 1048576 1048577 3221225472 3221225473" },
		{ "0c", "0" },
		{ "+0c", "1 3 4 511 512 513 1023 1024 1025 2047 2048 1048575 1048576 1048577 3221225472 3221225473" },
		{ "1b", "1 3 4 511 512" },
		{ "2b", "513 1023 1024" },
		{ "-2", "0 1 3 4 511 512" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		expect_set(XFH_ARGS("-size", t[i].arg), sizes, sized,
			   t[i].want);
}

/* -perm: files fMODE and directories dMODE. */
static const char modes[] = "d0700 d0711 d0755 d1777 f0000 f0222 f0444 "
			    "f0600 f0644 f0664 f0755 f2750 f4755 f6711";

static struct xfs_bulkstat
moded(const char *item)
{
	struct xfs_bulkstat bs = xfh_file(0, 0);

	bs.bs_mode = (item[0] == 'd' ? S_IFDIR : S_IFREG) |
		     (uint32_t)strtoul(item + 1, NULL, 8);
	return bs;
}

static void
test_perm(void **state)
{
	static const struct {
		const char *arg, *want;
	} t[] = {
		{ "644", "f0644" },
		{ "-644", "d0755 d1777 f0644 f0664 f0755 f4755" },
		{ "/111", "d0700 d0711 d0755 d1777 f0755 f2750 f4755 f6711" },
		{ "-u+s", "f4755 f6711" },
		{ "/g+s,o+t", "d1777 f2750 f6711" },
		{ "u=rwx,go=rx", "d0755 f0755" },
		{ "-a+r", "d0755 d1777 f0444 f0644 f0664 f0755 f4755" },
		{ "000", "f0000" },
		{ "-g=x", "d0711 d0755 d1777 f0755 f2750 f4755 f6711" },
		{ "/000", modes },
		{ "-000", modes },
		{ "/u+x,g+x", "d0700 d0711 d0755 d1777 f0755 f2750 f4755 "
		  "f6711" },
		{ "-u=r", "d0700 d0711 d0755 d1777 f0444 f0600 f0644 f0664 "
		  "f0755 f2750 f4755 f6711" },
		{ "/a=w", "d0700 d0711 d0755 d1777 f0222 f0600 f0644 f0664 "
		  "f0755 f2750 f4755 f6711" },
		{ "-o+t", "d1777" },
		{ "-u+X", modes },
		{ "u+X", "f0000" },
		{ "-a+X,u+s", "f4755 f6711" },
		{ "4755", "f4755" },
		{ "-6000", "f6711" },
		{ "/6000", "f2750 f4755 f6711" },
		{ "=", "f0000" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		expect_set(XFH_ARGS("-perm", t[i].arg), modes, moded,
			   t[i].want);
}

/* Times: files modified this many seconds before now (- : after). */
static const char ages[] = "-43200 30 250 310 50000 82800 100000 150000 "
			   "216000 3456000";

static struct xfs_bulkstat
aged(const char *item)
{
	struct xfs_bulkstat bs = xfh_file(0644, 0);

	bs.bs_mtime = XFH_NOW_SEC - strtoll(item, NULL, 10);
	bs.bs_mtime_nsec = XFH_NOW_NSEC;
	return bs;
}

static void
test_times(void **state)
{
	static const struct {
		const char *pred, *arg, *want;
	} t[] = {
		{ "-mtime", "0", "30 250 310 50000 82800" },
		{ "-mtime", "1", "100000 150000" },
		{ "-mtime", "+1", "216000 3456000" },
		{ "-mtime", "-1", "-43200 30 250 310 50000 82800" },
		{ "-mtime", "-2", "-43200 30 250 310 50000 82800 100000 150000" },
		{ "-mtime", "+0", "100000 150000 216000 3456000" },
		{ "-mmin", "4", "" },
		{ "-mmin", "5", "250" },
		{ "-mmin", "-5", "-43200 30 250" },
		{ "-mmin", "+5", "310 50000 82800 100000 150000 216000 3456000" },
		{ "-mmin", "6", "310" },
		{ "-mmin", "-1", "-43200 30" },
		{ "-mtime", "0.5", "50000 82800 100000" },
		{ "-mtime", "-0.5", "-43200 30 250 310" },
		{ "-mtime", "+0.5", "150000 216000 3456000" },
		{ "-mtime", "1.5", "150000" },
		{ "-mmin", "4.5", "250" },
		{ "-mmin", "+4.5", "310 50000 82800 100000 150000 216000 3456000" },
		{ "-mmin", "-4.5", "-43200 30 250" },
		{ "-mtime", "-0", "-43200" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		expect_set(XFH_ARGS(t[i].pred, t[i].arg), ages, aged,
			   t[i].want);
}

/* -daystart: from the start of tomorrow (local time: UTC here). */
static struct xfs_bulkstat
at(const char *item)
{
	struct xfs_bulkstat bs = xfh_file(0644, 0);

	bs.bs_mtime = strtoll(item, NULL, 10);
	return bs;
}

static void
test_daystart(void **state)
{
	/* now is 2023-11-14 22:13:20; today 00:30, yesterday 23:00, the
	 * day before at 23:00 */
	static const char days[] = "1699921800 1699916400 1699830000";

	(void)state;
	expect_set(XFH_ARGS("-daystart", "-mtime", "0"), days, at,
		   "1699921800");
	expect_set(XFH_ARGS("-daystart", "-mtime", "1"), days, at,
		   "1699916400");
	expect_set(XFH_ARGS("-daystart", "-mtime", "+0"), days, at,
		   "1699916400 1699830000");
	expect_set(XFH_ARGS("-daystart", "-mmin", "-60"), days, at, "");
	expect_set(XFH_ARGS("-mtime", "0"), days, at, "1699921800 1699916400");
}

/* -newermt: strictly newer than the date; ISO 8601 forms and @EPOCH. */
static void
test_newermt(void **state)
{
	static const struct {
		const char *date, *want;
	} t[] = {
		{ "2023-11-14", "1699920001" },
		{ "2023-11-14 00:00", "1699920001" },
		{ "2023-11-13T23:59:59", "1699920000 1699920001" },
		{ "2023-11-14T02:00:00+02:00", "1699920001" },
		{ "2023-11-14T00:00:00.5Z", "1699920001" },
		{ "@1699919999.5", "1699920000 1699920001" },
		{ "@1699920001", "" },
	};
	static const char times[] = "1699919999 1699920000 1699920001";
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		expect_set(XFH_ARGS("-newermt", t[i].date), times, at,
			   t[i].want);
}

/*
 * -newermt's forms of parse_datetime() (find's and date -d's parser):
 * each date is the second `TZ=UTC date -d DATE +%s` printed (a time
 * alone on XFH_NOW's day); find rejects the bad ones too.
 */
static void
test_newermt_forms(void **state)
{
	static const struct {
		const char *date;
		long long sec;
	} t[] = {
		{ "1-01-01", -62135596800 },
		{ "01-01-01", 978307200 },
		{ "68-01-01", 3092601600 },
		{ "69-01-01", -31536000 },
		{ "99-1-1", 915148800 },
		{ "100-01-01", -59011459200 },
		{ "10000-01-01", 253402300800 },
		{ "2020-2-29", 1582934400 },
		{ "2020-02-29 1:2:3", 1582938123 },
		{ "2020-02-29T1:02", 1582938120 },
		{ "2020-02-29 12:30:45 UTC", 1582979445 },
		{ "2020-02-29 12:30:45UTC", 1582979445 },
		{ "2020-02-29 12:30:45 +0100", 1582975845 },
		{ "2020-02-29 12:30:45+1", 1582975845 },
		{ "2020-02-29 12:30:45 -01:30", 1582984845 },
		{ "2020-02-29 12:30:45 +130", 1582974045 },
		{ "2020-02-29 12:00 +0060", 1582974000 },
		{ "2020-02-29 12:00 +2400", 1582891200 },
		{ "2020-02-29 Z", 1582934400 },
		{ "2020-02-29Z", 1582934400 },
		{ "2020-02-29 gmt", 1582934400 },
		{ "20200229", 1582934400 },
		{ "  2020-02-29  12:00  ", 1582977600 },
		{ "2020-02-29t12:00z", 1582977600 },
		{ "2020-02-29\t12:00", 1582977600 },
		{ "12:00", 1699963200 },
		{ "1:2", 1699923720 },
		{ "12:00 Z", 1699963200 },
		{ "23:59:59 -01:00", 1700009999 },
		{ "@ +5", 5 },
	};
	static const char *const bad[] = {
		"2020-02-29 24:00", "2020-02-29 23:59:60", "2020-02-30",
		"2020-00-10", "2020-13-01", "2020-02-29 +01", "2020-02-29T12",
		"@1.", "12:00 +25", "",
	};
	char times[128], want[32];
	size_t i;
	struct xfh h;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(times, sizeof(times), "%lld %lld %lld", t[i].sec - 1,
			 t[i].sec, t[i].sec + 1);
		snprintf(want, sizeof(want), "%lld", t[i].sec + 1);
		expect_set(XFH_ARGS("-newermt", t[i].date), times, at, want);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (xfh_parse(&h, XFH_ARGS("-newermt", bad[i])) != -EINVAL)
			fail_msg("-newermt '%s': accepted", bad[i]);
}

/*
 * -used N, as find 4.9 answers it: a file accessed as its status
 * changed is -used 1 (not 0), one accessed before it changed never
 * matches; ages far past time_t's range (-mtime -1e20, inf) are the end
 * of the range: everything or nothing, as find says.
 */
static struct xfs_bulkstat
used(const char *item)
{
	struct xfs_bulkstat bs = xfh_file(0644, 0);

	bs.bs_ctime = XFH_NOW_SEC - 10 * 86400;
	bs.bs_atime = bs.bs_ctime + strtoll(item, NULL, 10);
	return bs;
}

static void
test_used_and_huge_ages(void **state)
{
	static const char delays[] = "-10 0 43200 129600";

	(void)state;
	expect_set(XFH_ARGS("-used", "0"), delays, used, "");
	expect_set(XFH_ARGS("-used", "1"), delays, used, "0 43200");
	expect_set(XFH_ARGS("-used", "2"), delays, used, "129600");
	expect_set(XFH_ARGS("-used", "-1"), delays, used, "0 43200");
	expect_set(XFH_ARGS("-used", "+0"), delays, used, "43200 129600");
	expect_set(XFH_ARGS("-mtime", "-1e20"), ages, aged,
		   "-43200 30 250 310 50000 82800 100000 150000 216000 "
		   "3456000");
	expect_set(XFH_ARGS("-mmin", "-inf"), ages, aged,
		   "-43200 30 250 310 50000 82800 100000 150000 216000 "
		   "3456000");
	expect_set(XFH_ARGS("-mtime", "+1e20"), ages, aged, "");
	expect_set(XFH_ARGS("-mtime", "inf"), ages, aged, "");
}

/* -regex without -regextype is emacs syntax: '.' is not a newline
 * (findutils-default, despite its name, lets it be one). */
static void
test_regex_default(void **state)
{
	struct xfs_bulkstat bs = xfh_file(0644, 0);
	struct xfh h;

	(void)state;
	assert_int_equal(xfh_parse(&h, XFH_ARGS("-regex", ".*/a.b")), 0);
	assert_string_equal(xfh_run(&h, &bs, "./a\nb", NULL), "");
	assert_string_equal(xfh_run(&h, &bs, "./a b", NULL), "./a b\n");
	xfh_free(&h);
	assert_int_equal(xfh_parse(&h, XFH_ARGS("-regextype",
						"findutils-default", "-regex",
						".*/a.b")), 0);
	assert_string_equal(xfh_run(&h, &bs, "./a\nb", NULL), "./a\nb\n");
	xfh_free(&h);
}

static struct xfs_bulkstat
typed(const char *item)
{
	static const struct {
		char c;
		uint32_t mode;
	} types[] = {
		{ 'f', S_IFREG }, { 'd', S_IFDIR }, { 'l', S_IFLNK },
		{ 'p', S_IFIFO }, { 's', S_IFSOCK }, { 'c', S_IFCHR },
		{ 'b', S_IFBLK },
	};
	struct xfs_bulkstat bs = xfh_file(0644, 0);
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (types[i].c == item[0])
			bs.bs_mode = types[i].mode | 0644;
	bs.bs_size = item[1] == '1';	/* f1: one byte; d1: ... */
	bs.bs_nlink = (uint32_t)(item[1] - '0');
	bs.bs_xflags = item[1] == '2' ? FS_XFLAG_IMMUTABLE | FS_XFLAG_NODUMP :
		       item[1] == '1' ? FS_XFLAG_NODUMP : 0;
	return bs;
}

static void
test_type_and_others(void **state)
{
	static const char files[] = "f0 f1 f2 d2 l1 p1 s1 c1 b1";

	(void)state;
	expect_set(XFH_ARGS("-type", "f"), files, typed, "f0 f1 f2");
	expect_set(XFH_ARGS("-type", "c,b,p"), files, typed, "p1 c1 b1");
	expect_set(XFH_ARGS("-type", "l,s"), files, typed, "l1 s1");
	expect_set(XFH_ARGS("-links", "+1"), files, typed, "f2 d2");
	expect_set(XFH_ARGS("-links", "-1"), files, typed, "f0");
	expect_set(XFH_ARGS("-xfs-xflag", "nodump"), files, typed,
		   "f1 f2 d2 l1 p1 s1 c1 b1");
	expect_set(XFH_ARGS("-xfs-xflag", "immutable,nodump"), files, typed,
		   "f2 d2");
	/* -empty: regular files of size 0 (directories: by their entries) */
	expect_set(XFH_ARGS("-empty", "-type", "f"), files, typed, "f0 f2");
}

/*
 * An -fprint FILE the caller never gave an fd (xbulk_find_set_output())
 * fails with EBADF: its bytes never go to fd 0, where a zeroed stream
 * would send them (stdin can be a read-write tty or file).
 */
static void
test_output_without_fd(void **state)
{
	struct xfs_bulkstat bs = xfh_file(0644, 1);
	struct xbulk_entry file = {
		.path = "x", .pathlen = 1, .bs = &bs, .start = "x",
		.startlen = 1,
	};
	int in = dup(STDIN_FILENO), mem = memfd_create("stdin", 0);
	struct xfh h;

	(void)state;
	assert_true(in >= 0 && mem >= 0);
	assert_int_equal(dup2(mem, STDIN_FILENO), STDIN_FILENO);
	assert_int_equal(xfh_parse(&h, XFH_ARGS("x", "-fprint", "out")), 0);
	assert_int_equal(xbulk_find_noutputs(h.f), 2);
	assert_int_equal(xbulk_find_visit(h.f, &file, XBULK_VISIT_PRE), 0);
	assert_int_equal(xbulk_find_flush(h.f), -EBADF);
	assert_int_equal(xbulk_find_output_error(h.f, 1), -EBADF);
	assert_int_equal(lseek(STDIN_FILENO, 0, SEEK_END), 0);
	xfh_free(&h);
	assert_int_equal(dup2(in, STDIN_FILENO), STDIN_FILENO);
	close(in);
	close(mem);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_perm),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_daystart),
		cmocka_unit_test(test_newermt),
		cmocka_unit_test(test_newermt_forms),
		cmocka_unit_test(test_used_and_huge_ages),
		cmocka_unit_test(test_regex_default),
		cmocka_unit_test(test_type_and_others),
		cmocka_unit_test(test_output_without_fd),
	};

	xfh_setup();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
