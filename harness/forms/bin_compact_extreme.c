// SPDX-License-Identifier: GPL-2.0
/*
 * Which of the structured producers' extremes equal an operand: they take
 * one byte each, so they are tried first for every address and size.
 */
#include <stdatomic.h>
#include <threads.h>

#include "bin_compact_int.h"

/*
 * Which extremes equal v, by lookup: the 32-slot scans were a third of the
 * encoder's own time. One small hash table per kind of slot maps a value
 * to the slots holding it: the address table, and the size table as three
 * (a slot is at[p], at[p] - base or at[p] + base). Built once from the
 * decoder's tables, so it cannot go stale.
 */
#ifndef MBD_COMPACT_NO_SHORTCUTS /* test_compact_paths: the scans */
enum { X_ADDR, X_SIZE, X_SIZE_MINUS, X_SIZE_PLUS, X_N };

#define X_SLOTS 64u /* a power of two, twice the 32 values */

struct xslot {
	uint64_t key;
	uint32_t hits; /* bit p: slot p holds key */
	bool used;
};

static struct xslot xtab[X_N][X_SLOTS];
static bool size_scan; /* a size mask neither 0 nor ~0: scan instead */
static once_flag xtab_once = ONCE_FLAG_INIT;
static atomic_bool xtab_ready; /* call_once is a libc call each time */

static unsigned x_hash(uint64_t v)
{
	return (unsigned)((v * 0x9e3779b97f4a7c15ULL) >> 58) & (X_SLOTS - 1);
}

static void x_add(struct xslot *t, uint64_t key, unsigned p)
{
	unsigned i = x_hash(key);

	while (t[i].used && t[i].key != key)
		i = (i + 1) & (X_SLOTS - 1);
	t[i].used = true;
	t[i].key = key;
	t[i].hits |= 1u << p;
}

static void x_build(void)
{
	const struct mbd_bin_size_ext *e = &mbd_bin_size_ext;

	for (unsigned p = 0; p < 32; p++) {
		x_add(xtab[X_ADDR], mbd_bin_addr_extreme[p], p);
		/* size_extreme(p, base) = at + (base & plus) - (base & minus) */
		if ((e->plus[p] && e->plus[p] != ~0ULL) ||
		    (e->minus[p] && e->minus[p] != ~0ULL))
			size_scan = true;
		else if (e->plus[p] == e->minus[p])
			x_add(xtab[X_SIZE], e->at[p], p);
		else if (e->minus[p])
			x_add(xtab[X_SIZE_MINUS], e->at[p], p);
		else
			x_add(xtab[X_SIZE_PLUS], e->at[p], p);
	}
	/* the tables are whole: later callers skip call_once */
	atomic_store_explicit(&xtab_ready, true, memory_order_release);
}

static void x_ready(void)
{
	if (!atomic_load_explicit(&xtab_ready, memory_order_acquire))
		call_once(&xtab_once, x_build);
}

static uint32_t x_get(unsigned k, uint64_t key)
{
	const struct xslot *t = xtab[k];

	for (unsigned i = x_hash(key); t[i].used; i = (i + 1) & (X_SLOTS - 1))
		if (t[i].key == key)
			return t[i].hits;
	return 0;
}
#endif

uint32_t mbd_compact_addr_extreme_hits(uint64_t v)
{
#ifdef MBD_COMPACT_NO_SHORTCUTS
	uint32_t hit = 0;

	for (unsigned p = 0; p < 32; p++)
		hit |= (uint32_t)(mbd_bin_addr_extreme[p] == v) << p;
	return hit;
#else
	x_ready();
	return x_get(X_ADDR, v);
#endif
}

/* Slot p holds at[p] + (base & plus[p]) - (base & minus[p]): equal to v
 * when at[p] is v, v + base or v - base (mod 2^64) for its kind. */
uint32_t mbd_compact_size_extreme_hits(uint64_t base, uint64_t v)
{
	uint32_t hit = 0;

#ifndef MBD_COMPACT_NO_SHORTCUTS
	x_ready();
	if (!size_scan)
		return x_get(X_SIZE, v) | x_get(X_SIZE_MINUS, v + base) |
		       x_get(X_SIZE_PLUS, v - base);
#endif
	/* test_compact_paths, or a table this lookup cannot hold */
	for (unsigned p = 0; p < 32; p++)
		hit |= (uint32_t)(mbd_bin_size_extreme(p, base) == v) << p;
	return hit;
}
