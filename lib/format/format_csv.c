// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The CSV formatter: RFC 4180 rows (comma-separated, CRLF-terminated)
 * under a header row of column names, in the column order of columns.h
 * (docs/formats.md).  No field can hold a comma, a double quote, CR or
 * LF, so none is quoted.  Numbers are converted by hand (digits.h).
 */
#include "columns.h"
#include "digits.h"

/* The header rows: the same lists expanded into their column names. */
#define HDR_U(n)	"," #n
#define HDR_T(n)	"," #n "," #n "_nsec," #n "_iso"
#define HDR_F(n, tab)	"," #n "," #n "_names"
#define HDR_M(n)	"," #n "," #n "_type"

const char xbulk_bulkstat_csv_header[] =
	"bs_ino" XBF_BULKSTAT_COLUMNS(HDR_U, HDR_T, HDR_F, HDR_M) "\r\n";
const char xbulk_inumbers_csv_header[] =
	"xi_startino" XBF_INUMBERS_COLUMNS(HDR_U) "\r\n";

#define CSV_U(n)							\
	*p++ = ',';							\
	p = put_dec(p, rec->n);

/* seconds,nsec,iso (the ISO field empty if nsec is out of range) */
#define CSV_T(n)							\
	*p++ = ',';							\
	p = put_sdec(p, rec->n);					\
	*p++ = ',';							\
	p = put_dec(p, rec->n##_nsec);					\
	*p++ = ',';							\
	if (xbf_nsec_valid(rec->n##_nsec))				\
		p = xbf_put_iso8601(p, rec->n, rec->n##_nsec);

/* number,names ("a|b", empty if none) */
#define CSV_F(n, tab)							\
	*p++ = ',';							\
	p = put_dec(p, rec->n);						\
	*p++ = ',';							\
	if (rec->n)							\
		p = xbf_put_flag_names(p, rec->n, &tab, false);

/* 0100644,regular */
#define CSV_M(n)							\
	p = PUT(p, ",0");						\
	p = put_oct(p, rec->n);						\
	*p++ = ',';							\
	p = xbf_put_mode_type(p, rec->n);

size_t
xbulk_format_bulkstat_csv(char *dst, const struct xfs_bulkstat *rec)
{
	char *p = dst;

	p = put_dec(p, rec->bs_ino);
	XBF_BULKSTAT_COLUMNS(CSV_U, CSV_T, CSV_F, CSV_M)
	p = PUT(p, "\r\n");
	return (size_t)(p - dst);
}

size_t
xbulk_format_inumbers_csv(char *dst, const struct xfs_inumbers *rec)
{
	char *p = dst;

	p = put_dec(p, rec->xi_startino);
	XBF_INUMBERS_COLUMNS(CSV_U)
	p = PUT(p, "\r\n");
	return (size_t)(p - dst);
}
