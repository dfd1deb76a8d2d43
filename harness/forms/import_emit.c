// SPDX-License-Identifier: GPL-2.0
/* What the importer writes: source lines as comments, calls and checkpoints as .mbt. */
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

__attribute__((format(printf, 3, 4)))
void mbd_imp_fail(struct ictx *x, const struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (x->err[0])
		return;
	n = snprintf(x->err, sizeof(x->err), "%s:%u: ", l->src, l->no);
	if (n < 0 || (size_t)n >= sizeof(x->err))
		return;
	va_start(ap, fmt);
	vsnprintf(x->err + n, sizeof(x->err) - (size_t)n, fmt, ap);
	va_end(ap);
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

void mbd_imp_emit_op(struct ictx *x, const struct mbd_op *op)
{
	mbd_text_format_op(x->tmp, sizeof(x->tmp), op);
	mbd_imp_printf(&x->body, "%s\n", x->tmp);
	x->ops++;
	x->st->ops++;
	if (op->kind == MBD_OP_ADD || op->kind == MBD_OP_ADD_NODE)
		x->mem_ops++;
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

void mbd_imp_emit_expect(struct ictx *x, const struct mbd_expect *e)
{
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
