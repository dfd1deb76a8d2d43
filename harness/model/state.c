// SPDX-License-Identifier: GPL-2.0
/* State buffers and the variant registry lookups. */
#include <stdlib.h>
#include <string.h>

#include "mbd_variant.h"

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
}

size_t mbd_variant_count(void)
{
	size_t n = 0;

	while (mbd_variants[n])
		n++;
	return n;
}

const struct mbd_variant *mbd_variant_find(const char *name)
{
	for (size_t i = 0; mbd_variants[i]; i++)
		if (strcmp(mbd_variants[i]->name, name) == 0)
			return mbd_variants[i];
	return NULL;
}

const struct mbd_variant *mbd_variant_uncounted(const struct mbd_variant *v)
{
	for (size_t i = 0; mbd_variants_uncounted[i]; i++)
		if (strcmp(mbd_variants_uncounted[i]->name, v->name) == 0)
			return mbd_variants_uncounted[i];
	return NULL;
}

bool mbd_variants_distinct(const struct mbd_variant *const *vs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!vs[i])
			return false;
		for (size_t j = 0; j < i; j++)
			if (vs[j] == vs[i])
				return false;
	}
	return true;
}

const char *mbd_variant_kind_name(enum mbd_variant_kind k)
{
	switch (k) {
	case MBD_KIND_REFERENCE: return "reference";
	case MBD_KIND_PATCH: return "patch";
	case MBD_KIND_MUTANT: return "mutant";
	case MBD_KIND_KERNEL: return "kernel";
	}
	return "?";
}
