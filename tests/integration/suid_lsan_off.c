// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Linked into xbulk-suid-test only.  Run set-id by nobody, the process is
 * not dumpable: LeakSanitizer cannot trace it and the sanitizer runtime
 * cannot read /proc/self/environ for LSAN_OPTIONS, so in a sanitizer
 * build (build-asan) leak checking is turned off here, at compile time.
 * Without a sanitizer nothing calls this.
 */
const char *__lsan_default_options(void);

const char *
__lsan_default_options(void)
{
	return "detect_leaks=0";
}
