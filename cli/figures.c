// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Figures with their units, for every --stats report: bulkstat's and
 * inumbers' (cli/report.c) and the run report of the commands that join
 * names to inodes (cli/memory.c); and for every --progress line.  Text for people, a unit on every
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
xb_fig_si(char *buf, size_t size, double v)
{
	static const char prefix[] = " kMGTP";
	int i = 0;

	if (v < 0)
		return "n/a";
	while (v >= 999.95 && i < 5) {
		v /= 1000;
		i++;
	}
	if (!i)
		snprintf(buf, size, "%.0f", v);
	else
		snprintf(buf, size, v < 9.995 ? "%.2f%c" : "%.1f%c", v,
			 prefix[i]);
	return buf;
}

const char *
xb_fig_progress(char *buf, size_t size, uint64_t done, uint64_t total,
		const char *unit, uint64_t elapsed_ns)
{
	double rate = elapsed_ns ? (double)done / ((double)elapsed_ns / 1e9)
				 : 0;
	char b[3][32];

	if (!total) {
		snprintf(buf, size, "%s %s, %s %s/s",
			 xb_fig_si(b[0], sizeof(b[0]), (double)done), unit,
			 xb_fig_si(b[2], sizeof(b[2]), rate), unit);
	} else {
		/* a total counted beforehand may be off: never 100% */
		double frac = done >= total ? 0.999 : (double)done / total;
		uint64_t eta = rate > 0 && done < total ?
			       (uint64_t)((double)(total - done) / rate) : 0;

		int n = snprintf(buf, size, "%5.1f%% %s/%s %s, %s %s/s, ETA ",
				 100 * frac,
				 xb_fig_si(b[0], sizeof(b[0]), (double)done),
				 xb_fig_si(b[1], sizeof(b[1]), (double)total),
				 unit, xb_fig_si(b[2], sizeof(b[2]), rate),
				 unit);

		if (n < 0 || (size_t)n >= size)
			return buf;
		/* no rate yet to tell the time left by */
		if (rate <= 0)
			snprintf(buf + n, size - (size_t)n, "-:--:--");
		else
			snprintf(buf + n, size - (size_t)n, "%u:%02u:%02u",
				 (unsigned int)(eta / 3600),
				 (unsigned int)(eta / 60 % 60),
				 (unsigned int)(eta % 60));
	}
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
