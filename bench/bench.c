// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Shared by the benchmarks: number options and the worker threads.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/*
 * @s, all of it, as strtoul() reads it in @base, into @v; false unless it
 * is within [@lo, @hi].
 */
bool
bench_ulong(const char *s, int base, unsigned long lo, unsigned long hi,
	    unsigned long *v)
{
	char *end;

	*v = strtoul(s, &end, base);
	return !*end && *v >= lo && *v <= hi;
}

/*
 * Run @fn in @n threads and wait for all of them.  Returns 0, or 1 when
 * they cannot be started (after saying why, as "@prog: ...", on stderr).
 */
int
bench_run_threads(const char *prog, unsigned int n, void *(*fn)(void *))
{
	pthread_t *tids;
	unsigned int i;
	int err;

	tids = calloc(n, sizeof(*tids));
	if (!tids)
		return 1;
	for (i = 0; i < n; i++) {
		err = pthread_create(&tids[i], NULL, fn, NULL);
		if (err) {
			fprintf(stderr, "%s: pthread_create: %s\n", prog,
				strerror(err));
			free(tids);
			return 1;
		}
	}
	for (i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	return 0;
}
