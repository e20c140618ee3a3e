// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Counters around a scan: where a filesystem's counters live in /proc and
 * /sys, reading them, and the difference of two samples.  Nothing here
 * prints; the command line's report does.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"

/* The first version of struct xbulk_sample ends here. */
#define SAMPLE_SIZE_1	XBL_SIZE_TO(struct xbulk_sample, psi_full_us)

/* Read a small text file whole into @buf (NUL-terminated); bytes or -1. */
static ssize_t
read_text(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (len + 1 < size) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

/* Parse the decimal number at *@p, moving past it; false if none. */
static bool
next_u64(const char **p, uint64_t *v)
{
	char *end;

	while (**p == ' ' || **p == '\t')
		(*p)++;
	if (**p < '0' || **p > '9')
		return false;
	errno = 0;
	*v = strtoull(*p, &end, 10);
	if (errno)
		return false;
	*p = end;
	return true;
}

/* The line of @text that starts with the word @word, or NULL. */
static const char *
find_line(const char *text, const char *word)
{
	size_t len = strlen(word);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, word, len) && (p[len] == ' ' || p[len] == '\t'))
			return p + len;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Finding the counters                                                */
/* ------------------------------------------------------------------ */

/* Fill in device @role from its number: its name from /sys/dev/block. */
static void
set_dev(struct xbulk_stats_src *src, enum xbulk_dev_role role, dev_t dev)
{
	char path[64], target[PATH_MAX];
	const char *base;
	size_t len;
	ssize_t n;

	src->dev[role].present = true;
	src->dev[role].major = major(dev);
	src->dev[role].minor = minor(dev);
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0) {
		snprintf(src->dev[role].name, sizeof(src->dev[role].name),
			 "%u:%u", major(dev), minor(dev));
		return;
	}
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	len = strlen(base);
	if (len >= sizeof(src->dev[role].name))
		len = sizeof(src->dev[role].name) - 1;
	memcpy(src->dev[role].name, base, len);
	src->dev[role].name[len] = '\0';
}

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void
unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
				      (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

/*
 * In the super options of @dev's mountinfo line ("rw,logdev=/dev/sdb1"),
 * find option @opt= and set device @role to the device it names.
 */
static void
find_option_dev(struct xbulk_stats_src *src, const char *line,
		const char *opt, enum xbulk_dev_role role)
{
	char path[PATH_MAX];
	const char *at = line;
	size_t olen = strlen(opt), len;
	struct stat st;

	while ((at = strstr(at, opt)) != NULL) {
		if ((at[-1] == ',' || at[-1] == ' ') && at[olen] == '=')
			break;
		at += olen;
	}
	if (!at)
		return;
	at += olen + 1;
	len = strcspn(at, ", \n");
	if (len >= sizeof(path))
		return;
	memcpy(path, at, len);
	path[len] = '\0';
	unescape(path);
	if (stat(path, &st) == 0 && S_ISBLK(st.st_mode))
		set_dev(src, role, st.st_rdev);
}

/* Log and realtime devices from the mount's line in mountinfo. */
static void
find_external_devs(struct xbulk_stats_src *src, dev_t dev)
{
	char want[32], *line = NULL;
	size_t cap = 0;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return;
	snprintf(want, sizeof(want), " %u:%u ", major(dev), minor(dev));
	while (getline(&line, &cap, f) > 0) {
		const char *sep = strstr(line, " - ");

		/* "ID PARENT MAJ:MIN ROOT MNT ... - xfs SOURCE OPTIONS" */
		if (!sep || !strstr(line, want) || strstr(line, want) > sep ||
		    strncmp(sep, " - xfs ", 7))
			continue;
		find_option_dev(src, sep, "logdev", XBULK_DEV_LOG);
		find_option_dev(src, sep, "rtdev", XBULK_DEV_RT);
		break;
	}
	free(line);
	fclose(f);
}

int
xbulk_stats_open(const struct xbulk_fs *fs, struct xbulk_stats_src **srcp)
{
	struct xbulk_stats_src *src = calloc(1, sizeof(*src));
	struct stat st;

	*srcp = NULL;
	if (!src)
		return -ENOMEM;
	if (fstat(fs->fd, &st) < 0) {
		free(src);
		return -errno;
	}
	set_dev(src, XBULK_DEV_DATA, st.st_dev);
	find_external_devs(src, st.st_dev);
	snprintf(src->xfs_stats, sizeof(src->xfs_stats),
		 "/sys/fs/xfs/%s/stats/stats", src->dev[XBULK_DEV_DATA].name);
	if (access(src->xfs_stats, R_OK) < 0)
		src->xfs_stats[0] = '\0';
	*srcp = src;
	return 0;
}

void
xbulk_stats_close(struct xbulk_stats_src *src)
{
	free(src);
}

bool
xbulk_stats_dev(const struct xbulk_stats_src *src, enum xbulk_dev_role role,
		const char **name, unsigned int *major, unsigned int *minor)
{
	if ((unsigned int)role >= XBULK_DEV_NR || !src->dev[role].present)
		return false;
	*name = src->dev[role].name;
	*major = src->dev[role].major;
	*minor = src->dev[role].minor;
	return true;
}

const char *
xbulk_stats_xfs_path(const struct xbulk_stats_src *src)
{
	return src->xfs_stats[0] ? src->xfs_stats : NULL;
}

/* ------------------------------------------------------------------ */
/* Sampling                                                            */
/* ------------------------------------------------------------------ */

static uint64_t
tv_us(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000ULL + (uint64_t)tv->tv_usec;
}

static void
set_na(uint64_t *v, size_t n)
{
	while (n--)
		v[n] = XBULK_STAT_NA;
}

/*
 * /sys/dev/block/MAJ:MIN/stat (Documentation/block/stat.rst): reads,
 * read merges, sectors read, read ms, writes, write merges, sectors
 * written, write ms, in flight, busy ms, ...
 */
static void
sample_dev(unsigned int maj, unsigned int min, struct xbulk_dev_sample *d)
{
	uint64_t f[10];
	const char *p;
	char path[64], buf[512];
	int i;

	set_na(&d->read_ios, sizeof(*d) / sizeof(uint64_t));
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/stat", maj, min);
	if (read_text(path, buf, sizeof(buf)) <= 0)
		return;
	p = buf;
	for (i = 0; i < 10; i++)
		if (!next_u64(&p, &f[i]))
			return;
	d->read_ios = f[0];
	d->read_sectors = f[2];
	d->read_ticks_ms = f[3];
	d->io_ticks_ms = f[9];
}

static void
sample_xfs(const char *path, uint64_t *ig)
{
	char buf[8192];
	const char *p;
	int i;

	set_na(ig, XBULK_IG_NR);
	if (!*path || read_text(path, buf, sizeof(buf)) <= 0)
		return;
	p = find_line(buf, "ig");
	if (!p)
		return;
	for (i = 0; i < XBULK_IG_NR; i++)
		if (!next_u64(&p, &ig[i]))
			ig[i] = XBULK_STAT_NA;
}

static void
sample_vmstat(uint64_t *vm)
{
	static const char *const names[XBULK_VM_NR] = {
		[XBULK_VM_PGSCAN_KSWAPD] = "pgscan_kswapd",
		[XBULK_VM_PGSCAN_DIRECT] = "pgscan_direct",
		[XBULK_VM_PGSTEAL_KSWAPD] = "pgsteal_kswapd",
		[XBULK_VM_PGSTEAL_DIRECT] = "pgsteal_direct",
		[XBULK_VM_SLABS_SCANNED] = "slabs_scanned",
	};
	static const char *const allocstall[] = {
		"allocstall_dma", "allocstall_dma32", "allocstall_normal",
		"allocstall_movable", "allocstall_device",
	};
	char buf[16384];
	const char *p;
	uint64_t v;
	size_t i;

	set_na(vm, XBULK_VM_NR);
	if (read_text("/proc/vmstat", buf, sizeof(buf)) <= 0)
		return;
	for (i = 0; i < XBULK_VM_NR; i++) {
		p = names[i] ? find_line(buf, names[i]) : NULL;
		if (p && !next_u64(&p, &vm[i]))
			vm[i] = XBULK_STAT_NA;
	}
	/* one counter per zone type since 4.10; "allocstall" before */
	for (i = 0; i < sizeof(allocstall) / sizeof(allocstall[0]); i++) {
		p = find_line(buf, allocstall[i]);
		if (!p || !next_u64(&p, &v))
			continue;
		if (!xbulk_stat_ok(vm[XBULK_VM_ALLOCSTALL]))
			vm[XBULK_VM_ALLOCSTALL] = 0;
		vm[XBULK_VM_ALLOCSTALL] += v;
	}
	p = find_line(buf, "allocstall");
	if (p && !next_u64(&p, &vm[XBULK_VM_ALLOCSTALL]))
		vm[XBULK_VM_ALLOCSTALL] = XBULK_STAT_NA;
}

/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=123" (kernel 4.20+) */
static void
sample_psi(struct xbulk_sample *s)
{
	char buf[512];
	const char *p;

	s->psi_some_us = s->psi_full_us = XBULK_STAT_NA;
	if (read_text("/proc/pressure/memory", buf, sizeof(buf)) <= 0)
		return;
	p = find_line(buf, "some");
	if (p && (p = strstr(p, "total=")) != NULL) {
		p += 6;
		if (!next_u64(&p, &s->psi_some_us))
			s->psi_some_us = XBULK_STAT_NA;
	}
	p = find_line(buf, "full");
	if (p && (p = strstr(p, "total=")) != NULL) {
		p += 6;
		if (!next_u64(&p, &s->psi_full_us))
			s->psi_full_us = XBULK_STAT_NA;
	}
}

static void
sample(const struct xbulk_stats_src *src, struct xbulk_sample *s)
{
	struct rusage ru;
	int i;

	s->mono_ns = xbl_clock_ns(CLOCK_MONOTONIC);
	s->real_ns = xbl_clock_ns(CLOCK_REALTIME);
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		s->utime_us = tv_us(&ru.ru_utime);
		s->stime_us = tv_us(&ru.ru_stime);
		s->maxrss_kib = (uint64_t)ru.ru_maxrss;
	} else {
		s->utime_us = s->stime_us = s->maxrss_kib = XBULK_STAT_NA;
	}
	for (i = 0; i < XBULK_DEV_NR; i++) {
		if (src->dev[i].present)
			sample_dev(src->dev[i].major, src->dev[i].minor,
				   &s->dev[i]);
		else
			set_na(&s->dev[i].read_ios,
			       sizeof(s->dev[i]) / sizeof(uint64_t));
	}
	sample_xfs(src->xfs_stats, s->ig);
	sample_vmstat(s->vm);
	sample_psi(s);
}

void
xbulk_stats_sample(const struct xbulk_stats_src *src, struct xbulk_sample *s)
{
	struct xbulk_sample all = { .size = sizeof(all) };

	sample(src, &all);
	xbl_sized_out(s, &all, sizeof(all), SAMPLE_SIZE_1);
}

/* The caller's sample @s, fields it does not have NA. */
static void
sample_in(struct xbulk_sample *dst, const struct xbulk_sample *s)
{
	size_t n = s->size < sizeof(*dst) ? s->size : sizeof(*dst);

	set_na((uint64_t *)dst, sizeof(*dst) / sizeof(uint64_t));
	memcpy(dst, s, n);
	dst->size = sizeof(*dst);
}

/* after - before, NA if either is; modulo 2^@bits for wrapping sums. */
static uint64_t
diff(uint64_t before, uint64_t after, unsigned int bits)
{
	uint64_t d;

	if (!xbulk_stat_ok(before) || !xbulk_stat_ok(after))
		return XBULK_STAT_NA;
	d = after - before;
	return bits < 64 ? d & ((1ULL << bits) - 1) : d;
}

static void
delta(struct xbulk_sample *d, const struct xbulk_sample *before,
      const struct xbulk_sample *after)
{
	const uint64_t *b, *a;
	uint64_t *o;
	size_t i, n;
	int dev;

	d->mono_ns = diff(before->mono_ns, after->mono_ns, 64);
	d->real_ns = after->real_ns;
	d->utime_us = diff(before->utime_us, after->utime_us, 64);
	d->stime_us = diff(before->stime_us, after->stime_us, 64);
	d->maxrss_kib = after->maxrss_kib;
	for (dev = 0; dev < XBULK_DEV_NR; dev++) {
		b = &before->dev[dev].read_ios;
		a = &after->dev[dev].read_ios;
		o = &d->dev[dev].read_ios;
		n = sizeof(d->dev[dev]) / sizeof(uint64_t);
		for (i = 0; i < n; i++)
			o[i] = diff(b[i], a[i], 64);
	}
	/* The kernel prints 32-bit sums of per-CPU 32-bit counters. */
	for (i = 0; i < XBULK_IG_NR; i++)
		d->ig[i] = diff(before->ig[i], after->ig[i], 32);
	for (i = 0; i < XBULK_VM_NR; i++)
		d->vm[i] = diff(before->vm[i], after->vm[i], 64);
	d->psi_some_us = diff(before->psi_some_us, after->psi_some_us, 64);
	d->psi_full_us = diff(before->psi_full_us, after->psi_full_us, 64);
}

void
xbulk_sample_delta(struct xbulk_sample *d, const struct xbulk_sample *before,
		   const struct xbulk_sample *after)
{
	struct xbulk_sample b, a, all = { .size = sizeof(all) };

	sample_in(&b, before);
	sample_in(&a, after);
	delta(&all, &b, &a);
	xbl_sized_out(d, &all, sizeof(all), SAMPLE_SIZE_1);
}

/* ------------------------------------------------------------------ */
/* Allocated inodes                                                    */
/* ------------------------------------------------------------------ */

int
xbulk_used_inodes(const struct xbulk_fs *fs, uint32_t agno, uint64_t *inodes)
{
	struct xfs_ag_geometry ag = { 0 };
	struct statfs sf;

	if (agno == XBULK_ALL_AGS) {
		if (fstatfs(fs->fd, &sf) < 0)
			return -errno;
		*inodes = sf.f_files - sf.f_ffree;
		return 0;
	}
	ag.ag_number = agno;
	if (ioctl(fs->fd, XFS_IOC_AG_GEOMETRY, &ag) < 0)
		return -errno;
	*inodes = (uint64_t)ag.ag_icount - ag.ag_ifree;
	return 0;
}
