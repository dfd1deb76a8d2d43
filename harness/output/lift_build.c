// SPDX-License-Identifier: GPL-2.0
/*
 * One lift candidate (mbd_lift.h): the reproducer's calls, addresses times
 * a scale, on boot-sized arrays, with filler calls before each call that
 * give every array the free slots it had in the reproducer.
 *
 * The fillers live in three zones from the first GiB boundary a GiB above
 * everything the reproducer touches, or from 0 with the reproducer moved
 * up past them (then its regions keep the last slots of each array, as in
 * the reproducer, which a bug at the array's end needs): a staging bank (ordinary memory that
 * takes the arrays doubled while pre-growing, then reserved whole), no-map
 * memory banks (memblock never allocates from no-map memory, so they take
 * slots and change no placement) and 4 KiB reservations outside memory
 * (slots, no placement either), as firmware banks and /memreserve/ entries
 * would be. None touches another, so none merges.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lift_int.h"

#define KIB (1ull << 10)
#define MIB (1ull << 20)
#define GIB (1ull << 30)
#define STAGE_SIZE (256 * MIB)
#define MEM_STRIDE (4 * MIB)
#define MEM_SIZE (2 * MIB)
#define MEM_ZONE (4 * GIB)
#define RES_STRIDE (64 * KIB)
#define RES_SIZE (4 * KIB)
#define RES_ZONE (4 * GIB)
/* the zones end this far above the reproducer's first GiB boundary */
#define ZONES_END (GIB + GIB + MEM_ZONE + GIB + RES_ZONE)
/* with the fillers below the reproducer: where its address 0 goes */
#define BELOW_OFF (16 * GIB)
/* enough for any array the reproducer can need (1024 boot slots, doubled) */
#define ADJUST_STEPS 70000u

struct build {
	const struct mbd_variant *v;
	struct mbd_trace *out;
	struct mbd_state st;
	uint64_t stage, zone[2];
	size_t live[2];          /* fillers in place: memory, reserved */
	size_t *n_fillers;
	bool staged, stopped;    /* stopped: the variant panicked */
};

static const struct mbd_type_state *type_of(const struct build *b, int t)
{
	return t ? &b->st.reserved : &b->st.memory;
}

static uint64_t free_slots(const struct mbd_type_state *ts)
{
	return ts->max > ts->cnt ? ts->max - ts->cnt : 0;
}

/* How the reproducer's addresses move: times s, and with the fillers below
 * them (below) up by BELOW_OFF. */
struct lmap {
	unsigned s;
	bool below;
};

/*
 * With the fillers above, 0 and 1 keep their meaning everywhere: as an
 * end MEMBLOCK_ALLOC_ACCESSIBLE and MEMBLOCK_ALLOC_NOLEAKTRACE, as a start
 * what memblock_double_array()'s "below" search turns into them. With the
 * fillers below, only a bound (an allocation's range, the limit) keeps
 * them; every address moves up past the fillers. MEMBLOCK_ALLOC_ANYWHERE
 * always stays.
 */
static bool map_addr(uint64_t x, const struct lmap *m, bool bound, uint64_t *y)
{
	if (x == MBD_ALLOC_ANYWHERE || (x < 2 && (bound || !m->below))) {
		*y = x;
		return true;
	}
	if (x > (UINT64_MAX - (m->below ? BELOW_OFF : 0)) / m->s)
		return false;
	*y = x * m->s + (m->below ? BELOW_OFF : 0);
	return true;
}

static bool map_size(uint64_t x, unsigned s, uint64_t *y)
{
	if (x > UINT64_MAX / s)
		return false;
	*y = x * s;
	return true;
}

static void raise_top(uint64_t *top, uint64_t x)
{
	if (x != MBD_ALLOC_ANYWHERE && x > *top)
		*top = x;
}

/* in mapped by m into o; false when it does not fit in 64 bits */
static bool map_op(const struct mbd_op *in, const struct lmap *m,
		   struct mbd_op *o, uint64_t *top)
{
	unsigned s = m->s;

	enum mbd_op_shape shape = mbd_op_table[in->kind].shape;

	*o = *in;
	if (mbd_shape_is_range(shape)) {
		uint64_t end = in->base + in->size, b, e;

		if (!in->size)
			return map_addr(in->base, m, false, &o->base);
		if (end < in->base)  /* wraps: only the identity keeps it */
			return s == 1 && !m->below;
		if (!map_addr(in->base, m, false, &b) || !map_addr(end, m, false, &e))
			return false;
		o->base = b;
		o->size = e - b;
		raise_top(top, e - 1);
		return true;
	}
	switch (shape) {
	case MBD_SHAPE_ALLOC_RANGE:
		if (!map_addr(in->start, m, true, &o->start) ||
		    !map_addr(in->end, m, true, &o->end))
			return false;
		raise_top(top, o->start);
		raise_top(top, o->end);
		return map_size(in->size, s, &o->size) && map_size(in->align, s, &o->align);
	case MBD_SHAPE_ALLOC_NID:
		return map_size(in->size, s, &o->size) && map_size(in->align, s, &o->align);
	case MBD_SHAPE_VALUE:
		if (in->kind == MBD_OP_SET_LIMIT) {
			if (!map_addr(in->value, m, true, &o->value))
				return false;
			raise_top(top, o->value);
			return true;
		}
		return in->kind != MBD_OP_TRIM || map_size(in->value, s, &o->value);
	default:
		return true;
	}
}

static int push(struct build *b, const struct mbd_op *op, bool filler)
{
	struct mbd_result r;

	if (mbd_trace_push(b->out, op, 0))
		return -1;
	if (filler)
		(*b->n_fillers)++;
	if (b->stopped)
		return 0;
	memset(&r, 0, sizeof(r));
	b->v->apply(op, &r);
	b->stopped = r.panicked;
	b->v->snapshot(&b->st);
	return 0;
}

static void filler_op(const struct build *b, int t, size_t i, bool remove,
		      struct mbd_op *op)
{
	memset(op, 0, sizeof(*op));
	if (t == 0) {
		op->kind = remove ? MBD_OP_REMOVE : MBD_OP_ADD_NODE;
		op->base = b->zone[0] + i * MEM_STRIDE;
		op->size = MEM_SIZE;
		op->flags = remove ? 0 : MBD_FLAG_NOMAP;
	} else {
		op->kind = remove ? MBD_OP_PHYS_FREE : MBD_OP_RESERVE;
		op->base = b->zone[1] + i * RES_STRIDE;
		op->size = RES_SIZE;
	}
	mbd_op_normalize(op);
}

static size_t filler_cap(int t)
{
	return t ? RES_ZONE / RES_STRIDE : MEM_ZONE / MEM_STRIDE;
}

/* add or take fillers of array t until it has tgt free slots, as far as
 * that can be done without growing it */
static int adjust(struct build *b, int t, uint64_t tgt)
{
	for (unsigned step = 0; step < ADJUST_STEPS && !b->stopped; step++) {
		uint64_t cur = free_slots(type_of(b, t));
		bool add = cur > tgt;
		struct mbd_op op;

		if (cur == tgt)
			break;
		/* a removal isolates its range: it needs two free slots */
		if (add ? b->live[t] >= filler_cap(t) : (cur < 2 || !b->live[t]))
			break;
		if (add)
			filler_op(b, t, b->live[t]++, false, &op);
		else
			filler_op(b, t, --b->live[t], true, &op);
		if (push(b, &op, true))
			return -1;
		if (free_slots(type_of(b, t)) == cur)
			break;  /* the variant did not take it: stop here */
	}
	return 0;
}

/* reserve what is still free of the staging bank, so that nothing the
 * reproducer allocates goes there */
static int seal(struct build *b)
{
	/* a reservation may double reserved into the bank: look again */
	for (int round = 0; round < 8 && !b->stopped; round++) {
		const struct mbd_type_state *r = &b->st.reserved;
		uint64_t at = b->stage, end = b->stage + STAGE_SIZE;
		uint64_t gap_base = 0, gap_size = 0;

		for (size_t i = 0; i < r->n_copied && at < end; i++) {
			uint64_t rb = r->regions[i].base;
			uint64_t re = rb + r->regions[i].size;

			if (re <= at)
				continue;
			if (rb > at) {
				gap_base = at;
				gap_size = (rb < end ? rb : end) - at;
				break;
			}
			at = re;
		}
		if (!gap_size && at < end) {
			gap_base = at;
			gap_size = end - at;
		}
		if (!gap_size)
			return 0;
		{
			struct mbd_op op;

			memset(&op, 0, sizeof(op));
			op.kind = MBD_OP_RESERVE;
			op.base = gap_base;
			op.size = gap_size;
			mbd_op_normalize(&op);
			if (push(b, &op, true))
				return -1;
		}
	}
	return 0;
}

/* array t out of its static boot array, as the reproducer's is when one
 * call doubles it twice: fill it until it doubles, its new array taken
 * from the staging bank. Done before the first call, while both arrays
 * have room: adding the bank to a full memory array would double it,
 * into the reproducer's own memory */
static int pre_grow(struct build *b, int t)
{
	if (!type_of(b, t)->regions_static)
		return 0;
	if (!b->staged) {
		struct mbd_op op;

		memset(&op, 0, sizeof(op));
		op.kind = MBD_OP_ADD;
		op.base = b->stage;
		op.size = STAGE_SIZE;
		mbd_op_normalize(&op);
		if (push(b, &op, true))
			return -1;
		b->staged = true;
	}
	while (!b->stopped && type_of(b, t)->regions_static &&
	       b->live[t] < filler_cap(t)) {
		uint64_t cnt = type_of(b, t)->cnt;
		struct mbd_op op;

		filler_op(b, t, b->live[t]++, false, &op);
		if (push(b, &op, true))
			return -1;
		if (type_of(b, t)->cnt == cnt)
			break;  /* full and cannot grow (resize off) */
	}
	return seal(b);
}

int mbd_lift_build(const struct mbd_variant *v, const struct mbd_trace *t,
		   const struct mbd_lift_profile *p, unsigned s, bool below,
		   const struct mbd_lift_opts *o, struct mbd_trace *out,
		   size_t *n_fillers, char *why, size_t why_len)
{
	struct build b = { .v = v, .out = out, .n_fillers = n_fillers };
	const struct lmap m = { .s = s, .below = below };
	uint64_t top = 0, first;
	struct mbd_op op;
	int rc = 0;

	*n_fillers = 0;
	mbd_trace_clear(out);
	out->cfg = t->cfg;
	out->cfg.memory_max = o->memory_slots;
	out->cfg.reserved_max = o->reserved_slots;
	if (!map_addr(t->cfg.limit, &m, true, &out->cfg.limit))
		goto overflow;
	raise_top(&top, out->cfg.limit);
	for (size_t k = 0; k < p->n; k++)
		if (!map_op(&t->ops[k], &m, &op, &top))
			goto overflow;
	if (!below && top > UINT64_MAX - 2 * GIB - ZONES_END) {
		snprintf(why, why_len, "the reproducer's addresses reach within %llu GiB of "
			 "the top of the address space: no room for filler regions",
			 (unsigned long long)(ZONES_END / GIB + 2));
		return 1;
	}
	/* below: the zones from 0, the reproducer from BELOW_OFF on */
	first = below ? 0 : (top + GIB) & ~(GIB - 1);
	b.stage = first + GIB;
	b.zone[0] = b.stage + GIB;
	b.zone[1] = b.zone[0] + MEM_ZONE + GIB;
	mbd_state_init(&b.st);
	v->reset(&out->cfg, 0);
	v->snapshot(&b.st);
	for (int ty = 0; ty < 2 && !rc; ty++)
		for (size_t k = 0; k < p->n && !rc; k++)
			if (p->steps[k].doublings[ty] >= 2 && p->steps[k].doublings[ty] < 32) {
				rc = pre_grow(&b, ty);
				break;
			}
	for (size_t k = 0; k < p->n && !rc; k++) {
		const struct mbd_lift_step *st = &p->steps[k];
		uint64_t tgt[2];

		for (int ty = 0; ty < 2; ty++) {
			unsigned d = st->doublings[ty];
			uint64_t room;

			tgt[ty] = st->max[ty] > st->cnt[ty] ? st->max[ty] - st->cnt[ty] : 0;
			if (d < 2 || d >= 32)
				continue;
			/* the last of the doublings is the one a boot-sized array
			   does, from the room the others left; the first, out of
			   the static array, reserved its new array in reserved
			   (the later ones free the one they replace) */
			room = (st->max[ty] << (d - 1)) - st->cnt[ty];
			tgt[ty] = ty && room && st->max[ty] == t->cfg.reserved_max ? room - 1 : room;
		}
		if (!rc)
			rc = adjust(&b, 0, tgt[0]);
		if (!rc)
			rc = adjust(&b, 1, tgt[1]);
		if (!rc)
			rc = adjust(&b, 0, tgt[0]);
		map_op(&t->ops[k], &m, &op, &top);
		if (!rc)
			rc = push(&b, &op, false);
	}
	mbd_state_free(&b.st);
	return rc;
overflow:
	snprintf(why, why_len, "the reproducer's addresses times %u%s do not fit in 64 bits", s,
		 below ? ", moved up 16 GiB," : "");
	return 1;
}
