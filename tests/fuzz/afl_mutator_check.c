// SPDX-License-Identifier: GPL-2.0
/*
 * The AFL++ custom mutator library as afl-fuzz uses it: dlopen() it,
 * resolve the four afl_custom_* functions, and check that what it makes
 * always decodes to the trace it encodes, within max_size, splices
 * included (usage: afl_mutator_check LIBRARY).
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_bin.h"
#include "mbd_test.h"

typedef void *(*init_fn)(void *, unsigned int);
typedef size_t (*fuzz_fn)(void *, uint8_t *, size_t, uint8_t **, uint8_t *, size_t,
			  size_t);
typedef const char *(*describe_fn)(void *, size_t);
typedef void (*deinit_fn)(void *);

/* out is exactly the compact form of the trace it decodes to. */
static int exact(const uint8_t *out, size_t n)
{
	struct mbd_trace t;
	uint8_t again[MBD_BIN_MAX_LEN];
	long len;

	mbd_trace_init(&t);
	mbd_bin_decode(out, n, MBD_DECODER_STRUCTURED, &t);
	len = mbd_bin_encode_compact(&t, again, sizeof(again), NULL);
	mbd_trace_free(&t);
	return len == (long)n && memcmp(again, out, n) == 0;
}

int main(int argc, char **argv)
{
	uint64_t rng = 0x853c49e6748fea9bULL;
	void *lib, *st;
	init_fn init;
	fuzz_fn fuzz;
	describe_fn describe;
	deinit_fn deinit;
	int ok = 1, made = 0;

	if (argc != 2) {
		fputs("usage: afl_mutator_check LIBRARY\n", stderr);
		return 2;
	}
	lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	MBD_CHECK(lib != NULL);
	if (!lib) {
		fprintf(stderr, "%s\n", dlerror());
		return mbd_test_done();
	}
	*(void **)&init = dlsym(lib, "afl_custom_init");
	*(void **)&fuzz = dlsym(lib, "afl_custom_fuzz");
	*(void **)&describe = dlsym(lib, "afl_custom_describe");
	*(void **)&deinit = dlsym(lib, "afl_custom_deinit");
	MBD_CHECK(init && fuzz && describe && deinit);
	if (!init || !fuzz || !describe || !deinit)
		return mbd_test_done();
	st = init(NULL, 7);
	MBD_CHECK(st != NULL);
	for (int k = 0; st && k < 3000; k++) {
		uint8_t in[300], other[300], *out = NULL;
		size_t n = 1 + mbd_test_rnd(&rng) % sizeof(in);
		size_t max = 16 + mbd_test_rnd(&rng) % 600, got;

		for (size_t i = 0; i < sizeof(in); i++) {
			in[i] = (uint8_t)mbd_test_rnd(&rng);
			other[i] = (uint8_t)mbd_test_rnd(&rng);
		}
		got = fuzz(st, in, n, &out, k % 2 ? other : NULL, k % 2 ? sizeof(other) : 0, max);
		if (!got)
			continue;
		made++;
		ok &= out != NULL && got <= max && exact(out, got);
	}
	MBD_CHECK(ok);
	MBD_CHECK(made > 2000);
	MBD_CHECK(st && describe(st, 64) != NULL);
	if (st)
		deinit(st);
	printf("afl mutator: %d of 3000 calls made an input\n", made);
	dlclose(lib);
	return mbd_test_done();
}
