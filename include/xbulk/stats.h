/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libxbulk: counters around a scan: CPU, devices, XFS icache, reclaim (lib/scan/stats.c).
 * Part of <xbulk.h>: include that.
 */
#ifndef XBULK_STATS_H
#define XBULK_STATS_H

#include "xbulk/fs.h"

#pragma GCC visibility push(default)

/* ------------------------------------------------------------------ */
/* Counters around a scan (lib/scan/stats.c)                                */
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

/* Where a filesystem's counters are (opaque): xbulk_stats_open(). */
struct xbulk_stats_src;

/* A block device's counters (/sys/dev/block/MAJ:MIN/stat). */
struct xbulk_dev_sample {
	uint64_t	read_ios;	/* reads completed */
	uint64_t	read_sectors;	/* 512-byte sectors read */
	uint64_t	read_ticks_ms;	/* milliseconds spent reading */
	uint64_t	io_ticks_ms;	/* milliseconds with I/O in flight */
};

/*
 * One sample of every counter, or the difference of two.  The caller
 * allocates it with @size = sizeof(struct xbulk_sample); the library
 * writes nothing past @size.  New counters come as new fields at the end
 * (the arrays keep their lengths).
 */
struct xbulk_sample {
	size_t			size;		/* sizeof(struct xbulk_sample) */
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
 * @src: out: where they are (xbulk_stats_close() it)
 *
 * The data device is the fs's st_dev; external log and realtime devices
 * come from the logdev= and rtdev= options of its line in
 * /proc/self/mountinfo.  Device names are those of /sys/dev/block
 * (loop devices included), and the XFS statistics those of
 * /sys/fs/xfs/<data device name>/stats/stats (kernel 4.4+; without it
 * every ig counter is NA).
 *
 * Return: 0, -ENOMEM, or the negative errno of fstat() on the fs.
 */
int xbulk_stats_open(const struct xbulk_fs *fs, struct xbulk_stats_src **src);

/** xbulk_stats_close() - NULL is fine */
void xbulk_stats_close(struct xbulk_stats_src *src);

/**
 * xbulk_stats_dev() - the filesystem's device of @role
 * @name:         out: its name in /sys/dev/block ("loop0", "nvme0n1p2")
 * @major, @minor: out: its number
 * Return: false if the filesystem has no such device (then the outputs
 * are untouched).
 */
bool xbulk_stats_dev(const struct xbulk_stats_src *src,
		     enum xbulk_dev_role role, const char **name,
		     unsigned int *major, unsigned int *minor);

/** xbulk_stats_xfs_path() - "/sys/fs/xfs/<dev>/stats/stats", the XFS
 * counters' file, or NULL if there is none (every ig counter is NA) */
const char *xbulk_stats_xfs_path(const struct xbulk_stats_src *src);

/**
 * xbulk_stats_sample() - read every counter now
 * Counters that cannot be read are XBULK_STAT_NA.  Reads a handful of
 * small /proc and /sys files: ~50 us; call it between ioctls, not per
 * record.  Writes nothing past @s->size.
 */
void xbulk_stats_sample(const struct xbulk_stats_src *src,
			struct xbulk_sample *s);

/**
 * xbulk_sample_delta() - @d = @after - @before, counter by counter
 * A counter NA in either sample is NA in @d.  The XFS counters are 32-bit
 * sums that wrap, so their difference is taken modulo 2^32.
 * maxrss_kib and real_ns are @after's.  Fields past the @size of
 * @before or @after count as NA; nothing past @d->size is written.
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

#pragma GCC visibility pop

#endif /* XBULK_STATS_H */
