// SPDX-License-Identifier: GPL-2.0
/*
 * The compact encoder's shortcuts give the bytes the long way gives:
 * - its filters (extremes, ring granules) only skip scans that find
 *   nothing, and its unchecked first pick is the checked pick: this file
 *   compiles the encoder (bin_compact*.c) a second time without either
 *   (MBD_COMPACT_NO_SHORTCUTS) and both encode the same random traces;
 * - a hint (the input the mutator changed) keeps its bytes only where a
 *   fresh encode writes the same: the common prefix, and after a call
 *   changed in place (same ring pushes) the calls after it;
 * - the entry for normalized ops writes what the general one writes, and
 *   stopped at a byte budget, the calls that fit it;
 * - both decoders give normalized calls (the decoder does not normalize);
 * - a hinted encode past a ring's capacity (a limit and 64 ranges);
 * - an encode that starts from the marks of its hint (mbd_bin_marks) at
 *   the first changed call writes what reading the hint writes, whole or
 *   cut at a budget, and so do encodes from the marks it leaves (the
 *   mutator's chains of -mutate_depth).
 */
/* the real entries first: the copy below renames its own */
#include "mbd_bin.h"

#define MBD_COMPACT_NO_SHORTCUTS
#define mbd_bin_encode_compact slow_encode_compact
#define mbd_bin_encode_compact_from slow_encode_compact_from
#define mbd_bin_encode_compact_normal slow_encode_compact_normal
#define mbd_bin_marks_new slow_marks_new
#define mbd_bin_marks_free slow_marks_free
/* its shared functions get names of their own (bin_compact_int.h) */
#include "bin_compact.c"
#include "bin_compact_extreme.c"
#include "bin_compact_marks.c"
#include "bin_compact_operand.c"
#include "bin_compact_scan.c"
#undef mbd_bin_encode_compact
#undef mbd_bin_encode_compact_from
#undef mbd_bin_encode_compact_normal
#undef mbd_bin_marks_new
#undef mbd_bin_marks_free

#include <stdlib.h>

#include "mbd_test.h"

#define N_TRACES 20000

static uint64_t rng = 0x9b05688c2b3e6c1fULL;
static int decoded_normal = 1;

static uint64_t rnd(void)
{
	return mbd_test_rnd(&rng);
}

struct enc_out {
	long len;
	uint8_t b[MBD_BIN_MAX_LEN];
	size_t ends[MBD_FUZZ_MAX_OPS + 1];
};

static bool same_out(const struct enc_out *x, const struct enc_out *y, size_t n_ops)
{
	if (x->len != y->len)
		return false;
	if (x->len < 0)
		return true;
	return memcmp(x->b, y->b, (size_t)x->len) == 0 &&
	       memcmp(x->ends, y->ends, (n_ops + 1) * sizeof(x->ends[0])) == 0;
}

static int agree(const struct enc_out *want, const struct enc_out *got,
		 const struct mbd_trace *t, int k, const char *edit, const char *what)
{
	if (same_out(want, got, t->n_ops))
		return 1;
	fprintf(stderr, "trace %d (%s): %s\n", k, edit, what);
	return 0;
}

/*
 * Stopped at a random budget: the calls whose ends are within it, their
 * bytes and ends as the whole encoding has them (t normalized, full its
 * encoding with the hint's help).
 */
static int budget_agrees(const struct mbd_trace *t, const struct enc_out *full,
			 const struct enc_out *hint, int k)
{
	static struct enc_out part;
	size_t fit = (size_t)(rnd() % ((uint64_t)full->len + 8)), n_fit = 0, want = 0;

	part.len = mbd_bin_encode_compact_normal(t, part.b, sizeof(part.b), part.ends,
						 hint->b, (size_t)hint->len, fit, &n_fit,
						 NULL, NULL, NULL);
	while (want < t->n_ops && full->ends[want + 1] <= fit)
		want++;
	if (n_fit == want && part.len == (long)full->ends[want] &&
	    memcmp(part.b, full->b, (size_t)part.len) == 0 &&
	    memcmp(part.ends, full->ends, (want + 1) * sizeof(part.ends[0])) == 0)
		return 1;
	fprintf(stderr, "trace %d: budget %zu gave %zu calls (%ld bytes), want %zu\n",
		k, fit, n_fit, part.len, want);
	return 0;
}

/* Every call of t is as mbd_op_normalize() leaves it. */
static int normalized(const struct mbd_trace *t)
{
	for (size_t i = 0; i < t->n_ops; i++) {
		struct mbd_op n = t->ops[i];

		mbd_op_normalize(&n);
		if (memcmp(&n, &t->ops[i], sizeof(n)) != 0) {
			fprintf(stderr, "decoded %s is not normalized\n",
				mbd_op_name(t->ops[i].kind));
			return 0;
		}
	}
	return 1;
}

/*
 * A limit and MBD_FUZZ_MAX_OPS ranges push one value more than a ring
 * holds: a hinted encode whose last call changed must read its output
 * again (take_back() past N_RING) and still write what a fresh one does.
 */
static int full_rings_agree(void)
{
	static struct enc_out first, fresh, hinted;
	struct mbd_trace t;
	struct mbd_op op;
	int ok;

	mbd_trace_init(&t);
	t.cfg.limit = 0x40000000;
	memset(&op, 0, sizeof(op));
	op.kind = MBD_OP_ADD;
	for (unsigned i = 0; i < MBD_FUZZ_MAX_OPS; i++) {
		op.base = 0x100000ULL * (i + 1) + 0x1000ULL * (i % 7);
		op.size = 0x3000 + 0x1000ULL * (i % 5);
		mbd_trace_push(&t, &op, 0);
	}
	first.len = mbd_bin_encode_compact(&t, first.b, sizeof(first.b), first.ends);
	t.ops[MBD_FUZZ_MAX_OPS - 1].base += MBD_PAGE_SIZE;
	fresh.len = mbd_bin_encode_compact(&t, fresh.b, sizeof(fresh.b), fresh.ends);
	hinted.len = mbd_bin_encode_compact_from(&t, hinted.b, sizeof(hinted.b),
						 hinted.ends, first.b, (size_t)first.len);
	ok = first.len > 0 && fresh.len > 0 &&
	     agree(&fresh, &hinted, &t, -1, "full rings", "the hint changed the encoding");
	mbd_trace_free(&t);
	return ok;
}

static void normalize_all(struct mbd_trace *t)
{
	for (size_t i = 0; i < t->n_ops; i++)
		mbd_op_normalize(&t->ops[i]);
}

/* A fresh encode of t (normalized) and one from the marks of its hint
 * (prev, the trace it decodes to), at budget fit; marks gets the latter's. */
static int marked_agrees(const struct mbd_trace *t, const struct enc_out *prev,
			 const struct mbd_bin_marks *pm, const struct mbd_op *prev_ops,
			 size_t fit, struct enc_out *out, struct mbd_bin_marks *marks,
			 size_t *n_fit, int k, const char *what)
{
	static struct enc_out fresh;
	size_t fresh_fit = 0;

	fresh.len = mbd_bin_encode_compact_normal(t, fresh.b, sizeof(fresh.b),
						  fresh.ends, NULL, 0, fit,
						  &fresh_fit, NULL, NULL, NULL);
	out->len = mbd_bin_encode_compact_normal(t, out->b, sizeof(out->b), out->ends,
						 prev->b, (size_t)prev->len, fit, n_fit,
						 pm, prev_ops, marks);
	if (fresh.len == out->len && fresh_fit == *n_fit &&
	    (out->len < 0 || (memcmp(fresh.b, out->b, (size_t)out->len) == 0 &&
			      memcmp(fresh.ends, out->ends,
				     (*n_fit + 1) * sizeof(out->ends[0])) == 0)))
		return 1;
	fprintf(stderr, "trace %d (%s, budget %zu): the marks changed the encoding"
		" (%ld bytes, %zu calls; want %ld, %zu)\n", k, what, fit, out->len,
		*n_fit, fresh.len, fresh_fit);
	return 0;
}

/*
 * A chain as the mutator makes one: a trace, then two edits, each encoded
 * from the marks of the encoding before; then the second edit cut at a
 * random budget, and the whole trace again from the cut one's marks.
 * Returns 1 if all agree with fresh encodes; *resumed counts encodes that
 * started past the config.
 */
static const char *edit(struct mbd_trace *t);
static void random_trace(struct mbd_trace *t);

static int marks_agree(int k, int *resumed)
{
	static struct enc_out e0, e1, e2, cut;
	static struct mbd_op ops0[MBD_FUZZ_MAX_OPS], ops1[MBD_FUZZ_MAX_OPS];
	struct mbd_bin_marks *m0 = mbd_bin_marks_new(), *m1 = mbd_bin_marks_new();
	struct mbd_bin_marks *m2 = mbd_bin_marks_new();
	struct mbd_trace t;
	const char *what;
	size_t n = 0, n1 = 0, fit;
	int ok = 1;

	mbd_trace_init(&t);
	if (!m0 || !m1 || !m2)
		goto out;
	random_trace(&t);
	normalize_all(&t);
	e0.len = mbd_bin_encode_compact_normal(&t, e0.b, sizeof(e0.b), e0.ends, NULL, 0,
					       SIZE_MAX, &n, NULL, NULL, m0);
	if (e0.len < 0)
		goto out;
	if (t.n_ops) /* an empty trace has no ops array */
		memcpy(ops0, t.ops, t.n_ops * sizeof(t.ops[0]));
	what = edit(&t);
	normalize_all(&t);
	ok &= marked_agrees(&t, &e0, m0, ops0, SIZE_MAX, &e1, m1, &n1, k, what);
	*resumed += e1.len >= 0 && e1.ends[0] < (size_t)e1.len &&
		    mbd_compact_shared_calls(&t, m0, ops0, (size_t)e0.len) > 0;
	if (e1.len < 0)
		goto out;
	if (t.n_ops)
		memcpy(ops1, t.ops, t.n_ops * sizeof(t.ops[0]));
	what = edit(&t);
	normalize_all(&t);
	ok &= marked_agrees(&t, &e1, m1, ops1, SIZE_MAX, &e2, m2, &n, k, what);
	fit = (size_t)(rnd() % (MBD_BIN_MAX_LEN / 4));
	ok &= marked_agrees(&t, &e1, m1, ops1, fit, &cut, m0, &n, k, "cut");
	if (cut.len >= 0) {
		if (n)
			memcpy(ops0, t.ops, n * sizeof(t.ops[0]));
		ok &= marked_agrees(&t, &cut, m0, ops0, SIZE_MAX, &e2, m2, &n, k,
				    "after a cut");
	}
out:
	mbd_bin_marks_free(m0);
	mbd_bin_marks_free(m1);
	mbd_bin_marks_free(m2);
	mbd_trace_free(&t);
	return ok;
}

/* A trace of random calls, operands drawn the way the decoder draws them. */
static void random_trace(struct mbd_trace *t)
{
	uint8_t in[300];
	size_t n = 3 + rnd() % (sizeof(in) - 3);

	for (size_t i = 0; i < n; i++)
		in[i] = (uint8_t)rnd();
	mbd_bin_decode(in, n, MBD_DECODER_NAIVE, t);
	decoded_normal &= normalized(t);
	mbd_bin_decode(in, n, MBD_DECODER_STRUCTURED, t);
	decoded_normal &= normalized(t);
	if (t->n_ops > MBD_FUZZ_MAX_OPS)
		t->n_ops = MBD_FUZZ_MAX_OPS;
}

/* One edit of the kinds the op mutator makes; returns its name. */
static const char *edit(struct mbd_trace *t)
{
	struct mbd_op *op = t->n_ops ? &t->ops[rnd() % t->n_ops] : NULL;
	size_t at;

	switch (rnd() % 7) {
	case 0: /* in place, the same pushes */
		if (op) {
			op->nid = (int32_t)(rnd() % 4);
			op->flags = (uint32_t)(rnd() % 0x20);
			op->align = 1ULL << (rnd() % 22);
		}
		return "node";
	case 1: /* another kind of the same shape */
		if (op && op->kind == MBD_OP_ADD)
			op->kind = MBD_OP_RESERVE;
		else if (op && op->kind == MBD_OP_RESERVE)
			op->kind = MBD_OP_REMOVE;
		return "kind";
	case 2: /* the config, not the limit */
		t->cfg.memory_max = 1 + (uint32_t)(rnd() % 8);
		t->cfg.bottom_up = !t->cfg.bottom_up;
		return "config";
	case 3: /* the limit */
		t->cfg.limit = rnd() % 2 ? MBD_ALLOC_ANYWHERE : (rnd() % 64) << 20;
		return "limit";
	case 4: /* an address */
		if (op)
			op->base += rnd() % 2 ? 1 : MBD_PAGE_SIZE;
		return "address";
	case 5: /* a call inserted (a copy of another) */
		if (op && t->n_ops < MBD_FUZZ_MAX_OPS) {
			struct mbd_op copy = *op;

			at = rnd() % (t->n_ops + 1);
			mbd_trace_push(t, &copy, 0);
			memmove(&t->ops[at + 1], &t->ops[at],
				(t->n_ops - 1 - at) * sizeof(t->ops[0]));
			t->ops[at] = copy;
		}
		return "insert";
	default: /* a call deleted */
		if (op) {
			at = (size_t)(op - t->ops);
			memmove(&t->ops[at], &t->ops[at + 1],
				(t->n_ops - at - 1) * sizeof(t->ops[0]));
			t->n_ops--;
		}
		return "delete";
	}
}

int main(void)
{
	static struct enc_out fast, slow, hinted, normal, first;
	struct mbd_trace t;
	int filters = 1, hints = 1, normals = 1, budgets = 1, encoded = 0, shorter = 0;
	int marks = 1, resumed = 0;
	size_t n_fit;

	mbd_trace_init(&t);
	for (int k = 0; k < N_TRACES; k++) {
		const char *what;

		mbd_trace_clear(&t);
		random_trace(&t);
		fast.len = mbd_bin_encode_compact(&t, fast.b, sizeof(fast.b), fast.ends);
		slow.len = slow_encode_compact(&t, slow.b, sizeof(slow.b), slow.ends);
		if (!same_out(&fast, &slow, t.n_ops)) {
			fprintf(stderr, "trace %d: the filters changed the encoding\n", k);
			filters = 0;
		}
		if (fast.len < 0)
			continue;
		encoded++;
		first = fast;
		what = edit(&t);
		fast.len = mbd_bin_encode_compact(&t, fast.b, sizeof(fast.b), fast.ends);
		hinted.len = mbd_bin_encode_compact_from(&t, hinted.b, sizeof(hinted.b),
							 hinted.ends, first.b,
							 (size_t)first.len);
		hints &= agree(&fast, &hinted, &t, k, what, "the hint changed the encoding");
		shorter += fast.len >= 0 && fast.len < first.len;
		for (size_t i = 0; i < t.n_ops; i++)
			mbd_op_normalize(&t.ops[i]);
		normal.len = mbd_bin_encode_compact_normal(&t, normal.b, sizeof(normal.b),
							   normal.ends, first.b,
							   (size_t)first.len, SIZE_MAX,
							   &n_fit, NULL, NULL, NULL);
		normals &= agree(&fast, &normal, &t, k, what, "the normalized entry differs");
		normals &= n_fit == t.n_ops || fast.len < 0;
		if (fast.len >= 0)
			budgets &= budget_agrees(&t, &fast, &first, k);
		marks &= marks_agree(k, &resumed);
	}
	MBD_CHECK(filters);
	MBD_CHECK(hints);
	MBD_CHECK(normals);
	MBD_CHECK(budgets);
	MBD_CHECK(marks);
	/* most chains really started past the config */
	MBD_CHECK(resumed > N_TRACES / 2);
	MBD_CHECK(decoded_normal);
	MBD_CHECK(full_rings_agree());
	/* the traces were encodable, and edits changed their lengths */
	MBD_CHECK(encoded > N_TRACES * 9 / 10);
	MBD_CHECK(shorter > 0);
	printf("compact paths: %d traces encoded, %d shorter after the edit, "
	       "%d resumed from marks\n", encoded, shorter, resumed);
	mbd_trace_free(&t);
	return mbd_test_done();
}
