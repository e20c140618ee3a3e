// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk export --sqlite DB: the snapshot as a SQLite database (tables fs,
 * inodes, entries; schema in docs/formats.md), written in one
 * transaction with the journal off (the file is new: nothing to roll
 * back to), indexed once the rows are in, then put at DB by
 * xbulk_replace_commit() (only a regular file there is replaced).
 * SQLite opens files by name: the file is made in a directory of its
 * own beside DB (XBULK_REPLACE_NAMED), where no one else can have put
 * anything.  Prepared statements, one bind per column: about 1 us a
 * row.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#include "export.h"

static const char schema[] =
	"PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
	"PRAGMA user_version=1;"
	"CREATE TABLE fs (uuid TEXT, host TEXT, mountpoint TEXT,"
	" scan_start INTEGER, scan_start_nsec INTEGER, scan_end INTEGER,"
	" scan_end_nsec INTEGER, xbulk_version TEXT, blocksize INTEGER,"
	" agcount INTEGER, inodes INTEGER, entries INTEGER);"
	"CREATE TABLE inodes (ino INTEGER PRIMARY KEY, gen INTEGER,"
	" type TEXT, mode INTEGER, nlink INTEGER, uid INTEGER, gid INTEGER,"
	" projid INTEGER, size INTEGER, blocks INTEGER, disk_bytes INTEGER,"
	" atime INTEGER, atime_nsec INTEGER, mtime INTEGER,"
	" mtime_nsec INTEGER, ctime INTEGER, ctime_nsec INTEGER,"
	" btime INTEGER, btime_nsec INTEGER, xflags INTEGER,"
	" extents INTEGER, aextents INTEGER, rdev INTEGER,"
	" changing INTEGER, mode_octal TEXT);"
	"CREATE TABLE entries (parent INTEGER, name TEXT, ino INTEGER,"
	" path TEXT, name_bytes BLOB, path_bytes BLOB);"
	"BEGIN;";
static const char indexes[] =
	"CREATE INDEX entries_ino ON entries(ino);"
	"CREATE INDEX entries_path ON entries(path);"
	"CREATE INDEX entries_parent ON entries(parent);"
	"COMMIT;";

struct db {
	sqlite3		*db;
	sqlite3_stmt	*ins_inode, *ins_entry;
	uint32_t	blocksize;
};

static int
step(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		return 0;
	return rc == SQLITE_FULL ? -ENOSPC : rc == SQLITE_NOMEM ? -ENOMEM :
	       -EIO;
}

static int
db_inode(void *arg, const struct xbulk_snap_rec *rec)
{
	struct db *d = arg;
	const struct xfs_bulkstat *b = rec->bs;
	sqlite3_stmt *st = d->ins_inode;
	char type[2] = { xb_type_letter(b->bs_mode), 0 }, octal[8];
	const int64_t v[] = {
		(int64_t)b->bs_ino, b->bs_gen, 0, b->bs_mode & 07777,
		b->bs_nlink, b->bs_uid, b->bs_gid, b->bs_projectid,
		(int64_t)b->bs_size, (int64_t)b->bs_blocks,
		(int64_t)(b->bs_blocks * d->blocksize), b->bs_atime,
		b->bs_atime_nsec, b->bs_mtime, b->bs_mtime_nsec, b->bs_ctime,
		b->bs_ctime_nsec, b->bs_btime, b->bs_btime_nsec,
		(int64_t)b->bs_xflags, (int64_t)b->bs_extents64,
		b->bs_aextents, b->bs_rdev,
		rec->flags & XBULK_SNAP_CHANGING ? 1 : 0,
	};
	int i;

	for (i = 0; i < (int)(sizeof(v) / sizeof(v[0])); i++)
		if (i == 2)
			sqlite3_bind_text(st, 3, type, 1, SQLITE_STATIC);
		else
			sqlite3_bind_int64(st, i + 1, v[i]);
	snprintf(octal, sizeof(octal), "%#o", b->bs_mode & 07777);
	sqlite3_bind_text(st, i + 1, octal, -1, SQLITE_STATIC);
	return step(st);
}

/* Text column @col: @s, with U+FFFD for each byte that is not UTF-8;
 * BLOB column @col + @blob_col: NULL, or then @s's exact bytes.  0 or
 * -ENOMEM. */
static int
bind_name(sqlite3_stmt *st, int col, int blob_col, const char *s)
{
	char *text;

	if (xb_utf8_valid(s)) {
		sqlite3_bind_text(st, col, s, -1, SQLITE_STATIC);
		sqlite3_bind_null(st, blob_col);
		return 0;
	}
	text = xb_utf8_fffd(s);
	if (!text)
		return -ENOMEM;
	sqlite3_bind_text(st, col, text, -1, free);
	sqlite3_bind_blob(st, blob_col, s, (int)strlen(s), SQLITE_STATIC);
	return 0;
}

static int
db_entry(void *arg, uint64_t ino, const struct xbulk_snap_link *l,
	 const char *name, const char *path)
{
	struct db *d = arg;
	sqlite3_stmt *st = d->ins_entry;

	if (l)
		sqlite3_bind_int64(st, 1, (int64_t)l->parent);
	else
		sqlite3_bind_null(st, 1);
	sqlite3_bind_int64(st, 3, (int64_t)ino);
	if (bind_name(st, 2, 5, name) || bind_name(st, 4, 6, path)) {
		sqlite3_clear_bindings(st);
		return -ENOMEM;
	}
	return step(st);
}

static int
fs_row(struct db *d, const struct xbulk_snap_info *i)
{
	sqlite3_stmt *st;
	char uuid[40];
	int ret;

	if (sqlite3_prepare_v2(d->db, "INSERT INTO fs VALUES "
			       "(?,?,?,?,?,?,?,?,?,?,?,?)", -1, &st, NULL))
		return -EIO;
	xb_uuid_text(uuid, i->uuid);
	sqlite3_bind_text(st, 1, uuid, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, i->host, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, i->mountpoint, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, i->start_sec);
	sqlite3_bind_int64(st, 5, i->start_nsec);
	sqlite3_bind_int64(st, 6, i->end_sec);
	sqlite3_bind_int64(st, 7, i->end_nsec);
	sqlite3_bind_text(st, 8, i->xbulk_version, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 9, i->blocksize);
	sqlite3_bind_int64(st, 10, i->agcount);
	sqlite3_bind_int64(st, 11, (int64_t)i->inodes);
	sqlite3_bind_int64(st, 12, (int64_t)i->links);
	ret = step(st);
	sqlite3_finalize(st);
	return ret;
}

static int
fill(struct db *d, struct xbulk_snap *s, char *msg, size_t msgsize,
     const volatile int *cancel)
{
	static const struct xb_export_sink sink = { db_inode, db_entry };
	char *err = NULL;
	int ret;

	if (sqlite3_exec(d->db, schema, NULL, NULL, &err) ||
	    sqlite3_prepare_v2(d->db, "INSERT INTO inodes VALUES (?,?,?,?,?,"
			       "?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", -1,
			       &d->ins_inode, NULL) ||
	    sqlite3_prepare_v2(d->db, "INSERT INTO entries VALUES (?,?,?,?,?,?)",
			       -1, &d->ins_entry, NULL)) {
		snprintf(msg, msgsize, "%s", err ? err : sqlite3_errmsg(d->db));
		sqlite3_free(err);
		return -EIO;
	}
	ret = fs_row(d, xbulk_snap_info(s));
	if (!ret)
		ret = xb_export_each(s, &sink, d, cancel);
	if (!ret && sqlite3_exec(d->db, indexes, NULL, NULL, &err)) {
		snprintf(msg, msgsize, "%s", err ? err : "indexing failed");
		sqlite3_free(err);
		return -EIO;
	}
	if (ret)
		snprintf(msg, msgsize, "%s", ret == -EIO ?
			 sqlite3_errmsg(d->db) : strerror(-ret));
	return ret;
}

enum xb_exit
xb_export_sqlite(struct xbulk_snap *s, const char *path,
		 const volatile int *cancel)
{
	struct db d = { .blocksize = xbulk_snap_info(s)->blocksize };
	struct xbulk_replace *file;
	char msg[512] = "";
	int err;

	err = xbulk_replace_open(path, 0600, XBULK_REPLACE_NAMED, &file);
	if (err == -EPERM)
		xb_error("export", "%s: its directory is writable by anyone and "
			 "not sticky: SQLite opens its file by name, which "
			 "another user could swap there; write it elsewhere",
			 path);
	else if (err)
		xb_create_error("export", path, err);
	if (err)
		return XB_EXIT_TROUBLE;
	if (sqlite3_open_v2(xbulk_replace_name(file), &d.db,
			    SQLITE_OPEN_READWRITE, NULL)) {
		snprintf(msg, sizeof(msg), "%s", d.db ? sqlite3_errmsg(d.db) :
			 strerror(ENOMEM));
		err = -EIO;
	} else {
		err = fill(&d, s, msg, sizeof(msg), cancel);
	}
	sqlite3_finalize(d.ins_inode);
	sqlite3_finalize(d.ins_entry);
	if (sqlite3_close(d.db) && !err) {
		snprintf(msg, sizeof(msg), "cannot close the database");
		err = -EIO;
	}
	if (!err && *cancel)
		err = -EINTR;		/* whole, but not asked for any more */
	if (err)
		xbulk_replace_abort(file);
	else
		err = xbulk_replace_commit(file);
	if (err && !*msg)
		snprintf(msg, sizeof(msg), "%s", strerror(-err));
	if (err && err != -EINTR && !xbulk_snap_error(s))
		xb_error("export", "%s: %s", path, msg);
	return err ? XB_EXIT_TROUBLE : XB_EXIT_OK;
}
