// SPDX-License-Identifier: GPL-2.0
/*
 * Test-case minimization: truncate after the diverging op, delta-debug the
 * op list, replace address values everywhere they occur (so coupled
 * endpoints move together), then simplify operands and the config one field
 * at a time; repeat until nothing changes. A change is kept only if the
 * candidate still has the target verdict key, and a value only ever moves to
 * a strictly "simpler" one (fewer non-zero hex digits, then smaller). With fork_each every candidate runs in a child process (probe.c), so
 * inputs that crash the process (sanitizers, signals) can be minimized too.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_minimize.h"
#include "mbd_probe.h"

#define KEY_MAX 256
#define MAX_ENDPOINTS 64
#define MAX_CANDS 128
/* Value substitution can trade a simpler end for a longer size, so the
 * fixpoint is also bounded by rounds, not only by max_runs. */
#define MAX_ROUNDS 64

struct mm {
	struct mbd_runner *r;
	const char *key;
	const struct mbd_minimize_opts *o;
	unsigned long runs;
	bool exhausted;
	struct mbd_trace cur;  /* smallest reproducer so far */
	struct mbd_trace cand; /* candidate being tried */
	char kbuf[KEY_MAX];
};

void mbd_minimize_opts_default(struct mbd_minimize_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->fork_each = false;
	o->max_runs = 20000;
	o->verbose = 0;
}

/*
 * Try m->cand. On success it becomes m->cur, cut after the diverging op when
 * that is known. Returns true if kept.
 */
static bool try_cand(struct mm *m)
{
	size_t ops_run;

	if (m->runs >= m->o->max_runs) {
		m->exhausted = true;
		return false;
	}
	m->runs++;
	mbd_probe_key(m->r, &m->cand, m->o->fork_each, m->o->verbose,
		      m->kbuf, sizeof(m->kbuf), &ops_run);
	if (strcmp(m->kbuf, m->key) != 0)
		return false;
	if (ops_run && ops_run < m->cand.n_ops)
		m->cand.n_ops = ops_run;
	if (mbd_trace_copy(&m->cur, &m->cand) != 0)
		return false;
	return true;
}

/* m->cand = m->cur without ops [from, from + len). */
static int cand_without(struct mm *m, size_t from, size_t len)
{
	struct mbd_trace *c = &m->cand;

	if (mbd_trace_copy(c, &m->cur) != 0)
		return -1;
	memmove(&c->ops[from], &c->ops[from + len],
		(c->n_ops - from - len) * sizeof(*c->ops));
	memmove(&c->lines[from], &c->lines[from + len],
		(c->n_ops - from - len) * sizeof(*c->lines));
	c->n_ops -= len;
	return 0;
}

/* Remove chunks of ops, halving the chunk size down to one op. */
static bool ddmin(struct mm *m)
{
	bool changed = false;
	size_t chunk = m->cur.n_ops / 2;

	if (chunk == 0)
		chunk = 1;
	for (;;) {
		size_t i = 0;

		while (i < m->cur.n_ops && m->cur.n_ops > 1 && !m->exhausted) {
			size_t len = chunk;

			if (len > m->cur.n_ops - i)
				len = m->cur.n_ops - i;
			if (len == m->cur.n_ops)
				len = m->cur.n_ops - 1;
			if (len == 0 || cand_without(m, i, len) != 0)
				break;
			if (try_cand(m))
				changed = true; /* ops shifted down: retry at i */
			else
				i += len;
		}
		if (chunk == 1 || m->exhausted)
			break;
		chunk /= 2;
	}
	return changed;
}

static unsigned nz_nibbles(uint64_t x)
{
	unsigned n = 0;

	for (; x; x >>= 4)
		n += (x & 0xf) != 0;
	return n;
}

enum field_kind {
	FK_ADDR,  /* base, start: 0 and earlier endpoints are simple */
	FK_SIZE,
	FK_LIMIT, /* end, current_limit: ANYWHERE and ACCESSIBLE are simplest */
	FK_ALIGN, /* 0x1000 is the only simplification */
	FK_FLAGS,
};

/* Rank, then nibbles, then value: a strict well-founded order per field. */
static bool simpler(enum field_kind fk, uint64_t a, uint64_t b)
{
	unsigned ra = 0, rb = 0, na, nb;

	switch (fk) {
	case FK_LIMIT:
		ra = a == MBD_ALLOC_ANYWHERE ? 0 : a == MBD_ALLOC_ACCESSIBLE ? 1 : 2;
		rb = b == MBD_ALLOC_ANYWHERE ? 0 : b == MBD_ALLOC_ACCESSIBLE ? 1 : 2;
		break;
	case FK_ALIGN:
		return a == MBD_PAGE_SIZE && b != MBD_PAGE_SIZE;
	case FK_FLAGS:
		if (__builtin_popcountll(a) != __builtin_popcountll(b))
			return __builtin_popcountll(a) < __builtin_popcountll(b);
		return a < b;
	default:
		break;
	}
	if (ra != rb)
		return ra < rb;
	na = nz_nibbles(a);
	nb = nz_nibbles(b);
	if (na != nb)
		return na < nb;
	return a < b;
}

struct cands {
	uint64_t v[MAX_CANDS];
	size_t n;
};

static void cand_add(struct cands *c, enum field_kind fk, uint64_t cur,
		     uint64_t x)
{
	if (!simpler(fk, x, cur) || c->n == MAX_CANDS)
		return;
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i] == x)
			return;
	c->v[c->n++] = x;
}

static void cands_sort(struct cands *c, enum field_kind fk)
{
	/* Insertion sort: at most MAX_CANDS values, simplest first. */
	for (size_t i = 1; i < c->n; i++) {
		uint64_t x = c->v[i];
		size_t j = i;

		for (; j > 0 && simpler(fk, x, c->v[j - 1]); j--)
			c->v[j] = c->v[j - 1];
		c->v[j] = x;
	}
}

/* Endpoints the trace already uses: reusing one makes ranges touch. */
static size_t endpoints(const struct mbd_trace *t, uint64_t *e, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n_ops && n + 2 <= max; i++) {
		const struct mbd_op *op = &t->ops[i];

		if (op->kind >= MBD_OP__COUNT)
			continue;
		switch (mbd_op_table[op->kind].shape) {
		case MBD_SHAPE_RANGE:
		case MBD_SHAPE_RANGE_NODE:
		case MBD_SHAPE_RANGE_NID:
		case MBD_SHAPE_SET_NODE:
			e[n++] = op->base;
			e[n++] = op->base + op->size;
			break;
		case MBD_SHAPE_ALLOC_RANGE:
			e[n++] = op->start;
			e[n++] = op->end;
			break;
		default:
			break;
		}
	}
	return n;
}

static void gen_cands(const struct mm *m, enum field_kind fk, uint64_t y,
		      struct cands *c)
{
	uint64_t ep[MAX_ENDPOINTS];
	size_t nep;

	c->n = 0;
	switch (fk) {
	case FK_ALIGN:
		cand_add(c, fk, y, MBD_PAGE_SIZE);
		return;
	case FK_FLAGS:
		cand_add(c, fk, y, 0);
		for (unsigned b = 0; b < 32; b++)
			if (y & (1ull << b))
				cand_add(c, fk, y, y & ~(1ull << b));
		return;
	case FK_LIMIT:
		cand_add(c, fk, y, MBD_ALLOC_ANYWHERE);
		cand_add(c, fk, y, MBD_ALLOC_ACCESSIBLE);
		break;
	default:
		break;
	}
	cand_add(c, fk, y, 0);
	cand_add(c, fk, y, MBD_PAGE_SIZE);
	/* Keep the top digits: rounds down to pages, MiBs, GiBs, ... */
	for (unsigned d = 1; d < 16; d++) {
		uint64_t mask = (1ull << (4 * d)) - 1;

		cand_add(c, fk, y, y & ~mask);
		if ((y & ~mask) + mask + 1 > (y & ~mask))
			cand_add(c, fk, y, (y & ~mask) + mask + 1);
	}
	if (y) {
		uint64_t hi = 1ull << (63 - __builtin_clzll(y));

		cand_add(c, fk, y, hi);
		if (hi << 1)
			cand_add(c, fk, y, hi << 1);
		for (uint64_t p = hi >> 1; p >= MBD_PAGE_SIZE; p >>= 1)
			cand_add(c, fk, y, p);
	}
	if (fk != FK_SIZE) {
		nep = endpoints(&m->cur, ep, MAX_ENDPOINTS);
		for (size_t i = 0; i < nep; i++)
			cand_add(c, fk, y, ep[i]);
	}
	cands_sort(c, fk);
}

/* The operands an op can carry, by shape. */
enum field_id {
	F_BASE, F_SIZE, F_NID, F_FLAGS, F_ALIGN, F_START, F_END, F_VALUE,
	F__COUNT
};

static bool field_of(const struct mbd_op *op, enum field_id f,
		     enum field_kind *fk)
{
	enum mbd_op_shape sh;

	if (op->kind >= MBD_OP__COUNT)
		return false;
	sh = mbd_op_table[op->kind].shape;
	switch (f) {
	case F_BASE:
		*fk = FK_ADDR;
		return mbd_shape_is_range(sh);
	case F_SIZE:
		*fk = FK_SIZE;
		return sh != MBD_SHAPE_VALUE && sh != MBD_SHAPE_NONE;
	case F_NID:
	case F_FLAGS:
		*fk = FK_FLAGS;
		if (f == F_NID)
			return sh == MBD_SHAPE_RANGE_NODE || sh == MBD_SHAPE_SET_NODE ||
			       sh == MBD_SHAPE_ALLOC_NID || sh == MBD_SHAPE_RANGE_NID;
		return sh == MBD_SHAPE_RANGE_NODE;
	case F_ALIGN:
		*fk = FK_ALIGN;
		return sh == MBD_SHAPE_ALLOC_RANGE || sh == MBD_SHAPE_ALLOC_NID;
	case F_START:
		*fk = FK_ADDR;
		return sh == MBD_SHAPE_ALLOC_RANGE;
	case F_END:
		*fk = FK_LIMIT;
		return sh == MBD_SHAPE_ALLOC_RANGE;
	case F_VALUE:
		if (op->kind == MBD_OP_SET_LIMIT)
			*fk = FK_LIMIT;
		else if (op->kind == MBD_OP_TRIM)
			*fk = FK_ALIGN;
		else
			return false; /* bottom-up 0/1: ddmin's job */
		return true;
	default:
		return false;
	}
}

static uint64_t field_get(const struct mbd_op *op, enum field_id f)
{
	switch (f) {
	case F_BASE: return op->base;
	case F_SIZE: return op->size;
	case F_NID: return (uint64_t)(uint32_t)op->nid;
	case F_FLAGS: return op->flags;
	case F_ALIGN: return op->align;
	case F_START: return op->start;
	case F_END: return op->end;
	case F_VALUE: return op->value;
	default: return 0;
	}
}

static void field_set(struct mbd_op *op, enum field_id f, uint64_t x)
{
	switch (f) {
	case F_BASE: op->base = x; break;
	case F_SIZE: op->size = x; break;
	case F_NID: op->nid = (int32_t)(uint32_t)x; break;
	case F_FLAGS: op->flags = (uint32_t)x; break;
	case F_ALIGN: op->align = x; break;
	case F_START: op->start = x; break;
	case F_END: op->end = x; break;
	case F_VALUE: op->value = x; break;
	default: break;
	}
}

static bool shrink_field(struct mm *m, size_t i, enum field_id f)
{
	struct cands c;
	enum field_kind fk;
	uint64_t y;

	if (i >= m->cur.n_ops || !field_of(&m->cur.ops[i], f, &fk))
		return false;
	y = field_get(&m->cur.ops[i], f);
	if (f == F_NID) {
		/* nid: only towards node 0 */
		c.n = 0;
		if (y != 0)
			c.v[c.n++] = 0;
	} else {
		gen_cands(m, fk, y, &c);
	}
	for (size_t k = 0; k < c.n && !m->exhausted; k++) {
		if (mbd_trace_copy(&m->cand, &m->cur) != 0)
			return false;
		field_set(&m->cand.ops[i], f, c.v[k]);
		if (try_cand(m))
			return true;
	}
	return false;
}

static bool shrink_ops(struct mm *m)
{
	bool changed = false;

	for (size_t i = 0; i < m->cur.n_ops && !m->exhausted; i++)
		for (int f = 0; f < F__COUNT && !m->exhausted; f++)
			if (shrink_field(m, i, (enum field_id)f))
				changed = true;
	return changed;
}

/*
 * Address values are often coupled (a free at the base of the reserve just
 * before, a range touching another one), so changing one field alone rarely
 * survives. Replace one value everywhere it appears as a base, an exclusive
 * end (base + size), an alloc start or end; sizes follow so ends stay put.
 */
static int subst_op(struct mbd_op *op, uint64_t x, uint64_t y)
{
	uint64_t b, e, nb, ne;

	if (op->kind >= MBD_OP__COUNT)
		return 0;
	switch (mbd_op_table[op->kind].shape) {
	case MBD_SHAPE_RANGE:
	case MBD_SHAPE_RANGE_NODE:
	case MBD_SHAPE_RANGE_NID:
	case MBD_SHAPE_SET_NODE:
		b = op->base;
		e = b + op->size;
		if (op->size == 0 || e < b) { /* no end to keep */
			if (b == x)
				op->base = y;
			return 0;
		}
		nb = b == x ? y : b;
		ne = e == x ? y : e;
		if (ne <= nb)
			return -1; /* would turn the range inside out */
		op->base = nb;
		op->size = ne - nb;
		return 0;
	case MBD_SHAPE_ALLOC_RANGE:
		if (op->start == x)
			op->start = y;
		if (op->end == x && op->end != MBD_ALLOC_ANYWHERE)
			op->end = y;
		return 0;
	default:
		return 0;
	}
}

/* Distinct address values in order of first appearance. */
static size_t collect_values(const struct mbd_trace *t, uint64_t *v, size_t max)
{
	uint64_t ep[2 * MAX_ENDPOINTS];
	size_t n = 0, nep = endpoints(t, ep, 2 * MAX_ENDPOINTS);

	for (size_t i = 0; i < nep && n < max; i++) {
		bool seen = ep[i] == MBD_ALLOC_ANYWHERE;

		for (size_t j = 0; j < n && !seen; j++)
			seen = v[j] == ep[i];
		if (!seen)
			v[n++] = ep[i];
	}
	return n;
}

static bool shrink_values(struct mm *m)
{
	uint64_t vals[2 * MAX_ENDPOINTS];
	bool changed = false;
	struct cands c;

	for (size_t idx = 0; !m->exhausted; idx++) {
		size_t nv = collect_values(&m->cur, vals, 2 * MAX_ENDPOINTS);
		uint64_t x;

		if (idx >= nv)
			break;
		x = vals[idx];
		gen_cands(m, FK_ADDR, x, &c);
		for (size_t k = 0; k < c.n && !m->exhausted; k++) {
			bool bad = false;

			if (mbd_trace_copy(&m->cand, &m->cur) != 0)
				return changed;
			for (size_t i = 0; i < m->cand.n_ops && !bad; i++)
				bad = subst_op(&m->cand.ops[i], x, c.v[k]) != 0;
			if (bad)
				continue;
			if (try_cand(m)) {
				changed = true;
				break;
			}
		}
	}
	return changed;
}

/* Try config change number which; keep it if the key survives. */
static bool try_config(struct mm *m, int which)
{
	struct mbd_config *c;

	if (m->exhausted || mbd_trace_copy(&m->cand, &m->cur) != 0)
		return false;
	c = &m->cand.cfg;
	switch (which) {
	case 0:
		if (c->memory_max == MBD_INIT_REGIONS)
			return false;
		c->memory_max = MBD_INIT_REGIONS;
		break;
	case 1:
		if (c->reserved_max == MBD_INIT_REGIONS)
			return false;
		c->reserved_max = MBD_INIT_REGIONS;
		break;
	case 2:
		if (!c->resize)
			return false;
		c->resize = false;
		break;
	case 3:
		if (!c->slab)
			return false;
		c->slab = false;
		break;
	case 4:
		if (!c->bottom_up)
			return false;
		c->bottom_up = false;
		break;
	case 5:
		if (!c->mirror)
			return false;
		c->mirror = false;
		break;
	case 6:
		if (!c->movable)
			return false;
		c->movable = false;
		break;
	case 7:
		if (c->limit == MBD_ALLOC_ANYWHERE)
			return false;
		c->limit = MBD_ALLOC_ANYWHERE;
		break;
	default:
		return false;
	}
	return try_cand(m);
}

static bool shrink_config(struct mm *m)
{
	bool changed = false;

	for (int k = 0; k < 8; k++)
		if (try_config(m, k))
			changed = true;
	return changed;
}

long mbd_minimize(struct mbd_runner *r, const struct mbd_trace *in,
		  const char *target_key, const struct mbd_minimize_opts *o,
		  struct mbd_trace *out)
{
	struct mbd_minimize_opts defo;
	struct mm m;
	long ret = -1;

	if (!o) {
		mbd_minimize_opts_default(&defo);
		o = &defo;
	}
	memset(&m, 0, sizeof(m));
	m.r = r;
	m.key = target_key;
	m.o = o;
	mbd_trace_init(&m.cur);
	mbd_trace_init(&m.cand);
	if (!target_key || !target_key[0] || o->max_runs == 0)
		goto done;
	if (mbd_trace_copy(&m.cand, in) != 0)
		goto done;
	/* Step 1: the input must reproduce; try_cand also truncates it. */
	if (!try_cand(&m))
		goto done;
	for (unsigned round = 0; round < MAX_ROUNDS; round++) {
		bool changed = false;

		changed |= ddmin(&m);
		changed |= shrink_values(&m);
		changed |= shrink_ops(&m);
		changed |= shrink_config(&m);
		if (o->verbose)
			fprintf(stderr, "mbdiff: minimize: %zu ops after %lu runs\n",
				m.cur.n_ops, m.runs);
		if (!changed || m.exhausted)
			break;
	}
	if (mbd_trace_copy(out, &m.cur) == 0)
		ret = (long)m.runs;
done:
	mbd_trace_free(&m.cur);
	mbd_trace_free(&m.cand);
	return ret;
}
