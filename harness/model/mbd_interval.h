/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interval sets: sorted, disjoint byte intervals [start, end) that carry
 * (flags, nid), always kept coalesced (no two touching intervals with equal
 * attributes), so the runs of a set are its canonical form. Used by the
 * oracle as its model and by compare.c to compare coverage.
 *
 * Ends are exclusive and never above UINT64_MAX, so the byte UINT64_MAX
 * itself is never covered (memblock_cap_size() guarantees the same).
 */
#ifndef MBD_INTERVAL_H
#define MBD_INTERVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mbd_variant.h"

/*
 * The glue clamps memblock.current_limit to this (region arrays must live in
 * the host arena); the oracle clamps its copy the same way, at reset and on
 * memblock_set_current_limit().
 */
#define MBD_ORACLE_PHYS_LIMIT (1ULL << 40)

struct mbd_ival {
	uint64_t start;
	uint64_t end;
	uint32_t flags;
	int32_t nid;
};

struct mbd_iset {
	struct mbd_ival *v;
	size_t n;
	size_t cap;
	struct mbd_ival *tmp;  /* scratch for rebuilds, swapped with v */
	size_t tmp_cap;
};

void mbd_iset_init(struct mbd_iset *s);
/* Give both buffers their first allocation now: sets that trade buffers
 * (swaps) then never take a first-use path mid-campaign. -1: no memory. */
int mbd_iset_reserve(struct mbd_iset *s);
void mbd_iset_free(struct mbd_iset *s);
/* Empty the set; keeps the buffers. */
void mbd_iset_clear(struct mbd_iset *s);
/* dst = src (dst's buffer grows); 0, or -1 when out of memory. */
int mbd_iset_copy(struct mbd_iset *dst, const struct mbd_iset *src);

/*
 * All editing calls return 0, or -1 when out of memory (the set is then
 * unchanged). An empty range (start >= end) is a no-op.
 */
/* Union: bytes already covered keep their attributes, new bytes get these. */
int mbd_iset_add(struct mbd_iset *s, uint64_t start, uint64_t end,
		 uint32_t flags, int32_t nid);
/* Remove [start, end). */
int mbd_iset_sub(struct mbd_iset *s, uint64_t start, uint64_t end);
/* On covered bytes of [start, end): flags = (flags | set) & ~clear, and
 * nid = new_nid when set_nid. */
int mbd_iset_modify(struct mbd_iset *s, uint64_t start, uint64_t end,
		    uint32_t set, uint32_t clear, bool set_nid, int32_t new_nid);
/* Append at the top (start >= end of the last interval), coalescing. */
int mbd_iset_push(struct mbd_iset *s, uint64_t start, uint64_t end,
		  uint32_t flags, int32_t nid);

/* Sum of interval lengths. */
uint64_t mbd_iset_bytes(const struct mbd_iset *s);
/* True if any byte of [start, end) is covered. */
bool mbd_iset_overlaps(const struct mbd_iset *s, uint64_t start, uint64_t end);
/* Number of maximal uncovered pieces of [start, end). */
size_t mbd_iset_holes(const struct mbd_iset *s, uint64_t start, uint64_t end);
/* The interval containing addr, or NULL. */
const struct mbd_ival *mbd_iset_find(const struct mbd_iset *s, uint64_t addr);

/*
 * A run stream: yields the canonical runs (coalesced, ascending, disjoint)
 * of either an interval array or a region array. A region array must be
 * sorted by base; overlapping bytes are credited to the earlier region,
 * empty regions are skipped and an end that overflows saturates.
 */
struct mbd_run_src {
	const struct mbd_ival *iv;
	const struct mbd_region *rg;
	size_t n;
	size_t i;
	uint64_t covered;      /* end of the bytes already yielded */
	bool have_peek;
	struct mbd_ival peek;
};

void mbd_run_src_ivals(struct mbd_run_src *s, const struct mbd_ival *v, size_t n);
void mbd_run_src_regions(struct mbd_run_src *s, const struct mbd_region *r, size_t n);
/* Next run into out; false at the end. */
bool mbd_run_src_next(struct mbd_run_src *s, struct mbd_ival *out);

/* The first stretch of bytes where two run streams disagree. */
struct mbd_run_diff {
	uint64_t start;
	uint64_t end;          /* exclusive */
	bool in_a, in_b;       /* covered on each side */
	uint32_t flags_a, flags_b;
	int32_t nid_a, nid_b;
};

/* Consumes both streams; true (and d filled) if they differ anywhere. */
bool mbd_runs_diff(struct mbd_run_src *a, struct mbd_run_src *b,
		   struct mbd_run_diff *d);

/* End of a region, saturated at UINT64_MAX. */
uint64_t mbd_region_end(const struct mbd_region *r);
/* Sorted by base, disjoint, no empty region, no wrapping end. */
bool mbd_regions_well_formed(const struct mbd_region *r, size_t n);

#endif
