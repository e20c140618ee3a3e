// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --stats: the figures of a scan, for people (text, a unit on every
 * figure, fio-like) and for scripts (JSON, the same figures unscaled;
 * the helpers both share with cli/memory.c's report: cli/figures.c).
 * The counters are sampled by libxbulk (lib/scan/stats.c); this file only
 * prints them.  A counter the kernel does not offer prints as "n/a" or
 * null, never as 0.  Both schemas are in docs/formats.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "watch.h"

static const char *const dev_roles[XBULK_DEV_NR] = {
	[XBULK_DEV_DATA] = "data",
	[XBULK_DEV_LOG] = "log",
	[XBULK_DEV_RT] = "rt",
};

static double
seconds(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* @count per second over @ns, or a negative value if unknown. */
static double
per_sec(uint64_t count, uint64_t ns)
{
	if (!xbulk_stat_ok(count) || !ns)
		return -1;
	return (double)count / seconds(ns);
}

/* A latency with its unit: "850 ns", "4.21 us", "812.5 us", "12.34 ms". */
static const char *
lat(char *buf, size_t size, uint64_t ns)
{
	double v = (double)ns;

	if (ns < 1000)
		snprintf(buf, size, "%" PRIu64 " ns", ns);
	else if (ns < 10000)
		snprintf(buf, size, "%.2f us", v / 1e3);
	else if (ns < 1000000)
		snprintf(buf, size, "%.1f us", v / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, size, "%.2f ms", v / 1e6);
	else
		snprintf(buf, size, "%.3f s", v / 1e9);
	return buf;
}

/* The percentiles --stats shows, as fio's completion latencies. */
static const struct {
	double		pct;
	const char	*text;		/* in the text report */
	const char	*json;		/* JSON key */
} lat_pcts[] = {
	{ 50, "p50", "p50" },
	{ 90, "p90", "p90" },
	{ 99, "p99", "p99" },
	{ 99.9, "p99.9", "p99_9" },
};

/* Busy time over wall time, capped at 100% (the ms ticks are coarse). */
static double
util(uint64_t busy_ms, uint64_t ns)
{
	double u;

	if (!xbulk_stat_ok(busy_ms) || !ns)
		return -1;
	u = 100 * (double)busy_ms / ((double)ns / 1e6);
	return u > 100 ? 100 : u;
}

/* A counter in plain digits, or "n/a". */
static const char *
num(char *buf, size_t size, uint64_t v)
{
	if (!xbulk_stat_ok(v))
		return "n/a";
	snprintf(buf, size, "%" PRIu64, v);
	return buf;
}

/* Sum of two counters, NA if either is. */
static uint64_t
sum2(uint64_t a, uint64_t b)
{
	return xbulk_stat_ok(a) && xbulk_stat_ok(b) ? a + b : XBULK_STAT_NA;
}

/* @part as a percentage of @whole, or "n/a". */
static const char *
pct(char *buf, size_t size, double part, double whole)
{
	if (part < 0 || whole <= 0)
		return "n/a";
	snprintf(buf, size, "%.1f%%", 100 * part / whole);
	return buf;
}

/* ------------------------------------------------------------------ */
/* Text                                                                */
/* ------------------------------------------------------------------ */

static void
text_device(FILE *f, const struct xb_report *r, int i)
{
	const struct xbulk_dev_sample *d = &r->delta.dev[i];
	uint64_t ns = r->delta.mono_ns;
	double bytes = xbulk_stat_ok(d->read_sectors) ?
		       (double)d->read_sectors * 512 : -1;
	unsigned int major, minor;
	const char *name;
	char b[6][32];

	if (!xbulk_stats_dev(r->src, i, &name, &major, &minor)) {
		fprintf(f, "  %-8s: %s\n", dev_roles[i],
			i == XBULK_DEV_LOG ? "internal" : "none");
		return;
	}
	fprintf(f, "  %-8s: %s (%u:%u) read: IOPS=%s, BW=",
		dev_roles[i], name, major, minor,
		xb_fig_si(b[0], sizeof(b[0]), per_sec(d->read_ios, ns)));
	if (bytes < 0 || !ns)
		fputs("n/a", f);
	else
		fprintf(f, "%.1fMiB/s (%.1fMB/s)",
			bytes / seconds(ns) / (1 << 20),
			bytes / seconds(ns) / 1e6);
	fprintf(f, ", %s IOs, %s, util=%s\n",
		num(b[1], sizeof(b[1]), d->read_ios),
		xb_fig_iec(b[2], sizeof(b[2]), bytes),
		pct(b[3], sizeof(b[3]), util(d->io_ticks_ms, ns), 100));
}

static void
text_icache(FILE *f, const struct xb_report *r)
{
	const uint64_t *ig = r->delta.ig;
	char b[6][32];

	fprintf(f, "  icache  : lookups=%s, hits=%s (%s), misses=%s, "
		"busy retries=%s, reclaims=%s",
		num(b[0], sizeof(b[0]), ig[XBULK_IG_ATTEMPTS]),
		num(b[1], sizeof(b[1]), ig[XBULK_IG_FOUND]),
		pct(b[2], sizeof(b[2]),
		    xbulk_stat_ok(ig[XBULK_IG_FOUND]) ?
			(double)ig[XBULK_IG_FOUND] : -1,
		    xbulk_stat_ok(ig[XBULK_IG_ATTEMPTS]) ?
			(double)ig[XBULK_IG_ATTEMPTS] : -1),
		num(b[3], sizeof(b[3]), ig[XBULK_IG_MISSED]),
		num(b[4], sizeof(b[4]), ig[XBULK_IG_FRECYCLE]),
		num(b[5], sizeof(b[5]), ig[XBULK_IG_RECLAIMS]));
	if (xbulk_stats_xfs_path(r->src))
		fprintf(f, " (whole fs, %s)\n", xbulk_stats_xfs_path(r->src));
	else
		fputs(" (no /sys/fs/xfs/<dev>/stats/stats)\n", f);
}

static void
text_reclaim(FILE *f, const struct xb_report *r)
{
	const uint64_t *vm = r->delta.vm;
	char b[8][32];

	fprintf(f, "  reclaim : scanned=%s pages (kswapd=%s, direct=%s), "
		"stolen=%s pages (kswapd=%s, direct=%s),\n"
		"            direct reclaim entries=%s, "
		"slab objects scanned=%s\n",
		num(b[0], sizeof(b[0]), sum2(vm[XBULK_VM_PGSCAN_KSWAPD],
					     vm[XBULK_VM_PGSCAN_DIRECT])),
		num(b[1], sizeof(b[1]), vm[XBULK_VM_PGSCAN_KSWAPD]),
		num(b[2], sizeof(b[2]), vm[XBULK_VM_PGSCAN_DIRECT]),
		num(b[3], sizeof(b[3]), sum2(vm[XBULK_VM_PGSTEAL_KSWAPD],
					     vm[XBULK_VM_PGSTEAL_DIRECT])),
		num(b[4], sizeof(b[4]), vm[XBULK_VM_PGSTEAL_KSWAPD]),
		num(b[5], sizeof(b[5]), vm[XBULK_VM_PGSTEAL_DIRECT]),
		num(b[6], sizeof(b[6]), vm[XBULK_VM_ALLOCSTALL]),
		num(b[7], sizeof(b[7]), vm[XBULK_VM_SLABS_SCANNED]));
	fprintf(f, "  pressure: memory stalls (PSI) some=%s, full=%s\n",
		xb_fig_dur(b[0], sizeof(b[0]),
			   xbulk_stat_ok(r->delta.psi_some_us) ?
			   (double)r->delta.psi_some_us / 1e6 : -1),
		xb_fig_dur(b[1], sizeof(b[1]),
			   xbulk_stat_ok(r->delta.psi_full_us) ?
			   (double)r->delta.psi_full_us / 1e6 : -1));
}

/* One line of latencies: "min=..., p50=..., ..., max=... (N what)". */
static void
text_lat_line(FILE *f, const char *label, const struct xbulk_lat *h,
	      const char *what)
{
	char b[32];
	size_t i;

	uint64_t count = xbulk_lat_count(h);

	fprintf(f, "%s", label);
	if (!count) {
		fprintf(f, "n/a (no %s)\n", what);
		return;
	}
	fprintf(f, "min=%s", lat(b, sizeof(b), xbulk_lat_min_ns(h)));
	for (i = 0; i < sizeof(lat_pcts) / sizeof(lat_pcts[0]); i++)
		fprintf(f, ", %s=%s", lat_pcts[i].text,
			lat(b, sizeof(b),
			    xbulk_lat_percentile(h, lat_pcts[i].pct)));
	fprintf(f, ", max=%s", lat(b, sizeof(b), xbulk_lat_max_ns(h)));
	fprintf(f, ", avg=%s (%" PRIu64 " %s)\n",
		lat(b, sizeof(b), xbulk_lat_sum_ns(h) / count), count, what);
}

static void
text_latency(FILE *f, const struct xb_report *r)
{
	if (!r->lat)
		return;
	text_lat_line(f, "  latency : per call : ",
		      xbulk_scan_lat_call(r->lat), "calls");
	text_lat_line(f, "            per inode: ",
		      xbulk_scan_lat_inode(r->lat),
		      "calls with records");
}

/*
 * One line per thread of the scan: its wall time, how much of it inside
 * ioctls and waiting (a worker ahead of the writer waits for room in the
 * output pool), its records and units; then the writer's wait.
 */
static void
text_workers(FILE *f, const struct xb_report *r)
{
	unsigned int i, n = r->lat ? xbulk_scan_lat_workers(r->lat) : 0;
	char b[6][32];

	for (i = 0; i < n; i++) {
		const struct xbulk_scan_worker *w =
			xbulk_scan_lat_worker(r->lat, i);
		double run = seconds(w->run_ns);

		fprintf(f, "%s#%u %s: kernel %s (%s), waited %s (%s), "
			"%s records, %" PRIu64 " calls",
			i ? "            " : "  threads : ", i + 1,
			xb_fig_dur(b[0], sizeof(b[0]), run),
			xb_fig_dur(b[1], sizeof(b[1]), seconds(w->kernel_ns)),
			pct(b[2], sizeof(b[2]), seconds(w->kernel_ns), run),
			xb_fig_dur(b[3], sizeof(b[3]), seconds(w->wait_ns)),
			pct(b[4], sizeof(b[4]), seconds(w->wait_ns), run),
			num(b[5], sizeof(b[5]), w->records), w->calls);
		if (w->units)
			fprintf(f, ", %" PRIu64 " units", w->units);
		fputc('\n', f);
	}
	if (n > 1 && !r->quiet)
		fprintf(f, "            writer waited %s for records\n",
			xb_fig_dur(b[0], sizeof(b[0]),
			    seconds(xbulk_scan_lat_writer_wait_ns(r->lat))));
}

void
xb_report_text(FILE *f, const struct xb_report *r)
{
	const struct xbulk_sample *d = &r->delta;
	uint64_t ns = d->mono_ns;
	double wall = seconds(ns), cpu;
	char b[4][32];
	int i;

	fprintf(f, "%s: %s: ", r->cmd, r->path);
	if (r->kind == XBULK_KIND_INUMBERS)
		fprintf(f, "%" PRIu64 " inode chunks (%" PRIu64 " inodes)",
			r->res->records, r->inodes);
	else
		fprintf(f, "%" PRIu64 " inodes", r->inodes);
	fprintf(f, " in %s, %" PRIu64 " ioctl calls, %u thread%s, "
		"batch %u records%s\n", xb_fig_dur(b[0], sizeof(b[0]), wall), r->res->calls,
		r->res->threads,
		r->res->threads == 1 ? "" : "s", r->batch,
		r->res->fail == XBULK_SCAN_OK ? "" : " (stopped early)");
	fprintf(f, "  rate    : %s inodes/s",
		xb_fig_si(b[0], sizeof(b[0]), per_sec(r->inodes, ns)));
	if (r->inodes)
		fprintf(f, " (%.2f us/inode)", wall * 1e6 / (double)r->inodes);
	fputc('\n', f);
	fputs("  cpu     : ", f);
	if (xbulk_stat_ok(d->utime_us) && xbulk_stat_ok(d->stime_us)) {
		cpu = (double)(d->utime_us + d->stime_us) / 1e6;
		fprintf(f, "usr=%s, sys=%s (%s of one CPU)",
			xb_fig_dur(b[2], sizeof(b[2]),
				   (double)d->utime_us / 1e6),
			xb_fig_dur(b[3], sizeof(b[3]),
				   (double)d->stime_us / 1e6),
			pct(b[1], sizeof(b[1]), cpu, wall));
	} else {
		fputs("usr=n/a, sys=n/a", f);
	}
	if (xbulk_stat_ok(d->maxrss_kib))
		fprintf(f, ", peak RSS=%.1f MiB\n",
			(double)d->maxrss_kib / 1024);
	else
		fputs(", peak RSS=n/a\n", f);
	text_latency(f, r);
	text_workers(f, r);
	for (i = 0; i < XBULK_DEV_NR; i++)
		text_device(f, r, i);
	text_icache(f, r);
	text_reclaim(f, r);
}

/* ------------------------------------------------------------------ */
/* --interval lines                                                    */
/* ------------------------------------------------------------------ */

/* "2026-11-29T21:40:01.250Z" */
static void
utc_stamp(char *buf, size_t size, uint64_t real_ns)
{
	time_t t = (time_t)(real_ns / 1000000000ULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d.%03uZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec,
		 (unsigned int)(real_ns / 1000000 % 1000));
}

/*
 * Read I/Os of every device, or with @bytes the bytes read; NA if the
 * count of one of them is unknown.
 */
static uint64_t
dev_reads(const struct xb_report *r, const struct xbulk_sample *d, bool bytes)
{
	unsigned int major, minor;
	uint64_t sum = 0, v;
	const char *name;
	int i;

	for (i = 0; i < XBULK_DEV_NR; i++) {
		if (!xbulk_stats_dev(r->src, i, &name, &major, &minor))
			continue;
		v = bytes ? d->dev[i].read_sectors : d->dev[i].read_ios;
		if (!xbulk_stat_ok(v))
			return XBULK_STAT_NA;
		sum += bytes ? v * 512 : v;
	}
	return sum;
}

void
xb_report_interval(FILE *f, const struct xb_report *r,
		   const struct xb_interval *iv)
{
	const struct xbulk_sample *d = &iv->delta;
	uint64_t ns = d->mono_ns, bytes = dev_reads(r, d, true);
	uint64_t ios = dev_reads(r, d, false);
	char stamp[80], b[6][32];

	utc_stamp(stamp, sizeof(stamp), d->real_ns);
	fprintf(f, "%s %8.3f s  %8s inodes/s  %7s IOPS  ", stamp,
		seconds(iv->t_ns), xb_fig_si(b[0], sizeof(b[0]),
				      per_sec(iv->inodes, ns)),
		xb_fig_si(b[1], sizeof(b[1]), per_sec(ios, ns)));
	if (xbulk_stat_ok(bytes) && ns)
		fprintf(f, "%7.1f MB/s", (double)bytes / seconds(ns) / 1e6);
	else
		fputs("    n/a MB/s", f);
	fprintf(f, "  max call %9s", lat(b[5], sizeof(b[5]), iv->max_call_ns));
	fprintf(f, "  reclaim: scanned=%s stolen=%s direct=%s pages\n",
		num(b[2], sizeof(b[2]),
		    sum2(d->vm[XBULK_VM_PGSCAN_KSWAPD],
			 d->vm[XBULK_VM_PGSCAN_DIRECT])),
		num(b[3], sizeof(b[3]),
		    sum2(d->vm[XBULK_VM_PGSTEAL_KSWAPD],
			 d->vm[XBULK_VM_PGSTEAL_DIRECT])),
		num(b[4], sizeof(b[4]), d->vm[XBULK_VM_PGSCAN_DIRECT]));
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */
/* ------------------------------------------------------------------ */

static double
ratio(uint64_t part, uint64_t whole, double scale)
{
	if (!xbulk_stat_ok(part) || !xbulk_stat_ok(whole) || !whole)
		return -1;
	return scale * (double)part / (double)whole;
}

static void
json_devices(FILE *f, const struct xb_report *r)
{
	const char *sep = "";
	int i;

	fputs("  \"devices\": [", f);
	for (i = 0; i < XBULK_DEV_NR; i++) {
		const struct xbulk_dev_sample *d = &r->delta.dev[i];
		uint64_t ns = r->delta.mono_ns;
		uint64_t bytes = xbulk_stat_ok(d->read_sectors) ?
				 d->read_sectors * 512 : XBULK_STAT_NA;
		unsigned int major, minor;
		const char *name;
		char dev[32];

		if (!xbulk_stats_dev(r->src, i, &name, &major, &minor))
			continue;
		snprintf(dev, sizeof(dev), "%u:%u", major, minor);
		fprintf(f, "%s\n    {\"role\": \"%s\", \"name\": ", sep,
			dev_roles[i]);
		xb_json_str(f, name);
		fprintf(f, ", \"dev\": \"%s\", ", dev);
		xb_json_u64(f, "read_ios", d->read_ios, ", ");
		xb_json_u64(f, "read_bytes", bytes, ", ");
		xb_json_num(f, "read_iops", per_sec(d->read_ios, ns), ", ");
		xb_json_num(f, "read_bytes_per_s", per_sec(bytes, ns), ", ");
		xb_json_num(f, "read_mb_per_s",
			 xbulk_stat_ok(bytes) ? per_sec(bytes, ns) / 1e6 : -1,
			 ", ");
		xb_json_u64(f, "read_ticks_ms", d->read_ticks_ms, ", ");
		xb_json_u64(f, "busy_ms", d->io_ticks_ms, ", ");
		xb_json_num(f, "util_pct", util(d->io_ticks_ms, ns), "}");
		sep = ",";
	}
	fputs("\n  ],\n", f);
}

static void
json_timeline(FILE *f, const struct xb_report *r)
{
	size_t i;

	fputs("  \"timeline\": [", f);
	for (i = 0; i < r->ntimeline; i++) {
		const struct xb_interval *iv = &r->timeline[i];
		const struct xbulk_sample *d = &iv->delta;
		uint64_t ns = d->mono_ns, bytes = dev_reads(r, d, true);
		uint64_t ios = dev_reads(r, d, false);
		char stamp[80];

		utc_stamp(stamp, sizeof(stamp), d->real_ns);
		fprintf(f, "%s\n    {\"time\": \"%s\", \"t_s\": %.6f, "
			"\"dt_s\": %.6f, ", i ? "," : "", stamp,
			seconds(iv->t_ns), seconds(ns));
		xb_json_u64(f, "records", iv->records, ", ");
		xb_json_u64(f, "inodes", iv->inodes, ", ");
		xb_json_u64(f, "ioctl_calls", iv->calls, ", ");
		xb_json_u64(f, "max_call_ns", iv->max_call_ns, ", ");
		xb_json_num(f, "inodes_per_s", per_sec(iv->inodes, ns), ", ");
		xb_json_num(f, "read_iops", per_sec(ios, ns), ", ");
		xb_json_num(f, "read_mb_per_s",
			 xbulk_stat_ok(bytes) ? per_sec(bytes, ns) / 1e6 : -1,
			 ", ");
		xb_json_u64(f, "pgscan_kswapd", d->vm[XBULK_VM_PGSCAN_KSWAPD],
			 ", ");
		xb_json_u64(f, "pgscan_direct", d->vm[XBULK_VM_PGSCAN_DIRECT],
			 ", ");
		xb_json_u64(f, "pgsteal_kswapd", d->vm[XBULK_VM_PGSTEAL_KSWAPD],
			 ", ");
		xb_json_u64(f, "pgsteal_direct", d->vm[XBULK_VM_PGSTEAL_DIRECT],
			 ", ");
		xb_json_u64(f, "icache_misses", d->ig[XBULK_IG_MISSED], "}");
	}
	fputs(r->ntimeline ? "\n  ]\n" : "]\n", f);
}

/* "KEY": {"count": N, "min": ns, "mean": ns, "p50": ns, ..., "max": ns} */
static void
json_lat(FILE *f, const char *key, const struct xbulk_lat *h,
	 const char *sep)
{
	uint64_t count = xbulk_lat_count(h);
	size_t i;

	fprintf(f, "\"%s\": {\"count\": %" PRIu64, key, count);
	if (count) {
		fprintf(f, ", \"min\": %" PRIu64 ", \"mean\": %" PRIu64,
			xbulk_lat_min_ns(h), xbulk_lat_sum_ns(h) / count);
		for (i = 0; i < sizeof(lat_pcts) / sizeof(lat_pcts[0]); i++)
			fprintf(f, ", \"%s\": %" PRIu64, lat_pcts[i].json,
				xbulk_lat_percentile(h, lat_pcts[i].pct));
		fprintf(f, ", \"max\": %" PRIu64, xbulk_lat_max_ns(h));
	}
	fprintf(f, "}%s", sep);
}

/* "workers": [{...}, ...], "writer_wait_ns": N (null without --stats'
 * latencies: they are kept with them). */
static void
json_workers(FILE *f, const struct xb_report *r)
{
	unsigned int i, n;

	if (!r->lat) {
		fputs("  \"workers\": null,\n  \"writer_wait_ns\": null,\n", f);
		return;
	}
	n = xbulk_scan_lat_workers(r->lat);
	fputs("  \"workers\": [", f);
	for (i = 0; i < n; i++) {
		const struct xbulk_scan_worker *w =
			xbulk_scan_lat_worker(r->lat, i);

		fprintf(f, "%s\n    {\"records\": %" PRIu64 ", \"calls\": %"
			PRIu64 ", \"units\": %" PRIu64 ", \"run_ns\": %" PRIu64
			", \"kernel_ns\": %" PRIu64 ", \"wait_ns\": %" PRIu64
			"}", i ? "," : "", w->records, w->calls, w->units,
			w->run_ns, w->kernel_ns, w->wait_ns);
	}
	fprintf(f, "%s],\n  \"writer_wait_ns\": %" PRIu64 ",\n",
		n ? "\n  " : "", xbulk_scan_lat_writer_wait_ns(r->lat));
}

void
xb_report_json(FILE *f, const struct xb_report *r)
{
	const struct xbulk_sample *d = &r->delta;
	const uint64_t *ig = d->ig, *vm = d->vm;
	uint64_t ns = d->mono_ns;

	fprintf(f, "{\n  \"xbulk_version\": \"%s\",\n  \"command\": \"%s\",\n"
		"  \"path\": ", XBULK_VERSION_STRING, r->cmd);
	xb_json_str(f, r->path);
	fprintf(f, ",\n  \"completed\": %s,\n  \"threads\": %u,\n"
		"  \"batch\": %u,\n", r->res->fail == XBULK_SCAN_OK ?
		"true" : "false", r->res->threads, r->batch);
	fprintf(f, "  \"records\": %" PRIu64 ",\n  \"inodes\": %" PRIu64
		",\n  \"ioctl_calls\": %" PRIu64 ",\n  \"bad_inodes\": %"
		PRIu64 ",\n", r->res->records, r->inodes, r->res->calls,
		r->res->bad_inodes);
	fprintf(f, "  \"wall_s\": %.6f,\n  ", seconds(ns));
	xb_json_num(f, "inodes_per_s", per_sec(r->inodes, ns), ",\n");
	fputs("  \"cpu\": {", f);
	xb_json_num(f, "user_s", xbulk_stat_ok(d->utime_us) ?
		 (double)d->utime_us / 1e6 : -1, ", ");
	xb_json_num(f, "sys_s", xbulk_stat_ok(d->stime_us) ?
		 (double)d->stime_us / 1e6 : -1, ", ");
	xb_json_u64(f, "peak_rss_kib", d->maxrss_kib, "},\n");
	if (r->lat) {
		fputs("  \"latency\": {", f);
		json_lat(f, "call_ns", xbulk_scan_lat_call(r->lat), ", ");
		json_lat(f, "inode_ns", xbulk_scan_lat_inode(r->lat),
			 "},\n");
	} else {
		fputs("  \"latency\": null,\n", f);
	}
	json_workers(f, r);
	json_devices(f, r);
	fputs("  \"icache\": {\"source\": ", f);
	if (xbulk_stats_xfs_path(r->src))
		xb_json_str(f, xbulk_stats_xfs_path(r->src));
	else
		fputs("null", f);
	fputs(", ", f);
	xb_json_u64(f, "lookups", ig[XBULK_IG_ATTEMPTS], ", ");
	xb_json_u64(f, "hits", ig[XBULK_IG_FOUND], ", ");
	xb_json_u64(f, "misses", ig[XBULK_IG_MISSED], ", ");
	xb_json_u64(f, "busy_retries", ig[XBULK_IG_FRECYCLE], ", ");
	xb_json_u64(f, "dup", ig[XBULK_IG_DUP], ", ");
	xb_json_u64(f, "reclaims", ig[XBULK_IG_RECLAIMS], ", ");
	xb_json_num(f, "hit_pct", ratio(ig[XBULK_IG_FOUND],
				     ig[XBULK_IG_ATTEMPTS], 100), "},\n");
	fputs("  \"reclaim\": {", f);
	xb_json_u64(f, "pgscan_kswapd", vm[XBULK_VM_PGSCAN_KSWAPD], ", ");
	xb_json_u64(f, "pgscan_direct", vm[XBULK_VM_PGSCAN_DIRECT], ", ");
	xb_json_u64(f, "pgsteal_kswapd", vm[XBULK_VM_PGSTEAL_KSWAPD], ", ");
	xb_json_u64(f, "pgsteal_direct", vm[XBULK_VM_PGSTEAL_DIRECT], ", ");
	xb_json_u64(f, "allocstall", vm[XBULK_VM_ALLOCSTALL], ", ");
	xb_json_u64(f, "slabs_scanned", vm[XBULK_VM_SLABS_SCANNED], ", ");
	xb_json_num(f, "psi_some_s", xbulk_stat_ok(d->psi_some_us) ?
		 (double)d->psi_some_us / 1e6 : -1, ", ");
	xb_json_num(f, "psi_full_s", xbulk_stat_ok(d->psi_full_us) ?
		 (double)d->psi_full_us / 1e6 : -1, "},\n");
	if (r->interval_ns)
		fprintf(f, "  \"interval_s\": %.6g,\n", seconds(r->interval_ns));
	else
		fputs("  \"interval_s\": null,\n", f);
	json_timeline(f, r);
	fputs("}\n", f);
}
