/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the formatter tests: run a formatter into a buffer of exactly
 * the room it is promised plus guard bytes, check that it wrote nothing
 * past the length it returned, and a fixed pseudo-random sequence.
 * Include after <cmocka.h>.
 */
#ifndef XBULK_TEST_FORMAT_CHECK_H
#define XBULK_TEST_FORMAT_CHECK_H

#include <stdint.h>
#include <string.h>

#define FORMAT_CANARY	0xa5
#define FORMAT_GUARD	64

/* Check the guard bytes after @len, copy @len bytes out, NUL-terminate. */
static inline size_t
format_check_done(char *out, const unsigned char *buf, size_t size,
		  size_t max, size_t len)
{
	size_t i;

	assert_true(len > 0);
	assert_true(len <= max);
	for (i = len; i < size; i++)
		assert_int_equal(buf[i], FORMAT_CANARY);
	memcpy(out, buf, len);
	out[len] = '\0';
	return len;
}

/*
 * FORMAT_CHECKED(out, MAX, fn, rec): fn(buf, rec) with buf holding MAX
 * bytes and guard bytes; the text lands NUL-terminated in @out (MAX + 1
 * bytes).  Evaluates to the length.
 */
#define FORMAT_CHECKED(out, max, fn, rec) ({				\
	unsigned char buf_[(max) + FORMAT_GUARD];			\
									\
	memset(buf_, FORMAT_CANARY, sizeof(buf_));			\
	format_check_done((out), buf_, sizeof(buf_), (max),		\
			  fn((char *)buf_, (rec)));			\
})

/* Check that fn(rec) is exactly @expected, within @max bytes. */
#define EXPECT_FORMAT(max, fn, rec, expected) do {			\
	char got_[(max) + 1];						\
	size_t len_ = FORMAT_CHECKED(got_, (max), fn, (rec));		\
									\
	assert_string_equal(got_, (expected));				\
	assert_int_equal(len_, strlen(expected));			\
} while (0)

/* xorshift64*: a fixed sequence, the same on every run. */
static inline uint64_t
test_rng(void)
{
	static uint64_t state = 0x9e3779b97f4a7c15ULL;

	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return state * 0x2545f4914f6cdd1dULL;
}

/* A number of random width (0 to 64 bits), so all lengths show up. */
static inline uint64_t
test_rng_wide(void)
{
	uint64_t v = test_rng();
	unsigned int shift = (unsigned int)(test_rng() % 65);

	return shift == 64 ? 0 : v >> shift;
}

/* A record with every field random (pads zero, as the kernel leaves them). */
static inline void
test_random_bulkstat(struct xfs_bulkstat *bs)
{
	memset(bs, 0, sizeof(*bs));
	bs->bs_ino = test_rng_wide();
	bs->bs_size = test_rng_wide();
	bs->bs_blocks = test_rng_wide();
	bs->bs_xflags = test_rng_wide();
	bs->bs_atime = (int64_t)test_rng_wide();
	bs->bs_mtime = (int64_t)test_rng_wide();
	bs->bs_ctime = -(int64_t)(test_rng_wide() >> 1);
	bs->bs_btime = (int64_t)(test_rng() % 20000000000ULL) - 3000000000LL;
	bs->bs_gen = (uint32_t)test_rng_wide();
	bs->bs_uid = (uint32_t)test_rng_wide();
	bs->bs_gid = (uint32_t)test_rng_wide();
	bs->bs_projectid = (uint32_t)test_rng_wide();
	bs->bs_atime_nsec = (uint32_t)(test_rng() % 1000000000);
	bs->bs_mtime_nsec = (uint32_t)(test_rng() % 1000000000);
	bs->bs_ctime_nsec = (uint32_t)(test_rng() % 1000000000);
	/* now and then an out-of-range nanosecond count */
	bs->bs_btime_nsec = (uint32_t)test_rng_wide();
	bs->bs_blksize = (uint32_t)test_rng_wide();
	bs->bs_rdev = (uint32_t)test_rng_wide();
	bs->bs_cowextsize_blks = (uint32_t)test_rng_wide();
	bs->bs_extsize_blks = (uint32_t)test_rng_wide();
	bs->bs_nlink = (uint32_t)test_rng_wide();
	bs->bs_extents = (uint32_t)test_rng_wide();
	bs->bs_aextents = (uint32_t)test_rng_wide();
	bs->bs_version = (uint16_t)test_rng_wide();
	bs->bs_forkoff = (uint16_t)test_rng_wide();
	bs->bs_sick = (uint16_t)test_rng_wide();
	bs->bs_checked = (uint16_t)test_rng_wide();
	bs->bs_mode = (uint16_t)test_rng();
	bs->bs_extents64 = test_rng_wide();
}

/*
 * The record with the longest JSON and CSV: every field at its widest
 * and every time with the longest ISO string (INT64_MIN seconds: year
 * -292277022657) and nine nanosecond digits.
 */
static inline void
test_longest_bulkstat(struct xfs_bulkstat *bs)
{
	memset(bs, 0xff, sizeof(*bs));
	bs->bs_atime = bs->bs_mtime = bs->bs_ctime = bs->bs_btime = INT64_MIN;
	bs->bs_atime_nsec = bs->bs_mtime_nsec = 999999999;
	bs->bs_ctime_nsec = bs->bs_btime_nsec = 999999999;
}

#endif /* XBULK_TEST_FORMAT_CHECK_H */
