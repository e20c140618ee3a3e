/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/names (prefix xbn_: CONTRIBUTING.md).
 *
 * Names for inodes: what the files of lib/names/ share.
 *
 *   store.c    kept inodes' fields, packed slots, the chunk index
 *   handle.c   XFS handles, open_by_handle_at()
 *   dirread.c  one open directory into a listing, in fts's order
 *   dirs.c     the table of directories the scan found
 *   travel.c   reading them all, top-down, by name, in parallel
 *   build.c    the pipeline: scan, readers, link, mounts, problems
 *   tree.c     parents: linking, re-checks, cycles, paths of directories
 *   mounts.c   our mount and the mounts inside it (mountinfo)
 *   walk.c     walks in find's order, unreached inodes, readlink
 *   inodes.c   every kept inode in inode order with its names (snapshots)
 */
#ifndef XBULK_NAMES_INT_H
#define XBULK_NAMES_INT_H

#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "../base.h"

#define XBN_NONE	UINT32_MAX

/*
 * Fault in the pages of @len bytes at @p at once (MADV_POPULATE_WRITE):
 * the first write to each page of fresh memory otherwise traps one by
 * one, which costs more than the scan's own work on a 128-byte slot (most
 * in a VM).  Best effort.
 */
void xbn_populate(void *p, size_t len);

/* Blocks of xbn_alloc_block() come in multiples of this (a huge page). */
#define XBN_BLOCK_ALIGN		(2U << 20)

/*
 * @len bytes (rounded up to XBN_BLOCK_ALIGN) for a store or listing
 * block, aligned to a huge page, asked to be backed by huge pages
 * (MADV_HUGEPAGE: one fault per 2 MiB instead of 512) and faulted in
 * (xbn_populate()); free() frees it.  NULL without memory.  *@got: the
 * bytes allocated.
 */
void *xbn_alloc_block(size_t len, size_t *got);

/* fdbudget.c: fds this process may still open (RLIMIT_NOFILE less those
 * open now). */
unsigned int xbn_fds_free(void);

/* Has the caller asked to stop? */
static inline bool
xbn_cancelled(const volatile int *cancel)
{
	return cancel && __atomic_load_n(cancel, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------ */
/* Store: one packed slot per kept inode (store.c)                     */
/* ------------------------------------------------------------------ */

/* Every slot starts with this; the asked-for fields follow, packed. */
struct xbn_slot {
	uint64_t	ino;
	uint16_t	mode;
	uint16_t	flags;		/* XBN_SLOT_* */
	uint32_t	aux;		/* directories: index in the directory
					   table; other inodes: bs_gen */
};

enum {
	XBN_SLOT_REACHED	= 1u << 0,	/* xbulk_names_unreached() */
	XBN_SLOT_MOUNT		= 1u << 1,	/* a path of it is covered */
};

/* One copy between a struct xfs_bulkstat and a slot. */
struct xbn_piece {
	uint16_t	src;		/* offset in struct xfs_bulkstat */
	uint16_t	dst;		/* offset in the slot */
	uint16_t	len;		/* 2, 4 or 8 */
};

#define XBN_MAX_PIECES	24

struct xbn_layout {
	uint32_t	slot;		/* bytes per slot, a multiple of 8 */
	unsigned int	npieces;
	struct xbn_piece piece[XBN_MAX_PIECES];
};

/* The slot layout for the XBULK_F_* in @fields. */
void xbn_layout_init(struct xbn_layout *l, uint32_t fields);

/* Copy the layout's fields of @bs into @slot (header not included). */
static inline void
xbn_pack(const struct xbn_layout *l, void *slot, const struct xfs_bulkstat *bs)
{
	const char *s = (const char *)bs;
	char *d = slot;
	unsigned int i;

	for (i = 0; i < l->npieces; i++) {
		const struct xbn_piece *p = &l->piece[i];

		if (p->len == 8)
			memcpy(d + p->dst, s + p->src, 8);
		else if (p->len == 4)
			memcpy(d + p->dst, s + p->src, 4);
		else
			memcpy(d + p->dst, s + p->src, 2);
	}
}

/* The reverse: @slot's fields into @bs (other fields untouched). */
static inline void
xbn_unpack(const struct xbn_layout *l, struct xfs_bulkstat *bs,
	   const void *slot)
{
	const char *s = slot;
	char *d = (char *)bs;
	unsigned int i;

	for (i = 0; i < l->npieces; i++) {
		const struct xbn_piece *p = &l->piece[i];

		if (p->len == 8)
			memcpy(d + p->src, s + p->dst, 8);
		else if (p->len == 4)
			memcpy(d + p->src, s + p->dst, 4);
		else
			memcpy(d + p->src, s + p->dst, 2);
	}
}

struct xbn_block;

/*
 * Slots are appended to arenas; a batch of the scan takes an arena from
 * the pool and gives it back, so threads never share one.
 */
struct xbn_arena {
	struct xbn_arena	*next;		/* in the pool / all arenas */
	struct xbn_block	*blocks;	/* newest first */
	uint64_t		kept;
	uint64_t		dropped;
};

/* One run of slots of one inode chunk, contiguous in a block. */
struct xbn_run {
	uint64_t	chunk;		/* ino >> 6 */
	uint64_t	mask;		/* inodes of the chunk in the run */
	char		*base;		/* slot of the run's first inode */
};

struct xbn_store {
	struct xbn_layout	lay;
	pthread_mutex_t		lock;		/* pool */
	struct xbn_arena	*pool;		/* free arenas */
	struct xbn_arena	*all;		/* once the scan is over */
	struct xbn_run		*runs;		/* hash table on chunk */
	uint64_t		runmask;	/* table size - 1 */
	uint64_t		nruns;
	uint64_t		bytes;		/* blocks allocated */
};

int xbn_store_init(struct xbn_store *s, uint32_t fields);
void xbn_store_free(struct xbn_store *s);
/* Take an arena for one batch (NULL: out of memory) and give it back. */
struct xbn_arena *xbn_arena_get(struct xbn_store *s);
void xbn_arena_put(struct xbn_store *s, struct xbn_arena *a);
/* Room for one more slot (NULL: out of memory). */
struct xbn_slot *xbn_arena_add(struct xbn_store *s, struct xbn_arena *a);
/* After the scan: gather the arenas and build the chunk index. */
int xbn_store_index(struct xbn_store *s, uint64_t *kept, uint64_t *dropped);

static inline uint64_t
xbn_hash64(uint64_t v)
{
	return v * 0x9e3779b97f4a7c15ULL;
}

/* Bits set in @v, without the libgcc call __builtin_popcountll() makes
 * on x86-64 before POPCNT (SWAR, Hacker's Delight 5-1). */
static inline unsigned int
xbn_popcount(uint64_t v)
{
	v -= (v >> 1) & 0x5555555555555555ULL;
	v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (unsigned int)((v * 0x0101010101010101ULL) >> 56);
}

/* The slot of inode @ino, or NULL if it was not kept. */
static inline struct xbn_slot *
xbn_lookup(const struct xbn_store *s, uint64_t ino)
{
	uint64_t chunk = ino >> 6, bit = ino & 63;
	uint64_t h = (xbn_hash64(chunk) >> 20) & s->runmask;

	if (!s->runs)
		return NULL;
	for (;; h = (h + 1) & s->runmask) {
		const struct xbn_run *r = &s->runs[h];

		if (!r->mask)
			return NULL;
		if (r->chunk == chunk && (r->mask >> bit & 1)) {
			uint64_t below = r->mask & ((1ULL << bit) - 1);

			return (struct xbn_slot *)(r->base +
				(size_t)xbn_popcount(below) *
				s->lay.slot);
		}
	}
}

/* Call @fn on every slot (in no order); stops at its first nonzero. */
int xbn_store_each(const struct xbn_store *s,
		   int (*fn)(void *arg, struct xbn_slot *slot), void *arg);

/* ------------------------------------------------------------------ */
/* XFS handles (handle.c)                                              */
/* ------------------------------------------------------------------ */

/* XFS's handle of an inode: FILEID_INO32_GEN | XFS_FILEID_TYPE_64FLAG,
 * the 64-bit inode number then the 32-bit generation (host order). */
#define XBN_HANDLE_TYPE		0x81
#define XBN_HANDLE_BYTES	12

union xbn_handle {
	struct file_handle	fh;
	char			buf[sizeof(struct file_handle) +
				    XBN_HANDLE_BYTES];
};

void xbn_handle_pack(union xbn_handle *h, uint64_t ino, uint32_t gen);
/* open_by_handle_at(@mfd, handle, @flags | O_CLOEXEC): fd or -errno. */
int xbn_open_handle(int mfd, uint64_t ino, uint32_t gen, int flags);
/* Open directory @ino for reading, O_NOATIME: fd or -errno. */
int xbn_open_dir(int mfd, uint64_t ino, uint32_t gen);
struct xbulk_names;
/*
 * An O_PATH fd of directory @p (one read already, so its dentry is
 * connected and the handle costs no search) and, in @name (256 bytes),
 * the name of its entry at @off.  Return the fd or -errno.
 */
int xbn_open_parent(const struct xbulk_names *nm, uint32_t p, uint64_t off,
		    char *name);

/* ------------------------------------------------------------------ */
/* Directory listings (dirread.c)                                      */
/* ------------------------------------------------------------------ */

/*
 * A listing is the entries of one directory but "." and "..", packed:
 * 8 bytes inode number (host order), 1 byte name length, 1 byte d_type,
 * the name (not NUL-terminated); in the order walks give them.
 */
#define XBN_ENT_HDR	10

static inline uint64_t
xbn_ent_ino(const uint8_t *e)
{
	uint64_t ino;

	memcpy(&ino, e, 8);
	return ino;
}

static inline unsigned int
xbn_ent_namelen(const uint8_t *e)
{
	return e[8];
}

static inline unsigned int
xbn_ent_dtype(const uint8_t *e)
{
	return e[9];
}

static inline const char *
xbn_ent_name(const uint8_t *e)
{
	return (const char *)e + XBN_ENT_HDR;
}

static inline const uint8_t *
xbn_ent_next(const uint8_t *e)
{
	return e + XBN_ENT_HDR + e[8];
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
	const volatile int	*cancel;
};

struct xbn_dir;

int xbn_reader_init(struct xbn_reader *r, const volatile int *cancel);
/* Free the buffers; the listing blocks stay (hand them on first). */
void xbn_reader_fini(struct xbn_reader *r);
/*
 * Read the open directory @fd, which must be @d (its "." says so), into a
 * listing: sets list, listlen, nentries, dotdot and the READ or
 * UNREADABLE flag.  Return 0 (also when the kernel could not read it:
 * UNREADABLE), -ESTALE if @fd is another directory, -ENOENT if it was
 * removed meanwhile, -EINTR if cancelled, -ENOMEM.
 */
int xbn_read_fd(struct xbn_reader *r, int fd, struct xbn_dir *d);
/* Sort a listing's batches as fts does; @buf holds @n entries. */
int xbn_order_listing(struct xbn_reader *r, uint8_t *dst, const uint8_t *buf,
		      size_t len, uint64_t n);

/* ------------------------------------------------------------------ */
/* The directory table (dirs.c)                                        */
/* ------------------------------------------------------------------ */

struct xbn_dir {
	uint64_t	ino;
	uint64_t	dotdot;		/* ".." as read, 0 if unknown */
	const uint8_t	*list;		/* listing (NULL: none) */
	uint64_t	listlen;	/* bytes */
	uint64_t	entry_off;	/* accepted entry in the parent's
					   listing */
	uint64_t	nentries;
	uint32_t	gen;
	uint32_t	parent;		/* accepted parent, or XBN_NONE */
	uint32_t	nlisters;	/* entries naming it */
	uint32_t	mark;		/* scratch of one pass */
	uint32_t	mount;		/* index in names->mounts */
	uint32_t	claimed;	/* by a reader (atomic) */
	uint16_t	flags;		/* XBN_DIR_* */
	int		err;		/* with UNREADABLE */
};

enum {
	XBN_DIR_READ		= 1u << 0,	/* listing read whole */
	XBN_DIR_GONE		= 1u << 1,	/* its name led nowhere: removed
						   or moved during the scan */
	XBN_DIR_UNREADABLE	= 1u << 2,	/* err; maybe a partial list */
	XBN_DIR_MOUNT		= 1u << 3,	/* covered by a mount */
	XBN_DIR_MOVED		= 1u << 4,	/* settled by a re-check */
};

#define XBN_DIR_SHIFT	12		/* directories per block: 4096 */
#define XBN_DIR_BLOCKS	(1u << 18)	/* 2^30 directories at most */

/* Directories found by the scan. */
struct xbn_dirs {
	struct xbn_dir		**blk;
	uint32_t		n;		/* registered */
	pthread_mutex_t		lock;		/* n, blk[] */
	uint64_t		bytes;
};

static inline struct xbn_dir *
xbn_dir(const struct xbn_dirs *t, uint32_t i)
{
	return &t->blk[i >> XBN_DIR_SHIFT][i & ((1u << XBN_DIR_SHIFT) - 1)];
}

int xbn_dirs_init(struct xbn_dirs *t);
void xbn_dirs_free(struct xbn_dirs *t);
/* The path of directory @d from the mount point, or NULL if no accepted
 * parent chain leads to the top (or no memory); free() it. */
char *xbn_dir_path(const struct xbulk_names *nm, uint32_t d);
/*
 * Register the @n directories among @bs[0..@nbs) (mode S_IFDIR); their
 * indices are *@first, *@first + 1... in the order of @bs.
 * Return 0 or -ENOMEM.
 */
int xbn_dirs_add(struct xbn_dirs *t, const struct xfs_bulkstat *bs,
		 uint32_t nbs, uint32_t n, uint32_t *first);

/* An entry naming directory @c: at @off of directory @p's listing. */
struct xbn_edge {
	uint32_t	c;
	uint32_t	p;
	uint64_t	off;
};

/*
 * What the listings say of the directories, gathered as they are read:
 * each directory's first lister is its parent (xbn_dir.parent), later
 * ones are kept here; names of directories the scan did not see are
 * counted (stale).
 */
struct xbn_links {
	struct xbn_edge	*v;
	size_t		n;
	size_t		cap;
	uint64_t	stale;
};

/*
 * tree.c: link the entries of directory @p's listing that name
 * directories (xbn_dir.nlisters, .parent, .entry_off; a second lister to
 * @links).  Readers call it at once, each with its own @links: which
 * lister comes first is then a matter of timing, so a directory with
 * two is always re-checked, its edges in (parent, offset) order.
 * Return 0 or -ENOMEM.
 */
int xbn_link_listing(struct xbulk_names *nm, uint32_t p,
		     struct xbn_links *links);

/*
 * travel.c: read every directory a path from the filesystem's root
 * reaches, top-down with @threads readers: the root by handle, every
 * other directory by name from its parent (see the file), and link each
 * listing read into @links (xbn_link_listing()).  Return 0, -EINTR or
 * -ENOMEM.
 */
int xbn_travel(struct xbulk_names *nm, unsigned int threads,
	       struct xbn_links *links);

/* ------------------------------------------------------------------ */
/* Mounts (mounts.c)                                                   */
/* ------------------------------------------------------------------ */

/* A mount on a path inside ours (find -xdev shows it, as statx does). */
struct xbn_mount {
	char			*path;		/* from our top: "a/b" */
	uint32_t		parent;		/* directory holding it */
	uint64_t		entry_off;	/* its entry there */
	uint64_t		ino;		/* the covered inode */
	struct xfs_bulkstat	bs;		/* what statx says of it */
	uint64_t		dev;		/* its st_dev */
	uint64_t		nentries;	/* a directory's, as -empty
						   reads them; 1 if unread */
	int			err;		/* reading them failed */
	char			fstype[64];	/* mountinfo's type */
};

/* Our mount, from /proc/self/mountinfo. */
struct xbn_mountinfo {
	uint64_t	mnt_id;
	char		*mountpoint;	/* where it is mounted */
	char		*root;		/* its top in the filesystem */
	char		**inside;	/* mount points of child mounts,
					   relative to mountpoint */
	size_t		ninside;
};

/* Undo mountinfo's octal escapes (\040 and the like) in place. */
void xbn_unescape(char *s);
/* Parse one mountinfo line into its fields (modifies @line).  Return 0 or
 * -EINVAL. */
int xbn_mountinfo_line(char *line, uint64_t *id, uint64_t *parent,
		       char **root, char **mountpoint);
/* @child's path below @mp, or NULL if it is not below it. */
const char *xbn_path_below(const char *mp, const char *child);
/* Find mount @mnt_id and the mounts on it.  Return 0 or -errno. */
int xbn_mountinfo_read(struct xbn_mountinfo *mi, uint64_t mnt_id);
void xbn_mountinfo_free(struct xbn_mountinfo *mi);

/* ------------------------------------------------------------------ */
/* The names (build.c and the rest)                                    */
/* ------------------------------------------------------------------ */

/* An inode bulkstat could not read. */
struct xbn_bad {
	uint64_t	ino;
	int		err;
	uint32_t	dir;		/* where a name of it is, or XBN_NONE */
	uint64_t	off;
};

struct xbulk_names {
	struct xbulk_fs		*fs;
	int			mfd;		/* fs->fd */
	uint64_t		mnt_id;
	dev_t			dev;
	uint32_t		fields;
	bool			filtered;	/* a keep filter ran */
	struct xbn_store	store;
	struct xbn_dirs		dirs;
	struct xbn_lblock	*lists;		/* every listing's memory */
	uint64_t		list_bytes;
	uint32_t		root;		/* the filesystem's root dir */
	uint32_t		top;		/* the mount's top dir */
	char			*mountpoint;
	struct xbn_mount	*mounts;
	size_t			nmounts;
	struct xbn_bad		*bad;		/* sorted by ino */
	size_t			nbad;
	struct xbulk_ag_fault	*faults;	/* AGs the scan gave up */
	size_t			nfaults;
	struct xbn_problem	*problems;
	size_t			nproblems;
	size_t			problems_cap;
	uint32_t		pass;		/* for xbn_dir.mark */
	const volatile int	*cancel;
	/* The walk's path buffer and stack, kept between walks */
	char			*path;
	size_t			path_cap;
	void			*stack;
	size_t			stack_cap;
	/* The walk under way (walk.c), for xbulk_names_dir_fd(), and the
	 * directory it last opened (-1: none) */
	struct xbn_walk		*walk;
	int			dir_fd;
	uint64_t		dir_fd_ino;
	uint32_t		dir_fd_gen;
	/* After xbulk_names_changed(): walks read and stat live (live.c) */
	bool			live;
	bool			live_ready;	/* live_reader set up */
	struct xbn_reader	live_reader;
	struct xfs_bulkstat	restat_bs;
	char			live_fstype[64];
};

/* ------------------------------------------------------------------ */
/* Walks (walk.c): a directory being listed, and the walk under way     */
/* ------------------------------------------------------------------ */
struct xbn_frame {
	uint32_t	dir;		/* XBN_NONE: read live */
	uint32_t	depth;		/* of the directory */
	const uint8_t	*e;		/* next entry */
	const uint8_t	*end;
	size_t		plen;		/* its path's length */
	size_t		name_off;	/* its entry's name_off */
	/* a directory read live: its entry as the walk reached it */
	uint32_t	flags;
	uint32_t	gen;		/* its generation, when read */
	uint64_t	dino;
	struct xfs_bulkstat bs;
};

struct xbn_walk {
	struct xbulk_names	*nm;
	xbulk_walk_fn		fn;
	void			*arg;
	bool			post;
	bool			follow;		/* XBULK_WALK_FOLLOW */
	uint32_t		mark;
	uint64_t		count;
	size_t			sp;		/* frames in use */
	struct xfs_bulkstat	bs;		/* the store's fields */
	struct xfs_bulkstat	bad;		/* a bad inode: ino, type */
	const char		*start;		/* the operand */
	size_t			startlen;
};

/* live.c */
/*
 * lstat() entry @e (stat() with @follow) now into @bs
 * (xbulk_bulkstat_from_statx(), with the XFS fields the build kept read
 * by bulkstat when it is on this filesystem) and @stx.  @e is reached
 * as xbn_entry_at() says.  Return 0 or -errno.
 */
/*
 * Where the *at() calls reach entry @e: below the operand, in its
 * directory as the walk reached it (*@at: xbulk_names_dir_fd(), the
 * walk's; *@rel its name), as fts reaches it, so that a directory above
 * renamed or replaced by a symbolic link since changes nothing; an
 * operand, or outside a walk, by its path (xbl_path_at(); *@own: the
 * caller closes *@at if it is not AT_FDCWD).  Return 0 or -errno
 * (-ENOENT: its directory is gone).
 */
int xbn_entry_at(struct xbulk_names *nm, const struct xbulk_entry *e,
		 int *at, const char **rel, bool *own);
int xbn_live_stat(struct xbulk_names *nm, const struct xbulk_entry *e,
		  bool follow, struct xfs_bulkstat *bs, struct statx *stx);
/* Is @stx on the scanned mount (not a mount point inside it)? */
bool xbn_live_ours(const struct xbulk_names *nm, const struct statx *stx);
/* The filesystem type of @stx's mount ("xfs" for ours). */
const char *xbn_live_fstype(struct xbulk_names *nm, const struct statx *stx);
/*
 * Read directory @e (inode @ino: a directory there now that is another
 * one is -ENOENT, as fts says; a symbolic link to one only if @follow:
 * an operand under -H) into a listing in fts's order, and its generation
 * into *@gen.  Return 0 or -errno of opening or reading it.
 */
int xbn_live_read(struct xbulk_names *nm, const struct xbulk_entry *e,
		  bool follow, uint64_t ino, const uint8_t **list,
		  uint64_t *len, uint64_t *n, uint32_t *gen);
/* mounts.c: the type of mount @mnt_id, as mountinfo names it. */
void xbn_mount_fstype(uint64_t mnt_id, char *buf, size_t size);

/* A problem found while building, reported once paths are known. */
struct xbn_problem {
	enum xbulk_names_problem_kind	kind;
	int				err;
	uint32_t			dir;	/* the directory concerned */
	uint32_t			pdir;	/* DIR_LINK: the lister */
	uint64_t			off;	/* DIR_LINK: its entry */
	uint64_t			ino;	/* DOTDOT: ".."; BAD_INODE */
};

/* Listers of one directory looked at by a re-check; more are damage that
 * is not followed, and not named. */
#define XBN_MAX_EDGES	64

/*
 * recheck.c: ask the kernel what directory @c's @edges and its ".." say
 * now; set its accepted parent, note damage, count churn in @r.
 * Return 0 or -ENOMEM.
 */
int xbn_recheck(struct xbulk_names *nm, struct xbulk_names_result *r,
		uint32_t c, const struct xbn_edge *edges, size_t nedges);

/*
 * problems.c: count what the directories say in @r and report every
 * problem through @o->problem, with its path.  Return 0.
 */
int xbn_report_all(struct xbulk_names *nm, const struct xbulk_names_opts *o,
		   struct xbulk_names_result *r);
/* Append to nm->problems; -ENOMEM. */
int xbn_problem_add(struct xbulk_names *nm, const struct xbn_problem *p);

/* tree.c */
/*
 * After the reads (@links from them: xbn_link_listing()): settle every
 * directory on the one parent walks take it under, re-check (re-read,
 * "..") those seen under two parents, with a stale "..", or in a cycle,
 * and note the damage found in nm->problems.  Fills the churn and damage
 * counters of @r.  Return 0, -EINTR or -ENOMEM.
 */
int xbn_tree_build(struct xbulk_names *nm, struct xbulk_names_result *r,
		   struct xbn_links *links);
/*
 * Follow @rel ("a/b/c") from directory @from by names: *@dir and *@off
 * are the directory holding the last name and its entry.  Return 0 or
 * -ENOENT.
 */
int xbn_resolve(const struct xbulk_names *nm, uint32_t from, const char *rel,
		uint32_t *dir, uint64_t *off);
/* The directory slot @slot names, or NULL if it is none. */
static inline struct xbn_dir *
xbn_slot_dir(const struct xbulk_names *nm, const struct xbn_slot *slot)
{
	return (slot->mode & 0170000) == 0040000 ? xbn_dir(&nm->dirs, slot->aux)
						 : NULL;
}

/* Is the entry at @off of directory @p the one directory @c hangs on? */
static inline bool
xbn_is_edge(const struct xbn_dir *c, uint32_t p, uint64_t off)
{
	return c->parent == p && c->entry_off == off;
}

/* The entry named @name (@len bytes) in @d's listing, or NULL. */
const uint8_t *xbn_find_name(const struct xbn_dir *d, const char *name,
			     size_t len);

/* mounts.c: mark the mounts inside ours in the tree. */
int xbn_mounts_resolve(struct xbulk_names *nm, struct xbn_mountinfo *mi);

/*
 * tree.c: mark (xbn_dir.mark = @mark) every directory a walk from the top
 * enters, and set XBN_SLOT_REACHED on every inode it shows (not those
 * under mount points).  @stack holds a directory index per directory.
 */
void xbn_reach(struct xbulk_names *nm, uint32_t mark, uint32_t *stack);
/* A bad inode's error, or 0. */
int xbn_bad_err(const struct xbulk_names *nm, uint64_t ino);

/* ------------------------------------------------------------------ */
/* Inodes in inode order with their names (inodes.c)                   */
/* ------------------------------------------------------------------ */

/* One name of an inode: the entry @name (@namelen bytes, not
 * NUL-terminated) of directory @parent. */
struct xbn_link {
	uint64_t	parent;
	const char	*name;
	uint32_t	namelen;
};

/* What xbn_inodes_next() hands out; valid until the next call. */
struct xbn_inode {
	uint64_t		ino;
	uint32_t		gen;
	uint32_t		mode;
	bool			top;		/* the mount's top directory */
	const struct xbn_link	*links;		/* in the order walks meet
						   them */
	size_t			nlinks;		/* 0: no name reaches it */
};

struct xbn_inodes;

/*
 * A cursor over every kept inode of @nm, in inode order, each with the
 * names a walk from the mount's top would show (a directory: its
 * accepted entry; the top: none).  Return 0, -EINTR, -ENOMEM, -EOVERFLOW
 * (a listing of more than 4 GiB).
 */
int xbn_inodes_open(struct xbulk_names *nm, struct xbn_inodes **it);
/* 1 and *@in set, 0 at the end, -ENOMEM, -EPROTO (out of order). */
int xbn_inodes_next(struct xbn_inodes *it, const struct xbn_inode **in);
/* The store's fields of the inode next() returned last (others 0). */
void xbn_inodes_fill(const struct xbn_inodes *it, struct xfs_bulkstat *bs);
/* Back to the first inode. */
void xbn_inodes_rewind(struct xbn_inodes *it);
void xbn_inodes_free(struct xbn_inodes *it);

#endif /* XBULK_NAMES_INT_H */
