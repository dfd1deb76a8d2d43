// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer's custom mutator and cross-over for fuzz_diff: with
 * --mutator=ops (the default) inputs are mutated and spliced as calls
 * (mbd_mutate.h); with --mutator=bytes libFuzzer's own byte mutations run,
 * as before this file existed. Linked into the libFuzzer targets only.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_options.h"
#include "mbd_mutate.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,
				 const uint8_t *data2, size_t size2, uint8_t *out,
				 size_t max_out_size, unsigned int seed);

/* Engines that drive LLVMFuzzerTestOneInput without libFuzzer's mutation
 * API (AFL++'s driver) link this file too: then there is no byte mutator. */
#pragma weak LLVMFuzzerMutate

static struct mbd_mutator *m;

/* The trace of our last output, for the target (mbd_fuzz_target_kept()). */
static const struct mbd_trace *kept_trace(const uint8_t *data, size_t size)
{
	return mbd_mutator_last(m, data, size);
}

static struct mbd_mutator *ops_mutator(void)
{
	const struct mbd_fuzz_opts *o = mbd_fuzz_target_opts();

	if (o->mutator != MBD_MUTATOR_OPS)
		return NULL;
	if (!m) {
		m = mbd_mutator_new(o->decoder);
		if (!m) {
			fputs("mbdiff: out of memory (mutator)\n", stderr);
			abort();
		}
		mbd_fuzz_target_kept(kept_trace);
	}
	return m;
}

static size_t bytes_mutate(uint8_t *data, size_t size, size_t max_size)
{
	return LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, max_size) : 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
{
	struct mbd_mutator *m = ops_mutator();
	size_t n;

	if (!m)
		return bytes_mutate(data, size, max_size);
	n = mbd_mutate(m, data, size, max_size, seed);
	/* nothing fitted max_size (libFuzzer's -max_len or len_control) */
	return n ? n : bytes_mutate(data, size, max_size);
}

/*
 * With --mutator=bytes, 0 ("no cross-over") makes libFuzzer pick another
 * mutation, which is the custom mutator above and so its own byte
 * mutations, cross-over included.
 */
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,
				 const uint8_t *data2, size_t size2, uint8_t *out,
				 size_t max_out_size, unsigned int seed)
{
	struct mbd_mutator *m = ops_mutator();

	if (!m)
		return 0;
	return mbd_crossover(m, data1, size1, data2, size2, out, max_out_size, seed);
}
