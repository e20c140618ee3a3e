// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * du --ncdu: the walk as ncdu 1.18 writes its export (ncdu 1.x
 * src/dir_export.c), each entry an object with the fields ncdu writes
 * and in its order: "name" (ncdu's bytes: JSON's escapes, the bytes of
 * a name that is not UTF-8 as they are), "asize" (st_size) and "dsize"
 * (st_blocks * 512) unless 0, "dev" where it differs from the parent's,
 * and for a non-directory with several links "ino", "hlnkc" and
 * "nlink", by which ncdu counts the inode once; "read_error" on a
 * directory that could not be read, "notreg" on what is neither a
 * directory nor a regular file.  What ncdu does not stat (a name
 * --exclude leaves out, an inode that could not be read) has no sizes
 * and its "dev" is 0, as in ncdu's own export; a mount point of another
 * filesystem is "excluded":"othfs", as ncdu -x marks it.
 */
#include <errno.h>
#include <sys/stat.h>

#include "../cli.h"
#include "ncdu.h"

void
du_ncdu_start(struct du_ncdu *n, FILE *f, const char *top, int64_t now)
{
	*n = (struct du_ncdu){ .f = f, .top = top };
	fprintf(f, "[1,2,{\"progname\":\"xbulk\",\"progver\":\"%s\","
		"\"timestamp\":%lld},", XBULK_VERSION_STRING, (long long)now);
}

/* The fields of an entry ncdu stat()ed; a mount point of another
 * filesystem it stat()s but does not count nor enter (-x). */
static void
put_stat(struct du_ncdu *n, const struct xbulk_entry *e)
{
	const struct xfs_bulkstat *bs = e->bs;
	bool othfs = e->flags & XBULK_ENTRY_MOUNT;
	uint64_t dsize = othfs ? 0 : xbulk_du_bytes(bs, e->blocklog, false);
	uint64_t asize = othfs ? 0 : xbulk_du_bytes(bs, 0, true);

	if (asize)
		fprintf(n->f, ",\"asize\":%llu", (unsigned long long)asize);
	if (dsize)
		fprintf(n->f, ",\"dsize\":%llu", (unsigned long long)dsize);
	if (e->dev != n->dev)
		fprintf(n->f, ",\"dev\":%llu", (unsigned long long)e->dev);
	if (!othfs && (e->flags & XBULK_ENTRY_LINKED))
		fprintf(n->f, ",\"ino\":%llu,\"hlnkc\":true,\"nlink\":%u",
			(unsigned long long)bs->bs_ino, bs->bs_nlink);
	if (e->flags & XBULK_ENTRY_UNREADABLE)
		fputs(",\"read_error\":true", n->f);
	if (othfs)
		fputs(",\"excluded\":\"othfs\"", n->f);
	else if (!S_ISDIR(bs->bs_mode) && !S_ISREG(bs->bs_mode))
		fputs(",\"notreg\":true", n->f);
}

static int
failed(struct du_ncdu *n)
{
	if (!n->err && ferror(n->f))
		n->err = errno ? -errno : -EIO;
	return n->err;
}

int
du_ncdu_visit(struct du_ncdu *n, const struct xbulk_entry *e,
	      enum xbulk_visit v, bool excluded)
{
	bool bad = e->flags & XBULK_ENTRY_BAD_INODE;
	bool dir = S_ISDIR(e->bs->bs_mode);
	/* ncdu's top is a directory, whatever happens to it */
	bool array = !e->depth || (dir && !excluded && !bad);

	if (v == XBULK_VISIT_POST) {
		if (n->skip_post)
			n->skip_post = false;
		else if (n->open) {
			fputc(']', n->f);
			n->open--;
		}
		return failed(n);
	}
	fputs(e->depth ? ",\n" : "\n", n->f);
	if (array) {
		fputc('[', n->f);
		n->open++;
	}
	fputs("{\"name\":", n->f);
	xb_json_str(n->f, e->depth ? e->path + e->name_off : n->top);
	if (excluded)
		fputs(",\"dev\":0,\"excluded\":\"pattern\"", n->f);
	else if (bad)
		fputs(",\"dev\":0,\"read_error\":true", n->f);
	else
		put_stat(n, e);
	fputc('}', n->f);
	/* an excluded directory's POST still comes; a bad inode has none */
	n->skip_post = dir && !array && !bad;
	if (!e->depth) {
		n->dev = e->dev;
		n->started = true;
	}
	return failed(n);
}

int
du_ncdu_end(struct du_ncdu *n)
{
	for (; n->open; n->open--)
		fputc(']', n->f);
	fputc(']', n->f);
	return failed(n);
}
