/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/names (prefix xbn_: CONTRIBUTING.md).
 *
 * Directory listings (dirread.c): the packed entries of one directory,
 * in the order walks give them, and the reader that makes them.
 */
#ifndef XBULK_NAMES_LISTING_H
#define XBULK_NAMES_LISTING_H

#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct xfs_bulkstat;
struct xbn_store;

/*
 * A listing is the entries of one directory but "." and "..", packed, in
 * the order walks give them: 1 byte name length; 1 byte with d_type in
 * its low 4 bits (DT_* are below 15) and the inode number's length in
 * bytes, minus 1, above; the inode number, little-endian, in as few
 * bytes as it needs (3 or 4 on most filesystems: an inode number is the
 * AG number above the AG's block and inode bits); the name (not
 * NUL-terminated).
 */
#define XBN_ENT_MAX	(2 + 8 + 255)	/* bytes of an entry at most */

static inline unsigned int
xbn_ent_inolen(const uint8_t *e)
{
	return (e[1] >> 4) + 1u;
}

static inline uint64_t
xbn_ent_ino(const uint8_t *e)
{
	uint64_t ino = 0;

	memcpy(&ino, e + 2, xbn_ent_inolen(e));
	return le64toh(ino);
}

static inline unsigned int
xbn_ent_namelen(const uint8_t *e)
{
	return e[0];
}

static inline unsigned int
xbn_ent_dtype(const uint8_t *e)
{
	return e[1] & 15u;
}

/* Give entry @e the type @dt (a DT_* or XBN_DT_FOLDED). */
static inline void
xbn_ent_set_dtype(uint8_t *e, unsigned int dt)
{
	e[1] = (uint8_t)((e[1] & 0xf0u) | dt);
}

static inline const char *
xbn_ent_name(const uint8_t *e)
{
	return (const char *)e + 2 + xbn_ent_inolen(e);
}

/* Bytes of entry @e. */
static inline size_t
xbn_ent_len(const uint8_t *e)
{
	return 2 + xbn_ent_inolen(e) + e[0];
}

static inline const uint8_t *
xbn_ent_next(const uint8_t *e)
{
	return e + xbn_ent_len(e);
}

/* Write the entry of @ino, type @dt, name @name of @nl bytes at @e (room
 * for XBN_ENT_MAX bytes); return its length. */
static inline size_t
xbn_ent_put(uint8_t *e, uint64_t ino, unsigned int dt, const char *name,
	    size_t nl)
{
	unsigned int n = ino >> 8 ? (unsigned int)(71 - __builtin_clzll(ino)) / 8
				  : 1;
	uint64_t le = htole64(ino);

	e[0] = (uint8_t)nl;
	e[1] = (uint8_t)((n - 1) << 4 | dt);
	memcpy(e + 2, &le, n);
	memcpy(e + 2 + n, name, nl);
	return 2 + n + nl;
}

/* The entry's name, NUL-terminated, in @name (256 bytes). */
static inline void
xbn_ent_cname(const uint8_t *e, char *name)
{
	memcpy(name, xbn_ent_name(e), xbn_ent_namelen(e));
	name[xbn_ent_namelen(e)] = '\0';
}

/*
 * gnulib fts_build(): entries are read FTS_MAX_READDIR_ENTRIES at a time
 * and a batch of more than _FTS_INODE_SORT_DIR_ENTRIES_THRESHOLD is sorted
 * by inode number (XFS is not one of the filesystems where
 * dirent_inode_sort_may_be_useful() says no).
 */
#define XBN_FTS_BATCH		100000
#define XBN_FTS_SORT_OVER	10000

/*
 * Bytes readable past a listing's end: walks copy names 16 bytes at a
 * time (a short copy of variable length costs more than the overread).
 */
#define XBN_LIST_SLACK	16

/* Copy a name of @len bytes 16 at a time: @dst has room for that, @src
 * is readable that far (XBN_LIST_SLACK). */
static inline void
xbn_copy_name(char *dst, const char *src, size_t len)
{
	size_t i;

	for (i = 0; i < len; i += 16)
		memcpy(dst + i, src + i, 16);
}

/* Memory for listings: blocks owned by one reader, then by the names. */
struct xbn_lblock {
	struct xbn_lblock	*next;
	size_t			used;
	size_t			cap;
	uint8_t			data[];
};

/*
 * Entries a reader folds into their directory (xbulk_names_opts.fold):
 * an entry of a kept non-directory the hook accepts is summed in the
 * directory's folded and fold_value and left out of its listing.
 */
struct xbn_fold {
	const struct xbn_store	*store;
	bool			(*fn)(void *arg, const struct xfs_bulkstat *bs,
				      uint64_t *value);
	void			*arg;
};

/* One directory reader's buffers. */
struct xbn_reader {
	char			*dbuf;		/* getdents64 */
	size_t			dbuf_size;
	uint8_t			*scratch;	/* listing being read */
	size_t			scratch_cap;
	void			*order;		/* sort keys: ino, offset */
	size_t			order_cap;
	struct xbn_lblock	*blocks;	/* listings made */
	uint64_t		bytes;		/* of blocks */
	struct xbn_spill	*mem;		/* where blocks come from */
	const volatile int	*cancel;
	const struct xbn_fold	*fold;		/* NULL: keep every entry */
	/* the directory is on tmpfs, NFS or CIFS, where fts leaves big
	 * directories in readdir order (gnulib's
	 * dirent_inode_sort_may_be_useful()): a plain walk's */
	bool			no_sort;
	/* each listing in memory of its own (malloc()), which the caller
	 * frees: a plain walk drops it as it leaves the directory */
	bool			own_lists;
};

struct xbn_dir;
struct xbn_spill;

/* A reader whose listing blocks come from @mem.  Return 0 or -ENOMEM. */
int xbn_reader_init(struct xbn_reader *r, struct xbn_spill *mem,
		    const volatile int *cancel);
/* Free the buffers; the listing blocks stay (hand them on first). */
void xbn_reader_fini(struct xbn_reader *r);
/* Free the listing blocks from @b on. */
void xbn_lblocks_free(struct xbn_spill *mem, struct xbn_lblock *b);
/*
 * Read the open directory @fd, which must be @d (its "." says so), into a
 * listing: sets list, listlen, nentries, dotdot, folded, fold_value and
 * the READ or UNREADABLE flag.  Return 0 (also when the kernel could not read it:
 * UNREADABLE), -ESTALE if @fd is another directory, -ENOENT if it was
 * removed meanwhile, -EINTR if cancelled, -ENOMEM or the spill's error
 * (r->mem->err).
 */
int xbn_read_fd(struct xbn_reader *r, int fd, struct xbn_dir *d);
/*
 * Sort a listing's batches as fts does; @buf holds @n entries.  With
 * @folded, entries of type XBN_DT_FOLDED are left out of @dst (@n and
 * the batches count them: fts read them).
 */
int xbn_order_listing(struct xbn_reader *r, uint8_t *dst, const uint8_t *buf,
		      size_t len, uint64_t n, bool folded);

/* The d_type a folded entry gets in the reader's scratch (no DT_*). */
#define XBN_DT_FOLDED	15u

#endif /* XBULK_NAMES_LISTING_H */
