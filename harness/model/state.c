// SPDX-License-Identifier: GPL-2.0
/* State buffers: what the variants' snapshot() fills (mbd_state.h). */
#include <stdlib.h>
#include <string.h>

#include "mbd_state.h"

void mbd_state_init(struct mbd_state *s)
{
	memset(s, 0, sizeof(*s));
}

void mbd_state_free(struct mbd_state *s)
{
	free(s->memory.regions);
	free(s->reserved.regions);
	mbd_state_init(s);
}

int mbd_type_state_grow(struct mbd_type_state *t, size_t n)
{
	size_t cap;
	struct mbd_region *r;

	if (n <= t->cap)
		return 0;
	/* start big, so fuzz inputs never hit the growth path (stable coverage) */
	cap = t->cap ? t->cap : 1024;
	while (cap < n)
		cap *= 2;
	r = realloc(t->regions, cap * sizeof(*r));
	if (!r)
		return -1;
	t->regions = r;
	t->cap = cap;
	return 0;
}

static void type_copy(struct mbd_type_state *d, const struct mbd_type_state *s)
{
	struct mbd_region *keep = d->regions;
	size_t cap = d->cap;

	*d = *s;
	d->regions = keep;
	d->cap = cap;
	if (mbd_type_state_reserve(d, s->n_copied))
		d->n_copied = d->cap;
	if (d->n_copied)
		memcpy(d->regions, s->regions, d->n_copied * sizeof(*d->regions));
}

static bool type_equal(const struct mbd_type_state *a,
		       const struct mbd_type_state *b)
{
	return a->cnt == b->cnt && a->max == b->max &&
	       a->total_size == b->total_size && a->regions_pa == b->regions_pa &&
	       a->regions_static == b->regions_static &&
	       a->regions_slab == b->regions_slab && a->n_copied == b->n_copied &&
	       memcmp(&a->empty_slot, &b->empty_slot, sizeof(a->empty_slot)) == 0 &&
	       (a->n_copied == 0 ||
		memcmp(a->regions, b->regions, a->n_copied * sizeof(*a->regions)) == 0);
}

bool mbd_state_equal(const struct mbd_state *a, const struct mbd_state *b)
{
	return a->warnings == b->warnings && type_equal(&a->memory, &b->memory) &&
	       type_equal(&a->reserved, &b->reserved);
}

void mbd_state_copy(struct mbd_state *dst, const struct mbd_state *src)
{
	type_copy(&dst->memory, &src->memory);
	type_copy(&dst->reserved, &src->reserved);
	dst->warnings = src->warnings;
	dst->n_events = src->n_events;
	dst->events_cut = src->events_cut;
	memcpy(dst->events, src->events, src->n_events * sizeof(src->events[0]));
}
