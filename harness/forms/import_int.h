/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The boot-log importer's pieces (import*.c): an output buffer, the source
 * lines and their classes, the context of one import. Private to forms/.
 *   import_prefix.c  what comes before the kernel's text (stamps, syslog, kmsg)
 *   import_lines.c   reading a line: numbers, what kind it is
 *   import_emit.c    writing .mbt: comments, calls, checkpoints; what the
 *                    written calls reserved, marked NOMAP, removed
 *   import_dump.c    MEMBLOCK configuration dumps -> state and checkpoints
 *   import_state.c   debugfs memblock arrays -> checkpoints; where a table starts
 *   import_views.c   which array an unnamed debugfs table is
 *   import_infer.c   calls memblock=debug never shows, inferred from a dump
 *   import_frees.c   free_reserved_area() frees, placed by the final view
 *   import_cover.c   the ranges a trace touched, and the gaps beyond them
 *   import_boots.c   where a new boot starts in a log holding several
 *   import_era.c     the kernel's version and the model to replay with
 *   import_page.c    the kernel's page size, from the memory a dump shows
 *   import_events.c  memblock=debug calls, doublings, e820/EFI/OF/node maps
 *   import.c         the two phases over all lines; mbd_import()
 */
#ifndef MBD_IMPORT_INT_H
#define MBD_IMPORT_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "mbd_expect.h"
#include "mbd_import.h"
#include "mbd_interval.h"
#include "mbd_text.h"

#define MAX_COMMENT 3000

typedef unsigned long long ull;

/* A growing output buffer; oom set once an allocation failed. */
struct obuf {
	char *p;
	size_t len, cap;
	int oom;
};

__attribute__((format(printf, 2, 3)))
void mbd_imp_printf(struct obuf *b, const char *fmt, ...);

/* One source line, with mail quotes, timestamp and indent cut off. */
struct line {
	const char *src;       /* file name, escaped for comments */
	const char *path;      /* file name as given, for errors */
	unsigned no;
	char *raw;             /* the line as read (no line end) */
	const char *s;         /* the payload inside raw */
	int cls;               /* enum cls */
	int done;              /* already written (two-phase output) */
	/* the first line of a debugfs table: -2 named by the line before it,
	 * 0 memory or 1 reserved as told apart (view_why says how), -1 not known */
	int view;
	const char *view_why;
};

enum cls { L_BLANK, L_HEADER, L_OTHER, L_OP, L_ALLOC, L_KNOWN, L_DOUBLED, L_DUMP,
	   L_E820, L_EFI, L_OF, L_NODEHDR, L_NODE, L_STATE, L_E820UPD, L_FREEING, L_MEMINFO,
	   L__COUNT };

/* "Freeing NAME memory: NK" lines waiting for the final debugfs view. */
#define MBD_IMP_MAX_FREES 16
struct freeing {
	unsigned no;
	uint64_t kib;
	bool used;
};

/* Ranges a trace added or reserved, to find what a dump shows beyond them. */
struct cover {
	struct span {
		uint64_t a, b; /* [a, b) */
	} *r;
	size_t n, cap;
	int oom;
};

struct ictx {
	struct obuf body;
	struct mbd_import_stats *st;
	enum mbd_import_conv conv;
	FILE *unparsed;
	bool trace;            /* the log has memblock=debug call lines */
	int mem_src;           /* the map that stands in for memblock_add: L_E820, L_EFI, L_NODE, 0 */
	bool in_nodes;
	bool resize_added;
	bool pending_trim;     /* x86 e820__memblock_setup adds seen, trim not yet */
	const struct line *e820_cut; /* e820 updates from here on are not memblock's */
	uint64_t page;         /* the kernel's page size (import_page.c) */
	bool e820_user;        /* the log has the user-defined e820 map (memmap=, mem=) */
	size_t ops;            /* ops written so far */
	size_t mem_ops;        /* of them, memory adds/removes */
	size_t dumps_seen;
	size_t init_ops;       /* ops that are the starting state of a dump or view */
	unsigned init_mask;    /* the arrays that starting state gave (bit t: type t) */
	struct obuf pre;       /* inferred calls that go before everything */
	/* the last EFI map entry, when the trace shows the calls made for it */
	bool efi_valid, efi_nomap;
	uint64_t efi_base, efi_size;
	/* memory added and ranges reserved by logged calls before the first
	 * dump: what that dump shows beyond them predates memblock=debug */
	struct cover cov[2];
	int hint;              /* array the last line named (debugfs views): 0, 1, -1 */
	struct mbd_iset rsv;   /* what the emitted calls reserved (mbd_imp_track) */
	struct mbd_iset nomap; /* memory the emitted calls marked NOMAP */
	struct mbd_iset removed; /* ranges logged memblock_remove calls took out */
	struct freeing frees[MBD_IMP_MAX_FREES];
	size_t n_frees;
	bool v616;             /* reservations logged as __memblock_reserve (v6.16+) */
	/* memory regions with nodes, from the last dump that showed them */
	struct mbd_ival memnodes[MBD_IMP_MAX_FREES];
	size_t n_memnodes;
	uint32_t max[2];       /* the arrays' initial sizes (the config's) */
	char err[MBD_IMPORT_ERROR_MAX]; /* the first error: the import fails */
	char tmp[512];
	const struct line *cur; /* the line being imported */
};

/* A MEMBLOCK configuration dump or a debugfs view being read; reg grows
 * as long as the dump goes on (mbd_imp_dump_slot). */
struct dump {
	bool have_total[2], have_cnt[2];
	uint64_t total[2], cnt[2];
	size_t n, cap;
	size_t unknown_flags;  /* regions whose flags the model has not */
	const char *damaged;   /* a region line that does not add up, if any */
	struct mbd_expect *reg;
};

/* A new zeroed region slot of d for source line l; NULL (and the import
 * fails, or is out of memory) past MBD_TEXT_MAX_OPS regions. */
struct mbd_expect *mbd_imp_dump_slot(struct ictx *x, struct dump *d, const struct line *l);

/* Record the first error ("PATH:LINE: error: what") at line l (x->cur
 * when NULL); the import then fails. */
__attribute__((format(printf, 3, 4)))
void mbd_imp_fail(struct ictx *x, const struct line *l, const char *fmt, ...);

/* The same at line no of x->cur's log (no 0: x->cur's own line). */
__attribute__((format(printf, 3, 4)))
void mbd_imp_fail_at(struct ictx *x, unsigned no, const char *fmt, ...);

/* A node id token ("-1", "5", "99999"): -1 (NUMA_NO_NODE) to MAX_NUMNODES,
 * else mbd_imp_fail_at line no; *end past it. Returns 0 or -1. */
int mbd_imp_nid(struct ictx *x, unsigned no, const char *s, int32_t *nid, const char **end);

const char *mbd_imp_skip_ws(const char *s);

bool mbd_imp_starts(const char *s, const char *p);

/* A hex number with optional 0x; *end past it. */
bool mbd_imp_hexnum(const char *s, uint64_t *v, const char **end);

/* Decimal digits; a value past 64 bits saturates at UINT64_MAX (and is
 * then out of every range), it never wraps. */
bool mbd_imp_decnum(const char *s, uint64_t *v, const char **end);

/* "A<sep>B" with the separator sep (e.g. "-" or ".."), after opening open. */
bool mbd_imp_pair(const char *s, const char *open, const char *sep, uint64_t *a,
		 uint64_t *b, const char **end);

/* The op name before ':' of a memblock=debug line, or 0. */
size_t mbd_imp_op_name(const char *s);

bool mbd_imp_is_alloc_name(const char *s, size_t n);

bool mbd_imp_is_free_late(const char *s, size_t n);

int mbd_imp_classify(const char *s);

/* Size of [a-b] under the convention (mod 2^64, so wrapped ends work). */
uint64_t mbd_imp_range_size(uint64_t a, uint64_t b, enum mbd_import_conv c);

void mbd_imp_comment(struct ictx *x, const struct line *l, const char *tag);

/* Write op into b, checked by the .mbt parser itself (a value it would
 * refuse is refused here, at source line no: 0 for x->cur). */
void mbd_imp_emit_op_to(struct ictx *x, struct obuf *b, const struct mbd_op *op, unsigned no);
void mbd_imp_emit_op(struct ictx *x, const struct mbd_op *op);
/* Follow a call's effect on what the importer keeps of the arrays (x->rsv,
 * x->nomap, x->removed): every written call, and those the model makes itself. */
void mbd_imp_track(struct ictx *x, const struct mbd_op *op);

void mbd_imp_emit_range(struct ictx *x, uint32_t kind, uint64_t base, uint64_t size);

void mbd_imp_emit_expect(struct ictx *x, const struct mbd_expect *e);

/* memblock_xxx: [A-B] [flags 0xF] [nid=N flags=F] [caller] */
int mbd_imp_do_op(struct ictx *x, const struct line *l);

/* x86 e820__memblock_setup() ends with memblock_trim_memory(PAGE_SIZE),
 * which memblock=debug does not log: put it after its last add. */
void mbd_imp_flush_trim(struct ictx *x);

/* "memblock: reserved is doubled to 256 at [...]" */
int mbd_imp_do_doubled(struct ictx *x, const struct line *l);

/* BIOS-e820: [mem A-B] TYPE, or the old "A - B (TYPE)" (exclusive). */
int mbd_imp_do_e820(struct ictx *x, const struct line *l);

/* OF: reserved mem: A..B (N KiB) [no]map ... : reserve, or mark nomap. */
int mbd_imp_do_of(struct ictx *x, const struct line *l);

/* arm "efi:   A-B [Type|...]" or x86 "efi: memNN: [Type|...] range=[A-B]". */
int mbd_imp_do_efi(struct ictx *x, const struct line *l);

/* "node   N: [mem A-B]" after "Early memory node ranges". */
int mbd_imp_do_node(struct ictx *x, const struct line *l);

void mbd_imp_unparsed(struct ictx *x, const struct line *l);

/* The kernel's own text of a log line: timestamps, dmesg -T clocks, kmsg
 * levels, syslog/journal "host kernel: " and mail quoting cut off. */
const char *mbd_imp_payload(const char *raw);

/* A dump starting at ls[i] (its header line): checkpoints or the starting
 * state; returns the index of its last line. */
size_t mbd_imp_dump(struct ictx *x, struct line *ls, size_t n, size_t i);

/* The dump's arrays in mask (bit t = type t) as calls into b. */
void mbd_imp_emit_state(struct ictx *x, struct obuf *b, const struct dump *d, unsigned mask);

/* Regions of type t with a size, and their sum. */
size_t mbd_imp_live_regions(const struct dump *d, int t, uint64_t *sum);

/* A read dump (first is its header line) -> starting state or checkpoints. */
void mbd_imp_finish_dump(struct ictx *x, struct dump *d, const struct line *first);

/* "Freeing NAME memory: NK" (free_reserved_area) */
int mbd_imp_do_freeing(struct ictx *x, const struct line *l);
/* "Memory: NK/MK available": memblock_free_all() has just set nodes. */
int mbd_imp_do_meminfo(struct ictx *x, const struct line *l);
/* Keep the memory regions (with nodes) a dump shows. */
void mbd_imp_note_memnodes(struct ictx *x, const struct dump *d);
/* Before the final debugfs view of reserved: the frees it shows. */
void mbd_imp_infer_frees(struct ictx *x, const struct dump *d);

/* e820: update [mem A-B] usable ==> reserved, e820: remove [mem A-B] [TYPE] */
int mbd_imp_do_e820_update(struct ictx *x, const struct line *l);
/* Where e820__memblock_setup() has run in ls[0..n): the first traced call or
 * later message (NULL: nowhere); updates from there on leave memblock alone. */
const struct line *mbd_imp_e820_cut(const struct line *ls, size_t n);

/* One debugfs memblock line ("N: 0xA..0xB" [NODE FLAGS]) into e: 1, 0 if it
 * is not one, -1 if it starts like one but the rest is damaged. Flags the
 * model has not (RSV_KERN, ...) leave e's flags unchecked and set *unknown. */
int mbd_imp_state_line(const char *s, struct mbd_expect *e, bool *unknown);

/* Does a debugfs table start at ls[i] (its index restarts at 0)? */
bool mbd_imp_view_starts(const struct line *ls, size_t i);
/* A debugfs view starting at ls[i]: a checkpoint of the array the line
 * before it named; returns the index of its last line. */
size_t mbd_imp_state(struct ictx *x, struct line *ls, size_t n, size_t i);

/* Does l name a debugfs table after it ("cat .../memblock/reserved", a
 * marker): 1 reserved, 0 memory, -1 no (only '#' and unrecognised lines do). */
int mbd_imp_names_array(const struct line *l);
/* Tell every debugfs table's array (line.view); -1: out of memory. */
int mbd_imp_views(struct line *ls, size_t n);

/* What the first dump shows beyond the logged calls, as calls before all. */
void mbd_imp_infer_pre(struct ictx *x, const struct dump *d, const struct line *first);

/* NOMAP memory a dump shows that no emitted call marked: memblock_mark_nomap
 * (reserved-memory no-map, EFI) is not logged, so mark it before the checkpoint. */
void mbd_imp_infer_nomap(struct ictx *x, const struct dump *d);

/* Nodes a dump shows, set with memblock_set_node before its checkpoint;
 * node checks it cannot make so are taken out of d. */
void mbd_imp_infer_nodes(struct ictx *x, struct dump *d);

/* The native page size the memory regions of ls[0..n)'s dumps show (4K if none). */
uint64_t mbd_imp_page_size(const struct line *ls, size_t n);

/* The kernel of lines ls[lo..hi) ("Linux version", else a '#' header
 * comment of ls[0..hi)); returns the line it was read from, or NULL. */
const struct line *mbd_imp_era_find(const struct line *ls, size_t lo, size_t hi,
				    struct mbd_era *e);

/* Where each boot of ls[0..n) starts (starts[0] = 0); returns how many
 * (past max: x fails). */
size_t mbd_imp_boots(struct ictx *x, const struct line *ls, size_t n, size_t *starts, size_t max);
/* "# kernel: ..." and "# model: NAME (...)" into b (src: the log's name). */
void mbd_imp_era_head(struct obuf *b, const struct mbd_era *e, const char *src);

void mbd_imp_cover_add(struct cover *c, uint64_t base, uint64_t size);
/* Calls fn for each maximal piece of [base, base + size) no range covers. */
void mbd_imp_cover_gaps(const struct cover *c, uint64_t base, uint64_t size,
			void (*fn)(void *ctx, uint64_t base, uint64_t size), void *ctx);
void mbd_imp_cover_free(struct cover *c);

#endif
