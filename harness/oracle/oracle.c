// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle: memblock's API contract as two coalesced interval sets,
 * replayed call by call next to one variant (oracle_alloc.c predicts
 * allocations; oracle_setup.c makes, resets and copies an oracle). The
 * contract is v7.3's; for variants that model or are older kernels
 * (mbd_oracle_set_kver()) the two later changes that show in the arrays
 * are taken back:
 *  - v6.16: memblock_reserve() records NUMA_NO_NODE, memblock's own
 *    reservations (grown arrays, allocations) carry MEMBLOCK_RSRV_KERN and
 *    allocations the node they were found for; before, all of them were
 *    (MAX_NUMNODES, no flags);
 *  - v7.1: memblock_phys_free() after slab is up leaves reserved alone
 *    (no CONFIG_ARCH_KEEP_MEMBLOCK); before, it always removed the range.
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
#include <string.h>

#include "mbd_interval.h"
#include "mbd_oracle.h"
#include "oracle_int.h"

static const char *const type_name[2] = { "memory", "reserved" };

/* Node of a memblock_reserve() call. */
static int32_t reserve_nid(const struct mbd_oracle *o)
{
	return o->rsrv_kern ? MBD_NUMA_NO_NODE : MBD_MAX_NUMNODES;
}

/* Flags and node memblock records for its own reservations on nid. */
static void kern_attr(const struct mbd_oracle *o, int32_t nid,
		      uint32_t *flags, int32_t *out_nid)
{
	*flags = o->rsrv_kern ? MBD_FLAG_RSRV_KERN : 0;
	*out_nid = o->rsrv_kern ? nid : MBD_MAX_NUMNODES;
}

/* Does memblock_phys_free() edit memblock.reserved at all right now? */
static bool free_edits_reserved(const struct mbd_oracle *o)
{
	return !(o->late_free && o->slab);
}

/* ---------------------------------------------------------------- findings */

/* ------------------------------------------------------------ model edits */

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

/* memblock_double_array() as seen from outside: the old array (unless
 * static or kmalloc'ed) is freed from reserved (not once slab is up, since
 * v7.1), the new one (unless kmalloc'ed) is reserved as memblock's own.
 * Intermediate arrays of a multi-step doubling net to zero and are
 * invisible. */
static void apply_move(struct mbd_oracle *o, const struct mbd_type_state *b,
		       const struct mbd_type_state *a)
{
	uint32_t flags;
	int32_t nid;

	/* same address and max: no move. Same address, new max: a multi-step
	 * doubling came back to the first address (never the static array) */
	if (b->regions_pa == a->regions_pa &&
	    (b->max == a->max || a->regions_static))
		return;
	if (!b->regions_static && !b->regions_slab && free_edits_reserved(o))
		model_sub(o, RSV, b->regions_pa,
			  mbd_orc_cap_end(b->regions_pa, mbd_orc_array_bytes(b->max)));
	kern_attr(o, MBD_NUMA_NO_NODE, &flags, &nid);
	if (!a->regions_slab)
		model_add(o, RSV, a->regions_pa,
			  mbd_orc_cap_end(a->regions_pa, mbd_orc_array_bytes(a->max)),
			  flags, nid);
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
		mbd_orc_note(f, MBD_CLASS_RETURN, MBD_WHERE_CALL, MBD_CL_ENOMEM_WITH_ROOM, "%s returned -12 but %s"
		     " had room (cnt %" PRIu64 " max %" PRIu64 ")",
		     mbd_op_name(op->kind), type_name[ty], ts->cnt, ts->max);
	else
		mbd_orc_note(f, MBD_CLASS_RETURN, MBD_WHERE_CALL, MBD_CL_BAD_RETURN, "%s returned %" PRId64
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
		mbd_orc_note(f, MBD_CLASS_INVARIANT, where, MBD_CL_CNT_OVER_MAX, "%s: cnt %" PRIu64 " > max %"
		     PRIu64, nm, ts->cnt, ts->max);
		ok = false;
	}
	if (ts->n_copied != ts->cnt) {
		mbd_orc_note(f, MBD_CLASS_INVARIANT, where, MBD_CL_CNT_HELD, "%s: snapshot holds %zu of %"
		     PRIu64 " regions", nm, ts->n_copied, ts->cnt);
		ok = false;
	}
	for (size_t i = 0; i < ts->n_copied; i++) {
		const struct mbd_region *r = &ts->regions[i];

		if (!r->size) {
			mbd_orc_note(f, MBD_CLASS_INVARIANT, where, MBD_CL_EMPTY_REGION, "%s: region %zu"
			     " (base 0x%" PRIx64 ") is empty", nm, i, r->base);
			ok = false;
		} else if (r->size > UINT64_MAX - r->base) {
			mbd_orc_note(f, MBD_CLASS_INVARIANT, where, MBD_CL_WRAPS, "%s: region %zu base"
			     " 0x%" PRIx64 " size 0x%" PRIx64 " wraps", nm, i,
			     r->base, r->size);
			ok = false;
		}
		if (i && mbd_region_end(&ts->regions[i - 1]) > r->base) {
			mbd_orc_note(f, MBD_CLASS_INVARIANT, where, MBD_CL_UNSORTED, "%s: region %zu base"
			     " 0x%" PRIx64 " below end 0x%" PRIx64 " of region %zu",
			     nm, i, r->base, mbd_region_end(&ts->regions[i - 1]),
			     i - 1);
			ok = false;
		}
	}
	if (ts->total_size != o->total[ty])
		mbd_orc_note(f, MBD_CLASS_INVARIANT, where, MBD_CL_TOTAL_SIZE, "%s: total_size 0x%" PRIx64
		     " expected 0x%" PRIx64, nm, ts->total_size, o->total[ty]);
	if (!ok)
		return;         /* coverage of a malformed array is undefined */

	mbd_run_src_ivals(&a, o->t[ty].v, o->t[ty].n);
	mbd_run_src_regions(&b, ts->regions, ts->n_copied);
	if (!mbd_runs_diff(&a, &b, &d))
		return;
	ma[0] = va[0] = '\0';
	if (MBD_CLASS_COVERAGE >= f->text_min) {
		describe_attr(ma, sizeof(ma), d.flags_a, d.nid_a);
		describe_attr(va, sizeof(va), d.flags_b, d.nid_b);
	}
	if (!d.in_b)
		mbd_orc_note(f, MBD_CLASS_COVERAGE, where, MBD_CL_MISSING, "%s: [0x%" PRIx64 "-0x%" PRIx64
		     "] missing (model: %s)", nm, d.start, d.end - 1, ma);
	else if (!d.in_a)
		mbd_orc_note(f, MBD_CLASS_COVERAGE, where, MBD_CL_EXTRA, "%s: [0x%" PRIx64 "-0x%" PRIx64
		     "] extra (%s)", nm, d.start, d.end - 1, va);
	else
		mbd_orc_note(f, MBD_CLASS_COVERAGE, where, MBD_CL_ATTR, "%s: [0x%" PRIx64 "-0x%" PRIx64
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
		hi[ty] = mbd_orc_cap_end(lo[ty], mbd_orc_array_bytes(ts[ty]->max));
		if (live[ty] && mbd_iset_holes(&o->t[RSV], lo[ty], hi[ty]))
			mbd_orc_note(f, MBD_CLASS_INVARIANT, MBD_WHERE_RESERVED, MBD_CL_ARRAY_UNRESERVED, "%s array"
			     " [0x%" PRIx64 "-0x%" PRIx64 "] is not reserved",
			     type_name[ty], lo[ty], hi[ty] - 1);
	}
	if (live[MEM] && live[RSV] && lo[MEM] < hi[RSV] && lo[RSV] < hi[MEM])
		mbd_orc_note(f, MBD_CLASS_INVARIANT, MBD_WHERE_RESERVED, MBD_CL_ARRAYS_OVERLAP, "memory array"
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
		model_add(o, RSV, s, e, 0, reserve_nid(o));
		break;
	case MBD_OP_RESERVE_KERN:
		/* only variants of v6.16+ get here: the others stop (glue.c) */
		model_add(o, RSV, s, e, MBD_FLAG_RSRV_KERN, op->nid);
		break;
	case MBD_OP_REMOVE:
		model_sub(o, MEM, s, e);
		break;
	case MBD_OP_PHYS_FREE:
		if (free_edits_reserved(o))
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
		  op->kind == MBD_OP_RESERVE || op->kind == MBD_OP_RESERVE_KERN;
	switch (op->kind) {
	case MBD_OP_RESERVE:
	case MBD_OP_RESERVE_KERN:
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
	case MBD_OP_RESERVE_KERN:
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
	return mbd_oracle_step_text(o, op, before, after, res, f, MBD_CLASS_NONE);
}

enum mbd_class mbd_oracle_step_text(struct mbd_oracle *o, const struct mbd_op *op,
				    const struct mbd_state *before,
				    const struct mbd_state *after,
				    const struct mbd_result *res,
				    struct mbd_oracle_finding *f,
				    enum mbd_class text_min)
{
	bool effect = false;
	int alloc_nid = MBD_NUMA_NO_NODE;
	uint32_t kflags;
	int32_t knid;
	uint64_t s = 0, e = 0;

	/* no memset: most of *f is text, read up to its terminator only
	   (a step per op and variant; it showed in profiles) */
	f->text_min = text_min;
	f->cls = MBD_CLASS_NONE;
	f->clause = MBD_CL_NONE;
	f->clauses = 0;
	f->where = MBD_WHERE_CALL;
	f->detail[0] = '\0';
	if (o->broken)
		return MBD_CLASS_NONE;

	/* (1) what only the state before the call can tell */
	if (is_range_op(op->kind)) {
		bool is_add;
		int ty = range_op_type(op, &is_add);
		const struct mbd_type_state *ts = tstate(before, ty);
		bool need;

		s = op->base;
		e = mbd_orc_cap_end(op->base, op->size);
		if (op->kind == MBD_OP_MARK_MIRROR && !o->mirror_cfg) {
			if (res->ret != 0)
				mbd_orc_note(f, MBD_CLASS_RETURN, MBD_WHERE_CALL, MBD_CL_BAD_RETURN,
				     "%s returned %" PRId64 " without mirrored"
				     " kernelcore, expected 0",
				     mbd_op_name(op->kind), res->ret);
		} else {
			if (op->kind == MBD_OP_MARK_MIRROR)
				o->has_mirror = true;
			need = is_add ? add_needs_room(o, ty, ts, s, e)
				      : isolate_needs_room(ts, s, e);
			/* a late free does not touch the array at all */
			if (op->kind == MBD_OP_PHYS_FREE && !free_edits_reserved(o))
				need = false;
			effect = judge_status(op, res->ret, need, ts, ty, f);
		}
	} else if (op->kind == MBD_OP_ALLOC_RANGE || op->kind == MBD_OP_ALLOC_TRY_NID) {
		alloc_nid = mbd_orc_judge_alloc(o, op, before, res->ret, f);
	}

	/* (2) region arrays that moved during the call */
	apply_move(o, &before->memory, &after->memory);
	apply_move(o, &before->reserved, &after->reserved);

	/* (3) the call's own effect */
	switch (op->kind) {
	case MBD_OP_ALLOC_RANGE:
	case MBD_OP_ALLOC_TRY_NID:
		kern_attr(o, alloc_nid, &kflags, &knid);
		if (!o->slab && res->ret)
			model_add(o, RSV, (uint64_t)res->ret,
				  mbd_orc_cap_end((uint64_t)res->ret, op->size),
				  kflags, knid);
		break;
	case MBD_OP_SET_LIMIT:
		o->limit = mbd_orc_clamp_limit(op->value);
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
