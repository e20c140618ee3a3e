// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Times as GNU find reads and writes them: -newermt's DATE (the numeric
 * forms of parse_datetime(): ISO 8601 dates and times, a time alone for
 * today, YYYYMMDD, numeric zones and UTC, and @EPOCH; other `date -d`
 * phrases are refused), -printf's
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
#include <strings.h>

#include "facts.h"
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

/* 1 to @max digits at *@p as a number (*@n of them); false if there
 * are none or more. */
static bool
number(const char **p, int max, int *v, int *n)
{
	for (*v = 0, *n = 0; *n < max && isdigit((unsigned char)**p); (*n)++)
		*v = 10 * *v + (*(*p)++ - '0');
	return *n && !isdigit((unsigned char)**p);
}

static const char *
skip_space(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/* "@SECONDS[.FRACTION]" (spaces and a '+' may come first) */
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
	if (*skip_space(end))
		return -EINVAL;
	ts->tv_sec = sec;
	ts->tv_nsec = nsec;
	if (strchr(s, '-') && nsec) {	/* -1.5 is 1.5 s before 0 */
		ts->tv_sec--;
		ts->tv_nsec = 1000000000 - nsec;
	}
	return 0;
}

/*
 * A zone as parse_datetime() reads one: "Z", "UTC", "UT", "GMT" (any
 * case), or after a time "+H", "+HH", "+HHMM", "+H:MM", "+HH:MM" (or
 * '-'), at most 24 hours; *@off in seconds east.
 */
static bool
parse_zone(const char **pp, bool after_time, long *off)
{
	static const char *const names[] = { "utc", "ut", "gmt", "z" };
	const char *p = *pp;
	int v, n, m = 0, k, sign;
	size_t i, len;

	*off = 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		len = strlen(names[i]);
		if (!strncasecmp(p, names[i], len) &&
		    !isalpha((unsigned char)p[len])) {
			*pp = p + len;
			return true;
		}
	}
	if ((*p != '+' && *p != '-') || !after_time)
		return false;
	sign = *p++ == '-' ? -1 : 1;
	if (!number(&p, 4, &v, &n))
		return false;
	if (*p == ':') {
		p++;
		if (n > 2 || !number(&p, 2, &m, &k) || k != 2)
			return false;
	} else if (n > 2) {
		m = v % 100;
		v /= 100;
	}
	if (v * 60 + m > 24 * 60)
		return false;
	*off = sign * (v * 3600L + m * 60L);
	*pp = p;
	return true;
}

/* [YYYY]Y-M[M]-D[D] (a two-digit year is 1969-2068) or YYYYMMDD. */
static bool
parse_ymd(const char **pp, int *y, int *mo, int *d)
{
	const char *p = *pp;
	int n, k;

	if (number(&p, 8, y, &n) && n == 8 &&
	    (!*p || isspace((unsigned char)*p))) {
		*d = *y % 100;
		*mo = *y / 100 % 100;
		*y /= 10000;
	} else {
		p = *pp;
		if (!number(&p, 6, y, &n) || *p++ != '-' ||
		    !number(&p, 2, mo, &k) || *p++ != '-' ||
		    !number(&p, 2, d, &k))
			return false;
		if (n == 2)
			*y += *y < 69 ? 2000 : 1900;
	}
	*pp = p;
	return true;
}

/* H[H]:M[M][:S[S][.FRACTION]] */
static bool
parse_hms(const char **pp, int *h, int *mi, int *sec, long *nsec)
{
	const char *p = *pp;
	long scale = 100000000;
	int n;

	if (!number(&p, 2, h, &n) || *p++ != ':' || !number(&p, 2, mi, &n))
		return false;
	if (*p == ':') {
		p++;
		if (!number(&p, 2, sec, &n))
			return false;
		if (*p == '.' || *p == ',') {
			if (!isdigit((unsigned char)*++p))
				return false;
			for (; isdigit((unsigned char)*p); p++) {
				*nsec += (*p - '0') * scale;
				scale /= 10;
			}
		}
	}
	*pp = p;
	return true;
}

int
xf_parse_date(const char *s, const struct timespec *now, struct timespec *ts)
{
	const char *p = skip_space(s);
	struct tm tm = { 0 };
	int y, mo, d, h = 0, mi = 0, sec = 0;
	bool date, time = false, zone = false;
	long nsec = 0, off = 0;
	time_t t;

	if (*p == '@')
		return parse_epoch(skip_space(p + 1), ts);
	date = parse_ymd(&p, &y, &mo, &d);
	if (date && (*p == 'T' || *p == 't')) {
		p++;
		if (!parse_hms(&p, &h, &mi, &sec, &nsec))
			return -EINVAL;
		time = true;
	}
	p = skip_space(p);
	if (!time && isdigit((unsigned char)*p)) {
		if (!parse_hms(&p, &h, &mi, &sec, &nsec))
			return -EINVAL;
		time = true;
	}
	p = skip_space(p);
	if (*p && (date || time)) {
		if (!parse_zone(&p, time, &off))
			return -EINVAL;
		zone = true;
	}
	if (*skip_space(p) || (!date && !time))
		return -EINVAL;
	if (!date) {			/* a time alone: today's */
		if (!xf_localtime(now->tv_sec, &tm))
			return -EINVAL;
		y = tm.tm_year + 1900;
		mo = tm.tm_mon + 1;
		d = tm.tm_mday;
	}
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 ||
	    sec > 59)
		return -EINVAL;
	tm = (struct tm){ .tm_year = y - 1900, .tm_mon = mo - 1, .tm_mday = d,
			  .tm_hour = h, .tm_min = mi, .tm_sec = sec,
			  .tm_isdst = -1 };
	t = zone ? timegm(&tm) - off : mktime(&tm);
	if (tm.tm_mday != d)		/* Feb 30th */
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
