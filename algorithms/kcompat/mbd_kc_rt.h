/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kcompat runtime: what the kernel stand-ins need at run time, one
 * context per variant (each variant translation unit has its own static
 * context, see kcompat.h), so variants never share kernel-side state.
 */
#ifndef MBD_KC_RT_H
#define MBD_KC_RT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Harness code that must not feed a fuzzer's coverage: the kept-page
 * bookkeeping (its path depends on earlier inputs) and the glue's reset
 * and snapshot copies (the same work for every input, paid per call).
 * The attribute holds for the function's own body only: inlined into a
 * caller with coverage, its branches become the caller's edges. Whatever
 * depends on earlier inputs is therefore also noinline (keep(),
 * heap_check()).
 */
#if defined(__clang__)
#define MBD_KC_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#elif defined(__GNUC__) && __GNUC__ >= 12
#define MBD_KC_NO_COVERAGE __attribute__((no_sanitize_coverage))
#else
#define MBD_KC_NO_COVERAGE
#endif

/*
 * Physical addresses below this are backed by the variant's host arena, so
 * region arrays that memblock_double_array() places in "physical memory"
 * really live there. memblock.current_limit is clamped to it.
 */
#define MBD_KC_PHYS_LIMIT (1ULL << 40)
/* kmalloc() is a bump allocator in the arena just above the physical
 * window, so slab addresses are deterministic and never alias memblock's. */
#define MBD_KC_HEAP_BYTES (1ULL << 30)
/* KMALLOC_MAX_SIZE with 4 KiB pages and MAX_ORDER 10 */
#define MBD_KC_KMALLOC_MAX (4ULL << 20)

/* Zeroed arena ranges kept mapped (a power of two: the hash set's size),
 * and the most pages they may hold before they are all released. */
#define MBD_KC_KEPT 8192
#define MBD_KC_KEPT_PAGES 8192
/* memblock.memory's and memblock.reserved's static boot arrays */
#define MBD_KC_BOOT_ARRAYS 2
/* without MBDIFF_RESET_CHECK, one reset in this many checks the rest */
#define MBD_KC_BOOT_CHECK_EVERY 64
/* written heap ranges tracked per input, and how often the used heap
 * is checked for writes the tracking missed */
#define MBD_KC_HEAP_RANGES 16
#define MBD_KC_HEAP_CHECK_EVERY 1024
/* the same under MBDIFF_RESET_CHECK: a slab-time block can be megabytes */
#define MBD_KC_HEAP_STRICT_EVERY 16

/*
 * With events on (the harness's MBD_RESET_EVENTS): a begin entry (text 2)
 * with the arrays before the call, each message the call printed and each
 * memmove() of regions (text 4: an insertion step, which moves regions
 * up; text 6: a merge or removal step, which moves them down), in order,
 * as the hash of its text and of both arrays at that moment, then one end
 * entry (text 0) with the arrays after the call.
 * Two variants that part inside one call part at the first entry that
 * differs: what the judge names the root cause by.
 */
#define MBD_KC_MAX_EVENTS 256
struct mbd_kc_event {
	uint64_t text;
	uint64_t arrays[2];     /* memory, reserved */
	int8_t growth;          /* the array that doubled or failed to, or -1 */
};

struct mbd_kc_ctx {
	jmp_buf panic_jmp;      /* where BUG_ON()/panic() return to */
	bool armed;             /* inside a call: panic_jmp is valid */
	bool panicked;
	char panic_msg[160];
	uint64_t warnings;      /* WARN_ON() hits since reset */
	bool events;            /* record ev[] (set by the glue at reset) */
	bool events_cut;        /* a call printed more than ev[] holds */
	unsigned int n_events;
	struct mbd_kc_event ev[MBD_KC_MAX_EVENTS];
	void (*arrays_hash)(uint64_t h[2]); /* the glue's hash of each array */
	unsigned int epoch;     /* bumped at reset: re-arms WARN_ON_ONCE() */
	bool slab;              /* slab_is_available() */
	bool mirror;            /* mirrored_kernelcore */
	bool movable;           /* movable_node_is_enabled() */
	int verbose;            /* pr_*() to stderr when > 0 */
	const char *name;       /* variant name, for messages */
	uint8_t *arena;         /* MBD_KC_PHYS_LIMIT + MBD_KC_HEAP_BYTES */
	uint64_t touched_pa[64]; /* addresses given to __va() since reset */
	uint64_t touched_len[64]; /* bytes of the array there, 0: unknown */
	unsigned int n_touched; /* entries used; more than 64 => lo..hi */
	unsigned int n_noted;   /* n_touched at the glue's last array note */
	uint64_t touched_lo;    /* lowest and highest __va() address */
	uint64_t touched_hi;
	uint64_t heap_next;     /* next free heap offset */
	bool dirty;             /* a call ran since the last reset */
	/* zeroed page ranges kept mapped since the last release, a hash set
	   by first page (kept_hi 0: a free slot) */
	uint64_t kept_lo[MBD_KC_KEPT];
	uint64_t kept_hi[MBD_KC_KEPT];
	unsigned int n_kept;
	uint64_t kept_pages;
	/*
	 * The two boot arrays (static, outside the arena): how many leading
	 * bytes of each the calls since the last reset may have written, so
	 * reset zeroes those rather than the whole array (mbd_kc_boot_*).
	 */
	uintptr_t boot_lo[MBD_KC_BOOT_ARRAYS];
	size_t boot_bytes[MBD_KC_BOOT_ARRAYS];
	size_t boot_end[MBD_KC_BOOT_ARRAYS];
	/* the slots the config gave (the array's max at reset): what a check
	   reads, and what a fallback zeroes */
	size_t boot_limit[MBD_KC_BOOT_ARRAYS];
	unsigned int boot_resets; /* for the sampled check of the rest */
	bool reset_strict;      /* MBDIFF_RESET_CHECK: check every reset, abort on a miss */
	bool boot_full;         /* a miss was seen: zero whole arrays from now on */
	/*
	 * The slab heap's written ranges (arena offsets, merged when they
	 * touch): kzalloc()ed blocks nobody writes (slab-time allocations can
	 * be megabytes) need no zeroing. Past MBD_KC_HEAP_RANGES ranges, or
	 * after a miss, reset zeroes all the heap used, as before.
	 */
	uint64_t heap_wr_lo[MBD_KC_HEAP_RANGES];
	uint64_t heap_wr_hi[MBD_KC_HEAP_RANGES];
	unsigned int n_heap_wr;
	bool heap_wr_all;       /* this input: zero the whole used heap */
	unsigned int heap_checks; /* for the sampled check of the rest */
	bool heap_full;         /* a miss was seen: always the whole used heap */
};

/*
 * A write of n bytes at d by the variant (memmove, memcpy, memset), or a
 * region array in the slab heap the glue notes after a call (for the
 * stores into its slots): extends what reset zeroes in a boot array or in
 * the heap. The glue notes the boot arrays' counts with mbd_kc_boot_wrote(). The
 * kernel writes its boot arrays only below a count it reached (every insert
 * memmoves up to the slot past its new last region first), so the largest
 * write end plus the counts after each call bound what an input wrote there.
 * Out of line and without coverage: inlined, its branches would become
 * edges of the variant's code and steer the fuzzer.
 */
void mbd_kc_wrote(struct mbd_kc_ctx *c, const void *d, size_t n);

/*
 * Slots [0, bytes) of boot array i may have been written: the glue's note
 * of a count after each call. Inline: the glue's callers have no coverage.
 * An array not watched (boot_bytes 0) is left alone, as mbd_kc_wrote does.
 */
static inline void mbd_kc_boot_wrote(struct mbd_kc_ctx *c, unsigned int i, size_t bytes)
{
	if (bytes > c->boot_bytes[i])
		bytes = c->boot_bytes[i];
	if (bytes > c->boot_end[i])
		c->boot_end[i] = bytes;
}

/*
 * Back to boot state: zeroes every arena byte written since the last reset
 * (the pages stay mapped, up to MBD_KC_KEPT ranges), clears counters,
 * re-arms ONCE warnings, clears dirty. array_bytes bounds how far past an
 * __va() address of unknown size (mbd_kc_note_array: an array replaced in
 * the very call that placed it) the last input may have written: its
 * largest region array (arrays only grow in one input).
 */
void mbd_kc_reset(struct mbd_kc_ctx *c, const char *name, bool slab,
		  bool mirror, bool movable, int verbose, uint64_t array_bytes);

/*
 * Boot array i is bytes long at p (set once, at the first reset; its
 * content then must be all zero, as a fresh process has it).
 */
void mbd_kc_boot_watch(struct mbd_kc_ctx *c, unsigned int i, void *p, size_t bytes);
/* the config's max for boot array i, in bytes: set by the glue at reset */
static inline void mbd_kc_boot_limit(struct mbd_kc_ctx *c, unsigned int i, size_t bytes)
{
	c->boot_limit[i] = bytes < c->boot_bytes[i] ? bytes : c->boot_bytes[i];
}
/*
 * Zeroes what the last input may have written of every boot array (see
 * mbd_kc_wrote). Every MBD_KC_BOOT_CHECK_EVERY resets, or every reset with
 * MBDIFF_RESET_CHECK set in the environment, it also checks that the rest
 * of the slots the config gave reads zero (as the old reset zeroed just
 * those, a store past the max is not looked for): a write the bound missed (a patch that shifts regions by
 * hand past any count it keeps) then makes this variant zero whole arrays
 * from then on, with one warning, or aborts under MBDIFF_RESET_CHECK.
 * The heap's written ranges are zeroed by mbd_kc_reset, and checked the
 * same way every MBD_KC_HEAP_CHECK_EVERY resets.
 */
void mbd_kc_boot_reset(struct mbd_kc_ctx *c);
/* the first non-zero byte of p at or after from, or n */
uint64_t mbd_kc_first_set(const void *p, uint64_t from, uint64_t n);

void mbd_kc_warn(struct mbd_kc_ctx *c, const char *func, const char *cond);
_Noreturn void mbd_kc_panic(struct mbd_kc_ctx *c, const char *fmt, ...);
_Noreturn void mbd_kc_bug(struct mbd_kc_ctx *c, const char *func, const char *cond);
/* printk with the kernel's %pa / %pS extensions; silent unless verbose. */
void mbd_kc_printk(struct mbd_kc_ctx *c, const char *fmt, ...);
/* With c->events: a call begins (ev[] emptied) or ends (the end entry). */
void mbd_kc_events_begin(struct mbd_kc_ctx *c);
void mbd_kc_events_end(struct mbd_kc_ctx *c);
/* A memmove() of regions is about to run: opens, an insertion step (it
   moves them up); else a merge or removal step. */
void mbd_kc_event_move(struct mbd_kc_ctx *c, bool opens);
/* FNV-1a over one 64-bit value, for the glue's arrays_hash */
static inline uint64_t mbd_kc_hash_u64(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		h = (h ^ ((v >> (8 * i)) & 0xff)) * 0x100000001b3ULL;
	return h;
}
#define MBD_KC_HASH_SEED 0xcbf29ce484222325ULL
void mbd_kc_vprintk(struct mbd_kc_ctx *c, const char *fmt, va_list ap);

void *mbd_kc_va(struct mbd_kc_ctx *c, uint64_t pa);
/*
 * va (a region array just placed by __va()) holds bytes: reset then zeroes
 * exactly those. Arrays only move to a new place, never grow where they
 * are, so the size after the call that placed it is final.
 */
void mbd_kc_note_array(struct mbd_kc_ctx *c, const void *va, uint64_t bytes);
uint64_t mbd_kc_pa(struct mbd_kc_ctx *c, const volatile void *va);
void *mbd_kc_kmalloc(struct mbd_kc_ctx *c, size_t size, bool zero);

#endif
