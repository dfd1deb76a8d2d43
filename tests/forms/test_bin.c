// SPDX-License-Identifier: GPL-2.0
/*
 * Binary trace form: every byte string decodes to a valid bounded trace,
 * encode/decode round-trip exactly for both decoders, and the structured
 * decoder really produces the corner cases it exists for.
 */
#include <stdlib.h>
#include <string.h>

#include "bin_layout.h"
#include "mbd_bin.h"
#include "mbd_test.h"

#define N_RANDOM 100000
#define N_ROUND 20000
#define N_STATS 50000

static const enum mbd_decoder decs[2] = { MBD_DECODER_STRUCTURED,
					  MBD_DECODER_NAIVE };

/* Fixed-seed xorshift64: the test sees the same inputs on every run. */
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint64_t rnd_below(uint64_t n)
{
	return rnd() % n;
}

/* A 64-bit value biased towards the edges of the address space. */
static uint64_t rnd_value(void)
{
	static const uint64_t edge[] = {
		0, 1, 4096, 0xfff, UINT64_MAX, UINT64_MAX - 1,
		UINT64_MAX - 4095, 1ULL << 63, (1ULL << 63) - 1, 1ULL << 32,
		1ULL << 40, 0x8000000000000001ULL,
	};

	switch (rnd_below(4)) {
	case 0: return edge[rnd_below(sizeof(edge) / sizeof(edge[0]))];
	case 1: return rnd_below(1ULL << 32) * 4096;
	default: return rnd();
	}
}

/* Random bytes in an exactly sized heap buffer, so ASan sees overreads. */
static uint8_t *rnd_buf(size_t n)
{
	uint8_t *b = malloc(n ? n : 1);

	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)rnd();
	return b;
}

static int cfg_equal(const struct mbd_config *a, const struct mbd_config *b)
{
	return a->memory_max == b->memory_max &&
	       a->reserved_max == b->reserved_max && a->resize == b->resize &&
	       a->slab == b->slab && a->bottom_up == b->bottom_up &&
	       a->mirror == b->mirror && a->movable == b->movable &&
	       a->limit == b->limit;
}

static int trace_equal(const struct mbd_trace *a, const struct mbd_trace *b)
{
	if (!cfg_equal(&a->cfg, &b->cfg) || a->n_ops != b->n_ops)
		return 0;
	return a->n_ops == 0 ||
	       memcmp(a->ops, b->ops, a->n_ops * sizeof(*a->ops)) == 0;
}

/* The validity contract, checked field by field. */
static int trace_valid(const struct mbd_trace *t, enum mbd_decoder dec)
{
	int lo = MBD_NUMA_NO_NODE;
	int hi = MBD_MAX_NUMNODES;

	(void)dec; /* both decoders produce nid -1..64 */

	if (t->n_ops > MBD_FUZZ_MAX_OPS)
		return 0;
	if (t->cfg.memory_max < 1 || t->cfg.memory_max > 128 ||
	    t->cfg.reserved_max < 1 || t->cfg.reserved_max > 128)
		return 0;
	for (size_t i = 0; i < t->n_ops; i++) {
		struct mbd_op n = t->ops[i];

		if (n.kind >= MBD_OP__COUNT || t->lines[i] != 0)
			return 0;
		mbd_op_normalize(&n);
		if (memcmp(&n, &t->ops[i], sizeof(n)) != 0)
			return 0;
		if (n.flags > 0x1f || n.type > 1 || n.nid < lo || n.nid > hi)
			return 0;
		if (n.kind == MBD_OP_SET_BOTTOM_UP && n.value > 1)
			return 0;
	}
	return 1;
}

static void test_names(void)
{
	MBD_CHECK(mbd_decoder_lookup("structured") == MBD_DECODER_STRUCTURED);
	MBD_CHECK(mbd_decoder_lookup("naive") == MBD_DECODER_NAIVE);
	MBD_CHECK(mbd_decoder_lookup("Naive") == -1);
	MBD_CHECK(mbd_decoder_lookup("") == -1);
	MBD_CHECK_STR(mbd_decoder_name(MBD_DECODER_STRUCTURED), "structured");
	MBD_CHECK_STR(mbd_decoder_name(MBD_DECODER_NAIVE), "naive");
}

static void test_empty(void)
{
	struct mbd_trace t;
	uint8_t dummy = 0x55;

	mbd_trace_init(&t);
	for (int d = 0; d < 2; d++) {
		mbd_bin_decode(NULL, 0, decs[d], &t);
		MBD_CHECK(t.n_ops == 0);
		MBD_CHECK(trace_valid(&t, decs[d]));
		MBD_CHECK_EQ_U64(t.cfg.limit, MBD_ALLOC_ANYWHERE);
		/* size 0 must not look at the byte */
		mbd_bin_decode(&dummy, 0, decs[d], &t);
		MBD_CHECK(t.n_ops == 0);
		MBD_CHECK_EQ_U64(t.cfg.memory_max, 1);
		MBD_CHECK(!t.cfg.resize && !t.cfg.slab && !t.cfg.bottom_up);
	}
	mbd_trace_free(&t);
}

/* Header max byte per docs/binary-format.md. */
static uint32_t doc_max(unsigned b)
{
	if (b < 0x60)
		return 1 + (b & 7);
	if (b < 0x80)
		return 128;
	return 1 + (b & 0x7f);
}

static void test_single_bytes(void)
{
	struct mbd_trace t;
	int ok_hdr = 1, ok_valid = 1, ok_one = 1, ok_naive_kind = 1;
	int per_kind[MBD_OP__COUNT] = { 0 };
	int prev_kind = 0, monotonic = 1;

	mbd_trace_init(&t);
	for (unsigned b = 0; b < 256; b++) {
		uint8_t one = (uint8_t)b, four[4] = { 0, 0, 0, (uint8_t)b };

		for (int d = 0; d < 2; d++) {
			mbd_bin_decode(&one, 1, decs[d], &t);
			ok_valid &= trace_valid(&t, decs[d]);
			ok_hdr &= t.n_ops == 0 && t.cfg.memory_max == doc_max(b) &&
				  t.cfg.reserved_max == 1;
			mbd_bin_decode(four, 4, decs[d], &t);
			ok_valid &= trace_valid(&t, decs[d]);
			ok_one &= t.n_ops == 1;
			if (t.n_ops != 1)
				continue;
			if (decs[d] == MBD_DECODER_NAIVE) {
				/* 19: the kinds that own opcode bytes (bin_layout.h) */
				ok_naive_kind &= t.ops[0].kind == b % 19;
			} else {
				per_kind[t.ops[0].kind]++;
				monotonic &= (int)t.ops[0].kind >= prev_kind;
				prev_kind = (int)t.ops[0].kind;
			}
		}
	}
	MBD_CHECK(ok_hdr);
	MBD_CHECK(ok_valid);
	MBD_CHECK(ok_one);
	MBD_CHECK(ok_naive_kind);
	/* structured opcodes: contiguous ranges in kind order, all reachable */
	MBD_CHECK(monotonic);
	for (int k = 0; k < MBD_OP__COUNT; k++)
		MBD_CHECK(per_kind[k] > 0 || k == MBD_OP_RESERVE_KERN);
	MBD_CHECK(per_kind[MBD_OP_RESERVE_KERN] == 0); /* an escape, no opcode */
	MBD_CHECK(per_kind[MBD_OP_ADD] >= 16 && per_kind[MBD_OP_RESERVE] >= 16);
	MBD_CHECK(per_kind[MBD_OP_ADD_NODE] >= 16 && per_kind[MBD_OP_REMOVE] >= 16);
	MBD_CHECK(per_kind[MBD_OP_PHYS_FREE] >= 16);
	MBD_CHECK(per_kind[MBD_OP_ALLOC_RANGE] >= 16);
	MBD_CHECK(per_kind[MBD_OP_ALLOW_RESIZE] <= 6 && per_kind[MBD_OP_SLAB_UP] <= 6);
	MBD_CHECK(per_kind[MBD_OP_TRIM] <= 6);
	mbd_trace_free(&t);

	/* each opcode byte: the last kind whose range starts at or below it */
	int ok_kind = 1;

	for (unsigned b = 0; b < 256; b++) {
		uint32_t want = MBD_BIN_OPCODE_KINDS - 1;

		while (b < mbd_bin_op_start[want])
			want--;
		ok_kind &= mbd_bin_kind_of((uint8_t)b) == want;
	}
	MBD_CHECK(ok_kind);
}

static void test_random(void)
{
	struct mbd_trace a, b;
	int valid = 1, determ = 1, prefix = 1, stable = 1, saw_full = 0;
	struct mbd_op *ops0 = NULL;

	mbd_trace_init(&a);
	mbd_trace_init(&b);
	for (int i = 0; i < N_RANDOM; i++) {
		enum mbd_decoder dec = decs[i & 1];
		size_t n = (size_t)rnd_below(i % 8 ? 160 : 1200);
		uint8_t *buf = rnd_buf(n), *pad;

		mbd_bin_decode(buf, n, dec, &a);
		valid &= trace_valid(&a, dec);
		saw_full |= a.n_ops == MBD_FUZZ_MAX_OPS;
		/* steady state: the first push sized the buffers for good */
		if (!ops0)
			ops0 = a.ops;
		stable &= !a.ops || a.ops == ops0;
		mbd_bin_decode(buf, n, dec, &b);
		determ &= trace_equal(&a, &b);
		/* reads past the end are zeros: explicit zeros give a superset */
		pad = calloc(n + 64, 1);
		if (n)
			memcpy(pad, buf, n);
		mbd_bin_decode(pad, n + 64, dec, &b);
		prefix &= cfg_equal(&a.cfg, &b.cfg) && b.n_ops >= a.n_ops &&
			  (a.n_ops == 0 || memcmp(a.ops, b.ops,
						  a.n_ops * sizeof(*a.ops)) == 0);
		free(pad);
		free(buf);
	}
	MBD_CHECK(valid);
	MBD_CHECK(determ);
	MBD_CHECK(prefix);
	MBD_CHECK(stable);
	MBD_CHECK(saw_full);
	mbd_trace_free(&a);
	mbd_trace_free(&b);
}

/* A random valid trace; unused fields get garbage the encoder must drop. */
static void rnd_trace(struct mbd_trace *t, enum mbd_decoder dec)
{
	(void)dec;
	static const uint32_t maxes[] = { 1, 2, 3, 8, 9, 64, 127, 128 };
	size_t n = rnd_below(4) ? rnd_below(MBD_FUZZ_MAX_OPS + 1)
				: MBD_FUZZ_MAX_OPS;
	struct mbd_op op;

	mbd_trace_clear(t);
	t->cfg.memory_max = rnd_below(2) ? maxes[rnd_below(8)]
					 : 1 + (uint32_t)rnd_below(128);
	t->cfg.reserved_max = rnd_below(2) ? maxes[rnd_below(8)]
					   : 1 + (uint32_t)rnd_below(128);
	t->cfg.resize = rnd() & 1;
	t->cfg.slab = rnd() & 1;
	t->cfg.bottom_up = rnd() & 1;
	t->cfg.mirror = rnd() & 1;
	t->cfg.movable = rnd() & 1;
	t->cfg.limit = rnd_below(2) ? MBD_ALLOC_ANYWHERE : rnd_value();
	for (size_t i = 0; i < n; i++) {
		op.kind = (uint32_t)rnd_below(MBD_OP__COUNT);
		op.base = rnd_value();
		op.size = rnd_value();
		op.align = rnd_value();
		op.start = rnd_value();
		op.end = rnd_value();
		op.value = op.kind == MBD_OP_SET_BOTTOM_UP ? rnd() & 1
							  : rnd_value();
		op.flags = (uint32_t)rnd_below(0x20);
		op.type = (uint32_t)rnd_below(2);
		op.nid = (int32_t)rnd_below(MBD_MAX_NUMNODES + 2) - 1;
		mbd_trace_push(t, &op, 0);
	}
}

static void normalize_all(struct mbd_trace *t)
{
	for (size_t i = 0; i < t->n_ops; i++)
		mbd_op_normalize(&t->ops[i]);
}

static void test_round_trip(void)
{
	struct mbd_trace t, back, again;
	int enc_ok = 1, exact = 1, fixed = 1, canon = 1;

	mbd_trace_init(&t);
	mbd_trace_init(&back);
	mbd_trace_init(&again);
	for (int i = 0; i < N_ROUND; i++) {
		enum mbd_decoder dec = decs[i & 1];
		uint8_t *out = NULL;
		size_t len = 0;

		rnd_trace(&t, dec);
		if (mbd_bin_encode(&t, dec, &out, &len)) {
			enc_ok = 0;
			continue;
		}
		mbd_bin_decode(out, len, dec, &back);
		normalize_all(&t);
		exact &= trace_equal(&t, &back);
		free(out);
	}
	MBD_CHECK(enc_ok);
	MBD_CHECK(exact);

	/* decode -> encode -> decode is a fixed point, encoding canonical */
	for (int i = 0; i < N_ROUND; i++) {
		enum mbd_decoder dec = decs[i & 1];
		size_t n = (size_t)rnd_below(600), l1 = 0, l2 = 0;
		uint8_t *buf = rnd_buf(n), *e1 = NULL, *e2 = NULL;

		mbd_bin_decode(buf, n, dec, &t);
		if (mbd_bin_encode(&t, dec, &e1, &l1)) {
			fixed = 0;
			free(buf);
			continue;
		}
		mbd_bin_decode(e1, l1, dec, &back);
		fixed &= trace_equal(&t, &back);
		if (mbd_bin_encode(&back, dec, &e2, &l2) == 0)
			canon &= l1 == l2 && memcmp(e1, e2, l1) == 0;
		else
			canon = 0;
		mbd_bin_decode(e2, l2, dec, &again);
		fixed &= trace_equal(&t, &again);
		free(e1);
		free(e2);
		free(buf);
	}
	MBD_CHECK(fixed);
	MBD_CHECK(canon);
	mbd_trace_free(&t);
	mbd_trace_free(&back);
	mbd_trace_free(&again);
}

static int encodes(const struct mbd_trace *t, enum mbd_decoder dec)
{
	uint8_t *out = NULL;
	size_t len = 0;
	int rc = mbd_bin_encode(t, dec, &out, &len);

	free(out);
	return rc == 0;
}

static void one_op(struct mbd_trace *t, uint32_t kind, int32_t nid,
		   uint32_t flags, uint32_t type, uint64_t value)
{
	struct mbd_op op;

	memset(&op, 0, sizeof(op));
	op.kind = kind;
	op.nid = nid;
	op.flags = flags;
	op.type = type;
	op.value = value;
	mbd_trace_clear(t);
	mbd_trace_push(t, &op, 0);
}

static void test_encode_limits(void)
{
	struct mbd_trace t;
	struct mbd_op op;
	const enum mbd_decoder S = MBD_DECODER_STRUCTURED, N = MBD_DECODER_NAIVE;

	mbd_trace_init(&t);
	memset(&op, 0, sizeof(op));
	for (int i = 0; i < MBD_FUZZ_MAX_OPS; i++)
		mbd_trace_push(&t, &op, 0);
	MBD_CHECK(encodes(&t, S) && encodes(&t, N));
	mbd_trace_push(&t, &op, 0);
	MBD_CHECK(!encodes(&t, S) && !encodes(&t, N));

	mbd_trace_clear(&t);
	t.cfg.memory_max = 0;
	MBD_CHECK(!encodes(&t, S) && !encodes(&t, N));
	t.cfg.memory_max = 129;
	MBD_CHECK(!encodes(&t, S));
	t.cfg.memory_max = 1;
	t.cfg.reserved_max = 129;
	MBD_CHECK(!encodes(&t, N));

	one_op(&t, MBD_OP_ADD_NODE, MBD_MAX_NUMNODES, 0x1f, 0, 0);
	MBD_CHECK(encodes(&t, S) && encodes(&t, N));
	one_op(&t, MBD_OP_ADD_NODE, MBD_MAX_NUMNODES + 1, 0, 0, 0);
	MBD_CHECK(!encodes(&t, S) && !encodes(&t, N));
	one_op(&t, MBD_OP_ALLOC_TRY_NID, -2, 0, 0, 0);
	MBD_CHECK(!encodes(&t, S) && !encodes(&t, N));
	one_op(&t, MBD_OP_SET_NODE, 128, 0, 0, 0);
	MBD_CHECK(!encodes(&t, S) && !encodes(&t, N));
	one_op(&t, MBD_OP_ADD_NODE, 0, 0x20, 0, 0);
	MBD_CHECK(!encodes(&t, S) && !encodes(&t, N));
	one_op(&t, MBD_OP_SET_NODE, 0, 0, 2, 0);
	MBD_CHECK(!encodes(&t, S) && !encodes(&t, N));
	one_op(&t, MBD_OP_SET_BOTTOM_UP, 0, 0, 0, 2);
	MBD_CHECK(!encodes(&t, S) && !encodes(&t, N));
	one_op(&t, MBD_OP__COUNT, 0, 0, 0, 0);
	MBD_CHECK(!encodes(&t, S) && !encodes(&t, N));
	/* fields the shape does not use are dropped, not rejected */
	one_op(&t, MBD_OP_ADD, 1000, 0xff, 7, 5);
	MBD_CHECK(encodes(&t, S) && encodes(&t, N));
	mbd_trace_free(&t);
}

/* Corner-case figures over random inputs for one decoder. */
struct stats {
	size_t inputs, small_max, ranges, at_end, overflow, below_tib, adds;
	size_t kinds[MBD_OP__COUNT];
};

static int in_set(const uint64_t *s, size_t n, uint64_t v)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == v)
			return 1;
	return 0;
}

static uint64_t end_of(uint64_t base, uint64_t size)
{
	return size > UINT64_MAX - base ? UINT64_MAX : base + size;
}

/* Endpoints are recomputed here from the trace, not taken from the decoder. */
static void measure(const struct mbd_trace *t, struct stats *st)
{
	uint64_t pts[2 * MBD_FUZZ_MAX_OPS + 2];
	size_t np = 0;

	st->inputs++;
	st->small_max += t->cfg.memory_max <= 8 || t->cfg.reserved_max <= 8;
	if (t->cfg.limit != MBD_ALLOC_ANYWHERE)
		pts[np++] = t->cfg.limit;
	for (size_t i = 0; i < t->n_ops; i++) {
		const struct mbd_op *o = &t->ops[i];
		enum mbd_op_shape sh = mbd_op_table[o->kind].shape;

		st->kinds[o->kind]++;
		if (sh == MBD_SHAPE_RANGE || sh == MBD_SHAPE_RANGE_NODE ||
		    sh == MBD_SHAPE_SET_NODE) {
			uint64_t e = end_of(o->base, o->size);

			st->ranges++;
			/* a capped end (PHYS_ADDR_MAX) matching is no merit */
			st->at_end += in_set(pts, np, o->base) ||
				      (e != UINT64_MAX && in_set(pts, np, e));
			st->overflow += o->size > UINT64_MAX - o->base;
			if (o->kind == MBD_OP_ADD || o->kind == MBD_OP_ADD_NODE) {
				st->adds++;
				st->below_tib += e <= TIB;
			}
			pts[np++] = o->base;
			pts[np++] = e;
		} else if (sh == MBD_SHAPE_ALLOC_RANGE) {
			pts[np++] = o->start;
			pts[np++] = o->end;
		} else if (o->kind == MBD_OP_SET_LIMIT) {
			pts[np++] = o->value;
		}
	}
}

static double pct(size_t a, size_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void collect(enum mbd_decoder dec, struct stats *st)
{
	struct mbd_trace t;

	memset(st, 0, sizeof(*st));
	mbd_trace_init(&t);
	for (int i = 0; i < N_STATS; i++) {
		size_t n = 16 + (size_t)rnd_below(500);
		uint8_t *buf = rnd_buf(n);

		mbd_bin_decode(buf, n, dec, &t);
		measure(&t, st);
		free(buf);
	}
	mbd_trace_free(&t);
	printf("%-10s: range ops at an earlier endpoint %.1f%%, base+size "
	       "overflow %.1f%%, adds below 1 TiB %.1f%%, inputs with a max "
	       "<= 8 %.1f%%\n", mbd_decoder_name(dec),
	       pct(st->at_end, st->ranges), pct(st->overflow, st->ranges),
	       pct(st->below_tib, st->adds), pct(st->small_max, st->inputs));
}

static void test_corner_cases(void)
{
	struct stats s, n;

	collect(MBD_DECODER_STRUCTURED, &s);
	collect(MBD_DECODER_NAIVE, &n);
	MBD_CHECK(s.ranges > 100000);
	MBD_CHECK(pct(s.at_end, s.ranges) > 20.0);
	MBD_CHECK(pct(s.overflow, s.ranges) > 1.0);
	MBD_CHECK(pct(s.overflow, s.ranges) < 30.0);
	MBD_CHECK(pct(s.below_tib, s.adds) > 50.0);
	MBD_CHECK(pct(s.small_max, s.inputs) > 40.0);
	/* the weighting: workhorses far more common than one-shot ops */
	MBD_CHECK(s.kinds[MBD_OP_RESERVE] > 5 * s.kinds[MBD_OP_TRIM]);
	MBD_CHECK(s.kinds[MBD_OP_ADD] > 5 * s.kinds[MBD_OP_SLAB_UP]);
	MBD_CHECK(s.kinds[MBD_OP_ALLOC_RANGE] > 3 * s.kinds[MBD_OP_ALLOW_RESIZE]);
	/* the ablation baseline really lacks the structure */
	MBD_CHECK(n.ranges > 0);
	MBD_CHECK(pct(n.at_end, n.ranges) < pct(s.at_end, s.ranges));
}

/*
 * memblock_reserve_kern hides in set_bottom_up's value byte (>= 0xf0), so
 * bytes written before it existed decode as before: values 0..0xef still
 * give set_bottom_up(v & 1), and both decoders agree on the escape.
 */
static void test_reserve_kern_escape(void)
{
	struct mbd_trace t, back;
	int old_same = 1, esc = 1;

	mbd_trace_init(&t);
	mbd_trace_init(&back);
	for (unsigned v = 0; v < 256; v++) {
		/* header, set_bottom_up opcode, value, then a 4 KiB range at 1 MiB, nid 2 */
		uint8_t s[] = { 0x60, 0x60, 0, 0xf4, (uint8_t)v, 0xc0, 0, 0, 0x10, 0, 0,
				0xc0, 0, 0x10, 0, 0, 0, 2 };
		uint8_t n[5 + 8 + 8 + 1] = { 0x60, 0x60, 0, 16 };

		n[4] = (uint8_t)v;
		mbd_bin_decode(s, 5, MBD_DECODER_STRUCTURED, &t);
		if (v < 0xf0) {
			old_same &= t.n_ops == 1 && t.ops[0].kind == MBD_OP_SET_BOTTOM_UP &&
				    t.ops[0].value == (v & 1);
			mbd_bin_decode(n, 5, MBD_DECODER_NAIVE, &t);
			old_same &= t.n_ops == 1 && t.ops[0].kind == MBD_OP_SET_BOTTOM_UP &&
				    t.ops[0].value == (v & 1);
			continue;
		}
		mbd_bin_decode(s, sizeof(s), MBD_DECODER_STRUCTURED, &t);
		esc &= t.n_ops == 1 && t.ops[0].kind == MBD_OP_RESERVE_KERN &&
		       t.ops[0].base == 0x100000 && t.ops[0].size == 0x1000 &&
		       t.ops[0].nid == 2;
		n[5 + 8 + 8] = 3;       /* naive nid byte: 3 % 66 - 1 = 2 */
		n[4 + 1 + 2] = 0x10;    /* base LE8 at n[5]: 0x100000 */
		n[4 + 1 + 8 + 1] = 0x10; /* size LE8 at n[13]: 0x1000 */
		mbd_bin_decode(n, sizeof(n), MBD_DECODER_NAIVE, &t);
		esc &= t.n_ops == 1 && t.ops[0].kind == MBD_OP_RESERVE_KERN &&
		       t.ops[0].base == 0x100000 && t.ops[0].size == 0x1000 &&
		       t.ops[0].nid == 2;
		memset(n + 5, 0, sizeof(n) - 5);
	}
	MBD_CHECK(old_same);
	MBD_CHECK(esc);
	/* the encoder writes the escape, and reads it back */
	for (int d = 0; d < 2; d++) {
		uint8_t *out = NULL;
		size_t len = 0;

		one_op(&t, MBD_OP_RESERVE_KERN, MBD_NUMA_NO_NODE, 0, 0, 0);
		t.ops[0].base = 0x40000000;
		t.ops[0].size = 0x2000;
		MBD_CHECK(mbd_bin_encode(&t, decs[d], &out, &len) == 0);
		MBD_CHECK(len > 5 && out[4] == 0xf0);
		mbd_bin_decode(out, len, decs[d], &back);
		MBD_CHECK(trace_equal(&t, &back));
		free(out);
	}
	mbd_trace_free(&t);
	mbd_trace_free(&back);
}

int main(void)
{
	test_names();
	test_empty();
	test_single_bytes();
	test_random();
	test_round_trip();
	test_encode_limits();
	test_corner_cases();
	test_reserve_kern_escape();
	return mbd_test_done();
}
