// SPDX-License-Identifier: GPL-2.0
/*
 * Coalesced interval sets and run streams. Every edit rebuilds the set into
 * a scratch array in one ascending pass and swaps it in: O(n) per edit and
 * no allocation once the buffers are big enough.
 */
#include <stdlib.h>
#include <string.h>

#include "mbd_interval.h"

void mbd_iset_init(struct mbd_iset *s)
{
	memset(s, 0, sizeof(*s));
}

void mbd_iset_free(struct mbd_iset *s)
{
	free(s->v);
	free(s->tmp);
	mbd_iset_init(s);
}

void mbd_iset_clear(struct mbd_iset *s)
{
	s->n = 0;
}

static int grow(struct mbd_ival **v, size_t *cap, size_t need)
{
	size_t c;
	struct mbd_ival *nv;

	if (need <= *cap)
		return 0;
	/* start big: a buffer that grows mid-campaign makes the same input take
	 * different paths (unstable coverage for AFL++) */
	c = *cap ? *cap : 8192;
	while (c < need)
		c *= 2;
	nv = realloc(*v, c * sizeof(*nv));
	if (!nv)
		return -1;
	*v = nv;
	*cap = c;
	return 0;
}

/* Append to out[0..*n), merging with the last interval when they touch and
 * share attributes; that keeps every rebuilt set canonical. */
static void emit(struct mbd_ival *out, size_t *n, uint64_t start, uint64_t end,
		 uint32_t flags, int32_t nid)
{
	struct mbd_ival *last = *n ? &out[*n - 1] : NULL;

	if (start >= end)
		return;
	if (last && last->end == start && last->flags == flags && last->nid == nid) {
		last->end = end;
		return;
	}
	out[*n].start = start;
	out[*n].end = end;
	out[*n].flags = flags;
	out[*n].nid = nid;
	(*n)++;
}

int mbd_iset_copy(struct mbd_iset *dst, const struct mbd_iset *src)
{
	if (grow(&dst->v, &dst->cap, src->n))
		return -1;
	if (src->n)
		memcpy(dst->v, src->v, src->n * sizeof(*src->v));
	dst->n = src->n;
	return 0;
}

int mbd_iset_reserve(struct mbd_iset *s)
{
	if (grow(&s->v, &s->cap, 1) || grow(&s->tmp, &s->tmp_cap, 1))
		return -1;
	return 0;
}

/* Room for any rebuild of the current set: each edit at most doubles the
 * interval count plus two. */
static int prepare(struct mbd_iset *s)
{
	return grow(&s->tmp, &s->tmp_cap, 2 * s->n + 2);
}

static void swap_in(struct mbd_iset *s, size_t n)
{
	struct mbd_ival *v = s->v;
	size_t cap = s->cap;

	s->v = s->tmp;
	s->cap = s->tmp_cap;
	s->n = n;
	s->tmp = v;
	s->tmp_cap = cap;
}

int mbd_iset_add(struct mbd_iset *s, uint64_t start, uint64_t end,
		 uint32_t flags, int32_t nid)
{
	uint64_t cur = start;
	size_t n = 0;

	if (start >= end)
		return 0;
	if (prepare(s))
		return -1;
	for (size_t i = 0; i < s->n; i++) {
		const struct mbd_ival *iv = &s->v[i];

		/* the uncovered piece of the new range below this interval */
		if (cur < end && iv->start > cur) {
			uint64_t e = iv->start < end ? iv->start : end;

			emit(s->tmp, &n, cur, e, flags, nid);
			cur = e;
		}
		emit(s->tmp, &n, iv->start, iv->end, iv->flags, iv->nid);
		if (iv->end > cur)
			cur = iv->end;
	}
	if (cur < end)
		emit(s->tmp, &n, cur, end, flags, nid);
	swap_in(s, n);
	return 0;
}

int mbd_iset_sub(struct mbd_iset *s, uint64_t start, uint64_t end)
{
	size_t n = 0;

	if (start >= end)
		return 0;
	if (prepare(s))
		return -1;
	for (size_t i = 0; i < s->n; i++) {
		const struct mbd_ival *iv = &s->v[i];

		if (iv->end <= start || iv->start >= end) {
			emit(s->tmp, &n, iv->start, iv->end, iv->flags, iv->nid);
			continue;
		}
		if (iv->start < start)
			emit(s->tmp, &n, iv->start, start, iv->flags, iv->nid);
		if (iv->end > end)
			emit(s->tmp, &n, end, iv->end, iv->flags, iv->nid);
	}
	swap_in(s, n);
	return 0;
}

int mbd_iset_modify(struct mbd_iset *s, uint64_t start, uint64_t end,
		    uint32_t set, uint32_t clear, bool set_nid, int32_t new_nid)
{
	size_t n = 0;

	if (start >= end)
		return 0;
	if (prepare(s))
		return -1;
	for (size_t i = 0; i < s->n; i++) {
		const struct mbd_ival *iv = &s->v[i];
		uint64_t lo, hi;

		if (iv->end <= start || iv->start >= end) {
			emit(s->tmp, &n, iv->start, iv->end, iv->flags, iv->nid);
			continue;
		}
		lo = iv->start > start ? iv->start : start;
		hi = iv->end < end ? iv->end : end;
		emit(s->tmp, &n, iv->start, lo, iv->flags, iv->nid);
		emit(s->tmp, &n, lo, hi, (iv->flags | set) & ~clear,
		     set_nid ? new_nid : iv->nid);
		emit(s->tmp, &n, hi, iv->end, iv->flags, iv->nid);
	}
	swap_in(s, n);
	return 0;
}

int mbd_iset_push(struct mbd_iset *s, uint64_t start, uint64_t end,
		  uint32_t flags, int32_t nid)
{
	if (start >= end)
		return 0;
	if (s->n && start < s->v[s->n - 1].end)
		return mbd_iset_add(s, start, end, flags, nid);
	if (grow(&s->v, &s->cap, s->n + 1))
		return -1;
	emit(s->v, &s->n, start, end, flags, nid);
	return 0;
}

uint64_t mbd_iset_bytes(const struct mbd_iset *s)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < s->n; i++)
		sum += s->v[i].end - s->v[i].start;
	return sum;
}

/* Index of the first interval ending above addr (s->n if none). */
static size_t first_above(const struct mbd_iset *s, uint64_t addr)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool mbd_iset_overlaps(const struct mbd_iset *s, uint64_t start, uint64_t end)
{
	size_t i;

	if (start >= end)
		return false;
	i = first_above(s, start);
	return i < s->n && s->v[i].start < end;
}

size_t mbd_iset_holes(const struct mbd_iset *s, uint64_t start, uint64_t end)
{
	uint64_t cur = start;
	size_t holes = 0;

	if (start >= end)
		return 0;
	for (size_t i = first_above(s, start); i < s->n && s->v[i].start < end; i++) {
		if (s->v[i].start > cur)
			holes++;
		cur = s->v[i].end;
	}
	if (cur < end)
		holes++;
	return holes;
}

const struct mbd_ival *mbd_iset_find(const struct mbd_iset *s, uint64_t addr)
{
	size_t i = first_above(s, addr);

	return i < s->n && s->v[i].start <= addr ? &s->v[i] : NULL;
}

uint64_t mbd_region_end(const struct mbd_region *r)
{
	return r->size > UINT64_MAX - r->base ? UINT64_MAX : r->base + r->size;
}

bool mbd_regions_well_formed(const struct mbd_region *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!r[i].size || r[i].size > UINT64_MAX - r[i].base)
			return false;
		if (i && r[i - 1].base + r[i - 1].size > r[i].base)
			return false;
	}
	return true;
}

void mbd_run_src_ivals(struct mbd_run_src *s, const struct mbd_ival *v, size_t n)
{
	memset(s, 0, sizeof(*s));
	s->iv = v;
	s->n = n;
}

void mbd_run_src_regions(struct mbd_run_src *s, const struct mbd_region *r, size_t n)
{
	memset(s, 0, sizeof(*s));
	s->rg = r;
	s->n = n;
}

/* Next disjoint, non-empty piece, not yet coalesced. */
static bool raw_next(struct mbd_run_src *s, struct mbd_ival *out)
{
	while (s->i < s->n) {
		uint64_t start, end;
		uint32_t flags;
		int32_t nid;

		if (s->iv) {
			const struct mbd_ival *v = &s->iv[s->i++];

			start = v->start;
			end = v->end;
			flags = v->flags;
			nid = v->nid;
		} else {
			const struct mbd_region *r = &s->rg[s->i++];

			start = r->base;
			end = mbd_region_end(r);
			flags = r->flags;
			nid = r->nid;
		}
		if (start < s->covered)
			start = s->covered;
		if (start >= end)
			continue;
		s->covered = end;
		out->start = start;
		out->end = end;
		out->flags = flags;
		out->nid = nid;
		return true;
	}
	return false;
}

bool mbd_run_src_next(struct mbd_run_src *s, struct mbd_ival *out)
{
	struct mbd_ival p;

	if (s->have_peek) {
		*out = s->peek;
		s->have_peek = false;
	} else if (!raw_next(s, out)) {
		return false;
	}
	while (raw_next(s, &p)) {
		if (p.start == out->end && p.flags == out->flags && p.nid == out->nid) {
			out->end = p.end;
			continue;
		}
		s->peek = p;
		s->have_peek = true;
		break;
	}
	return true;
}

/* The k-th element of a fresh stream's array, as raw_next() reads it. */
static void raw_at(const struct mbd_run_src *s, size_t k, struct mbd_ival *out)
{
	if (s->iv) {
		*out = s->iv[k];
	} else {
		out->start = s->rg[k].base;
		out->end = mbd_region_end(&s->rg[k]);
		out->flags = s->rg[k].flags;
		out->nid = s->rg[k].nid;
	}
}

/*
 * Two fresh streams over element-wise equal arrays yield the same runs:
 * the common case of the oracle's check (a region array that matches its
 * model interval for interval), without the coalescing walk.
 */
static bool same_arrays(struct mbd_run_src *a, struct mbd_run_src *b)
{
	struct mbd_ival x, y;

	if (a->n != b->n || a->i || b->i || a->have_peek || b->have_peek ||
	    a->covered || b->covered)
		return false;
	for (size_t k = 0; k < a->n; k++) {
		raw_at(a, k, &x);
		raw_at(b, k, &y);
		if (x.start != y.start || x.end != y.end || x.flags != y.flags ||
		    x.nid != y.nid)
			return false;
	}
	a->i = a->n;
	b->i = b->n;
	return true;
}

bool mbd_runs_diff(struct mbd_run_src *a, struct mbd_run_src *b,
		   struct mbd_run_diff *d)
{
	struct mbd_ival ca, cb;
	bool ha, hb;
	uint64_t pos = 0;

	if (same_arrays(a, b))
		return false;
	ha = mbd_run_src_next(a, &ca);
	hb = mbd_run_src_next(b, &cb);

	for (;;) {
		bool ina, inb;
		uint64_t ea, eb;

		while (ha && ca.end <= pos)
			ha = mbd_run_src_next(a, &ca);
		while (hb && cb.end <= pos)
			hb = mbd_run_src_next(b, &cb);
		if (!ha && !hb)
			return false;
		ina = ha && ca.start <= pos;
		inb = hb && cb.start <= pos;
		ea = ina ? ca.end : ha ? ca.start : UINT64_MAX;
		eb = inb ? cb.end : hb ? cb.start : UINT64_MAX;
		if (ina != inb || (ina && (ca.flags != cb.flags || ca.nid != cb.nid))) {
			memset(d, 0, sizeof(*d));
			d->start = pos;
			d->end = ea < eb ? ea : eb;
			d->in_a = ina;
			d->in_b = inb;
			if (ina) {
				d->flags_a = ca.flags;
				d->nid_a = ca.nid;
			}
			if (inb) {
				d->flags_b = cb.flags;
				d->nid_b = cb.nid;
			}
			return true;
		}
		pos = ea < eb ? ea : eb;
	}
}
