// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Structs that callers allocate carry their own size first (the rule of
 * docs/design.md, "Versions and the soname"): copying them in and out by
 * the smaller of the two sizes lets a program built against an older or
 * newer header use this library, as clone3() and openat2() do with their
 * argument structs (copy_struct_from_user() in the kernel).
 */
#include <errno.h>
#include <string.h>

#include "base.h"

int
xbl_sized_in(void *dst, size_t dsize, const void *src, size_t min)
{
	size_t ssize = *(const size_t *)src;
	const unsigned char *extra = (const unsigned char *)src + dsize;
	size_t i;

	if (ssize < min)
		return -EINVAL;
	for (i = dsize; i < ssize; i++)
		if (extra[i - dsize])
			return -E2BIG;
	memset(dst, 0, dsize);
	memcpy(dst, src, ssize < dsize ? ssize : dsize);
	*(size_t *)dst = dsize;
	return 0;
}

int
xbl_sized_out(void *dst, const void *src, size_t ssize, size_t min)
{
	size_t dsize = *(const size_t *)dst;

	if (dsize < min)
		return -EINVAL;
	memcpy((char *)dst + sizeof(size_t), (const char *)src + sizeof(size_t),
	       (dsize < ssize ? dsize : ssize) - sizeof(size_t));
	return 0;
}
