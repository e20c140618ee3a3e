// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A growing buffer: capacity doubles, so n appends cost O(n) copies in
 * all; buffers only grow, so a loop that reuses one allocates nothing
 * once it is big enough.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "base.h"

int
xbl_grow_to(void **buf, size_t *cap, size_t need, size_t unit)
{
	size_t n = *cap ? *cap : (64 * 1024 + unit - 1) / unit;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2 / unit)
			return -ENOMEM;	/* n * unit would wrap */
		n *= 2;
	}
	p = realloc(*buf, n * unit);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = n;
	return 0;
}
