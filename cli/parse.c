// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Numbers on the command line: plain decimal only, every byte checked.
 * (xfs_io's cvt_u64 accepts "12x" as an error of "Numerical result out of
 * range"; we say what is wrong instead.)
 */
#include <errno.h>

#include "cli.h"

int
xb_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	bool range = false;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (d > 9)
			return -EINVAL;
		if (v > (UINT64_MAX - d) / 10)
			range = true;
		else
			v = v * 10 + d;
	}
	if (range || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}
