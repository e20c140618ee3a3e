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
 *
 * This header is the library's ABI.  libxbulk is built with
 * -fvisibility=hidden, and the "#pragma GCC visibility push(default)"
 * below makes every function and variable declared in this header
 * exported, and nothing else: a public function is declared here (named
 * xbulk_*, with its doc comment), an internal one in lib/internal.h or
 * another lib/ header.  tests/pkg/test-symbols.sh checks that `nm -D` of
 * libxbulk.so lists exactly what this header declares.  An incompatible
 * change to anything declared here changes the soname (docs/design.md,
 * "Versions and the soname").
 */
#ifndef XBULK_H
#define XBULK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <xfs/xfs.h>

#include "xbulk_version.h"

#pragma GCC visibility push(default)

/**
 * xbulk_version() - the version of the libxbulk loaded at run time, as
 * "MAJOR.MINOR.PATCH" (XBULK_VERSION_STRING is the one compiled against).
 */
const char *xbulk_version(void);

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
	/* Header flags newer kernels want (XFS_BULK_IREQ_NREXT64), and
	 * XFS_BULK_IREQ_METADIR from xbulk_fs_set_metadir() */
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
 * negative errno of XFS_IOC_FSGEOMETRY.  On failure @fs->fd is -1 (so
 * xbulk_fs_close() is still safe).
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
 * The v1 count is a signed 32-bit field: hdr.icount above INT32_MAX is
 * lowered to INT32_MAX (the header shows the count passed).
 *
 * Every answer is checked (xbulk_batch_check()): with a damaged inode
 * btree the kernel's cursor can stop advancing or go back (seen on Linux
 * 6.18), and a loop that trusted it would never end.
 *
 * Return: 0; -EPERM without CAP_SYS_ADMIN; -EINVAL for a bad header
 * (AG out of range, ino in an earlier AG than hdr.agno), or on an
 * idmapped mount, where the kernel refuses bulkstat; -EUCLEAN, -EBADMSG
 * or -EIO for a corrupt inode (the kernel returns the records before it
 * first, then fails on the next call) or an unreadable inode btree; -EIO
 * after a shutdown; -EPROTO if the answer breaks the ioctl's contract
 * (the header and records are left as the kernel wrote them:
 * xbulk_batch_check() tells which records are good).
 */
int xbulk_bulkstat(struct xbulk_fs *fs, struct xfs_bulkstat_req *req);

/**
 * xbulk_inumbers() - one XFS_IOC_INUMBERS call (or XFS_IOC_FSINUMBERS):
 * one struct xfs_inumbers per allocated inode chunk; same cursor and
 * errors as xbulk_bulkstat().  The first record is the chunk holding
 * hdr.ino, which may start before it.
 */
int xbulk_inumbers(struct xbulk_fs *fs, struct xfs_inumbers_req *req);

/**
 * xbulk_batch_check() - does an answer keep the bulk ioctls' contract?
 * @hdr:      the header as the call left it
 * @cursor:   hdr.ino before the call (the first inode asked for)
 * @recs:     the records; each begins with its 64-bit key (bs_ino,
 *            xi_startino)
 * @rec_size: bytes per record
 * @span:     inodes a record covers: 1 (bulkstat), XBULK_INODES_PER_CHUNK
 *            (inumbers: the first record is the chunk holding @cursor)
 * @good:     out: how many records, from the first, keep it
 * @bad:      out, when false: the first key out of place (a record's, or
 *            the new cursor hdr.ino)
 *
 * The contract: at most hdr.icount records, keys strictly increasing,
 * the first at or past @cursor (covering it, for chunks), and unless
 * there are none, a new cursor past both the last key and @cursor: each
 * call moves the scan forward.  v1 answers are checked once converted
 * (the v1 ioctls take the last inode seen; lib/ioctl.c turns that into
 * the v5 cursor first).
 *
 * Return: true if the whole answer keeps it.
 */
bool xbulk_batch_check(const struct xfs_bulk_ireq *hdr, uint64_t cursor,
		       const void *recs, size_t rec_size, uint64_t span,
		       uint32_t *good, uint64_t *bad);

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
 * v1's EINVAL is also the kernel's refusal of a whole mount: when the
 * inobt marks @ino allocated, the inode of the handle's own fd is probed,
 * and if it is refused too the answer is -EINVAL.
 *
 * Return: 0, -ENOENT (@ino is not an allocated, user-visible inode:
 * xbulk_inode_allocated() tells which), -EOPNOTSUPP (special inode asked
 * of the v1 ABI), -EINVAL (the kernel refuses bulkstat on this mount:
 * xbulk_fs_idmapped()), or as xbulk_bulkstat(): -EUCLEAN, -EBADMSG, -EIO
 * for an inode the kernel cannot read (or the first allocated one after
 * a free @ino, with v5), -EIO after a shutdown (xbulk_fs_readable()).
 */
int xbulk_bulkstat_single(struct xbulk_fs *fs, uint64_t ino, uint32_t flags,
			  struct xfs_bulkstat *bs);

/**
 * xbulk_inode_allocated() - does the inode btree mark @ino allocated?
 * One inumbers call (it reads no inode; it works on idmapped mounts).
 * Return: 0 with *@allocated set, or as xbulk_inumbers().
 */
int xbulk_inode_allocated(struct xbulk_fs *fs, uint64_t ino,
			  bool *allocated);

/**
 * xbulk_fs_idmapped() - is the handle's mount idmapped?  The kernel
 * refuses bulkstat there with EINVAL (Linux 5.12+, dmesg: "bulkstat not
 * supported inside of idmapped mounts"); inumbers works.  From the
 * "idmapped" option of the mount's line in /proc/self/mountinfo.
 */
bool xbulk_fs_idmapped(const struct xbulk_fs *fs);

/**
 * xbulk_fs_readable() - can the filesystem still be read?  A bulkstat of
 * the inode of the handle's own fd: false after a shutdown (every call
 * then fails with EIO), true when an EIO concerned other inodes.
 */
bool xbulk_fs_readable(struct xbulk_fs *fs);

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

struct statx;
/**
 * xbulk_bulkstat_from_statx() - a record from statx(2), for files
 * bulkstat does not give (the root of another filesystem mounted inside
 * the scanned one)
 * @stx: asked for at least STATX_BASIC_STATS; STATX_BTIME if known
 *
 * bs_blocks is st_blocks, in 512-byte units, and bs_blksize is 512 so
 * that bs_blocks stays in units of bs_blksize as bulkstat's are (exact:
 * no rounding to st_blksize).  bs_rdev is encoded as bulkstat does
 * (sysv_encode_dev(): major << 18 | minor).  The birth time is set and
 * bs_version is 5 when statx gave STATX_BTIME, else both are as v1's (0,
 * 1).  XFS-only fields (xflags, extents, hints, projid, gen) are 0.
 */
void xbulk_bulkstat_from_statx(struct xfs_bulkstat *bs,
			       const struct statx *stx);

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

/* Where and why a scan gave up on the rest of an AG. */
struct xbulk_ag_fault {
	enum xbulk_kind	call;	/* the ioctl that failed (a bulkstat scan
				   also calls inumbers: to plan, to step) */
	uint32_t	agno;
	uint64_t	cursor;	/* the inode that call started from */
	uint64_t	ino;	/* -EPROTO: the key out of place (a record
				   before the cursor or out of order, or a
				   new cursor that did not advance); else
				   the cursor */
	int		err;	/* -EPROTO, -EUCLEAN, -EBADMSG, -EIO */
};

/*
 * Called when the scan gives up on the rest of an AG: the kernel's
 * answers there broke the ioctl's contract (xbulk_batch_check(), a
 * damaged inode btree) or its inode btree could not be read.  The scan
 * goes on with the next AG (it ends if it is confined to this one).
 * Called once per AG, from any thread.
 */
typedef void (*xbulk_ag_fault_fn)(void *arg, const struct xbulk_ag_fault *f);

struct xbulk_scan {
	enum xbulk_kind	kind;
	uint64_t	startino;	/* first inode (inclusive) */
	uint64_t	endino;		/* last inode (inclusive); UINT64_MAX
					   for the end (0, as in a zeroed
					   struct, stops at inode 0) */
	bool		has_agno;	/* only AG @agno */
	uint32_t	agno;
	uint32_t	batch;		/* most records per ioctl (icount) */
	unsigned int	threads;	/* 0 or 1: serial, as xfs_io; N: N
					   workers, same output */
	int		out_fd;		/* where the output batch_fn appends
					   goes (never written if it
					   appends nothing) */
	xbulk_batch_fn	batch_fn;
	/*
	 * NULL: a bulkstat call that fails on an inode ends the scan (as
	 * xfs_io).  Set: the scan reports the inode and goes on after it.
	 */
	xbulk_bad_inode_fn bad_inode_fn;
	/*
	 * NULL: an AG the kernel cannot walk ends the scan with its error.
	 * Set: the scan reports it and goes on with the next AG.
	 */
	xbulk_ag_fault_fn ag_fault_fn;
	void		*arg;		/* for the three callbacks */
	/*
	 * Optional: counters the scan keeps up to date while it runs (with
	 * atomic adds), for progress displays on another thread.
	 */
	struct xbulk_scan_live *live;
	/*
	 * Optional: where the scan adds the latency of each of its bulkstat
	 * or inumbers calls (each worker keeps its own histograms and adds
	 * them here when it ends).  Zero it before the scan.
	 */
	struct xbulk_scan_lat *lat;
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
	/*
	 * The longest call (ns) since the reader last took it with
	 * __atomic_exchange_n(&live->max_call_ns, 0, ...): the stall of an
	 * interval.
	 */
	uint64_t	max_call_ns;
};

/* ------------------------------------------------------------------ */
/* Latency of the scan's ioctl calls (lib/latency.c)                   */
/* ------------------------------------------------------------------ */

/*
 * A log-linear histogram of durations in nanoseconds: below 2^SUB_BITS ns
 * one bucket per ns, above it 2^SUB_BITS buckets per power of two, so a
 * percentile read from it is within 1/2^SUB_BITS (3%) of the true value,
 * from 1 ns to 584 years, in 15 KiB.  As fio's completion latencies.
 */
#define XBULK_LAT_SUB_BITS	5
#define XBULK_LAT_BUCKETS	((64 - XBULK_LAT_SUB_BITS + 1) << \
				 XBULK_LAT_SUB_BITS)

struct xbulk_lat {
	uint64_t	count;		/* samples */
	uint64_t	sum_ns;
	uint64_t	min_ns;		/* valid when count > 0 */
	uint64_t	max_ns;
	uint64_t	bucket[XBULK_LAT_BUCKETS];
};

/* The latencies of a scan's calls. */
struct xbulk_scan_lat {
	struct xbulk_lat	call;	/* ns per bulkstat/inumbers call */
	struct xbulk_lat	inode;	/* ns per record: each call that
					   returned records, its time divided
					   by its ocount (one sample a call) */
};

/* Add one sample of @ns nanoseconds to @h (no locking: one writer). */
void xbulk_lat_add(struct xbulk_lat *h, uint64_t ns);

/* Add every sample of @src to @dst. */
void xbulk_lat_merge(struct xbulk_lat *dst, const struct xbulk_lat *src);

/**
 * xbulk_lat_percentile() - the @pct-th percentile (0 < @pct <= 100) of @h
 * in ns: the middle of the bucket holding the sample of rank
 * ceil(@pct / 100 * count), kept within [min_ns, max_ns]; max_ns for the
 * last rank.
 * Return: that value, or 0 when @h has no sample.
 */
uint64_t xbulk_lat_percentile(const struct xbulk_lat *h, double pct);

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
	uint64_t		ag_faults;	/* AGs given up (ag_fault_fn) */
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
 * (a shutdown) ends the scan.  With ag_fault_fn set, an AG whose inode
 * btree cannot be read or walked (its answers break the ioctl's
 * contract) is reported and the scan goes on with the next AG.
 *
 * Every loop moves forward whatever the kernel answers: each call's
 * answer is checked (xbulk_batch_check()), and every step moves the
 * cursor past the last one, so a scan always ends.  With
 * has_agno or a range, it never reads outside it.
 *
 * Everything before a failure has been written to out_fd when it returns.
 * Return: 0, or the negative errno also in @res->err (@res->fail says
 * where it came from): -EINVAL (XBULK_SCAN_FAIL_SETUP) for batch 0 or,
 * with has_agno, a startino in an earlier AG, as the kernel would;
 * -EINTR (XBULK_SCAN_CANCELLED) once *@scan->cancel was seen set.
 * @res->records counts what batch_fn was handed: with threads > 1 a
 * cancelled or failed scan may have handed it records that were never
 * written (their batch came after the last one written in order).
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
 * Needs CAP_SYS_ADMIN (bulkstat), CAP_DAC_READ_SEARCH (open_by_handle_at,
 * reading every directory) and, for directories the caller does not own,
 * CAP_FOWNER (O_NOATIME; root has all three).  Nothing is ever written to
 * the filesystem and no directory's atime changes.  Pipeline, memory per
 * inode and per name, churn rules: docs/design.md, "Names for inodes".
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
	 * XBULK_ENTRY_BAD_INODE; @path is one of them (NULL if none is
	 * known).
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
	/*
	 * An AG the scan gave up on (@ag_fault: where and why; @err its
	 * error, @ino the inode the failing call started from, @path the
	 * mount point): its inode btree could not be read or walked (see
	 * xbulk_ag_fault_fn).  The build went on with the other AGs; the
	 * inodes of that AG the scan did not reach are unknown, so walks
	 * leave their names out (and a directory's contents with it).
	 */
	XBULK_PROBLEM_AG_FAULT,
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
	/* XBULK_PROBLEM_AG_FAULT: the scan's report; else NULL */
	const struct xbulk_ag_fault	*ag_fault;
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
	 * the build or a walk stops within 100 ms and returns -EINTR.  A
	 * walk looks at it once per 1024 entries: its callback may still be
	 * called for up to 1023 entries after the flag was set.  Clear it
	 * before walking again.
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
					   CAP_DAC_READ_SEARCH, or no
					   CAP_FOWNER for O_NOATIME on a
					   root the caller does not own */
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
	/* Problems reported (each also went to opts.problem; AG faults
	 * are counted in scan.ag_faults) */
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
 * @names: on success, the names (free with xbulk_names_free()); NULL on
 *         failure
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
 * lookup.  Problems with single directories, inodes or AGs (an inode
 * btree the kernel cannot walk) are not failures: they are reported and
 * counted in @r.
 */
int xbulk_names_build(struct xbulk_fs *fs, const struct xbulk_names_opts *o,
		      struct xbulk_names **names, struct xbulk_names_result *r);

/** xbulk_names_free() - free what xbulk_names_build() made; NULL is fine */
void xbulk_names_free(struct xbulk_names *names);

/* struct xbulk_entry .flags */
enum {
	/*
	 * A mount point of another filesystem: @bs holds what statx() says
	 * of the path (the mounted root, as find shows it:
	 * xbulk_bulkstat_from_statx(); bs_ino is its inode number on the
	 * other filesystem, bs_blocks in 512-byte units).  Not descended
	 * into.
	 */
	XBULK_ENTRY_MOUNT	= 1u << 0,
	/* A directory the kernel could not read (@err): no contents. */
	XBULK_ENTRY_UNREADABLE	= 1u << 1,
	/*
	 * An inode bulkstat could not read (@err): @bs holds only bs_ino and
	 * the file type bits of bs_mode (from the directory entry).  It
	 * comes once, as a PRE visit, even as a directory: no contents, no
	 * POST, whatever the callback returns.
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

/* ================================================================== */
/* du: disk usage over the walk (lib/du/)                              */
/* ================================================================== */

/* ------------------------------------------------------------------ */
/* Output units (lib/du/units.c)                                       */
/* ------------------------------------------------------------------ */

/* Options of a unit: gnulib human.h's bits, same meanings and values. */
enum {
	XBULK_HUMAN_GROUP	= 4,	/* thousands separators (locale) */
	XBULK_HUMAN_AUTOSCALE	= 16,	/* pick the power (-h, --si) */
	XBULK_HUMAN_BASE_1024	= 32,	/* powers of 1024, not 1000 */
	XBULK_HUMAN_SI		= 128,	/* append the power's letter */
	XBULK_HUMAN_B		= 256,	/* ... and "B" or "iB" */
};

/* How du prints a size: in units of @block_size bytes, rounded up. */
struct xbulk_units {
	uint64_t	block_size;	/* bytes; 1 with AUTOSCALE */
	unsigned int	opts;		/* XBULK_HUMAN_* */
};

/* Most bytes xbulk_units_format() writes, its NUL included. */
#define XBULK_UNITS_MAX		128

/**
 * xbulk_units_parse() - parse a -B/--block-size argument as GNU du
 * @spec: "human-readable", "si" or an abbreviation; or an optional number
 *        (C syntax: 0x hex, 0 octal) and a unit K M G T P E Z Y (powers
 *        of 1024; "KB" powers of 1000, "KiB" 1024), a unit without a
 *        number also printed after each figure ("K" prints "4K"); a
 *        leading "'" groups thousands as the locale does.
 * Return: 0; -EINVAL (not a size, or 0); -EILSEQ (bad unit); -ERANGE
 * (more than 2^64-1 bytes).
 */
int xbulk_units_parse(const char *spec, struct xbulk_units *u);

/**
 * xbulk_units_default() - du's units before options: DU_BLOCK_SIZE, else
 * BLOCK_SIZE, else BLOCKSIZE from the environment (an invalid one counts
 * as none), else 1024 bytes (512 with POSIXLY_CORRECT).
 */
void xbulk_units_default(struct xbulk_units *u);

/**
 * xbulk_units_format() - @n bytes as du prints them in @u (gnulib
 * human_readable() with human_ceiling: rounded up, "1.1K" style when
 * autoscaling, the locale's decimal point)
 * @dst: at least XBULK_UNITS_MAX bytes; NUL-terminated
 * Return: the length written.
 */
size_t xbulk_units_format(char *dst, uint64_t n, const struct xbulk_units *u);

/* ------------------------------------------------------------------ */
/* A set of inode numbers (lib/du/inoset.c)                            */
/* ------------------------------------------------------------------ */

/* Open addressing; inode 0 (never allocated on XFS) marks a free slot.
 * Zero it before use (no init function); xbulk_inoset_free() leaves it
 * empty and usable. */
struct xbulk_inoset {
	uint64_t	*slots;
	size_t		mask;		/* slots - 1, a power of 2 minus 1 */
	size_t		count;
};

/** xbulk_inoset_add() - Return: 1 if added, 0 if present, -ENOMEM. */
int xbulk_inoset_add(struct xbulk_inoset *s, uint64_t ino);
/** xbulk_inoset_has() - is @ino in the set */
bool xbulk_inoset_has(const struct xbulk_inoset *s, uint64_t ino);
void xbulk_inoset_free(struct xbulk_inoset *s);

/* ------------------------------------------------------------------ */
/* du's accounting over the walk (lib/du/account.c)                    */
/* ------------------------------------------------------------------ */

/* A subtree's sum: what du prints for it. */
struct xbulk_du_sum {
	uint64_t	bytes;		/* disk usage or apparent size */
	uint64_t	inodes;		/* inodes counted (--inodes) */
};

/*
 * Called once per counted entry, in GNU du's order: a non-directory when
 * the walk reaches it, a directory after its contents (with the sums of
 * its whole subtree).  @e->depth is 0 for the operand itself.  Return 0
 * or a negative errno, which ends the walk.
 */
typedef int (*xbulk_du_fn)(void *arg, const struct xbulk_entry *e,
			   const struct xbulk_du_sum *sum);

struct xbulk_du_opts {
	bool		apparent;	/* bs_size, not bs_blocks */
	bool		count_links;	/* -l: every link of a file counts */
	bool		hash_all;	/* several operands: directories are
					   counted once too (du's hash_all) */
	bool		separate_dirs;	/* -S: a directory's sum leaves out
					   its subdirectories */
	unsigned int	blocklog;	/* log2 of the fs block size */
	xbulk_du_fn	fn;
	/* Optional (du --exclude): true leaves @e out, and a directory
	 * with everything under it; asked before the link count. */
	bool		(*exclude)(void *arg, const struct xbulk_entry *e);
	void		*arg;		/* for fn and exclude */
};

struct xbulk_du;

/** xbulk_du_new() - Return: 0 or -ENOMEM (@o is copied). */
int xbulk_du_new(const struct xbulk_du_opts *o, struct xbulk_du **du);
/** xbulk_du_free() - release @du (NULL is fine). */
void xbulk_du_free(struct xbulk_du *du);

/**
 * xbulk_du_visit() - the walk callback (pass it to xbulk_names_walk()
 * with XBULK_WALK_POST and @du as its argument).  The names must keep
 * XBULK_F_BLOCKS (or XBULK_F_SIZE with apparent) and, unless
 * count_links, XBULK_F_NLINK: without it every bs_nlink reads 0 and a
 * file with several links counts at each of its paths.  Each operand is one
 * walk from depth 0; the set of counted inodes and the total go on across
 * walks, as du's do across its operands.
 *
 * A file with several links counts at its first path only (unless
 * count_links); a mount point of another filesystem is left out with
 * everything under it (du -x).  Returns XBULK_WALK_PRUNE for a directory
 * it leaves out, or @fn's error.
 */
int xbulk_du_visit(void *du, const struct xbulk_entry *e,
		   enum xbulk_visit visit);

/** xbulk_du_total() - the sum of every operand so far (du -c's line) */
void xbulk_du_total(const struct xbulk_du *du, struct xbulk_du_sum *sum);

/** xbulk_du_bytes() - what one inode counts for: bs_blocks in bytes
 * (st_blocks * 512), or bs_size with @apparent (negative sizes: 0) */
static inline uint64_t
xbulk_du_bytes(const struct xfs_bulkstat *bs, unsigned int blocklog,
	       bool apparent)
{
	if (apparent)
		return (int64_t)bs->bs_size < 0 ? 0 : bs->bs_size;
	return bs->bs_blocks << blocklog;
}

/* ------------------------------------------------------------------ */
/* Sums by attribute (lib/du/agg.c)                                    */
/* ------------------------------------------------------------------ */

/* What --by groups inodes by. */
enum xbulk_by {
	XBULK_BY_UID,
	XBULK_BY_GID,
	XBULK_BY_PROJID,
	XBULK_BY_TYPE,		/* S_IFMT: file, dir, symlink... */
	XBULK_BY_EXT,		/* the charged name's last ".suffix" */
	XBULK_BY_AGE,		/* <1d <7d <30d <90d <1y <3y older */
	XBULK_BY_SIZE_CLASS,	/* apparent size: <4K <16K ... <1P >=1P */
	XBULK_BY_NR,
};

/* Which time --by age looks at. */
enum xbulk_time {
	XBULK_TIME_MTIME,
	XBULK_TIME_ATIME,
	XBULK_TIME_CTIME,
	XBULK_TIME_BTIME,	/* birth: 0 where the kernel gives none */
	XBULK_TIME_NR,
};

/* One group's sums.  Key 0 of ext is "no suffix". */
struct xbulk_agg_row {
	uint64_t	key;		/* uid, gid, projid, S_IFMT >> 12,
					   ext id, age or size class */
	uint64_t	count;		/* inodes */
	uint64_t	disk;		/* bytes of disk usage */
	uint64_t	apparent;	/* bytes of apparent size */
};

/* Rows by key (open addressing; a row with count 0 is a free slot).
 * Zero it before use; xbulk_agg_table_free() releases the rows and
 * leaves it zeroed. */
struct xbulk_agg_table {
	struct xbulk_agg_row	*rows;
	size_t			mask;
	size_t			count;	/* rows in use */
};

/* What a table's keys mean: shared by all tables of one run. */
struct xbulk_agg {
	enum xbulk_by	by;
	enum xbulk_time	time;
	int64_t		now;		/* seconds since the epoch (age) */
	unsigned int	blocklog;
	/* ext: suffixes by id (id - 1), and their hash index */
	char		**ext;
	size_t		next;
	uint32_t	*ext_index;	/* id per slot, 0 free */
	size_t		ext_mask;
};

#define XBULK_AGE_CLASSES	7
#define XBULK_SIZE_CLASSES	21
/* Most bytes of a label, NUL included (a suffix is at most 255). */
#define XBULK_AGG_LABEL_MAX	256

/** xbulk_time_of() - the time @t of @bs, seconds since the epoch */
static inline int64_t
xbulk_time_of(const struct xfs_bulkstat *bs, enum xbulk_time t)
{
	switch (t) {
	case XBULK_TIME_ATIME:
		return bs->bs_atime;
	case XBULK_TIME_CTIME:
		return bs->bs_ctime;
	case XBULK_TIME_BTIME:
		return bs->bs_btime;
	default:
		return bs->bs_mtime;
	}
}

/** xbulk_age_class() - the age class (0 "<1d" ... 6 "older") of time @t
 * at @now; a time in the future is "<1d". */
unsigned int xbulk_age_class(int64_t now, int64_t t);

/** xbulk_agg_init() - keys of @by; no allocation until the first ext. */
void xbulk_agg_init(struct xbulk_agg *a, enum xbulk_by by,
		    enum xbulk_time time, int64_t now, unsigned int blocklog);
/** xbulk_agg_free() - release the ext suffixes (labels from
 * xbulk_agg_label() die with them); not the tables. */
void xbulk_agg_free(struct xbulk_agg *a);

/**
 * xbulk_agg_key() - the group of @e (its bulkstat record, and for ext its
 * name: after e->name_off, or at depth 0 the operand's last component,
 * trailing slashes stripped)
 * Return: 0 or -ENOMEM (a new suffix could not be kept).
 */
int xbulk_agg_key(struct xbulk_agg *a, const struct xbulk_entry *e,
		  uint64_t *key);

/**
 * xbulk_agg_label() - the name of @key for type, ext, age and size class
 * ("file", "c", "(none)", "<7d", "<16K"); NULL for uid, gid and projid,
 * whose names are the caller's (NSS, /etc/projid).
 */
const char *xbulk_agg_label(const struct xbulk_agg *a, uint64_t key);

/** xbulk_agg_add() - count one inode of @key.  Return: 0 or -ENOMEM. */
int xbulk_agg_add(struct xbulk_agg_table *t, const struct xbulk_agg *a,
		  uint64_t key, const struct xfs_bulkstat *bs);
/** xbulk_agg_merge() - add @src's rows into @dst.  Return: 0, -ENOMEM */
int xbulk_agg_merge(struct xbulk_agg_table *dst,
		    const struct xbulk_agg_table *src);
/** xbulk_agg_clear() - empty @t, keeping its memory */
void xbulk_agg_clear(struct xbulk_agg_table *t);
void xbulk_agg_table_free(struct xbulk_agg_table *t);

/**
 * xbulk_agg_sorted() - @t's rows, most disk usage first (then most
 * apparent size, then key), in a new array of @t->count rows (free() it)
 * Return: the array, or NULL with errno ENOMEM (or for an empty table).
 */
struct xbulk_agg_row *xbulk_agg_sorted(const struct xbulk_agg_table *t);

/*
 * Tables per directory down to a depth, over du's counted entries: feed
 * it every xbulk_du_fn call; it calls @fn with the table of each
 * directory at depth <= max_depth (its whole subtree) after the
 * directory's contents, and of a non-directory operand.
 */
typedef int (*xbulk_agg_dir_fn)(void *arg, const struct xbulk_entry *e,
				const struct xbulk_agg_table *t);

struct xbulk_agg_dirs {
	struct xbulk_agg	*agg;
	unsigned int		max_depth;
	xbulk_agg_dir_fn	fn;
	void			*arg;
	struct xbulk_agg_table	total;	/* every operand (du -c) */
	struct xbulk_agg_table	*lvl;	/* one per depth reached, at most
					   max_depth + 1 */
	size_t			nlvl;
};

/** xbulk_agg_dirs_init() - Return: 0 (tables come as depths are reached). */
int xbulk_agg_dirs_init(struct xbulk_agg_dirs *d, struct xbulk_agg *agg,
			unsigned int max_depth, xbulk_agg_dir_fn fn,
			void *arg);
/** xbulk_agg_dirs_charge() - one counted entry.  Return: 0, @fn's error
 * or -ENOMEM. */
int xbulk_agg_dirs_charge(struct xbulk_agg_dirs *d,
			  const struct xbulk_entry *e);
/** xbulk_agg_dirs_free() - release the per-depth tables (not @d->agg). */
void xbulk_agg_dirs_free(struct xbulk_agg_dirs *d);

/* ------------------------------------------------------------------ */
/* The largest entries (lib/du/top.c)                                  */
/* ------------------------------------------------------------------ */

struct xbulk_top_item {
	uint64_t		key;	/* what it is ranked by */
	struct xbulk_du_sum	sum;
	uint64_t		seq;	/* order of arrival: ties keep the
					   first */
	char			*path;
};

/* The @want largest of what was added (a min-heap of @want items). */
struct xbulk_top {
	struct xbulk_top_item	*heap;
	size_t			n, want;
	uint64_t		seq;
};

/** xbulk_top_init() - keep the @want largest.  Return: 0 or -ENOMEM. */
int xbulk_top_init(struct xbulk_top *t, size_t want);
/**
 * xbulk_top_add() - offer @path, ranked by @key (du --top: its bytes, or
 * with --inodes its inodes), with its @sum.
 * Return: 0 or -ENOMEM (copies @path).
 */
int xbulk_top_add(struct xbulk_top *t, uint64_t key,
		  const struct xbulk_du_sum *sum, const char *path);
/** xbulk_top_sort() - the items largest first (ties: first added). */
void xbulk_top_sort(struct xbulk_top *t);
/** xbulk_top_free() - release the items and their paths. */
void xbulk_top_free(struct xbulk_top *t);

/* ------------------------------------------------------------------ */
/* Treemap of disk usage (lib/du/treemap.c, lib/du/svg.c)              */
/* ------------------------------------------------------------------ */

struct xbulk_rect {
	double	x, y, w, h;
};

/**
 * xbulk_treemap_squarify() - lay out @n boxes of @sizes (largest first,
 * none negative) in @r, squarified (Bruls, Huizing, van Wijk 2000): each
 * box's area is its share of the sum, to rounding; @out[i] is @sizes[i]'s.
 */
void xbulk_treemap_squarify(const double *sizes, size_t n,
			    const struct xbulk_rect *r,
			    struct xbulk_rect *out);

enum xbulk_color_by {
	XBULK_COLOR_OWNER,	/* a colour for each of the 10 owners of
				   the most bytes drawn, one for the rest */
	XBULK_COLOR_AGE,	/* the age classes of --by age */
};

struct xbulk_svg_opts {
	unsigned int	depth;		/* levels of boxes under an operand */
	enum xbulk_color_by color;
	enum xbulk_time	time;		/* for XBULK_COLOR_AGE */
	int64_t		now;		/* seconds since the epoch */
	unsigned int	width, height;	/* pixels; 0: 1280 x 800 */
	const char	*title;		/* the heading; any bytes */
	/* The name of a uid for tooltips and the legend (NULL or
	 * returning NULL: the number). */
	const char	*(*owner_name)(void *arg, uint32_t uid);
	void		*arg;
};

/*
 * The picture: fed du's counted entries (xbulk_du_fn calls), it keeps a
 * box for each entry down to @depth, at most XBULK_SVG_KEEP per directory
 * (the largest; the rest, and what is too small to draw, is drawn as one
 * hatched "N more" box per directory), then writes an SVG file.
 */
struct xbulk_svg;

#define XBULK_SVG_KEEP		200

/** xbulk_svg_new() - Return: 0 or -ENOMEM. */
int xbulk_svg_new(const struct xbulk_svg_opts *o, struct xbulk_svg **svg);
/** xbulk_svg_charge() - one counted entry.  Return: 0 or -ENOMEM. */
int xbulk_svg_charge(struct xbulk_svg *svg, const struct xbulk_entry *e,
		     const struct xbulk_du_sum *sum);
/**
 * xbulk_svg_write() - the treemap of everything charged, as SVG 1.1:
 * one <g> per box (attributes data-id, data-parent, data-bytes,
 * data-kind dir|file|other, and data-inner "x y w h" for a directory
 * whose boxes are drawn inside) holding a <title> tooltip (path, size,
 * owner, time), a <rect> and a label <text> where it fits: its box, as
 * wide as DejaVu Sans sets it (any character not ASCII taken as 1.03 em)
 * from the baseline's start and from 1 em above the baseline to 0.25 em
 * below, lies inside the rect; then a legend of the colours.
 * Return: 0, the negative errno of writing @f, or -ENOMEM (then boxes
 * are missing).
 */
int xbulk_svg_write(struct xbulk_svg *svg, FILE *f);
/** xbulk_svg_free() - release @svg (NULL is fine). */
void xbulk_svg_free(struct xbulk_svg *svg);

/* ------------------------------------------------------------------ */
/* find expressions (lib/find/)                                        */
/* ------------------------------------------------------------------ */

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
	/* log2 of the unit of @bs->bs_blocks: 0 for the filesystem's block
	 * size (bulkstat), 9 for a stat()'s 512-byte blocks. */
	unsigned int			blocklog;
};

/* Every hook is optional (NULL). */
struct xbulk_find_opts {
	struct timespec	now;		/* find's start time */
	bool		warnings;	/* find's default: stdin is a tty */
	/* A parse warning, without "find: " (may be NULL). */
	void		(*warn)(void *arg, const char *msg);
	/* A file that could not be fully handled (e.g. a symlink that
	 * could not be read for %l): the caller prints, exit status 1. */
	void		(*problem)(void *arg, const char *path, int err);
	/* The target of symlink @file into @buf (not NUL-terminated):
	 * xbulk_names_readlink() of @file->bs, or readlink(2) of the path
	 * for a mount point (@file->dev set).  Return: its length, or a
	 * negative errno.  Without it, each %l, -lname and -ls of a
	 * symlink is a problem (-ENOSYS) and shows no target. */
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
 * @err:         a message (without "find: ") on failure: one line, or
 *               two (find's hint after a PATH among the expression);
 *               NUL-terminated, cut to @errlen bytes
 * @status:      exit status for the failure (XBULK_FIND_EXIT_*); 0 with
 *               XBULK_FIND_HELP and XBULK_FIND_VERSION
 *
 * Return: 0; -EINVAL for a bad expression (find's own message and
 * status) or a refused action; -ENOMEM; XBULK_FIND_HELP or
 * XBULK_FIND_VERSION when the expression reached find's -help or
 * -version (--help, --version): nothing is compiled (*@out is NULL) and
 * the caller prints its help or version, as find does, exit status 0.
 */
#define XBULK_FIND_HELP		1
#define XBULK_FIND_VERSION	2
int xbulk_find_parse(int argc, char **argv,
		     const struct xbulk_find_opts *opts,
		     struct xbulk_find **out, char *err, size_t errlen,
		     int *status);

/** xbulk_find_free() - release @find (NULL is fine).  What its outputs
 * still hold is dropped (xbulk_find_flush() first); the
 * fds given by xbulk_find_set_output() are the caller's to close. */
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
 * terminal); output 0 starts as fd 1, an output never given one fails
 * with -EBADF (xbulk_find_output_error()).  Each output buffers 1 MiB.
 * Return: 0 or -ENOMEM. */
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

/* The first write error of output @i (a negative errno), or 0. */
int xbulk_find_output_error(const struct xbulk_find *find, size_t i);

/* --format: what -print (and the default -print) writes instead of the
 * path: the whole bulkstat record as JSON Lines or CSV (docs/formats.md)
 * plus "path" (UTF-8, U+FFFD for bytes that are not) and "path_b64" (the
 * exact bytes in base64 when the path is not UTF-8; else null or empty).
 * Makes xbulk_find_fields() all fields. */
enum xbulk_find_record {
	XBULK_FIND_RECORD_NONE,
	XBULK_FIND_RECORD_JSONL,
	XBULK_FIND_RECORD_CSV,
};
void xbulk_find_set_record(struct xbulk_find *find,
			   enum xbulk_find_record record);
/* The CSV header's last columns, after xbulk_bulkstat_csv_header's
 * (without its CRLF): ",path,path_b64\r\n". */
extern const char xbulk_find_csv_header_tail[];


/* Files the problem hook was called for (find then exits 1). */
uint64_t xbulk_find_problems(const struct xbulk_find *find);

#pragma GCC visibility pop

#include "xbulk/metadir.h"
#include "xbulk/parent.h"
#include "xbulk/snapshot.h"

#endif /* XBULK_H */
