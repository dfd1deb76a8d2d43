// SPDX-License-Identifier: GPL-2.0
/*
 * The explored states: a 128-bit hash of the joint state of every variant,
 * and the node store that doubles as the seen set (each node keeps its
 * parent, so a trace is never stored, only rebuilt).
 */
#include <stdlib.h>
#include <string.h>

#include "explore_int.h"
#include "mbd_oracle.h"

/* ------------------------------------------------------------------ hash */

static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void mbd_xhash_init(struct mbd_xhash *x, uint64_t seed)
{
	x->h[0] = mix(seed ^ 0x9e3779b97f4a7c15ULL);
	x->h[1] = mix(seed + 0x632be59bd9b4e019ULL);
}

void mbd_xhash_u64(struct mbd_xhash *x, uint64_t v)
{
	/* two different keyed permutations per word, chained */
	x->h[0] = mix(x->h[0] ^ mix(v + 0xd6e8feb86659fd93ULL)) * 31 + 1;
	x->h[1] = mix((x->h[1] + v) ^ 0xa0761d6478bd642fULL) ^ (x->h[1] >> 17);
}

void mbd_xhash_bytes(struct mbd_xhash *x, const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t w;

	mbd_xhash_u64(x, n);
	for (; n >= 8; n -= 8, b += 8) {
		memcpy(&w, b, 8);
		mbd_xhash_u64(x, w);
	}
	if (n) {
		w = 0;
		memcpy(&w, b, n);
		mbd_xhash_u64(x, w);
	}
}

void mbd_xhash_done(struct mbd_xhash *x)
{
	x->h[0] = mix(x->h[0] ^ x->h[1]);
	x->h[1] = mix(x->h[1] + x->h[0]);
	/* 0:0 marks nothing in the store; never produce it */
	if (!x->h[0] && !x->h[1])
		x->h[1] = 1;
}

/* ----------------------------------------------------------------- digest */

static void feed(void *ctx, const void *p, size_t n)
{
	mbd_xhash_bytes(ctx, p, n);
}

static void digest_type(struct mbd_xhash *x, const struct mbd_type_state *t)
{
	mbd_xhash_u64(x, t->cnt);
	mbd_xhash_u64(x, t->max);
	mbd_xhash_u64(x, t->total_size);
	/* where the array is decides where the next doubling can go */
	mbd_xhash_u64(x, t->regions_pa);
	mbd_xhash_u64(x, (uint64_t)t->regions_static | (uint64_t)t->regions_slab << 1);
	mbd_xhash_u64(x, t->n_copied);
	for (size_t i = 0; i < t->n_copied; i++) {
		const struct mbd_region *g = &t->regions[i];

		mbd_xhash_u64(x, g->base);
		mbd_xhash_u64(x, g->size);
		mbd_xhash_u64(x, (uint64_t)g->flags << 32 | (uint32_t)g->nid);
	}
	/* zero unless empty: the slot the next add reads (mbd_variant.h) */
	mbd_xhash_u64(x, t->empty_slot.base);
	mbd_xhash_u64(x, t->empty_slot.size);
	mbd_xhash_u64(x, (uint64_t)t->empty_slot.flags << 32 | (uint32_t)t->empty_slot.nid);
}

static bool is_alloc(uint32_t kind)
{
	return kind == MBD_OP_ALLOC_RANGE || kind == MBD_OP_ALLOC_TRY_NID;
}

/*
 * What the snapshots do not show: the config as the calls left it, whether
 * a mirror was marked (system_has_some_mirror), and, once an allocation ran
 * with slab up, the whole call history: such an allocation takes the kzalloc
 * path (heap bump pointer, a WARN_ON_ONCE) the state does not record, so
 * the state is then never merged with another.
 */
static void digest_history(struct mbd_xhash *x, const struct mbd_trace *t)
{
	struct mbd_config c = t->cfg;
	bool mirror_marked = false, slab_alloc = false;

	for (size_t i = 0; i < t->n_ops; i++) {
		const struct mbd_op *op = &t->ops[i];

		switch (op->kind) {
		case MBD_OP_SET_LIMIT: c.limit = op->value; break;
		case MBD_OP_ALLOW_RESIZE: c.resize = true; break;
		case MBD_OP_SET_BOTTOM_UP: c.bottom_up = op->value != 0; break;
		case MBD_OP_SLAB_UP: c.slab = true; break;
		case MBD_OP_MARK_MIRROR: mirror_marked = true; break;
		default:
			if (c.slab && is_alloc(op->kind))
				slab_alloc = true;
			break;
		}
	}
	mbd_xhash_u64(x, c.memory_max);
	mbd_xhash_u64(x, c.reserved_max);
	mbd_xhash_u64(x, c.limit);
	mbd_xhash_u64(x, (uint64_t)c.resize | (uint64_t)c.slab << 1 |
			 (uint64_t)c.bottom_up << 2 | (uint64_t)c.mirror << 3 |
			 (uint64_t)c.movable << 4 | (uint64_t)mirror_marked << 5 |
			 (uint64_t)slab_alloc << 6);
	if (slab_alloc)
		mbd_xhash_bytes(x, t->ops, t->n_ops * sizeof(*t->ops));
}

void mbd_xstate_digest(const struct mbd_runner *r, const struct mbd_trace *t,
		       uint64_t out[2])
{
	struct mbd_xhash x;

	mbd_xhash_init(&x, 0x6d62646966660001ULL);
	digest_history(&x, t);
	for (size_t i = 0; i < mbd_runner_count(r); i++) {
		const struct mbd_state *s = mbd_runner_after(r, i);
		const struct mbd_oracle *o = mbd_runner_oracle(r, i);

		digest_type(&x, &s->memory);
		digest_type(&x, &s->reserved);
		mbd_xhash_u64(&x, s->warnings);
		if (o)
			mbd_oracle_digest(o, feed, &x);
	}
	mbd_xhash_done(&x);
	out[0] = x.h[0];
	out[1] = x.h[1];
}

/* ------------------------------------------------------------ node store */

void mbd_xstore_init(struct mbd_xstore *s)
{
	memset(s, 0, sizeof(*s));
}

void mbd_xstore_free(struct mbd_xstore *s)
{
	free(s->v);
	free(s->slot);
	mbd_xstore_init(s);
}

long mbd_xstore_find(const struct mbd_xstore *s, const uint64_t hash[2])
{
	size_t mask = s->n_slots - 1;

	if (!s->n_slots)
		return -1;
	for (size_t k = hash[0] & mask;; k = (k + 1) & mask) {
		uint32_t e = s->slot[k];

		if (!e)
			return -1;
		if (s->v[e - 1].hash[0] == hash[0] && s->v[e - 1].hash[1] == hash[1])
			return (long)(e - 1);
	}
}

static void place(struct mbd_xstore *s, size_t i)
{
	size_t mask = s->n_slots - 1;
	size_t k = s->v[i].hash[0] & mask;

	while (s->slot[k])
		k = (k + 1) & mask;
	s->slot[k] = (uint32_t)(i + 1);
}

static int grow_slots(struct mbd_xstore *s)
{
	size_t n = s->n_slots ? s->n_slots * 2 : 1024;
	uint32_t *slot = calloc(n, sizeof(*slot));

	if (!slot)
		return -1;
	free(s->slot);
	s->slot = slot;
	s->n_slots = n;
	for (size_t i = 0; i < s->n; i++)
		place(s, i);
	return 0;
}

long mbd_xstore_add(struct mbd_xstore *s, const struct mbd_xnode *nd)
{
	if (s->n >= UINT32_MAX - 1)
		return -1;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		struct mbd_xnode *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	if ((s->n + 1) * 2 > s->n_slots && grow_slots(s))
		return -1;
	s->v[s->n] = *nd;
	place(s, s->n);
	return (long)s->n++;
}

size_t mbd_xstore_path(const struct mbd_xstore *s, size_t i, uint16_t *idx,
		       size_t cap, size_t *root)
{
	size_t d = s->v[i].depth;

	for (size_t k = d; k > 0; k--) {
		if (k - 1 < cap)
			idx[k - 1] = s->v[i].op;
		i = s->v[i].parent;
	}
	*root = s->v[i].op;
	return d;
}
