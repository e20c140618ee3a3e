// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the whole command line of xbulk, without a filesystem.
 *
 * The input is split at NUL bytes into the arguments after "xbulk" and
 * handed to the real main() (built as xbulk_main, see meson.build): every
 * command's option parser, number parser and usage message runs as it
 * does for a user.  xb_open_fs() is replaced at link time (--wrap) by a
 * stub that fails, so no path the fuzzer makes up is ever opened and no
 * scan starts (xb_watch_begin(), which would open --stats-file, aborts
 * if it is ever reached).  Checked: no crash, leak or undefined
 * behaviour (the sanitizers), and the exit status is 0 (--help), 1 (the
 * stub) or 2 (usage error), never anything else.
 *
 * Each argument is also fed to xb_parse_u64() and compared with a
 * reference parser written the slow, obvious way.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "watch.h"

/* cli/main.c's main(), renamed by -Dmain=xbulk_main. */
int xbulk_main(int argc, char **argv);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
enum xb_exit __wrap_xb_open_fs(const char *cmd, const char *path,
			       enum xbulk_abi abi, struct xbulk_fs **fs);
enum xb_exit __wrap_xb_watch_begin(void);

#define MAX_ARGS	64

/* Stands in for opening PATH: never touches the filesystem. */
enum xb_exit
__wrap_xb_open_fs(const char *cmd, const char *path, enum xbulk_abi abi,
		  struct xbulk_fs **fs)
{
	(void)cmd;
	(void)path;
	(void)abi;
	*fs = NULL;
	return XB_EXIT_FAILURE;
}

/*
 * xb_watch_begin() opens --stats-file: the fuzzer must never get there
 * (it comes after xb_open_fs(), which always fails here), or it would
 * create files of made-up names.  Its arguments do not matter.
 */
enum xb_exit
__wrap_xb_watch_begin(void)
{
	abort();
}

/* The reference: digits only, at least one; value by long division. */
static int
ref_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	unsigned __int128 v = 0;
	bool big = false;
	size_t i;

	if (!*s)
		return -EINVAL;
	for (i = 0; s[i]; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		v = v * 10 + (unsigned int)(s[i] - '0');
		if (v > UINT64_MAX)
			big = true, v = (unsigned __int128)UINT64_MAX + 1;
	}
	if (big || v > max)
		return -ERANGE;
	*out = (uint64_t)v;
	return 0;
}

static void
check_parse_u64(const char *s, uint64_t max)
{
	uint64_t got = 0xdeadbeef, want = 0xdeadbeef;
	int err = xb_parse_u64(s, max, &got);
	int ref = ref_parse_u64(s, max, &want);

	if (err != ref || (!err && got != want))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t maxes[] = {
		0, 1, 5, 1024, UINT32_MAX, UINT64_MAX / 10, UINT64_MAX,
	};
	char *argv[MAX_ARGS + 2];
	char *buf, *p, *end;
	int argc = 1, ret;
	size_t i;

	/* NUL-terminated copy: the last argument ends at the end. */
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';

	argv[0] = (char *)"xbulk";
	end = buf + size;
	for (p = buf; argc <= MAX_ARGS; p += strlen(p) + 1) {
		argv[argc++] = p;
		if (p + strlen(p) >= end)
			break;
	}
	argv[argc] = NULL;

	for (i = 1; i < (size_t)argc; i++)
		check_parse_u64(argv[i], maxes[i % (sizeof(maxes) /
						    sizeof(maxes[0]))]);

	/* An empty input is "xbulk ''"; one argument less is "xbulk". */
	ret = xbulk_main(size ? argc : 1, argv);
	if (ret != XB_EXIT_OK && ret != XB_EXIT_FAILURE &&
	    ret != XB_EXIT_USAGE)
		abort();
	free(buf);
	return 0;
}
