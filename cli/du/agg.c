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

static size_t
hash64(uint64_t v)
{
	return (size_t)((v * 0x9e3779b97f4a7c15ull) >> 29);
}

void
du_agg_init(struct du_agg *a, enum du_by by, enum xbulk_time time,
	       int64_t now, unsigned int blocklog)
{
	*a = (struct du_agg){
		.by = by, .time = time, .now = now, .blocklog = blocklog,
	};
}

void
du_agg_free(struct du_agg *a)
{
	size_t i;

	for (i = 0; i < a->next; i++)
		free(a->ext[i]);
	free(a->ext);
	free(a->ext_index);
	a->ext = NULL;
	a->ext_index = NULL;
	a->next = 0;
}

static size_t
hash_str(const char *s, size_t len)
{
	uint64_t h = 14695981039346656037ull;	/* FNV-1a */

	while (len--)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return hash64(h);
}

/* Make room for one more suffix: grow the index at half full. */
static int
ext_grow(struct du_agg *a)
{
	size_t n = a->ext_index ? (a->ext_mask + 1) * 2 : 64, i;
	uint32_t *idx;
	char **ext;

	if (a->ext_index && (a->next + 1) * 2 <= a->ext_mask + 1)
		return 0;
	ext = realloc(a->ext, n / 2 * sizeof(*ext));
	if (!ext)
		return -ENOMEM;
	a->ext = ext;
	idx = calloc(n, sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	for (i = 0; i < a->next; i++) {
		size_t j = hash_str(ext[i], strlen(ext[i])) & (n - 1);

		while (idx[j])
			j = (j + 1) & (n - 1);
		idx[j] = (uint32_t)(i + 1);
	}
	free(a->ext_index);
	a->ext_index = idx;
	a->ext_mask = n - 1;
	return 0;
}

/* The id of suffix @s (@len bytes), added if new. */
static int
ext_id(struct du_agg *a, const char *s, size_t len, uint64_t *id)
{
	size_t j;
	int err = ext_grow(a);

	if (err)
		return err;
	for (j = hash_str(s, len) & a->ext_mask; a->ext_index[j];
	     j = (j + 1) & a->ext_mask) {
		const char *e = a->ext[a->ext_index[j] - 1];

		if (!strncmp(e, s, len) && !e[len]) {
			*id = a->ext_index[j];
			return 0;
		}
	}
	a->ext[a->next] = strndup(s, len);
	if (!a->ext[a->next])
		return -ENOMEM;
	a->ext_index[j] = (uint32_t)++a->next;
	*id = a->next;
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

/* The row of @key in @t, made if new. */
static struct du_agg_row *
row_of(struct du_agg_table *t, uint64_t key)
{
	size_t j;

	if (!t->rows || (t->count + 1) * 2 > t->mask + 1) {
		size_t n = t->rows ? (t->mask + 1) * 2 : 16, i;
		struct du_agg_table g = { .mask = n - 1 };

		g.rows = calloc(n, sizeof(*g.rows));
		if (!g.rows)
			return NULL;
		for (i = 0; t->rows && i <= t->mask; i++) {
			if (!t->rows[i].count)
				continue;
			for (j = hash64(t->rows[i].key) & g.mask;
			     g.rows[j].count; j = (j + 1) & g.mask)
				;
			g.rows[j] = t->rows[i];
		}
		g.count = t->count;
		free(t->rows);
		*t = g;
	}
	for (j = hash64(key) & t->mask; t->rows[j].count;
	     j = (j + 1) & t->mask)
		if (t->rows[j].key == key)
			return &t->rows[j];
	t->rows[j].key = key;
	t->count++;
	return &t->rows[j];
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
	size_t i;
	int err;

	for (i = 0; src->rows && i <= src->mask; i++) {
		if (!src->rows[i].count)
			continue;
		err = add_row(dst, &src->rows[i]);
		if (err)
			return err;
	}
	return 0;
}

void
du_agg_clear(struct du_agg_table *t)
{
	if (t->rows && t->count)
		memset(t->rows, 0, (t->mask + 1) * sizeof(*t->rows));
	t->count = 0;
}

void
du_agg_table_free(struct du_agg_table *t)
{
	free(t->rows);
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
	struct du_agg_row *out;
	size_t i, n = 0;

	if (!t->count) {
		errno = 0;
		return NULL;
	}
	out = malloc(t->count * sizeof(*out));
	if (!out)
		return NULL;
	for (i = 0; i <= t->mask; i++)
		if (t->rows[i].count)
			out[n++] = t->rows[i];
	qsort(out, n, sizeof(*out), cmp_rows);
	return out;
}
