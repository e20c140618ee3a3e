// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Memory for what grows with the inode count, in a budget (spill.h).
 *
 * Below the budget a block is anonymous memory in huge pages, as before
 * there was a budget.  Past three quarters of it, blocks are cut from one
 * spill file: unnamed (O_TMPFILE, so no exit, not even SIGKILL, leaves it
 * behind), its space reserved with fallocate() before use (a full disk is
 * an error here, not a SIGBUS later), mapped shared at its own offset in
 * one range of addresses reserved at the first spill (adjacent mappings
 * merge: one mapping, whatever the file's size).  Whenever the anonymous
 * blocks and the spilled pages mapped (/proc/self/statm's file pages,
 * less those mapped when no spilled page was) exceed the budget, the
 * spilled pages are let go with MADV_DONTNEED: a shared file
 * mapping keeps its data in the page cache, which the kernel writes out
 * and reclaims as it needs, and the next touch faults the page back.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spill.h"

/* Addresses reserved at the first spill: the most a spill file may hold.
 * Reserving costs nothing but page tables as pages are touched; under
 * ulimit -v, half of what the limit leaves. */
#define RESERVE_MAX	(8ULL << 40)
#define RESERVE_MIN	(64ULL << 20)

/*
 * Resident bytes of files mapped by this process (statm's third field,
 * RssFile + RssShmem: the program, its libraries and the spilled
 * pages), or 0 if unknown.
 */
static uint64_t
resident(struct xbn_spill *s)
{
	unsigned long long size, rss, pages;
	char buf[128];
	ssize_t n;

	if (s->statm < 0)
		return 0;
	n = pread(s->statm, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu %llu", &size, &rss, &pages) != 3)
		return 0;
	return (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

int
xbn_spill_init(struct xbn_spill *s, uint64_t budget, const char *tmpdir,
	       dev_t scanned)
{
	memset(s, 0, sizeof(*s));
	s->budget = budget;
	s->held_cap = budget - budget / 4;
	s->tmpdir = tmpdir;
	s->scanned = scanned;
	s->fd = -1;
	s->statm = budget ? open("/proc/self/statm", O_RDONLY | O_CLOEXEC) : -1;
	return -pthread_mutex_init(&s->lock, NULL);
}

void
xbn_spill_fini(struct xbn_spill *s)
{
	if (s->base)
		munmap(s->base, s->reserved);
	if (s->fd >= 0)
		close(s->fd);
	if (s->statm >= 0)
		close(s->statm);
	pthread_mutex_destroy(&s->lock);
	s->base = NULL;
	s->fd = s->statm = -1;
}

/*
 * The spill file and the addresses it is mapped at, at the first spill
 * (s->lock held).  Return 0 or -errno.
 */
static int
open_file(struct xbn_spill *s)
{
	const char *dir = s->tmpdir;
	struct rlimit rl;
	struct stat st;
	uint64_t want;
	int fd;

	if (!dir || !*dir)
		dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/var/tmp";
	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	if (stat(dir, &st))
		return -errno;
	if (st.st_dev == s->scanned)
		return -EXDEV;
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	/* a directory may hold a mount of the scanned filesystem */
	if (fstat(fd, &st) || st.st_dev == s->scanned) {
		close(fd);
		return -EXDEV;
	}
	want = RESERVE_MAX;
	if (!getrlimit(RLIMIT_AS, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur / 2 < want)
		want = rl.rlim_cur / 2;
	for (; want >= RESERVE_MIN; want /= 2) {
		void *p = mmap(NULL, want, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			       -1, 0);

		if (p != MAP_FAILED) {
			s->base = p;
			s->reserved = want;
			break;
		}
	}
	if (!s->base) {
		close(fd);
		return -ENOMEM;
	}
	s->rss_base = resident(s);	/* no spilled page mapped yet */
	__atomic_store_n(&s->fd, fd, __ATOMIC_RELEASE);
	return 0;
}

/*
 * Disk space for @bytes of the file at @off, so that a full disk is an
 * error now, not a SIGBUS at a write through the mapping: fallocate(),
 * or where the filesystem has none (ext2, some FUSE), zeros written.
 * Return 0 or -errno.
 */
static int
reserve(int fd, uint64_t off, size_t bytes)
{
	static const char zero[64 << 10];
	size_t done = 0;

	if (!fallocate(fd, 0, (off_t)off, (off_t)bytes))
		return 0;
	if (errno != EOPNOTSUPP)
		return -errno;
	while (done < bytes) {
		size_t len = bytes - done < sizeof(zero) ? bytes - done :
							     sizeof(zero);
		ssize_t n = pwrite(fd, zero, len, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -ENOSPC;
		done += (size_t)n;
	}
	return 0;
}

/* @bytes more of the spill file, mapped (s->lock held); NULL with
 * s->err set. */
static void *
spill_block(struct xbn_spill *s, size_t bytes)
{
	uint64_t off = s->placed;
	void *p;
	int ret;

	if (s->fd < 0 && (ret = open_file(s))) {
		s->err = ret;
		return NULL;
	}
	if (off + bytes > s->reserved) {
		s->err = -ENOMEM;	/* the addresses, not the disk */
		return NULL;
	}
	ret = reserve(s->fd, off, bytes);
	if (ret) {
		s->err = ret;
		return NULL;
	}
	p = mmap(s->base + off, bytes, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, s->fd, (off_t)off);
	if (p == MAP_FAILED) {
		s->err = -errno;
		return NULL;
	}
	s->placed = off + bytes;
	/*
	 * It is written next: one call maps its pages, where a fault each
	 * costs ~20 us in a VM; not when the block would take more than a
	 * quarter of what the budget leaves for spilled pages (a trim would
	 * drop them before they are written).
	 */
	if (bytes <= (s->budget - s->held_cap) / 4)
		madvise(p, bytes, MADV_POPULATE_WRITE);
	return p;
}

/* Anonymous memory for a block; with @ahead, in huge pages faulted in
 * at once. */
static void *
anon_block(size_t bytes, bool huge, bool ahead)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	void *p = huge ? aligned_alloc(XBN_BLOCK_ALIGN, bytes) :
			 malloc(bytes);
	uintptr_t lo, hi;

	if (!p || !huge || !ahead)
		return p;
	madvise(p, bytes, MADV_HUGEPAGE);	/* best effort */
	/*
	 * MADV_POPULATE_WRITE: the first write to each page of fresh
	 * memory otherwise traps one by one, which costs more than the
	 * scan's own work on a 128-byte slot (most in a VM).  An older
	 * kernel says EINVAL: the pages then fault one by one.
	 */
	lo = ((uintptr_t)p + page - 1) & ~(page - 1);
	hi = ((uintptr_t)p + bytes) & ~(page - 1);
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
	return p;
}

void *
xbn_alloc_block(struct xbn_spill *s, size_t len, size_t *got, bool huge)
{
	size_t unit = huge ? XBN_BLOCK_ALIGN : (size_t)sysconf(_SC_PAGESIZE);
	size_t bytes = (len + unit - 1) & ~(unit - 1);
	void *p = NULL;
	bool spill, ahead;

	pthread_mutex_lock(&s->lock);
	spill = s->budget && s->held + bytes > s->held_cap;
	ahead = s->held >= s->ahead_held;
	if (s->err) {
		p = NULL;
	} else if (spill) {
		p = spill_block(s, bytes);
	} else {
		s->held += bytes;
	}
	pthread_mutex_unlock(&s->lock);
	if (spill) {
		xbn_spill_check(s);
	} else if (!s->err) {
		p = anon_block(bytes, huge, ahead);
		if (!p) {
			pthread_mutex_lock(&s->lock);
			s->held -= bytes;
			if (!s->err)
				s->err = -ENOMEM;
			pthread_mutex_unlock(&s->lock);
		}
	}
	if (p)
		*got = huge ? bytes : len;
	return p;
}

void
xbn_free_block(struct xbn_spill *s, void *p, size_t len)
{
	size_t unit = (size_t)sysconf(_SC_PAGESIZE);

	if (!p || xbn_spilled(s, p))
		return;
	free(p);
	pthread_mutex_lock(&s->lock);
	s->held -= (len + unit - 1) & ~(unit - 1);
	pthread_mutex_unlock(&s->lock);
}

void
xbn_spill_check(struct xbn_spill *s)
{
	uint64_t rss;

	if (__atomic_load_n(&s->fd, __ATOMIC_ACQUIRE) < 0)
		return;
	pthread_mutex_lock(&s->lock);
	/*
	 * The anonymous blocks and the file pages mapped since no spilled
	 * page was: the fixed costs (buffers, threads, zstd) do not count,
	 * nor do pages of the program and its libraries first run since
	 * (the base is taken again after each trim).
	 */
	rss = resident(s);
	rss = rss > s->rss_base ? rss - s->rss_base : 0;
	if (s->held + rss > s->budget && s->placed) {
		madvise(s->base, s->placed, MADV_DONTNEED);
		s->trims++;
		s->rss_base = resident(s);
	}
	pthread_mutex_unlock(&s->lock);
}
