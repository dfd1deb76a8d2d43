// SPDX-License-Identifier: GPL-2.0
/*
 * Op-level mutation and cross-over of fuzzer inputs (mbd_mutate.h). Byte
 * mutations of the structured form mostly re-aim operand references, so a
 * good call rarely survives its neighbours changing; here the calls are
 * the unit. New operands come from the trace's own edges (the ends of its
 * ranges and bounds) +- a byte or a page, the decoder's extremes, a page
 * grid, and sizes that end exactly on an edge.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_input.h"
#include "mbd_mutate.h"

#define MAX_OPS MBD_FUZZ_MAX_OPS
#define PAGE MBD_PAGE_SIZE
#define TIB_ (1ULL << 40)
#define KNOWN_SLOTS 16384u /* a power of two: 128 KiB per mutator */
#define LOADED_SLOTS 1024u /* a power of two: about 5 MiB, on first use */
#define LOADED_MAX_LEN 512u /* longer inputs are decoded every time */

/* A decoded input: libFuzzer mutates and splices the same corpus inputs
 * over and over, and each would be decoded again. */
struct loaded {
	uint64_t h; /* bytes_hash() of bytes[0..len); 0: empty slot */
	size_t len;
	uint8_t bytes[LOADED_MAX_LEN];
	struct mbd_config cfg;
	size_t n;
	struct mbd_op ops[MAX_OPS];
};

struct mbd_mutator {
	enum mbd_decoder dec;
	struct mbd_trace in;           /* decoded input (buffers reused) */
	struct mbd_config cfg;         /* the trace being built */
	struct mbd_op ops[2 * MAX_OPS];
	size_t n;
	uint8_t buf[MBD_BIN_MAX_LEN];
	size_t ends[MAX_OPS + 1];
	/* hashes of inputs this mutator wrote (compact by construction),
	 * one per slot: a later input found here keeps its unchanged
	 * prefix instead of being encoded again (emit()) */
	uint64_t made[KNOWN_SLOTS];
	/* the last compact output and the trace it decodes to (the fuzz
	   target runs it next: mbd_mutator_last() spares it the decode) */
	uint8_t last[MBD_BIN_MAX_LEN];
	size_t last_len;
	struct mbd_trace last_trace;
	/* the encoder's marks of last (marks[mk]) and of the next output:
	   an encode with last as its hint starts at the first changed call */
	struct mbd_bin_marks *marks[2];
	unsigned mk;
	struct loaded *loaded; /* LOADED_SLOTS, by hash */
};

/* One mutation's view: the random stream and the trace's values. */
struct mctx {
	uint64_t s;
	struct mbd_mutator *m;
	uint64_t edges[2 * MAX_OPS + 1];
	size_t n_edges;
	uint64_t sizes[MAX_OPS];
	size_t n_sizes;
};

struct mbd_mutator *mbd_mutator_new(enum mbd_decoder dec)
{
	struct mbd_mutator *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->dec = dec;
	mbd_trace_init(&m->in);
	mbd_trace_init(&m->last_trace);
	m->marks[0] = mbd_bin_marks_new();
	m->marks[1] = mbd_bin_marks_new();
	if (!m->marks[0] || !m->marks[1]) {
		mbd_mutator_free(m);
		return NULL;
	}
	return m;
}

void mbd_mutator_free(struct mbd_mutator *m)
{
	if (!m)
		return;
	mbd_trace_free(&m->in);
	mbd_trace_free(&m->last_trace);
	mbd_bin_marks_free(m->marks[0]);
	mbd_bin_marks_free(m->marks[1]);
	free(m->loaded);
	free(m);
}

/* A 64-bit hash of bytes, never 0 (0 marks an empty slot). */
static uint64_t bytes_hash(const uint8_t *p, size_t n)
{
	uint64_t h = 0x243f6a8885a308d3ULL ^ n, w;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	for (; i < n; i++) {
		h = (h ^ p[i]) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	return h ? h : 1;
}

static void remember(struct mbd_mutator *m, const uint8_t *p, size_t n)
{
	uint64_t h = bytes_hash(p, n);

	m->made[h & (KNOWN_SLOTS - 1)] = h;
}

/*
 * data is a compact encoding this mutator wrote: reusing its prefix gives
 * the very bytes a full encode would (the encoding of a call depends only
 * on the calls before it), so the output never depends on what is
 * remembered. A collision only costs compactness, never correctness: the
 * encoder decodes whatever it keeps.
 */
static bool made_here(const struct mbd_mutator *m, uint64_t h)
{
	return m->made[h & (KNOWN_SLOTS - 1)] == h;
}

/* splitmix64: a seed gives one stream, whatever ran before. */
static uint64_t rnd(struct mctx *c)
{
	uint64_t z = (c->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t below(struct mctx *c, uint32_t n)
{
	return n ? (uint32_t)(rnd(c) % n) : 0;
}

static bool is_range(uint32_t kind)
{
	return mbd_shape_is_range(mbd_op_table[kind].shape);
}

static uint64_t capped_end(uint64_t base, uint64_t size)
{
	return size > MBD_PHYS_ADDR_MAX - base ? MBD_PHYS_ADDR_MAX : base + size;
}

/* The edges and sizes the trace already uses: where new calls aim. */
static void collect(struct mctx *c)
{
	const struct mbd_mutator *m = c->m;

	c->n_edges = 0;
	c->n_sizes = 0;
	if (m->cfg.limit != MBD_ALLOC_ANYWHERE)
		c->edges[c->n_edges++] = m->cfg.limit;
	for (size_t i = 0; i < m->n && i < MAX_OPS; i++) {
		const struct mbd_op *op = &m->ops[i];

		if (is_range(op->kind)) {
			c->edges[c->n_edges++] = op->base;
			c->edges[c->n_edges++] = capped_end(op->base, op->size);
		} else if (op->kind == MBD_OP_ALLOC_RANGE) {
			c->edges[c->n_edges++] = op->start;
			c->edges[c->n_edges++] = op->end;
		} else if (op->kind == MBD_OP_SET_LIMIT) {
			c->edges[c->n_edges++] = op->value;
		}
		if (is_range(op->kind) || mbd_op_table[op->kind].shape == MBD_SHAPE_ALLOC_RANGE ||
		    mbd_op_table[op->kind].shape == MBD_SHAPE_ALLOC_NID)
			c->sizes[c->n_sizes++] = op->size;
	}
}

static uint64_t add_sat(uint64_t a, int64_t d)
{
	if (d < 0)
		return (uint64_t)-d > a ? 0 : a - (uint64_t)-d;
	return (uint64_t)d > MBD_PHYS_ADDR_MAX - a ? MBD_PHYS_ADDR_MAX : a + (uint64_t)d;
}

/* Mostly none; else a byte, a page, a few bytes or a few pages. */
static int64_t delta(struct mctx *c)
{
	switch (below(c, 12)) {
	case 0: return 1;
	case 1: return -1;
	case 2: return (int64_t)PAGE;
	case 3: return -(int64_t)PAGE;
	case 4: return (int64_t)below(c, 33) - 16;
	case 5: return ((int64_t)below(c, 33) - 16) * (int64_t)PAGE;
	default: return 0;
	}
}

static uint64_t grid(struct mctx *c)
{
	static const uint64_t unit[4] = { 4096, 65536, 2ULL << 20, 1ULL << 30 };

	uint64_t k = below(c, 256);

	return k * unit[below(c, 4)];
}

/* Each draw its own statement: the order of a call's arguments is the
 * compiler's, and the same seed must give the same input in every build. */
static uint64_t gen_addr(struct mctx *c)
{
	uint32_t r = below(c, 100);
	uint64_t a;

	if (r < 55 && c->n_edges) {
		uint64_t e = c->edges[below(c, (uint32_t)c->n_edges)];

		return add_sat(e, delta(c));
	}
	if (r < 70)
		return mbd_bin_addr_extreme[below(c, 32)];
	if (r < 85)
		return grid(c);
	if (r < 93 && c->n_edges) {
		uint64_t x = c->edges[below(c, (uint32_t)c->n_edges)];
		uint64_t y = c->edges[below(c, (uint32_t)c->n_edges)];
		uint64_t lo = x < y ? x : y, hi = x < y ? y : x;

		return (lo + (hi - lo) / 2) & ~(below(c, 2) ? PAGE - 1 : 0);
	}
	a = rnd(c) & (TIB_ - 1);
	return a & ~(below(c, 2) ? PAGE - 1 : 0);
}

/* A size for a range at base: ending on an edge is the common case. */
static uint64_t gen_size(struct mctx *c, uint64_t base)
{
	uint32_t r = below(c, 100);

	if (r < 40 && c->n_edges) {
		for (int tries = 0; tries < 4; tries++) {
			uint64_t e = c->edges[below(c, (uint32_t)c->n_edges)];

			if (e > base)
				return add_sat(e - base, delta(c));
		}
	}
	if (r < 55 && c->n_sizes) {
		uint64_t l = c->sizes[below(c, (uint32_t)c->n_sizes)];

		return add_sat(l, delta(c));
	}
	if (r < 70)
		return below(c, 2) ? below(c, 33) : (uint64_t)(1 + below(c, 16)) * PAGE;
	if (r < 82)
		return mbd_bin_size_extreme(below(c, 32), base);
	if (r < 92)
		return grid(c);
	return rnd(c) & (TIB_ - 1);
}

static int32_t gen_nid(struct mctx *c)
{
	switch (below(c, 8)) {
	case 0: return MBD_NUMA_NO_NODE;
	case 1: return MBD_MAX_NUMNODES;
	case 2: return (int32_t)below(c, MBD_MAX_NUMNODES + 2) - 1;
	default: return (int32_t)below(c, 4);
	}
}

static uint64_t gen_align(struct mctx *c)
{
	switch (below(c, 8)) {
	case 0: return 0;
	case 1: return rnd(c);
	default: return 1ULL << below(c, 22);
	}
}

/* A kind as the structured decoder deals opcode bytes, and now and then
 * any kind of the op table (escaped ones such as memblock_reserve_kern
 * have no opcode byte of their own). */
static uint32_t gen_kind(struct mctx *c)
{
	if (below(c, 8) == 0)
		return below(c, MBD_OP__COUNT);
	return mbd_bin_kind_of((uint8_t)below(c, 256));
}

/* Operands of the kind op->kind has, none kept. */
static void fill_op(struct mctx *c, struct mbd_op *op)
{
	uint32_t kind = op->kind;

	memset(op, 0, sizeof(*op));
	op->kind = kind;
	op->base = gen_addr(c);
	op->size = gen_size(c, op->base);
	op->nid = gen_nid(c);
	op->flags = below(c, 2) ? 0 : below(c, 0x20);
	op->type = below(c, 2);
	op->start = below(c, 3) ? 0 : gen_addr(c);
	op->end = below(c, 3) ? gen_addr(c) : (below(c, 2) ? MBD_ALLOC_ANYWHERE : 0);
	if (mbd_op_table[kind].shape == MBD_SHAPE_ALLOC_RANGE)
		op->size = gen_size(c, op->start);
	if (mbd_op_table[kind].shape == MBD_SHAPE_ALLOC_NID)
		op->size = gen_size(c, 0);
	op->align = gen_align(c);
	if (kind == MBD_OP_SET_LIMIT)
		op->value = below(c, 4) ? gen_addr(c) : MBD_ALLOC_ANYWHERE;
	else if (kind == MBD_OP_SET_BOTTOM_UP)
		op->value = below(c, 2);
	else
		op->value = gen_align(c);
	mbd_op_normalize(op);
}

static struct mbd_op *pick_op(struct mctx *c)
{
	return c->m->n ? &c->m->ops[below(c, (uint32_t)c->m->n)] : NULL;
}

static void insert_at(struct mbd_mutator *m, size_t at, const struct mbd_op *op)
{
	if (m->n >= MAX_OPS)
		return;
	memmove(&m->ops[at + 1], &m->ops[at], (m->n - at) * sizeof(m->ops[0]));
	m->ops[at] = *op;
	m->n++;
}

static void delete_at(struct mbd_mutator *m, size_t at)
{
	memmove(&m->ops[at], &m->ops[at + 1], (m->n - at - 1) * sizeof(m->ops[0]));
	m->n--;
}

static void mut_insert(struct mctx *c)
{
	struct mbd_op op;

	op.kind = gen_kind(c);
	fill_op(c, &op);
	insert_at(c->m, below(c, (uint32_t)c->m->n + 1), &op);
}

static void mut_delete(struct mctx *c)
{
	if (c->m->n)
		delete_at(c->m, below(c, (uint32_t)c->m->n));
}

static void mut_duplicate(struct mctx *c)
{
	struct mbd_op *op = pick_op(c);
	struct mbd_op copy;

	if (!op)
		return;
	copy = *op;
	insert_at(c->m, below(c, (uint32_t)c->m->n + 1), &copy);
}

/* Swap two calls, or move one elsewhere: order is what matters here. */
static void mut_swap(struct mctx *c)
{
	struct mbd_mutator *m = c->m;
	size_t i, j;
	struct mbd_op t;

	if (m->n < 2)
		return;
	i = below(c, (uint32_t)m->n);
	j = below(c, (uint32_t)m->n);
	t = m->ops[i];
	if (below(c, 2)) {
		m->ops[i] = m->ops[j];
		m->ops[j] = t;
	} else {
		delete_at(m, i);
		insert_at(m, j, &t);
	}
}

/* Another call: the same operands if the shape allows, else the same
 * range (or bounds from it). */
static void mut_kind(struct mctx *c)
{
	struct mbd_op *op = pick_op(c);
	struct mbd_op old;

	if (!op)
		return;
	old = *op;
	op->kind = gen_kind(c);
	if (mbd_op_table[op->kind].shape != mbd_op_table[old.kind].shape) {
		fill_op(c, op);
		if (is_range(old.kind) && is_range(op->kind)) {
			op->base = old.base;
			op->size = old.size;
		} else if (is_range(old.kind) && op->kind == MBD_OP_ALLOC_RANGE) {
			op->start = old.base;
			op->end = capped_end(old.base, old.size);
		}
	}
	if (op->kind == MBD_OP_SET_BOTTOM_UP && op->value > 1)
		op->value &= 1;
	mbd_op_normalize(op);
}

/* Nudge v: an edge, a byte or a page off, or a fresh address. */
static uint64_t nudge(struct mctx *c, uint64_t v)
{
	switch (below(c, 4)) {
	case 0: return gen_addr(c);
	case 1: return c->n_edges ? c->edges[below(c, (uint32_t)c->n_edges)] : v;
	default: {
		int64_t d = delta(c);

		return add_sat(v, d ? d : 1);
	}
	}
}

/* Move an address: the base (keeping the size or the end), an allocation
 * bound, a limit. */
static void mut_addr(struct mctx *c)
{
	struct mbd_op *op = pick_op(c);

	if (!op)
		return;
	if (is_range(op->kind)) {
		uint64_t end = capped_end(op->base, op->size);

		op->base = nudge(c, op->base);
		if (below(c, 2) && end > op->base)
			op->size = end - op->base;
	} else if (op->kind == MBD_OP_ALLOC_RANGE) {
		if (below(c, 2))
			op->start = nudge(c, op->start);
		else
			op->end = below(c, 8) ? nudge(c, op->end) : (below(c, 2) ? 0 : MBD_ALLOC_ANYWHERE);
	} else if (op->kind == MBD_OP_SET_LIMIT) {
		op->value = below(c, 8) ? nudge(c, op->value) : MBD_ALLOC_ANYWHERE;
	} else {
		mut_insert(c);
	}
}

static void mut_size(struct mctx *c)
{
	struct mbd_op *op = pick_op(c);
	uint64_t base;

	if (!op)
		return;
	switch (mbd_op_table[op->kind].shape) {
	case MBD_SHAPE_ALLOC_RANGE: base = op->start; break;
	case MBD_SHAPE_ALLOC_NID: base = 0; break;
	case MBD_SHAPE_VALUE:
	case MBD_SHAPE_NONE:
		mut_insert(c);
		return;
	default: base = op->base; break;
	}
	switch (below(c, 4)) {
	case 0: {
		int64_t d = delta(c);

		op->size = add_sat(op->size, d ? d : (int64_t)PAGE);
		break;
	}
	case 1: op->size = below(c, 2) ? op->size * 2 : op->size / 2; break;
	default: op->size = gen_size(c, base); break;
	}
}

/* Shift a range whole: the same size a byte, a page or to an edge away. */
static void mut_shift(struct mctx *c)
{
	struct mbd_op *op = pick_op(c);

	if (!op || !is_range(op->kind)) {
		mut_addr(c);
		return;
	}
	op->base = nudge(c, op->base);
}

/* nid, flags, type, align, the bottom-up switch, trim's alignment. */
static void mut_small(struct mctx *c)
{
	struct mbd_op *op = pick_op(c);

	if (!op)
		return;
	if (op->kind == MBD_OP_SET_BOTTOM_UP)
		op->value ^= 1;
	else if (op->kind == MBD_OP_TRIM)
		op->value = gen_align(c);
	else if (op->kind == MBD_OP_SET_LIMIT)
		op->value = gen_addr(c);
	else if (below(c, 4) == 0)
		op->nid = gen_nid(c);
	else if (below(c, 3) == 0)
		op->flags = below(c, 3) ? 1u << below(c, 5) : below(c, 0x20);
	else if (below(c, 2))
		op->type ^= 1;
	else
		op->align = gen_align(c);
	mbd_op_normalize(op);
}

static uint32_t gen_max(struct mctx *c)
{
	switch (below(c, 4)) {
	case 0: return MBD_INIT_REGIONS;
	case 1: return 1 + below(c, MBD_INIT_REGIONS);
	default: return 1 + below(c, 8);
	}
}

/* The boot state: array sizes, resize, slab, bottom-up, mirror, movable,
 * the current limit. */
static void mut_config(struct mctx *c)
{
	struct mbd_config *g = &c->m->cfg;

	switch (below(c, 8)) {
	case 0: g->memory_max = gen_max(c); break;
	case 1: g->reserved_max = gen_max(c); break;
	case 2: g->resize = !g->resize; break;
	case 3: g->slab = !g->slab; break;
	case 4: g->bottom_up = !g->bottom_up; break;
	case 5: g->mirror = !g->mirror; break;
	case 6: g->movable = !g->movable; break;
	default: g->limit = below(c, 2) ? MBD_ALLOC_ANYWHERE : gen_addr(c); break;
	}
}

/* Copy a run of calls elsewhere in the trace. */
static void mut_repeat(struct mctx *c)
{
	struct mbd_mutator *m = c->m;
	size_t from, len, at;

	if (!m->n || m->n >= MAX_OPS)
		return;
	from = below(c, (uint32_t)m->n);
	len = 1 + below(c, (uint32_t)(m->n - from));
	if (len > MAX_OPS - m->n)
		len = MAX_OPS - m->n;
	at = below(c, (uint32_t)m->n + 1);
	/* ops has room for 2 * MAX_OPS: stage the run past the end */
	memcpy(&m->ops[m->n], &m->ops[from], len * sizeof(m->ops[0]));
	memmove(&m->ops[at + len], &m->ops[at], (m->n - at + len) * sizeof(m->ops[0]));
	memcpy(&m->ops[at], &m->ops[m->n + len], len * sizeof(m->ops[0]));
	m->n += len;
}

typedef void (*mut_fn)(struct mctx *c);

/* Weighted: aiming addresses and sizes at edges first, then structure. */
static const struct {
	mut_fn fn;
	unsigned weight;
} mutations[] = {
	{ mut_insert, 14 }, { mut_delete, 8 }, { mut_duplicate, 6 },
	{ mut_swap, 6 },    { mut_kind, 8 },   { mut_addr, 16 },
	{ mut_size, 16 },   { mut_shift, 6 },  { mut_small, 6 },
	{ mut_config, 8 },  { mut_repeat, 4 },
};

static void mutate_once(struct mctx *c)
{
	unsigned total = 0, r;
	size_t k;

	for (k = 0; k < sizeof(mutations) / sizeof(mutations[0]); k++)
		total += mutations[k].weight;
	r = below(c, total);
	for (k = 0; r >= mutations[k].weight; k++)
		r -= mutations[k].weight;
	collect(c);
	mutations[k].fn(c);
}

/* The slot data would have in the cache of decoded inputs, if any. */
static struct loaded *loaded_slot(struct mbd_mutator *m, size_t size, uint64_t h)
{
	if (size > LOADED_MAX_LEN)
		return NULL;
	if (!m->loaded) {
		m->loaded = calloc(LOADED_SLOTS, sizeof(*m->loaded));
		if (!m->loaded)
			return NULL; /* out of memory: decode every time */
	}
	return &m->loaded[h & (LOADED_SLOTS - 1)];
}

/* Input bytes (h: their bytes_hash()) -> m's trace; text that does not
 * parse is read as bytes. Returns true if data is m's last output (whose
 * encoder marks m keeps), however it was read. */
static bool load(struct mbd_mutator *m, const uint8_t *data, size_t size,
		 uint64_t h)
{
	/* libFuzzer mutates its last mutation again (-mutate_depth) */
	const struct mbd_trace *t = mbd_mutator_last(m, data, size);
	bool last = t != NULL;
	struct loaded *l = NULL;

	if (t && mbd_input_is_text(data, size))
		t = NULL; /* read as text, as below */
	if (!t) {
		l = loaded_slot(m, size, h);
		if (l && l->h == h && l->len == size &&
		    memcmp(l->bytes, data, size) == 0) {
			m->cfg = l->cfg;
			m->n = l->n;
			memcpy(m->ops, l->ops, m->n * sizeof(m->ops[0]));
			return last;
		}
		t = &m->in;
		if (mbd_decode_input(data, size, "<mutate>", m->dec, &m->in, NULL))
			mbd_bin_decode(data, size, m->dec, &m->in);
	}
	m->cfg = t->cfg;
	/* a text trace may ask for boot arrays the byte form cannot carry */
	if (m->cfg.memory_max > MBD_INIT_REGIONS)
		m->cfg.memory_max = MBD_INIT_REGIONS;
	if (m->cfg.reserved_max > MBD_INIT_REGIONS)
		m->cfg.reserved_max = MBD_INIT_REGIONS;
	m->n = t->n_ops < MAX_OPS ? t->n_ops : MAX_OPS;
	if (m->n)
		memcpy(m->ops, t->ops, m->n * sizeof(m->ops[0]));
	/* a text trace's calls may carry fields of no use to their shape;
	 * decoded and last calls are normalized, and every mutation keeps
	 * them so (emit() relies on it) */
	if (t == &m->in)
		for (size_t i = 0; i < m->n; i++)
			mbd_op_normalize(&m->ops[i]);
	if (l) {
		/* what this load gave, for the next load of the same bytes */
		l->h = h;
		l->len = size;
		memcpy(l->bytes, data, size);
		l->cfg = m->cfg;
		l->n = m->n;
		memcpy(l->ops, m->ops, m->n * sizeof(m->ops[0]));
	}
	return last;
}

/* Length of the encoding of the first k ops (naive or fallback form). */
static long plain_len(struct mbd_mutator *m, size_t k, uint8_t **bytes)
{
	struct mbd_trace t = { .cfg = m->cfg, .ops = m->ops, .n_ops = k };
	size_t len;

	if (mbd_bin_encode(&t, m->dec, bytes, &len))
		return -1;
	return (long)len;
}

/*
 * out[0..len) is the compact form of the config and the first k calls
 * (normalized: see load()): keep both, as mbd_bin_decode() gives them back.
 */
static void keep_last(struct mbd_mutator *m, const uint8_t *out, size_t len,
		      size_t k)
{
	m->last_len = 0;
	m->last_trace.cfg = m->cfg;
	if (mbd_trace_set_ops(&m->last_trace, m->ops, k))
		return; /* out of memory: the target decodes */
	memcpy(m->last, out, len);
	m->last_len = len;
}

/*
 * Encode m's trace into out: as many leading calls as fit in max bytes,
 * keeping the bytes of the input it came from (hint) for the calls they
 * still give. Returns the size, or 0 if not even one call (or the config)
 * fits.
 */
static size_t emit(struct mbd_mutator *m, uint8_t *out, size_t max,
		   const uint8_t *hint, size_t hint_len, bool hint_is_last)
{
	const struct mbd_bin_marks *hm = hint && hint_is_last ? m->marks[m->mk] : NULL;
	struct mbd_trace t = { .cfg = m->cfg, .ops = m->ops, .n_ops = m->n };
	size_t k = 0, len;
	long full = -1;
	uint8_t *bytes = NULL;

	for (size_t i = 0; i < m->n;)
		if (mbd_bin_op_fits(&m->ops[i], m->dec))
			i++;
		else
			delete_at(m, i);
	t.n_ops = m->n;
	/* the calls are normalized (load() and every mutation keep them so),
	   as this entry and keep_last() want; those past max bytes are not
	   encoded, they would be cut */
	if (m->dec == MBD_DECODER_STRUCTURED)
		full = mbd_bin_encode_compact_normal(&t, m->buf, sizeof(m->buf),
						     m->ends, hint, hint_len, max, &k,
						     hm, hm ? m->last_trace.ops : NULL,
						     m->marks[m->mk ^ 1]);
	if (full >= 0) {
		if (m->ends[k] > max)
			return 0; /* not even the config fits */
		len = m->ends[k];
		memcpy(out, m->buf, len);
	} else {
		/* the literal form, trimmed until it fits */
		long l = -1;

		for (k = m->n + 1; k-- > 0;) {
			free(bytes);
			bytes = NULL;
			l = plain_len(m, k, &bytes);
			if (l >= 0 && (size_t)l <= max)
				break;
		}
		if (l < 0 || (size_t)l > max) {
			free(bytes);
			return 0;
		}
		len = (size_t)l;
		memcpy(out, bytes, len);
		free(bytes);
	}
	if (k == 0 && m->n)
		return 0; /* only the config fits: no mutation worth running */
	if (full >= 0) {
		remember(m, out, len);
		keep_last(m, out, len, k);
		if (m->last_len)
			m->mk ^= 1; /* the marks of what is last now */
	}
	return len;
}

const struct mbd_trace *mbd_mutator_last(const struct mbd_mutator *m,
					 const uint8_t *data, size_t size)
{
	if (!m->last_len || size != m->last_len || memcmp(data, m->last, size) != 0)
		return NULL;
	return &m->last_trace;
}

size_t mbd_mutate(struct mbd_mutator *m, uint8_t *data, size_t size, size_t max,
		  uint64_t seed)
{
	struct mctx c = { .s = seed, .m = m };
	unsigned rounds = 1;
	uint64_t h = bytes_hash(data, size);
	bool known = made_here(m, h);
	bool last = load(m, data, size, h);

	if (below(&c, 3) == 0)
		rounds += 1 + below(&c, 3);
	for (unsigned i = 0; i < rounds; i++)
		mutate_once(&c);
	/* data is read as the hint before emit() writes it */
	return emit(m, data, max, known ? data : NULL, size, last);
}

size_t mbd_crossover(struct mbd_mutator *m, const uint8_t *a, size_t na,
		     const uint8_t *b, size_t nb, uint8_t *out, size_t max,
		     uint64_t seed)
{
	struct mctx c = { .s = seed, .m = m };
	struct mbd_op run[MAX_OPS];
	size_t from, len, at;
	uint64_t h;
	bool a_last;

	load(m, b, nb, bytes_hash(b, nb));
	if (!m->n)
		return 0;
	/* a run of b's calls, aimed at a position in a */
	from = below(&c, (uint32_t)m->n);
	len = 1 + below(&c, (uint32_t)(m->n - from));
	memcpy(run, &m->ops[from], len * sizeof(run[0]));
	h = bytes_hash(a, na);
	a_last = load(m, a, na, h);
	/* after at least one of a's calls, if a has any */
	at = m->n ? 1 + below(&c, (uint32_t)m->n) : 0;
	if (at > MAX_OPS - 1)
		at = MAX_OPS - 1;
	if (len > MAX_OPS - at)
		len = MAX_OPS - at;
	if (m->n + len > MAX_OPS)
		m->n = MAX_OPS - len; /* drops a's tail; at + len <= MAX_OPS */
	memmove(&m->ops[at + len], &m->ops[at], (m->n - at) * sizeof(m->ops[0]));
	memcpy(&m->ops[at], run, len * sizeof(run[0]));
	m->n += len;
	return emit(m, out, max, made_here(m, h) ? a : NULL, na, a_last);
}
