// SPDX-License-Identifier: GPL-2.0
/*
 * What the importer writes: source lines as comments, calls and checkpoints
 * as .mbt; and what the written calls leave in the arrays, as far as it
 * follows them.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "import_int.h"

__attribute__((format(printf, 2, 3)))
void mbd_imp_printf(struct obuf *b, const char *fmt, ...)
{
	va_list ap;
	int r;

	for (;;) {
		size_t room = b->cap - b->len;

		va_start(ap, fmt);
		r = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? room : 0, fmt, ap);
		va_end(ap);
		if (r < 0)
			return;
		if (b->p && (size_t)r < room) {
			b->len += (size_t)r;
			return;
		}
		size_t cap = b->cap ? b->cap * 2 : 4096;
		while (cap - b->len <= (size_t)r)
			cap *= 2;
		char *np = realloc(b->p, cap);
		if (!np) {
			b->oom = 1;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
}

static void vfail(struct ictx *x, const struct line *l, unsigned no, const char *fmt,
		  va_list ap)
{
	int n;

	if (x->err[0])
		return;
	n = snprintf(x->err, sizeof(x->err), "%s:%u: error: ", l ? l->path : "<log>",
		     no ? no : l ? l->no : 0);
	if (n < 0 || (size_t)n >= sizeof(x->err))
		return;
	vsnprintf(x->err + n, sizeof(x->err) - (size_t)n, fmt, ap);
}

void mbd_imp_fail(struct ictx *x, const struct line *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(x, l ? l : x->cur, 0, fmt, ap);
	va_end(ap);
}

void mbd_imp_fail_at(struct ictx *x, unsigned no, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(x, x->cur, no, fmt, ap);
	va_end(ap);
}

int mbd_imp_nid(struct ictx *x, unsigned no, const char *s, int32_t *nid, const char **end)
{
	bool neg = *s == '-';
	const char *tok = s;
	uint64_t v;

	if (!mbd_imp_decnum(s + neg, &v, end)) {
		mbd_imp_fail_at(x, no, "bad nid \"%.20s\": expected -1 (NUMA_NO_NODE) to %d "
				"(MAX_NUMNODES)", tok, MBD_MAX_NUMNODES);
		return -1;
	}
	if (neg ? v > 1 : v > MBD_MAX_NUMNODES) {
		mbd_imp_fail_at(x, no, "nid %.*s out of range: expected -1 (NUMA_NO_NODE) "
				"to %d (MAX_NUMNODES)", (int)(*end - tok > 40 ? 40 : *end - tok),
				tok, MBD_MAX_NUMNODES);
		return -1;
	}
	*nid = neg ? -(int32_t)v : (int32_t)v;
	return 0;
}

void mbd_imp_comment(struct ictx *x, const struct line *l, const char *tag)
{
	char c[MAX_COMMENT + 1];
	size_t n = 0;

	for (const char *p = l->raw; *p && n < MAX_COMMENT; p++, n++)
		c[n] = ((unsigned char)*p >= 0x20 && (unsigned char)*p <= 0x7e) || *p == '\t' ? *p : '?';
	c[n] = '\0';
	mbd_imp_printf(&x->body, "# %s:%u%s: %s\n", l->src, l->no, tag, c);
}

/*
 * What the emitted calls reserved (for the frees import_frees.c infers),
 * marked NOMAP and removed, as far as the importer follows them.
 */
void mbd_imp_track(struct ictx *x, const struct mbd_op *op)
{
	uint64_t end = op->size > UINT64_MAX - op->base ? UINT64_MAX : op->base + op->size;
	int r = 0;

	if (op->kind == MBD_OP_RESERVE || op->kind == MBD_OP_RESERVE_KERN)
		r = mbd_iset_add(&x->rsv, op->base, end, 0, 0);
	else if (op->kind == MBD_OP_PHYS_FREE)
		r = mbd_iset_sub(&x->rsv, op->base, end);
	/* and memory's NOMAP ranges (import_infer.c) */
	if (op->kind == MBD_OP_MARK_NOMAP ||
	    ((op->kind == MBD_OP_ADD || op->kind == MBD_OP_ADD_NODE) && (op->flags & MBD_FLAG_NOMAP)))
		r |= mbd_iset_add(&x->nomap, op->base, end, 0, 0);
	else if (op->kind == MBD_OP_CLEAR_NOMAP || op->kind == MBD_OP_REMOVE)
		r |= mbd_iset_sub(&x->nomap, op->base, end);
	if (op->kind == MBD_OP_REMOVE)
		r |= mbd_iset_add(&x->removed, op->base, end, 0, 0);
	if (r)
		x->body.oom = 1;
}

void mbd_imp_emit_op_to(struct ictx *x, struct obuf *b, const struct mbd_op *op, unsigned no)
{
	struct mbd_trace t;
	struct mbd_diag d;
	int len;

	if (x->err[0])
		return;
	if (x->ops >= MBD_TEXT_MAX_OPS) {
		mbd_imp_fail_at(x, no, "too many calls: a trace holds at most %u",
			     MBD_TEXT_MAX_OPS);
		return;
	}
	len = mbd_text_format_op(x->tmp, sizeof(x->tmp), op);
	/* the parser that will read the trace is the judge of every value */
	mbd_trace_init(&t);
	if (len < 0 || (size_t)len >= sizeof(x->tmp) ||
	    mbd_text_parse(x->tmp, (size_t)len, "", &t, &d) != 0) {
		mbd_imp_fail_at(x, no, "%s (as the call \"%.80s\")",
			     len < 0 || (size_t)len >= sizeof(x->tmp) ? "too long" : d.msg, x->tmp);
		mbd_trace_free(&t);
		return;
	}
	mbd_trace_free(&t);
	mbd_imp_printf(b, "%s\n", x->tmp);
	x->ops++;
	x->st->ops++;
	mbd_imp_track(x, op);
	if (op->kind == MBD_OP_ADD || op->kind == MBD_OP_ADD_NODE)
		x->mem_ops++;
}

void mbd_imp_emit_op(struct ictx *x, const struct mbd_op *op)
{
	mbd_imp_emit_op_to(x, &x->body, op, 0);
}

void mbd_imp_emit_range(struct ictx *x, uint32_t kind, uint64_t base, uint64_t size)
{
	struct mbd_op op;

	memset(&op, 0, sizeof(op));
	op.kind = kind;
	op.base = base;
	op.size = size;
	mbd_imp_emit_op(x, &op);
}

/* The limits the runner can compare against (a region count, an array
 * size): a dump claiming more is not from a kernel. */
#define MAX_REGIONS ((uint64_t)1 << 32)

void mbd_imp_emit_expect(struct ictx *x, const struct mbd_expect *e)
{
	unsigned no = e->line;

	if (x->err[0])
		return;
	if ((e->have & MBD_EXPECT_HAS_NID) && (e->nid < MBD_NUMA_NO_NODE || e->nid > MBD_MAX_NUMNODES)) {
		mbd_imp_fail_at(x, no, "node %d out of range: expected -1 (NUMA_NO_NODE) to %d",
			     (int)e->nid, MBD_MAX_NUMNODES);
		return;
	}
	if (e->what == MBD_EXPECT_REGION && e->size && e->base + (e->size - 1) < e->base) {
		mbd_imp_fail_at(x, no, "region at 0x%llx of size 0x%llx wraps past 2^64",
			     (ull)e->base, (ull)e->size);
		return;
	}
	if (((e->have & MBD_EXPECT_HAS_CNT) && e->cnt > MAX_REGIONS) ||
	    ((e->have & MBD_EXPECT_HAS_MAX) && (e->max == 0 || e->max > MAX_REGIONS))) {
		mbd_imp_fail_at(x, no, "%s %llu out of range: expected %s..2^32 regions",
			     (e->have & MBD_EXPECT_HAS_MAX) ? "array size" : "region count",
			     (ull)((e->have & MBD_EXPECT_HAS_MAX) ? e->max : e->cnt),
			     (e->have & MBD_EXPECT_HAS_MAX) ? "1" : "0");
		return;
	}
	mbd_text_format_expect(x->tmp, sizeof(x->tmp), e);
	mbd_imp_printf(&x->body, "%s\n", x->tmp);
}

/* x86 e820__memblock_setup() ends with memblock_trim_memory(PAGE_SIZE),
 * which memblock=debug does not log: put it after its last add. */
void mbd_imp_flush_trim(struct ictx *x)
{
	if (!x->pending_trim)
		return;
	x->pending_trim = false;
	mbd_imp_printf(&x->body, "# x86 e820__memblock_setup() ends with memblock_trim_memory(PAGE_SIZE) "
		  "(not logged)\n");
	mbd_imp_printf(&x->body, "memblock_trim_memory: 0x1000\n");
	x->ops++;
	x->st->ops++;
}

void mbd_imp_unparsed(struct ictx *x, const struct line *l)
{
	mbd_imp_comment(x, l, " (not imported)");
	x->st->unparsed++;
	if (x->unparsed)
		fprintf(x->unparsed, "%s:%u: %s\n", l->src, l->no, l->raw);
}

/* The regions of the dump's arrays in mask (bit t = type t) as calls into b. */
void mbd_imp_emit_state(struct ictx *x, struct obuf *b, const struct dump *d, unsigned mask)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct mbd_expect *e = &d->reg[i];
		struct mbd_op op;

		if (!e->size || !(mask & (1u << e->type)))
			continue;
		memset(&op, 0, sizeof(op));
		op.base = e->base;
		op.size = e->size;
		if (e->type == MBD_TYPE_MEMORY && (e->flags || (e->have & MBD_EXPECT_HAS_NID))) {
			op.kind = MBD_OP_ADD_NODE;
			op.nid = (e->have & MBD_EXPECT_HAS_NID) ? e->nid : MBD_MAX_NUMNODES;
			op.flags = e->flags & 0x1f;
		} else {
			op.kind = e->type == MBD_TYPE_MEMORY ? MBD_OP_ADD : MBD_OP_RESERVE;
		}
		mbd_imp_emit_op_to(x, b, &op, e->line);
		if (e->type == MBD_TYPE_RESERVED && (e->flags & MBD_FLAG_RSRV_NOINIT)) {
			op.kind = MBD_OP_MARK_NOINIT;
			mbd_imp_emit_op_to(x, b, &op, e->line);
		}
		if (e->type == MBD_TYPE_RESERVED && (e->have & MBD_EXPECT_HAS_NID)) {
			op.kind = MBD_OP_SET_NODE;
			op.type = MBD_TYPE_RESERVED;
			op.nid = e->nid;
			mbd_imp_emit_op_to(x, b, &op, e->line);
		}
	}
}
