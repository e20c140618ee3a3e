/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/format (prefix xbf_: CONTRIBUTING.md).
 *
 * Number to text by hand, for the record formatters (format_text.c,
 * format_jsonl.c, format_csv.c): no printf on the hot path.  Decimal goes
 * two digits at a time from a table of pairs.  Every helper appends to @p
 * and returns the new end; none NUL-terminates.
 */
#ifndef XBULK_DIGITS_H
#define XBULK_DIGITS_H

#include <stdint.h>
#include <string.h>

/* Most bytes put_dec() writes: 18446744073709551615. */
#define XBF_DEC_MAX	20
/* Most bytes put_sdec() writes: -9223372036854775808. */
#define XBF_SDEC_MAX	20

/* Append the string literal @s (its length is known at compile time). */
#define PUT(p, s)	(memcpy((p), (s), sizeof(s) - 1), (p) + sizeof(s) - 1)

/* "00" to "99", two characters each. */
static const char xbf_digit_pairs[201] __attribute__((unused)) =
	"0001020304050607080910111213141516171819"
	"2021222324252627282930313233343536373839"
	"4041424344454647484950515253545556575859"
	"6061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* The two decimal digits of @v (0..99) at @q. */
static inline void
put_pair(char *q, unsigned int v)
{
	memcpy(q, xbf_digit_pairs + 2 * v, 2);
}

/* 10^0 .. 10^19 */
static const uint64_t xbf_pow10[20] __attribute__((unused)) = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
	100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL,
	10000000000000000000ULL,
};

/*
 * Number of decimal digits of @v: log10 estimated from the bit length
 * (1233 / 4096 ~ log10(2)), corrected with one comparison.
 */
static inline unsigned int
dec_len(uint64_t v)
{
	unsigned int t = ((64 - (unsigned int)__builtin_clzll(v | 1)) * 1233)
			 >> 12;

	return t + ((v | 1) >= xbf_pow10[t]);
}

/* Write the last digits of @v at @q going down to @p, 32 bits at a time */
static inline void
put_dec_down(char *p, char *q, uint64_t v)
{
	uint32_t w;

	/* The few values past 32 bits (huge sizes, negative times) */
	while (v > UINT32_MAX) {
		q -= 2;
		put_pair(q, (unsigned int)(v % 100));
		v /= 100;
	}
	w = (uint32_t)v;
	while (q - p >= 2) {
		q -= 2;
		put_pair(q, w % 100);
		w /= 100;
	}
	if (q > p)
		*--q = (char)('0' + w);
}

/* Write @v as exactly @len decimal digits (leading zeros) at @p. */
static inline char *
put_dec_width(char *p, uint64_t v, unsigned int len)
{
	put_dec_down(p, p + len, v);
	return p + len;
}

/* Append @v in decimal (PRIu64). */
static inline char *
put_dec(char *p, uint64_t v)
{
	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	return put_dec_width(p, v, dec_len(v));
}

/* Append @v in decimal with a leading '-' if negative (PRId64). */
static inline char *
put_sdec(char *p, int64_t v)
{
	if (v >= 0)
		return put_dec(p, (uint64_t)v);
	*p++ = '-';
	/* -(INT64_MIN) overflows int64_t, not uint64_t. */
	return put_dec(p, 0 - (uint64_t)v);
}

/* Append @v in lower-case hex without leading zeros (PRIx64). */
static inline char *
put_hex(char *p, uint64_t v)
{
	static const char hex_digits[16] = "0123456789abcdef";
	unsigned int len = v ? (67 - (unsigned int)__builtin_clzll(v)) / 4 : 1;
	char *q = p + len;

	while (q - p >= 2) {
		q -= 2;
		q[0] = hex_digits[(v >> 4) & 15];
		q[1] = hex_digits[v & 15];
		v >>= 8;
	}
	if (q > p)
		*--q = hex_digits[v & 15];
	return p + len;
}

/* Append @v in octal without leading zeros (PRIo16). */
static inline char *
put_oct(char *p, uint32_t v)
{
	unsigned int len = v ? (34 - (unsigned int)__builtin_clz(v)) / 3 : 1;
	char *q = p + len;

	do {
		*--q = (char)('0' + (v & 7));
		v >>= 3;
	} while (v);
	return p + len;
}

#endif /* XBULK_DIGITS_H */
