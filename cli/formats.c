// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * -o text|jsonl|csv: the record formatters of libxbulk by kind and format.
 */
#include <string.h>

#include "cli.h"

/* The formatters, taking a record of either kind as const void *. */
#define FORMATTER(kind, fmt)						\
static size_t								\
kind##_##fmt(char *dst, const void *rec)				\
{									\
	return xbulk_format_##kind##_##fmt(dst, rec);			\
}

FORMATTER(bulkstat, text)
FORMATTER(bulkstat, jsonl)
FORMATTER(bulkstat, csv)
FORMATTER(inumbers, text)
FORMATTER(inumbers, jsonl)
FORMATTER(inumbers, csv)

const struct xb_formatter xb_bulkstat_formats[XB_FORMAT_NR] = {
	[XB_FORMAT_TEXT] = { bulkstat_text, XBULK_BULKSTAT_TEXT_MAX, NULL },
	[XB_FORMAT_JSONL] = { bulkstat_jsonl, XBULK_BULKSTAT_JSONL_MAX, NULL },
	[XB_FORMAT_CSV] = { bulkstat_csv, XBULK_BULKSTAT_CSV_MAX,
			    xbulk_bulkstat_csv_header },
};

const struct xb_formatter xb_inumbers_formats[XB_FORMAT_NR] = {
	[XB_FORMAT_TEXT] = { inumbers_text, XBULK_INUMBERS_TEXT_MAX, NULL },
	[XB_FORMAT_JSONL] = { inumbers_jsonl, XBULK_INUMBERS_JSONL_MAX, NULL },
	[XB_FORMAT_CSV] = { inumbers_csv, XBULK_INUMBERS_CSV_MAX,
			    xbulk_inumbers_csv_header },
};

enum xb_exit
xb_parse_format(const char *cmd, const char *arg, enum xb_format *fmt)
{
	static const char *const names[XB_FORMAT_NR] = {
		[XB_FORMAT_TEXT] = "text",
		[XB_FORMAT_JSONL] = "jsonl",
		[XB_FORMAT_CSV] = "csv",
	};
	int i;

	for (i = 0; i < XB_FORMAT_NR; i++) {
		if (!strcmp(arg, names[i])) {
			*fmt = (enum xb_format)i;
			return XB_EXIT_OK;
		}
	}
	return xb_usage_error(cmd, "-o: unknown format '%s' (text, jsonl or csv)",
			      arg);
}

int
xb_write_header(int fd, const struct xb_formatter *fmt)
{
	struct xbulk_out *out;
	size_t len = fmt->header ? strlen(fmt->header) : 0;
	int err;

	if (!len)
		return 0;
	err = xbulk_out_new(fd, len, &out);
	if (err)
		return err;
	memcpy(out->buf, fmt->header, len);
	out->len = len;
	err = xbulk_out_flush(out);
	xbulk_out_free(out);
	return err;
}
