// SPDX-License-Identifier: GPL-2.0
/* Runtime behind the kernel stand-ins: the arena, its reset, __va(), kmalloc. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mbd_kc_rt.h"

#define ARENA_BYTES (MBD_KC_PHYS_LIMIT + MBD_KC_HEAP_BYTES)
#define HOST_PAGE 4096ULL
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static void arena_map(struct mbd_kc_ctx *c)
{
	void *p;

	/* NORESERVE: only the pages a variant really touches cost memory. */
	p = mmap(NULL, ARENA_BYTES, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "mbdiff: cannot map the %s arena (%llu bytes): %s\n",
			c->name ? c->name : "variant",
			(unsigned long long)ARENA_BYTES, strerror(errno));
		exit(2);
	}
	c->arena = p;
}

/*
 * The bookkeeping of pages kept mapped depends on earlier inputs, so it
 * must not feed coverage (MBD_KC_NO_COVERAGE): an input's edges are its own.
 */

static void page_range(uint64_t *lo, uint64_t *hi)
{
	*lo &= ~(HOST_PAGE - 1);
	*hi = (*hi + HOST_PAGE - 1) & ~(HOST_PAGE - 1);
	if (*hi > ARENA_BYTES)
		*hi = ARENA_BYTES;
}

static MBD_KC_NO_COVERAGE void release(struct mbd_kc_ctx *c, uint64_t lo,
				       uint64_t hi)
{
	page_range(&lo, &hi);
	if (hi > lo)
		madvise(c->arena + lo, hi - lo, MADV_DONTNEED);
}

/*
 * Zeroed pages stay mapped, so the next input that writes there takes no
 * page fault and no reset flushes the TLB. The ranges kept are a hash set
 * by first page; memory stays bounded: past MBD_KC_KEPT_PAGES pages (or a
 * set 3/4 full) all of them are released at once.
 */
static MBD_KC_NO_COVERAGE void release_kept(struct mbd_kc_ctx *c)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (unsigned int i = 0; i < MBD_KC_KEPT; i++) {
		if (c->kept_hi[i]) {
			if (c->kept_lo[i] < lo)
				lo = c->kept_lo[i];
			if (c->kept_hi[i] > hi)
				hi = c->kept_hi[i];
			c->kept_hi[i] = 0;
		}
	}
	/*
	 * One call for all of them: thousands of scattered ranges took a
	 * system call each. Only reset gets here, and after reset the whole
	 * arena reads zero, so the pages between the ranges go too (a
	 * range reset still has to zero is written again, and faults).
	 */
	if (hi > lo)
		release(c, lo, hi);
	c->n_kept = 0;
	c->kept_pages = 0;
}

static MBD_KC_NO_COVERAGE __attribute__((noinline)) void
keep(struct mbd_kc_ctx *c, uint64_t lo, uint64_t hi)
{
	unsigned int i;

	page_range(&lo, &hi);
	i = (unsigned int)((lo / HOST_PAGE) * 0x9e3779b1u) & (MBD_KC_KEPT - 1);
	for (;; i = (i + 1) & (MBD_KC_KEPT - 1)) {
		if (!c->kept_hi[i])
			break;
		if (c->kept_lo[i] != lo)
			continue;
		if (hi > c->kept_hi[i]) {
			c->kept_pages += (hi - c->kept_hi[i]) / HOST_PAGE;
			c->kept_hi[i] = hi;
		}
		goto check;
	}
	c->kept_lo[i] = lo;
	c->kept_hi[i] = hi;
	c->n_kept++;
	c->kept_pages += (hi - lo) / HOST_PAGE;
check:
	if (c->kept_pages > MBD_KC_KEPT_PAGES || c->n_kept > MBD_KC_KEPT / 4 * 3)
		release_kept(c);
}

/*
 * Back to zero, as a fresh mapping reads: what the last input wrote. No
 * coverage either: keep() inlined here would bring its history back.
 */
static MBD_KC_NO_COVERAGE void zero(struct mbd_kc_ctx *c, uint64_t lo, uint64_t hi)
{
	if (hi > ARENA_BYTES)
		hi = ARENA_BYTES;
	if (hi <= lo)
		return;
	memset(c->arena + lo, 0, hi - lo);
	keep(c, lo, hi);
}

/* words while aligned */
MBD_KC_NO_COVERAGE uint64_t mbd_kc_first_set(const void *mem, uint64_t from, uint64_t n)
{
	const uint8_t *p = mem;
	uint64_t i = from;

	while (i < n && ((uintptr_t)(p + i) & 7))
		if (p[i++])
			return i - 1;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		if (w)
			break;
	}
	for (; i < n; i++)
		if (p[i])
			return i;
	return n;
}

/*
 * A byte reset did not zero reads non-zero (the sampled check, or every
 * reset under MBDIFF_RESET_CHECK): say where, and abort when strict.
 */
static MBD_KC_NO_COVERAGE void missed(struct mbd_kc_ctx *c, const char *where,
				      uint64_t byte, const char *fallback)
{
	fprintf(stderr, "mbdiff: %s wrote byte %" PRIu64 " of %s, which reset did not "
		"track (not through memmove/memcpy/memset, nor in the slots of a region "
		"array the glue saw after a call)%s\n", c->name ? c->name : "variant",
		byte, where, c->reset_strict ? "" : fallback);
	if (c->reset_strict)
		abort();
}

/*
 * The first non-zero byte of the arena in [from, to), or to, reading only
 * pages that are mapped: a page never written, or released, reads zero,
 * and reading it would map it (a fault now, and another at its next
 * write). A page swapped out is skipped too; this is a sampled check.
 */
static MBD_KC_NO_COVERAGE uint64_t resident_first_set(struct mbd_kc_ctx *c,
						      uint64_t from, uint64_t to)
{
	unsigned char vec[256];

	while (from < to) {
		uint64_t lo = from & ~(HOST_PAGE - 1);
		uint64_t hi = lo + sizeof(vec) * HOST_PAGE;
		uint64_t miss;

		if (hi > to)
			hi = to;
		if (mincore(c->arena + lo, hi - lo, vec) != 0) {
			/* cannot tell: read all of it */
			miss = mbd_kc_first_set(c->arena, from, hi);
			if (miss < hi)
				return miss;
			from = hi;
			continue;
		}
		for (uint64_t pg = lo; pg < hi; pg += HOST_PAGE) {
			uint64_t s = pg > from ? pg : from;
			uint64_t e = pg + HOST_PAGE < hi ? pg + HOST_PAGE : hi;

			if (!(vec[(pg - lo) / HOST_PAGE] & 1))
				continue;
			miss = mbd_kc_first_set(c->arena, s, e);
			if (miss < e)
				return miss;
		}
		from = hi;
	}
	return to;
}

/*
 * One reset in MBD_KC_HEAP_CHECK_EVERY looks for heap bytes the tracking
 * missed. Out of line and without coverage: whether it runs depends on the
 * resets before, and inlined into mbd_kc_reset() its loop fed libFuzzer
 * edges of its own on those resets only.
 */
static MBD_KC_NO_COVERAGE __attribute__((noinline)) void
heap_check(struct mbd_kc_ctx *c)
{
	uint64_t miss;

	if (++c->heap_checks % (c->reset_strict ? MBD_KC_HEAP_STRICT_EVERY :
				MBD_KC_HEAP_CHECK_EVERY) != 0)
		return;
	miss = resident_first_set(c, MBD_KC_PHYS_LIMIT, c->heap_next);
	if (miss == c->heap_next)
		return;
	missed(c, "the slab heap", miss - MBD_KC_PHYS_LIMIT,
	       "; zeroing the whole used heap from now on");
	c->heap_full = true;
	zero(c, MBD_KC_PHYS_LIMIT, c->heap_next);
}

/* the used heap back to zero: the written ranges, or all of it */
static MBD_KC_NO_COVERAGE void heap_reset(struct mbd_kc_ctx *c)
{
	if (c->heap_wr_all || c->heap_full) {
		zero(c, MBD_KC_PHYS_LIMIT, c->heap_next);
		return;
	}
	/* nothing past heap_next was handed out */
	for (unsigned int i = 0; i < c->n_heap_wr; i++)
		zero(c, c->heap_wr_lo[i], c->heap_wr_hi[i] < c->heap_next ?
		     c->heap_wr_hi[i] : c->heap_next);
	heap_check(c);
}

void mbd_kc_reset(struct mbd_kc_ctx *c, const char *name, bool slab,
		  bool mirror, bool movable, int verbose, uint64_t array_bytes)
{
	c->name = name;
	if (!c->arena)
		arena_map(c);
	/*
	 * Only the bytes written since the last reset: each region array the
	 * last input placed, and the heap it used. A reset after a reset
	 * touches nothing. Past 64 placements (rare) the pages of the whole
	 * window are released instead, since zeroing it could fault in
	 * pages nobody wrote.
	 */
	if (c->n_touched <= ARRAY_LEN(c->touched_pa)) {
		for (unsigned int i = 0; i < c->n_touched; i++)
			zero(c, c->touched_pa[i], c->touched_pa[i] +
			     (c->touched_len[i] ? c->touched_len[i] : array_bytes));
	} else if (c->touched_hi >= c->touched_lo) {
		release(c, c->touched_lo, c->touched_hi + array_bytes);
	}
	if (c->heap_next > MBD_KC_PHYS_LIMIT)
		heap_reset(c);
	c->n_heap_wr = 0;
	c->heap_wr_all = false;
	c->n_touched = 0;
	c->n_noted = 0;
	c->touched_lo = UINT64_MAX;
	c->touched_hi = 0;
	c->heap_next = MBD_KC_PHYS_LIMIT;
	c->dirty = false;
	c->armed = false;
	c->panicked = false;
	c->panic_msg[0] = '\0';
	c->warnings = 0;
	c->epoch++;
	c->slab = slab;
	c->mirror = mirror;
	c->movable = movable;
	c->verbose = verbose;
}

/* [lo, hi) of the heap was written: merge it into a range it touches */
static MBD_KC_NO_COVERAGE void heap_wrote(struct mbd_kc_ctx *c, uint64_t lo, uint64_t hi)
{
	unsigned int i;

	if (c->heap_wr_all)
		return;
	for (i = 0; i < c->n_heap_wr; i++) {
		if (lo <= c->heap_wr_hi[i] && hi >= c->heap_wr_lo[i]) {
			if (lo < c->heap_wr_lo[i])
				c->heap_wr_lo[i] = lo;
			if (hi > c->heap_wr_hi[i])
				c->heap_wr_hi[i] = hi;
			return;
		}
	}
	if (i == MBD_KC_HEAP_RANGES) {
		c->heap_wr_all = true;
		return;
	}
	c->heap_wr_lo[i] = lo;
	c->heap_wr_hi[i] = hi;
	c->n_heap_wr++;
}

MBD_KC_NO_COVERAGE __attribute__((noinline)) void
mbd_kc_wrote(struct mbd_kc_ctx *c, const void *d, size_t n)
{
	uint64_t off = (uint64_t)((uintptr_t)d - (uintptr_t)c->arena);

	if (c->arena && off >= MBD_KC_PHYS_LIMIT && off < ARENA_BYTES) {
		heap_wrote(c, off, off + n < ARENA_BYTES ? off + n : ARENA_BYTES);
		return;
	}
	for (unsigned int i = 0; i < MBD_KC_BOOT_ARRAYS; i++) {
		size_t off = (size_t)((uintptr_t)d - c->boot_lo[i]);

		if (off < c->boot_bytes[i] && off + n > c->boot_end[i])
			c->boot_end[i] = off + n;
	}
}

MBD_KC_NO_COVERAGE void mbd_kc_boot_watch(struct mbd_kc_ctx *c, unsigned int i,
					  void *p, size_t bytes)
{
	const char *e = getenv("MBDIFF_RESET_CHECK");

	c->boot_lo[i] = (uintptr_t)p;
	c->boot_bytes[i] = bytes;
	c->boot_limit[i] = bytes;
	c->boot_end[i] = 0;
	c->reset_strict = e && *e && strcmp(e, "0") != 0;
}

MBD_KC_NO_COVERAGE void mbd_kc_boot_reset(struct mbd_kc_ctx *c)
{
	bool check = c->reset_strict ||
		     ++c->boot_resets % MBD_KC_BOOT_CHECK_EVERY == 0;

	for (unsigned int i = 0; i < MBD_KC_BOOT_ARRAYS; i++) {
		unsigned char *p = (unsigned char *)c->boot_lo[i];
		size_t n = c->boot_limit[i];
		size_t end = c->boot_full ? n : c->boot_end[i];
		size_t miss;

		if (end > n)
			end = n;
		memset(p, 0, end);
		c->boot_end[i] = 0;
		if (!check || end == n)
			continue;
		miss = mbd_kc_first_set(p, end, n);
		if (miss == n)
			continue;
		missed(c, i ? "the reserved boot array" : "the memory boot array", miss,
		       "; zeroing whole boot arrays from now on");
		c->boot_full = true;
		memset(p, 0, n);
	}
}

/* __va(), __pa() and the array notes: bookkeeping for reset, no coverage. */
MBD_KC_NO_COVERAGE void *mbd_kc_va(struct mbd_kc_ctx *c, uint64_t pa)
{
	if (pa >= ARENA_BYTES)
		mbd_kc_panic(c, "kcompat: __va(0x%" PRIx64 ") is outside the host arena", pa);
	if (c->n_touched < ARRAY_LEN(c->touched_pa)) {
		c->touched_pa[c->n_touched] = pa;
		c->touched_len[c->n_touched] = 0;
	}
	c->n_touched++;
	if (pa < c->touched_lo)
		c->touched_lo = pa;
	if (pa > c->touched_hi)
		c->touched_hi = pa;
	return c->arena + pa;
}

MBD_KC_NO_COVERAGE void mbd_kc_note_array(struct mbd_kc_ctx *c, const void *va,
					     uint64_t bytes)
{
	uint64_t pa = mbd_kc_pa(c, va);

	for (unsigned int i = 0; i < c->n_touched && i < ARRAY_LEN(c->touched_pa); i++)
		if (c->touched_pa[i] == pa && !c->touched_len[i])
			c->touched_len[i] = bytes;
}

MBD_KC_NO_COVERAGE uint64_t mbd_kc_pa(struct mbd_kc_ctx *c, const volatile void *va)
{
	return (uint64_t)((uintptr_t)va - (uintptr_t)c->arena);
}

void *mbd_kc_kmalloc(struct mbd_kc_ctx *c, size_t size, bool zero)
{
	uint64_t off = (c->heap_next + 63) & ~63ULL;

	/* larger requests fail in the kernel too (KMALLOC_MAX_SIZE) */
	if (size > MBD_KC_KMALLOC_MAX || off + size > ARENA_BYTES)
		return NULL;
	c->heap_next = off + size;
	/*
	 * The heap is never reused within one input and reset zeroes what
	 * the last input used, so it already reads as zero: kzalloc needs
	 * no memset.
	 */
	(void)zero;
	return c->arena + off;
}
