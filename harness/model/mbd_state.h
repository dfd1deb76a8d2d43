/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a variant's arrays look like after a call, and the buffers that
 * hold it: the variants' snapshot() fills them (algorithms/glue.c), the
 * runner, the comparison and the oracle read them. Kept apart from the
 * variant registry (mbd_variant.h, variant.c), which reads the variants:
 * the code the variants call (state.c) reads none of them.
 */
#ifndef MBD_STATE_H
#define MBD_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mbd_region {
	uint64_t base;
	uint64_t size;
	uint32_t flags;
	int32_t nid;
};

/* Copy of one struct memblock_type after an op. */
struct mbd_type_state {
	uint64_t cnt;
	uint64_t max;
	uint64_t total_size;
	uint64_t regions_pa;   /* __pa(type->regions) */
	bool regions_static;   /* still the __initdata init array */
	bool regions_slab;     /* array came from kmalloc (in_slab flag) */
	size_t n_copied;       /* regions[] holds min(cnt, max, cap limit) */
	struct mbd_region *regions;
	/* An empty type's slot 0 (cnt 0; before v6.11 the zero-size dummy),
	 * zero otherwise. Not a region, so compared by nobody, but the next
	 * add reads it (a size of 0 means "empty") and a variant can leave it
	 * stale: explore's state hash covers it. */
	struct mbd_region empty_slot;
	size_t cap;            /* allocated length of regions[] */
};

/* One message a call printed (the kernel's memblock_dbg() and pr_*()) or
 * one memmove() of regions (each insertion, merge and removal step):
 * recorded only when reset asks (MBD_RESET_EVENTS, mbd_variant.h). */
struct mbd_event {
	uint64_t text;         /* hash of the message; 2: the call begins,
				  0: it ends (the arrays before and after),
				  4: a memmove() that opens a slot (an
				  insertion), 6: one that closes a slot
				  (a merge or a removal) */
	uint64_t arrays[2];    /* hash of memory, of reserved, when printed */
	int8_t growth;         /* the array (0 memory, 1 reserved) that
				  doubled or failed to, or -1 */
};
#define MBD_MAX_EVENTS 256

struct mbd_state {
	struct mbd_type_state memory;
	struct mbd_type_state reserved;
	uint64_t warnings;     /* WARN_ON hits since reset */
	/* the last call's events, in order, between its begin and end
	   entries: where two sides part inside one call (judge_cause.c).
	   Never compared: the arrays show all a caller can see */
	unsigned int n_events;
	bool events_cut;       /* it printed more than events[] holds */
	struct mbd_event events[MBD_MAX_EVENTS];
};

/* State buffers (used by the variants' snapshot and by the runner). */
void mbd_state_init(struct mbd_state *s);
void mbd_state_free(struct mbd_state *s);
/* Room for more than t has: out of line (state.c). */
int mbd_type_state_grow(struct mbd_type_state *t, size_t n);
/* Make room for n regions in t; returns 0 or -1 (then n_copied is capped).
 * Inline: every snapshot asks, and the room is nearly always there. */
static inline int mbd_type_state_reserve(struct mbd_type_state *t, size_t n)
{
	return n <= t->cap ? 0 : mbd_type_state_grow(t, n);
}
/* Deep copy (buffers grow). */
void mbd_state_copy(struct mbd_state *dst, const struct mbd_state *src);
/* Every field equal (the events aside), the copied regions and the empty
 * slot included. */
bool mbd_state_equal(const struct mbd_state *a, const struct mbd_state *b);

/* Snapshots copy at most this many regions of a type: a bounded cost even
 * when a broken variant reports a garbage cnt. */
#define MBD_SNAPSHOT_MAX_REGIONS (1u << 20)

#endif
