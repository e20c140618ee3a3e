/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to the du command (prefix du_: CONTRIBUTING.md).
 *
 * xbulk du's output units: -B, -h, --si, -k, -m (cli/du/units.c).
 */
#ifndef DU_UNITS_H
#define DU_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Options of a unit: gnulib human.h's bits, same meanings and values. */
enum {
	DU_HUMAN_GROUP	= 4,	/* thousands separators (locale) */
	DU_HUMAN_AUTOSCALE	= 16,	/* pick the power (-h, --si) */
	DU_HUMAN_BASE_1024	= 32,	/* powers of 1024, not 1000 */
	DU_HUMAN_SI		= 128,	/* append the power's letter */
	DU_HUMAN_B		= 256,	/* ... and "B" or "iB" */
};

/* How du prints a size: in units of @block_size bytes, rounded up. */
struct du_units {
	uint64_t	block_size;	/* bytes; 1 with AUTOSCALE */
	unsigned int	opts;		/* DU_HUMAN_* */
};

/* Most bytes du_units_format() writes, its NUL included. */
#define DU_UNITS_MAX		128

/**
 * du_units_parse() - parse a -B/--block-size argument as GNU du
 * @spec: "human-readable", "si" or an abbreviation; or an optional number
 *        (C syntax: 0x hex, 0 octal) and a unit K M G T P E Z Y (powers
 *        of 1024; "KB" powers of 1000, "KiB" 1024), a unit without a
 *        number also printed after each figure ("K" prints "4K"); a
 *        leading "'" groups thousands as the locale does.
 * Return: 0; -EINVAL (not a size, or 0); -EILSEQ (bad unit); -ERANGE
 * (more than 2^64-1 bytes).
 */
int du_units_parse(const char *spec, struct du_units *u);

/**
 * du_units_default() - du's units before options: DU_BLOCK_SIZE, else
 * BLOCK_SIZE, else BLOCKSIZE from the environment (an invalid one counts
 * as none), else 1024 bytes (512 with POSIXLY_CORRECT).
 */
void du_units_default(struct du_units *u);

/**
 * du_units_format() - @n bytes as du prints them in @u (gnulib
 * human_readable() with human_ceiling: rounded up, "1.1K" style when
 * autoscaling, the locale's decimal point)
 * @dst: at least DU_UNITS_MAX bytes; NUL-terminated
 * Return: the length written.
 */
size_t du_units_format(char *dst, uint64_t n, const struct du_units *u);

#endif /* DU_UNITS_H */
