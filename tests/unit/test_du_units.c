// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/du/units.c: -B/--block-size parsed and sizes printed as GNU du 9.1
 * does.  The expected strings were printed by du itself
 * (du --apparent-size -h / --si / -BK / -BMB on files of these sizes).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "du/units.h"

static const struct {
	uint64_t	n;
	const char	*h, *si, *k, *mb;
} table[] = {
	{ 0, "0", "0", "0K", "0MB" },
	{ 1, "1", "1", "1K", "1MB" },
	{ 999, "999", "999", "1K", "1MB" },
	{ 1000, "1000", "1.0k", "1K", "1MB" },
	{ 1023, "1023", "1.1k", "1K", "1MB" },
	{ 1024, "1.0K", "1.1k", "1K", "1MB" },
	{ 1025, "1.1K", "1.1k", "2K", "1MB" },
	{ 1535, "1.5K", "1.6k", "2K", "1MB" },
	{ 1536, "1.5K", "1.6k", "2K", "1MB" },
	{ 1537, "1.6K", "1.6k", "2K", "1MB" },
	{ 9999, "9.8K", "10k", "10K", "1MB" },
	{ 10000, "9.8K", "10k", "10K", "1MB" },
	{ 10001, "9.8K", "11k", "10K", "1MB" },
	{ 10137, "9.9K", "11k", "10K", "1MB" },
	{ 10138, "10K", "11k", "10K", "1MB" },
	{ 10239, "10K", "11k", "10K", "1MB" },
	{ 10240, "10K", "11k", "10K", "1MB" },
	{ 10241, "11K", "11k", "11K", "1MB" },
	{ 99999, "98K", "100k", "98K", "1MB" },
	{ 102400, "100K", "103k", "100K", "1MB" },
	{ 999999, "977K", "1.0M", "977K", "1MB" },
	{ 1000000, "977K", "1.0M", "977K", "1MB" },
	{ 1000001, "977K", "1.1M", "977K", "2MB" },
	{ 1024000, "1000K", "1.1M", "1000K", "2MB" },
	{ 1046528, "1022K", "1.1M", "1022K", "2MB" },
	{ 1047552, "1023K", "1.1M", "1023K", "2MB" },
	{ 1048575, "1.0M", "1.1M", "1024K", "2MB" },
	{ 1048576, "1.0M", "1.1M", "1024K", "2MB" },
	{ 1048577, "1.1M", "1.1M", "1025K", "2MB" },
	{ 104857600, "100M", "105M", "102400K", "105MB" },
	{ 1073741823, "1.0G", "1.1G", "1048576K", "1074MB" },
};

static void
expect(uint64_t n, const char *spec, const char *want)
{
	struct du_units u;
	char buf[DU_UNITS_MAX];
	size_t len;

	assert_int_equal(du_units_parse(spec, &u), 0);
	len = du_units_format(buf, n, &u);
	assert_string_equal(buf, want);
	assert_int_equal(len, strlen(want));
}

static void
test_units_du_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		expect(table[i].n, "human-readable", table[i].h);
		expect(table[i].n, "si", table[i].si);
		expect(table[i].n, "K", table[i].k);
		expect(table[i].n, "MB", table[i].mb);
	}
}

/* du -B SPEC on a file of 126976 bytes of disk usage. */
static void
test_units_block_sizes(void **state)
{
	static const struct {
		const char *spec, *want;
	} t[] = {
		{ "1", "126976" }, { "1K", "124" }, { "K", "124K" },
		{ "KB", "127kB" }, { "KiB", "124KiB" }, { "1KB", "127" },
		{ "1kB", "127" }, { "k", "124K" }, { "0x10", "7936" },
		{ "010", "15872" }, { " 2K", "62" }, { "1M", "1" },
		{ "M", "1M" }, { "1000", "127" }, { "3", "42326" },
		{ "G", "1G" }, { "GB", "1GB" }, { "E", "1E" }, { "1E", "1" },
		{ "'1", "126976" }, { "'K", "124K" }, { "h", "124K" },
		{ "hu", "124K" }, { "s", "127k" }, { "'h", "124K" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		expect(126976, t[i].spec, t[i].want);
}

static void
test_units_bad(void **state)
{
	static const struct {
		const char *spec;
		int err;
	} t[] = {
		{ "Z", -ERANGE }, { "1Z", -ERANGE }, { "Y", -ERANGE },
		{ "99999999999999999999", -ERANGE }, { "0", -EINVAL },
		{ "0K", -EINVAL }, { "-1", -EINVAL }, { " -1", -EINVAL },
		{ "x", -EINVAL }, { "", -EINVAL }, { "b", -EINVAL },
		{ "B", -EINVAL }, { "S", -EINVAL }, { "humanx", -EINVAL },
		{ "1x", -EILSEQ }, { "1e", -EILSEQ }, { "1b", -EILSEQ },
		{ "1B", -EILSEQ }, { "1iB", -EILSEQ }, { "1KBx", -EILSEQ },
	};
	struct du_units u;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		assert_int_equal(du_units_parse(t[i].spec, &u), t[i].err);
}

/* DU_BLOCK_SIZE first (an invalid one means the default), then
 * BLOCK_SIZE, then BLOCKSIZE; POSIXLY_CORRECT makes the default 512. */
static void
test_units_environment(void **state)
{
	struct du_units u;

	(void)state;
	unsetenv("DU_BLOCK_SIZE");
	unsetenv("BLOCK_SIZE");
	unsetenv("BLOCKSIZE");
	unsetenv("POSIXLY_CORRECT");
	du_units_default(&u);
	assert_int_equal(u.block_size, 1024);
	assert_int_equal(u.opts, 0);
	setenv("BLOCKSIZE", "1", 1);
	du_units_default(&u);
	assert_int_equal(u.block_size, 1);
	setenv("BLOCK_SIZE", "si", 1);
	du_units_default(&u);
	assert_int_equal(u.opts, DU_HUMAN_AUTOSCALE | DU_HUMAN_SI);
	setenv("DU_BLOCK_SIZE", "x", 1);
	du_units_default(&u);
	assert_int_equal(u.block_size, 1024);
	assert_int_equal(u.opts, 0);
	setenv("POSIXLY_CORRECT", "1", 1);
	du_units_default(&u);
	assert_int_equal(u.block_size, 512);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_units_du_table),
		cmocka_unit_test(test_units_block_sizes),
		cmocka_unit_test(test_units_bad),
		cmocka_unit_test(test_units_environment),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
