// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * An upper bound of the size of the tree glibc's regcomp builds for a
 * pattern, before it builds it.  glibc copies what a repetition applies
 * to: "x+" is "xx*", "x{2,5}" five x's (regcomp.c, parse_dup_op()), so
 * stacked or nested repetitions multiply, and "a+++...+" with 30 '+'
 * asks for 2^30 copies: GNU find then takes all memory.  The bound reads
 * the pattern the same way whatever the -regextype: '(' and "\(" open a
 * group, ')' and "\)" close it, '+', "\+", '{m,n}' and "\{m,n\}" repeat
 * the atom or group before them; taking every one of them as an operator
 * only overestimates (a literal '+' in one syntax is counted as a copy).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "find.h"

#define NEST_MAX	64	/* deeper groups: too big (no bound kept) */

/* a * k + 1 nodes (the copies and the operator), at most cap + 1. */
static uint64_t
repeat(uint64_t a, uint64_t k, uint64_t cap)
{
	if (k && a > cap / k)
		return cap + 1;
	return a * k + 1 > cap ? cap + 1 : a * k + 1;
}

static uint64_t
add(uint64_t a, uint64_t b, uint64_t cap)
{
	return a + b > cap ? cap + 1 : a + b;
}

/* The decimal number at @p into *@v (0 if none; past RE_DUP_MAX, glibc
 * refuses it: 65535 will do); returns what follows it. */
static const char *
number(const char *p, uint64_t *v)
{
	for (*v = 0; *p >= '0' && *p <= '9'; p++) {
		*v = *v * 10 + (uint64_t)(*p - '0');
		if (*v > 65535)
			*v = 65535;
	}
	return p;
}

/* "{m,n}" (or "\{m,n\}") at @s: its length, and in *@k the copies it
 * makes at most (max(m, n) + 1); 0 if it is no interval. */
static size_t
interval(const char *s, uint64_t *k)
{
	const char *p = number(s + (*s == '\\') + 1, k);
	uint64_t n = 0;

	if (*p == ',')
		p = number(p + 1, &n);
	if (*p == '\\')
		p++;
	if (*p != '}')
		return 0;
	*k = (*k > n ? *k : n) + 1;
	return (size_t)(p + 1 - s);
}

/* A bracket expression at @s ('['): its length ([:alpha:], [=e=], [.c.]
 * inside, and a ']' first in the list, are part of it). */
static size_t
bracket(const char *s)
{
	const char *p = s + 1;

	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	for (; *p && *p != ']'; p++) {
		if (*p == '[' && (p[1] == ':' || p[1] == '=' || p[1] == '.')) {
			const char *end = strchr(p + 2, p[1]);

			while (end && end[1] != ']')
				end = strchr(end + 1, p[1]);
			if (!end)
				break;
			p = end + 1;
		}
	}
	return *p ? (size_t)(p + 1 - s) : (size_t)(p - s);
}

/* The group open at *@depth becomes the last element of the one around
 * it (its nodes and one for the group). */
static void
close_group(uint64_t *sum, uint64_t *last, unsigned int *depth,
	    uint64_t cap)
{
	uint64_t group = add(sum[*depth], last[*depth] + 1, cap);

	--*depth;
	sum[*depth] = add(sum[*depth], last[*depth], cap);
	last[*depth] = group;
}

uint64_t
xf_regex_size(const char *re, uint64_t cap)
{
	/* Per open group: nodes of its finished elements, and of its last
	 * element (which a repetition would copy). */
	uint64_t sum[NEST_MAX + 1] = { 0 }, last[NEST_MAX + 1] = { 0 };
	unsigned int depth = 0;
	const char *p = re;
	uint64_t k;
	size_t len;

	while (*p) {
		char c = *p == '\\' && p[1] ? p[1] : *p;
		bool esc = *p == '\\' && p[1];

		if (c == '{' && (len = interval(p, &k))) {
			last[depth] = repeat(last[depth], k, cap);
			p += len;
			continue;
		}
		p += esc ? 2 : 1;
		if (c == '+') {
			last[depth] = repeat(last[depth], 2, cap);
		} else if (c == '*' || c == '?') {
			last[depth] = repeat(last[depth], 1, cap);
		} else if (c == '(') {
			if (depth == NEST_MAX)
				return cap + 1;
			depth++;
			sum[depth] = last[depth] = 0;
		} else if (c == ')' && depth) {
			close_group(sum, last, &depth, cap);
		} else {
			if (!esc && c == '[')
				p += bracket(p - 1) - 1;
			sum[depth] = add(sum[depth], last[depth], cap);
			last[depth] = 1;
		}
	}
	while (depth)
		close_group(sum, last, &depth, cap);
	return add(sum[0], last[0], cap);
}
