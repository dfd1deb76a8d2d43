// SPDX-License-Identifier: GPL-2.0
/*
 * The op mutator (mbd_mutate.h) as an AFL++ custom mutator library
 * (afl++ 4.04c API: afl_custom_init/fuzz/describe/deinit), built as
 * build/default/libmbdiff-afl-mutator.so:
 *
 *   AFL_CUSTOM_MUTATOR_LIBRARY=$PWD/build/default/libmbdiff-afl-mutator.so \
 *       afl-fuzz -i seeds -o out -- build/afl/afl_diff --variants=...
 *
 * AFL++ runs it right before its havoc stage (AFL_CUSTOM_MUTATOR_ONLY=1:
 * instead of all its own stages). The decoder is the fuzz target's:
 * --decoder=naive in $MBDIFF_ARGS selects the naive form, as it does for
 * afl_diff itself.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_mutate.h"

struct mbd_afl_mutator {
	struct mbd_mutator *m;
	uint64_t seed;
	uint8_t *buf;
	size_t cap;
	const char *last; /* what the last call did, for afl_custom_describe */
};

/* The library is built with hidden symbols: these four are its API. */
#define MBD_EXPORT __attribute__((visibility("default")))

MBD_EXPORT void *afl_custom_init(void *afl, unsigned int seed);
MBD_EXPORT size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size,
				  uint8_t **out_buf, uint8_t *add_buf,
				  size_t add_buf_size, size_t max_size);
MBD_EXPORT const char *afl_custom_describe(void *data, size_t max_description_len);
MBD_EXPORT void afl_custom_deinit(void *data);

/* --decoder=naive among the words of $MBDIFF_ARGS (afl_diff reads the
 * same variable); anything else is the target's business. */
static enum mbd_decoder env_decoder(void)
{
	const char *s = getenv("MBDIFF_ARGS");
	const char *opt = "--decoder=naive";
	size_t n = strlen(opt);

	for (; s && (s = strstr(s, opt)) != NULL; s += n)
		if ((s[n] == '\0' || s[n] == ' ' || s[n] == '\t') &&
		    (s == getenv("MBDIFF_ARGS") || s[-1] == ' ' || s[-1] == '\t'))
			return MBD_DECODER_NAIVE;
	return MBD_DECODER_STRUCTURED;
}

void *afl_custom_init(void *afl, unsigned int seed)
{
	struct mbd_afl_mutator *a = calloc(1, sizeof(*a));

	(void)afl;
	if (!a)
		return NULL;
	a->m = mbd_mutator_new(env_decoder());
	a->seed = seed;
	if (!a->m) {
		free(a);
		return NULL;
	}
	return a;
}

/* Room for the input (mbd_mutate works in place) and any output. */
static int reserve(struct mbd_afl_mutator *a, size_t n)
{
	uint8_t *p;

	if (n < MBD_BIN_MAX_LEN)
		n = MBD_BIN_MAX_LEN;
	if (n <= a->cap)
		return 0;
	p = realloc(a->buf, n);
	if (!p)
		return -1;
	a->buf = p;
	a->cap = n;
	return 0;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
		       uint8_t *add_buf, size_t add_buf_size, size_t max_size)
{
	struct mbd_afl_mutator *a = data;
	uint64_t seed = a->seed++;
	size_t n;

	*out_buf = buf;
	if (reserve(a, buf_size))
		return 0;
	/* a splice now and then, as libFuzzer's cross-over */
	if (add_buf && add_buf_size && seed % 4 == 0) {
		a->last = "ops-splice";
		n = mbd_crossover(a->m, buf, buf_size, add_buf, add_buf_size, a->buf,
				  max_size < a->cap ? max_size : a->cap, seed);
	} else {
		a->last = "ops";
		memcpy(a->buf, buf, buf_size);
		n = mbd_mutate(a->m, a->buf, buf_size,
			       max_size < a->cap ? max_size : a->cap, seed);
	}
	if (n)
		*out_buf = a->buf;
	return n;
}

const char *afl_custom_describe(void *data, size_t max_description_len)
{
	struct mbd_afl_mutator *a = data;

	(void)max_description_len;
	return a->last ? a->last : "ops";
}

void afl_custom_deinit(void *data)
{
	struct mbd_afl_mutator *a = data;

	if (!a)
		return;
	mbd_mutator_free(a->m);
	free(a->buf);
	free(a);
}
