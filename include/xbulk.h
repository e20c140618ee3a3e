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
#include <time.h>
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
/* find expressions (lib/find/)                                        */
/* ------------------------------------------------------------------ */

#ifndef XBULK_F_ALL
/* Bulkstat fields a consumer reads; bs_ino, bs_mode, bs_gen always. */
enum {
	XBULK_F_SIZE	= 1u << 0,	/* bs_size */
	XBULK_F_BLOCKS	= 1u << 1,	/* bs_blocks, bs_blksize */
	XBULK_F_ATIME	= 1u << 2,	/* bs_atime, bs_atime_nsec */
	XBULK_F_MTIME	= 1u << 3,
	XBULK_F_CTIME	= 1u << 4,
	XBULK_F_BTIME	= 1u << 5,
	XBULK_F_OWNER	= 1u << 6,	/* bs_uid, bs_gid */
	XBULK_F_PROJID	= 1u << 7,
	XBULK_F_NLINK	= 1u << 8,
	XBULK_F_RDEV	= 1u << 9,
	XBULK_F_XFLAGS	= 1u << 10,
	XBULK_F_EXTENTS	= 1u << 11,	/* bs_extents64, bs_aextents */
	XBULK_F_HINTS	= 1u << 12,	/* bs_extsize_blks, bs_cowextsize_blks */
	XBULK_F_OTHER	= 1u << 13,	/* version, forkoff, sick, checked */
#define XBULK_F_ALL	((1u << 14) - 1)
};
#endif

/*
 * GNU find 4.9's expression language (man/xbulk.8 lists every primary
 * and every difference), compiled once by xbulk_find_parse() and
 * evaluated per file by xbulk_find_eval() without parsing or allocating.
 * A compiled expression is used by one thread, but xbulk_find_keep() may
 * be called from any number of threads at once.
 */
struct xbulk_find;

/* A file to evaluate: one path of an inode, as a walk yields it. */
struct xbulk_find_file {
	const char			*path;	  /* NUL-terminated */
	size_t				pathlen;
	size_t				name_off; /* base name's offset */
	unsigned int			depth;	  /* 0: the PATH operand */
	const struct xfs_bulkstat	*bs;	  /* the fields asked for */
	uint64_t			nentries; /* dirs: entries but . ..*/
	const char			*start;	  /* the PATH operand */
	size_t				startlen;
	/* A mount point of another filesystem: its st_dev (and @bs
	 * made from its stat()), and its type.  0 and NULL otherwise. */
	uint64_t			dev;
	const char			*fstype;
};

struct xbulk_find_opts {
	struct timespec	now;		/* find's start time */
	bool		warnings;	/* find's default: stdin is a tty */
	/* A parse warning, without "find: " (may be NULL). */
	void		(*warn)(void *arg, const char *msg);
	/* A file that could not be fully handled (e.g. a symlink that
	 * could not be read for %l): the caller prints, exit status 1. */
	void		(*problem)(void *arg, const char *path, int err);
	/* The target of symlink @file into @buf (not NUL-terminated).
	 * Return: its length, or a negative errno. */
	long		(*readlink)(void *arg,
				    const struct xbulk_find_file *file,
				    char *buf, size_t size);
	void		*arg;
};

/* Exit statuses of parse errors, as GNU find and xbulk give them. */
#define XBULK_FIND_EXIT_BAD	1	/* a bad expression (find's) */
#define XBULK_FIND_EXIT_REFUSED	2	/* -exec -delete ...: refused */

/**
 * xbulk_find_parse() - compile find's command line
 * @argc, @argv: the words after "find" (options -P..., PATHs, the
 *               expression); the strings must outlive the result
 * @opts:        time, warnings and hooks (copied)
 * @out:         the compiled expression (xbulk_find_free() it)
 * @err:         a message (without "find: ") on failure
 * @status:      exit status for the failure (XBULK_FIND_EXIT_*)
 *
 * Return: 0; -EINVAL for a bad expression (find's own message and
 * status) or a refused action; -ENOMEM.
 */
int xbulk_find_parse(int argc, char **argv,
		     const struct xbulk_find_opts *opts,
		     struct xbulk_find **out, char *err, size_t errlen,
		     int *status);

void xbulk_find_free(struct xbulk_find *find);

/* The PATH operands ("." when none were given). */
size_t xbulk_find_npaths(const struct xbulk_find *find);
const char *xbulk_find_path(const struct xbulk_find *find, size_t i);

/* Walk options: -depth (visit directories after their contents),
 * -maxdepth (-1: none) and -mindepth. */
bool xbulk_find_post_order(const struct xbulk_find *find);
int xbulk_find_maxdepth(const struct xbulk_find *find);

/* The XBULK_F_* fields the expression and its output read. */
uint32_t xbulk_find_fields(const struct xbulk_find *find);

/* Does the expression need anything beyond the bulkstat record and the
 * path (symlink targets, access(2), stat of the target)? */
bool xbulk_find_needs_fs(const struct xbulk_find *find);

/**
 * xbulk_find_keep() - the pre-filter: may a file with this record (not a
 * directory) make the expression do anything, whatever its name?
 * @arg: the struct xbulk_find
 *
 * The part of the expression that reads only bulkstat fields, evaluated
 * three-valued (true, false, unknown: needs a name); actions count as
 * unknown.  False only when no name, path or depth can make an action
 * run.  Thread-safe; no syscall, no allocation.
 */
bool xbulk_find_keep(void *arg, const struct xfs_bulkstat *bs);

/*
 * Outputs: [0] is stdout; [1..] are the FILEs of -fprint, -fprint0,
 * -fprintf and -fls in command-line order, opened by the caller (who
 * refuses those on the scanned filesystem).  "/dev/stdout" and
 * "/dev/stderr" name the caller's streams, as in find.
 */
size_t xbulk_find_noutputs(const struct xbulk_find *find);
const char *xbulk_find_output_name(const struct xbulk_find *find, size_t i);
/* Give output @i its fd (@tty: quote odd characters as find does on a
 * terminal).  Return: 0 or -ENOMEM. */
int xbulk_find_set_output(struct xbulk_find *find, size_t i, int fd,
			  bool tty);

/* The scanned filesystem: log2 of its block size (st_blocks from
 * bs_blocks) and its st_dev (%D). */
void xbulk_find_set_fs(struct xbulk_find *find, unsigned int blocklog,
		       uint64_t dev);

/* What xbulk_find_eval() asks of the walk. */
#define XBULK_FIND_PRUNE	1	/* do not descend into this directory */
#define XBULK_FIND_QUIT		2	/* -quit: end the walk */

/**
 * xbulk_find_eval() - evaluate the expression on one file
 * @post: false: the visit before a directory's contents (and the only
 *        visit of other files); true: the visit after them (-depth)
 *
 * Applies -mindepth, -maxdepth and -depth, runs the actions.
 * Return: 0, XBULK_FIND_PRUNE, XBULK_FIND_QUIT, or a negative errno of
 * writing an output (-EPIPE...).
 */
int xbulk_find_eval(struct xbulk_find *find,
		    const struct xbulk_find_file *file, bool post);

/* Write out everything buffered.  Return: 0 or the first write error. */
int xbulk_find_flush(struct xbulk_find *find);

/* Files the problem hook was called for (find then exits 1). */
uint64_t xbulk_find_problems(const struct xbulk_find *find);

#endif /* XBULK_H */
