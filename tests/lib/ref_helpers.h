/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for unit/test_reference (test_reference.c and the
 * reference_cases_*.c files it is built from): drive one variant through
 * the mbd_variant interface and compare its arrays with hand-written
 * expectations, printing both sides when they differ.
 */
#ifndef REF_HELPERS_H
#define REF_HELPERS_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mbd_test.h"
#include "mbd_variant.h"

#define REF_NID MBD_MAX_NUMNODES /* memblock_add()'s nid */
#define REF_ENOMEM (-12)

/* One expected region. */
struct ref_rgn {
	uint64_t base;
	uint64_t size;
	uint32_t flags;
	int32_t nid;
};

#define REF_NO_NODE (-1)      /* NUMA_NO_NODE */
#define REF_RSRV_KERN 0x20    /* MEMBLOCK_RSRV_KERN */

/* A region as memblock_add() creates it. */
#define RGN(b, s) { (b), (s), 0, REF_NID }
/* As memblock_reserve() creates it (v6.16+: no node). */
#define RGN_RSV(b, s) { (b), (s), 0, REF_NO_NODE }
/* memblock's own reservations: grown region arrays, allocations on no node. */
#define RGN_KERN(b, s) { (b), (s), REF_RSRV_KERN, REF_NO_NODE }
#define RGNX(b, s, f, n) { (b), (s), (f), (n) }
#define REF_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct ref_ctx {
	const struct mbd_variant *v;
	const char *file;      /* the running test's source file, for messages */
	const char *test;      /* name of the running test, for messages */
	struct mbd_state st;   /* last snapshot */
	struct mbd_result res; /* last call's outcome */
};

static inline void ref_fail_head(struct ref_ctx *c, int line,
				 const char *what)
{
	mbd_test_failed++;
	fprintf(stderr, "%s:%d: [%s] %s\n", c->file ? c->file : "?", line,
		c->test, what);
}

static inline void ref_pass(void)
{
	mbd_test_passed++;
}

static inline void ref_snap(struct ref_ctx *c)
{
	c->v->snapshot(&c->st);
}

/*
 * Start a test: boot state from cfg (NULL = kernel default). Its failures
 * name the file it was begun in (ref_begin(), a macro: __FILE__).
 */
static inline void ref_begin_in(struct ref_ctx *c, const char *file,
				const char *test, const struct mbd_config *cfg)
{
	struct mbd_config def;

	if (!cfg) {
		mbd_config_default(&def);
		cfg = &def;
	}
	c->file = file;
	c->test = test;
	c->v->reset(cfg, 0);
	memset(&c->res, 0, sizeof(c->res));
	ref_snap(c);
}
#define ref_begin(c, test, cfg) ref_begin_in((c), __FILE__, (test), (cfg))

static inline void ref_cfg(struct mbd_config *cfg, uint32_t memory_max,
		    uint32_t reserved_max, bool resize)
{
	mbd_config_default(cfg);
	cfg->memory_max = memory_max;
	cfg->reserved_max = reserved_max;
	cfg->resize = resize;
}

/* Run one call and snapshot; returns the call's return value. */
static inline int64_t ref_apply(struct ref_ctx *c, struct mbd_op op)
{
	mbd_op_normalize(&op);
	memset(&c->res, 0, sizeof(c->res));
	c->v->apply(&op, &c->res);
	ref_snap(c);
	return c->res.ret;
}

/* Run a setup call that must succeed with return value 0. */
static inline void ref_ok_at(struct ref_ctx *c, struct mbd_op op, int line)
{
	int64_t ret = ref_apply(c, op);
	char msg[400];

	if (!c->res.panicked && ret == 0) {
		ref_pass();
		return;
	}
	snprintf(msg, sizeof(msg), "%s(0x%" PRIx64 ", 0x%" PRIx64 ") -> %"
		 PRId64 "%s%s", mbd_op_name(op.kind), op.base, op.size, ret,
		 c->res.panicked ? " panic: " : "",
		 c->res.panicked ? c->res.panic_msg : "");
	ref_fail_head(c, line, msg);
}
#define REF_OK(c, op) ref_ok_at((c), (op), __LINE__)

static inline struct mbd_op ref_op_range(uint32_t kind, uint64_t base,
					 uint64_t size)
{
	struct mbd_op op;

	memset(&op, 0, sizeof(op));
	op.kind = kind;
	op.base = base;
	op.size = size;
	return op;
}

static inline struct mbd_op ref_op_node(uint64_t base, uint64_t size,
					int32_t nid, uint32_t flags)
{
	struct mbd_op op = ref_op_range(MBD_OP_ADD_NODE, base, size);

	op.nid = nid;
	op.flags = flags;
	return op;
}

static inline struct mbd_op ref_op_set_node(uint64_t base, uint64_t size,
				     enum mbd_type_sel type, int32_t nid)
{
	struct mbd_op op = ref_op_range(MBD_OP_SET_NODE, base, size);

	op.type = type;
	op.nid = nid;
	return op;
}

static inline struct mbd_op ref_op_alloc(uint64_t size, uint64_t align,
				  uint64_t start, uint64_t end)
{
	struct mbd_op op = ref_op_range(MBD_OP_ALLOC_RANGE, 0, size);

	op.align = align;
	op.start = start;
	op.end = end;
	return op;
}

static inline struct mbd_op ref_op_alloc_nid(uint64_t size, uint64_t align,
				      int32_t nid)
{
	struct mbd_op op = ref_op_range(MBD_OP_ALLOC_TRY_NID, 0, size);

	op.align = align;
	op.nid = nid;
	return op;
}

static inline struct mbd_op ref_op_value(uint32_t kind, uint64_t value)
{
	struct mbd_op op = ref_op_range(kind, 0, 0);

	op.value = value;
	return op;
}

#define OP_ADD(b, s) ref_op_range(MBD_OP_ADD, (b), (s))
#define OP_REMOVE(b, s) ref_op_range(MBD_OP_REMOVE, (b), (s))
#define OP_RESERVE(b, s) ref_op_range(MBD_OP_RESERVE, (b), (s))
#define OP_FREE(b, s) ref_op_range(MBD_OP_PHYS_FREE, (b), (s))

static inline void ref_print_rgns(const char *label, const struct mbd_region *a,
			   const struct ref_rgn *e, size_t n)
{
	fprintf(stderr, "    %s:\n", label);
	for (size_t i = 0; i < n; i++) {
		uint64_t b = a ? a[i].base : e[i].base;
		uint64_t s = a ? a[i].size : e[i].size;
		uint32_t f = a ? a[i].flags : e[i].flags;
		int32_t nid = a ? a[i].nid : e[i].nid;

		fprintf(stderr, "      [%3zu] [0x%016" PRIx64 "-0x%016" PRIx64
			"] size 0x%" PRIx64 " flags 0x%x nid %" PRId32 "\n",
			i, b, b + s - 1, s, f, nid);
	}
}

static inline const struct mbd_type_state *ref_type(struct ref_ctx *c,
					     enum mbd_type_sel type)
{
	return type == MBD_TYPE_MEMORY ? &c->st.memory : &c->st.reserved;
}

/*
 * The whole array of one type must be exactly e[0..n) (so cnt == n), with
 * the given max and total_size.
 */
static inline void ref_expect_at(struct ref_ctx *c, enum mbd_type_sel type,
			  uint64_t max, uint64_t total,
			  const struct ref_rgn *e, size_t n, int line)
{
	const struct mbd_type_state *t = ref_type(c, type);
	const char *name = type == MBD_TYPE_MEMORY ? "memory" : "reserved";
	bool ok = t->cnt == n && t->max == max && t->total_size == total &&
		  t->n_copied == n;
	char msg[400];

	for (size_t i = 0; ok && i < n; i++) {
		const struct mbd_region *r = &t->regions[i];

		ok = r->base == e[i].base && r->size == e[i].size &&
		     r->flags == e[i].flags && r->nid == e[i].nid;
	}
	if (ok) {
		ref_pass();
		return;
	}
	snprintf(msg, sizeof(msg), "%s array differs", name);
	ref_fail_head(c, line, msg);
	fprintf(stderr, "    expected cnt %zu max %" PRIu64 " total 0x%" PRIx64
		"\n    actual   cnt %" PRIu64 " max %" PRIu64 " total 0x%"
		PRIx64 "\n", n, max, total, t->cnt, t->max, t->total_size);
	ref_print_rgns("expected", NULL, e, n);
	ref_print_rgns("actual", t->regions, NULL, t->n_copied);
}
#define REF_EXPECT(c, type, max, total, arr) \
	ref_expect_at((c), (type), (max), (total), (arr), \
		      REF_ARRAY_SIZE(arr), __LINE__)
#define REF_EXPECT_EMPTY(c, type, max) \
	ref_expect_at((c), (type), (max), 0, NULL, 0, __LINE__)

static inline void ref_expect_u64_at(struct ref_ctx *c, const char *what,
			      uint64_t got, uint64_t want, int line)
{
	char msg[400];

	if (got == want) {
		ref_pass();
		return;
	}
	snprintf(msg, sizeof(msg), "%s: expected 0x%" PRIx64 " (%" PRId64
		 "), got 0x%" PRIx64 " (%" PRId64 ")", what, want,
		 (int64_t)want, got, (int64_t)got);
	ref_fail_head(c, line, msg);
}
#define REF_EXPECT_RET(c, want) \
	ref_expect_u64_at((c), "return value", (uint64_t)(c)->res.ret, \
			  (uint64_t)(int64_t)(want), __LINE__)
#define REF_EXPECT_WARN(c, want) \
	ref_expect_u64_at((c), "warnings", (c)->st.warnings, (want), __LINE__)
#define REF_EXPECT_U64(c, what, got, want) \
	ref_expect_u64_at((c), (what), (got), (want), __LINE__)

static inline void ref_expect_no_panic_at(struct ref_ctx *c, int line)
{
	char msg[220];

	if (!c->res.panicked) {
		ref_pass();
		return;
	}
	snprintf(msg, sizeof(msg), "unexpected panic: %s", c->res.panic_msg);
	ref_fail_head(c, line, msg);
}
#define REF_EXPECT_NO_PANIC(c) ref_expect_no_panic_at((c), __LINE__)

static inline void ref_expect_panic_at(struct ref_ctx *c, const char *want,
				       int line)
{
	char msg[260];

	if (c->res.panicked && strcmp(c->res.panic_msg, want) == 0) {
		ref_pass();
		return;
	}
	snprintf(msg, sizeof(msg), "expected panic \"%s\", got %s\"%s\"", want,
		 c->res.panicked ? "panic " : "no panic ",
		 c->res.panicked ? c->res.panic_msg : "");
	ref_fail_head(c, line, msg);
}
#define REF_EXPECT_PANIC(c, msg) ref_expect_panic_at((c), (msg), __LINE__)

static inline void ref_expect_flag_at(struct ref_ctx *c, const char *what,
				      bool got, bool want, int line)
{
	char msg[400];

	if (got == want) {
		ref_pass();
		return;
	}
	snprintf(msg, sizeof(msg), "%s: expected %s", what,
		 want ? "true" : "false");
	ref_fail_head(c, line, msg);
}
#define REF_EXPECT_FLAG(c, what, got, want) \
	ref_expect_flag_at((c), (what), (got), (want), __LINE__)

#endif
