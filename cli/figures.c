// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Figures with their units, for every --stats report: bulkstat's and
 * inumbers' (cli/report.c) and the run report of the commands that join
 * names to inodes (cli/memory.c).  Text for people, a unit on every
 * figure; JSON for scripts, the figures unscaled, an unknown one null.
 */
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"

const char *
xb_fig_dur(char *buf, size_t size, double s)
{
	if (s < 0)
		return "n/a";
	if (s < 0.001)
		snprintf(buf, size, "%.0f us", s * 1e6);
	else if (s < 1)
		snprintf(buf, size, "%.3f ms", s * 1e3);
	else
		snprintf(buf, size, "%.3f s", s);
	return buf;
}

const char *
xb_fig_iec(char *buf, size_t size, double v)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int i = 0;

	if (v < 0)
		return "n/a";
	while (v >= 1024 && i < 4) {
		v /= 1024;
		i++;
	}
	snprintf(buf, size, i ? "%.1f %s" : "%.0f %s", v, unit[i]);
	return buf;
}

/* Escapes as ncdu 1.x writes them (src/dir_export.c), so that du --ncdu
 * writes names byte for byte as ncdu -o does: JSON's short ones where
 * there is one, \u00XX for other control bytes and DEL, every other
 * byte as it is, UTF-8 or not. */
void
xb_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char e = 0;

		switch (c) {
		case '\b': e = 'b'; break;
		case '\f': e = 'f'; break;
		case '\n': e = 'n'; break;
		case '\r': e = 'r'; break;
		case '\t': e = 't'; break;
		case '"': case '\\': e = (char)c; break;
		}
		if (e)
			fprintf(f, "\\%c", e);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void
xb_json_u64(FILE *f, const char *key, uint64_t v, const char *sep)
{
	if (xbulk_stat_ok(v))
		fprintf(f, "\"%s\": %" PRIu64 "%s", key, v, sep);
	else
		fprintf(f, "\"%s\": null%s", key, sep);
}

void
xb_json_num(FILE *f, const char *key, double v, const char *sep)
{
	if (v >= 0)
		fprintf(f, "\"%s\": %.6g%s", key, v, sep);
	else
		fprintf(f, "\"%s\": null%s", key, sep);
}
