// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The names engine's pure parts (lib/names/): the XFS handle layout, the
 * slot layout and packing, the chunk index, fts's order of big
 * directories, mountinfo parsing, and the tree (parents, paths, names)
 * on a synthetic filesystem.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "names/tree.h"
#include "snap/snap.h"

static void
test_handle(void **state)
{
	union xbn_handle h;
	const unsigned char want[XBN_HANDLE_BYTES] = {
		0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
		0xdd, 0xcc, 0xbb, 0xaa,
	};

	(void)state;
	xbn_handle_pack(&h, 0x1122334455667788ULL, 0xaabbccdd);
	assert_int_equal(h.fh.handle_type, 0x81);
	assert_int_equal(h.fh.handle_bytes, 12);
	assert_memory_equal(h.fh.f_handle, want, sizeof(want));
}

static void
test_popcount(void **state)
{
	uint64_t v = 1;
	int i;

	(void)state;
	assert_int_equal(xbn_popcount(0), 0);
	assert_int_equal(xbn_popcount(UINT64_MAX), 64);
	for (i = 0; i < 1000; i++) {
		v = v * 6364136223846793005ULL + 1442695040888963407ULL;
		assert_int_equal(xbn_popcount(v), __builtin_popcountll(v));
	}
}

/* A record whose every byte says where it is. */
static void
fill_bs(struct xfs_bulkstat *bs)
{
	size_t i;

	for (i = 0; i < sizeof(*bs); i++)
		((unsigned char *)bs)[i] = (unsigned char)(i + 1);
}

static void
test_layout(void **state)
{
	struct xbn_layout l;
	struct xfs_bulkstat bs, out, want;
	uint64_t slot[64];

	(void)state;
	xbn_layout_init(&l, XBULK_F_SIZE);
	assert_int_equal(l.slot, 16);	/* mode, flags, aux, size */
	xbn_layout_init(&l, 0);
	assert_int_equal(l.slot, 8);
	xbn_layout_init(&l, XBULK_F_OWNER | XBULK_F_MTIME);
	assert_int_equal(l.slot, 28);	/* 8 + 8 + 8 + 4 */
	xbn_layout_init(&l, XBULK_F_ALL);
	assert_int_equal(l.slot, 8 + 11 * 8 + 9 * 4);	/* 132 */

	/* only the fields asked for come back; the rest stays 0 */
	fill_bs(&bs);
	xbn_layout_init(&l, XBULK_F_SIZE | XBULK_F_NLINK | XBULK_F_OTHER);
	xbn_pack(&l, slot, &bs);
	memset(&out, 0, sizeof(out));
	xbn_unpack(&l, &out, slot);
	memset(&want, 0, sizeof(want));
	want.bs_size = bs.bs_size;
	want.bs_nlink = bs.bs_nlink;
	want.bs_version = bs.bs_version;
	want.bs_forkoff = bs.bs_forkoff;
	want.bs_sick = bs.bs_sick;
	want.bs_checked = bs.bs_checked;
	assert_memory_equal(&out, &want, sizeof(out));

	/* everything: every field but the header's */
	xbn_layout_init(&l, XBULK_F_ALL);
	xbn_pack(&l, slot, &bs);
	memset(&out, 0, sizeof(out));
	xbn_unpack(&l, &out, slot);
	out.bs_ino = bs.bs_ino;
	out.bs_gen = bs.bs_gen;
	out.bs_mode = bs.bs_mode;
	out.bs_extents = bs.bs_extents;	/* 0 in normalized records */
	out.bs_pad2 = bs.bs_pad2;
	memcpy(out.bs_pad, bs.bs_pad, sizeof(out.bs_pad));
	assert_memory_equal(&out, &bs, sizeof(out));
}

static void
test_stream_layout(void **state)
{
	struct xbn_layout l;

	(void)state;
	/* a snapshot's slot: the header and the first name, no field */
	xbn_layout_init(&l, SNAP_FIELDS | XBN_F_LINK);
	assert_int_equal(l.slot, 16);
	assert_int_equal(l.link, 8);
	assert_int_equal(l.npieces, 0);
	assert_int_equal(l.nsfields, 19);
	assert_int_equal(l.stream_max, 3 + 19 * 10);
	xbn_layout_init(&l, XBULK_F_ALL | XBN_F_LINK);
	assert_int_equal(l.slot, 16);
	assert_int_equal(l.nsfields, 22);
	/* without ctime, the other times are coded against their own */
	xbn_layout_init(&l, XBULK_F_MTIME | XBN_F_LINK);
	assert_int_equal(l.nsfields, 2);
	assert_int_equal(l.sfield[0].ref, XBN_REF_PREV);
	assert_int_equal(l.sfield[1].ref, XBN_REF_PREV);
	xbn_layout_init(&l, XBULK_F_MTIME | XBULK_F_CTIME | XBN_F_LINK);
	assert_int_equal(l.sfield[2].ref, 0);	/* mtime_nsec: ctime's */
	assert_int_equal(l.sfield[3].ref, 1);
}

/* Inode @i's record: fields equal to the one before, or not, or odd. */
static void
stream_bs(struct xfs_bulkstat *bs, uint64_t i)
{
	memset(bs, 0, sizeof(*bs));
	bs->bs_ino = 1000 + i + (i / 50) * 70;	/* gaps, chunks apart */
	bs->bs_uid = bs->bs_gid = 1000;
	bs->bs_nlink = 1;
	bs->bs_blksize = 4096;
	bs->bs_ctime = 1700000000 + (int64_t)(i / 7);
	bs->bs_ctime_nsec = (uint32_t)(i * 7919 % 1000000000);
	bs->bs_mtime = bs->bs_atime = bs->bs_btime = bs->bs_ctime;
	bs->bs_mtime_nsec = bs->bs_atime_nsec = bs->bs_btime_nsec =
		bs->bs_ctime_nsec;
	if (i % 3 == 0) {
		bs->bs_size = i * 4097;
		bs->bs_blocks = (i * 4097 + 511) / 512;
		bs->bs_extents64 = 1;
		bs->bs_atime = bs->bs_ctime + 86400;
	}
	if (i % 11 == 0) {	/* the far ends of every width */
		bs->bs_size = UINT64_MAX;
		bs->bs_ctime = INT64_MIN;
		bs->bs_mtime = INT64_MAX;
		bs->bs_atime_nsec = 999999999;
		bs->bs_btime = -1;
		bs->bs_uid = UINT32_MAX;
		bs->bs_xflags = UINT64_MAX;
		bs->bs_cowextsize_blks = 7;
		bs->bs_version = 5;
		bs->bs_checked = 0xffff;
	}
}

/*
 * A stream store (XBN_F_LINK) over two arenas, in memory or (@budget 1)
 * spilled, read back run by run in inode order as the cursor does: the
 * fields come back as a slot holds them, and neighbours cost little.
 */
static void
stream_case(uint64_t budget)
{
	struct xbn_layout flat;
	struct xbn_spill mem;
	struct xbn_store s;
	struct xbn_arena *a[2];
	struct xbn_run *runs;
	struct xfs_bulkstat bs, got, want;
	uint64_t i, kept, dropped, n = 3000, seen = 0;
	uint64_t slot[64];
	size_t nruns, k;

	xbn_layout_init(&flat, XBULK_F_ALL);
	assert_int_equal(xbn_spill_init(&mem, budget, "/tmp", 0), 0);
	assert_int_equal(xbn_store_init(&s, XBULK_F_ALL | XBN_F_LINK, &mem),
			 0);
	a[0] = xbn_arena_get(&s);
	a[1] = xbn_arena_get(&s);
	for (i = 0; i < n; i++) {
		stream_bs(&bs, i);
		/* batches of 100 to either arena */
		assert_non_null(xbn_arena_add(&s, a[i / 100 % 2], &bs));
		a[i / 100 % 2]->kept++;
	}
	xbn_arena_put(&s, a[0]);
	xbn_arena_put(&s, a[1]);
	assert_int_equal(xbn_store_index(&s, &kept, &dropped), 0);
	assert_int_equal(kept, n);
	assert_int_equal(xbn_store_runs(&s, &runs, &nruns), 0);
	for (k = 0, i = 0; k < nruns; k++) {
		const uint8_t *p = runs[k].fields;
		uint64_t val[XBN_MAX_SFIELDS] = { 0 }, m;

		for (m = runs[k].mask; m; m &= m - 1, i++) {
			const uint8_t *q = p;

			stream_bs(&bs, i);
			assert_int_equal(bs.bs_ino, runs[k].chunk << 6 |
							    __builtin_ctzll(m));
			p = xbn_stream_get(&s.lay, p, val);
			/* after a neighbour of the same owner, link count,
			 * size and times: the mask, ctime's change */
			if (m != runs[k].mask && i % 3 == 2 && i % 11 &&
			    (i - 1) % 11)
				assert_in_range(p - q, 3, 4);
			memset(&got, 0, sizeof(got));
			xbn_stream_fill(&s.lay, &got, val);
			xbn_pack(&flat, slot, &bs);
			memset(&want, 0, sizeof(want));
			xbn_unpack(&flat, &want, slot);
			assert_memory_equal(&got, &want, sizeof(got));
			seen++;
		}
	}
	assert_int_equal(seen, n);
	/* a slot block and a stream block per arena */
	assert_int_equal(s.bytes, 4 * XBN_BLOCK_ALIGN + (s.runmask + 1) *
							      sizeof(*runs));
	assert_int_equal(mem.placed ? 1 : 0, budget ? 1 : 0);
	free(runs);
	xbn_store_free(&s);
	xbn_spill_fini(&mem);
}

static void
test_stream(void **state)
{
	(void)state;
	stream_case(0);
}

static void
test_stream_spilled(void **state)
{
	(void)state;
	stream_case(1);
}

static struct xbn_slot *
add(struct xbn_store *s, struct xbn_arena *a, uint64_t ino)
{
	struct xfs_bulkstat bs = { .bs_ino = ino, .bs_size = ino };
	struct xbn_slot *slot = xbn_arena_add(s, a, &bs);

	assert_non_null(slot);
	slot->mode = S_IFREG;
	slot->flags = 0;
	slot->aux = (uint32_t)ino;
	a->kept++;
	return slot;
}

/* The store's runs and lookups, its blocks in memory or (@budget 1)
 * all in the spill file, let go after every block. */
static void
store_case(uint64_t budget)
{
	struct xbn_spill mem;
	struct xbn_store s;
	struct xbn_arena *a, *b;
	uint64_t ino, kept, dropped;

	assert_int_equal(xbn_spill_init(&mem, budget, "/tmp", 0), 0);
	assert_int_equal(xbn_store_init(&s, XBULK_F_SIZE, &mem), 0);
	a = xbn_arena_get(&s);
	b = xbn_arena_get(&s);
	assert_ptr_not_equal(a, b);
	/* chunk 2 split over two arenas; every third inode dropped */
	for (ino = 128; ino < 128 + 96; ino++) {
		if (ino % 3 == 0) {
			a->dropped++;
			continue;
		}
		add(&s, ino < 128 + 40 ? a : b, ino);
	}
	/* far away, alone in its chunk */
	add(&s, b, 1ULL << 40);
	xbn_arena_put(&s, a);
	xbn_arena_put(&s, b);
	assert_int_equal(xbn_store_index(&s, &kept, &dropped), 0);
	assert_int_equal(kept, 65);
	assert_int_equal(dropped, 32);
	for (ino = 100; ino < 128 + 120; ino++) {
		struct xbn_slot *slot = xbn_lookup(&s, ino);

		if (ino < 128 || ino >= 128 + 96 || ino % 3 == 0) {
			assert_null(slot);
			continue;
		}
		assert_non_null(slot);
		assert_int_equal(slot->aux, (uint32_t)ino);
	}
	assert_non_null(xbn_lookup(&s, 1ULL << 40));
	/* the runs in inode order: chunk 2 from a, chunk 2 from b (one
	 * arena's runs stop at a chunk's end), chunk 3 from b, chunk 2^34 */
	{
		struct xbn_run *runs;
		size_t n;

		assert_int_equal(xbn_store_runs(&s, &runs, &n), 0);
		assert_int_equal(n, 4);
		assert_int_equal(runs[0].chunk, 2);
		assert_int_equal(__builtin_ctzll(runs[0].mask), 0);
		assert_int_equal(runs[1].chunk, 2);
		assert_int_equal(__builtin_ctzll(runs[1].mask), 41);
		assert_int_equal(runs[2].chunk, 3);
		assert_int_equal(__builtin_ctzll(runs[2].mask), 1);
		assert_int_equal(runs[3].chunk, 1ULL << 34);
		free(runs);
	}
	assert_null(xbn_lookup(&s, (1ULL << 40) + 1));
	assert_int_equal(mem.placed ? 1 : 0, budget ? 1 : 0);
	xbn_store_free(&s);
	xbn_spill_fini(&mem);
}

static void
test_store(void **state)
{
	(void)state;
	store_case(0);
}

static void
test_store_spilled(void **state)
{
	(void)state;
	store_case(1);
}

/*
 * Spilled blocks keep what was written through their pages being let
 * go; the spill file is refused on the scanned filesystem and reports
 * a directory that is not there.
 */
static void
test_spill(void **state)
{
	struct xbn_spill mem;
	struct stat st;
	uint64_t *v[3];
	size_t got, i, j;

	(void)state;
	assert_int_equal(xbn_spill_init(&mem, 1, "/tmp", 0), 0);
	for (i = 0; i < 3; i++) {
		v[i] = xbn_alloc_block(&mem, (i + 1) << 20, &got, i != 1);
		assert_non_null(v[i]);
		assert_true(got >= (i + 1) << 20);
		for (j = 0; j < got / 8; j++)
			v[i][j] = i << 32 | j;
	}
	assert_true(mem.placed >= (6U << 20));
	assert_int_equal(mem.held, 0);
	xbn_spill_check(&mem);
	assert_true(mem.trims >= 1);
	for (i = 0; i < 3; i++)
		for (j = 0; j < ((i + 1) << 20) / 8; j++)
			assert_true(v[i][j] == (i << 32 | j));
	xbn_free_block(&mem, v[0], 1U << 20);
	xbn_spill_fini(&mem);

	assert_int_equal(stat("/tmp", &st), 0);
	assert_int_equal(xbn_spill_init(&mem, 1, "/tmp", st.st_dev), 0);
	assert_null(xbn_alloc_block(&mem, 10, &got, false));
	assert_int_equal(mem.err, -EXDEV);
	assert_null(xbn_alloc_block(&mem, 10, &got, false));
	xbn_spill_fini(&mem);

	assert_int_equal(xbn_spill_init(&mem, 1, "/nonexistent.xbulk", 0), 0);
	assert_null(xbn_alloc_block(&mem, 10, &got, false));
	assert_int_equal(mem.err, -ENOENT);
	xbn_spill_fini(&mem);

	/* no budget: anonymous memory, whatever the size */
	assert_int_equal(xbn_spill_init(&mem, 0, "/nonexistent.xbulk", 0), 0);
	v[0] = xbn_alloc_block(&mem, 3U << 20, &got, true);
	assert_non_null(v[0]);
	assert_int_equal(mem.held, 4U << 20);
	xbn_free_block(&mem, v[0], got);
	assert_int_equal(mem.held, 0);
	xbn_spill_fini(&mem);
}

/* Append an entry to @buf at *@len. */
static void
put(uint8_t *buf, size_t *len, uint64_t ino, unsigned int dt,
    const char *name)
{
	*len += xbn_ent_put(buf + *len, ino, dt, name, strlen(name));
}

/* Entries of @n inodes in a scrambled order, listed in fts's order. */
static uint64_t *
ordered(uint64_t n)
{
	struct xbn_reader r;
	uint8_t *in = malloc(n * 20), *out = malloc(n * 20);
	uint64_t *inos = malloc(n * sizeof(*inos)), i;
	const uint8_t *e;
	size_t len = 0;
	char name[16];

	assert_int_equal(xbn_reader_init(&r, NULL, NULL), 0);
	for (i = 0; i < n; i++) {
		/* i and i ^ 1 share an inode: ties keep readdir order */
		snprintf(name, sizeof(name), "%llu", (unsigned long long)i);
		put(in, &len, 1000 + ((i * 7919) % n) / 2 * 2, DT_REG, name);
	}
	assert_int_equal(xbn_order_listing(&r, out, in, len, n, false), 0);
	for (i = 0, e = out; i < n; i++, e = xbn_ent_next(e))
		inos[i] = xbn_ent_ino(e);
	assert_ptr_equal(e, out + len);
	xbn_reader_fini(&r);
	free(in);
	free(out);
	return inos;
}

static void
assert_sorted(const uint64_t *v, uint64_t from, uint64_t to)
{
	uint64_t i;

	for (i = from + 1; i < to; i++)
		assert_true(v[i - 1] <= v[i]);
}

static bool
is_sorted(const uint64_t *v, uint64_t from, uint64_t to)
{
	uint64_t i;

	for (i = from + 1; i < to; i++) {
		if (v[i - 1] > v[i])
			return false;
	}
	return true;
}

static void
test_order(void **state)
{
	uint64_t *v;

	(void)state;
	/* 10,000 entries: readdir order */
	v = ordered(10000);
	assert_false(is_sorted(v, 0, 10000));
	free(v);
	/* 10,001: sorted by inode number */
	v = ordered(10001);
	assert_sorted(v, 0, 10001);
	free(v);
	/* 215,000: batches of 100,000 sorted each, the last 15,000 too */
	v = ordered(215000);
	assert_sorted(v, 0, 100000);
	assert_sorted(v, 100000, 200000);
	assert_sorted(v, 200000, 215000);
	assert_false(is_sorted(v, 0, 200000));
	free(v);
	/* 105,000: the last batch of 5,000 keeps readdir order */
	v = ordered(105000);
	assert_sorted(v, 0, 100000);
	assert_false(is_sorted(v, 100000, 105000));
	free(v);
}

static void
test_order_ties(void **state)
{
	struct xbn_reader r;
	uint8_t *in = malloc(20000 * 16), *out = malloc(20000 * 16);
	const uint8_t *e;
	size_t len = 0;
	char name[16];
	int i;

	(void)state;
	assert_int_equal(xbn_reader_init(&r, NULL, NULL), 0);
	/* hard links of one inode, names in readdir order z..., a... */
	for (i = 0; i < 20000; i++) {
		snprintf(name, sizeof(name), "%c%05d", i < 10000 ? 'z' : 'a',
			 i);
		put(in, &len, i % 2 ? 5 : 7, DT_REG, name);
	}
	assert_int_equal(xbn_order_listing(&r, out, in, len, 20000, false), 0);
	e = out;
	assert_int_equal(xbn_ent_ino(e), 5);
	assert_memory_equal(xbn_ent_name(e), "z00001", 6);
	for (i = 0; i < 10000; i++)
		e = xbn_ent_next(e);
	assert_int_equal(xbn_ent_ino(e), 7);
	assert_memory_equal(xbn_ent_name(e), "z00000", 6);
	xbn_reader_fini(&r);
	free(in);
	free(out);
}

static void
test_mountinfo(void **state)
{
	char line[] = "36 35 98:0 /sub/with\\040space /mnt/a\\011b\\134c "
		      "rw,noatime master:1 - xfs /dev/loop0 rw\n";
	char bad[] = "36 x 98:0 / /mnt rw - xfs /dev/loop0 rw";
	char esc[] = "a\\040b\\012c\\134\\999";
	uint64_t id, parent;
	char *root, *mp;

	(void)state;
	assert_int_equal(xbn_mountinfo_line(line, &id, &parent, &root, &mp), 0);
	assert_int_equal(id, 36);
	assert_int_equal(parent, 35);
	assert_string_equal(root, "/sub/with space");
	assert_string_equal(mp, "/mnt/a\tb\\c");
	assert_int_equal(xbn_mountinfo_line(bad, &id, &parent, &root, &mp),
			 -EINVAL);
	xbn_unescape(esc);
	assert_string_equal(esc, "a b\nc\\\\999");

	assert_string_equal(xbn_path_below("/mnt/x", "/mnt/x/a/b"), "a/b");
	assert_string_equal(xbn_path_below("/", "/a"), "a");
	assert_null(xbn_path_below("/mnt/x", "/mnt/x"));
	assert_null(xbn_path_below("/mnt/x", "/mnt/xy/a"));
	assert_null(xbn_path_below("/mnt/x", "/mnt"));
}

/*
 * A synthetic filesystem: / (ino 128) holds "a" (dir 200) and "f" (file
 * 300); a holds "b" (dir 201) and a hard link "g" to f; b holds "deep"
 * (dir 202).  Every ".." agrees, so no re-check asks the kernel.
 */
struct fake {
	struct xbulk_names	nm;
	uint8_t			lists[4][256];
};

static struct fake *
fake_fs(void)
{
	static const struct {
		uint64_t	ino;
		uint16_t	mode;
	} inodes[] = {
		{ 128, S_IFDIR }, { 200, S_IFDIR }, { 201, S_IFDIR },
		{ 202, S_IFDIR }, { 300, S_IFREG },
	};
	struct fake *f = calloc(1, sizeof(*f));
	struct xbulk_names *nm = &f->nm;
	struct xfs_bulkstat bs[5];
	struct xbn_arena *a;
	uint64_t kept, dropped, dotdot[4] = { 128, 128, 200, 201 };
	size_t len[4] = { 0 };
	uint32_t first, i;

	assert_int_equal(xbn_spill_init(&nm->spill, 0, NULL, 0), 0);
	assert_int_equal(xbn_store_init(&nm->store, 0, &nm->spill), 0);
	assert_int_equal(xbn_dirs_init(&nm->dirs, &nm->spill), 0);
	memset(bs, 0, sizeof(bs));
	for (i = 0; i < 5; i++) {
		bs[i].bs_ino = inodes[i].ino;
		bs[i].bs_mode = inodes[i].mode;
	}
	assert_int_equal(xbn_dirs_add(&nm->dirs, bs, 5, 4, &first), 0);
	a = xbn_arena_get(&nm->store);
	for (i = 0; i < 5; i++) {
		struct xbn_slot *slot = xbn_arena_add(&nm->store, a, &bs[i]);

		slot->mode = bs[i].bs_mode;
		slot->flags = 0;
		slot->aux = i < 4 ? first + i : 0;
	}
	xbn_arena_put(&nm->store, a);
	assert_int_equal(xbn_store_index(&nm->store, &kept, &dropped), 0);
	put(f->lists[0], &len[0], 200, DT_DIR, "a");
	put(f->lists[0], &len[0], 300, DT_REG, "f");
	put(f->lists[1], &len[1], 201, DT_DIR, "b");
	put(f->lists[1], &len[1], 300, DT_REG, "g");
	put(f->lists[2], &len[2], 202, DT_DIR, "deep");
	for (i = 0; i < 4; i++) {
		struct xbn_dir *d = xbn_dir(&nm->dirs, i);

		d->list = len[i] ? f->lists[i] : NULL;
		d->listlen = len[i];
		d->nentries = i < 2 ? 2 : i == 2;
		d->dotdot = dotdot[i];
		d->flags = XBN_DIR_READ;
	}
	nm->root = nm->top = 0;
	nm->mountpoint = strdup("/mnt/x");
	return f;
}

static void
fake_free(struct fake *f)
{
	free(f->nm.mountpoint);
	free(f->nm.problems);
	xbn_store_free(&f->nm.store);
	xbn_dirs_free(&f->nm.dirs);
	xbn_spill_fini(&f->nm.spill);
	free(f);
}

/* What the readers do, listing by listing, then the tree. */
static int
tree_build(struct xbulk_names *nm, struct xbulk_names_result *r)
{
	struct xbn_links links = { .v = NULL };
	uint32_t p;
	int ret = 0;

	for (p = 0; p < nm->dirs.n && !ret; p++)
		ret = xbn_link_listing(nm, p, &links);
	if (!ret)
		ret = xbn_tree_build(nm, r, &links);
	free(links.v);
	return ret;
}

static void
test_tree(void **state)
{
	struct fake *f = fake_fs();
	struct xbulk_names *nm = &f->nm;
	struct xbulk_names_result r = { .size = sizeof(r) };
	uint32_t dir;
	uint64_t off;
	char *p;

	(void)state;
	assert_int_equal(tree_build(nm, &r), 0);
	assert_int_equal(r.damage + r.dirs_moved + r.stale_names, 0);
	assert_int_equal(xbn_dir(&nm->dirs, 0)->parent, XBN_NONE);
	assert_int_equal(xbn_dir(&nm->dirs, 1)->parent, 0);
	assert_int_equal(xbn_dir(&nm->dirs, 2)->parent, 1);
	assert_int_equal(xbn_dir(&nm->dirs, 3)->parent, 2);

	p = xbn_dir_path(nm, 3);
	assert_string_equal(p, "/mnt/x/a/b/deep");
	free(p);
	p = xbn_dir_path(nm, 0);
	assert_string_equal(p, "/mnt/x");
	free(p);
	free(nm->mountpoint);
	nm->mountpoint = strdup("/");
	p = xbn_dir_path(nm, 2);
	assert_string_equal(p, "/a/b");
	free(p);
	/* from a bind mount of a: its top */
	nm->top = 1;
	p = xbn_dir_path(nm, 3);
	assert_string_equal(p, "/b/deep");
	free(p);
	nm->top = 0;

	assert_int_equal(xbn_resolve(nm, 0, "a/b/deep", &dir, &off), 0);
	assert_int_equal(dir, 2);
	assert_int_equal(off, 0);
	assert_int_equal(xbn_resolve(nm, 0, "//a//g", &dir, &off), 0);
	assert_int_equal(dir, 1);
	assert_int_equal(xbn_resolve(nm, 0, "a/nothing", &dir, &off), -ENOENT);
	assert_int_equal(xbn_resolve(nm, 0, "f/x", &dir, &off), -ENOENT);
	assert_int_equal(xbn_resolve(nm, 0, "", &dir, &off), -ENOENT);
	fake_free(f);
}

/*
 * Directories 201 and 202 list each other and their ".." agree: a loop
 * no parent chain from the top reaches.  It is re-checked (the kernel,
 * asked through no filesystem here, confirms no name) and cut: both end
 * without a parent, and nothing loops.
 */
static void
test_loop(void **state)
{
	struct fake *f = fake_fs();
	struct xbulk_names *nm = &f->nm;
	struct xbulk_names_result r = { .size = sizeof(r) };
	size_t len = 0;

	(void)state;
	nm->mfd = -1;
	/* b (201) leaves a; deep (202) lists b, b lists deep */
	f->lists[1][0] = 0;
	memcpy(f->lists[1], &(uint64_t){ 999 }, 8);
	put(f->lists[3], &len, 201, DT_DIR, "b");
	xbn_dir(&nm->dirs, 3)->list = f->lists[3];
	xbn_dir(&nm->dirs, 3)->listlen = len;
	xbn_dir(&nm->dirs, 2)->dotdot = 202;
	assert_int_equal(tree_build(nm, &r), 0);
	assert_int_equal(xbn_dir(&nm->dirs, 2)->parent, XBN_NONE);
	assert_int_equal(xbn_dir(&nm->dirs, 3)->parent, XBN_NONE);
	assert_int_equal(xbn_dir(&nm->dirs, 1)->parent, 0);
	assert_null(xbn_dir_path(nm, 3));
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_handle),
		cmocka_unit_test(test_popcount),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_store),
		cmocka_unit_test(test_store_spilled),
		cmocka_unit_test(test_stream_layout),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_stream_spilled),
		cmocka_unit_test(test_spill),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_order_ties),
		cmocka_unit_test(test_mountinfo),
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_loop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
