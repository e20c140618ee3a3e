// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A snapshot's summary (cli/history.h; docs/formats.md, "Summary
 * files"): inodes and bytes per directory subtree down to a depth, and
 * per uid, gid and project id, gathered from the records as the snapshot
 * is written, as du counts: each inode once (hard links once), charged
 * to the directory of its first name (names come in (parent, name)
 * order), a directory to itself, an inode no name reaches to the top.
 *
 * Memory is per directory, not per inode: records come in inode order,
 * a file before its directory's record perhaps, so each directory's own
 * sums and its (parent, name) are kept by inode number (a hash table),
 * and the subtrees are summed once at the end, each directory's sums
 * carried up its chain of parents to the depth asked for.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "history.h"
#include "snap.h"

static const char *const id_kind[3] = { "uid", "gid", "projid" };

void
xb_summary_init(struct xb_summary *sum, const struct xbulk_snap *s,
		unsigned int depth)
{
	const struct xbulk_snap_info *info = xbulk_snap_info(s);

	memset(sum, 0, sizeof(*sum));
	sum->depth = depth;
	sum->blocksize = info->blocksize;
	for (sum->blocklog = 9; (1u << sum->blocklog) < sum->blocksize;)
		sum->blocklog++;
	sum->top = info->top;
	xbl_hash_init(&sum->dirs, sizeof(struct xb_sum_dir));
	for (int i = 0; i < 3; i++)
		xbl_hash_init(&sum->ids[i], sizeof(struct xb_sum_row));
}

static void
row_add(struct xb_sum_row *r, const struct xb_sum_row *v)
{
	r->inodes += v->inodes;
	r->bytes += v->bytes;
	r->apparent += v->apparent;
}

/* The directory @ino's entry, made if new (NULL: no memory). */
static struct xb_sum_dir *
dir_get(struct xb_summary *sum, uint64_t ino)
{
	bool fresh;
	struct xb_sum_dir *d = xbl_hash_add(&sum->dirs, ino, &fresh);

	if (d && fresh)
		d->depth = -1;
	return d;
}

/* Keep @l's name as directory @d's. */
static int
keep_name(struct xb_summary *sum, struct xb_sum_dir *d,
	  const struct xbulk_snap_link *l)
{
	size_t need = sum->names_len + l->namelen + 1;

	if (need > sum->names_cap) {
		size_t cap = sum->names_cap ? 2 * sum->names_cap : 65536;
		char *n;

		while (cap < need)
			cap *= 2;
		n = realloc(sum->names, cap);
		if (!n)
			return -ENOMEM;
		sum->names = n;
		sum->names_cap = cap;
	}
	memcpy(sum->names + sum->names_len, l->name, l->namelen);
	sum->names[sum->names_len + l->namelen] = 0;
	d->name = sum->names_len + 1;
	d->namelen = l->namelen;
	d->parent = l->parent;
	sum->names_len = need;
	return 0;
}

uint64_t
xb_summary_charge(const struct xb_summary *sum,
		  const struct xbulk_snap_rec *rec, struct xb_sum_row *v)
{
	const struct xfs_bulkstat *bs = rec->bs;

	/* du's figures of one inode (xbulk/du.h) */
	*v = (struct xb_sum_row){
		.inodes = 1,
		.bytes = xbulk_du_bytes(bs, sum->blocklog, false),
		.apparent = xbulk_du_bytes(bs, 0, true),
	};
	return (bs->bs_mode & S_IFMT) == S_IFDIR ? bs->bs_ino :
	       rec->nlinks ? rec->links[0].parent : sum->top;
}

void
xb_summary_add(struct xb_summary *sum, const struct xbulk_snap_rec *rec)
{
	const struct xfs_bulkstat *bs = rec->bs;
	const uint32_t id[3] = { bs->bs_uid, bs->bs_gid, bs->bs_projectid };
	struct xb_sum_row v, *r;
	struct xb_sum_dir *d;
	bool fresh, isdir = (bs->bs_mode & S_IFMT) == S_IFDIR;
	uint64_t at = xb_summary_charge(sum, rec, &v);

	if (sum->err)
		return;
	row_add(&sum->all, &v);
	for (int i = 0; i < 3; i++) {
		r = xbl_hash_add(&sum->ids[i], id[i], &fresh);
		if (!r)
			goto nomem;
		row_add(r, &v);
	}
	d = dir_get(sum, at);
	if (!d)
		goto nomem;
	row_add(&d->own, &v);
	if (isdir)
		d->gen = bs->bs_gen;
	if (isdir && rec->nlinks && bs->bs_ino != sum->top &&
	    keep_name(sum, d, &rec->links[0]))
		goto nomem;
	return;
nomem:
	sum->err = -ENOMEM;
}

/* The depth of directory @ino below the top (the top 0), or -2 if its
 * chain of parents does not reach the top; remembered on the way. */
static int32_t
dir_depth(struct xb_summary *sum, uint64_t ino)
{
	struct xb_sum_dir *d = xbl_hash_get(&sum->dirs, ino);
	uint64_t chain[64];
	unsigned int n = 0;
	int32_t depth;

	/* climb to a known depth, the top or a break, then come down;
	 * each directory on the way marked -3, so that a cycle (damage)
	 * ends as a break */
	while (d && d->depth == -1 && ino != sum->top && d->name &&
	       n < sizeof(chain) / sizeof(chain[0])) {
		d->depth = -3;
		chain[n++] = ino;
		ino = d->parent;
		d = xbl_hash_get(&sum->dirs, ino);
	}
	if (ino == sum->top)
		depth = 0;
	else if (d && d->depth != -1)
		depth = d->depth;
	else if (n == sizeof(chain) / sizeof(chain[0]) && d)
		depth = dir_depth(sum, ino);	/* deeper than the chain */
	else
		depth = -2;
	if (d && ino == sum->top)
		d->depth = 0;
	while (n--) {
		d = xbl_hash_get(&sum->dirs, chain[n]);
		depth = depth < 0 ? -2 : depth + 1;
		d->depth = depth;
	}
	return depth;
}

/* Each directory's own sums into its subtree's and those of the
 * directories above it down to sum->depth (a broken chain: the top's). */
void
xb_summary_subtrees(struct xb_summary *sum)
{
	struct xb_sum_dir *d, *up, *top = dir_get(sum, sum->top);
	size_t pos = 0;
	uint64_t ino;

	while ((d = xbl_hash_next(&sum->dirs, &pos, &ino)))
		dir_depth(sum, ino);
	pos = 0;
	while ((d = xbl_hash_next(&sum->dirs, &pos, &ino))) {
		if (d->depth < 0) {
			row_add(&top->sub, &d->own);
			continue;
		}
		for (up = d; up; up = xbl_hash_get(&sum->dirs, up->parent)) {
			if (up->depth >= 0 &&
			    (unsigned int)up->depth <= sum->depth)
				row_add(&up->sub, &d->own);
			if (up == top)
				break;
		}
	}
}

long
xb_summary_dir_path(const struct xb_summary *sum, const struct xbulk_snap *s,
		    uint64_t ino, const struct xb_sum_dir *d, char **buf,
		    size_t *cap)
{
	struct xbulk_snap_link l = {
		.parent = d->parent,
		.name = d->name ? sum->names + d->name - 1 : NULL,
		.namelen = d->namelen,
	};

	return xbulk_snap_path(s, ino == sum->top ? NULL : &l, buf, cap);
}

/* A directory to print: its path, depth and sums. */
struct line {
	char			*path;
	const struct xb_sum_dir	*d;
};

static int
by_path(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->path,
		      ((const struct line *)b)->path);
}

static void
put_row(FILE *f, const struct xb_sum_row *r)
{
	fprintf(f, ",\"inodes\":%llu,\"bytes\":%llu,\"apparent\":%llu}\n",
		(unsigned long long)r->inodes, (unsigned long long)r->bytes,
		(unsigned long long)r->apparent);
}

/* The directories down to the depth, in path order. */
static int
put_dirs(FILE *f, struct xb_summary *sum, const struct xbulk_snap *s)
{
	struct line *lines = malloc((sum->dirs.count + 1) * sizeof(*lines));
	const struct xb_sum_dir *d;
	size_t n = 0, pos = 0, cap = 0, i;
	char *buf = NULL;
	uint64_t ino;
	long len;
	int err = lines ? 0 : -ENOMEM;

	while (!err && (d = xbl_hash_next(&sum->dirs, &pos, &ino))) {
		if (d->depth < 0 || (unsigned int)d->depth > sum->depth)
			continue;
		len = xb_summary_dir_path(sum, s, ino, d, &buf, &cap);
		if (len == -ENOENT)
			continue;	/* no name reaches it: in the top */
		if (len < 0 || !(lines[n].path = strdup(buf))) {
			err = len < 0 ? (int)len : -ENOMEM;
			break;
		}
		lines[n++].d = d;
	}
	free(buf);
	if (!err)
		qsort(lines, n, sizeof(*lines), by_path);
	for (i = 0; i < n; i++) {
		if (!err) {
			fputs("{\"kind\":\"dir\",", f);
			xb_json_string(f, "path", lines[i].path);
			fprintf(f, ",\"depth\":%d", (int)lines[i].d->depth);
			put_row(f, &lines[i].d->sub);
		}
		free(lines[i].path);
	}
	free(lines);
	return err;
}

struct id_line {
	uint64_t			id;
	const struct xb_sum_row		*r;
};

static int
by_id(const void *a, const void *b)
{
	uint64_t x = ((const struct id_line *)a)->id;
	uint64_t y = ((const struct id_line *)b)->id;

	return x < y ? -1 : x > y;
}

/* The rows of uid, gid and projid, each in id order. */
static int
put_ids(FILE *f, struct xb_summary *sum)
{
	for (int k = 0; k < 3; k++) {
		struct id_line *v = malloc((sum->ids[k].count + 1) *
					   sizeof(*v));
		const struct xb_sum_row *r;
		size_t n = 0, pos = 0;
		uint64_t id;

		if (!v)
			return -ENOMEM;
		while ((r = xbl_hash_next(&sum->ids[k], &pos, &id)))
			v[n++] = (struct id_line){ .id = id, .r = r };
		qsort(v, n, sizeof(*v), by_id);
		for (size_t i = 0; i < n; i++) {
			fprintf(f, "{\"kind\":\"%s\",\"id\":%llu", id_kind[k],
				(unsigned long long)v[i].id);
			put_row(f, v[i].r);
		}
		free(v);
	}
	return 0;
}

/* The first line: what was summarized, when, and the filesystem's room. */
static void
put_head(FILE *f, const struct xb_summary *sum, const struct xbulk_snap *s,
	 int fd, const char *stamp)
{
	const struct xbulk_snap_info *info = xbulk_snap_info(s);
	struct statvfs sv;
	char uuid[37];

	xb_uuid_text(uuid, info->uuid);
	fprintf(f, "{\"kind\":\"summary\",\"version\":%d,\"stamp\":\"%s\","
		"\"snapshot\":\"%s" XB_HIST_SNAP_SUFFIX "\",\"start\":%lld,"
		"\"end\":%lld,\"uuid\":\"%s\",", XB_SUMMARY_VERSION, stamp,
		stamp, (long long)info->start_sec, (long long)info->end_sec,
		uuid);
	xb_json_string(f, "host", info->host);
	fputc(',', f);
	xb_json_string(f, "mountpoint", info->mountpoint);
	if (!fstatvfs(fd, &sv))
		fprintf(f, ",\"fs_bytes\":%llu,\"fs_free_bytes\":%llu,"
			"\"fs_inodes\":%llu,\"fs_free_inodes\":%llu",
			(unsigned long long)sv.f_blocks * sv.f_frsize,
			(unsigned long long)sv.f_bavail * sv.f_frsize,
			(unsigned long long)sv.f_files,
			(unsigned long long)sv.f_ffree);
	fprintf(f, ",\"depth\":%u", sum->depth);
	put_row(f, &sum->all);
}

int
xb_summary_write(struct xb_summary *sum, const struct xbulk_snap *s,
		 int fd, const char *stamp, const char *path)
{
	struct xbulk_replace *r = NULL;
	FILE *f = NULL;
	int err = sum->err, out;

	if (!err)
		err = xbulk_replace_open(path, 0600, 0, &r);
	if (!err) {
		out = dup(xbulk_replace_fd(r));
		f = out < 0 ? NULL : fdopen(out, "w");
		if (!f) {
			err = -errno;
			if (out >= 0)
				close(out);
		}
	}
	if (!err) {
		xb_summary_subtrees(sum);
		put_head(f, sum, s, fd, stamp);
		err = put_dirs(f, sum, s);
		if (!err)
			err = put_ids(f, sum);
	}
	if (f && fclose(f) && !err)
		err = -errno;
	if (!err) {
		err = xbulk_replace_commit(r);
		r = NULL;
	}
	xbulk_replace_abort(r);
	return err;
}

void
xb_summary_free(struct xb_summary *sum)
{
	xbl_hash_free(&sum->dirs);
	for (int i = 0; i < 3; i++)
		xbl_hash_free(&sum->ids[i]);
	free(sum->names);
	sum->names = NULL;
}
