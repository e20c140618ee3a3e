// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Without libFuzzer (gcc, or any build without -Dfuzz=true): run a fuzz
 * target once on each file named, or on each file of each directory
 * named, in name order.  This is how the seed corpus and the regression
 * inputs (tests/fuzz/regressions/) are replayed by the normal test suite,
 * under the sanitizers too.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t size = 0, cap = 0, n;

	if (!f) {
		perror(path);
		return 1;
	}
	do {
		if (size == cap) {
			uint8_t *d = realloc(data, (cap = cap * 2 + 4096));

			if (!d) {
				fclose(f);
				free(data);
				return 1;
			}
			data = d;
		}
		n = fread(data + size, 1, cap - size, f);
		size += n;
	} while (n);
	fclose(f);
	/* An exact-size copy, so ASan sees a read past the input. */
	{
		uint8_t *exact = malloc(size ? size : 1);

		if (!exact) {
			free(data);
			return 1;
		}
		memcpy(exact, data, size);
		free(data);
		LLVMFuzzerTestOneInput(exact, size);
		free(exact);
	}
	return 0;
}

static int
name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int
regular_file(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

int
main(int argc, char **argv)
{
	int i, j, n, bad = 0, runs = 0;
	struct stat st;

	for (i = 1; i < argc; i++) {
		struct dirent **names;
		char path[4096];

		if (stat(argv[i], &st)) {
			perror(argv[i]);
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad |= replay_file(argv[i]);
			runs++;
			continue;
		}
		n = scandir(argv[i], &names, regular_file, name_cmp);
		if (n < 0) {
			perror(argv[i]);
			return 1;
		}
		for (j = 0; j < n; j++) {
			snprintf(path, sizeof(path), "%s/%s", argv[i],
				 names[j]->d_name);
			bad |= replay_file(path);
			runs++;
			free(names[j]);
		}
		free(names);
	}
	fprintf(stderr, "replayed %d inputs\n", runs);
	return bad;
}
