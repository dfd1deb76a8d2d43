// SPDX-License-Identifier: GPL-2.0
/*
 * Fake variants: a deliberately simple memblock model (no windows, no two
 * passes, no array doubling) with switchable bugs. Enough of the API to
 * drive the runner: add, add_node, remove, reserve, phys_free; every other
 * op returns 0 and changes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_variants.h"

#define FAKE_CAP 1024
#define FAKE_NID_ANY MBD_MAX_NUMNODES /* what memblock_add/reserve store */

enum fake_mode {
	FM_GOOD,
	FM_PAIR_BUG,
	FM_TOTAL_BUG,
	FM_PANIC_X,
	FM_PANIC_Y,
	FM_WARN,
	FM_CRASH,
};

struct fake_type {
	struct mbd_region r[FAKE_CAP];
	size_t cnt;
	uint64_t max;
	uint64_t total;
};

struct fake_model {
	enum fake_mode mode;
	struct fake_type mem, rsv;
	struct mbd_region tmp[2 * FAKE_CAP + 2];
	uint64_t warnings;
	struct mbd_op prev;
	bool have_prev;
};

static void type_reset(struct fake_type *t, uint32_t max)
{
	memset(t->r, 0, sizeof(t->r));
	t->cnt = 0;
	t->max = max ? max : 1;
	t->total = 0;
}

static void model_reset(struct fake_model *m, const struct mbd_config *cfg,
			enum fake_mode mode)
{
	m->mode = mode;
	type_reset(&m->mem, cfg->memory_max);
	type_reset(&m->rsv, cfg->reserved_max);
	m->warnings = 0;
	m->have_prev = false;
	memset(&m->prev, 0, sizeof(m->prev));
}

static uint64_t cap_size(uint64_t base, uint64_t size)
{
	return size > UINT64_MAX - base ? UINT64_MAX - base : size;
}

static bool mergeable(const struct mbd_region *a, const struct mbd_region *b)
{
	return a->base + a->size == b->base && a->flags == b->flags &&
	       a->nid == b->nid;
}

/* Copy m->tmp[0..n) back into t, merging touching equal neighbours. */
static bool commit(struct fake_model *m, struct fake_type *t, size_t n,
		   struct mbd_result *res)
{
	size_t out = 0;

	for (size_t i = 0; i < n; i++) {
		if (out && mergeable(&m->tmp[out - 1], &m->tmp[i]))
			m->tmp[out - 1].size += m->tmp[i].size;
		else
			m->tmp[out++] = m->tmp[i];
	}
	if (out > FAKE_CAP) {
		res->panicked = true;
		snprintf(res->panic_msg, sizeof(res->panic_msg),
			 "fake: region array full");
		return false;
	}
	memcpy(t->r, m->tmp, out * sizeof(*t->r));
	if (out < FAKE_CAP)
		memset(&t->r[out], 0, (FAKE_CAP - out) * sizeof(*t->r));
	t->cnt = out;
	t->total = 0;
	for (size_t i = 0; i < out; i++)
		t->total += t->r[i].size;
	while (t->max < t->cnt)
		t->max *= 2;
	return true;
}

/* Insert the parts of [base, base + size) not yet covered. */
static void add_range(struct fake_model *m, struct fake_type *t, uint64_t base,
		      uint64_t size, int32_t nid, uint32_t flags,
		      struct mbd_result *res)
{
	uint64_t end, cur = base;
	size_t n = 0;

	size = cap_size(base, size);
	if (!size)
		return;
	end = base + size;
	for (size_t i = 0; i < t->cnt; i++) {
		const struct mbd_region *r = &t->r[i];
		uint64_t rend = r->base + r->size;

		/* the uncovered gap in front of r, then skip what r covers */
		if (cur < end && r->base > cur) {
			uint64_t stop = r->base < end ? r->base : end;

			m->tmp[n++] = (struct mbd_region){ cur, stop - cur, flags, nid };
			cur = stop;
		}
		if (rend > cur)
			cur = rend < end ? rend : end;
		m->tmp[n++] = *r;
	}
	if (cur < end)
		m->tmp[n++] = (struct mbd_region){ cur, end - cur, flags, nid };
	commit(m, t, n, res);
}

/* Drop [base, base + size), splitting regions that straddle it. */
static void remove_range(struct fake_model *m, struct fake_type *t,
			 uint64_t base, uint64_t size, struct mbd_result *res)
{
	uint64_t end;
	size_t n = 0;

	size = cap_size(base, size);
	if (!size)
		return;
	end = base + size;
	for (size_t i = 0; i < t->cnt; i++) {
		const struct mbd_region *r = &t->r[i];
		uint64_t rend = r->base + r->size;

		if (rend <= base || r->base >= end) {
			m->tmp[n++] = *r;
			continue;
		}
		if (r->base < base)
			m->tmp[n++] = (struct mbd_region){ r->base, base - r->base,
							   r->flags, r->nid };
		if (rend > end)
			m->tmp[n++] = (struct mbd_region){ end, rend - end,
							   r->flags, r->nid };
	}
	commit(m, t, n, res);
}

static void model_apply(struct fake_model *m, const struct mbd_op *op,
			struct mbd_result *res)
{
	bool after_reserve = m->have_prev && m->prev.kind == MBD_OP_RESERVE &&
			     m->prev.base == op->base;

	res->ret = 0;
	res->panicked = false;
	res->panic_msg[0] = '\0';
	switch (op->kind) {
	case MBD_OP_ADD:
		if (op->size == MBD_FAKE_PANIC_SIZE &&
		    (m->mode == FM_PANIC_X || m->mode == FM_PANIC_Y)) {
			res->panicked = true;
			snprintf(res->panic_msg, sizeof(res->panic_msg),
				 "%s", m->mode == FM_PANIC_X ?
				 "kernel BUG in fake_add: x" :
				 "fake: cannot resize y");
			break;
		}
		if (op->size == MBD_FAKE_WARN_SIZE && m->mode == FM_WARN)
			m->warnings++;
		add_range(m, &m->mem, op->base, op->size, FAKE_NID_ANY, 0, res);
		break;
	case MBD_OP_ADD_NODE:
		add_range(m, &m->mem, op->base, op->size, op->nid, op->flags, res);
		break;
	case MBD_OP_REMOVE: {
		uint64_t total = m->mem.total;

		if (after_reserve && m->mode == FM_CRASH)
			abort();
		remove_range(m, &m->mem, op->base, op->size, res);
		if (m->mode == FM_TOTAL_BUG)
			m->mem.total = total;
		break;
	}
	case MBD_OP_RESERVE:
		add_range(m, &m->rsv, op->base, op->size, FAKE_NID_ANY, 0, res);
		break;
	case MBD_OP_PHYS_FREE:
		if (after_reserve && m->mode == FM_PAIR_BUG)
			break;
		remove_range(m, &m->rsv, op->base, op->size, res);
		break;
	default:
		break;
	}
	m->prev = *op;
	m->have_prev = true;
}

static void type_snapshot(const struct fake_type *t, struct mbd_type_state *o)
{
	o->cnt = t->cnt;
	o->max = t->max;
	o->total_size = t->total;
	o->regions_pa = 0;
	o->regions_static = true;
	o->regions_slab = false;
	if (mbd_type_state_reserve(o, t->cnt) != 0) {
		o->n_copied = o->cap;
	} else {
		o->n_copied = t->cnt;
	}
	if (o->n_copied)
		memcpy(o->regions, t->r, o->n_copied * sizeof(*o->regions));
}

static void model_snapshot(const struct fake_model *m, struct mbd_state *out)
{
	type_snapshot(&m->mem, &out->memory);
	type_snapshot(&m->rsv, &out->reserved);
	out->warnings = m->warnings;
}

/* One set of globals per fake, like one object per real variant. */
#define FAKE_VARIANT(id, name, kind, mode, summary)			\
	static struct fake_model id##_model;				\
	static void id##_reset(const struct mbd_config *cfg, int verbose) \
	{								\
		(void)verbose;						\
		model_reset(&id##_model, cfg, mode);			\
	}								\
	static void id##_apply(const struct mbd_op *op, struct mbd_result *res) \
	{								\
		model_apply(&id##_model, op, res);			\
	}								\
	static void id##_snapshot(struct mbd_state *out)		\
	{								\
		model_snapshot(&id##_model, out);			\
	}								\
	static struct mbd_state id##_scratch;				\
	static bool id##_same_as(const struct mbd_state *s)		\
	{								\
		model_snapshot(&id##_model, &id##_scratch);		\
		return mbd_state_equal(&id##_scratch, s);		\
	}								\
	const struct mbd_variant mbd_fake_##id = {			\
		name, kind, summary, id##_reset, id##_apply, id##_snapshot, \
		id##_same_as, "v6.12",					\
		MBD_KVER(6, 12),	/* reserves as v6.12 did */	\
		NULL, NULL, NULL, NULL	/* no coverage counters */	\
	}

FAKE_VARIANT(good, "fake-good", MBD_KIND_REFERENCE, FM_GOOD,
	     "correct toy model");
FAKE_VARIANT(good2, "fake-good2", MBD_KIND_PATCH, FM_GOOD,
	     "second instance of the correct toy model");
FAKE_VARIANT(pair_bug, "fake-pair-bug", MBD_KIND_MUTANT, FM_PAIR_BUG,
	     "phys_free right after reserve at the same base is ignored");
FAKE_VARIANT(total_bug, "fake-total-bug", MBD_KIND_MUTANT, FM_TOTAL_BUG,
	     "remove leaves memory.total_size unchanged");
FAKE_VARIANT(panic_x, "fake-panic-x", MBD_KIND_MUTANT, FM_PANIC_X,
	     "panics \"kernel BUG in fake_add: x\" on add of 0x7000 bytes");
FAKE_VARIANT(panic_x2, "fake-panic-x2", MBD_KIND_MUTANT, FM_PANIC_X,
	     "second instance of fake-panic-x");
FAKE_VARIANT(panic_y, "fake-panic-y", MBD_KIND_MUTANT, FM_PANIC_Y,
	     "panics \"fake: cannot resize y\" (a designed panic) on add of 0x7000 bytes");
FAKE_VARIANT(warn, "fake-warn", MBD_KIND_MUTANT, FM_WARN,
	     "WARN_ON on add of 0x3000 bytes");
FAKE_VARIANT(crash, "fake-crash", MBD_KIND_MUTANT, FM_CRASH,
	     "abort() on remove at the base of the reserve just before");

/*
 * Tests link variant.c, which refers to the build's registry. When the real
 * generated registry is linked in it wins; otherwise this weak one does.
 */
__attribute__((weak)) const struct mbd_variant *const mbd_variants[] = {
	&mbd_fake_good, &mbd_fake_good2, &mbd_fake_pair_bug, &mbd_fake_total_bug,
	&mbd_fake_panic_x, &mbd_fake_panic_x2, &mbd_fake_panic_y, &mbd_fake_warn,
	&mbd_fake_crash, NULL,
};
__attribute__((weak)) const struct mbd_variant *const mbd_variants_uncounted[] = {
	NULL,
};
