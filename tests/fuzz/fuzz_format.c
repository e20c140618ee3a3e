// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: every record formatter fed arbitrary record bytes (the
 * kernel's struct xfs_bulkstat and struct xfs_inumbers, any field any
 * value).  The formatters are taken from the command's tables
 * (cli/formats.c: xb_bulkstat_formats, xb_inumbers_formats), so a format
 * added there is fuzzed too.
 *
 * Each formatter writes into a heap buffer of exactly its _MAX bytes, so
 * AddressSanitizer stops a write past the bound; the returned length must
 * be within the bound and the text well formed:
 *   - text: printable ASCII, tabs and newlines, ending in a newline, and
 *     the same bytes as printf with xfs_io 6.1's format strings;
 *   - JSON Lines: one line, no control character, every string closed,
 *     braces and brackets balanced, one object;
 *   - CSV: printable ASCII ending in CRLF, no other CR or LF, as many
 *     columns as the header row;
 *   - any other format: no NUL byte.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* printf with xfs_io's format strings (io/bulkstat.c dump_bulkstat()). */
static int
ref_bulkstat_text(char *dst, size_t room, const struct xfs_bulkstat *bs)
{
	return snprintf(dst, room,
		"bs_ino = %" PRIu64 "\n"
		"\tbs_size = %" PRIu64 "\n"
		"\tbs_blocks = %" PRIu64 "\n"
		"\tbs_xflags = 0x%" PRIx64 "\n"
		"\tbs_atime = %" PRIu64 ".%" PRIu32 "\n"
		"\tbs_ctime = %" PRIu64 ".%" PRIu32 "\n"
		"\tbs_mtime = %" PRIu64 ".%" PRIu32 "\n"
		"\tbs_btime = %" PRIu64 ".%" PRIu32 "\n"
		"\tbs_gen = 0x%" PRIx32 "\n"
		"\tbs_uid = %" PRIu32 "\n"
		"\tbs_gid = %" PRIu32 "\n"
		"\tbs_projectid = %" PRIu32 "\n"
		"\tbs_blksize = %" PRIu32 "\n"
		"\tbs_rdev = %" PRIu32 "\n"
		"\tbs_cowextsize_blks = %" PRIu32 "\n"
		"\tbs_extsize_blks = %" PRIu32 "\n"
		"\tbs_nlink = %" PRIu32 "\n"
		"\tbs_extents = %" PRIu32 "\n"
		"\tbs_aextents = %" PRIu32 "\n"
		"\tbs_version = %" PRIu16 "\n"
		"\tbs_forkoff = %" PRIu16 "\n"
		"\tbs_sick = 0x%" PRIx16 "\n"
		"\tbs_checked = 0x%" PRIx16 "\n"
		"\tbs_mode = 0%" PRIo16 "\n"
		"\tbs_extents64 = %" PRIu64 "\n",
		(uint64_t)bs->bs_ino, (uint64_t)bs->bs_size,
		(uint64_t)bs->bs_blocks, (uint64_t)bs->bs_xflags,
		(uint64_t)bs->bs_atime, bs->bs_atime_nsec,
		(uint64_t)bs->bs_ctime, bs->bs_ctime_nsec,
		(uint64_t)bs->bs_mtime, bs->bs_mtime_nsec,
		(uint64_t)bs->bs_btime, bs->bs_btime_nsec,
		bs->bs_gen, bs->bs_uid, bs->bs_gid, bs->bs_projectid,
		bs->bs_blksize, bs->bs_rdev, bs->bs_cowextsize_blks,
		bs->bs_extsize_blks, bs->bs_nlink, bs->bs_extents,
		bs->bs_aextents, bs->bs_version, bs->bs_forkoff,
		bs->bs_sick, bs->bs_checked, bs->bs_mode,
		(uint64_t)bs->bs_extents64);
}

/* dump_inumbers() */
static int
ref_inumbers_text(char *dst, size_t room, const struct xfs_inumbers *xi)
{
	return snprintf(dst, room,
		"xi_startino = %" PRIu64 "\n"
		"\txi_allocmask = 0x%" PRIx64 "\n"
		"\txi_alloccount = %" PRIu32 "\n"
		"\txi_version = %" PRIu16 "\n",
		(uint64_t)xi->xi_startino, (uint64_t)xi->xi_allocmask,
		xi->xi_alloccount, xi->xi_version);
}

static void
check_text(const char *s, size_t len)
{
	size_t i;

	if (!len || s[len - 1] != '\n')
		abort();
	for (i = 0; i < len; i++)
		if ((s[i] < ' ' || s[i] > '~') && s[i] != '\n' && s[i] != '\t')
			abort();
}

/* One JSON object on one line: strings closed, nesting balanced. */
static void
check_jsonl(const char *s, size_t len)
{
	bool in_str = false;
	int depth = 0, objects = 0;
	size_t i;

	if (len < 3 || s[0] != '{' || s[len - 1] != '\n')
		abort();
	for (i = 0; i < len - 1; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f)
			abort();
		if (in_str) {
			if (c == '\\') {
				i++;
				if (i >= len - 1 ||
				    !strchr("\"\\/bfnrtu", s[i]))
					abort();
			} else if (c == '"') {
				in_str = false;
			}
			continue;
		}
		switch (c) {
		case '"':
			in_str = true;
			break;
		case '{':
		case '[':
			if (depth == 0)
				objects++;
			depth++;
			break;
		case '}':
		case ']':
			if (--depth < 0)
				abort();
			break;
		case ' ':
		case '\t':
			abort();	/* compact output: no white space */
		default:
			break;
		}
	}
	if (in_str || depth != 0 || objects != 1 || s[len - 2] != '}')
		abort();
}

/* Commas outside quotes: the number of columns less one. */
static size_t
csv_commas(const char *s)
{
	bool quoted = false;
	size_t n = 0;

	for (; *s; s++) {
		if (*s == '"')
			quoted = !quoted;
		else if (*s == ',' && !quoted)
			n++;
	}
	return n;
}

static void
check_csv(const char *s, size_t len, const char *header)
{
	size_t i;

	if (len < 2 || s[len - 2] != '\r' || s[len - 1] != '\n')
		abort();
	for (i = 0; i < len - 2; i++)
		if (s[i] < ' ' || s[i] > '~')
			abort();
	if (header && csv_commas(s) != csv_commas(header))
		abort();
}

/*
 * Format @rec with format @f of table @tab into exactly its bound of heap
 * bytes and check the result; returns the length.  @out gets a
 * NUL-terminated copy (the bound + 1 bytes).
 */
static size_t
run(const struct xb_formatter *tab, enum xb_format f, const void *rec,
    char *out)
{
	const struct xb_formatter *fmt = &tab[f];
	char *buf = malloc(fmt->max);
	size_t len;

	if (!buf || fmt->max > XBULK_BULKSTAT_JSONL_MAX)
		abort();
	len = fmt->format(buf, rec);
	if (len == 0 || len > fmt->max)
		abort();
	memcpy(out, buf, len);
	out[len] = '\0';
	free(buf);
	if (strlen(out) != len)
		abort();	/* a NUL byte in the output */
	switch (f) {
	case XB_FORMAT_TEXT:
		check_text(out, len);
		break;
	case XB_FORMAT_JSONL:
		check_jsonl(out, len);
		break;
	case XB_FORMAT_CSV:
		check_csv(out, len, fmt->header);
		break;
	default:
		break;
	}
	return len;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char out[XBULK_BULKSTAT_JSONL_MAX + 1];
	static char ref[XBULK_BULKSTAT_TEXT_MAX + 1];
	struct xfs_bulkstat bs;
	struct xfs_inumbers xi;
	enum xb_format f;
	size_t len;

	/* The record bytes, zero-padded; the inumbers record overlaps. */
	memset(&bs, 0, sizeof(bs));
	memcpy(&bs, data, size < sizeof(bs) ? size : sizeof(bs));
	memset(&xi, 0, sizeof(xi));
	memcpy(&xi, data, size < sizeof(xi) ? size : sizeof(xi));

	len = run(xb_bulkstat_formats, XB_FORMAT_TEXT, &bs, out);
	if ((size_t)ref_bulkstat_text(ref, sizeof(ref), &bs) != len ||
	    memcmp(ref, out, len))
		abort();
	len = run(xb_inumbers_formats, XB_FORMAT_TEXT, &xi, out);
	if ((size_t)ref_inumbers_text(ref, sizeof(ref), &xi) != len ||
	    memcmp(ref, out, len))
		abort();
	for (f = XB_FORMAT_TEXT + 1; f < XB_FORMAT_NR; f++) {
		run(xb_bulkstat_formats, f, &bs, out);
		run(xb_inumbers_formats, f, &xi, out);
	}
	return 0;
}
