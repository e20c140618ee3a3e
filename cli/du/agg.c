// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sums by attribute (du --by): a table of rows by key per directory or
 * per operand; tables merge, so that per-level and per-worker tables add
 * up to the same rows.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agg.h"

void
du_agg_init(struct du_agg *a, enum du_by by, enum xbulk_time time,
	       int64_t now, unsigned int blocklog)
{
	*a = (struct du_agg){
		.by = by, .time = time, .now = now, .blocklog = blocklog,
	};
	xbl_hash_init(&a->ext_index, sizeof(uint64_t));
}

void
du_agg_free(struct du_agg *a)
{
	size_t i;

	for (i = 0; i < a->next; i++)
		free(a->ext[i]);
	free(a->ext);
	xbl_hash_free(&a->ext_index);
	a->ext = NULL;
	a->next = 0;
	a->ext_cap = 0;
}

/* FNV-1a of @s (@len bytes), less its top bit: ext_id() adds to it. */
static uint64_t
hash_str(const char *s, size_t len)
{
	uint64_t h = 14695981039346656037ull;

	while (len--)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h >> 1;
}

/*
 * The id of suffix @s (@len bytes), added if new.  Its key in the index
 * is its hash, or the next free one after it if other suffixes have the
 * same hash: a lookup follows the same keys up to the first free one.
 */
static int
ext_id(struct du_agg *a, const char *s, size_t len, uint64_t *id)
{
	uint64_t key = hash_str(s, len), *v;
	bool fresh;
	char *e;

	for (; (v = xbl_hash_get(&a->ext_index, key)); key++) {
		e = a->ext[*v - 1];
		if (!strncmp(e, s, len) && !e[len]) {
			*id = *v;
			return 0;
		}
	}
	if (a->next == a->ext_cap) {
		size_t n = a->ext_cap ? 2 * a->ext_cap : 32;
		char **ext = realloc(a->ext, n * sizeof(*ext));

		if (!ext)
			return -ENOMEM;
		a->ext = ext;
		a->ext_cap = n;
	}
	e = strndup(s, len);
	v = e ? xbl_hash_add(&a->ext_index, key, &fresh) : NULL;
	if (!v) {
		free(e);
		return -ENOMEM;
	}
	a->ext[a->next++] = e;
	*v = *id = a->next;
	return 0;
}

static const int64_t age_limit[DU_AGE_CLASSES - 1] = {
	86400, 7 * 86400, 30 * 86400, 90 * 86400, 365 * 86400,
	3 * 365 * 86400,
};
static const char *const age_label[DU_AGE_CLASSES] = {
	"<1d", "<7d", "<30d", "<90d", "<1y", "<3y", "older",
};
unsigned int
du_age_class(int64_t now, int64_t t)
{
	unsigned int k;

	for (k = 0; k < DU_AGE_CLASSES - 1; k++)
		if (now - t < age_limit[k])
			break;
	return k;
}

static const char *const size_label[DU_SIZE_CLASSES] = {
	"<4K", "<16K", "<64K", "<256K", "<1M", "<4M", "<16M", "<64M",
	"<256M", "<1G", "<4G", "<16G", "<64G", "<256G", "<1T", "<4T",
	"<16T", "<64T", "<256T", "<1P", ">=1P",
};

/*
 * The suffix after the last dot of @e's name, in *@s; its length, 0 for
 * none (no dot, a leading or a trailing one).  The operand's name is its
 * last component, trailing slashes stripped (not a dot in a parent).
 */
static size_t
suffix_of(const struct xbulk_entry *e, const char **s)
{
	const char *p = e->path;
	size_t start = e->name_off, end, dot;

	if (e->depth) {
		end = start + strlen(p + start);
	} else {
		for (end = strlen(p); end > 1 && p[end - 1] == '/'; end--)
			;
		for (start = end; start && p[start - 1] != '/'; start--)
			;
	}
	for (dot = end; dot > start && p[dot - 1] != '.'; dot--)
		;
	if (dot <= start + 1 || dot == end)
		return 0;
	*s = p + dot;
	return end - dot;
}

int
du_agg_key(struct du_agg *a, const struct xbulk_entry *e,
	      uint64_t *key)
{
	const struct xfs_bulkstat *bs = e->bs;
	const char *dot;
	size_t len;
	uint64_t v;
	unsigned int k;

	switch (a->by) {
	case DU_BY_UID:
		*key = bs->bs_uid;
		return 0;
	case DU_BY_GID:
		*key = bs->bs_gid;
		return 0;
	case DU_BY_PROJID:
		*key = bs->bs_projectid;
		return 0;
	case DU_BY_TYPE:
		*key = (bs->bs_mode & S_IFMT) >> 12;
		return 0;
	case DU_BY_AGE:
		*key = du_age_class(a->now, xbulk_time_of(bs, a->time));
		return 0;
	case DU_BY_SIZE_CLASS:
		v = (int64_t)bs->bs_size < 0 ? 0 : bs->bs_size / 4096;
		for (k = 0; v && k < DU_SIZE_CLASSES - 1; k++)
			v >>= 2;
		*key = k;
		return 0;
	default:
		break;
	}
	len = suffix_of(e, &dot);
	if (!len) {
		*key = 0;
		return 0;
	}
	return ext_id(a, dot, len, key);
}

const char *
du_agg_label(const struct du_agg *a, uint64_t key)
{
	switch (a->by) {
	case DU_BY_TYPE:
		switch (key << 12) {
		case S_IFREG: return "file";
		case S_IFDIR: return "dir";
		case S_IFLNK: return "symlink";
		case S_IFIFO: return "fifo";
		case S_IFSOCK: return "socket";
		case S_IFCHR: return "char";
		case S_IFBLK: return "block";
		}
		return "other";
	case DU_BY_EXT:
		return key ? a->ext[key - 1] : "(none)";
	case DU_BY_AGE:
		return age_label[key];
	case DU_BY_SIZE_CLASS:
		return size_label[key];
	default:
		return NULL;
	}
}

/* The row of @key in @t, made if new; NULL without memory. */
static struct du_agg_row *
row_of(struct du_agg_table *t, uint64_t key)
{
	struct du_agg_row *r;
	bool fresh;

	if (!t->rows.size)	/* zeroed (agg.h) */
		xbl_hash_init(&t->rows, sizeof(*r));
	r = xbl_hash_add(&t->rows, key, &fresh);
	if (r)
		r->key = key;
	return r;
}

static int
add_row(struct du_agg_table *t, const struct du_agg_row *r)
{
	struct du_agg_row *d = row_of(t, r->key);

	if (!d)
		return -ENOMEM;
	d->count += r->count;
	d->disk += r->disk;
	d->apparent += r->apparent;
	return 0;
}

int
du_agg_add(struct du_agg_table *t, const struct du_agg *a,
	      uint64_t key, const struct xfs_bulkstat *bs)
{
	struct du_agg_row r = {
		.key = key,
		.count = 1,
		.disk = xbulk_du_bytes(bs, a->blocklog, false),
		.apparent = xbulk_du_bytes(bs, a->blocklog, true),
	};

	return add_row(t, &r);
}

int
du_agg_merge(struct du_agg_table *dst,
		const struct du_agg_table *src)
{
	const struct du_agg_row *r;
	size_t pos = 0;
	uint64_t key;
	int err;

	while ((r = xbl_hash_next(&src->rows, &pos, &key))) {
		err = add_row(dst, r);
		if (err)
			return err;
	}
	return 0;
}

void
du_agg_clear(struct du_agg_table *t)
{
	xbl_hash_clear(&t->rows);
}

void
du_agg_table_free(struct du_agg_table *t)
{
	xbl_hash_free(&t->rows);
	*t = (struct du_agg_table){ 0 };
}

static int
cmp_rows(const void *pa, const void *pb)
{
	const struct du_agg_row *a = pa, *b = pb;

	if (a->disk != b->disk)
		return a->disk < b->disk ? 1 : -1;
	if (a->apparent != b->apparent)
		return a->apparent < b->apparent ? 1 : -1;
	return (a->key > b->key) - (a->key < b->key);
}

struct du_agg_row *
du_agg_sorted(const struct du_agg_table *t)
{
	const struct du_agg_row *r;
	struct du_agg_row *out;
	size_t pos = 0, n = 0;
	uint64_t key;

	if (!t->rows.count) {
		errno = 0;
		return NULL;
	}
	out = malloc(t->rows.count * sizeof(*out));
	if (!out)
		return NULL;
	while ((r = xbl_hash_next(&t->rows, &pos, &key)))
		out[n++] = *r;
	qsort(out, n, sizeof(*out), cmp_rows);
	return out;
}
