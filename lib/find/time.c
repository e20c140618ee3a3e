// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Times as GNU find reads and writes them: -newermt's DATE (ISO 8601
 * forms and @EPOCH; other `date -d` phrases are refused), -printf's
 * ctime-like %a %c %t and strftime-based %Ak with find's fractional
 * seconds (nine digits and a trailing 0, inserted after the seconds),
 * and -ls's date column.  Local time, as find (TZ applies).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "find.h"

bool
xf_localtime(int64_t sec, struct tm *tm)
{
	time_t t = (time_t)sec;

	return localtime_r(&t, tm) != NULL;
}

/* strftime() with a format chosen at run time. */
static size_t
format_tm(char *dst, size_t size, const char *fmt, const struct tm *tm)
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	return strftime(dst, size, fmt, tm);
#pragma GCC diagnostic pop
}

/* @p's next @n digits as a number; false if they are not all digits. */
static bool
digits(const char **p, int n, int *v)
{
	*v = 0;
	while (n--) {
		if (!isdigit((unsigned char)**p))
			return false;
		*v = 10 * *v + (*(*p)++ - '0');
	}
	return true;
}

/* "@SECONDS[.FRACTION]" */
static int
parse_epoch(const char *s, struct timespec *ts)
{
	long long sec;
	long nsec = 0, scale = 100000000;
	char *end;

	errno = 0;
	sec = strtoll(s, &end, 10);
	if (end == s || errno || !isdigit((unsigned char)end[-1]))
		return -EINVAL;
	if (*end == '.' || *end == ',') {
		if (!isdigit((unsigned char)*++end))
			return -EINVAL;
		for (; isdigit((unsigned char)*end); end++) {
			nsec += (*end - '0') * scale;
			scale /= 10;
		}
	}
	if (*end)
		return -EINVAL;
	ts->tv_sec = sec;
	ts->tv_nsec = nsec;
	if (strchr(s, '-') && nsec) {	/* -1.5 is 1.5 s before 0 */
		ts->tv_sec--;
		ts->tv_nsec = 1000000000 - nsec;
	}
	return 0;
}

/* "Z", "+HH", "+HHMM", "+HH:MM" (and '-'); *@off in seconds east. */
static bool
parse_zone(const char *p, long *off, bool *has)
{
	int h, m = 0;
	int sign;

	*has = false;
	if (!*p)
		return true;
	*has = true;
	*off = 0;
	if ((p[0] == 'Z' || p[0] == 'z') && !p[1])
		return true;
	if (!strcmp(p, "UTC") || !strcmp(p, "GMT"))
		return true;
	if (*p != '+' && *p != '-')
		return false;
	sign = *p++ == '-' ? -1 : 1;
	if (!digits(&p, 2, &h))
		return false;
	if (*p == ':')
		p++;
	if (*p && !digits(&p, 2, &m))
		return false;
	if (*p || h > 24 || m > 59)
		return false;
	*off = sign * (h * 3600L + m * 60L);
	return true;
}

int
xf_parse_date(const char *s, struct timespec *ts)
{
	const char *p = s;
	struct tm tm = { 0 };
	int y, mo, d, h = 0, mi = 0, sec = 0;
	long nsec = 0, off;
	bool zone;
	time_t t;

	while (*p == ' ')
		p++;
	if (*p == '@')
		return parse_epoch(p + 1, ts);
	if (!digits(&p, 4, &y) || *p++ != '-' || !digits(&p, 2, &mo) ||
	    *p++ != '-' || !digits(&p, 2, &d))
		return -EINVAL;
	if (*p == 'T' || *p == 't' || *p == ' ') {
		p++;
		if (!digits(&p, 2, &h) || *p++ != ':' || !digits(&p, 2, &mi))
			return -EINVAL;
		if (*p == ':') {
			p++;
			if (!digits(&p, 2, &sec))
				return -EINVAL;
			if (*p == '.' || *p == ',') {
				long scale = 100000000;

				if (!isdigit((unsigned char)*++p))
					return -EINVAL;
				for (; isdigit((unsigned char)*p); p++) {
					nsec += (*p - '0') * scale;
					scale /= 10;
				}
			}
		}
	}
	if (!parse_zone(p, &off, &zone))
		return -EINVAL;
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 ||
	    sec > 60)
		return -EINVAL;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	tm.tm_isdst = -1;
	if (zone) {
		t = timegm(&tm);
		t -= off;
	} else {
		t = mktime(&tm);
	}
	if (tm.tm_mday != d && sec < 60)	/* Feb 30th */
		return -EINVAL;
	ts->tv_sec = t;
	ts->tv_nsec = nsec;
	return 0;
}

/* find's "%@": seconds since the epoch, then the fraction if @ns. */
static size_t
epoch_format(char *dst, size_t size, int64_t sec, uint32_t nsec, bool ns)
{
	int n = snprintf(dst, size, "%" PRId64, sec);

	if (ns)
		n += snprintf(dst + n, size - (size_t)n, ".%09" PRIu32 "0",
			      nsec);
	return (size_t)n;
}

size_t
xf_ctime_format(char *dst, int64_t sec, uint32_t nsec)
{
	static const char wday[7][4] = { "Sun", "Mon", "Tue", "Wed", "Thu",
					 "Fri", "Sat" };
	static const char mon[12][4] = { "Jan", "Feb", "Mar", "Apr", "May",
					 "Jun", "Jul", "Aug", "Sep", "Oct",
					 "Nov", "Dec" };
	struct tm tm;

	if (!xf_localtime(sec, &tm))
		return epoch_format(dst, 64, sec, nsec, false);
	return (size_t)snprintf(dst, 64, "%3s %3s %2d %02d:%02d:%02d.%09" PRIu32
				"0 %04d", wday[tm.tm_wday], mon[tm.tm_mon],
				tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
				nsec, 1900 + tm.tm_year);
}

/*
 * find's do_time_format(): strftime @fmt, then put @ns after the seconds,
 * found as the only two digits that change when the seconds do.
 */
static size_t
time_with_ns(char *dst, size_t size, const char *fmt, const struct tm *tm,
	     const char *ns)
{
	struct tm alt = *tm;
	char other[256];
	size_t len, olen, i, first = 0, n = 0, nslen = strlen(ns);

	len = format_tm(dst, size, fmt, tm);
	if (!nslen)
		return len;
	alt.tm_sec = tm->tm_sec >= 11 ? tm->tm_sec - 11 : tm->tm_sec + 11;
	olen = format_tm(other, sizeof(other), fmt, &alt);
	if (olen != len)
		return len;
	for (i = 0; i < len; i++) {
		if (dst[i] == other[i])
			continue;
		if (!isdigit((unsigned char)dst[i]) ||
		    !isdigit((unsigned char)other[i]))
			return len;
		if (!n)
			first = i;
		else if (i - first != n)
			return len;
		n++;
	}
	if (n != 2 || isdigit((unsigned char)dst[first + 2]) ||
	    len + nslen >= size)
		return len;
	memmove(dst + first + 2 + nslen, dst + first + 2, len - first - 2);
	memcpy(dst + first + 2, ns, nslen);
	dst[len + nslen] = 0;
	return len + nslen;
}

size_t
xf_date_format(char *dst, size_t size, int64_t sec, uint32_t nsec, char k)
{
	char fmt[4] = { '%', k, 0, 0 }, ns[16] = "";
	bool want_ns = k == 'S' || k == 'T' || k == 'X' || k == '@' ||
		       k == '+';
	struct tm tm;

	if (want_ns)
		snprintf(ns, sizeof(ns), ".%09" PRIu32 "0", nsec);
	if (k != '@' && xf_localtime(sec, &tm))
		return time_with_ns(dst, size, k == '+' ? "%Y-%m-%d+%T" : fmt,
				    &tm, ns);
	return epoch_format(dst, size, sec, nsec, want_ns);
}

size_t
xf_ls_date(char *dst, int64_t mtime, int64_t now)
{
	struct tm tm;
	const char *fmt;

	if (!xf_localtime(mtime, &tm))
		return (size_t)snprintf(dst, 64, "%12" PRId64, mtime);
	fmt = now - 6 * 30 * 24 * 60 * 60 <= mtime && mtime <= now + 60 * 60 ?
	      "%b %e %H:%M" : "%b %e  %Y";
	return format_tm(dst, 64, fmt, &tm);
}
