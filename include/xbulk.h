/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libxbulk: walk every inode of a mounted XFS filesystem through the
 * kernel's bulk ioctls (bulkstat, inumbers) and format the records.
 *
 * One record type flows through the library: the kernel's v5
 * struct xfs_bulkstat and struct xfs_inumbers from <xfs/xfs.h>.  Results
 * of the v1 ioctls are converted into them once, in lib/ioctl.c.
 *
 * Every function that can fail returns 0 or a negative errno; nothing in
 * the library prints.
 */
#ifndef XBULK_H
#define XBULK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xfs/xfs.h>

#define XBULK_VERSION_STRING	"0.1.0"

/* Inodes per inode chunk (one inobt record, one inumbers record). */
#define XBULK_INODES_PER_CHUNK	64

/* ------------------------------------------------------------------ */
/* Filesystem handle (lib/fs.c)                                        */
/* ------------------------------------------------------------------ */

/* Which generation of the bulk ioctls a handle uses. */
enum xbulk_abi {
	XBULK_ABI_AUTO = 0,	/* v5, falling back to v1 on ENOTTY/EOPNOTSUPP */
	XBULK_ABI_V1 = 1,	/* XFS_IOC_FSBULKSTAT, _SINGLE, FSINUMBERS */
	XBULK_ABI_V5 = 5,	/* XFS_IOC_BULKSTAT, XFS_IOC_INUMBERS */
};

struct xbulk_fs {
	int			fd;		/* read-only fd on the fs */
	struct xfs_fsop_geom	geom;		/* XFS_IOC_FSGEOMETRY */
	unsigned int		blocklog;	/* log2(block size) */
	unsigned int		agino_log;	/* bits of agino in an ino */
	/*
	 * ABI in use.  AUTO until the first call settles it; the fallback
	 * may flip it to V1 at run time (atomically: threads share it).
	 */
	int			abi;
	bool			abi_forced;	/* caller chose; never fall back */
	/* Header flags newer kernels want (XFS_BULK_IREQ_NREXT64) */
	uint32_t		extra_flags;
};

/**
 * xbulk_fs_open() - open a mounted XFS filesystem for bulk scanning
 * @fs:   handle to fill
 * @path: any regular file or directory on the filesystem
 * @abi:  XBULK_ABI_AUTO, _V1 or _V5 (the latter two are forced)
 *
 * Opens @path read-only, checks with statfs() that it is XFS and reads the
 * geometry.  No capability is needed for this; the scans need
 * CAP_SYS_ADMIN.
 *
 * Return: 0, -ENOENT/-EACCES/... from open(), -EINVAL if @path is neither a
 * regular file nor a directory, -ENOTTY if it is not on XFS, or the
 * negative errno of XFS_IOC_FSGEOMETRY.
 */
int xbulk_fs_open(struct xbulk_fs *fs, const char *path, enum xbulk_abi abi);

/** xbulk_fs_close() - close the handle's fd.  Safe on a closed handle. */
void xbulk_fs_close(struct xbulk_fs *fs);

/** xbulk_ino_to_agno() - AG number of inode @ino (libfrog cvt_ino_to_agno) */
static inline uint32_t
xbulk_ino_to_agno(const struct xbulk_fs *fs, uint64_t ino)
{
	return (uint32_t)(ino >> fs->agino_log);
}

/** xbulk_agino_to_ino() - inode number of @agino in AG @agno */
static inline uint64_t
xbulk_agino_to_ino(const struct xbulk_fs *fs, uint32_t agno, uint32_t agino)
{
	return ((uint64_t)agno << fs->agino_log) | agino;
}

/* ------------------------------------------------------------------ */
/* Bulk ioctls with the v5/v1 fallback (lib/ioctl.c)                   */
/* ------------------------------------------------------------------ */

/**
 * xbulk_bulkstat_req_alloc() - allocate a bulkstat request for @icount
 * records (XFS_BULKSTAT_REQ_SIZE(@icount) bytes, zeroed), header set to
 * start at inode @startino.
 *
 * Return: the request (free() it), or NULL with errno ENOMEM.
 */
struct xfs_bulkstat_req *xbulk_bulkstat_req_alloc(uint32_t icount,
						  uint64_t startino);

/** xbulk_inumbers_req_alloc() - the same for an inumbers request. */
struct xfs_inumbers_req *xbulk_inumbers_req_alloc(uint32_t icount,
						  uint64_t startino);

/**
 * xbulk_bulkstat() - one XFS_IOC_BULKSTAT call (or its v1 emulation)
 * @fs:  handle
 * @req: request; in: hdr.ino (first inode to consider, inclusive),
 *       hdr.icount, hdr.flags (XFS_BULK_IREQ_AGNO with hdr.agno);
 *       out: hdr.ocount records, hdr.ino = next inode to ask for.
 *
 * Adds XFS_BULK_IREQ_NREXT64 when the geometry has large extent counters
 * (and drops it for good if the kernel rejects it with EINVAL).  The data
 * fork extent count is always in bs_extents64, bs_extents is 0 (as
 * xfsprogs 6.1 presents it, whichever ioctl and flag gave it), and
 * bs_cowextsize_blks is 0 unless FS_XFLAG_COWEXTSIZE is set (the kernel
 * leaves a stale value there; xfs_io prints it).  v1
 * results are converted to struct xfs_bulkstat in place, with the same
 * cursor semantics as xfsprogs' libfrog emulation, so that xfs_io's -d
 * output can be reproduced.  hdr.ocount == 0 is the only end of scan.
 *
 * Return: 0; -EPERM without CAP_SYS_ADMIN; -EINVAL for a bad header
 * (AG out of range, ino in an earlier AG than hdr.agno); -EUCLEAN,
 * -EBADMSG or -EIO for a corrupt inode (the kernel returns the records
 * before it first, then fails on the next call); -EIO after a shutdown.
 */
int xbulk_bulkstat(struct xbulk_fs *fs, struct xfs_bulkstat_req *req);

/**
 * xbulk_inumbers() - one XFS_IOC_INUMBERS call (or XFS_IOC_FSINUMBERS):
 * one struct xfs_inumbers per allocated inode chunk; same cursor and
 * errors as xbulk_bulkstat().
 */
int xbulk_inumbers(struct xbulk_fs *fs, struct xfs_inumbers_req *req);

/**
 * xbulk_bulkstat_single() - stat exactly inode @ino
 * @ino:   inode number, or XFS_BULK_IREQ_SPECIAL_ROOT with @flags
 *         XFS_BULK_IREQ_SPECIAL
 * @flags: 0 or XFS_BULK_IREQ_SPECIAL
 * @bs:    result
 *
 * v5: a BULKSTAT of one record, which returns the next allocated inode at
 * or after @ino; unlike xfs_io, a record for another inode is reported as
 * -ENOENT.  v1: XFS_IOC_FSBULKSTAT_SINGLE (exact lookup; the kernel
 * answers EINVAL for a free or internal inode, passed on as -ENOENT).
 *
 * Return: 0, -ENOENT (@ino is not an allocated, user-visible inode),
 * -EOPNOTSUPP (special inode asked of the v1 ABI), or as xbulk_bulkstat().
 */
int xbulk_bulkstat_single(struct xbulk_fs *fs, uint64_t ino, uint32_t flags,
			  struct xfs_bulkstat *bs);

/* ------------------------------------------------------------------ */
/* v1 -> v5 record conversion (lib/convert.c)                          */
/* ------------------------------------------------------------------ */

/**
 * xbulk_bstat_to_bulkstat() - convert a v1 record to v5, as libfrog does
 * @blocklog: log2 of the fs block size (v1 extent size hints are bytes,
 *            v5 ones blocks)
 *
 * Fields v1 lacks are 0 (btime); bs_version is 1; v1's extent count goes
 * to bs_extents64 (bs_extents stays 0), as xfsprogs 6.1 does.  @bs may
 * not overlap @bs1.
 */
void xbulk_bstat_to_bulkstat(struct xfs_bulkstat *bs,
			     const struct xfs_bstat *bs1,
			     unsigned int blocklog);

/** xbulk_inogrp_to_inumbers() - convert a v1 inode group (xi_version 1) */
void xbulk_inogrp_to_inumbers(struct xfs_inumbers *xi,
			      const struct xfs_inogrp *ig);

/* ------------------------------------------------------------------ */
/* Text formatter, xfs_io 6.1 byte for byte (lib/format_text.c)        */
/* ------------------------------------------------------------------ */

/* Most bytes one bulkstat record can take as text (all fields at max). */
#define XBULK_BULKSTAT_TEXT_MAX	1024
/* Most bytes one inumbers record can take as text. */
#define XBULK_INUMBERS_TEXT_MAX	128

/**
 * xbulk_format_bulkstat_text() - xfs_io's dump_bulkstat() of one record
 * @dst: at least XBULK_BULKSTAT_TEXT_MAX bytes; not NUL-terminated
 *
 * Return: bytes written.
 */
size_t xbulk_format_bulkstat_text(char *dst, const struct xfs_bulkstat *bs);

/** xbulk_format_inumbers_text() - xfs_io's dump_inumbers() of one record */
size_t xbulk_format_inumbers_text(char *dst, const struct xfs_inumbers *xi);

/* ------------------------------------------------------------------ */
/* JSON Lines and CSV formatters (lib/format_jsonl.c, lib/format_csv.c) */
/* Schemas: docs/formats.md.  Same contract as the text formatter: the  */
/* caller's buffer holds at least the _MAX bytes; return bytes written. */
/* ------------------------------------------------------------------ */

#define XBULK_BULKSTAT_JSONL_MAX	4096
#define XBULK_INUMBERS_JSONL_MAX	512
#define XBULK_BULKSTAT_CSV_MAX		2048
#define XBULK_INUMBERS_CSV_MAX		256

/** xbulk_format_bulkstat_jsonl() - one JSON object and a newline */
size_t xbulk_format_bulkstat_jsonl(char *dst, const struct xfs_bulkstat *bs);
/** xbulk_format_inumbers_jsonl() - one JSON object and a newline */
size_t xbulk_format_inumbers_jsonl(char *dst, const struct xfs_inumbers *xi);
/** xbulk_format_bulkstat_csv() - one RFC 4180 row (CRLF-terminated) */
size_t xbulk_format_bulkstat_csv(char *dst, const struct xfs_bulkstat *bs);
/** xbulk_format_inumbers_csv() - one RFC 4180 row (CRLF-terminated) */
size_t xbulk_format_inumbers_csv(char *dst, const struct xfs_inumbers *xi);
/* The CSV header rows (with their CRLF), column names as in xfs_io. */
extern const char xbulk_bulkstat_csv_header[];
extern const char xbulk_inumbers_csv_header[];

/* ------------------------------------------------------------------ */
/* Output buffer (lib/outbuf.c)                                        */
/* ------------------------------------------------------------------ */

/*
 * A byte buffer that formatters append records to.  When the room left is
 * less than a record can take it is flushed: written to @fd with one
 * write(), or, when @flush is set, handed to that hook (the parallel
 * engine uses it to queue the buffer for in-order writing).
 */
struct xbulk_out {
	char	*buf;
	size_t	len;	/* bytes held */
	size_t	cap;	/* bytes allocated */
	int	fd;	/* where the default flush writes */
	int	(*flush)(struct xbulk_out *out);	/* NULL: write to fd */
	void	*priv;	/* for @flush */
};

/**
 * xbulk_out_init() - allocate @cap bytes of buffer writing to @fd
 * Return: 0 or -ENOMEM.
 */
int xbulk_out_init(struct xbulk_out *out, int fd, size_t cap);

/** xbulk_out_free() - release the buffer (without flushing). */
void xbulk_out_free(struct xbulk_out *out);

/**
 * xbulk_out_flush() - write all held bytes to the fd (retrying short
 * writes and EINTR) and empty the buffer, or call the flush hook.
 * Return: 0; -EPIPE if the reader went away; -ENOSPC, -EIO, -EBADF...
 */
int xbulk_out_flush(struct xbulk_out *out);

/**
 * xbulk_out_room() - make room for @need bytes, flushing if needed
 * Return: where to append (then add the bytes used to out->len), or NULL
 * with the flush error in *@err.
 */
static inline char *
xbulk_out_room(struct xbulk_out *out, size_t need, int *err)
{
	if (out->cap - out->len < need) {
		*err = xbulk_out_flush(out);
		if (*err)
			return NULL;
	}
	return out->buf + out->len;
}

/* ------------------------------------------------------------------ */
/* Scan engine (lib/scan.c)                                            */
/* ------------------------------------------------------------------ */

enum xbulk_kind {
	XBULK_KIND_BULKSTAT,
	XBULK_KIND_INUMBERS,
};

/*
 * Called after every ioctl of a scan, the last empty one included.
 * @out:    where to append the batch's output (xbulk_out_room())
 * @hdr:    the request header as the kernel left it (cursor, ocount)
 * @recs:   struct xfs_bulkstat[] or struct xfs_inumbers[]
 * @nrecs:  records to emit: those of the batch inside the scan's range
 * Return 0 to go on, or a negative errno to stop the scan with it.
 * With several threads it is called from all of them at once, each with
 * its own @out: it must not touch shared state without locking.
 */
typedef int (*xbulk_batch_fn)(void *arg, struct xbulk_out *out,
			      const struct xfs_bulk_ireq *hdr,
			      const void *recs, uint32_t nrecs);

/*
 * Called for each inode the kernel could not read (@err: -EUCLEAN for a
 * corrupt inode, -EBADMSG for a bad checksum, -EIO for a read error) when
 * the scan steps past it.  Called from any worker thread.
 */
typedef void (*xbulk_bad_inode_fn)(void *arg, uint64_t ino, int err);

struct xbulk_scan {
	enum xbulk_kind	kind;
	uint64_t	startino;	/* first inode (inclusive) */
	uint64_t	endino;		/* last inode (inclusive); UINT64_MAX */
	bool		has_agno;	/* only AG @agno */
	uint32_t	agno;
	uint32_t	batch;		/* most records per ioctl (icount) */
	unsigned int	threads;	/* 0 or 1: serial, as xfs_io; N: N
					   workers, same output */
	int		out_fd;		/* where the output goes */
	xbulk_batch_fn	batch_fn;
	/*
	 * NULL: a bulkstat call that fails on an inode ends the scan (as
	 * xfs_io).  Set: the scan reports the inode and goes on after it.
	 */
	xbulk_bad_inode_fn bad_inode_fn;
	void		*arg;		/* for batch_fn and bad_inode_fn */
	/*
	 * Optional: counters the scan keeps up to date while it runs (with
	 * atomic adds), for progress displays on another thread.
	 */
	struct xbulk_scan_live *live;
	/*
	 * Optional: once *cancel is nonzero (a signal handler may set it)
	 * the scan stops within about 100 ms: no new ioctl, and the output
	 * ends after the last whole record written.
	 */
	const volatile int *cancel;
};

/* Live counters of a running scan; read them with __atomic_load_n(). */
struct xbulk_scan_live {
	uint64_t	records;	/* records handed to batch_fn */
	uint64_t	calls;		/* ioctls issued */
};

/* What stopped a scan early. */
enum xbulk_scan_fail {
	XBULK_SCAN_OK = 0,
	XBULK_SCAN_FAIL_IOCTL,		/* a bulkstat/inumbers call */
	XBULK_SCAN_FAIL_OUTPUT,		/* writing to out_fd */
	XBULK_SCAN_FAIL_BATCH,		/* batch_fn's own error */
	XBULK_SCAN_FAIL_SETUP,		/* memory, threads */
	XBULK_SCAN_CANCELLED,		/* *cancel was set */
};

struct xbulk_scan_result {
	enum xbulk_scan_fail	fail;
	int			err;		/* negative errno, or 0 */
	uint64_t		records;	/* records handed to batch_fn */
	uint64_t		calls;		/* ioctls issued */
	unsigned int		threads;	/* workers actually used */
	uint64_t		units;		/* work units (parallel scan) */
	uint64_t		bad_inodes;	/* stepped past (bad_inode_fn) */
};

/**
 * xbulk_scan_run() - walk the scan's inode range and emit it in order
 *
 * Serial (threads <= 1): bulkstat or inumbers calls of @scan->batch
 * records from startino until the kernel returns no records or the cursor
 * passes endino (no call is issued past endino, unlike xfs_io); batch_fn
 * sees every call, as xfs_io's -d does.
 *
 * Parallel (threads > 1): an inumbers pass splits the range into work
 * units of whole inode chunks balanced by allocated-inode count; workers
 * bulkstat one unit at a time, asking for exactly its inodes; their output
 * is written in inode order, so it is the same bytes as the serial scan's.
 * Memory stays bounded (a pool of output buffers) however slow out_fd is.
 * Inodes created or removed during the scan never cause a duplicate, an
 * endless loop or a missed inode that existed for the whole scan.
 *
 * A bulkstat call that fails on one inode (corrupt, bad checksum, read
 * error) makes the kernel return the records before it and then fail the
 * next call; with bad_inode_fn set the scan finds that inode (the first
 * allocated one at the cursor, from the inobt), reports it and goes on
 * after it.  EIO while the filesystem's own inode can't be read either
 * (a shutdown) ends the scan.
 *
 * Everything before a failure has been written to out_fd when it returns.
 * Return: 0, or the negative errno also in @res->err (@res->fail says
 * where it came from): -EINVAL (XBULK_SCAN_FAIL_SETUP) for batch 0 or,
 * with has_agno, a startino in an earlier AG, as the kernel would.
 */
int xbulk_scan_run(struct xbulk_fs *fs, const struct xbulk_scan *scan,
		   struct xbulk_scan_result *res);

/* ------------------------------------------------------------------ */
/* Counters around a scan (lib/stats.c)                                */
/* ------------------------------------------------------------------ */

/*
 * What the kernel counts while a scan runs, sampled before, during and
 * after it: the process's CPU time, the filesystem's block devices, the
 * XFS inode cache and memory reclaim.  A counter the kernel does not
 * offer (no such file, no such line, an older kernel) holds
 * XBULK_STAT_NA, never 0.  Nothing here prints.
 */
#define XBULK_STAT_NA		UINT64_MAX

static inline bool
xbulk_stat_ok(uint64_t v)
{
	return v != XBULK_STAT_NA;
}

/* The block devices of an XFS filesystem. */
enum xbulk_dev_role {
	XBULK_DEV_DATA,		/* the data device (st_dev of the fs) */
	XBULK_DEV_LOG,		/* external log (mount option logdev=) */
	XBULK_DEV_RT,		/* realtime device (mount option rtdev=) */
	XBULK_DEV_NR,
};

/*
 * Fields of the "ig" line of /sys/fs/xfs/<dev>/stats/stats, in its order
 * (struct __xfsstats in the kernel's fs/xfs/xfs_stats.h, bumped in
 * xfs_iget() and xfs_iget_cache_hit() of fs/xfs/xfs_icache.c).
 */
enum xbulk_ig {
	XBULK_IG_ATTEMPTS,	/* xs_ig_attempts: inode cache lookups */
	XBULK_IG_FOUND,		/* xs_ig_found: hits (also a reclaimable
				   inode brought back) */
	XBULK_IG_FRECYCLE,	/* xs_ig_frecycle: hit an inode being set up
				   or torn down; the lookup is retried */
	XBULK_IG_MISSED,	/* xs_ig_missed: misses, the inode is read
				   from its cluster buffer */
	XBULK_IG_DUP,		/* xs_ig_dup: a miss that lost the race to
				   insert the inode */
	XBULK_IG_RECLAIMS,	/* xs_ig_reclaims: inodes freed by reclaim */
	XBULK_IG_ATTRCHG,	/* xs_ig_attrchg: inode attribute changes */
	XBULK_IG_NR,
};

/* Counters of /proc/vmstat (pages of 4 KiB on x86-64). */
enum xbulk_vm {
	XBULK_VM_PGSCAN_KSWAPD,		/* pages scanned by kswapd */
	XBULK_VM_PGSCAN_DIRECT,		/* ... by direct reclaim */
	XBULK_VM_PGSTEAL_KSWAPD,	/* pages reclaimed by kswapd */
	XBULK_VM_PGSTEAL_DIRECT,	/* ... by direct reclaim */
	XBULK_VM_ALLOCSTALL,		/* entries into direct reclaim (sum
					   of allocstall_*) */
	XBULK_VM_SLABS_SCANNED,		/* slab objects scanned by
					   shrinkers (inode and dentry
					   caches among them) */
	XBULK_VM_NR,
};

/* Where a filesystem's counters are; found once by xbulk_stats_open(). */
struct xbulk_stats_src {
	struct {
		bool		present;	/* has this device */
		unsigned int	major, minor;
		char		name[64];	/* "loop0", "nvme0n1p2" */
	} dev[XBULK_DEV_NR];
	/* "/sys/fs/xfs/<dev>/stats/stats", or "" if there is none */
	char		xfs_stats[128];
};

/* A block device's counters (/sys/dev/block/MAJ:MIN/stat). */
struct xbulk_dev_sample {
	uint64_t	read_ios;	/* reads completed */
	uint64_t	read_sectors;	/* 512-byte sectors read */
	uint64_t	read_ticks_ms;	/* milliseconds spent reading */
	uint64_t	io_ticks_ms;	/* milliseconds with I/O in flight */
};

/* One sample of every counter, or the difference of two. */
struct xbulk_sample {
	uint64_t		mono_ns;	/* CLOCK_MONOTONIC */
	uint64_t		real_ns;	/* CLOCK_REALTIME */
	uint64_t		utime_us;	/* user CPU of the process */
	uint64_t		stime_us;	/* system CPU of the process */
	uint64_t		maxrss_kib;	/* peak RSS so far (not a
						   difference in a delta) */
	struct xbulk_dev_sample	dev[XBULK_DEV_NR];
	uint64_t		ig[XBULK_IG_NR];
	uint64_t		vm[XBULK_VM_NR];
	/* /proc/pressure/memory "total=": microseconds some or all
	 * non-idle tasks stalled on memory */
	uint64_t		psi_some_us;
	uint64_t		psi_full_us;
};

/**
 * xbulk_stats_open() - find where @fs's counters are
 *
 * The data device is the fs's st_dev; external log and realtime devices
 * come from the logdev= and rtdev= options of its line in
 * /proc/self/mountinfo.  Device names are those of /sys/dev/block
 * (loop devices included), and the XFS statistics those of
 * /sys/fs/xfs/<data device name>/stats/stats (kernel 4.4+; without it
 * every ig counter is NA).
 *
 * Return: 0, or the negative errno of fstat() on the fs.
 */
int xbulk_stats_open(struct xbulk_stats_src *src, const struct xbulk_fs *fs);

/**
 * xbulk_stats_sample() - read every counter now
 * Counters that cannot be read are XBULK_STAT_NA.  Reads a handful of
 * small /proc and /sys files: ~50 us; call it between ioctls, not per
 * record.
 */
void xbulk_stats_sample(const struct xbulk_stats_src *src,
			struct xbulk_sample *s);

/**
 * xbulk_sample_delta() - @d = @after - @before, counter by counter
 * A counter NA in either sample is NA in @d.  The XFS counters are 32-bit
 * sums that wrap, so their difference is taken modulo 2^32.
 * maxrss_kib and real_ns are @after's.
 */
void xbulk_sample_delta(struct xbulk_sample *d,
			const struct xbulk_sample *before,
			const struct xbulk_sample *after);

/**
 * xbulk_used_inodes() - allocated inodes, for a progress estimate
 * @agno: XBULK_ALL_AGS for the whole filesystem (statfs f_files -
 *        f_ffree), or one AG (XFS_IOC_AG_GEOMETRY: ag_icount - ag_ifree)
 *
 * Includes the filesystem's internal inodes, which bulkstat does not
 * return: a scan ends a few inodes short of it.
 * Return: 0, or the negative errno of fstatfs() or the ioctl.
 */
int xbulk_used_inodes(const struct xbulk_fs *fs, uint32_t agno,
		      uint64_t *inodes);

#define XBULK_ALL_AGS	UINT32_MAX

/* ------------------------------------------------------------------ */
/* Names for inodes (lib/names/)                                       */
/* ------------------------------------------------------------------ */

/*
 * One bulkstat scan of the whole filesystem (xbulk_scan_run(), -j
 * threads) and then one read of every directory (getdents64, O_NOATIME,
 * -j readers, top-down: the root by handle, every other directory by name
 * from its parent's fd) give every inode its path or paths, without a
 * stat() per file:
 *
 *	xbulk_names_build()	scan, read, link and check: once
 *	xbulk_names_walk()	the paths under one operand, in GNU find's
 *				order: once per operand, one walk at a time
 *	xbulk_names_readlink()	a symlink's target, by handle
 *	xbulk_names_unreached()	inodes no path from the mount's top reaches
 *	xbulk_names_free()
 *
 * Needs CAP_SYS_ADMIN (bulkstat) and CAP_DAC_READ_SEARCH
 * (open_by_handle_at).  Nothing is ever written to the filesystem and no
 * atime changes.  Pipeline, memory per inode and per name, churn rules:
 * docs/design.md, "Names for inodes".
 */

/*
 * Bulkstat fields the engine keeps per inode (struct xbulk_names_opts
 * .fields).  bs_ino, bs_mode and bs_gen are always kept; the walk's
 * records hold 0 in every field not asked for.  Each field costs its
 * bytes per kept inode (in parentheses).
 */
enum {
	XBULK_F_SIZE	= 1u << 0,	/* bs_size (8) */
	XBULK_F_BLOCKS	= 1u << 1,	/* bs_blocks, bs_blksize (12) */
	XBULK_F_ATIME	= 1u << 2,	/* bs_atime, bs_atime_nsec (12) */
	XBULK_F_MTIME	= 1u << 3,	/* bs_mtime, bs_mtime_nsec (12) */
	XBULK_F_CTIME	= 1u << 4,	/* bs_ctime, bs_ctime_nsec (12) */
	XBULK_F_BTIME	= 1u << 5,	/* bs_btime, bs_btime_nsec (12) */
	XBULK_F_OWNER	= 1u << 6,	/* bs_uid, bs_gid (8) */
	XBULK_F_PROJID	= 1u << 7,	/* bs_projectid (4) */
	XBULK_F_NLINK	= 1u << 8,	/* bs_nlink (4) */
	XBULK_F_RDEV	= 1u << 9,	/* bs_rdev (4) */
	XBULK_F_XFLAGS	= 1u << 10,	/* bs_xflags (8) */
	XBULK_F_EXTENTS	= 1u << 11,	/* bs_extents64, bs_aextents (12) */
	XBULK_F_HINTS	= 1u << 12,	/* bs_extsize_blks,
					   bs_cowextsize_blks (8) */
	XBULK_F_OTHER	= 1u << 13,	/* bs_version, bs_forkoff, bs_sick,
					   bs_checked (8) */
	XBULK_F_ALL	= (1u << 14) - 1,
};

/* What xbulk_names_build() reports through xbulk_names_opts.problem. */
enum xbulk_names_problem_kind {
	/*
	 * A directory the kernel could not read (@err: -EUCLEAN, -EBADMSG,
	 * -EIO...).  Its entry still comes in walks, flagged
	 * XBULK_ENTRY_UNREADABLE with the same error, contents unknown:
	 * print one of the two (find names it when it reaches it).
	 */
	XBULK_PROBLEM_UNREADABLE,
	/*
	 * An inode bulkstat could not read (@err as above); the scan went
	 * on after it.  Its names come in walks flagged
	 * XBULK_ENTRY_BAD_INODE.  @path is NULL.
	 */
	XBULK_PROBLEM_BAD_INODE,
	/*
	 * A directory still listed by two directories after both were read
	 * again (a hard link to a directory: damage).  @path is the entry
	 * that is not followed (@parent holds it); the directory is walked
	 * under the parent its ".." names.
	 */
	XBULK_PROBLEM_DIR_LINK,
	/*
	 * A directory whose ".." names a directory that does not list it,
	 * still so after a re-read (damage).  It is walked under the one
	 * directory that lists it, @path.
	 */
	XBULK_PROBLEM_DOTDOT,
	/*
	 * Directories whose parents form a cycle, still so after a re-read
	 * (damage): no walk from the top reaches them and none is followed
	 * around the cycle.  One report per directory of the cycle, @parent
	 * its parent in the cycle; @path is NULL.
	 */
	XBULK_PROBLEM_CYCLE,
};

/* One problem; every pointer is valid during the callback only. */
struct xbulk_names_problem {
	enum xbulk_names_problem_kind	kind;
	int				err;	/* negative errno, or 0 */
	uint64_t			ino;	/* the inode concerned */
	uint64_t			parent;	/* its directory, or 0 */
	/*
	 * Where it is: the mount point followed by the names from the
	 * mount's top ("/mnt/a/b"), any length, NUL-terminated; NULL when
	 * no name reaches it.
	 */
	const char			*path;
};

struct xbulk_names_opts {
	unsigned int	threads;	/* scan threads (0 or 1: the serial
					   scan), then as many directory
					   readers */
	uint32_t	fields;		/* XBULK_F_* to keep */
	/*
	 * Optional pre-filter on non-directories, called from the scan's
	 * threads at once (it must be thread-safe): false drops the inode
	 * before any name is read, and no walk shows it.  Directories are
	 * always kept.  Called once per inode, with every field filled.
	 */
	bool		(*keep)(void *arg, const struct xfs_bulkstat *bs);
	/*
	 * Optional: called once per problem (see enum
	 * xbulk_names_problem_kind), from the calling thread, before
	 * xbulk_names_build() returns.  Directories that vanished or moved
	 * during the scan are only counted (struct xbulk_names_result).
	 */
	void		(*problem)(void *arg,
				   const struct xbulk_names_problem *p);
	void		*arg;		/* for keep and problem */
	/*
	 * Optional: once *cancel is nonzero (a signal handler may set it)
	 * the build or a walk stops within 100 ms and returns -EINTR.
	 */
	const volatile int *cancel;
};

/* Where xbulk_names_build() failed. */
enum xbulk_names_fail {
	XBULK_NAMES_OK = 0,
	XBULK_NAMES_FAIL_SCAN,		/* the bulkstat scan: -EPERM means
					   no CAP_SYS_ADMIN (scan.fail,
					   scan.err say more) */
	XBULK_NAMES_FAIL_HANDLE,	/* open_by_handle_at() of the root:
					   -EPERM means no
					   CAP_DAC_READ_SEARCH */
	XBULK_NAMES_FAIL_MOUNT,		/* finding the mount's top and the
					   mounts inside it (statx,
					   /proc/self/mountinfo) */
	XBULK_NAMES_FAIL_SETUP,		/* memory, threads */
	XBULK_NAMES_CANCELLED,		/* *cancel was set */
};

struct xbulk_names_result {
	enum xbulk_names_fail	fail;
	int			err;		/* negative errno, or 0 */
	struct xbulk_scan_result scan;		/* the bulkstat scan's */
	uint64_t	inodes;		/* kept: directories and what keep
					   accepted */
	uint64_t	dropped;	/* non-directories keep rejected */
	uint64_t	dirs;		/* directories bulkstat returned */
	uint64_t	dirs_read;	/* ... read whole */
	uint64_t	names;		/* entries read ("." and ".." aside) */
	uint64_t	mounts;		/* mount points inside the mount */
	/* Churn: not errors in themselves (find would say "No such file
	 * or directory" for the first and exit 1). */
	uint64_t	dirs_gone;	/* removed or moved during the scan:
					   their name led nowhere (ENOENT,
					   ESTALE); skipped */
	uint64_t	dirs_moved;	/* seen under two parents or with a
					   stale "..", settled by a re-read */
	uint64_t	stale_names;	/* names of inodes that changed
					   type or vanished: skipped */
	/* Problems reported (each also went to opts.problem) */
	uint64_t	dirs_unreadable;
	uint64_t	bad_inodes;
	uint64_t	damage;		/* DIR_LINK, DOTDOT and CYCLE */
	/* Memory held after the build, bytes */
	uint64_t	store_bytes;	/* kept inodes' fields */
	uint64_t	names_bytes;	/* directory entries */
	uint32_t	slot_bytes;	/* per kept inode in the store */
	/* Wall time of the phases, seconds */
	double		scan_s;		/* the bulkstat scan */
	double		read_s;		/* reading the directories */
	double		link_s;		/* linking and checking the tree */
};

struct xbulk_names;	/* opaque: inode store and directory tree */

/**
 * xbulk_names_build() - scan @fs and read every directory by handle
 * @fs:    an open filesystem (xbulk_fs_open() on any path of the mount)
 * @o:     options; @o->threads scan threads, then as many directory
 *         readers
 * @names: on success, the names (free with xbulk_names_free())
 * @r:     what was done and found, filled also on failure
 *
 * The mount is the one @fs->fd is on (statx STATX_MNT_ID,
 * /proc/self/mountinfo): its top is the filesystem's root (bulkstat's
 * special root inode) or, for a bind mount of a subdirectory, that
 * directory; walks never go above it.  Mount points of other filesystems
 * inside it come in walks as find -xdev shows them (XBULK_ENTRY_MOUNT)
 * and are not descended into.
 *
 * Return: 0; -EPERM without CAP_SYS_ADMIN (@r->fail FAIL_SCAN) or
 * CAP_DAC_READ_SEARCH (FAIL_HANDLE); -EINTR if cancelled; -ENOMEM; or
 * the negative errno of the scan (see xbulk_scan_run()) or of the mount
 * lookup.  Problems with single directories are not failures: they are
 * reported and counted in @r.
 */
int xbulk_names_build(struct xbulk_fs *fs, const struct xbulk_names_opts *o,
		      struct xbulk_names **names, struct xbulk_names_result *r);

/** xbulk_names_free() - free what xbulk_names_build() made; NULL is fine */
void xbulk_names_free(struct xbulk_names *names);

/* struct xbulk_entry .flags */
enum {
	/*
	 * A mount point of another filesystem: @bs holds what statx() says
	 * of the path (the mounted root, as find shows it: bs_ino is its
	 * inode number on the other filesystem; bs_blocks is in units of
	 * bs_blksize; xflags, extents, hints and projid are 0).  Not
	 * descended into.
	 */
	XBULK_ENTRY_MOUNT	= 1u << 0,
	/* A directory the kernel could not read (@err): no contents. */
	XBULK_ENTRY_UNREADABLE	= 1u << 1,
	/*
	 * An inode bulkstat could not read (@err): @bs holds only bs_ino and
	 * the file type bits of bs_mode (from the directory entry).
	 */
	XBULK_ENTRY_BAD_INODE	= 1u << 2,
};

/* One path of an inode (a hard-linked inode comes once per path). */
struct xbulk_entry {
	const char	*path;		/* the operand as given, then
					   "/name"s; NUL-terminated, any
					   length (past PATH_MAX too) */
	size_t		pathlen;	/* strlen(path) */
	size_t		name_off;	/* where the last name starts (0 at
					   depth 0) */
	unsigned int	depth;		/* 0: the operand itself */
	const struct xfs_bulkstat *bs;	/* kept fields, others 0 */
	uint64_t	nentries;	/* directories: entries but "." and
					   "..", as read */
	uint32_t	flags;		/* XBULK_ENTRY_* */
	int		err;		/* negative errno with UNREADABLE and
					   BAD_INODE, else 0 */
};

enum xbulk_visit {
	XBULK_VISIT_PRE,	/* a directory before its contents, and
				   every other entry */
	XBULK_VISIT_POST,	/* a directory after its contents
				   (XBULK_WALK_POST only) */
};

/* Values an xbulk_walk_fn returns besides 0 (go on) and -errno (end). */
#define XBULK_WALK_PRUNE	1	/* PRE of a directory: skip contents
					   (its POST still comes) */
#define XBULK_WALK_STOP		2	/* end the walk now (find -quit) */

/*
 * Called for each entry of a walk.  Everything @e points to is valid
 * during the call only.  Return 0, XBULK_WALK_PRUNE, XBULK_WALK_STOP, or a
 * negative errno to end the walk with it.
 */
typedef int (*xbulk_walk_fn)(void *arg, const struct xbulk_entry *e,
			     enum xbulk_visit visit);

/* xbulk_names_walk() flags */
enum {
	XBULK_WALK_POST		= 1u << 0,	/* also visit each directory
						   after its contents (find
						   -depth, du) */
	XBULK_WALK_FOLLOW	= 1u << 1,	/* a symlink operand is
						   followed (find -H, -L) */
};

/**
 * xbulk_names_walk() - every path under one operand, in GNU find's order
 * @start: the operand as the user typed it: a directory or any other file
 *         on the mount (a symlink is the link itself unless
 *         XBULK_WALK_FOLLOW); paths are @start followed by "/name"s (one
 *         trailing '/' of @start is not doubled, as find does)
 * @flags: XBULK_WALK_*
 *
 * Order (gnulib fts, as GNU find 4.9 and du use it): pre-order, each
 * directory's entries in readdir (getdents) order, except that a
 * directory read in batches of 100,000 entries has each batch of more than
 * 10,000 sorted by inode number (gnulib fts_build(): FTS_MAX_READDIR_ENTRIES,
 * _FTS_INODE_SORT_DIR_ENTRIES_THRESHOLD; dirent_inode_sort_may_be_useful()
 * is true on XFS).  Directories come once, under the parent their ".."
 * names; inodes the keep filter dropped do not come; directories removed
 * during the scan do not come.
 *
 * Not thread-safe with other walks of @names; the callback may call
 * xbulk_names_readlink().  No system call per entry but the callback's.
 *
 * Return: 0 at the end, XBULK_WALK_STOP if @fn stopped it; -ENOENT,
 * -EACCES, -ENOTDIR... from fstatat(@start); -EXDEV if @start is not on
 * this mount (another filesystem, or another mount of it); -ESTALE if
 * the scan did not see @start's inode (created or changed since); -EINTR
 * if cancelled; -ENOMEM; or @fn's negative errno.
 */
int xbulk_names_walk(struct xbulk_names *names, const char *start,
		     unsigned int flags, xbulk_walk_fn fn, void *arg);

/**
 * xbulk_names_readlink() - the target of the symlink @bs (an entry's
 * record), read by handle (open_by_handle_at(O_PATH), readlinkat())
 * @buf, @size: where to put it; not NUL-terminated, cut at @size as
 *              readlink(2) does (XFS targets are at most 1024 bytes)
 *
 * Like find's %l it reads the link, which updates the link's atime as
 * the mount's atime options say (directories' atimes never change).
 *
 * Return: bytes written; -ESTALE if the link is gone; -EINVAL if @bs is
 * no symlink; another negative errno.
 */
int xbulk_names_readlink(struct xbulk_names *names,
			 const struct xfs_bulkstat *bs, char *buf, size_t size);

/**
 * xbulk_names_unreached() - call @fn for each kept inode that no path
 * from the mount's top reaches (du --unreachable): open but unlinked
 * files, what is hidden under mount points, what lies outside a bind
 * mount's subdirectory, directories the scan saw that no read listing
 * holds.  In inode order; @bs as in walks.  @fn returns 0 or a negative
 * errno that ends the call.
 *
 * Return: 0, -EINTR if cancelled, -ENOMEM, or @fn's error.
 */
int xbulk_names_unreached(struct xbulk_names *names,
			  int (*fn)(void *arg, const struct xfs_bulkstat *bs),
			  void *arg);

#endif /* XBULK_H */
