// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The paths of an inode from parent pointers: each parent pointer of the
 * inode, then the chain of directories above it, one parent pointer each
 * (a directory has one name), up to the root or to a directory seen
 * before.  Directories are kept in an array as (parent's index, name),
 * found by inode number through a hash table (lib/hash.c), so memory
 * grows with the directories seen, not with their paths' lengths; a path
 * is written out from the chain when a caller asks for it.  The loops
 * check their own progress: a chain that comes back to a directory on it
 * is -ELOOP.  A chain that fails is remembered, with the directory where
 * it failed (an unreadable or freed directory, one without a parent
 * pointer), for the chains through it later.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parent.h"

/* Most directories on one chain: deeper is damage (or -ENOMEM first). */
#define MAX_DEPTH	(1u << 24)

/* Most directories kept (what a table of 2^30 slots held half full). */
#define MAX_DIRS	(1u << 29)

/* The index of directory @ino, or XBP_TOP if it was not seen. */
static uint32_t
find_dir(const struct xbulk_parents *p, uint64_t ino)
{
	const uint32_t *i = xbl_hash_get(&p->index, ino);

	return i ? *i : XBP_TOP;
}

/* Room for one more directory: a chain that fails can then always be
 * remembered (chain_failed()).  Return 0 or -ENOMEM. */
static int
reserve_dir(struct xbulk_parents *p)
{
	if (p->ndirs >= MAX_DIRS ||
	    xbl_hash_reserve(&p->index, p->ndirs + 1) ||
	    xbl_grow((void **)&p->dirs, &p->dirs_cap, p->ndirs + 1,
		     sizeof(*p->dirs)))
		return -ENOMEM;
	return 0;
}

/* Add @d, a directory not seen yet: its index, or XBP_TOP without room
 * (never after reserve_dir()). */
static uint32_t
add_dir(struct xbulk_parents *p, const struct xbp_dir *d)
{
	uint32_t *i = NULL;
	bool fresh;

	if (p->ndirs < p->dirs_cap)
		i = xbl_hash_add(&p->index, d->ino, &fresh);
	if (!i)
		return XBP_TOP;
	*i = p->ndirs;
	p->dirs[p->ndirs] = *d;
	return p->ndirs++;
}

/* The first parent pointer of a directory. */
struct first {
	uint64_t	ino;
	uint32_t	gen;
	char		name[256];
	size_t		len;
	bool		found;
};

static int
take_first(void *arg, uint64_t dir_ino, uint32_t dir_gen, const char *name,
	   size_t namelen)
{
	struct first *f = arg;

	if (namelen >= sizeof(f->name))
		return -EPROTO;	/* XFS names are at most 255 bytes */
	f->ino = dir_ino;
	f->gen = dir_gen;
	memcpy(f->name, name, namelen);
	f->len = namelen;
	f->found = true;
	return 1;
}

/*
 * The chain being resolved (@depth entries) failed with @err at directory
 * @ino of generation @gen: remember that for xbulk_parents_failed_ino(),
 * in @ino's entry too (added if it has none: resolve_dir() keeps room for
 * one), and have each entry of the chain point to it.
 * Without memory (-ENOMEM) or cancelled (-EINTR) nothing is added.
 */
static int
chain_failed(struct xbulk_parents *p, size_t depth, int err, uint64_t ino,
	     uint32_t gen)
{
	uint32_t at = XBP_TOP;

	p->fail_ino = ino;
	if (err != -ENOMEM && err != -EINTR) {
		at = find_dir(p, ino);
		if (at == XBP_TOP)
			at = add_dir(p, &(struct xbp_dir){
				.ino = ino, .gen = gen, .parent = XBP_TOP,
				.state = (int16_t)err,
			});
	}
	while (depth-- > 0) {
		p->dirs[p->stack[depth]].state = (int16_t)err;
		p->dirs[p->stack[depth]].parent = at;
	}
	return err;
}

/* A chain reached entry @i of a chain that failed: fail as it did, at the
 * same directory. */
static int
chain_failed_before(struct xbulk_parents *p, size_t depth, uint32_t i)
{
	const struct xbp_dir *d = &p->dirs[i];
	const struct xbp_dir *at = d->parent == XBP_TOP ? d :
			&p->dirs[d->parent];

	return chain_failed(p, depth, d->state, at->ino, at->gen);
}

/*
 * Index of directory @ino (resolved up to the root), in *@slot; XBP_TOP
 * for the root.  Return 0 or a negative errno (remembered for @ino).
 */
static int
resolve_dir(struct xbulk_parents *p, uint64_t ino, uint32_t gen,
	    uint32_t *slot)
{
	size_t depth = 0;
	struct first f;
	uint32_t i, top;
	int ret;

	*slot = XBP_TOP;	/* (a failure returns a negative errno) */
	for (;;) {
		ret = reserve_dir(p);
		if (ret)
			return chain_failed(p, depth, ret, ino, gen);
		if (ino == p->root_ino) {
			top = XBP_TOP;
			break;
		}
		i = find_dir(p, ino);
		if (i != XBP_TOP) {
			if (p->dirs[i].state == XBP_PENDING)
				return chain_failed(p, depth, -ELOOP, ino,
						    gen);
			if (p->dirs[i].state < 0)
				return chain_failed_before(p, depth, i);
			if (p->dirs[i].gen != gen)
				return chain_failed(p, depth, -ESTALE, ino,
						    gen);
			top = i;
			break;
		}
		if (depth >= MAX_DEPTH)
			return chain_failed(p, depth, -ELOOP, ino, gen);
		ret = xbl_grow((void **)&p->stack, &p->stack_cap, depth + 1,
			   sizeof(*p->stack));
		if (ret)
			return chain_failed(p, depth, ret, ino, gen);
		f.found = false;
		ret = xbulk_parents_each(p, ino, gen, take_first, &f);
		if (ret == XBULK_PARENTS_ROOT) {
			top = XBP_TOP;	/* a root by another number: damage */
			break;
		}
		if (!ret && !f.found)
			ret = -ENOENT;
		if (!ret)
			ret = xbl_grow((void **)&p->names, &p->names_cap,
				   p->names_len + f.len, 1);
		if (ret)
			return chain_failed(p, depth, ret, ino, gen);
		i = add_dir(p, &(struct xbp_dir){
			.ino = ino, .gen = gen, .state = XBP_PENDING,
			.name_off = (uint32_t)p->names_len,
			.name_len = (uint16_t)f.len,
		});
		memcpy(p->names + p->names_len, f.name, f.len);
		p->names_len += f.len;
		p->stack[depth++] = i;
		ino = f.ino;
		gen = f.gen;
	}
	/* Link the chain from the top down. */
	while (depth-- > 0) {
		i = p->stack[depth];
		p->dirs[i].parent = top;
		p->dirs[i].state = XBP_DONE;
		top = i;
	}
	*slot = top;
	return 0;
}

/* Write the path of directory @slot, then "/" and @name, into p->path. */
static int
build_path(struct xbulk_parents *p, uint32_t slot, const char *name,
	   size_t namelen, size_t *len)
{
	size_t depth = 0, n = 1 + namelen, off;
	uint32_t i;
	int ret;

	for (i = slot; i != XBP_TOP; i = p->dirs[i].parent) {
		ret = xbl_grow((void **)&p->stack, &p->stack_cap, depth + 1,
			   sizeof(*p->stack));
		if (ret)
			return ret;
		p->stack[depth++] = i;
		n += 1 + p->dirs[i].name_len;
	}
	ret = xbl_grow((void **)&p->path, &p->path_cap, n + 1, 1);
	if (ret)
		return ret;
	off = 0;
	while (depth-- > 0) {
		const struct xbp_dir *d = &p->dirs[p->stack[depth]];

		p->path[off++] = '/';
		memcpy(p->path + off, p->names + d->name_off, d->name_len);
		off += d->name_len;
	}
	p->path[off++] = '/';
	memcpy(p->path + off, name, namelen);
	off += namelen;
	p->path[off] = '\0';
	*len = off;
	return 0;
}

/* The parent pointers of the inode asked about, copied out of the
 * records buffer before the directories above them are read. */
struct links {
	struct link {
		uint64_t	ino;
		uint32_t	gen;
		uint32_t	name_off;
		uint16_t	len;
	} *v;
	size_t	n, cap;
	char	*names;
	size_t	names_len, names_cap;
};

static int
add_link(void *arg, uint64_t dir_ino, uint32_t dir_gen, const char *name,
	 size_t namelen)
{
	struct links *l = arg;

	if (xbl_grow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v)) ||
	    xbl_grow((void **)&l->names, &l->names_cap, l->names_len + namelen,
		 1))
		return -ENOMEM;
	l->v[l->n++] = (struct link){ .ino = dir_ino, .gen = dir_gen,
				      .name_off = (uint32_t)l->names_len,
				      .len = (uint16_t)namelen };
	memcpy(l->names + l->names_len, name, namelen);
	l->names_len += namelen;
	return 0;
}

int
xbulk_parents_paths(struct xbulk_parents *p, uint64_t ino, uint32_t gen,
		    xbulk_path_fn fn, void *arg)
{
	struct links l = { 0 };
	uint32_t slot;
	size_t i, len;
	int ret;

	p->fail_ino = ino;	/* unless a directory above it fails */
	ret = xbulk_parents_each(p, ino, gen, add_link, &l);
	if (ret == XBULK_PARENTS_ROOT)
		return fn(arg, "/", 1);
	if (!ret && l.n == 0)
		ret = -ENOENT;
	for (i = 0; !ret && i < l.n; i++) {
		ret = resolve_dir(p, l.v[i].ino, l.v[i].gen, &slot);
		if (!ret)
			ret = build_path(p, slot, l.names + l.v[i].name_off,
					 l.v[i].len, &len);
		if (!ret)
			ret = fn(arg, p->path, len);
	}
	free(l.v);
	free(l.names);
	return ret;
}

uint64_t
xbulk_parents_failed_ino(const struct xbulk_parents *p)
{
	return p->fail_ino;
}
