// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the snapshot records (lib/snap/codec.c) and the
 * directory table (lib/snap/dirtab.c): a record survives its bytes with
 * extreme values (times before 1970 and in 2486, sizes near 2^63, every
 * nanosecond, many names); every truncation of a record is refused; an
 * inode's names that fill a record to its last byte stay in one, one
 * byte more takes a continuation record; 70,000 names of 200 bytes
 * survive the records, continuations at block starts too, and a file
 * (the writer and the reader, across blocks); a continuation of another
 * inode, with another flag or without a name, a record cut short of its
 * continuations and names out of order are refused, and so are the names
 * "." and ".." in a record and in the directory table (names that only
 * begin with dots are kept) and a directory below the top without a
 * name; the table makes paths, says which directories no path reaches,
 * and refuses a cycle of parents.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "snap/snap.h"

static void
roundtrip(void **state)
{
	/* static: its padding is zero, as decoding leaves it */
	static struct xfs_bulkstat bs = {
		.bs_ino = 1ULL << 40, .bs_gen = 0xffffffff, .bs_mode = 0100644,
		.bs_nlink = 3, .bs_uid = 4000000000u, .bs_gid = 7,
		.bs_projectid = 99, .bs_size = INT64_MAX, .bs_blocks = 12345,
		.bs_rdev = 0x801, .bs_xflags = 0x80000080,
		.bs_extents64 = 1ULL << 40, .bs_aextents = 2,
		.bs_ctime = 16299260424LL, .bs_ctime_nsec = 999999999,
		.bs_mtime = -2147483648LL, .bs_mtime_nsec = 0,
		.bs_atime = 0, .bs_atime_nsec = 1,
		.bs_btime = 16299260424LL, .bs_btime_nsec = 999999999,
	};
	struct xbulk_snap_link links[3] = {	/* in snap_link_cmp() order */
		{ 128, "a", 1 }, { 1ULL << 39, "x", 1 },
		{ (1ULL << 40) + 5, "name two", 8 },
	};
	struct xbulk_snap_rec rec = { .bs = &bs, .flags = XBULK_SNAP_CHANGING,
				      .nlinks = 3, .links = links };
	static uint8_t buf[SNAP_REC_MAX];
	struct xbulk_snap_link *got = NULL;
	const uint8_t *p = buf;
	struct xfs_bulkstat out;
	struct snap_raw raw;
	size_t len, cap = 0, cut;
	uint32_t flags, n, next = 0;

	(void)state;
	len = snap_encode_rec(buf, 0, &rec, &next);
	assert_int_equal(next, 3);
	assert_int_equal(snap_split(&p, buf + len, 0, &raw), 0);
	assert_ptr_equal(p, buf + len);
	assert_int_equal(snap_decode_rec(&raw, &out, &flags, &got, &cap, &n),
			 0);
	assert_memory_equal(&out, &bs, sizeof(bs));
	assert_int_equal(flags, XBULK_SNAP_CHANGING);
	assert_int_equal(n, 3);
	assert_int_equal(got[2].parent, links[2].parent);
	assert_memory_equal(got[2].name, "name two", 8);
	/* every shorter body is refused, never read past */
	for (cut = 0; cut < raw.len; cut++) {
		struct snap_raw r = raw;

		r.len = cut;
		assert_int_equal(snap_decode_rec(&r, &out, &flags, &got, &cap,
						 &n), -EBADMSG);
	}
	free(got);
}

/* An inode with @n names of @len bytes in directories @ino + 1 to
 * @ino + 7, then one of @last bytes in @ino + 8, in order: *@names holds
 * their bytes. */
static struct xbulk_snap_rec
many(uint32_t n, uint32_t len, uint32_t last, char **names)
{
	static struct xfs_bulkstat bs = { .bs_ino = 1000, .bs_mode = 0100644,
					  .bs_nlink = 1 };
	struct xbulk_snap_link *l = calloc(n, sizeof(*l));
	char *p = malloc((size_t)n * len + last + 1);
	uint32_t i;

	assert_non_null(l);
	assert_non_null(p);
	*names = p;
	for (i = 0; i < n; i++) {
		l[i].parent = bs.bs_ino + 1 + (i == n - 1 ? 7 :
						  (uint64_t)i * 7 / n);
		l[i].namelen = i == n - 1 ? last : len;
		/* the number, zero-padded to the name's length: in order */
		snprintf(p, l[i].namelen + 1, "%0*u", (int)l[i].namelen, i);
		l[i].name = p;
		p += l[i].namelen;
	}
	return (struct xbulk_snap_rec){ .bs = &bs, .nlinks = n, .links = l };
}

/*
 * Encode @rec as the writer does into @buf: its records one after
 * another, each continuation as the first of its block (@blockstart:
 * delta = the inode) or not (delta 0).  Return how many records; *@len
 * the bytes, *@first those of the first record.
 */
static uint32_t
encode_all(uint8_t *buf, const struct xbulk_snap_rec *rec, bool blockstart,
	   size_t *len, size_t *first)
{
	uint32_t next = 0, n = 0;
	size_t one;

	*len = 0;
	do {
		one = snap_encode_rec(buf + *len, n && !blockstart ?
				      rec->bs->bs_ino : 0, rec, &next);
		assert_true(one <= SNAP_REC_MAX);
		/* as full as it can be: the next name (its parent's delta
		 * a byte) did not fit */
		if (next < rec->nlinks)
			assert_true(one + 1 + (rec->links[next].namelen > 127) +
				    1 + rec->links[next].namelen >
				    SNAP_REC_MAX);
		if (!n)
			*first = one;
		*len += one;
		n++;
	} while (next < rec->nlinks);
	return n;
}

/* Split, join and decode the @len bytes at @buf: @rec whole. */
static void
decode_all(const uint8_t *buf, size_t len, const struct xbulk_snap_rec *rec,
	   bool blockstart)
{
	const uint8_t *p = buf, *end = buf + len;
	struct xbulk_snap_link *got = NULL;
	uint8_t *whole = NULL;
	size_t wcap = 0, lcap = 0;
	struct xfs_bulkstat out;
	struct snap_raw raw, c;
	uint32_t flags, n, i;
	bool more;

	assert_int_equal(snap_split(&p, end, 0, &raw), 0);
	more = raw.body[0] & SNAP_REC_MORE;
	if (more)
		assert_int_equal(snap_join_start(&raw, &whole, &wcap), 0);
	while (more) {
		assert_int_equal(snap_split(&p, end, blockstart ? 0 : raw.ino,
					    &c), 0);
		assert_int_equal(snap_join(&raw, &c, &whole, &wcap, &more), 0);
	}
	assert_ptr_equal(p, end);
	assert_int_equal(snap_decode_rec(&raw, &out, &flags, &got, &lcap, &n),
			 0);
	assert_int_equal(flags, 0);
	assert_int_equal(out.bs_ino, rec->bs->bs_ino);
	assert_int_equal(n, rec->nlinks);
	for (i = 0; i < n; i++) {
		assert_int_equal(got[i].parent, rec->links[i].parent);
		assert_int_equal(got[i].namelen, rec->links[i].namelen);
		assert_memory_equal(got[i].name, rec->links[i].name,
				    got[i].namelen);
	}
	free(whole);
	free(got);
}

/*
 * 536 names of 120 bytes and one of 1 to 127 (each costs its length + 2
 * bytes: the sizes are consecutive): one record while it fits, to
 * SNAP_REC_MAX bytes exactly, then two.
 */
static void
boundary(void **state)
{
	static uint8_t buf[2 * SNAP_REC_MAX];
	uint32_t last, nrec, prev = 1;
	size_t len, first, fullest = 0;
	bool split = false;
	char *names;

	(void)state;
	for (last = 1; last <= 127; last++) {
		struct xbulk_snap_rec rec = many(537, 120, last, &names);

		nrec = encode_all(buf, &rec, false, &len, &first);
		if (nrec == 1) {
			assert_int_equal(prev, 1);	/* never one again */
			assert_int_equal(len, first);
			if (first > fullest)
				fullest = first;
		} else {
			assert_int_equal(nrec, 2);
			split = true;
		}
		decode_all(buf, len, &rec, false);
		prev = nrec;
		free((void *)rec.links);
		free(names);
	}
	/* both sides of the limit were met, and the limit itself */
	assert_true(split);
	assert_int_equal(fullest, SNAP_REC_MAX);
}

/* 70,000 names of 200 bytes, names of 255 bytes, and a lone short name. */
static void
large(void **state)
{
	static const struct { uint32_t n, len; } c[] = {
		{ 70000, 200 }, { 3000, 255 }, { 1, 1 },
	};
	size_t i, len, first;
	uint8_t *buf;
	char *names;
	int b;

	(void)state;
	buf = malloc((size_t)70000 * 210 + SNAP_REC_MAX);
	assert_non_null(buf);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct xbulk_snap_rec rec = many(c[i].n, c[i].len, c[i].len,
						 &names);

		for (b = 0; b < 2; b++) {
			encode_all(buf, &rec, b, &len, &first);
			decode_all(buf, len, &rec, b);
		}
		free((void *)rec.links);
		free(names);
	}
	free(buf);
}

/* Damage around continuations: each refused. */
static void
refused(void **state)
{
	static uint8_t buf[4 * SNAP_REC_MAX];
	struct xbulk_snap_link *got = NULL, tmp;
	struct xfs_bulkstat out;
	size_t len, first, wcap = 0, lcap = 0;
	uint32_t flags, n;
	const uint8_t *p = buf;
	struct snap_raw raw, c;
	uint8_t *whole = NULL, cb[8];
	bool more;
	char *names;
	struct xbulk_snap_rec rec = many(600, 200, 200, &names);

	(void)state;
	assert_int_equal(encode_all(buf, &rec, false, &len, &first), 2);
	assert_int_equal(snap_split(&p, buf + len, 0, &raw), 0);
	assert_true(raw.body[0] & SNAP_REC_MORE);
	/* the first record alone: names missing */
	assert_int_equal(snap_decode_rec(&raw, &out, &flags, &got, &lcap, &n),
			 -EBADMSG);
	assert_int_equal(snap_join_start(&raw, &whole, &wcap), 0);
	assert_int_equal(snap_split(&p, buf + len, raw.ino, &c), 0);
	assert_false(c.body[0] & SNAP_REC_MORE);
	/* another inode's, another flag, no name */
	c.ino++;
	assert_int_equal(snap_join(&raw, &c, &whole, &wcap, &more), -EBADMSG);
	c.ino--;
	memcpy(cb, c.body, sizeof(cb));
	cb[0] = XBULK_SNAP_CHANGING;
	c.body = cb;
	assert_int_equal(snap_join(&raw, &c, &whole, &wcap, &more), -EBADMSG);
	cb[0] = 0;
	c.len = 1;
	assert_int_equal(snap_join(&raw, &c, &whole, &wcap, &more), -EBADMSG);
	free(whole);

	/* names out of order */
	tmp = ((struct xbulk_snap_link *)rec.links)[3];
	((struct xbulk_snap_link *)rec.links)[3] =
		((struct xbulk_snap_link *)rec.links)[4];
	((struct xbulk_snap_link *)rec.links)[4] = tmp;
	rec.nlinks = 10;
	assert_int_equal(encode_all(buf, &rec, false, &len, &first), 1);
	p = buf;
	assert_int_equal(snap_split(&p, buf + len, 0, &raw), 0);
	assert_int_equal(snap_decode_rec(&raw, &out, &flags, &got, &lcap, &n),
			 -EBADMSG);
	free(got);
	free((void *)rec.links);
	free(names);
}

/* A directory table with the top (128) and 1001 to 1007 below it. */
static void
top_dirs(struct snap_dirtab *t)
{
	char name[2] = "a";
	uint64_t i;

	*t = (struct snap_dirtab){ .top = 128 };
	assert_int_equal(snap_dirtab_add(t, 128, 0, 0, "", 0), 0);
	for (i = 1001; i <= 1007; i++, name[0]++)
		assert_int_equal(snap_dirtab_add(t, i, 1, 128, name, 1), 0);
	assert_int_equal(snap_dirtab_seal(t), 0);
}

/* Write a snapshot of @src's directories and its @n records @recs, in
 * a new directory: its path into @path (of @size bytes). */
static void
write_snap(char *path, size_t size, const struct xbulk_snap *src,
	   const struct xbulk_snap_rec *recs, size_t n)
{
	struct xbulk_snap_write_opts o = { .size = sizeof(o), .level = 1 };
	char dir[] = "/tmp/test_snap_codec.XXXXXX";
	struct xbulk_snap_writer *w;
	size_t i;

	assert_non_null(mkdtemp(dir));
	snprintf(path, size, "%s/S", dir);
	assert_int_equal(xbulk_snap_writer_new(path, &o, &w), 0);
	for (i = 0; i < n; i++)
		assert_int_equal(xbulk_snap_writer_add(w, src, &recs[i]), 0);
	assert_int_equal(xbulk_snap_writer_commit(w), 0);
}

/* Remove write_snap()'s file and its directory. */
static void
remove_snap(char *path)
{
	assert_int_equal(unlink(path), 0);
	*strrchr(path, '/') = '\0';
	assert_int_equal(rmdir(path), 0);
}

/* The writer and the reader: 70,000 names of 200 bytes (14 MB, records
 * across many blocks) and an inode after them, all back. */
static void
file(void **state)
{
	static struct xfs_bulkstat after = { .bs_ino = 5000,
					     .bs_mode = 0100600 };
	struct xbulk_snap src = { 0 };
	const struct xbulk_snap_rec *got;
	struct xbulk_snap *s;
	char path[64], why[128];
	char *names;
	struct xbulk_snap_rec recs[2] = {
		many(70000, 200, 200, &names), { .bs = &after },
	};
	const struct xbulk_snap_rec rec = recs[0];
	uint32_t i;

	(void)state;
	src.info.top = 128;
	top_dirs(&src.dirs);
	write_snap(path, sizeof(path), &src, recs, 2);
	snap_dirtab_free(&src.dirs);

	assert_int_equal(xbulk_snap_open(path, &s, why, sizeof(why)), 0);
	assert_int_equal(xbulk_snap_info(s)->links, 70000);
	assert_int_equal(xbulk_snap_next(s, &got), 1);
	assert_int_equal(got->bs->bs_ino, 1000);
	assert_int_equal(got->nlinks, 70000);
	for (i = 0; i < got->nlinks; i++) {
		assert_int_equal(got->links[i].parent, rec.links[i].parent);
		assert_int_equal(got->links[i].namelen, 200);
		assert_memory_equal(got->links[i].name, rec.links[i].name, 200);
	}
	assert_int_equal(xbulk_snap_next(s, &got), 1);
	assert_int_equal(got->bs->bs_ino, 5000);
	assert_int_equal(xbulk_snap_next(s, &got), 0);
	xbulk_snap_close(s);
	remove_snap(path);
	free((void *)rec.links);
	free(names);
}

/* Encode an inode whose one name is @name, then decode it: its result. */
static int
decode_named(const char *name)
{
	static struct xfs_bulkstat bs = { .bs_ino = 1000, .bs_mode = 0100644,
					  .bs_nlink = 1 };
	struct xbulk_snap_link l = { 128, name, (uint32_t)strlen(name) };
	struct xbulk_snap_rec rec = { .bs = &bs, .nlinks = 1, .links = &l };
	static uint8_t buf[SNAP_REC_MAX];
	struct xbulk_snap_link *got = NULL;
	const uint8_t *p = buf;
	struct xfs_bulkstat out;
	struct snap_raw raw;
	size_t len, cap = 0;
	uint32_t flags, n, next = 0;
	int ret;

	len = snap_encode_rec(buf, 0, &rec, &next);
	assert_int_equal(snap_split(&p, buf + len, 0, &raw), 0);
	ret = snap_decode_rec(&raw, &out, &flags, &got, &cap, &n);
	free(got);
	return ret;
}

/*
 * A snapshot file of directory 1001 named @dir in the top and inode 5000
 * named @name in it: open it and read the record.  0, or the first
 * error (*@why: the reader's reason if opening failed).
 */
static int
read_named(const char *dir, const char *name, char *why, size_t whysize)
{
	static struct xfs_bulkstat bs = { .bs_ino = 5000, .bs_mode = 0100644,
					  .bs_nlink = 1 };
	struct xbulk_snap_link l = { 1001, name, (uint32_t)strlen(name) };
	struct xbulk_snap_rec rec = { .bs = &bs, .nlinks = 1, .links = &l };
	const struct xbulk_snap_rec *got;
	struct xbulk_snap src = { .info.top = 128 }, *s;
	char path[64];
	int ret;

	src.dirs = (struct snap_dirtab){ .top = 128 };
	assert_int_equal(snap_dirtab_add(&src.dirs, 128, 0, 0, "", 0), 0);
	assert_int_equal(snap_dirtab_add(&src.dirs, 1001, 1, 128, dir,
					 (uint32_t)strlen(dir)), 0);
	assert_int_equal(snap_dirtab_seal(&src.dirs), 0);
	write_snap(path, sizeof(path), &src, &rec, 1);
	snap_dirtab_free(&src.dirs);
	*why = '\0';
	ret = xbulk_snap_open(path, &s, why, whysize);
	if (!ret) {
		ret = xbulk_snap_next(s, &got);
		assert_int_not_equal(ret, 0);	/* the record is there */
		xbulk_snap_close(s);
	}
	remove_snap(path);
	return ret == 1 ? 0 : ret;
}

/* xbulk_snap_writer_add() of a record named @name: its return. */
static int
add_named(const char *name)
{
	static struct xfs_bulkstat bs = { .bs_ino = 5000, .bs_mode = 0100644,
					  .bs_nlink = 1 };
	struct xbulk_snap_write_opts o = { .size = sizeof(o), .level = 1 };
	struct xbulk_snap_link l = { 128, name, (uint32_t)strlen(name) };
	struct xbulk_snap_rec rec = { .bs = &bs, .nlinks = 1, .links = &l };
	struct xbulk_snap src = { .info.top = 128 };
	char dir[] = "/tmp/test_snap_codec.XXXXXX", path[64];
	struct xbulk_snap_writer *w;
	int ret;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/S", dir);
	assert_int_equal(xbulk_snap_writer_new(path, &o, &w), 0);
	ret = xbulk_snap_writer_add(w, &src, &rec);
	xbulk_snap_writer_abort(w);
	assert_int_equal(rmdir(dir), 0);
	return ret;
}

/* "." and ".." as names are refused in a record and in the directory
 * table (a path through them would leave the snapshot's top, and diff
 * --deleted0's list goes to rm), and so is a directory below the top
 * without a name (a path through it would begin with '/'); names that
 * only begin with dots are kept. */
static void
bad_names(void **state)
{
	static const char *const bad[] = { ".", "..", "a/b" };
	static const char *const good[] = { "a", "...", ".a", "a.", "..a",
					     ".\xff" };
	char why[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(decode_named(bad[i]), -EBADMSG);
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_int_equal(decode_named(good[i]), 0);

	assert_int_equal(read_named("d", "...", why, sizeof(why)), 0);
	/* the record's name: the writer never writes one (a crafted file
	 * is decode_named()'s case) */
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(add_named(bad[i]), -EINVAL);
	assert_int_equal(add_named("..a"), 0);
	/* a directory's name: the file does not open */
	assert_int_equal(read_named("..", "f", why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "damaged directory table"));
	assert_int_equal(read_named(".", "f", why, sizeof(why)), -EBADMSG);
	assert_int_equal(read_named("a/b", "f", why, sizeof(why)), -EBADMSG);
	assert_int_equal(read_named("", "f", why, sizeof(why)), -EBADMSG);
}

static void
dirtab(void **state)
{
	struct snap_dirtab t = { .top = 128 };
	struct xbulk_snap_link l = { 200, "f", 1 };
	char *buf = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(snap_dirtab_add(&t, 128, 0, 0, "", 0), 0);
	assert_int_equal(snap_dirtab_add(&t, 200, 1, 300, "b", 1), 0);
	assert_int_equal(snap_dirtab_add(&t, 300, 1, 128, "a", 1), 0);
	assert_int_equal(snap_dirtab_add(&t, 400, 1, 0, "lost", 4), 0);
	assert_int_equal(snap_dirtab_add(&t, 350, 1, 0, "x", 1), -EBADMSG);
	assert_int_equal(snap_dirtab_seal(&t), 0);
	assert_int_equal(snap_dirtab_path(&t, &l, &buf, &cap), 5);
	assert_string_equal(buf, "a/b/f");
	assert_int_equal(snap_dirtab_path(&t, NULL, &buf, &cap), 1);
	assert_string_equal(buf, ".");
	l.parent = 400;			/* a directory no path reaches */
	assert_int_equal(snap_dirtab_path(&t, &l, &buf, &cap), -ENOENT);
	l.parent = 999;			/* none at all */
	assert_int_equal(snap_dirtab_path(&t, &l, &buf, &cap), -ENOENT);
	snap_dirtab_free(&t);

	/* 500 -> 600 -> 500: a cycle */
	t = (struct snap_dirtab){ .top = 128 };
	assert_int_equal(snap_dirtab_add(&t, 128, 0, 0, "", 0), 0);
	assert_int_equal(snap_dirtab_add(&t, 500, 1, 600, "p", 1), 0);
	assert_int_equal(snap_dirtab_add(&t, 600, 1, 500, "q", 1), 0);
	assert_int_equal(snap_dirtab_seal(&t), -EBADMSG);
	snap_dirtab_free(&t);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(roundtrip),
		cmocka_unit_test(boundary),
		cmocka_unit_test(large),
		cmocka_unit_test(refused),
		cmocka_unit_test(file),
		cmocka_unit_test(bad_names),
		cmocka_unit_test(dirtab),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
