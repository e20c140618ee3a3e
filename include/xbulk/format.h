/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libxbulk: the record formatters: text (xfs_io), JSON Lines, CSV (lib/format/).
 * Part of <xbulk.h>: include that.
 */
#ifndef XBULK_FORMAT_H
#define XBULK_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xfs/xfs.h>

#pragma GCC visibility push(default)

/* ------------------------------------------------------------------ */
/* Text formatter, xfs_io 6.1 byte for byte (lib/format/format_text.c)        */
/* ------------------------------------------------------------------ */

/* Most bytes one bulkstat record can take as text (all fields at max). */
#define XBULK_BULKSTAT_TEXT_MAX	1024
/* Most bytes one inumbers record can take as text. */
#define XBULK_INUMBERS_TEXT_MAX	128

/**
 * xbulk_format_bulkstat_text() - xfs_io's dump_bulkstat() of one record
 * @dst: at least XBULK_BULKSTAT_TEXT_MAX bytes; not NUL-terminated
 *
 * Return: bytes written.
 */
size_t xbulk_format_bulkstat_text(char *dst, const struct xfs_bulkstat *bs);

/** xbulk_format_inumbers_text() - xfs_io's dump_inumbers() of one record */
size_t xbulk_format_inumbers_text(char *dst, const struct xfs_inumbers *xi);

/* ------------------------------------------------------------------ */
/* JSON Lines and CSV formatters (lib/format/format_jsonl.c, lib/format/format_csv.c) */
/* Schemas: docs/formats.md.  Same contract as the text formatter: the  */
/* caller's buffer holds at least the _MAX bytes; return bytes written. */
/* ------------------------------------------------------------------ */

#define XBULK_BULKSTAT_JSONL_MAX	4096
#define XBULK_INUMBERS_JSONL_MAX	512
#define XBULK_BULKSTAT_CSV_MAX		2048
#define XBULK_INUMBERS_CSV_MAX		256

/** xbulk_format_bulkstat_jsonl() - one JSON object and a newline */
size_t xbulk_format_bulkstat_jsonl(char *dst, const struct xfs_bulkstat *bs);
/** xbulk_format_inumbers_jsonl() - one JSON object and a newline */
size_t xbulk_format_inumbers_jsonl(char *dst, const struct xfs_inumbers *xi);
/** xbulk_format_bulkstat_csv() - one RFC 4180 row (CRLF-terminated) */
size_t xbulk_format_bulkstat_csv(char *dst, const struct xfs_bulkstat *bs);
/** xbulk_format_inumbers_csv() - one RFC 4180 row (CRLF-terminated) */
size_t xbulk_format_inumbers_csv(char *dst, const struct xfs_inumbers *xi);
/* The CSV header rows (with their CRLF), column names as in xfs_io. */
extern const char xbulk_bulkstat_csv_header[];
extern const char xbulk_inumbers_csv_header[];

#pragma GCC visibility pop

#endif /* XBULK_FORMAT_H */
