// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What xbulk du prints: du's lines (SIZE, a tab, the path), the rows of
 * --by tables and the inodes of --unreachable, as text, JSON Lines or
 * CSV.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "du.h"

static const char *const by_name[DU_BY_NR] = {
	"uid", "gid", "projid", "type", "ext", "age", "size-class",
};

bool
du_csv_field(FILE *f, const char *s)
{
	return strpbrk(s, ",\"\r\n") ? xb_csv_quoted(f, s) :
					xb_put_text(f, s, XB_QUOTE_CSV);
}

static void
size_text(struct du_run *r, uint64_t n, bool count, char *buf)
{
	struct du_units u = r->units;

	/* du --inodes: the count in units of 1, in du's style (-h too). */
	if (count)
		u.block_size = 1;
	du_units_format(buf, n, &u);
}

void
du_print_header(struct du_run *r)
{
	if (r->format != XB_FORMAT_CSV)
		return;
	if (r->by_given)
		fputs("path,by,key,name,inodes,disk_bytes,apparent_bytes,"
		      "path_b64\r\n", r->out);
	else if (r->unreachable)
		fputs("ino,type,uid,gid,nlink,disk_bytes,apparent_bytes\r\n",
		      r->out);
	else
		fputs("path,bytes,inodes,path_b64\r\n", r->out);
}

void
du_print_line(struct du_run *r, const char *path,
	      const struct xbulk_du_sum *s)
{
	char size[DU_UNITS_MAX];
	bool lossy;

	switch (r->format) {
	case XB_FORMAT_JSONL:
		fputc('{', r->out);
		xb_json_string(r->out, "path", path);
		fprintf(r->out, ",\"bytes\":%llu,\"inodes\":%llu}\n",
			(unsigned long long)s->bytes,
			(unsigned long long)s->inodes);
		return;
	case XB_FORMAT_CSV:
		lossy = du_csv_field(r->out, path);
		fprintf(r->out, ",%llu,%llu", (unsigned long long)s->bytes,
			(unsigned long long)s->inodes);
		xb_csv_b64(r->out, path, lossy);
		fputs("\r\n", r->out);
		return;
	default:
		size_text(r, r->inodes ? s->inodes : s->bytes, r->inodes,
			  size);
		fprintf(r->out, "%s\t%s%c", size, path, r->nul ? '\0' : '\n');
		return;
	}
}

const char *
du_key_name(const struct du_run *r, enum du_by by, uint64_t key)
{
	switch (by) {
	case DU_BY_UID:
		return xbulk_ids_user(r->ids, (uint32_t)key);
	case DU_BY_GID:
		return xbulk_ids_group(r->ids, (uint32_t)key);
	case DU_BY_PROJID:
		return xbulk_ids_project(r->ids, (uint32_t)key);
	default:
		return du_agg_label(&r->agg, key);
	}
}

static void
print_row(struct du_run *r, const char *path, const struct du_agg_row *w)
{
	const char *name = du_key_name(r, r->by, w->key);
	bool numeric = r->by <= DU_BY_PROJID;
	char disk[DU_UNITS_MAX], app[DU_UNITS_MAX], num[24];
	bool lossy;

	snprintf(num, sizeof(num), "%llu", (unsigned long long)w->key);
	switch (r->format) {
	case XB_FORMAT_JSONL:
		fputc('{', r->out);
		xb_json_string(r->out, "path", path);
		fprintf(r->out, ",\"by\":\"%s\",\"key\":", by_name[r->by]);
		if (numeric)
			fputs(num, r->out);
		else
			xb_json_value(r->out, name);
		fputs(",", r->out);
		xb_json_string(r->out, "name", name);
		fprintf(r->out, ",\"inodes\":%llu,\"disk_bytes\":%llu,"
			"\"apparent_bytes\":%llu}\n",
			(unsigned long long)w->count,
			(unsigned long long)w->disk,
			(unsigned long long)w->apparent);
		return;
	case XB_FORMAT_CSV:
		lossy = du_csv_field(r->out, path);
		fprintf(r->out, ",%s,", by_name[r->by]);
		du_csv_field(r->out, numeric ? num : name);
		fputc(',', r->out);
		du_csv_field(r->out, name ? name : "");
		fprintf(r->out, ",%llu,%llu,%llu",
			(unsigned long long)w->count,
			(unsigned long long)w->disk,
			(unsigned long long)w->apparent);
		xb_csv_b64(r->out, path, lossy);
		fputs("\r\n", r->out);
		return;
	default:
		size_text(r, w->disk, false, disk);
		size_text(r, w->apparent, false, app);
		fprintf(r->out, "%s\t%s\t%llu\t%s\t%s%c", disk, app,
			(unsigned long long)w->count, name ? name : num, path,
			r->nul ? '\0' : '\n');
		return;
	}
}

int
du_print_table(struct du_run *r, const char *path,
	       const struct du_agg_table *t)
{
	struct du_agg_row *rows = du_agg_sorted(t);
	size_t i;

	if (!rows && t->rows.count)
		return -ENOMEM;
	for (i = 0; i < t->rows.count; i++)
		print_row(r, path, &rows[i]);
	free(rows);
	return 0;
}

static const char *
type_name(uint16_t mode)
{
	const struct du_agg types = { .by = DU_BY_TYPE };

	return du_agg_label(&types, (mode & S_IFMT) >> 12);
}

void
du_print_unreached(struct du_run *r, const struct xfs_bulkstat *bs)
{
	uint64_t disk = bs->bs_blocks << r->blocklog;
	uint64_t app = xbulk_du_bytes(bs, 0, true);
	char size[DU_UNITS_MAX];

	switch (r->format) {
	case XB_FORMAT_JSONL:
		fprintf(r->out, "{\"ino\":%llu,\"type\":\"%s\",\"uid\":%u,"
			"\"gid\":%u,\"nlink\":%u,\"disk_bytes\":%llu,"
			"\"apparent_bytes\":%llu}\n",
			(unsigned long long)bs->bs_ino, type_name(bs->bs_mode),
			bs->bs_uid, bs->bs_gid, bs->bs_nlink,
			(unsigned long long)disk, (unsigned long long)app);
		return;
	case XB_FORMAT_CSV:
		fprintf(r->out, "%llu,%s,%u,%u,%u,%llu,%llu\r\n",
			(unsigned long long)bs->bs_ino, type_name(bs->bs_mode),
			bs->bs_uid, bs->bs_gid, bs->bs_nlink,
			(unsigned long long)disk, (unsigned long long)app);
		return;
	default:
		size_text(r, r->apparent ? app : disk, false, size);
		fprintf(r->out, "%s\tinode %llu (%s, uid %u, %u links)%c",
			size, (unsigned long long)bs->bs_ino,
			type_name(bs->bs_mode), bs->bs_uid, bs->bs_nlink,
			r->nul ? '\0' : '\n');
		return;
	}
}
