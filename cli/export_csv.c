// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk export --csv DIR: inodes.csv and entries.csv (RFC 4180, a header
 * row, every row led by the filesystem's UUID so that the files of many
 * hosts load as one table), written as .inodes.csv.tmp and
 * .entries.csv.tmp (locked while written: xb_export_open_tmp()) and
 * renamed when both are whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "export.h"

static const char inodes_header[] =
	"fs_uuid,ino,gen,type,mode,nlink,uid,gid,projid,size,blocks,"
	"disk_bytes,atime,atime_nsec,mtime,mtime_nsec,ctime,ctime_nsec,"
	"btime,btime_nsec,xflags,extents,aextents,rdev,changing\r\n";
static const char entries_header[] = "fs_uuid,parent,name,ino,path\r\n";

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
		"%lld,%u,%lld,%u,%lld,%u,%lld,%u,%llu,%llu,%u,%u,%d\r\n",
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
		b->bs_rdev, rec->flags & XBULK_SNAP_CHANGING ? 1 : 0);
	return stream_error(c->inodes);
}

static void
quoted(FILE *f, const char *s, size_t len)
{
	size_t i;

	putc('"', f);
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			putc('"', f);
		putc(s[i], f);
	}
	putc('"', f);
}

static int
csv_entry(void *arg, uint64_t ino, const struct xbulk_snap_link *l,
	  const char *path)
{
	struct csv *c = arg;

	fprintf(c->entries, "%s,", c->uuid);
	if (l) {
		fprintf(c->entries, "%llu,", (unsigned long long)l->parent);
		quoted(c->entries, l->name, l->namelen);
	} else {
		fputs(",", c->entries);
	}
	fprintf(c->entries, ",%llu,", (unsigned long long)ino);
	quoted(c->entries, path, strlen(path));
	fputs("\r\n", c->entries);
	return stream_error(c->entries);
}

#define TMP_INODES	".inodes.csv.tmp"
#define TMP_ENTRIES	".entries.csv.tmp"

/* @name in @dirfd as xb_export_open_tmp() opens it, as a stream; NULL
 * with *@err set. */
static FILE *
open_tmp(int dirfd, const char *name, int *err)
{
	int fd = xb_export_open_tmp(dirfd, name);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	if (!f) {
		*err = fd < 0 ? fd : -errno;
		if (fd >= 0)
			close(fd);
	}
	return f;
}

/* Flush and fsync @f, kept open (locked) until it is renamed: 0 or a
 * negative errno. */
static int
flush(FILE *f)
{
	return fflush(f) || fsync(fileno(f)) ? -errno : 0;
}

int
xb_export_csv(struct xbulk_snap *s, const char *dir,
		 const volatile int *cancel)
{
	static const struct xb_export_sink sink = { csv_inode, csv_entry };
	const struct xbulk_snap_info *info = xbulk_snap_info(s);
	struct csv c = { .blocksize = info->blocksize };
	const char *busy = NULL;
	int dirfd, ret = 0, placed = 0;

	xb_uuid_text(c.uuid, info->uuid);
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		xb_error("export", "%s: %s", dir, strerror(errno));
		return XB_EXIT_TROUBLE;
	}
	c.inodes = open_tmp(dirfd, busy = TMP_INODES, &ret);
	if (c.inodes)
		c.entries = open_tmp(dirfd, busy = TMP_ENTRIES, &ret);
	if (!ret) {
		busy = NULL;
		fputs(inodes_header, c.inodes);
		fputs(entries_header, c.entries);
		ret = xb_export_each(s, &sink, &c, cancel);
	}
	if (!ret)
		ret = flush(c.inodes);
	if (!ret)
		ret = flush(c.entries);
	if (!ret && !renameat(dirfd, TMP_INODES, dirfd, "inodes.csv"))
		placed++;
	if (!ret && placed == 1 &&
	    !renameat(dirfd, TMP_ENTRIES, dirfd, "entries.csv"))
		placed++;
	if (!ret && (placed < 2 || fsync(dirfd)))
		ret = -errno;
	/* the files that are still ours: locked, not renamed */
	if (ret && c.inodes && placed < 1)
		unlinkat(dirfd, TMP_INODES, 0);
	if (ret && c.entries && placed < 2)
		unlinkat(dirfd, TMP_ENTRIES, 0);
	if (c.inodes && fclose(c.inodes) && !ret)
		ret = -errno;
	if (c.entries && fclose(c.entries) && !ret)
		ret = -errno;
	if (ret && busy)
		xb_error("export", "%s: %s: %s", dir, busy,
			 xb_export_tmp_error(ret));
	else if (ret && ret != -EINTR)
		xb_error("export", "%s: %s", dir, strerror(-ret));
	close(dirfd);
	return ret ? XB_EXIT_TROUBLE : 0;
}
