// SPDX-License-Identifier: GPL-2.0
/* Part of glue.c (included there, once per variant): snapshots and the events' hash. */

/*
 * struct memblock_region and struct mbd_region hold the same fields at the
 * same offsets, without padding, in every kernel so far: a snapshot then
 * copies and compares regions as bytes. Otherwise field by field.
 */
#define MBD_FIELD_SAME(f)						\
	(offsetof(struct memblock_region, f) == offsetof(struct mbd_region, f) && \
	 sizeof(((struct memblock_region *)0)->f) == sizeof(((struct mbd_region *)0)->f))
#define MBD_REGIONS_AS_BYTES						\
	(sizeof(struct memblock_region) == sizeof(struct mbd_region) &&	\
	 sizeof(struct mbd_region) == 2 * sizeof(u64) + 2 * sizeof(u32) && \
	 MBD_FIELD_SAME(base) && MBD_FIELD_SAME(size) &&		\
	 MBD_FIELD_SAME(flags) && MBD_FIELD_SAME(nid))

/* The count a snapshot reports (*cnt) and how many regions it copies. */
static size_t MBD_KC_NO_COVERAGE mbd_glue_copy_count(const struct memblock_type *type,
						     size_t *cnt)
{
	size_t n;

	*cnt = type->cnt;
#if defined(MBD_KERNEL_VARIANT) && MBD_K_EMPTY_DUMMY
	/* before v6.11 an empty type is one zero-sized dummy entry: report it
	 * as the empty array it stands for, so eras compare */
	if (*cnt == 1 && type->regions[0].size == 0)
		*cnt = 0;
#endif
	n = *cnt;
	if (n > type->max)
		n = type->max;
	if (n > MBD_SNAPSHOT_MAX_REGIONS)
		n = MBD_SNAPSHOT_MAX_REGIONS;
	return n;
}

/* One array as the events see it: what a snapshot would copy of it. */
static uint64_t MBD_KC_NO_COVERAGE mbd_glue_type_hash(uint64_t h,
						      const struct memblock_type *type,
						      const struct memblock_region *init)
{
	size_t cnt, n = mbd_glue_copy_count(type, &cnt);

	h = mbd_kc_hash_u64(h, cnt);
	h = mbd_kc_hash_u64(h, type->max);
	h = mbd_kc_hash_u64(h, type->total_size);
	/* by physical address: each variant has its own arena and init array */
	h = mbd_kc_hash_u64(h, type->regions == init ? 0 : (u64)__pa(type->regions) + 1);
	for (size_t i = 0; i < n; i++) {
		const struct memblock_region *r = &type->regions[i];

		h = mbd_kc_hash_u64(h, r->base);
		h = mbd_kc_hash_u64(h, r->size);
		h = mbd_kc_hash_u64(h, (u64)r->flags << 32 | (u32)memblock_get_region_node(r));
	}
	return h;
}

static void MBD_KC_NO_COVERAGE mbd_glue_arrays_hash(uint64_t h[2])
{
	h[0] = mbd_glue_type_hash(MBD_KC_HASH_SEED, &memblock.memory,
				  memblock_memory_init_regions);
	h[1] = mbd_glue_type_hash(MBD_KC_HASH_SEED, &memblock.reserved,
				  memblock_reserved_init_regions);
}

static void MBD_KC_NO_COVERAGE mbd_glue_copy_type(struct mbd_type_state *out,
			       const struct memblock_type *type,
			       const struct memblock_region *init, int in_slab)
{
	size_t cnt;
	size_t n = mbd_glue_copy_count(type, &cnt);

	out->cnt = cnt;
	out->max = type->max;
	out->total_size = type->total_size;
	out->regions_static = type->regions == init;
	out->regions_slab = !out->regions_static && in_slab;
	out->regions_pa = out->regions_static ? 0 : __pa(type->regions);
	if (mbd_type_state_reserve(out, n))
		n = out->cap;
	out->n_copied = n;
	(memset)(&out->empty_slot, 0, sizeof(out->empty_slot));
	if (cnt == 0 && type->max > 0) {
		out->empty_slot.base = type->regions[0].base;
		out->empty_slot.size = type->regions[0].size;
		out->empty_slot.flags = type->regions[0].flags;
		out->empty_slot.nid = memblock_get_region_node(&type->regions[0]);
	}
	if (MBD_REGIONS_AS_BYTES) {
		/* no buffer yet when there is nothing to copy */
		if (n)
			(memcpy)(out->regions, type->regions, n * sizeof(*out->regions));
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct memblock_region *r = &type->regions[i];

		out->regions[i].base = r->base;
		out->regions[i].size = r->size;
		out->regions[i].flags = r->flags;
		out->regions[i].nid = memblock_get_region_node(r);
	}
}

/* mbd_glue_copy_type() would write exactly s: its fields, in its order. */
static bool MBD_KC_NO_COVERAGE mbd_glue_same_type(const struct mbd_type_state *s,
			       const struct memblock_type *type,
			       const struct memblock_region *init, int in_slab)
{
	size_t cnt;
	size_t n = mbd_glue_copy_count(type, &cnt);
	bool is_static = type->regions == init;

	/* a snapshot capped by a failed reserve is never "the same" */
	if (s->cnt != cnt || s->max != type->max || s->total_size != type->total_size ||
	    s->regions_static != is_static ||
	    s->regions_slab != (!is_static && in_slab) ||
	    s->regions_pa != (is_static ? 0 : (u64)__pa(type->regions)) ||
	    s->n_copied != n)
		return false;
	if (cnt == 0 && type->max > 0) {
		if (s->empty_slot.base != type->regions[0].base ||
		    s->empty_slot.size != type->regions[0].size ||
		    s->empty_slot.flags != (uint32_t)type->regions[0].flags ||
		    s->empty_slot.nid != memblock_get_region_node(&type->regions[0]))
			return false;
	} else if (s->empty_slot.base || s->empty_slot.size ||
		   s->empty_slot.flags || s->empty_slot.nid) {
		return false;
	}
	if (MBD_REGIONS_AS_BYTES)
		return !n || (memcmp)(s->regions, type->regions, n * sizeof(*s->regions)) == 0;
	for (size_t i = 0; i < n; i++) {
		const struct memblock_region *r = &type->regions[i];
		const struct mbd_region *x = &s->regions[i];

		if (x->base != r->base || x->size != r->size ||
		    x->flags != (uint32_t)r->flags ||
		    x->nid != memblock_get_region_node(r))
			return false;
	}
	return true;
}

static bool MBD_KC_NO_COVERAGE mbd_glue_same_as(const struct mbd_state *s)
{
	/* events are not compared: a variant that parts is snapshot anyway */
	return s->warnings == mbd_kc.warnings &&
	       mbd_glue_same_type(&s->memory, &memblock.memory,
				  memblock_memory_init_regions,
				  memblock_memory_in_slab) &&
	       mbd_glue_same_type(&s->reserved, &memblock.reserved,
				  memblock_reserved_init_regions,
				  memblock_reserved_in_slab);
}

static void MBD_KC_NO_COVERAGE mbd_glue_snapshot(struct mbd_state *out)
{
	mbd_glue_copy_type(&out->memory, &memblock.memory,
			   memblock_memory_init_regions, memblock_memory_in_slab);
	mbd_glue_copy_type(&out->reserved, &memblock.reserved,
			   memblock_reserved_init_regions,
			   memblock_reserved_in_slab);
	out->warnings = mbd_kc.warnings;
	_Static_assert(MBD_KC_MAX_EVENTS == MBD_MAX_EVENTS, "one event bound");
	out->n_events = mbd_kc.events ? mbd_kc.n_events : 0;
	out->events_cut = mbd_kc.events && mbd_kc.events_cut;
	for (unsigned int i = 0; i < out->n_events; i++) {
		out->events[i].text = mbd_kc.ev[i].text;
		out->events[i].arrays[0] = mbd_kc.ev[i].arrays[0];
		out->events[i].arrays[1] = mbd_kc.ev[i].arrays[1];
		out->events[i].growth = mbd_kc.ev[i].growth;
	}
}
