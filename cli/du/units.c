// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * du's output units: -B/--block-size and the BLOCK_SIZE variables parsed
 * as gnulib's human_options() parses them, and sizes printed as its
 * human_readable() prints them with du's rounding (up), so that every
 * figure is du's to the byte.  Only the integer path of human_readable()
 * is needed: du always converts from 1-byte units.
 */
#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

/* Powers a suffix stands for: K=1, M=2, ... Y=8. */
static const char power_letter[] = "\0KMGTPEZY";

/* Multiply *v by @base^@power; false on overflow (*v is then garbage). */
static bool
scale(uint64_t *v, unsigned int base, unsigned int power)
{
	while (power--) {
		if (*v > UINT64_MAX / base)
			return false;
		*v *= base;
	}
	return true;
}

/* The power of a suffix letter as xstrtoumax() knows it, or -1. */
static int
suffix_power(char c)
{
	switch (c) {
	case 'k': case 'K': return 1;
	case 'm': case 'M': return 2;
	case 'g': case 'G': return 3;
	case 't': case 'T': return 4;
	case 'P': return 5;
	case 'E': return 6;
	case 'Z': return 7;
	case 'Y': return 8;
	}
	return -1;
}

/*
 * gnulib xstrtoumax(spec, &end, 0, v, "eEgGkKmMpPtTyYzZ0"): a number in C
 * syntax (0x hex, 0 octal) or none (then 1), then an optional suffix and
 * "B" (powers of 1000) or "iB" (1024).
 */
static int
parse_number(const char *spec, uint64_t *v, const char **end)
{
	const char *s = spec;
	char *p;
	int err = 0, power;
	unsigned int base = 1024;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '-')
		return -EINVAL;
	errno = 0;
	*v = strtoull(spec, &p, 0);
	if (p == spec) {
		if (!*p || !strchr("eEgGkKmMpPtTyYzZ", *p))
			return -EINVAL;
		*v = 1;
	} else if (errno == ERANGE) {
		err = -ERANGE;
	}
	*end = p;
	if (!*p)
		return err;
	power = suffix_power(*p);
	if (power < 0)
		return -EILSEQ;
	if (p[1] == 'i' && p[2] == 'B') {
		p += 2;
	} else if (p[1] == 'B' || p[1] == 'D') {
		base = 1000;
		p++;
	}
	p++;
	if (!scale(v, base, (unsigned int)power) && !err)
		err = -ERANGE;
	*end = p;
	if (*p)
		return -EILSEQ;
	return err;
}

/* argmatch(): @s is @word or an unambiguous abbreviation of it. */
static bool
abbrev_of(const char *s, const char *word)
{
	size_t n = strlen(s);

	return n && !strncmp(s, word, n);
}

int
du_units_parse(const char *spec, struct du_units *u)
{
	unsigned int opts = 0;
	const char *end, *s;
	uint64_t v;
	int err;

	if (*spec == '\'') {
		opts |= DU_HUMAN_GROUP;
		spec++;
	}
	/* "h" and "s" are each an abbreviation of one word only. */
	if (abbrev_of(spec, "human-readable")) {
		u->opts = opts | DU_HUMAN_AUTOSCALE | DU_HUMAN_SI |
			  DU_HUMAN_BASE_1024;
		u->block_size = 1;
		return 0;
	}
	if (abbrev_of(spec, "si")) {
		u->opts = opts | DU_HUMAN_AUTOSCALE | DU_HUMAN_SI;
		u->block_size = 1;
		return 0;
	}
	err = parse_number(spec, &v, &end);
	if (err)
		return err;
	if (!v)
		return -EINVAL;
	/* A unit without a number ("K", "MiB") is printed after figures. */
	for (s = spec; !isdigit((unsigned char)*s); s++) {
		if (s == end) {
			opts |= DU_HUMAN_SI;
			if (end[-1] == 'B')
				opts |= DU_HUMAN_B;
			if (end[-1] != 'B' || end[-2] == 'i')
				opts |= DU_HUMAN_BASE_1024;
			break;
		}
	}
	u->opts = opts;
	u->block_size = v;
	return 0;
}

void
du_units_default(struct du_units *u)
{
	const char *spec = getenv("DU_BLOCK_SIZE");

	if (!spec)
		spec = getenv("BLOCK_SIZE");
	if (!spec)
		spec = getenv("BLOCKSIZE");
	if (spec && !du_units_parse(spec, u))
		return;
	u->opts = 0;
	u->block_size = getenv("POSIXLY_CORRECT") ? 512 : 1024;
}

/* Digits of @v before @p (which moves back); the new start. */
static char *
put_digits(char *p, uint64_t v)
{
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	return p;
}

/* Thousands separators of the current locale into the integer part. */
static char *
group(char *p, char *lim)
{
	const struct lconv *l = localeconv();
	const char *grouping = l->grouping, *sep = l->thousands_sep;
	size_t seplen = strlen(sep), n = (size_t)(lim - p), glen = SIZE_MAX;
	char digits[32];
	char *d = lim;

	if (!seplen || !*grouping || n > sizeof(digits))
		return p;
	memcpy(digits, p, n);
	for (;;) {
		unsigned char g = (unsigned char)*grouping;

		if (g) {
			glen = g < 127 ? g : n;
			grouping++;
		}
		if (n < glen)
			glen = n;
		d -= glen;
		n -= glen;
		memcpy(d, digits + n, glen);
		if (!n)
			return d;
		d -= seplen;
		memcpy(d, sep, seplen);
	}
}

size_t
du_units_format(char *dst, uint64_t n, const struct du_units *u)
{
	char buf[DU_UNITS_MAX + 16];
	/* digits grow down from @end, the unit grows up */
	char *end = buf + sizeof(buf) - 8, *p = end, *lim;
	const char *point = localeconv()->decimal_point;
	size_t pointlen = strlen(point), len;
	unsigned int base = u->opts & DU_HUMAN_BASE_1024 ? 1024 : 1000;
	unsigned int tenths = 0, rounding = 0;
	int exponent = -1;
	uint64_t amt = n;

	if (!pointlen || pointlen > 4) {
		point = ".";
		pointlen = 1;
	}
	/* Whole units of block_size, with the remainder's tenths and how
	 * it compares with half a tenth (0 none, 1 less, 2 half, 3 more). */
	if (u->block_size > 1) {
		uint64_t d = u->block_size, r10 = (n % d) * 10;
		uint64_t r2 = (r10 % d) * 2;

		amt = n / d;
		tenths = (unsigned int)(r10 / d);
		rounding = r2 < d ? 0 < r2 : 2 + (d < r2);
	}
	if (u->opts & DU_HUMAN_AUTOSCALE) {
		exponent = 0;
		if (base <= amt) {
			do {
				unsigned int r10 =
					(unsigned int)(amt % base) * 10 + tenths;
				unsigned int r2 =
					(r10 % base) * 2 + (rounding >> 1);

				amt /= base;
				tenths = r10 / base;
				rounding = r2 < base ? (r2 + rounding) != 0
						     : 2 + (base < r2 + rounding);
				exponent++;
			} while (base <= amt && exponent < 8);
			if (amt < 10) {
				/* Round up to the next tenth. */
				if (rounding) {
					tenths++;
					rounding = 0;
					if (tenths == 10) {
						amt++;
						tenths = 0;
					}
				}
				if (amt < 10) {
					*--p = (char)('0' + tenths);
					p -= pointlen;
					memcpy(p, point, pointlen);
					tenths = rounding = 0;
				}
			}
		}
	}
	if (tenths + rounding) {
		amt++;
		if ((u->opts & DU_HUMAN_AUTOSCALE) && amt == base &&
		    exponent < 8) {
			exponent++;
			*--p = '0';
			p -= pointlen;
			memcpy(p, point, pointlen);
			amt = 1;
		}
	}
	lim = p;
	p = put_digits(p, amt);
	if (u->opts & DU_HUMAN_GROUP)
		p = group(p, lim);
	if (u->opts & DU_HUMAN_SI) {
		if (exponent < 0) {
			uint64_t power = 1;

			for (exponent = 0; power < u->block_size;
			     power *= base)
				if (++exponent == 8)
					break;
		}
		if (exponent)
			*end++ = !(u->opts & DU_HUMAN_BASE_1024) &&
					 exponent == 1
				 ? 'k'
				 : power_letter[exponent];
		if (u->opts & DU_HUMAN_B) {
			if ((u->opts & DU_HUMAN_BASE_1024) && exponent)
				*end++ = 'i';
			*end++ = 'B';
		}
	}
	len = (size_t)(end - p);
	memcpy(dst, p, len);
	dst[len] = '\0';
	return len;
}
