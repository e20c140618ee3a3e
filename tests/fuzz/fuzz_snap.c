// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the snapshot reader (lib/snap/reader.c, codec.c,
 * dirtab.c) and the diff over what it reads.  The input is either a
 * whole snapshot file (first byte not 0xfe or 0xfd: checksums and all,
 * so that the checks before the records are fuzzed) or, after a 0xfe
 * byte, the raw contents of one directory block and one inode block (a
 * u16 length of the first and a u16 record count of each, then the
 * bytes), which the harness wraps into a file with right checksums
 * (docs/formats.md, "Snapshot files"), so that the record decoders are
 * reached.  After a 0xfd byte the same with a u16 count of inodes for
 * the trailer after the counts (continuation records make it fewer
 * than the inode block's records).  Every
 * record is read, every name's path made, and the snapshot diffed with
 * with a second reading of itself, which must find no change, and
 * walked from its top (xbulk_snap_tree_open(), xbulk_snap_walk()).  Nothing
 * may crash, leak, read out of bounds or loop, every refusal and every
 * record that cannot be read must say why (xbulk_snap_error()), and
 * every path made must stay below the snapshot's top: names joined by
 * '/', none empty, "." or ".." (diff --deleted0's list goes to rm).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xxhash.h>

#include "xbulk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void
le64(uint8_t *p, uint64_t v)
{
	le32(p, (uint32_t)v);
	le32(p + 4, (uint32_t)(v >> 32));
}

/* Append a block of @kind holding @n records of @len bytes to @f. */
static void
put_block(FILE *f, uint8_t kind, const uint8_t *raw, size_t len, uint32_t n,
	  uint64_t *chain)
{
	uint8_t h[32] = { 0 };
	uint64_t sum;

	le32(h, 0x4b4c4258u);
	h[4] = kind;
	le32(h + 8, (uint32_t)len);
	le32(h + 12, (uint32_t)len);
	le32(h + 16, n);
	sum = XXH3_64bits_withSeed(raw, len, XXH3_64bits(h, 24));
	le64(h + 24, sum);
	*chain = XXH3_64bits_withSeed(&sum, 8, *chain);
	fwrite(h, 1, sizeof(h), f);
	fwrite(raw, 1, len, f);
}

/* A file around a directory block and an inode block; @counted: the
 * trailer's count of inodes is given, not the block's records. */
static void
wrap(int fd, const uint8_t *data, size_t size, bool counted)
{
	uint8_t hdr[1024] = { 0 }, t[128] = { 0 };
	size_t dlen, ilen, head = counted ? 8 : 6;
	uint32_t dn, in, inodes;
	uint64_t chain, diroff;
	FILE *f;

	if (size < head)
		return;
	dlen = (size_t)data[0] | (size_t)data[1] << 8;
	dn = (uint32_t)data[2] | (uint32_t)data[3] << 8;
	in = (uint32_t)data[4] | (uint32_t)data[5] << 8;
	inodes = counted ? (uint32_t)data[6] | (uint32_t)data[7] << 8 : in;
	data += head;
	size -= head;
	if (dlen > size)
		dlen = size;
	ilen = size - dlen;
	memcpy(hdr, "XBLKSNAP", 8);
	le32(hdr + 8, XBULK_SNAP_VERSION);
	le32(hdr + 12, 1024);
	le64(hdr + 64, 128);		/* the top */
	le64(hdr + 1016, XXH3_64bits(hdr, 1016));
	chain = XXH3_64bits(hdr, 1016);
	f = fdopen(dup(fd), "w");
	if (!f)
		return;
	fwrite(hdr, 1, sizeof(hdr), f);
	diroff = 1024;
	if (ilen && in) {
		put_block(f, 1, data + dlen, ilen, in, &chain);
		diroff += 32 + ilen;
	}
	if (dlen && dn)
		put_block(f, 2, data, dlen, dn, &chain);
	memcpy(t, "XBLKEND", 8);
	le64(t + 8, inodes);
	le64(t + 24, dn);
	le64(t + 32, ilen && in);
	le64(t + 40, dlen && dn);
	le64(t + 48, diroff);
	le64(t + 56, chain);
	le64(t + 120, XXH3_64bits(t, 120));
	fwrite(t, 1, sizeof(t), f);
	fclose(f);
}

/* A path from the top (@len bytes at @p) has no name empty, "." or "..":
 * abort otherwise. */
static void
check_path(const char *p, long len)
{
	long i, start = 0, n;

	for (i = 0; i <= len; i++) {
		if (i < len && p[i] != '/')
			continue;
		n = i - start;
		if (!n || (p[start] == '.' &&
			   (n == 1 || (n == 2 && p[start + 1] == '.'))))
			abort();
		start = i + 1;
	}
}

/* Read @s whole, making every path; 0 or the reader's error. */
static int
read_all(struct xbulk_snap *s)
{
	const struct xbulk_snap_rec *rec;
	char *buf = NULL;
	size_t cap = 0;
	uint32_t i;
	int ret;

	while ((ret = xbulk_snap_next(s, &rec)) == 1)
		for (i = 0; i < rec->nlinks; i++) {
			long len = xbulk_snap_path(s, &rec->links[i], &buf,
						   &cap);

			if (len >= 0)
				check_path(buf, len);
		}
	free(buf);
	return ret;
}

/* A walk's entry: "." then "/name"s below the top. */
static int
walk_visit(void *arg, const struct xbulk_entry *e, enum xbulk_visit v)
{
	(void)arg, (void)v;
	if (e->path[0] != '.' || (e->pathlen > 1 && e->path[1] != '/') ||
	    (!e->depth) != (e->pathlen == 1))
		abort();
	if (e->pathlen > 1)
		check_path(e->path + 2, (long)e->pathlen - 2);
	return 0;
}

/* Walk @s from its top: a failure says why (but for memory, or a file
 * without its top). */
static void
walk_all(struct xbulk_snap *s)
{
	struct xbulk_snap_tree_opts o = { .size = sizeof(o) };
	struct xbulk_snap_tree *t = NULL;
	int ret = xbulk_snap_tree_open(s, &o, &t);

	if (!ret)
		ret = xbulk_snap_walk(t, ".", XBULK_WALK_POST, walk_visit,
				      NULL);
	if (ret < 0 && ret != -ENOMEM && ret != -ENOENT &&
	    !xbulk_snap_error(s))
		abort();
	xbulk_snap_tree_free(t);
}

/* @a and @b read the same bytes: any change is a bug. */
static void
diff_self(struct xbulk_snap *a, struct xbulk_snap *b)
{
	struct xbulk_snap_diff_opts o = { .size = sizeof(o),
					  .flags = XBULK_DIFF_EXPAND |
						   XBULK_DIFF_EVERY_NAME };
	const struct xbulk_snap_change *c;
	struct xbulk_snap_diff *d;
	int ret;

	if (xbulk_snap_diff_new(a, b, &o, &d))
		return;
	ret = xbulk_snap_diff_next(d, &c);
	if (ret == 1)
		abort();
	xbulk_snap_diff_free(d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xbulk_snap *s = NULL, *t = NULL;
	char why[256];
	int fd;

	fd = memfd_create("snap", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (size && (data[0] == 0xfe || data[0] == 0xfd))
		wrap(fd, data + 1, size - 1, data[0] == 0xfd);
	else if (size && write(fd, data, size) != (ssize_t)size)
		size = 0;
	if (xbulk_snap_open_fd(dup(fd), &s, why, sizeof(why))) {
		if (!*why)
			abort();	/* every refusal says why */
		close(fd);
		return 0;
	}
	if (read_all(s)) {
		if (!xbulk_snap_error(s))
			abort();	/* and every failure to read */
	} else if (!xbulk_snap_open_fd(dup(fd), &t, why, sizeof(why))) {
		diff_self(s, t);
		xbulk_snap_close(t);
		walk_all(s);
	}
	xbulk_snap_close(s);
	close(fd);
	return 0;
}
