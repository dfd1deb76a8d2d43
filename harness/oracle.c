// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle: memblock's API contract (v6.11-v6.15) as two coalesced
 * interval sets, replayed call by call next to one variant.
 *
 * Per call: (1) judge what only the state before the call can tell (the
 * expected allocation address, whether an -ENOMEM was possible), (2) account
 * for the variant's region array moves seen in the snapshots, (3) apply the
 * call's effect to the model, (4) check the variant's arrays: invariants,
 * total_size, and byte-exact coverage.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_interval.h"
#include "mbd_oracle.h"

#define RET_ENOMEM (-12)
#define SMP_CACHE 64ULL                 /* SMP_CACHE_BYTES, x86_64 */
#define END_NOLEAKTRACE 1ULL            /* MEMBLOCK_ALLOC_NOLEAKTRACE */

enum { MEM = MBD_TYPE_MEMORY, RSV = MBD_TYPE_RESERVED };

struct mbd_oracle {
	struct mbd_iset t[2];   /* memory, reserved */
	uint64_t total[2];      /* expected total_size (trim does not shrink it) */
	struct mbd_iset scratch;
	bool resize, slab, bottom_up, mirror_cfg, movable;
	bool has_mirror;        /* system_has_some_mirror */
	uint64_t limit;         /* current_limit, clamped like the glue */
	bool broken;            /* out of memory: the model is no longer valid */
	bool trim_wrapped;      /* this call's trim wrapped round_up() to 0 */
};

static const char *const type_name[2] = { "memory", "reserved" };

struct mbd_oracle *mbd_oracle_new(void)
{
	struct mbd_oracle *o = calloc(1, sizeof(*o));
	struct mbd_config cfg;

	if (!o)
		return NULL;
	mbd_iset_init(&o->t[MEM]);
	mbd_iset_init(&o->t[RSV]);
	mbd_iset_init(&o->scratch);
	if (mbd_iset_reserve(&o->t[MEM]) || mbd_iset_reserve(&o->t[RSV]) ||
	    mbd_iset_reserve(&o->scratch)) {
		mbd_oracle_free(o);
		return NULL;
	}
	mbd_config_default(&cfg);
	mbd_oracle_reset(o, &cfg);
	return o;
}

void mbd_oracle_free(struct mbd_oracle *o)
{
	if (!o)
		return;
	mbd_iset_free(&o->t[MEM]);
	mbd_iset_free(&o->t[RSV]);
	mbd_iset_free(&o->scratch);
	free(o);
}

static uint64_t clamp_limit(uint64_t limit)
{
	return limit < MBD_ORACLE_PHYS_LIMIT ? limit : MBD_ORACLE_PHYS_LIMIT;
}

void mbd_oracle_reset(struct mbd_oracle *o, const struct mbd_config *cfg)
{
	mbd_iset_clear(&o->t[MEM]);
	mbd_iset_clear(&o->t[RSV]);
	o->total[MEM] = o->total[RSV] = 0;
	o->resize = cfg->resize;
	o->slab = cfg->slab;
	o->bottom_up = cfg->bottom_up;
	o->mirror_cfg = cfg->mirror;
	o->movable = cfg->movable;
	o->has_mirror = false;
	o->limit = clamp_limit(cfg->limit);
	o->broken = false;
}

/* ---------------------------------------------------------------- findings */

#ifdef __GNUC__
__attribute__((format(printf, 4, 5)))
#endif
static void note(struct mbd_oracle_finding *f, enum mbd_class cls,
		 enum mbd_where where, const char *fmt, ...)
{
	va_list ap;

	if (cls <= f->cls)
		return;
	f->cls = cls;
	f->where = where;
	va_start(ap, fmt);
	vsnprintf(f->detail, sizeof(f->detail), fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------ model edits */

/* base + memblock_cap_size(base, &size) */
static uint64_t cap_end(uint64_t base, uint64_t size)
{
	return size < UINT64_MAX - base ? base + size : UINT64_MAX;
}

static void model_add(struct mbd_oracle *o, int ty, uint64_t s, uint64_t e,
		      uint32_t flags, int32_t nid)
{
	struct mbd_iset *set = &o->t[ty];
	uint64_t before = mbd_iset_bytes(set);
	bool was_empty = set->n == 0;

	if (s >= e)
		return;
	if (mbd_iset_add(set, s, e, flags, nid)) {
		o->broken = true;
		return;
	}
	/* adding to an empty type stores total_size = size (slot 0 refill) */
	if (was_empty)
		o->total[ty] = mbd_iset_bytes(set);
	else
		o->total[ty] += mbd_iset_bytes(set) - before;
}

static void model_sub(struct mbd_oracle *o, int ty, uint64_t s, uint64_t e)
{
	struct mbd_iset *set = &o->t[ty];
	uint64_t before = mbd_iset_bytes(set);

	if (mbd_iset_sub(set, s, e)) {
		o->broken = true;
		return;
	}
	o->total[ty] -= before - mbd_iset_bytes(set);
}

static void model_modify(struct mbd_oracle *o, int ty, uint64_t s, uint64_t e,
			 uint32_t set, uint32_t clear, bool set_nid, int32_t nid)
{
	if (mbd_iset_modify(&o->t[ty], s, e, set, clear, set_nid, nid))
		o->broken = true;
}

/* memblock_trim_memory(): per run, with the kernel's mask rounding; an in
 * place shrink leaves total_size alone, a removal subtracts the run. */
static void model_trim(struct mbd_oracle *o, uint64_t align)
{
	struct mbd_iset *m = &o->t[MEM], *sc = &o->scratch, tmp;
	uint64_t mask = align - 1;

	mbd_iset_clear(sc);
	for (size_t i = 0; i < m->n; i++) {
		const struct mbd_ival *iv = &m->v[i];
		uint64_t s = ((iv->start - 1) | mask) + 1;
		uint64_t e = iv->end & ~mask;
		int err = 0;

		if (s == iv->start && e == iv->end)
			err = mbd_iset_push(sc, iv->start, iv->end, iv->flags, iv->nid);
		else if (s < e) {
			/* s wraps to 0 for a run in the top align block: the
			 * kernel then leaves [0, e) unsorted; push unions here */
			if (s < iv->start)
				o->trim_wrapped = true;
			err = mbd_iset_push(sc, s, e, iv->flags, iv->nid);
		}
		else
			o->total[MEM] -= iv->end - iv->start;
		if (err) {
			o->broken = true;
			return;
		}
	}
	tmp = *m;
	*m = *sc;
	*sc = tmp;
}

/* PAGE_ALIGN(max * sizeof(struct memblock_region)), saturating */
static uint64_t array_bytes(uint64_t max)
{
	uint64_t b;

	if (max > (UINT64_MAX - MBD_PAGE_SIZE) / MBD_REGION_BYTES)
		return UINT64_MAX & ~(MBD_PAGE_SIZE - 1);
	b = max * MBD_REGION_BYTES;
	return (b + MBD_PAGE_SIZE - 1) & ~(MBD_PAGE_SIZE - 1);
}

/* memblock_double_array() as seen from outside: the old array (unless
 * static or kmalloc'ed) is freed from reserved, the new one (unless
 * kmalloc'ed) is reserved with (MAX_NUMNODES, 0). Intermediate arrays of
 * a multi-step doubling net to zero and are invisible. */
static void apply_move(struct mbd_oracle *o, const struct mbd_type_state *b,
		       const struct mbd_type_state *a)
{
	/* same address and max: no move. Same address, new max: a multi-step
	 * doubling came back to the first address (never the static array) */
	if (b->regions_pa == a->regions_pa &&
	    (b->max == a->max || a->regions_static))
		return;
	if (!b->regions_static && !b->regions_slab)
		model_sub(o, RSV, b->regions_pa,
			  cap_end(b->regions_pa, array_bytes(b->max)));
	if (!a->regions_slab)
		model_add(o, RSV, a->regions_pa,
			  cap_end(a->regions_pa, array_bytes(a->max)),
			  0, MBD_MAX_NUMNODES);
}

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
	uint64_t need = array_bytes(max > UINT64_MAX / 2 ? UINT64_MAX : 2 * max);
	uint64_t below = base < o->limit ? base : o->limit;

	if (find_any(o, base + size, o->limit, need, MBD_PAGE_SIZE))
		return true;
	return size && find_any(o, 0, below, need, MBD_PAGE_SIZE);
}

/* ------------------------------------------------------------ allocations */

struct alloc_req {
	uint64_t size, align, start, end;
	int nid;
	const struct mbd_type_state *rsv;   /* variant's reserved before */
	bool unreliable;                    /* prediction may be off */
};

/* Does memblock_reserve(found, size) succeed? It fails only when reserved
 * needs doubling and the new array finds no room. */
static bool reserve_ok(const struct mbd_oracle *o, struct alloc_req *q,
		       uint64_t found)
{
	uint64_t end = cap_end(found, q->size);

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

		if (found && reserve_ok(o, q, found))
			return found;
		if (nid_valid(q->nid)) {
			found = find_node(o, q->size, q->align, q->start, q->end,
					  MBD_NUMA_NO_NODE, flags);
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
	uint64_t end = cap_end(ret, q->size);
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

/* Judge an allocation's returned address against the model before it. */
static void judge_alloc(const struct mbd_oracle *o, const struct mbd_op *op,
			const struct mbd_state *before, int64_t sret,
			struct mbd_oracle_finding *f)
{
	struct alloc_req q;
	uint64_t ret = (uint64_t)sret, want;
	char why[160];

	if (o->slab)
		return;         /* kzalloc_node(): any address is fine */
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
		return;
	if (!q.unreliable) {
		note(f, MBD_CLASS_RETURN, MBD_WHERE_CALL, "alloc returned 0x%"
		     PRIx64 ", expected 0x%" PRIx64, ret, want);
		return;
	}
	if (ret && !alloc_plausible(o, &q, ret, why, sizeof(why)))
		note(f, MBD_CLASS_RETURN, MBD_WHERE_CALL, "%s", why);
}

/* ------------------------------------------------------ status judgements */

/*
 * Range calls return 0 or -ENOMEM, and -ENOMEM only when an array had to
 * grow. need: the kernel would have had to double the array. Returns true
 * when the call took effect.
 */
static bool judge_status(const struct mbd_op *op, int64_t ret, bool need,
			 const struct mbd_type_state *ts, int ty,
			 struct mbd_oracle_finding *f)
{
	if (ret == 0)
		return true;
	if (ret == RET_ENOMEM && need)
		return false;
	if (ret == RET_ENOMEM)
		note(f, MBD_CLASS_RETURN, MBD_WHERE_CALL, "%s returned -12 but %s"
		     " had room (cnt %" PRIu64 " max %" PRIu64 ")",
		     mbd_op_name(op->kind), type_name[ty], ts->cnt, ts->max);
	else
		note(f, MBD_CLASS_RETURN, MBD_WHERE_CALL, "%s returned %" PRId64
		     ", expected 0 or -12", mbd_op_name(op->kind), ret);
	return false;
}

/* memblock_add_range() doubles when cnt + (new pieces) exceeds max. */
static bool add_needs_room(const struct mbd_oracle *o, int ty,
			   const struct mbd_type_state *ts, uint64_t s, uint64_t e)
{
	if (s >= e || !ts->cnt)
		return false;
	return ts->cnt + mbd_iset_holes(&o->t[ty], s, e) > ts->max;
}

/* memblock_isolate_range() doubles while cnt + 2 exceeds max. */
static bool isolate_needs_room(const struct mbd_type_state *ts, uint64_t s,
			       uint64_t e)
{
	return s < e && ts->cnt + 2 > ts->max;
}

/* --------------------------------------------------------------- checking */

static void describe_attr(char *buf, size_t n, uint32_t flags, int32_t nid)
{
	snprintf(buf, n, "flags 0x%x nid %d", flags, nid);
}

/* Invariants of one type, then coverage if the array is well formed. */
static void check_type(const struct mbd_oracle *o, int ty,
		       const struct mbd_type_state *ts,
		       struct mbd_oracle_finding *f)
{
	enum mbd_where where = ty == MEM ? MBD_WHERE_MEMORY : MBD_WHERE_RESERVED;
	const char *nm = type_name[ty];
	bool ok = true;
	struct mbd_run_src a, b;
	struct mbd_run_diff d;
	char ma[48], va[48];

	if (ts->cnt > ts->max) {
		note(f, MBD_CLASS_INVARIANT, where, "%s: cnt %" PRIu64 " > max %"
		     PRIu64, nm, ts->cnt, ts->max);
		ok = false;
	}
	if (ts->n_copied != ts->cnt) {
		note(f, MBD_CLASS_INVARIANT, where, "%s: snapshot holds %zu of %"
		     PRIu64 " regions", nm, ts->n_copied, ts->cnt);
		ok = false;
	}
	for (size_t i = 0; i < ts->n_copied; i++) {
		const struct mbd_region *r = &ts->regions[i];

		if (!r->size) {
			note(f, MBD_CLASS_INVARIANT, where, "%s: region %zu"
			     " (base 0x%" PRIx64 ") is empty", nm, i, r->base);
			ok = false;
		} else if (r->size > UINT64_MAX - r->base) {
			note(f, MBD_CLASS_INVARIANT, where, "%s: region %zu base"
			     " 0x%" PRIx64 " size 0x%" PRIx64 " wraps", nm, i,
			     r->base, r->size);
			ok = false;
		}
		if (i && mbd_region_end(&ts->regions[i - 1]) > r->base) {
			note(f, MBD_CLASS_INVARIANT, where, "%s: region %zu base"
			     " 0x%" PRIx64 " below end 0x%" PRIx64 " of region %zu",
			     nm, i, r->base, mbd_region_end(&ts->regions[i - 1]),
			     i - 1);
			ok = false;
		}
	}
	if (ts->total_size != o->total[ty])
		note(f, MBD_CLASS_INVARIANT, where, "%s: total_size 0x%" PRIx64
		     " expected 0x%" PRIx64, nm, ts->total_size, o->total[ty]);
	if (!ok)
		return;         /* coverage of a malformed array is undefined */

	mbd_run_src_ivals(&a, o->t[ty].v, o->t[ty].n);
	mbd_run_src_regions(&b, ts->regions, ts->n_copied);
	if (!mbd_runs_diff(&a, &b, &d))
		return;
	describe_attr(ma, sizeof(ma), d.flags_a, d.nid_a);
	describe_attr(va, sizeof(va), d.flags_b, d.nid_b);
	if (!d.in_b)
		note(f, MBD_CLASS_COVERAGE, where, "%s: [0x%" PRIx64 "-0x%" PRIx64
		     "] missing (model: %s)", nm, d.start, d.end - 1, ma);
	else if (!d.in_a)
		note(f, MBD_CLASS_COVERAGE, where, "%s: [0x%" PRIx64 "-0x%" PRIx64
		     "] extra (%s)", nm, d.start, d.end - 1, va);
	else
		note(f, MBD_CLASS_COVERAGE, where, "%s: [0x%" PRIx64 "-0x%" PRIx64
		     "] %s (model: %s)", nm, d.start, d.end - 1, va, ma);
}

/*
 * A region array that memblock allocated must stay reserved, and the two
 * arrays must not share bytes: otherwise the next allocation or doubling
 * writes over a live array. Checked at the call that breaks it, which can
 * be long before the corruption becomes visible as a coverage difference.
 */
static void check_arrays(const struct mbd_oracle *o, const struct mbd_state *st,
			 struct mbd_oracle_finding *f)
{
	const struct mbd_type_state *ts[2] = { &st->memory, &st->reserved };
	uint64_t lo[2], hi[2];
	bool live[2];

	for (int ty = 0; ty < 2; ty++) {
		live[ty] = !ts[ty]->regions_static && !ts[ty]->regions_slab;
		lo[ty] = ts[ty]->regions_pa;
		hi[ty] = cap_end(lo[ty], array_bytes(ts[ty]->max));
		if (live[ty] && mbd_iset_holes(&o->t[RSV], lo[ty], hi[ty]))
			note(f, MBD_CLASS_INVARIANT, MBD_WHERE_RESERVED, "%s array"
			     " [0x%" PRIx64 "-0x%" PRIx64 "] is not reserved",
			     type_name[ty], lo[ty], hi[ty] - 1);
	}
	if (live[MEM] && live[RSV] && lo[MEM] < hi[RSV] && lo[RSV] < hi[MEM])
		note(f, MBD_CLASS_INVARIANT, MBD_WHERE_RESERVED, "memory array"
		     " [0x%" PRIx64 "-0x%" PRIx64 "] overlaps reserved array [0x%"
		     PRIx64 "-0x%" PRIx64 "]", lo[MEM], hi[MEM] - 1, lo[RSV],
		     hi[RSV] - 1);
}

/* ------------------------------------------------------------------- step */

static const struct mbd_type_state *tstate(const struct mbd_state *s, int ty)
{
	return ty == MEM ? &s->memory : &s->reserved;
}

/* Apply a range call's effect (after any array move). */
static void apply_range_op(struct mbd_oracle *o, const struct mbd_op *op,
			   uint64_t s, uint64_t e)
{
	switch (op->kind) {
	case MBD_OP_ADD:
		model_add(o, MEM, s, e, 0, MBD_MAX_NUMNODES);
		break;
	case MBD_OP_ADD_NODE:
		model_add(o, MEM, s, e, op->flags, op->nid);
		break;
	case MBD_OP_RESERVE:
		model_add(o, RSV, s, e, 0, MBD_MAX_NUMNODES);
		break;
	case MBD_OP_REMOVE:
		model_sub(o, MEM, s, e);
		break;
	case MBD_OP_PHYS_FREE:
		model_sub(o, RSV, s, e);
		break;
	case MBD_OP_MARK_HOTPLUG:
		model_modify(o, MEM, s, e, MBD_FLAG_HOTPLUG, 0, false, 0);
		break;
	case MBD_OP_CLEAR_HOTPLUG:
		model_modify(o, MEM, s, e, 0, MBD_FLAG_HOTPLUG, false, 0);
		break;
	case MBD_OP_MARK_MIRROR:
		model_modify(o, MEM, s, e, MBD_FLAG_MIRROR, 0, false, 0);
		break;
	case MBD_OP_MARK_NOMAP:
		model_modify(o, MEM, s, e, MBD_FLAG_NOMAP, 0, false, 0);
		break;
	case MBD_OP_CLEAR_NOMAP:
		model_modify(o, MEM, s, e, 0, MBD_FLAG_NOMAP, false, 0);
		break;
	case MBD_OP_MARK_NOINIT:
		model_modify(o, RSV, s, e, MBD_FLAG_RSRV_NOINIT, 0, false, 0);
		break;
	case MBD_OP_SET_NODE:
		model_modify(o, op->type == MBD_TYPE_RESERVED ? RSV : MEM, s, e,
			     0, 0, true, op->nid);
		break;
	default:
		break;
	}
}

/* Which type a range call edits, and whether it goes through add_range. */
static int range_op_type(const struct mbd_op *op, bool *is_add)
{
	*is_add = op->kind == MBD_OP_ADD || op->kind == MBD_OP_ADD_NODE ||
		  op->kind == MBD_OP_RESERVE;
	switch (op->kind) {
	case MBD_OP_RESERVE:
	case MBD_OP_PHYS_FREE:
	case MBD_OP_MARK_NOINIT:
		return RSV;
	case MBD_OP_SET_NODE:
		return op->type == MBD_TYPE_RESERVED ? RSV : MEM;
	default:
		return MEM;
	}
}

static bool is_range_op(uint32_t kind)
{
	switch (kind) {
	case MBD_OP_ADD: case MBD_OP_ADD_NODE: case MBD_OP_REMOVE:
	case MBD_OP_RESERVE: case MBD_OP_PHYS_FREE: case MBD_OP_MARK_HOTPLUG:
	case MBD_OP_CLEAR_HOTPLUG: case MBD_OP_MARK_MIRROR: case MBD_OP_MARK_NOMAP:
	case MBD_OP_CLEAR_NOMAP: case MBD_OP_MARK_NOINIT: case MBD_OP_SET_NODE:
		return true;
	default:
		return false;
	}
}

enum mbd_class mbd_oracle_step(struct mbd_oracle *o, const struct mbd_op *op,
			       const struct mbd_state *before,
			       const struct mbd_state *after,
			       const struct mbd_result *res,
			       struct mbd_oracle_finding *f)
{
	bool effect = false;
	uint64_t s = 0, e = 0;

	memset(f, 0, sizeof(*f));
	f->cls = MBD_CLASS_NONE;
	f->where = MBD_WHERE_CALL;
	if (o->broken)
		return MBD_CLASS_NONE;

	/* (1) what only the state before the call can tell */
	if (is_range_op(op->kind)) {
		bool is_add;
		int ty = range_op_type(op, &is_add);
		const struct mbd_type_state *ts = tstate(before, ty);
		bool need;

		s = op->base;
		e = cap_end(op->base, op->size);
		if (op->kind == MBD_OP_MARK_MIRROR && !o->mirror_cfg) {
			if (res->ret != 0)
				note(f, MBD_CLASS_RETURN, MBD_WHERE_CALL,
				     "%s returned %" PRId64 " without mirrored"
				     " kernelcore, expected 0",
				     mbd_op_name(op->kind), res->ret);
		} else {
			if (op->kind == MBD_OP_MARK_MIRROR)
				o->has_mirror = true;
			need = is_add ? add_needs_room(o, ty, ts, s, e)
				      : isolate_needs_room(ts, s, e);
			effect = judge_status(op, res->ret, need, ts, ty, f);
		}
	} else if (op->kind == MBD_OP_ALLOC_RANGE || op->kind == MBD_OP_ALLOC_TRY_NID) {
		judge_alloc(o, op, before, res->ret, f);
	}

	/* (2) region arrays that moved during the call */
	apply_move(o, &before->memory, &after->memory);
	apply_move(o, &before->reserved, &after->reserved);

	/* (3) the call's own effect */
	switch (op->kind) {
	case MBD_OP_ALLOC_RANGE:
	case MBD_OP_ALLOC_TRY_NID:
		if (!o->slab && res->ret)
			model_add(o, RSV, (uint64_t)res->ret,
				  cap_end((uint64_t)res->ret, op->size), 0,
				  MBD_MAX_NUMNODES);
		break;
	case MBD_OP_SET_LIMIT:
		o->limit = clamp_limit(op->value);
		break;
	case MBD_OP_ALLOW_RESIZE:
		o->resize = true;
		break;
	case MBD_OP_SET_BOTTOM_UP:
		o->bottom_up = op->value != 0;
		break;
	case MBD_OP_SLAB_UP:
		o->slab = true;
		break;
	case MBD_OP_TRIM:
		model_trim(o, op->value);
		break;
	default:
		if (effect)
			apply_range_op(o, op, s, e);
		break;
	}
	if (o->broken) {
		snprintf(f->detail, sizeof(f->detail), "oracle out of memory");
		return f->cls;
	}

	/* (4) the variant's arrays after the call */
	check_type(o, MEM, &after->memory, f);
	check_type(o, RSV, &after->reserved, f);
	check_arrays(o, after, f);
	if (o->trim_wrapped && f->cls == MBD_CLASS_INVARIANT &&
	    f->where == MBD_WHERE_MEMORY) {
		char d[sizeof(f->detail)];

		/* a known mainline overflow, not a variant's own fault */
		snprintf(d, sizeof(d), "trim round_up() wrapped to 0: %.200s", f->detail);
		memcpy(f->detail, d, sizeof(d));
	}
	o->trim_wrapped = false;
	return f->cls;
}

void mbd_oracle_dump(const struct mbd_oracle *o, enum mbd_type_sel type,
		     FILE *out)
{
	int ty = type == MBD_TYPE_RESERVED ? RSV : MEM;
	const struct mbd_iset *set = &o->t[ty];

	fprintf(out, "oracle %s: %zu runs, %" PRIu64 " bytes, total_size 0x%"
		PRIx64 "\n", type_name[ty], set->n, mbd_iset_bytes(set),
		o->total[ty]);
	for (size_t i = 0; i < set->n; i++)
		fprintf(out, "  [0x%016" PRIx64 "-0x%016" PRIx64 "] flags 0x%x"
			" nid %d\n", set->v[i].start, set->v[i].end - 1,
			set->v[i].flags, set->v[i].nid);
}
