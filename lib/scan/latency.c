// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Latency histograms of the scan's ioctl calls: log-linear buckets (the
 * layout is in lib/scan/engine.h), one writer each, no locks; the
 * workers' histograms are merged when they end.
 */
#include <errno.h>
#include <stdlib.h>

#include "engine.h"

#define SUB (1ULL << XBS_LAT_SUB_BITS)

static unsigned int
bucket_of(uint64_t ns)
{
	unsigned int msb, shift;

	if (ns < SUB)
		return (unsigned int)ns;
	msb = 63U - (unsigned int)__builtin_clzll(ns);
	shift = msb - XBS_LAT_SUB_BITS;
	return ((shift + 1) << XBS_LAT_SUB_BITS) +
	       (unsigned int)((ns >> shift) - SUB);
}

/* Lowest value of bucket @i, and its width. */
static uint64_t
bucket_low(unsigned int i, uint64_t *width)
{
	unsigned int shift;

	if (i < SUB) {
		*width = 1;
		return i;
	}
	shift = (i >> XBS_LAT_SUB_BITS) - 1;
	*width = 1ULL << shift;
	return (SUB + (i & (SUB - 1))) << shift;
}

void
xbs_lat_add(struct xbulk_lat *h, uint64_t ns)
{
	if (!h->count || ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->count++;
	h->sum_ns += ns;
	h->bucket[bucket_of(ns)]++;
}

void
xbs_lat_merge(struct xbulk_lat *dst, const struct xbulk_lat *src)
{
	unsigned int i;

	if (!src->count)
		return;
	if (!dst->count || src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	for (i = 0; i < XBS_LAT_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

int
xbulk_scan_lat_new(struct xbulk_scan_lat **lat)
{
	*lat = calloc(1, sizeof(**lat));
	return *lat ? 0 : -ENOMEM;
}

void
xbulk_scan_lat_free(struct xbulk_scan_lat *lat)
{
	if (lat)
		free(lat->workers);
	free(lat);
}

int
xbs_scan_lat_add_worker(struct xbulk_scan_lat *lat,
			const struct xbulk_scan_worker *st)
{
	struct xbulk_scan_worker *w;

	w = realloc(lat->workers, (lat->nworkers + 1) * sizeof(*w));
	if (!w)
		return -ENOMEM;
	lat->workers = w;
	w[lat->nworkers++] = *st;
	return 0;
}

int
xbs_scan_lat_merge(struct xbulk_scan_lat *dst,
		   const struct xbulk_scan_lat *src)
{
	xbs_lat_merge(&dst->call, &src->call);
	xbs_lat_merge(&dst->inode, &src->inode);
	return xbs_scan_lat_add_worker(dst, &src->self);
}

unsigned int
xbulk_scan_lat_workers(const struct xbulk_scan_lat *lat)
{
	return lat->nworkers;
}

const struct xbulk_scan_worker *
xbulk_scan_lat_worker(const struct xbulk_scan_lat *lat, unsigned int i)
{
	return &lat->workers[i];
}

uint64_t
xbulk_scan_lat_writer_wait_ns(const struct xbulk_scan_lat *lat)
{
	return lat->writer_wait_ns;
}

const struct xbulk_lat *
xbulk_scan_lat_call(const struct xbulk_scan_lat *lat)
{
	return &lat->call;
}

const struct xbulk_lat *
xbulk_scan_lat_inode(const struct xbulk_scan_lat *lat)
{
	return &lat->inode;
}

uint64_t
xbulk_lat_count(const struct xbulk_lat *h)
{
	return h->count;
}

uint64_t
xbulk_lat_sum_ns(const struct xbulk_lat *h)
{
	return h->sum_ns;
}

uint64_t
xbulk_lat_min_ns(const struct xbulk_lat *h)
{
	return h->count ? h->min_ns : 0;
}

uint64_t
xbulk_lat_max_ns(const struct xbulk_lat *h)
{
	return h->max_ns;
}

uint64_t
xbulk_lat_percentile(const struct xbulk_lat *h, double pct)
{
	uint64_t rank, seen = 0, low, width, mid;
	double exact;
	unsigned int i;

	if (!h->count)
		return 0;
	/* ceil(), but 99.9% of 1000 is 999 despite rounding */
	exact = pct / 100 * (double)h->count;
	rank = (uint64_t)exact;
	if (exact - (double)rank > 1e-6)
		rank++;
	if (rank < 1)
		rank = 1;
	if (rank >= h->count)
		return h->max_ns;
	for (i = 0; i < XBS_LAT_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	low = bucket_low(i, &width);
	mid = low + width / 2;
	if (mid < h->min_ns)
		return h->min_ns;
	return mid > h->max_ns ? h->max_ns : mid;
}
