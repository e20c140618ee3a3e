// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The N largest entries (du --top): a min-heap of N items, the smallest
 * (and, among equals, the last to arrive) on top to be replaced.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "top.h"

/* Is @a a worse keep than @b (smaller, or as large and later)? */
static bool
below(const struct du_top_item *a, const struct du_top_item *b)
{
	return a->key != b->key ? a->key < b->key : a->seq > b->seq;
}

static void
swap(struct du_top_item *a, struct du_top_item *b)
{
	struct du_top_item t = *a;

	*a = *b;
	*b = t;
}

static void
sift_down(struct du_top_item *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < n && below(&h[l], &h[m]))
			m = l;
		if (l + 1 < n && below(&h[l + 1], &h[m]))
			m = l + 1;
		if (m == i)
			return;
		swap(&h[i], &h[m]);
		i = m;
	}
}

int
du_top_init(struct du_top *t, size_t want)
{
	*t = (struct du_top){ .want = want };
	if (!want)
		return 0;
	t->heap = calloc(want, sizeof(*t->heap));
	return t->heap ? 0 : -ENOMEM;
}

int
du_top_add(struct du_top *t, uint64_t key,
	      const struct xbulk_du_sum *sum, const char *path, uint64_t ino)
{
	struct du_top_item it = { .key = key, .sum = *sum,
				     .seq = t->seq++, .ino = ino };
	size_t i;

	if (!t->want)
		return 0;
	if (t->n == t->want) {
		if (!below(&t->heap[0], &it))
			return 0;
		it.path = strdup(path);
		if (!it.path)
			return -ENOMEM;
		free(t->heap[0].path);
		t->heap[0] = it;
		sift_down(t->heap, t->n, 0);
		return 0;
	}
	it.path = strdup(path);
	if (!it.path)
		return -ENOMEM;
	for (i = t->n++; i && below(&it, &t->heap[(i - 1) / 2]);
	     i = (i - 1) / 2)
		t->heap[i] = t->heap[(i - 1) / 2];
	t->heap[i] = it;
	return 0;
}

void
du_top_sort(struct du_top *t)
{
	size_t n = t->n;

	/* Heap sort: the worst keep goes to the end each round. */
	while (n > 1) {
		swap(&t->heap[0], &t->heap[--n]);
		sift_down(t->heap, n, 0);
	}
}

void
du_top_free(struct du_top *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->heap[i].path);
	free(t->heap);
	*t = (struct du_top){ 0 };
}
