// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One small hash table (hash.h).  A slot holds its key plus one, so that
 * calloc()'s zeros are free slots and 0 is a key like any other, then
 * the value.  Doubled when more than half full, from 16 slots.
 *
 * A key's first slot is the low bits of MurmurHash3's 64-bit finalizer
 * of it, not the top bits of a multiplicative (Fibonacci) hash: with the
 * top bits, a table's slot order is the order of the first slots of any
 * other table of the same kind, so copying one table into another
 * (du --by merges a directory's table into its parent's) fills the front
 * of a small, growing table first, and each key probes past all those
 * before it: 1,255M instructions instead of 718M for xbulk du --by ext
 * -d 1 -j 1 over 300k inodes of random suffixes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"

#define MIN_SLOTS	16

static uint64_t *
slot_key(const struct xbl_hash *h, size_t i)
{
	return (uint64_t *)(h->slot + i * h->size);
}

static uint64_t
mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	k ^= k >> 33;
	return k;
}

/* The slot of @key, or the free one where it would go. */
static inline size_t
find(const struct xbl_hash *h, uint64_t key)
{
	size_t i = (size_t)mix(key) & h->mask;

	while (*slot_key(h, i) && *slot_key(h, i) != key + 1)
		i = (i + 1) & h->mask;
	return i;
}

void
xbl_hash_init(struct xbl_hash *h, size_t vsize)
{
	*h = (struct xbl_hash){
		.size = sizeof(uint64_t) + ((vsize + 7) & ~(size_t)7),
	};
}

/* Double @h until @n keys fill at most half of it; 0 or -ENOMEM. */
static int
grow(struct xbl_hash *h, size_t n)
{
	struct xbl_hash old = *h;
	size_t slots = h->slot ? h->mask + 1 : MIN_SLOTS, i;

	while (slots / 2 < n)
		slots *= 2;
	h->slot = calloc(slots, h->size);
	if (!h->slot) {
		*h = old;
		return -ENOMEM;
	}
	h->mask = slots - 1;
	for (i = 0; old.slot && i <= old.mask; i++) {
		const uint64_t *k = slot_key(&old, i);
		uint64_t *to;

		if (!*k)
			continue;
		to = slot_key(h, find(h, *k - 1));
		*to = *k;
		if (h->size > sizeof(*k))
			memcpy(to + 1, k + 1, h->size - sizeof(*k));
	}
	free(old.slot);
	return 0;
}

int
xbl_hash_reserve(struct xbl_hash *h, size_t n)
{
	return h->slot && n <= (h->mask + 1) / 2 ? 0 : grow(h, n);
}

void *
xbl_hash_get(const struct xbl_hash *h, uint64_t key)
{
	uint64_t *k;

	if (!h->count)
		return NULL;
	k = slot_key(h, find(h, key));
	return *k ? k + 1 : NULL;
}

void *
xbl_hash_add(struct xbl_hash *h, uint64_t key, bool *fresh)
{
	uint64_t *k;

	if ((!h->slot || h->count + 1 > (h->mask + 1) / 2) &&
	    grow(h, h->count + 1))
		return NULL;
	k = slot_key(h, find(h, key));
	*fresh = !*k;
	if (*fresh) {
		*k = key + 1;
		h->count++;
	}
	return k + 1;
}

void *
xbl_hash_next(const struct xbl_hash *h, size_t *pos, uint64_t *key)
{
	for (; h->count && *pos <= h->mask; ++*pos) {
		uint64_t *k = slot_key(h, *pos);

		if (*k) {
			*key = *k - 1;
			++*pos;
			return k + 1;
		}
	}
	return NULL;
}

void
xbl_hash_clear(struct xbl_hash *h)
{
	if (h->count)
		memset(h->slot, 0, (h->mask + 1) * h->size);
	h->count = 0;
}

void
xbl_hash_free(struct xbl_hash *h)
{
	size_t size = h->size;

	free(h->slot);
	*h = (struct xbl_hash){ .size = size };
}
