// SPDX-License-Identifier: GPL-2.0
#define _POSIX_C_SOURCE 200809L /* open_memstream */
/* The .mbt text form: the printer (text_parse.c reads what it writes). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_expect.h"
#include "mbd_output.h"
#include "mbd_text.h"

/* snprintf into a buffer that may be too small, keeping the full length. */
struct sbuf {
	char *buf;
	size_t n, len;
};

__attribute__((format(printf, 2, 3)))
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	size_t room = b->len < b->n ? b->n - b->len : 0;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(room ? b->buf + b->len : NULL, room, fmt, ap);
	va_end(ap);
	if (r > 0)
		b->len += (size_t)r;
}

typedef unsigned long long ull;

/* Inclusive unless base + size - 1 wraps; zero size prints end = base - 1. */
static void format_range(struct sbuf *b, uint64_t base, uint64_t size)
{
	if (size == 0 || size - 1 <= UINT64_MAX - base)
		sb_printf(b, " [0x%016llx-0x%016llx]", (ull)base, (ull)(base + size - 1));
	else
		sb_printf(b, " base=0x%016llx size=0x%llx", (ull)base, (ull)size);
}

int mbd_text_format_op(char *buf, size_t n, const struct mbd_op *op)
{
	struct sbuf b = { buf, n, 0 };

	if (n)
		buf[0] = '\0';
	if (op->kind >= MBD_OP__COUNT) {
		sb_printf(&b, "# unknown op kind %u", op->kind);
		return (int)b.len;
	}
	sb_printf(&b, "%s", mbd_op_table[op->kind].name);
	switch (mbd_op_table[op->kind].shape) {
	case MBD_SHAPE_RANGE:
		sb_printf(&b, ":");
		format_range(&b, op->base, op->size);
		break;
	case MBD_SHAPE_RANGE_NODE:
		sb_printf(&b, ":");
		format_range(&b, op->base, op->size);
		sb_printf(&b, " nid=%d flags=0x%x", (int)op->nid, (unsigned)op->flags);
		break;
	case MBD_SHAPE_RANGE_NID:
		/* the plain call has no node: print one only when there is */
		sb_printf(&b, ":");
		format_range(&b, op->base, op->size);
		if (op->nid != MBD_NUMA_NO_NODE)
			sb_printf(&b, " nid=%d", (int)op->nid);
		break;
	case MBD_SHAPE_SET_NODE:
		sb_printf(&b, ":");
		format_range(&b, op->base, op->size);
		if (op->type == MBD_TYPE_MEMORY || op->type == MBD_TYPE_RESERVED)
			sb_printf(&b, " type=%s", op->type == MBD_TYPE_MEMORY ? "memory" : "reserved");
		else
			sb_printf(&b, " type=%u", (unsigned)op->type);
		sb_printf(&b, " nid=%d", (int)op->nid);
		break;
	case MBD_SHAPE_ALLOC_RANGE:
		sb_printf(&b, ": %llu bytes align=0x%llx from=0x%016llx max_addr=0x%016llx",
			  (ull)op->size, (ull)op->align, (ull)op->start, (ull)op->end);
		break;
	case MBD_SHAPE_ALLOC_NID:
		sb_printf(&b, ": %llu bytes align=0x%llx nid=%d", (ull)op->size,
			  (ull)op->align, (int)op->nid);
		break;
	case MBD_SHAPE_VALUE:
		if (op->kind == MBD_OP_SET_LIMIT)
			sb_printf(&b, ": 0x%016llx", (ull)op->value);
		else if (op->kind == MBD_OP_SET_BOTTOM_UP)
			sb_printf(&b, ": %llu", (ull)op->value);
		else
			sb_printf(&b, ": 0x%llx", (ull)op->value);
		break;
	case MBD_SHAPE_NONE:
		break;
	}
	return (int)b.len;
}

int mbd_text_format_config(char *buf, size_t n, const struct mbd_config *cfg)
{
	struct sbuf b = { buf, n, 0 };

	if (n)
		buf[0] = '\0';
	sb_printf(&b, "config memory.max=%u reserved.max=%u resize=%d slab=%d bottom_up=%d "
		  "mirror=%d movable=%d limit=0x%016llx",
		  (unsigned)cfg->memory_max, (unsigned)cfg->reserved_max, cfg->resize,
		  cfg->slab, cfg->bottom_up, cfg->mirror, cfg->movable, (ull)cfg->limit);
	return (int)b.len;
}

int mbd_text_format_expect(char *buf, size_t n, const struct mbd_expect *e)
{
	struct sbuf b = { buf, n, 0 };

	if (n)
		buf[0] = '\0';
	sb_printf(&b, "expect %s", e->type == MBD_TYPE_RESERVED ? "reserved" : "memory");
	if (e->what == MBD_EXPECT_REGION) {
		format_range(&b, e->base, e->size);
		if (e->have & MBD_EXPECT_HAS_FLAGS)
			sb_printf(&b, " flags=0x%x", (unsigned)e->flags);
		if (e->have & MBD_EXPECT_HAS_NID)
			sb_printf(&b, " nid=%d", (int)e->nid);
		return (int)b.len;
	}
	if (e->have & MBD_EXPECT_HAS_CNT)
		sb_printf(&b, " cnt=%llu", (ull)e->cnt);
	if (e->have & MBD_EXPECT_HAS_TOTAL)
		sb_printf(&b, " total=0x%llx", (ull)e->total);
	if (e->have & MBD_EXPECT_HAS_MAX)
		sb_printf(&b, " max=%llu", (ull)e->max);
	return (int)b.len;
}

/* The checkpoints that follow op number done (1-based count of ops). */
static int write_expects(FILE *out, const struct mbd_trace *t, size_t *next,
			 size_t done)
{
	char line[256];

	for (; *next < t->n_expects && t->expects[*next].after_op <= done; (*next)++) {
		mbd_text_format_expect(line, sizeof(line), &t->expects[*next]);
		if (fprintf(out, "%s\n", line) < 0)
			return -1;
	}
	return 0;
}

int mbd_text_write(FILE *out, const struct mbd_trace *t)
{
	char line[512]; /* the longest op or config line is under 200 bytes */
	size_t next = 0;

	mbd_text_format_config(line, sizeof(line), &t->cfg);
	if (fprintf(out, "%s\n", line) < 0)
		return -1;
	for (size_t i = 0; i < t->n_ops; i++) {
		mbd_text_format_op(line, sizeof(line), &t->ops[i]);
		if (fprintf(out, "%s\n", line) < 0 ||
		    write_expects(out, t, &next, i + 1))
			return -1;
	}
	return ferror(out) ? -1 : 0;
}

int mbd_text_save(const char *path, const char *header,
		  const struct mbd_trace *t, char *why, size_t n_why)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int bad;

	if (!f) {
		snprintf(why, n_why, "out of memory");
		return -1;
	}
	fputs(header ? header : "", f);
	bad = t ? mbd_text_write(f, t) != 0 : 0;
	bad |= fclose(f) != 0;
	if (bad)
		snprintf(why, n_why, "cannot format the trace");
	else
		bad = mbd_output_write(path, buf, len, why, n_why) != 0;
	free(buf);
	return bad ? -1 : 0;
}
