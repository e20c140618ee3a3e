// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The decoded columns shared by the JSON Lines and CSV formatters: flag
 * names, file type names and ISO 8601 times (computed by hand: gmtime_r()
 * per time of every record would be the slowest part of a record).
 */
#include <linux/fs.h>

#include "columns.h"
#include "digits.h"
#include "../uapi_compat.h"

#define BIT(mask)	__builtin_ctzll(mask)

const struct xbf_flag_names xbf_xflag_names = {
	.nbits = 64,
	.name = {
		[BIT(FS_XFLAG_REALTIME)] = "realtime",
		[BIT(FS_XFLAG_PREALLOC)] = "prealloc",
		[BIT(FS_XFLAG_IMMUTABLE)] = "immutable",
		[BIT(FS_XFLAG_APPEND)] = "append",
		[BIT(FS_XFLAG_SYNC)] = "sync",
		[BIT(FS_XFLAG_NOATIME)] = "noatime",
		[BIT(FS_XFLAG_NODUMP)] = "nodump",
		[BIT(FS_XFLAG_RTINHERIT)] = "rtinherit",
		[BIT(FS_XFLAG_PROJINHERIT)] = "projinherit",
		[BIT(FS_XFLAG_NOSYMLINKS)] = "nosymlinks",
		[BIT(FS_XFLAG_EXTSIZE)] = "extsize",
		[BIT(FS_XFLAG_EXTSZINHERIT)] = "extszinherit",
		[BIT(FS_XFLAG_NODEFRAG)] = "nodefrag",
		[BIT(FS_XFLAG_FILESTREAM)] = "filestream",
		[BIT(FS_XFLAG_DAX)] = "dax",
		[BIT(FS_XFLAG_COWEXTSIZE)] = "cowextsize",
		[BIT(FS_XFLAG_HASATTR)] = "hasattr",
	},
};

const struct xbf_flag_names xbf_sick_names = {
	.nbits = 16,
	.name = {
		[BIT(XFS_BS_SICK_INODE)] = "inode",
		[BIT(XFS_BS_SICK_BMBTD)] = "bmbtd",
		[BIT(XFS_BS_SICK_BMBTA)] = "bmbta",
		[BIT(XFS_BS_SICK_BMBTC)] = "bmbtc",
		[BIT(XFS_BS_SICK_DIR)] = "dir",
		[BIT(XFS_BS_SICK_XATTR)] = "xattr",
		[BIT(XFS_BS_SICK_SYMLINK)] = "symlink",
		[BIT(XFS_BS_SICK_PARENT)] = "parent",
		[BIT(XFS_BS_SICK_DIRTREE)] = "dirtree",
	},
};

static inline char *
put_str(char *p, const char *s)
{
	size_t len = strlen(s);

	memcpy(p, s, len);
	return p + len;
}

char *
xbf_put_flag_names(char *p, uint64_t v, const struct xbf_flag_names *tab,
		   bool json)
{
	uint64_t unknown = 0;
	bool first = true;

	if (json)
		*p++ = '[';
	while (v) {
		unsigned int bit = (unsigned int)__builtin_ctzll(v);
		const char *name = bit < tab->nbits ? tab->name[bit] : NULL;

		v &= v - 1;
		if (!name) {
			unknown |= 1ULL << bit;
			continue;
		}
		if (!first)
			*p++ = json ? ',' : '|';
		first = false;
		if (json)
			*p++ = '"';
		p = put_str(p, name);
		if (json)
			*p++ = '"';
	}
	if (unknown) {
		if (!first)
			*p++ = json ? ',' : '|';
		p = json ? PUT(p, "\"0x") : PUT(p, "0x");
		p = put_hex(p, unknown);
		if (json)
			*p++ = '"';
	}
	if (json)
		*p++ = ']';
	return p;
}

char *
xbf_put_mode_type(char *p, uint16_t mode)
{
	/* By S_IFMT >> 12, as <sys/stat.h> numbers them. */
	static const char *const types[16] = {
		[001] = "fifo",
		[002] = "chardev",
		[004] = "directory",
		[006] = "blockdev",
		[010] = "regular",
		[012] = "symlink",
		[014] = "socket",
	};
	const char *t = types[mode >> 12];

	return put_str(p, t ? t : "unknown");
}

char *
xbf_put_iso8601(char *p, int64_t sec, uint32_t nsec)
{
	int64_t days = sec / 86400, sod = sec % 86400, z, era, year;
	uint32_t doe, yoe, doy, mp, day, month, s;

	if (sod < 0) {
		sod += 86400;
		days--;
	}
	/*
	 * Days since 1970-01-01 to a proleptic Gregorian date (the
	 * algorithm of H. Hinnant's "chrono-Compatible Low-Level Date
	 * Algorithms"): eras of 400 years (146097 days) starting on March
	 * 1st, so that the leap day ends a year.  |days| < 1.1e14, so no
	 * step overflows.
	 */
	z = days + 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (uint32_t)(z - era * 146097);		/* [0, 146096] */
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);	/* [0, 365] */
	mp = (5 * doy + 2) / 153;			/* March = 0 */
	day = doy - (153 * mp + 2) / 5 + 1;
	month = mp < 10 ? mp + 3 : mp - 9;
	year = (int64_t)yoe + era * 400 + (month <= 2);

	if (year >= 0 && year <= 9999) {
		p = put_dec_width(p, (uint64_t)year, 4);
	} else {
		uint64_t y = year < 0 ? 0 - (uint64_t)year : (uint64_t)year;
		unsigned int len = dec_len(y);

		*p++ = year < 0 ? '-' : '+';
		p = put_dec_width(p, y, len < 4 ? 4 : len);
	}
	s = (uint32_t)sod;
	*p++ = '-';
	put_pair(p, month);
	p[2] = '-';
	put_pair(p + 3, day);
	p[5] = 'T';
	put_pair(p + 6, s / 3600);
	p[8] = ':';
	put_pair(p + 9, s / 60 % 60);
	p[11] = ':';
	put_pair(p + 12, s % 60);
	p[14] = '.';
	p = put_dec_width(p + 15, nsec, 9);
	*p++ = 'Z';
	return p;
}
