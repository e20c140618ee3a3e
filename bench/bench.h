/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the benchmarks (floor, fmtbench, populate): the clock, the
 * pseudo-random sequence, number options and the worker threads.
 */
#ifndef XBULK_BENCH_H
#define XBULK_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* Seconds on the monotonic clock. */
static inline double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* splitmix64: small, fast, good enough, and the same everywhere. */
static inline uint64_t
rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

bool bench_ulong(const char *s, int base, unsigned long lo, unsigned long hi,
		 unsigned long *v);
int bench_run_threads(const char *prog, unsigned int n, void *(*fn)(void *));

#endif /* XBULK_BENCH_H */
