/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to libxbulk's base (prefix xbl_: CONTRIBUTING.md).
 *
 * What every layer of libxbulk uses and callers never see: the
 * filesystem handle's fields, a clock, a cancel check, the write loop
 * (lib/outbuf.c) and the output buffer's size, a growing buffer
 * (lib/grow.c).
 */
#ifndef XBULK_BASE_H
#define XBULK_BASE_H

#include <time.h>

#include "xbulk.h"

/* The filesystem handle behind the opaque struct xbulk_fs (lib/fs.c). */
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

/* One past the last byte of @member in @type: the size of a sized struct
 * whose last field, in the version that had it, is @member. */
#define XBL_SIZE_TO(type, member) \
	(offsetof(type, member) + sizeof(((type *)0)->member))

/*
 * A struct the caller allocated with its own @size first (its version):
 * copy it into @dst (the library's @dsize bytes, zeroed past what the
 * caller has).  -EINVAL if @size is less than @min (the first version's
 * size); -E2BIG if the caller's is larger and sets a byte this library
 * does not know (as clone3() and openat2() do).
 */
int xbl_sized_in(void *dst, size_t dsize, const void *src, size_t min);

/*
 * The library's @src (@ssize bytes, size field first) into the caller's
 * @dst, whose own size field says how much it has room for; the caller's
 * size stays.  -EINVAL if that is less than @min.
 */
int xbl_sized_out(void *dst, const void *src, size_t ssize, size_t min);

/* Nanoseconds on clock @id. */
static inline uint64_t
xbl_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Add @n to the counter @field of the struct xbulk_names_progress @p
 * (NULL: none); relaxed, as a display on another thread reads it. */
#define XBL_PROGRESS_ADD(p, field, n)					\
	do {								\
		if (p)							\
			__atomic_fetch_add(&(p)->field, (n),		\
					   __ATOMIC_RELAXED);		\
	} while (0)

static inline void
xbl_progress_phase(struct xbulk_names_progress *p, enum xbulk_names_phase ph)
{
	if (p)
		__atomic_store_n(&p->phase, (uint32_t)ph, __ATOMIC_RELAXED);
}

/* Has the caller asked to stop (*@cancel set, by a signal handler or
 * another thread)? */
static inline bool
xbl_cancelled(const volatile int *cancel)
{
	return cancel && __atomic_load_n(cancel, __ATOMIC_RELAXED);
}

/* Output buffer size: one write() per this many bytes. */
#define XBL_OUT_BUFSIZE	(1U << 20)

/* An output buffer inside the library's own objects (lib/outbuf.c):
 * set up @cap bytes writing to @fd (0 or -ENOMEM), and release them. */
int xbl_out_setup(struct xbulk_out *out, int fd, size_t cap);
void xbl_out_release(struct xbulk_out *out);

/*
 * Grow *@buf, *@cap elements of @unit bytes, to hold @need (doubling,
 * from 64 KiB; never shrinks): 0 or -ENOMEM (*@buf and *@cap then
 * unchanged).  Inline when there is room: walks and directory reads ask
 * once per entry.
 */
int xbl_grow_to(void **buf, size_t *cap, size_t need, size_t unit);
static inline int
xbl_grow(void **buf, size_t *cap, size_t need, size_t unit)
{
	return need <= *cap ? 0 : xbl_grow_to(buf, cap, need, unit);
}

/* write() all of @buf, retrying short writes and EINTR; 0 or -errno. */
int xbl_write_all(int fd, const char *buf, size_t len);

/*
 * lib/pathat.c: @path of any length for an *at() call: *@dirfd (AT_FDCWD,
 * or an O_PATH fd of a directory the caller closes) and *@rel, shorter
 * than PATH_MAX.  Return 0 or the -errno of opening a directory on the
 * way (-ENAMETOOLONG for a name longer than PATH_MAX).
 */
int xbl_path_at(const char *path, int *dirfd, const char **rel);

#endif /* XBULK_BASE_H */
