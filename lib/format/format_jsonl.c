// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The JSON Lines formatter: one JSON object per record, one record per
 * line, keys in the column order of columns.h (docs/formats.md).  Keys
 * and punctuation are compile-time constant strings; numbers are
 * converted by hand (digits.h), as in the text formatter.
 */
#include "columns.h"
#include "digits.h"

/* ,"name":<number> */
#define JSON_U(n)							\
	p = PUT(p, ",\"" #n "\":");					\
	p = put_dec(p, rec->n);

/* ,"name":<seconds>,"name_nsec":<ns>,"name_iso":"..." (or null) */
#define JSON_T(n)							\
	p = PUT(p, ",\"" #n "\":");					\
	p = put_sdec(p, rec->n);					\
	p = PUT(p, ",\"" #n "_nsec\":");				\
	p = put_dec(p, rec->n##_nsec);					\
	p = PUT(p, ",\"" #n "_iso\":");					\
	if (xbf_nsec_valid(rec->n##_nsec)) {				\
		*p++ = '"';						\
		p = xbf_put_iso8601(p, rec->n, rec->n##_nsec);	\
		*p++ = '"';						\
	} else {							\
		p = PUT(p, "null");					\
	}

/* ,"name":<number>,"name_names":["a","b"] */
#define JSON_F(n, tab)							\
	p = PUT(p, ",\"" #n "\":");					\
	p = put_dec(p, rec->n);						\
	p = PUT(p, ",\"" #n "_names\":");				\
	if (rec->n)							\
		p = xbf_put_flag_names(p, rec->n, &tab, true);	\
	else								\
		p = PUT(p, "[]");

/* ,"name":"0100644","name_type":"regular" */
#define JSON_M(n)							\
	p = PUT(p, ",\"" #n "\":\"0");					\
	p = put_oct(p, rec->n);						\
	p = PUT(p, "\",\"" #n "_type\":\"");				\
	p = xbf_put_mode_type(p, rec->n);				\
	*p++ = '"';

size_t
xbulk_format_bulkstat_jsonl(char *dst, const struct xfs_bulkstat *rec)
{
	char *p = dst;

	p = PUT(p, "{\"bs_ino\":");
	p = put_dec(p, rec->bs_ino);
	XBF_BULKSTAT_COLUMNS(JSON_U, JSON_T, JSON_F, JSON_M)
	p = PUT(p, "}\n");
	return (size_t)(p - dst);
}

size_t
xbulk_format_inumbers_jsonl(char *dst, const struct xfs_inumbers *rec)
{
	char *p = dst;

	p = PUT(p, "{\"xi_startino\":");
	p = put_dec(p, rec->xi_startino);
	XBF_INUMBERS_COLUMNS(JSON_U)
	p = PUT(p, "}\n");
	return (size_t)(p - dst);
}
