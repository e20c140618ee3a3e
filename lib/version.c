// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The library's version, from the project version in meson.build.
 */
#include "xbulk.h"

const char *
xbulk_version(void)
{
	return XBULK_VERSION_STRING;
}
