/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to libxbulk's base (prefix xbl_: CONTRIBUTING.md).
 *
 * One small hash table for whoever needs one (lib/hash.c): 64-bit keys,
 * each with a value of a size fixed per table (none for a set); open
 * addressing with linear probing, at most half full; no removal.  Used by
 * lib/ids.c, lib/parent/paths.c and the command's cli/du/agg.c (its
 * private library links lib/hash.c's object: libxbulk.so does not export
 * it).  Not by the two hot tables, lib/du/inoset.c and the names store's
 * chunk index (lib/names/store.h), which say why.
 *
 * Self-contained: the command includes it without the base's other
 * internals.
 */
#ifndef XBULK_HASH_H
#define XBULK_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct xbl_hash {
	unsigned char	*slot;		/* each: key + 1 (0: free), value */
	size_t		size;		/* bytes per slot */
	size_t		mask;		/* slots - 1 */
	size_t		count;		/* keys in it */
};

/* An empty table of values of @vsize bytes (0: a set), 8-byte aligned;
 * no memory until the first key.  Keys are any but UINT64_MAX. */
void xbl_hash_init(struct xbl_hash *h, size_t vsize);
/* Room for @n keys in all, so that adding up to that many cannot fail.
 * Return 0 or -ENOMEM. */
int xbl_hash_reserve(struct xbl_hash *h, size_t n);
/* @key's value, or NULL if @key is not in @h (a set: a pointer not to be
 * read).  Valid until the next key is added. */
void *xbl_hash_get(const struct xbl_hash *h, uint64_t key);
/* @key's value, added zeroed if it is new (*@fresh then true); NULL
 * without memory.  Valid until the next key is added. */
void *xbl_hash_add(struct xbl_hash *h, uint64_t key, bool *fresh);
/* Every key in no order: from *@pos 0, the next key's value (and *@key),
 * or NULL after the last. */
void *xbl_hash_next(const struct xbl_hash *h, size_t *pos, uint64_t *key);
/* Empty @h, keeping its memory. */
void xbl_hash_clear(struct xbl_hash *h);
/* Release the memory; @h is empty and usable again (a zeroed one stays
 * zeroed). */
void xbl_hash_free(struct xbl_hash *h);

#endif /* XBULK_HASH_H */
