/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to libxbulk's base (prefix xbl_: CONTRIBUTING.md).
 *
 * Variable-width integers, for the snapshot file's records
 * (lib/snap/codec.c) and the names store's field stream
 * (lib/names/store.c): LEB128 (7 bits a byte, low first, at most
 * XBL_VAR_MAX bytes), signed values zigzag-coded first, as protobuf does.
 *
 * Self-contained, as lib/hash.h.
 */
#ifndef XBULK_VARINT_H
#define XBULK_VARINT_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

/* Most bytes of one varint (64 bits, 7 a byte). */
#define XBL_VAR_MAX	10

/* Write varint @v at @p; return the byte after it. */
static inline uint8_t *
xbl_put_var(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* Bytes of varint @v. */
static inline size_t
xbl_var_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* Signed to unsigned, small magnitudes small: 0, -1, 1, -2... as 0, 1,
 * 2, 3... */
static inline uint64_t
xbl_zig(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t
xbl_unzig(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* Read a varint at *@p, which may be damaged (a file's bytes): nothing
 * at or past @end is read.  0 and *@p past it, or -EBADMSG. */
static inline int
xbl_get_var(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	const uint8_t *q = *p;
	uint64_t r = 0;
	unsigned int shift = 0;

	while (q < end && shift < 64) {
		uint8_t b = *q++;

		r |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*p = q;
			*v = r;
			return 0;
		}
		shift += 7;
	}
	return -EBADMSG;
}

/* Read a varint at *@p that xbl_put_var() wrote in this process's own
 * memory (no bound to check), *@p moved past it. */
static inline uint64_t
xbl_read_var(const uint8_t **p)
{
	const uint8_t *q = *p;
	uint64_t r = *q & 0x7f;
	unsigned int shift = 7;

	while (*q++ & 0x80) {
		r |= (uint64_t)(*q & 0x7f) << shift;
		shift += 7;
	}
	*p = q;
	return r;
}

#endif /* XBULK_VARINT_H */
