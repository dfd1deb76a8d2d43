// SPDX-License-Identifier: GPL-2.0
/*
 * The compact encoder and the op mutator (mbd_mutate.h): compact bytes
 * decode to exactly the trace, and every prefix of ops is a valid input;
 * mutated and crossed-over inputs always decode, to the trace they were
 * encoded from, within the size limit, the same for the same seed, and a
 * cross-over keeps calls of both parents.
 */
#include <stdlib.h>
#include <string.h>

#include "mbd_bin.h"
#include "mbd_input.h"
#include "mbd_mutate.h"
#include "mbd_test.h"

#define N_TRACES 3000
#define N_MUTATE 20000

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint64_t rnd(void)
{
	return mbd_test_rnd(&rng);
}

/* Two traces are the same if their canonical literal forms are. */
static int same(const struct mbd_trace *a, const struct mbd_trace *b)
{
	uint8_t *x = NULL, *y = NULL;
	size_t nx = 0, ny = 0;
	int eq;

	if (mbd_bin_encode(a, MBD_DECODER_NAIVE, &x, &nx) ||
	    mbd_bin_encode(b, MBD_DECODER_NAIVE, &y, &ny)) {
		free(x);
		free(y);
		return 0;
	}
	eq = nx == ny && memcmp(x, y, nx) == 0;
	free(x);
	free(y);
	return eq;
}

/* A structured input of random bytes, some of them reusing earlier ones. */
static size_t random_input(uint8_t *buf, size_t cap)
{
	size_t n = 3 + rnd() % (cap - 3);

	for (size_t i = 0; i < n; i++)
		buf[i] = (uint8_t)rnd();
	return n;
}

static void test_compact_roundtrip(void)
{
	struct mbd_trace t, back, pre;
	uint8_t in[400], out[MBD_BIN_MAX_LEN];
	size_t ends[MBD_FUZZ_MAX_OPS + 1];
	int exact = 1, prefixes = 1, encoded = 1, shorter = 0, total_ops = 0;
	size_t bytes_compact = 0, bytes_literal = 0;

	mbd_trace_init(&t);
	mbd_trace_init(&back);
	mbd_trace_init(&pre);
	for (int k = 0; k < N_TRACES; k++) {
		size_t n = random_input(in, sizeof(in));
		uint8_t *lit = NULL;
		size_t nlit = 0;
		long len;

		mbd_bin_decode(in, n, MBD_DECODER_STRUCTURED, &t);
		len = mbd_bin_encode_compact(&t, out, sizeof(out), ends);
		if (len < 0) {
			encoded = 0;
			continue;
		}
		mbd_bin_decode(out, (size_t)len, MBD_DECODER_STRUCTURED, &back);
		exact &= same(&t, &back);
		/* a prefix of i ops is exactly the first i ops */
		for (size_t i = 0; i <= t.n_ops; i += 1 + t.n_ops / 4) {
			mbd_bin_decode(out, ends[i], MBD_DECODER_STRUCTURED, &pre);
			prefixes &= pre.n_ops == i &&
				    (i == 0 || memcmp(pre.ops, t.ops, i * sizeof(*t.ops)) == 0);
		}
		if (mbd_bin_encode(&t, MBD_DECODER_STRUCTURED, &lit, &nlit) == 0) {
			shorter += (size_t)len < nlit;
			bytes_compact += (size_t)len;
			bytes_literal += nlit;
		}
		free(lit);
		total_ops += (int)t.n_ops;
	}
	MBD_CHECK(encoded);
	MBD_CHECK(exact);
	MBD_CHECK(prefixes);
	/* the point of it: most traces shrink, by a lot on average */
	MBD_CHECK(shorter > N_TRACES / 2);
	MBD_CHECK(bytes_compact * 3 < bytes_literal * 2);
	printf("compact: %d of %d traces shorter; %zu bytes vs %zu literal (%d ops)\n",
	       shorter, N_TRACES, bytes_compact, bytes_literal, total_ops);
	/* a buffer too small is refused, not overrun */
	mbd_bin_decode(in, sizeof(in), MBD_DECODER_STRUCTURED, &t);
	MBD_CHECK(mbd_bin_encode_compact(&t, out, 2, NULL) == -1);
	mbd_trace_free(&t);
	mbd_trace_free(&back);
	mbd_trace_free(&pre);
}

/* A text trace (a .mbt seed in the corpus) mutates into bytes. */
static const char seed_text[] =
	"config memory.max=2 reserved.max=2 resize=1\n"
	"memblock_add: [0x0000000000100000-0x00000000004fffff]\n"
	"memblock_reserve: [0x0000000000200000-0x0000000000200fff]\n"
	"memblock_phys_alloc_range: 4096 bytes align=0x1000 from=0x0 max_addr=0x0\n";

/*
 * out must decode (as bytes, never as text) to a trace whose compact form
 * is out itself: the mutator wrote exactly the trace it meant to.
 */
static int decodes_exactly(const uint8_t *out, size_t n)
{
	struct mbd_trace t;
	uint8_t again[MBD_BIN_MAX_LEN];
	long len;
	int ok;

	mbd_trace_init(&t);
	ok = mbd_decode_input(out, n, "<test>", MBD_DECODER_STRUCTURED, &t, NULL) == 0;
	len = mbd_bin_encode_compact(&t, again, sizeof(again), NULL);
	ok = ok && len == (long)n && memcmp(again, out, n) == 0;
	mbd_trace_free(&t);
	return ok;
}

/* What the mutator kept for its last output is what decoding it gives. */
static int last_is_decoded(const struct mbd_mutator *m, const uint8_t *out,
			   size_t n, int *hits)
{
	const struct mbd_trace *kept = mbd_mutator_last(m, out, n);
	struct mbd_trace t;
	int ok;

	if (!kept)
		return 1;
	(*hits)++;
	mbd_trace_init(&t);
	mbd_bin_decode(out, n, MBD_DECODER_STRUCTURED, &t);
	ok = t.n_ops == kept->n_ops &&
	     t.cfg.memory_max == kept->cfg.memory_max &&
	     t.cfg.reserved_max == kept->cfg.reserved_max &&
	     t.cfg.resize == kept->cfg.resize && t.cfg.slab == kept->cfg.slab &&
	     t.cfg.bottom_up == kept->cfg.bottom_up &&
	     t.cfg.mirror == kept->cfg.mirror &&
	     t.cfg.movable == kept->cfg.movable && t.cfg.limit == kept->cfg.limit &&
	     (!t.n_ops || memcmp(t.ops, kept->ops, t.n_ops * sizeof(*t.ops)) == 0);
	mbd_trace_free(&t);
	return ok;
}

static void test_mutate(void)
{
	struct mbd_mutator *m = mbd_mutator_new(MBD_DECODER_STRUCTURED);
	/* sees every fourth input only: another history, same outputs */
	struct mbd_mutator *m2 = mbd_mutator_new(MBD_DECODER_STRUCTURED);
	uint8_t a[MBD_BIN_MAX_LEN], b[MBD_BIN_MAX_LEN], c[MBD_BIN_MAX_LEN];
	int decode = 1, within = 1, determ = 1, differs = 0, produced = 0;
	int fallback = 0, kinds = 1, kept = 1, hits = 0, history = 1;
	int seen[MBD_OP__COUNT] = { 0 };
	struct mbd_trace t;

	MBD_CHECK(m != NULL && m2 != NULL);
	if (!m || !m2)
		return;
	for (int k = 0; k < N_MUTATE; k++) {
		size_t n, max, na, nb;
		uint64_t seed = rnd();

		if (k % 10 == 0) {
			n = sizeof(seed_text) - 1;
			memcpy(a, seed_text, n);
		} else {
			n = random_input(a, 200);
		}
		/* libFuzzer's max_size: sometimes tight, from len_control */
		max = k % 3 == 0 ? 4 + rnd() % 40 : 64 + rnd() % 400;
		if (max < n)
			max = n;
		memcpy(b, a, n);
		memcpy(c, a, n);
		na = mbd_mutate(m, a, n, max, seed);
		/* the second time its decode comes from the mutator's cache */
		nb = mbd_mutate(m, b, n, max, seed);
		determ &= na == nb && memcmp(a, b, na) == 0;
		if (k % 4 == 0) {
			size_t nc = mbd_mutate(m2, c, n, max, seed);

			history &= nc == na && memcmp(a, c, na) == 0;
		}
		if (!na) {
			fallback++;
			continue;
		}
		produced++;
		within &= na <= max;
		decode &= decodes_exactly(a, na);
		kept &= last_is_decoded(m, a, na, &hits);
		mbd_trace_init(&t);
		mbd_bin_decode(a, na, MBD_DECODER_STRUCTURED, &t);
		for (size_t i = 0; i < t.n_ops; i++)
			seen[t.ops[i].kind]++;
		mbd_trace_free(&t);
		/* another seed, another mutation (nearly always) */
		memcpy(b, a, na);
		nb = mbd_mutate(m, b, na, max, seed ^ 1);
		differs += nb != na || memcmp(a, b, na) != 0;
		/* b came from this mutator: its kept prefix must still give
		 * exactly the compact form */
		if (nb) {
			decode &= decodes_exactly(b, nb);
			kept &= last_is_decoded(m, b, nb, &hits);
		}
	}
	MBD_CHECK(decode);
	MBD_CHECK(kept);
	MBD_CHECK(hits > produced);
	MBD_CHECK(within);
	MBD_CHECK(determ);
	MBD_CHECK(history);
	MBD_CHECK(produced > N_MUTATE * 3 / 4);
	MBD_CHECK(differs > produced * 9 / 10);
	/* every kind of the op table, escaped ones too */
	for (int k = 0; k < MBD_OP__COUNT; k++)
		if (!seen[k]) {
			fprintf(stderr, "mutate: never made a %s\n", mbd_op_name((uint32_t)k));
			kinds = 0;
		}
	MBD_CHECK(kinds);
	printf("mutate: %d produced, %d left to the byte mutator, %d differ by seed\n",
	       produced, fallback, differs);
	mbd_mutator_free(m);
	mbd_mutator_free(m2);
}

/* Parents whose calls cannot be confused: a adds, b reserves. */
static size_t parent(uint32_t kind, uint64_t base0, size_t n_ops, uint8_t *out)
{
	struct mbd_trace t;
	struct mbd_op op;
	long len;

	mbd_trace_init(&t);
	for (size_t i = 0; i < n_ops; i++) {
		memset(&op, 0, sizeof(op));
		op.kind = kind;
		op.base = base0 + i * 0x10000;
		op.size = 0x1000 + i;
		mbd_trace_push(&t, &op, 0);
	}
	len = mbd_bin_encode_compact(&t, out, MBD_BIN_MAX_LEN, NULL);
	mbd_trace_free(&t);
	return len < 0 ? 0 : (size_t)len;
}

static void test_crossover(void)
{
	struct mbd_mutator *m = mbd_mutator_new(MBD_DECODER_STRUCTURED);
	uint8_t a[MBD_BIN_MAX_LEN], b[MBD_BIN_MAX_LEN], out[MBD_BIN_MAX_LEN],
		out2[MBD_BIN_MAX_LEN];
	struct mbd_trace t;
	int both = 1, decode = 1, determ = 1, within = 1;

	MBD_CHECK(m != NULL);
	if (!m)
		return;
	mbd_trace_init(&t);
	for (int k = 0; k < 2000; k++) {
		size_t na = parent(MBD_OP_ADD, 0x100000, 1 + rnd() % 40, a);
		size_t nb = parent(MBD_OP_RESERVE, 0x40000000, 1 + rnd() % 40, b);
		uint64_t seed = rnd();
		size_t max = k % 2 ? MBD_BIN_MAX_LEN : 40 + rnd() % 200;
		size_t n = mbd_crossover(m, a, na, b, nb, out, max, seed);
		size_t n2 = mbd_crossover(m, a, na, b, nb, out2, max, seed);
		int from_a = 0, from_b = 0;

		determ &= n == n2 && memcmp(out, out2, n) == 0;
		if (!n) {
			both &= max < 40; /* only when a tight max cuts b's run */
			continue;
		}
		within &= n <= max;
		decode &= decodes_exactly(out, n);
		mbd_bin_decode(out, n, MBD_DECODER_STRUCTURED, &t);
		for (size_t i = 0; i < t.n_ops; i++) {
			from_a += t.ops[i].kind == MBD_OP_ADD;
			from_b += t.ops[i].kind == MBD_OP_RESERVE;
		}
		/* the full buffer always keeps both; a tight one may cut b */
		if (max == MBD_BIN_MAX_LEN)
			both &= from_a > 0 && from_b > 0;
		both &= from_a > 0 && from_a + from_b == (int)t.n_ops;
	}
	MBD_CHECK(both);
	MBD_CHECK(decode);
	MBD_CHECK(determ);
	MBD_CHECK(within);
	/* an empty b gives nothing to splice */
	MBD_CHECK(mbd_crossover(m, a, 3, b, 0, out, sizeof(out), 1) == 0);
	mbd_trace_free(&t);
	mbd_mutator_free(m);
}

int main(void)
{
	test_compact_roundtrip();
	test_mutate();
	test_crossover();
	return mbd_test_done();
}
