// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Every kept inode in inode order, each with every name the directory
 * reads gave it (its parent's inode number and the entry's name): what a
 * snapshot records (lib/snap/live.c).  A walk shows the same names in
 * find's order; this gives them grouped by inode, as bulkstat returns
 * the inodes.
 *
 * Opening the cursor goes once top-down over the directories a walk from
 * the mount's top enters (as xbn_reach() does) and gathers one item per
 * name a walk would show: a directory under its accepted parent only, a
 * mount point as the covered inode of this filesystem (the entry is
 * ours).  The first name met of each inode goes into its slot (the
 * store was built with XBN_F_LINK: 8 bytes per inode); only the other
 * names of inodes with several (hard links) become items, which are then
 * sorted by inode number (LSD radix sort, 11 bits a pass, only over the
 * bits inode numbers use).  The cursor goes over the store's runs in
 * inode order and merges the items in; the fields of a run's slots are
 * decoded from the store's stream as it steps through them, and only
 * when asked (xbn_inodes_fill()): the pass that gathers the directory
 * table decodes none.  Memory: 16 bytes per extra name (twice while
 * sorting), first sized from the scan's link counts, in huge pages
 * faulted in at once (xbn_alloc_block(): first touches of fresh memory
 * are most of the cost otherwise), and 32 per run.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "inodes.h"
#include "tree.h"

#define RADIX_BITS	11
#define RADIX_SIZE	(1u << RADIX_BITS)

/* One name of an inode. */
struct item {
	uint64_t	ino;
	uint32_t	pdir;		/* the parent's directory index */
	uint32_t	off;		/* the entry in its listing */
};

/* Memory for @n items, from the budget (xbn_alloc_block()). */
static struct item *
items_alloc(struct xbn_spill *mem, size_t n)
{
	size_t got;

	return xbn_alloc_block(mem, (n ? n : 1) * sizeof(struct item), &got,
			       true);
}

static void
items_free(struct xbn_spill *mem, struct item *v, size_t n)
{
	xbn_free_block(mem, v, (n ? n : 1) * sizeof(struct item));
}

struct xbn_inodes {
	struct xbulk_names	*nm;
	struct item		*items;
	size_t			nitems;
	size_t			icap;		/* allocated (items_alloc) */
	struct xbn_run		*runs;		/* sorted by chunk */
	size_t			nruns;
	/* Position */
	size_t			run;
	uint64_t		mask;		/* bits of runs[run] left */
	size_t			item;
	uint64_t		last;		/* inode returned before */
	bool			started;
	/* What next() hands out */
	struct xbn_inode	cur;
	unsigned int		at;		/* its slot's place in
						   runs[run] */
	struct xbn_link		*links;
	size_t			lcap;
	/* The stream's fields, decoded as fill() asks for them: the run,
	 * how many of its slots, the next slot's fields, the last values */
	size_t			frun;		/* SIZE_MAX: none */
	unsigned int		fdone;
	const uint8_t		*fpos;
	uint64_t		fval[XBN_MAX_SFIELDS];
};

/* Room for @n items at least: a block twice as large if full. */
static int
grow_items(struct xbn_inodes *it, size_t n)
{
	struct xbn_spill *mem = &it->nm->spill;
	size_t cap = it->icap ? it->icap : 1024;
	struct item *v;

	if (n <= it->icap)
		return 0;
	while (cap < n)
		cap *= 2;
	v = items_alloc(mem, cap);
	if (!v)
		return mem->err ? mem->err : -ENOMEM;
	if (it->nitems)
		memcpy(v, it->items, it->nitems * sizeof(*v));
	if (it->items)
		items_free(mem, it->items, it->icap);
	it->items = v;
	it->icap = cap;
	return 0;
}

/* Name @off of directory @p for inode @ino of @slot: into the slot if it
 * is the first, else an item. */
static int
add_name(struct xbn_inodes *it, struct xbn_slot *slot, uint64_t ino,
	 uint32_t p, uint64_t off)
{
	const struct xbn_layout *l = &it->nm->store.lay;
	struct xbn_slot_link link;
	int ret;

	if (off > UINT32_MAX)
		return -EOVERFLOW;	/* a listing of more than 4 GiB */
	memcpy(&link, (char *)slot + l->link, sizeof(link));
	if (link.pdir == XBN_NONE) {
		link = (struct xbn_slot_link){ p, (uint32_t)off };
		memcpy((char *)slot + l->link, &link, sizeof(link));
		return 0;
	}
	ret = grow_items(it, it->nitems + 1);
	if (!ret)
		it->items[it->nitems++] = (struct item){ ino, p, (uint32_t)off };
	return ret;
}

/* The names of directory @p's listing; directories to enter on @stack. */
static int
gather_dir(struct xbn_inodes *it, uint32_t p, uint32_t mark,
	   uint32_t *stack, size_t *sp)
{
	struct xbulk_names *nm = it->nm;
	const struct xbn_dir *pd = xbn_dir(&nm->dirs, p);
	const uint8_t *e, *end = pd->list + pd->listlen;
	int ret;

	for (e = pd->list; e && e < end; e = xbn_ent_next(e)) {
		uint64_t ino = xbn_ent_ino(e), off = (uint64_t)(e - pd->list);
		unsigned int dt = xbn_ent_dtype(e);
		struct xbn_slot *slot = xbn_lookup(&nm->store, ino);
		struct xbn_dir *cd;

		if (!slot || (dt != DT_UNKNOWN &&
			      DTTOIF(dt) != (slot->mode & S_IFMT)))
			continue;	/* dropped, new, bad or reused */
		cd = xbn_slot_dir(nm, slot);
		if (cd) {
			if (!xbn_is_edge(cd, p, off) || cd->mark == mark ||
			    (cd->flags & XBN_DIR_GONE))
				continue;
			cd->mark = mark;
			if (!(cd->flags & XBN_DIR_MOUNT))
				stack[(*sp)++] = slot->aux;
		}
		ret = add_name(it, slot, ino, p, off);
		if (ret)
			return ret;
		xbn_spill_tick(&nm->spill, 1);
	}
	return 0;
}

static int
gather(struct xbn_inodes *it)
{
	struct xbulk_names *nm = it->nm;
	uint32_t mark = ++nm->pass, *stack;
	size_t sp = 0;
	int ret;

	/* the extra names the link counts promise (more if links came
	 * during the scan), once */
	ret = grow_items(it, (size_t)nm->store.more_links);
	stack = malloc(((size_t)nm->dirs.n + 1) * sizeof(*stack));
	if (ret || !stack) {
		free(stack);
		return ret ? ret : -ENOMEM;
	}
	xbn_dir(&nm->dirs, nm->top)->mark = mark;
	stack[sp++] = nm->top;
	while (sp && !ret) {
		ret = gather_dir(it, stack[--sp], mark, stack, &sp);
		if (!ret && xbl_cancelled(nm->cancel))
			ret = -EINTR;
	}
	free(stack);
	return ret;
}

/*
 * Radix-sort @n items of @src by inode number, @tmp as much room again:
 * stable, so names of one inode keep the order the gathering met them
 * in.  Return where they are sorted: @src or @tmp.
 */
static struct item *
radix(struct item *src, struct item *tmp, size_t n, uint64_t maxkey,
      size_t *count)
{
	struct item *dst = tmp, *t;
	unsigned int shift;
	size_t i;

	for (shift = 0; shift < 64 && (maxkey >> shift); shift += RADIX_BITS) {
		size_t sum = 0, c;

		memset(count, 0, RADIX_SIZE * sizeof(*count));
		for (i = 0; i < n; i++)
			count[(src[i].ino >> shift) & (RADIX_SIZE - 1)]++;
		for (i = 0; i < RADIX_SIZE; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[count[(src[i].ino >> shift) & (RADIX_SIZE - 1)]++] =
				src[i];
		t = src;
		src = dst;
		dst = t;
	}
	return src;
}

/* One sorted segment being merged: its next item and its end. */
struct seg {
	const struct item	*at, *end;
};

/* Is segment @a's head before @b's?  Ties: the earlier segment (stable). */
static bool
seg_before(const struct seg *a, const struct seg *b)
{
	return a->at->ino < b->at->ino ||
	       (a->at->ino == b->at->ino && a < b);
}

/* Restore the heap of @n segment indexes below position @i. */
static void
sift(const struct seg *g, size_t *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i, t;

		if (l < n && seg_before(&g[h[l]], &g[h[m]]))
			m = l;
		if (l + 1 < n && seg_before(&g[h[l + 1]], &g[h[m]]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/*
 * Spilled items: each segment that fits a quarter of what the budget
 * leaves for spilled pages is sorted in anonymous memory and written
 * back, then the segments are merged into @dst: every pass reads and
 * writes the spill file in order, where a radix pass over it writes to
 * 2048 places at once (a snapshot of 1M inodes at --memory 16M took 5.2 s
 * so, against 0.54 s in memory).
 */
static int
sort_spilled(struct xbn_spill *mem, struct item *src, struct item *dst,
	     size_t n, uint64_t maxkey, size_t *count)
{
	size_t per = mem->budget / 16 / sizeof(struct item), nseg, i, k;
	struct item *a, *b;
	struct seg *g;
	size_t *h;

	if (per < 4096)
		per = 4096;
	if (per > n)
		per = n;
	nseg = (n + per - 1) / per;
	a = malloc(2 * per * sizeof(*a));
	g = malloc(nseg * sizeof(*g));
	h = malloc(nseg * sizeof(*h));
	if (!a || !g || !h) {
		free(a);
		free(g);
		free(h);
		return -ENOMEM;
	}
	b = a + per;
	for (k = 0; k < nseg; k++) {
		size_t len = k + 1 < nseg ? per : n - k * per;
		struct item *seg = src + k * per;

		memcpy(a, seg, len * sizeof(*a));
		memcpy(seg, radix(a, b, len, maxkey, count), len * sizeof(*a));
		xbn_spill_tick(mem, (unsigned int)len);
		g[k] = (struct seg){ seg, seg + len };
		h[k] = k;
	}
	for (k = nseg / 2; k-- > 0;)
		sift(g, h, nseg, k);
	for (i = 0; i < n; i++) {
		struct seg *top = &g[h[0]];

		dst[i] = *top->at++;
		if (top->at == top->end)
			h[0] = h[--nseg];
		sift(g, h, nseg, 0);
		xbn_spill_tick(mem, 1);
	}
	free(a);
	free(g);
	free(h);
	return 0;
}

/* Sort the @n items of *@v (room for @cap) by inode number, stable. */
static int
sort_items(struct xbn_spill *mem, struct item **v, size_t n, size_t cap,
	   uint64_t maxkey)
{
	struct item *src = *v, *dst;
	size_t *count;
	int ret = 0;

	if (n < 2)
		return 0;
	dst = items_alloc(mem, cap);
	count = malloc(RADIX_SIZE * sizeof(*count));
	if (!dst || !count) {
		items_free(mem, dst, cap);
		free(count);
		return mem->err ? mem->err : -ENOMEM;
	}
	if (xbn_spilled(mem, src) || xbn_spilled(mem, dst))
		ret = sort_spilled(mem, src, dst, n, maxkey, count);
	else if (radix(src, dst, n, maxkey, count) == src)
		ret = 1;	/* sorted in place: dst is the spare */
	if (!ret) {
		*v = dst;
		dst = src;
	}
	ret = ret < 0 ? ret : 0;
	free(count);
	items_free(mem, dst, cap);
	return ret;
}

int
xbn_inodes_open(struct xbulk_names *nm, struct xbn_inodes **out)
{
	struct xbn_inodes *it = calloc(1, sizeof(*it));
	uint64_t maxino = 0;
	size_t i;
	int ret;

	*out = NULL;
	if (!nm->store.lay.link)
		return -EINVAL;
	if (!it)
		return -ENOMEM;
	it->nm = nm;
	ret = gather(it);
	for (i = 0; !ret && i < it->nitems; i++)
		if (it->items[i].ino > maxino)
			maxino = it->items[i].ino;
	if (!ret)
		ret = sort_items(&it->nm->spill, &it->items, it->nitems,
				 it->icap, maxino);
	if (!ret)
		ret = xbn_store_runs(&nm->store, &it->runs, &it->nruns);
	if (ret) {
		xbn_inodes_free(it);
		return ret;
	}
	xbn_inodes_rewind(it);
	*out = it;
	return 0;
}

void
xbn_inodes_rewind(struct xbn_inodes *it)
{
	it->run = 0;
	it->mask = it->nruns ? it->runs[0].mask : 0;
	it->item = 0;
	it->last = 0;
	it->started = false;
	it->frun = SIZE_MAX;
}

/* The next slot in inode order and its inode in *@ino, or NULL at the
 * end. */
static const struct xbn_slot *
next_slot(struct xbn_inodes *it, uint64_t *ino)
{
	const struct xbn_run *r;
	unsigned int bit;

	while (it->run < it->nruns && !it->mask)
		if (++it->run < it->nruns)
			it->mask = it->runs[it->run].mask;
	if (it->run >= it->nruns)
		return NULL;
	r = &it->runs[it->run];
	bit = (unsigned int)__builtin_ctzll(it->mask);
	it->mask &= it->mask - 1;
	it->at = xbn_popcount(r->mask & ~it->mask) - 1;
	*ino = r->chunk << 6 | bit;
	return xbn_run_slot(&it->nm->store, r, bit);
}

/* Link @n of what next() hands out: entry @off of directory @p. */
static int
put_link(struct xbn_inodes *it, size_t n, uint32_t p, uint32_t off)
{
	const struct xbn_dir *pd = xbn_dir(&it->nm->dirs, p);
	const uint8_t *de = pd->list + off;

	if (xbl_grow((void **)&it->links, &it->lcap, n + 1,
		     sizeof(*it->links)))
		return -ENOMEM;
	it->links[n].parent = pd->ino;
	it->links[n].name = xbn_ent_name(de);
	it->links[n].namelen = xbn_ent_namelen(de);
	return 0;
}

int
xbn_inodes_next(struct xbn_inodes *it, const struct xbn_inode **out)
{
	struct xbulk_names *nm = it->nm;
	const struct xbn_dir *d;
	struct xbn_slot_link first;
	uint64_t ino = 0;
	const struct xbn_slot *slot = next_slot(it, &ino);
	size_t n = 0;
	int ret;

	if (!slot)
		return 0;
	xbn_spill_tick(&nm->spill, 1);
	if (it->started && ino <= it->last)
		return -EPROTO;		/* runs out of order: a bug */
	it->started = true;
	it->last = ino;
	memcpy(&first, (const char *)slot + nm->store.lay.link,
	       sizeof(first));
	if (first.pdir != XBN_NONE &&
	    (ret = put_link(it, n++, first.pdir, first.off)))
		return ret;
	while (it->item < it->nitems && it->items[it->item].ino < ino)
		it->item++;
	while (it->item < it->nitems && it->items[it->item].ino == ino) {
		const struct item *x = &it->items[it->item++];

		ret = put_link(it, n++, x->pdir, x->off);
		if (ret)
			return ret;
	}
	d = xbn_slot_dir(nm, slot);
	it->cur.ino = ino;
	it->cur.mode = slot->mode;
	it->cur.gen = d ? d->gen : slot->aux;
	it->cur.top = d && slot->aux == nm->top;
	it->cur.links = it->links;
	it->cur.nlinks = n;
	*out = &it->cur;
	return 1;
}

void
xbn_inodes_fill(struct xbn_inodes *it, struct xfs_bulkstat *bs)
{
	const struct xbn_layout *l = &it->nm->store.lay;

	memset(bs, 0, sizeof(*bs));
	bs->bs_ino = it->cur.ino;
	bs->bs_mode = (uint16_t)it->cur.mode;
	bs->bs_gen = it->cur.gen;
	if (it->frun != it->run) {
		/* another run: its fields from its first slot's */
		it->frun = it->run;
		it->fdone = 0;
		it->fpos = it->runs[it->run].fields;
		memset(it->fval, 0, sizeof(it->fval));
	}
	for (; it->fdone <= it->at; it->fdone++)
		it->fpos = xbn_stream_get(l, it->fpos, it->fval);
	xbn_stream_fill(l, bs, it->fval);
}

int
xbn_spill_error(const struct xbulk_names *nm, uint64_t *placed)
{
	*placed = nm->spill.placed;
	return nm->spill.err;
}

void
xbn_inodes_free(struct xbn_inodes *it)
{
	if (!it)
		return;
	items_free(&it->nm->spill, it->items, it->icap);
	free(it->runs);
	free(it->links);
	free(it);
}
