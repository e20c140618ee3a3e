// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk export --csv DIR: inodes.csv and entries.csv (RFC 4180, a header
 * row, every row led by the filesystem's UUID so that the files of many
 * hosts load as one table), each made unnamed in DIR and put in place by
 * xbulk_replace_commit() when both are whole.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export.h"

static const char inodes_header[] =
	"fs_uuid,ino,gen,type,mode,nlink,uid,gid,projid,size,blocks,"
	"disk_bytes,atime,atime_nsec,mtime,mtime_nsec,ctime,ctime_nsec,"
	"btime,btime_nsec,xflags,extents,aextents,rdev,changing,"
	"mode_octal\r\n";
static const char entries_header[] =
	"fs_uuid,parent,name,ino,path,name_b64,path_b64\r\n";

struct csv {
	FILE		*inodes, *entries;
	char		uuid[40];
	uint32_t	blocksize;
};

/* 0, or the error of a write to @f that failed (ENOSPC...). */
static int
stream_error(FILE *f)
{
	return !ferror(f) ? 0 : errno ? -errno : -EIO;
}

static int
csv_inode(void *arg, const struct xbulk_snap_rec *rec)
{
	struct csv *c = arg;
	const struct xfs_bulkstat *b = rec->bs;

	fprintf(c->inodes, "%s,%llu,%u,%c,%u,%u,%u,%u,%u,%llu,%llu,%llu,"
		"%lld,%u,%lld,%u,%lld,%u,%lld,%u,%llu,%llu,%u,%u,%d,%#o\r\n",
		c->uuid, (unsigned long long)b->bs_ino, b->bs_gen,
		xb_type_letter(b->bs_mode), b->bs_mode & 07777, b->bs_nlink,
		b->bs_uid, b->bs_gid, b->bs_projectid,
		(unsigned long long)b->bs_size,
		(unsigned long long)b->bs_blocks,
		(unsigned long long)b->bs_blocks * c->blocksize,
		(long long)b->bs_atime, b->bs_atime_nsec,
		(long long)b->bs_mtime, b->bs_mtime_nsec,
		(long long)b->bs_ctime, b->bs_ctime_nsec,
		(long long)b->bs_btime, b->bs_btime_nsec,
		(unsigned long long)b->bs_xflags,
		(unsigned long long)b->bs_extents64, b->bs_aextents,
		b->bs_rdev, rec->flags & XBULK_SNAP_CHANGING ? 1 : 0,
		b->bs_mode & 07777);
	return stream_error(c->inodes);
}

static int
csv_entry(void *arg, uint64_t ino, const struct xbulk_snap_link *l,
	  const char *name, const char *path)
{
	struct csv *c = arg;
	bool lossy_name, lossy_path;

	fprintf(c->entries, "%s,", c->uuid);
	if (l)
		fprintf(c->entries, "%llu", (unsigned long long)l->parent);
	putc(',', c->entries);
	lossy_name = xb_csv_quoted(c->entries, name);
	fprintf(c->entries, ",%llu,", (unsigned long long)ino);
	lossy_path = xb_csv_quoted(c->entries, path);
	xb_csv_b64(c->entries, name, lossy_name);
	xb_csv_b64(c->entries, path, lossy_path);
	fputs("\r\n", c->entries);
	return stream_error(c->entries);
}

/* One of the two files, unnamed in @dir, as a stream. */
struct csv_file {
	const char		*name;
	struct xbulk_replace	*file;
	FILE			*f;
};

/* Start @c->name in @dirfd (path @dir for messages): XB_EXIT_OK or
 * XB_EXIT_TROUBLE (message printed). */
static enum xb_exit
start(const char *dir, struct csv_file *c)
{
	char *path;
	int err, fd;

	if (asprintf(&path, "%s/%s", dir, c->name) < 0) {
		xb_error("export", "%s", strerror(ENOMEM));
		return XB_EXIT_TROUBLE;
	}
	err = xbulk_replace_open(path, 0600, 0, &c->file);
	if (err)
		xb_create_error("export", path, err);
	free(path);
	if (err)
		return XB_EXIT_TROUBLE;
	fd = dup(xbulk_replace_fd(c->file));
	c->f = fd < 0 ? NULL : fdopen(fd, "w");
	if (c->f)
		return XB_EXIT_OK;
	xb_error("export", "%s: %s", dir, strerror(errno));
	if (fd >= 0)
		close(fd);
	return XB_EXIT_TROUBLE;
}

/* Close @c's stream; commit its file (@ret 0) or give it up: @ret, or
 * the negative errno of what failed. */
static int
finish(struct csv_file *c, int ret)
{
	if (c->f && fclose(c->f) && !ret)
		ret = -errno;
	c->f = NULL;
	if (!ret && c->file)
		ret = xbulk_replace_commit(c->file);
	else
		xbulk_replace_abort(c->file);
	c->file = NULL;
	return ret;
}

enum xb_exit
xb_export_csv(struct xbulk_snap *s, const char *dir,
	      const volatile int *cancel)
{
	static const struct xb_export_sink sink = { csv_inode, csv_entry };
	const struct xbulk_snap_info *info = xbulk_snap_info(s);
	struct csv_file in = { "inodes.csv" }, en = { "entries.csv" };
	struct csv c = { .blocksize = info->blocksize };
	enum xb_exit ret;
	int err;

	xb_uuid_text(c.uuid, info->uuid);
	ret = start(dir, &in);
	if (!ret)
		ret = start(dir, &en);
	if (ret) {
		finish(&in, -EINTR);
		finish(&en, -EINTR);
		return ret;
	}
	c.inodes = in.f;
	c.entries = en.f;
	fputs(inodes_header, c.inodes);
	fputs(entries_header, c.entries);
	err = xb_export_each(s, &sink, &c, cancel);
	if (!err && (fflush(c.inodes) || fflush(c.entries)))
		err = -errno;
	/* both whole before either is put in place */
	if (!err && (fsync(xbulk_replace_fd(in.file)) ||
		     fsync(xbulk_replace_fd(en.file))))
		err = -errno;
	if (!err && *cancel)
		err = -EINTR;		/* whole, but not asked for any more */
	err = finish(&in, err);
	err = finish(&en, err);
	if (err && err != -EINTR && !xbulk_snap_error(s))
		xb_error("export", "%s: %s", dir, strerror(-err));
	return err ? XB_EXIT_TROUBLE : XB_EXIT_OK;
}
