// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * snap_reseal FILE: make the checksums of the snapshot FILE right again
 * after a test changed its bytes (the header's, every block's, their
 * chain and the trailer's, lib/snap/snap.h's layout), so that the
 * reader's checks at open pass and what the test changed inside a
 * record is met by the record decoders: a damaged record, not a
 * checksum mismatch.  Blocks are walked by their stored lengths, which
 * the test must leave alone.  Exit status 0, or 1 with a message.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "snap/snap.h"

static int
fail(const char *path, const char *what)
{
	fprintf(stderr, "snap_reseal: %s: %s\n", path, what);
	return 1;
}

int
main(int argc, char **argv)
{
	uint64_t off = SNAP_HDR_SIZE, chain, sum, size;
	uint8_t *f, *t;
	struct stat st;
	FILE *fp;

	if (argc != 2) {
		fprintf(stderr, "usage: snap_reseal FILE\n");
		return 2;
	}
	fp = fopen(argv[1], "r+b");
	if (!fp || fstat(fileno(fp), &st))
		return fail(argv[1], strerror(errno));
	size = (uint64_t)st.st_size;
	if (size < SNAP_HDR_SIZE + SNAP_TRAILER)
		return fail(argv[1], "too short for a snapshot");
	f = malloc(size);
	if (!f || fread(f, 1, size, fp) != size)
		return fail(argv[1], "cannot read it");
	t = f + size - SNAP_TRAILER;
	put_le64(f + H_CHECKSUM, snap_hash(f, H_CHECKSUM, 0));
	chain = get_le64(f + H_CHECKSUM);
	while (off < size - SNAP_TRAILER) {
		uint8_t *h = f + off;
		uint32_t stored;

		if (off + SNAP_BLK_HDR > size - SNAP_TRAILER)
			return fail(argv[1], "a block runs past the end");
		stored = get_le32(h + B_STORED);
		if (off + SNAP_BLK_HDR + stored > size - SNAP_TRAILER)
			return fail(argv[1], "a block runs past the end");
		sum = snap_hash(h + SNAP_BLK_HDR, stored,
				snap_hash(h, B_CHECKSUM, 0));
		put_le64(h + B_CHECKSUM, sum);
		chain = snap_hash(&sum, sizeof(sum), chain);
		off += SNAP_BLK_HDR + stored;
	}
	put_le64(t + T_CHAIN, chain);
	put_le64(t + T_CHECKSUM, snap_hash(t, T_CHECKSUM, 0));
	rewind(fp);
	if (fwrite(f, 1, size, fp) != size || fclose(fp))
		return fail(argv[1], strerror(errno));
	free(f);
	return 0;
}
