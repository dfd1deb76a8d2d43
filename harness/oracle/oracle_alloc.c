// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle's allocations: memblock_find_in_range_node() over the model's
 * free ranges, predicting the address an allocation must return (or, where
 * the model cannot be exact, judging whether the address is plausible).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "oracle_int.h"

/* --------------------------------------------------- free range iteration */

static bool nid_valid(int nid)
{
	return nid >= 0 && nid < MBD_MAX_NUMNODES;
}

/*
 * for_each_free_mem_range{,_reverse}() over the model: memory runs (after
 * should_skip_region()) intersected with the gaps between reserved runs.
 * A gap between two touching reserved runs is empty; it is still yielded
 * when it lies strictly inside a memory run, as the kernel does.
 */
struct free_it {
	const struct mbd_ival *m, *r;
	int64_t nm, nr, ia, ib;
	int nid;
	uint32_t flags;
	bool movable;
};

static bool skip_run(const struct free_it *it, const struct mbd_ival *m)
{
	if (nid_valid(it->nid) && it->nid != m->nid)
		return true;
	if (it->movable && (m->flags & MBD_FLAG_HOTPLUG) &&
	    !(it->flags & MBD_FLAG_HOTPLUG))
		return true;
	if ((it->flags & MBD_FLAG_MIRROR) && !(m->flags & MBD_FLAG_MIRROR))
		return true;
	if (!(it->flags & MBD_FLAG_NOMAP) && (m->flags & MBD_FLAG_NOMAP))
		return true;
	if (!(it->flags & MBD_FLAG_DRIVER_MANAGED) &&
	    (m->flags & MBD_FLAG_DRIVER_MANAGED))
		return true;
	return false;
}

static void free_it_init(struct free_it *it, const struct mbd_oracle *o,
			 int nid, uint32_t flags, bool reverse)
{
	it->m = o->t[MEM].v;
	it->nm = (int64_t)o->t[MEM].n;
	it->r = o->t[RSV].v;
	it->nr = (int64_t)o->t[RSV].n;
	it->nid = nid;
	it->flags = flags;
	it->movable = o->movable;
	it->ia = reverse ? it->nm - 1 : 0;
	it->ib = reverse ? it->nr : 0;
}

static uint64_t gap_start(const struct free_it *it, int64_t k)
{
	return k ? it->r[k - 1].end : 0;
}

static uint64_t gap_end(const struct free_it *it, int64_t k)
{
	return k < it->nr ? it->r[k].start : MBD_PHYS_ADDR_MAX;
}

static bool free_next(struct free_it *it, uint64_t *s, uint64_t *e)
{
	for (; it->ia < it->nm; it->ia++) {
		const struct mbd_ival *m = &it->m[it->ia];

		if (skip_run(it, m))
			continue;
		for (; it->ib < it->nr + 1; it->ib++) {
			uint64_t gs = gap_start(it, it->ib), ge = gap_end(it, it->ib);

			if (gs >= m->end)
				break;
			if (m->start < ge) {
				*s = m->start > gs ? m->start : gs;
				*e = m->end < ge ? m->end : ge;
				if (m->end <= ge)
					it->ia++;
				else
					it->ib++;
				return true;
			}
		}
	}
	return false;
}

static bool free_prev(struct free_it *it, uint64_t *s, uint64_t *e)
{
	for (; it->ia >= 0; it->ia--) {
		const struct mbd_ival *m = &it->m[it->ia];

		if (skip_run(it, m))
			continue;
		for (; it->ib >= 0; it->ib--) {
			uint64_t gs = gap_start(it, it->ib), ge = gap_end(it, it->ib);

			if (ge <= m->start)
				break;
			if (m->end > gs) {
				*s = m->start > gs ? m->start : gs;
				*e = m->end < ge ? m->end : ge;
				if (m->start >= gs)
					it->ia--;
				else
					it->ib--;
				return true;
			}
		}
	}
	return false;
}

static uint64_t clamp64(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* memblock_find_in_range_node(): same bounds, rounding and scan order. */
static uint64_t find_node(const struct mbd_oracle *o, uint64_t size,
			  uint64_t align, uint64_t start, uint64_t end,
			  int nid, uint32_t flags)
{
	uint64_t mask = align - 1, s, e;
	struct free_it it;

	if (end == MBD_ALLOC_ACCESSIBLE || end == END_NOLEAKTRACE)
		end = o->limit;
	if (start < MBD_PAGE_SIZE)
		start = MBD_PAGE_SIZE;
	if (end < start)
		end = start;
	free_it_init(&it, o, nid, flags, !o->bottom_up);
	if (o->bottom_up) {
		while (free_next(&it, &s, &e)) {
			uint64_t cand;

			s = clamp64(s, start, end);
			e = clamp64(e, start, end);
			cand = ((s - 1) | mask) + 1;
			if (cand < e && e - cand >= size)
				return cand;
		}
		return 0;
	}
	while (free_prev(&it, &s, &e)) {
		uint64_t cand;

		s = clamp64(s, start, end);
		e = clamp64(e, start, end);
		if (e < size)
			continue;
		cand = (e - size) & ~mask;
		if (cand >= s)
			return cand;
	}
	return 0;
}

/* memblock_find_in_range(): any node, mirror first when there is some. */
static uint64_t find_any(const struct mbd_oracle *o, uint64_t start,
			 uint64_t end, uint64_t size, uint64_t align)
{
	uint32_t flags = o->has_mirror ? MBD_FLAG_MIRROR : 0;
	uint64_t ret = find_node(o, size, align, start, end, MBD_NUMA_NO_NODE, flags);

	if (!ret && flags)
		ret = find_node(o, size, align, start, end, MBD_NUMA_NO_NODE, 0);
	return ret;
}

/* Would memblock_double_array(&reserved, base, size) find room? */
static bool reserved_double_fits(const struct mbd_oracle *o, uint64_t max,
				 uint64_t base, uint64_t size)
{
	uint64_t need = mbd_orc_array_bytes(max > UINT64_MAX / 2 ? UINT64_MAX : 2 * max);
	uint64_t below = base < o->limit ? base : o->limit;

	if (find_any(o, base + size, o->limit, need, MBD_PAGE_SIZE))
		return true;
	return size && find_any(o, 0, below, need, MBD_PAGE_SIZE);
}

/* ------------------------------------------------------------ allocations */

struct alloc_req {
	uint64_t size, align, start, end;
	int nid;
	int got_nid;                        /* node of the attempt that won */
	const struct mbd_type_state *rsv;   /* variant's reserved before */
	bool unreliable;                    /* prediction may be off */
};

/* Does memblock_reserve(found, size) succeed? It fails only when reserved
 * needs doubling and the new array finds no room. */
static bool reserve_ok(const struct mbd_oracle *o, struct alloc_req *q,
		       uint64_t found)
{
	uint64_t end = mbd_orc_cap_end(found, q->size);

	if (end == found || !q->rsv->cnt || q->rsv->cnt + 1 <= q->rsv->max)
		return true;
	/* Without resize the kernel panics, and a tiny array may need more
	 * than one doubling: neither is predicted exactly. */
	if (!o->resize || q->rsv->max <= 2)
		q->unreliable = true;
	if (!o->resize)
		return true;
	return reserved_double_fits(o, q->rsv->max, found, end - found);
}

/* memblock_alloc_range_nid(), exact_nid false, slab not available. */
static uint64_t predict_alloc(const struct mbd_oracle *o, struct alloc_req *q)
{
	uint32_t flags = o->has_mirror ? MBD_FLAG_MIRROR : 0;

	for (;;) {
		uint64_t found = find_node(o, q->size, q->align, q->start, q->end,
					   q->nid, flags);

		q->got_nid = q->nid;
		if (found && reserve_ok(o, q, found))
			return found;
		if (nid_valid(q->nid)) {
			found = find_node(o, q->size, q->align, q->start, q->end,
					  MBD_NUMA_NO_NODE, flags);
			q->got_nid = MBD_NUMA_NO_NODE;
			if (found && reserve_ok(o, q, found))
				return found;
		}
		if (!(flags & MBD_FLAG_MIRROR))
			return 0;
		flags &= ~MBD_FLAG_MIRROR;
	}
}

/* The weaker contract when the exact address cannot be predicted: aligned,
 * in bounds, inside one usable memory run, not overlapping reserved. */
static bool alloc_plausible(const struct mbd_oracle *o, const struct alloc_req *q,
			    uint64_t ret, char *why, size_t n)
{
	uint64_t end = mbd_orc_cap_end(ret, q->size);
	uint64_t lo = q->start > MBD_PAGE_SIZE ? q->start : MBD_PAGE_SIZE;
	uint64_t hi = q->end;
	const struct mbd_ival *run;

	if (hi == MBD_ALLOC_ACCESSIBLE || hi == END_NOLEAKTRACE)
		hi = o->limit;
	if (hi < lo)
		hi = lo;
	if (!(q->align & (q->align - 1)) && (ret & (q->align - 1))) {
		snprintf(why, n, "alloc 0x%" PRIx64 " not aligned to 0x%" PRIx64,
			 ret, q->align);
		return false;
	}
	if (ret < lo || end > hi) {
		snprintf(why, n, "alloc [0x%" PRIx64 "-0x%" PRIx64 ") outside"
			 " [0x%" PRIx64 "-0x%" PRIx64 ")", ret, end, lo, hi);
		return false;
	}
	run = mbd_iset_find(&o->t[MEM], ret);
	if (!run && end == ret && ret)
		run = mbd_iset_find(&o->t[MEM], ret - 1);
	if (!run || end > run->end) {
		snprintf(why, n, "alloc [0x%" PRIx64 "-0x%" PRIx64 ") not inside"
			 " one memory run", ret, end);
		return false;
	}
	if ((run->flags & (MBD_FLAG_NOMAP | MBD_FLAG_DRIVER_MANAGED)) ||
	    (o->movable && (run->flags & MBD_FLAG_HOTPLUG))) {
		snprintf(why, n, "alloc 0x%" PRIx64 " in a memory run with"
			 " flags 0x%x", ret, run->flags);
		return false;
	}
	if (mbd_iset_overlaps(&o->t[RSV], ret, end)) {
		snprintf(why, n, "alloc [0x%" PRIx64 "-0x%" PRIx64 ") overlaps"
			 " reserved", ret, end);
		return false;
	}
	return true;
}

int mbd_orc_judge_alloc(const struct mbd_oracle *o, const struct mbd_op *op,
			const struct mbd_state *before, int64_t sret,
			struct mbd_oracle_finding *f)
{
	struct alloc_req q;
	uint64_t ret = (uint64_t)sret, want;
	char why[160];

	if (o->slab)
		return MBD_NUMA_NO_NODE; /* kzalloc_node(): nothing reserved */
	memset(&q, 0, sizeof(q));
	q.size = op->size;
	q.align = op->align ? op->align : SMP_CACHE;
	if (op->kind == MBD_OP_ALLOC_RANGE) {
		q.start = op->start;
		q.end = op->end;
		q.nid = MBD_NUMA_NO_NODE;
	} else {
		q.start = 0;
		q.end = MBD_ALLOC_ACCESSIBLE;
		q.nid = op->nid;
	}
	q.rsv = &before->reserved;
	want = predict_alloc(o, &q);
	if (ret == want)
		return q.got_nid;
	if (!q.unreliable) {
		mbd_orc_note(f, MBD_CLASS_RETURN, MBD_WHERE_CALL, MBD_CL_ALLOC_ADDR, "alloc returned 0x%"
		     PRIx64 ", expected 0x%" PRIx64, ret, want);
		return q.nid;
	}
	if (ret && !alloc_plausible(o, &q, ret, why, sizeof(why)))
		mbd_orc_note(f, MBD_CLASS_RETURN, MBD_WHERE_CALL, MBD_CL_ALLOC_ADDR, "%s", why);
	/* not predicted exactly: the first attempt searches the node asked for */
	if (!nid_valid(q.nid) || ret == find_node(o, q.size, q.align, q.start,
						  q.end, q.nid, 0))
		return q.nid;
	return MBD_NUMA_NO_NODE;
}
