/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to the du command (prefix du_: CONTRIBUTING.md).
 *
 * xbulk du's --by tables: sums by owner, group, project, type, suffix,
 * age or size class, whole (cli/du/agg.c) and per directory (cli/du/aggdirs.c).
 */
#ifndef DU_AGG_H
#define DU_AGG_H

#include "xbulk.h"
#include "../../lib/hash.h"

/* What --by groups inodes by. */
enum du_by {
	DU_BY_UID,
	DU_BY_GID,
	DU_BY_PROJID,
	DU_BY_TYPE,		/* S_IFMT: file, dir, symlink... */
	DU_BY_EXT,		/* the charged name's last ".suffix" */
	DU_BY_AGE,		/* <1d <7d <30d <90d <1y <3y older */
	DU_BY_SIZE_CLASS,	/* apparent size: <4K <16K ... <1P >=1P */
	DU_BY_NR,
};

/* One group's sums.  Key 0 of ext is "no suffix". */
struct du_agg_row {
	uint64_t	key;		/* uid, gid, projid, S_IFMT >> 12,
					   ext id, age or size class */
	uint64_t	count;		/* inodes */
	uint64_t	disk;		/* bytes of disk usage */
	uint64_t	apparent;	/* bytes of apparent size */
};

/* Rows by key (lib/hash.c: key -> struct du_agg_row; rows.count of
 * them).  Zero it before use; du_agg_table_free() releases the rows and
 * leaves it zeroed. */
struct du_agg_table {
	struct xbl_hash		rows;
};

/* What a table's keys mean: shared by all tables of one run. */
struct du_agg {
	enum du_by	by;
	enum xbulk_time	time;
	int64_t		now;		/* seconds since the epoch (age) */
	unsigned int	blocklog;
	/* ext: suffixes by id (id - 1), and their index: a hash of the
	 * suffix -> its id (uint64_t) */
	char		**ext;
	size_t		next;
	size_t		ext_cap;
	struct xbl_hash	ext_index;
};

#define DU_AGE_CLASSES	7
#define DU_SIZE_CLASSES	21
/* Most bytes of a label, NUL included (a suffix is at most 255). */
#define DU_AGG_LABEL_MAX	256

/** du_age_class() - the age class (0 "<1d" ... 6 "older") of time @t
 * at @now; a time in the future is "<1d". */
unsigned int du_age_class(int64_t now, int64_t t);

/** du_agg_init() - keys of @by; no allocation until the first ext. */
void du_agg_init(struct du_agg *a, enum du_by by,
		    enum xbulk_time time, int64_t now, unsigned int blocklog);
/** du_agg_free() - release the ext suffixes (labels from
 * du_agg_label() die with them); not the tables. */
void du_agg_free(struct du_agg *a);

/**
 * du_agg_key() - the group of @e (its bulkstat record, and for ext its
 * name: after e->name_off, or at depth 0 the operand's last component,
 * trailing slashes stripped)
 * Return: 0 or -ENOMEM (a new suffix could not be kept).
 */
int du_agg_key(struct du_agg *a, const struct xbulk_entry *e,
		  uint64_t *key);

/**
 * du_agg_label() - the name of @key for type, ext, age and size class
 * ("file", "c", "(none)", "<7d", "<16K"); NULL for uid, gid and projid,
 * whose names are the caller's (NSS, /etc/projid).
 */
const char *du_agg_label(const struct du_agg *a, uint64_t key);

/** du_agg_add() - count one inode of @key.  Return: 0 or -ENOMEM. */
int du_agg_add(struct du_agg_table *t, const struct du_agg *a,
		  uint64_t key, const struct xfs_bulkstat *bs);
/** du_agg_merge() - add @src's rows into @dst.  Return: 0, -ENOMEM */
int du_agg_merge(struct du_agg_table *dst,
		    const struct du_agg_table *src);
/** du_agg_clear() - empty @t, keeping its memory */
void du_agg_clear(struct du_agg_table *t);
void du_agg_table_free(struct du_agg_table *t);

/**
 * du_agg_sorted() - @t's rows, most disk usage first (then most
 * apparent size, then key), in a new array of @t->rows.count rows (free()
 * it)
 * Return: the array, or NULL with errno ENOMEM (or for an empty table).
 */
struct du_agg_row *du_agg_sorted(const struct du_agg_table *t);

/*
 * Tables per directory down to a depth, over du's counted entries: feed
 * it every xbulk_du_fn call; it calls @fn with the table of each
 * directory at depth <= max_depth (its whole subtree) after the
 * directory's contents, and of a non-directory operand.
 */
typedef int (*du_agg_dir_fn)(void *arg, const struct xbulk_entry *e,
				const struct du_agg_table *t);

struct du_agg_dirs {
	struct du_agg	*agg;
	unsigned int		max_depth;
	du_agg_dir_fn	fn;
	void			*arg;
	struct du_agg_table	total;	/* every operand (du -c) */
	struct du_agg_table	*lvl;	/* one per depth reached, at most
					   max_depth + 1 */
	size_t			nlvl;
};

/** du_agg_dirs_init() - Return: 0 (tables come as depths are reached). */
int du_agg_dirs_init(struct du_agg_dirs *d, struct du_agg *agg,
			unsigned int max_depth, du_agg_dir_fn fn,
			void *arg);
/** du_agg_dirs_charge() - one counted entry.  Return: 0, @fn's error
 * or -ENOMEM. */
int du_agg_dirs_charge(struct du_agg_dirs *d,
			  const struct xbulk_entry *e);
/** du_agg_dirs_free() - release the per-depth tables (not @d->agg). */
void du_agg_dirs_free(struct du_agg_dirs *d);

#endif /* DU_AGG_H */
