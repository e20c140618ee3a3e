// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * names_dump: every entry of the names engine's walks, to compare with
 * GNU find on the same tree (tests/integration/test-names.sh).
 *
 *   names_dump [-j N] [-d] [-l] [-k] [-q] [-F FIELDS] [-C MS] [-u] MNT
 *              [START...]
 *   names_dump -H PATH
 *
 * Builds the names of the filesystem MNT is on and walks each START
 * (default MNT), printing "ino<TAB>path" and a NUL per entry, as
 * find START -xdev -printf '%i\t%p\0' does; with -d in find -depth's
 * order (directories after their contents); with -l a symlink's entry
 * is "ino<TAB>path<TAB>target".  -k keeps directories only (a keep filter
 * that drops every other inode); -F keeps those XBULK_F_* fields
 * (default: size); -u prints the unreached inodes, one "ino" and a NUL
 * each, after the walks.  -q walks without printing (to time the engine
 * alone).  -C MS sets the cancel flag MS milliseconds in and reports
 * what the engine did after it: the inode lookups of MNT's filesystem
 * (the "ig" count of its XFS statistics) and the entries walked, and how
 * long it took to stop (for humans).  On stderr: one line per
 * problem and a summary line with the result's counters and peak RSS.
 * Exit: 0, 1 on a failure (or a walk error), 2 on usage.
 *
 * -H PATH: check that the engine's XFS handle of PATH's inode is the one
 * name_to_handle_at() gives (exit 0 if so).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "xbulk.h"
#include "names/dirs.h"

static volatile int cancel_flag;
static struct timespec cancel_at;
static char stats_path[PATH_MAX];	/* MNT's /sys/fs/xfs/DEV/stats/stats */
static long long lookups_at_cancel = -1;
static unsigned long long entries_after_cancel;

static struct {
	bool	targets;
	bool	depth;
	bool	unreadable;	/* exit 1 as find does */
	bool	quiet;
	struct xbulk_names *nm;
	FILE	*out;
} g;

static int
print_entry(void *arg, const struct xbulk_entry *e, enum xbulk_visit v)
{
	char target[4096];
	int len;

	(void)arg;
	if (cancel_flag)
		entries_after_cancel++;
	if (g.quiet ||
	    (g.depth != (v == XBULK_VISIT_POST) && S_ISDIR(e->bs->bs_mode)))
		return 0;
	if (e->flags & XBULK_ENTRY_UNREADABLE) {
		fprintf(stderr, "names_dump: '%s': %s\n", e->path,
			strerror(-e->err));
		g.unreadable = true;
	}
	fprintf(g.out, "%llu\t%s", (unsigned long long)e->bs->bs_ino, e->path);
	if (g.targets && S_ISLNK(e->bs->bs_mode) &&
	    !(e->flags & XBULK_ENTRY_MOUNT)) {
		len = xbulk_names_readlink(g.nm, e->bs, target, sizeof(target));
		if (len < 0)
			return len;
		fprintf(g.out, "\t%.*s", len, target);
	}
	fputc('\0', g.out);
	return 0;
}

static int
print_unreached(void *arg, const struct xfs_bulkstat *bs)
{
	(void)arg;
	fprintf(g.out, "%llu%c", (unsigned long long)bs->bs_ino, '\0');
	return 0;
}

static const char *const kinds[] = {
	[XBULK_PROBLEM_UNREADABLE] = "unreadable",
	[XBULK_PROBLEM_BAD_INODE] = "bad-inode",
	[XBULK_PROBLEM_DIR_LINK] = "dir-link",
	[XBULK_PROBLEM_DOTDOT] = "dotdot",
	[XBULK_PROBLEM_CYCLE] = "cycle",
	[XBULK_PROBLEM_AG_FAULT] = "ag-fault",
};

static void
problem(void *arg, const struct xbulk_names_problem *p)
{
	(void)arg;
	fprintf(stderr, "problem %s ino=%llu parent=%llu err=%d path=%s",
		kinds[p->kind], (unsigned long long)p->ino,
		(unsigned long long)p->parent, p->err,
		p->path ? p->path : "-");
	if (p->ag_fault)
		fprintf(stderr, " agno=%u", p->ag_fault->agno);
	fputc('\n', stderr);
}

static bool
keep_none(void *arg, const struct xfs_bulkstat *bs)
{
	(void)arg;
	(void)bs;
	return false;
}

/* Find the XFS statistics of the filesystem @mnt is on. */
static void
stats_init(const char *mnt)
{
	char dev[64], real[PATH_MAX];
	struct stat st;
	const char *name;

	if (stat(mnt, &st))
		return;
	snprintf(dev, sizeof(dev), "/sys/dev/block/%u:%u", major(st.st_dev),
		 minor(st.st_dev));
	if (!realpath(dev, real))
		return;
	name = strrchr(real, '/') + 1;
	snprintf(stats_path, sizeof(stats_path), "/sys/fs/xfs/%s/stats/stats",
		 name);
}

/* Inode cache lookups so far (the "ig" line's first number), or -1. */
static long long
lookups(void)
{
	char line[256];
	long long n = -1;
	FILE *f = stats_path[0] ? fopen(stats_path, "re") : NULL;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "ig %lld", &n) == 1)
			break;
	fclose(f);
	return n;
}

static void *
canceller(void *arg)
{
	long ms = *(long *)arg;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
	clock_gettime(CLOCK_MONOTONIC, &cancel_at);
	lookups_at_cancel = lookups();
	cancel_flag = 1;
	return NULL;
}


static double
ms_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) * 1e3 +
	       (double)(now.tv_nsec - t->tv_nsec) / 1e6;
}

/* What the engine did after the cancel, and how long it took to stop. */
static void
report_stop(void)
{
	long long now = lookups();

	fprintf(stderr, "names_dump: stopped %.1f ms after the cancel: "
		"lookups_after=%lld entries_after=%llu\n",
		ms_since(&cancel_at),
		now < 0 || lookups_at_cancel < 0 ? -1 :
		now - lookups_at_cancel, entries_after_cancel);
}

/* The engine's handle of @path against the kernel's. */
static int
check_handle(const char *path)
{
	union xbn_handle mine;
	char buf[sizeof(struct file_handle) + MAX_HANDLE_SZ];
	struct file_handle *fh = (struct file_handle *)buf;
	struct xfs_bulkstat bs;
	struct xbulk_fs *fs;
	struct stat st;
	int mnt, ret;

	fh->handle_bytes = MAX_HANDLE_SZ;
	if (name_to_handle_at(AT_FDCWD, path, fh, &mnt, 0) || stat(path, &st)) {
		perror(path);
		return 1;
	}
	ret = xbulk_fs_open(path, XBULK_ABI_AUTO, &fs);
	if (!ret)
		ret = xbulk_bulkstat_single(fs, st.st_ino, 0, &bs);
	if (ret) {
		fprintf(stderr, "names_dump: %s: %s\n", path, strerror(-ret));
		return 1;
	}
	xbn_handle_pack(&mine, bs.bs_ino, bs.bs_gen);
	xbulk_fs_close(fs);
	if (fh->handle_type != mine.fh.handle_type ||
	    fh->handle_bytes != mine.fh.handle_bytes ||
	    memcmp(fh->f_handle, mine.fh.f_handle, XBN_HANDLE_BYTES)) {
		fprintf(stderr, "names_dump: %s: kernel handle type %d, %u "
			"bytes differs from ours\n", path, fh->handle_type,
			fh->handle_bytes);
		return 1;
	}
	return 0;
}

static void
summary(const struct xbulk_names_result *r)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	fprintf(stderr,
		"names_dump: inodes=%llu dropped=%llu dirs=%llu read=%llu "
		"names=%llu mounts=%llu gone=%llu moved=%llu stale=%llu "
		"unreadable=%llu bad=%llu damage=%llu slot=%u store=%llu "
		"names_bytes=%llu scan_s=%.3f read_s=%.3f link_s=%.3f "
		"maxrss_kib=%ld\n",
		(unsigned long long)r->inodes, (unsigned long long)r->dropped,
		(unsigned long long)r->dirs, (unsigned long long)r->dirs_read,
		(unsigned long long)r->names, (unsigned long long)r->mounts,
		(unsigned long long)r->dirs_gone,
		(unsigned long long)r->dirs_moved,
		(unsigned long long)r->stale_names,
		(unsigned long long)r->dirs_unreadable,
		(unsigned long long)r->bad_inodes,
		(unsigned long long)r->damage, r->slot_bytes,
		(unsigned long long)r->store_bytes,
		(unsigned long long)r->names_bytes, r->scan_s, r->read_s,
		r->link_s, ru.ru_maxrss);
}

int
main(int argc, char **argv)
{
	struct xbulk_names_opts o = { .size = sizeof(o),
				      .fields = XBULK_F_SIZE,
				      .problem = problem };
	struct xbulk_names_result r = { .size = sizeof(r) };
	struct xbulk_fs *fs;
	bool unreached = false;
	long cancel_ms = -1;
	struct timespec walk_t0;
	pthread_t tid;
	int c, ret, i, status = 0;

	g.out = stdout;
	while ((c = getopt(argc, argv, "j:dlkqF:C:uH:")) != -1) {
		switch (c) {
		case 'j':
			o.threads = (unsigned int)atoi(optarg);
			break;
		case 'd':
			g.depth = true;
			break;
		case 'l':
			g.targets = true;
			break;
		case 'k':
			o.keep = keep_none;
			break;
		case 'q':
			g.quiet = true;
			break;
		case 'F':
			o.fields = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'C':
			cancel_ms = atol(optarg);
			break;
		case 'u':
			unreached = true;
			break;
		case 'H':
			return check_handle(optarg);
		default:
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: names_dump [options] MNT [START...]\n");
		return 2;
	}
	ret = xbulk_fs_open(argv[optind], XBULK_ABI_AUTO, &fs);
	if (ret) {
		fprintf(stderr, "names_dump: %s: %s\n", argv[optind],
			strerror(-ret));
		return 1;
	}
	if (cancel_ms >= 0) {
		stats_init(argv[optind]);
		o.cancel = &cancel_flag;
		pthread_create(&tid, NULL, canceller, &cancel_ms);
	}
	ret = xbulk_names_build(fs, &o, &g.nm, &r);
	summary(&r);
	if (ret) {
		fprintf(stderr, "names_dump: build failed (stage %d): %s\n",
			r.fail, strerror(-ret));
		if (cancel_flag)
			report_stop();
		xbulk_fs_close(fs);
		return ret == -EINTR ? 130 : 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &walk_t0);
	for (i = optind + 1; i < argc || i == optind + 1; i++) {
		const char *start = i < argc ? argv[i] : argv[optind];

		ret = xbulk_names_walk(g.nm, start,
				       g.depth ? XBULK_WALK_POST : 0,
				       print_entry, NULL);
		if (ret < 0) {
			fprintf(stderr, "names_dump: walk %s: %s\n", start,
				strerror(-ret));
			status = ret == -EINTR ? 130 : 1;
			break;
		}
	}
	if (!status && unreached) {
		ret = xbulk_names_unreached(g.nm, print_unreached, NULL);
		if (ret)
			status = 1;
	}
	if (cancel_flag)
		report_stop();
	else if (cancel_ms >= 0)
		fprintf(stderr, "names_dump: finished before the cancel\n");
	fflush(g.out);
	fprintf(stderr, "names_dump: walk_ms=%.1f\n", ms_since(&walk_t0));
	xbulk_names_free(g.nm);
	xbulk_fs_close(fs);
	return status ? status : g.unreadable;
}
