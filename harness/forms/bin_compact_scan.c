// SPDX-License-Identifier: GPL-2.0
/*
 * The compact encoder's reuse of earlier values: the codes that turn an
 * earlier endpoint or length of a ring into an operand (a byte or a page
 * off, or -16..+15 pages), and the granule filters that skip a scan of a
 * ring when nothing in it is near enough.
 */
#include "bin_compact_int.h"

/* The i-th most recent value (i < ring_len): ring_pick without the
 * modulo, inline because the scans below call it for every slot. */
static inline uint64_t ring_at(const struct ring *g, uint32_t i)
{
	return g->v[(g->n - 1 - i) % N_RING];
}

/*
 * The fine-delta code (docs/binary-format.md) that turns a into v: the
 * selector's low bits, and *x >= 0 for the extra byte it needs. -1 if
 * no code does.
 */
static inline int fine_code(uint64_t a, uint64_t v, int *x)
{
	int64_t d = (int64_t)(v - a);

	*x = -1;
	/* the common case first: v is nowhere near a */
	if (v - a + 16 > 32 && v - a != MBD_PAGE_SIZE && a - v != MBD_PAGE_SIZE)
		return -1;
	switch (d) {
	case 0: return 0;
	case 1: return 20;
	case -1: return 21;
	case (int64_t)MBD_PAGE_SIZE: return 22;
	case -(int64_t)MBD_PAGE_SIZE: return 23;
	}
	if (d < -16 || d > 16)
		return -1;
	*x = (int)(d + 16);
	return 24;
}

/* Page-delta code (-16..+15 pages) that turns a into v, or -1. */
static inline int page_code(uint64_t a, uint64_t v)
{
	int64_t d = (int64_t)(v - a);

	/* outside -16..+15 pages, or not a whole number of pages */
	if (v - a + 16 * MBD_PAGE_SIZE > 31 * MBD_PAGE_SIZE ||
	    ((v - a) & (MBD_PAGE_SIZE - 1)))
		return -1;
	d /= (int64_t)MBD_PAGE_SIZE;
	return d >= -16 && d <= 15 ? (int)(d + 16) : -1;
}

/* "selector | code, index[, extra]" when the code exists. */
static void add_reuse(struct cands *cs, unsigned sel, int code, uint32_t i, int x)
{
	if (code < 0)
		return;
	if (x < 0)
		add(cs, 2, sel | (unsigned)code, i, 0);
	else
		add(cs, 3, sel | (unsigned)code, i, (unsigned)x);
}

static unsigned rf_hash(uint64_t a)
{
	return (unsigned)(((a >> GRANULE_SHIFT) * 0x9e3779b97f4a7c15ULL) >> 54);
}

/* Add the values g got since the last look (at most its last N_RING). */
static void rf_sync(struct rfilt *f, const struct ring *g)
{
	uint32_t i = g->n - f->seen > N_RING ? g->n - N_RING : f->seen;

	for (; i != g->n; i++) {
		unsigned h = rf_hash(g->v[i % N_RING]);

		f->w[h >> 6] |= 1ULL << (h & 63);
	}
	f->seen = g->n;
}

static bool rf_has(const struct rfilt *f, uint64_t a)
{
	unsigned h = rf_hash(a);

	return f->w[h >> 6] >> (h & 63) & 1;
}

/* Might g hold a value in [x - below, x + above] (mod 2^64)? The span is
 * under two granules, so its two ends and the granule after the first
 * name every granule it touches. */
static bool rf_near(struct rfilt *f, const struct ring *g, uint64_t x,
		    uint64_t below, uint64_t above)
{
	uint64_t lo = x - below;

#ifdef MBD_COMPACT_NO_SHORTCUTS
	return true; /* test_compact_paths: every scan */
#endif
	rf_sync(f, g);
	return rf_has(f, lo) || rf_has(f, lo + (1ULL << GRANULE_SHIFT)) ||
	       rf_has(f, x + above);
}

/*
 * The first earlier value of g with a code into v; codes needing no extra
 * byte are preferred (one is enough: the scan stops there).
 */
void mbd_compact_scan_fine(struct cands *cs, unsigned sel, struct rfilt *f,
			   const struct ring *g, uint64_t off, uint64_t v,
			   bool above)
{
	bool have3 = false;

	/* a - off is within a page of v */
	if (!rf_near(f, g, v + off, MBD_PAGE_SIZE, MBD_PAGE_SIZE))
		return;

	for (uint32_t i = 0; i < ring_len(g); i++) {
		uint64_t a = ring_at(g, i);
		int x, code;

		if (above && a <= off)
			continue; /* pick_above(i) is a itself only when a > base */
		code = fine_code(a - off, v, &x);
		if (code >= 0 && x < 0) {
			add_reuse(cs, sel, code, i, x);
			return;
		}
		if (code >= 0 && !have3) {
			add_reuse(cs, sel, code, i, x);
			have3 = true;
		}
	}
}

void mbd_compact_scan_page(struct cands *cs, unsigned sel, struct rfilt *f,
			   const struct ring *g, uint64_t off, uint64_t v,
			   bool above)
{
	/* a - off is v - 15 .. v + 16 pages */
	if (!rf_near(f, g, v + off, 15 * MBD_PAGE_SIZE, 16 * MBD_PAGE_SIZE))
		return;
	for (uint32_t i = 0; i < ring_len(g); i++) {
		uint64_t a = ring_at(g, i);
		int code;

		if (above && a <= off)
			continue;
		code = page_code(a - off, v);
		if (code >= 0) {
			add_reuse(cs, sel, code, i, -1);
			return;
		}
	}
}
