/* SPDX-License-Identifier: GPL-2.0 */
/* A tiny assertion helper for the unit tests: count, report, keep going. */
#ifndef MBD_TEST_H
#define MBD_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/*
 * The counts. A test built from several files (PARTS in mbd_unit_tests,
 * tests/CMakeLists.txt: MBD_TEST_PARTS) has one pair for all of them,
 * defined in its test_NAME.c: int mbd_test_passed, mbd_test_failed;
 */
#ifdef MBD_TEST_PARTS
extern int mbd_test_passed, mbd_test_failed;
#else
static int mbd_test_passed, mbd_test_failed;
#endif

#define MBD_CHECK(cond) do {						\
	if (cond) {							\
		mbd_test_passed++;					\
	} else {							\
		mbd_test_failed++;					\
		fprintf(stderr, "%s:%d: check failed: %s\n",		\
			__FILE__, __LINE__, #cond);			\
	}								\
} while (0)

#define MBD_CHECK_EQ_U64(a, b) do {					\
	uint64_t mbd_a_ = (uint64_t)(a), mbd_b_ = (uint64_t)(b);	\
	if (mbd_a_ == mbd_b_) {						\
		mbd_test_passed++;					\
	} else {							\
		mbd_test_failed++;					\
		fprintf(stderr, "%s:%d: %s == %s failed: 0x%" PRIx64	\
			" != 0x%" PRIx64 "\n", __FILE__, __LINE__,	\
			#a, #b, mbd_a_, mbd_b_);			\
	}								\
} while (0)

#define MBD_CHECK_STR(a, b) do {					\
	const char *mbd_a_ = (a), *mbd_b_ = (b);			\
	if (mbd_a_ && mbd_b_ && strcmp(mbd_a_, mbd_b_) == 0) {		\
		mbd_test_passed++;					\
	} else {							\
		mbd_test_failed++;					\
		fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n", \
			__FILE__, __LINE__, #a, #b,			\
			mbd_a_ ? mbd_a_ : "(null)", mbd_b_ ? mbd_b_ : "(null)"); \
	}								\
} while (0)

/* xorshift64: the same pseudo-random sequence on every machine. */
static inline uint64_t mbd_test_rnd(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* Print the closing line ctest and CI read, and return the exit status. */
static inline int mbd_test_done(void)
{
	printf("%d passed, %d failed\n", mbd_test_passed, mbd_test_failed);
	return mbd_test_failed ? 1 : 0;
}

#endif
