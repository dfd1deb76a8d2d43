// SPDX-License-Identifier: GPL-2.0
/*
 * Boot-log importer. Every source line is kept as a comment; the lines that
 * describe memblock calls become ops, MEMBLOCK dumps become the starting
 * state or `expect` checkpoints, and memory maps stand in for the calls the
 * kernel made when there is no memblock=debug trace. The result is .mbt
 * text; the caller re-parses it.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_expect.h"
#include "mbd_import.h"
#include "mbd_text.h"

#define MAX_COMMENT 3000

typedef unsigned long long ull;

struct obuf {
	char *p;
	size_t len, cap;
	int oom;
};

__attribute__((format(printf, 2, 3)))
static void ob_printf(struct obuf *b, const char *fmt, ...)
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

/* One source line, with mail quotes, timestamp and indent cut off. */
struct line {
	const char *src;       /* file name */
	unsigned no;
	char *raw;             /* the line as read (no line end) */
	const char *s;         /* the payload inside raw */
	int cls;               /* enum cls */
	int done;              /* already written (two-phase output) */
};

enum cls { L_BLANK, L_HEADER, L_OTHER, L_OP, L_ALLOC, L_KNOWN, L_DOUBLED, L_DUMP,
	   L_E820, L_EFI, L_OF, L_NODEHDR, L_NODE };

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static bool starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

/* "[    0.000000] " and "[    T0] " (printk caller id). */
static const char *skip_stamp(const char *s)
{
	for (int k = 0; k < 2; k++) {
		const char *q = s;

		if (*q != '[')
			break;
		q++;
		while (*q == ' ')
			q++;
		if (k == 1 && (*q == 'T' || *q == 'C'))
			q++;
		if (!(*q >= '0' && *q <= '9'))
			break;
		while ((*q >= '0' && *q <= '9') || *q == '.')
			q++;
		if (*q != ']')
			break;
		s = q + 1;
	}
	return s;
}

static const char *payload(const char *raw)
{
	const char *s = skip_ws(raw);

	while (*s == '>')
		s = skip_ws(s + 1);
	return skip_ws(skip_stamp(s));
}

/* A hex number with optional 0x; *end past it. */
static bool hexnum(const char *s, uint64_t *v, const char **end)
{
	uint64_t x = 0;
	int n = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (;; s++, n++) {
		int d = (*s >= '0' && *s <= '9') ? *s - '0' :
			(*s >= 'a' && *s <= 'f') ? *s - 'a' + 10 :
			(*s >= 'A' && *s <= 'F') ? *s - 'A' + 10 : -1;
		if (d < 0)
			break;
		if (n >= 16)
			return false;
		x = (x << 4) | (uint64_t)d;
	}
	if (!n)
		return false;
	*v = x;
	*end = s;
	return true;
}

static bool decnum(const char *s, uint64_t *v, const char **end)
{
	uint64_t x = 0;
	int n = 0;

	for (; *s >= '0' && *s <= '9'; s++, n++)
		x = x * 10 + (uint64_t)(*s - '0');
	if (!n)
		return false;
	*v = x;
	*end = s;
	return true;
}

/* "A<sep>B" with the separator sep (e.g. "-" or ".."), after opening open. */
static bool pair(const char *s, const char *open, const char *sep, uint64_t *a,
		 uint64_t *b, const char **end)
{
	size_t o = strlen(open), n = strlen(sep);

	if (strncmp(s, open, o) != 0 || !hexnum(s + o, a, &s) || strncmp(s, sep, n) != 0)
		return false;
	return hexnum(s + n, b, end);
}

/* The op name before ':' of a memblock=debug line, or 0. */
static size_t op_name(const char *s)
{
	size_t n = 0;

	if (!starts(s, "memblock_") && !starts(s, "__memblock_"))
		return 0;
	while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= '0' && s[n] <= '9') || s[n] == '_')
		n++;
	return s[n] == ':' ? n : 0;
}

static bool is_alloc_name(const char *s, size_t n)
{
	for (size_t i = 0; i + 5 <= n; i++)
		if (memcmp(s + i, "alloc", 5) == 0)
			return true;
	return false;
}

static bool is_free_late(const char *s, size_t n)
{
	return (n == 20 && memcmp(s, "__memblock_free_late", n) == 0) ||
	       (n == 18 && memcmp(s, "memblock_free_late", n) == 0);
}

static int classify(const char *s)
{
	size_t n = op_name(s);

	if (!*s)
		return L_BLANK;
	if (n) {
		if (is_alloc_name(s, n))
			return L_ALLOC;
		if (is_free_late(s, n))
			return L_KNOWN;
		return L_OP;
	}
	if (starts(s, "memblock: ") && strstr(s, " is doubled to "))
		return L_DOUBLED;
	if (starts(s, "MEMBLOCK configuration:"))
		return L_DUMP;
	if (starts(s, "BIOS-e820: "))
		return L_E820;
	if (starts(s, "OF: reserved mem: 0x") || starts(s, "OF: reserved mem: "))
		return strstr(s, "..") ? L_OF : L_OTHER;
	if (starts(s, "efi: ") && (strstr(s, "range=[") || starts(skip_ws(s + 4), "0x")) &&
	    strchr(s, '|'))
		return L_EFI;
	if (starts(s, "Early memory node ranges"))
		return L_NODEHDR;
	if (starts(s, "node ") && strstr(s, ": [mem "))
		return L_NODE;
	if (starts(s, "reserve setup_data: ") || starts(s, "e820: update ") ||
	    starts(s, "e820: remove "))
		return L_KNOWN;
	return L_OTHER;
}

/* Size of [a-b] under the convention (mod 2^64, so wrapped ends work). */
static uint64_t range_size(uint64_t a, uint64_t b, enum mbd_import_conv c)
{
	return c == MBD_CONV_EXCLUSIVE ? b - a : b - a + 1;
}

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
	size_t ops;            /* ops written so far */
	size_t mem_ops;        /* of them, memory adds/removes */
	size_t dumps_seen;
	struct obuf pre;       /* inferred calls that go before everything */
	/* the last EFI map entry, when the trace shows the calls made for it */
	bool efi_valid, efi_nomap;
	uint64_t efi_base, efi_size;
	char tmp[512];
};

static void comment(struct ictx *x, const struct line *l, const char *tag)
{
	char c[MAX_COMMENT + 1];
	size_t n = 0;

	for (const char *p = l->raw; *p && n < MAX_COMMENT; p++, n++)
		c[n] = ((unsigned char)*p >= 0x20 && (unsigned char)*p <= 0x7e) || *p == '\t' ? *p : '?';
	c[n] = '\0';
	ob_printf(&x->body, "# %s:%u%s: %s\n", l->src, l->no, tag, c);
}

static void emit_op(struct ictx *x, const struct mbd_op *op)
{
	mbd_text_format_op(x->tmp, sizeof(x->tmp), op);
	ob_printf(&x->body, "%s\n", x->tmp);
	x->ops++;
	x->st->ops++;
	if (op->kind == MBD_OP_ADD || op->kind == MBD_OP_ADD_NODE)
		x->mem_ops++;
}

static void emit_range(struct ictx *x, uint32_t kind, uint64_t base, uint64_t size)
{
	struct mbd_op op;

	memset(&op, 0, sizeof(op));
	op.kind = kind;
	op.base = base;
	op.size = size;
	emit_op(x, &op);
}

static void emit_expect(struct ictx *x, const struct mbd_expect *e)
{
	mbd_text_format_expect(x->tmp, sizeof(x->tmp), e);
	ob_printf(&x->body, "%s\n", x->tmp);
}

/* memblock_xxx: [A-B] [flags 0xF] [nid=N flags=F] [caller] */
static int do_op(struct ictx *x, const struct line *l)
{
	size_t n = op_name(l->s);
	const char *p = skip_ws(l->s + n + 1), *caller;
	char name[64];
	uint64_t a, b;
	int kind;
	struct mbd_op op;

	if (n >= sizeof(name) || !pair(p, "[", "-", &a, &b, &p) || *p != ']')
		return -1;
	p = skip_ws(p + 1);
	memcpy(name, l->s, n);
	name[n] = '\0';
	if (!strcmp(name, "memblock_free") || !strcmp(name, "__memblock_free_early"))
		kind = MBD_OP_PHYS_FREE;
	else
		kind = mbd_op_lookup(name, n);
	if (kind < 0 || (mbd_op_table[kind].shape != MBD_SHAPE_RANGE &&
			 mbd_op_table[kind].shape != MBD_SHAPE_RANGE_NODE))
		return -1;
	memset(&op, 0, sizeof(op));
	op.kind = (uint32_t)kind;
	op.base = a;
	op.size = range_size(a, b, x->conv);
	if (starts(p, "flags 0x")) {    /* 3.x/4.x: always 0 in practice */
		uint64_t f;

		if (!hexnum(p + 6, &f, &p))
			return -1;
		p = skip_ws(p);
	}
	if (kind == MBD_OP_ADD_NODE) {
		uint64_t v, f;

		if (!starts(p, "nid=") || !decnum(p + 4 + (p[4] == '-'), &v, &p))
			return -1;
		op.nid = l->s[0] && strstr(l->s, "nid=-") ? -(int32_t)v : (int32_t)v;
		p = skip_ws(p);
		if (!starts(p, "flags=") || !hexnum(p + 6, &f, &p))
			return -1;
		op.flags = (uint32_t)f & 0x1f;
		p = skip_ws(p);
	}
	caller = p;
	if (kind == MBD_OP_RESERVE && starts(caller, "memblock_double_array")) {
		comment(x, l, " (the new array's reservation, made inside memblock_double_array: not an op)");
		x->st->known++;
		return 0;
	}
	if (kind == MBD_OP_ADD && starts(caller, "e820__memblock_setup")) {
		if (!x->resize_added) {
			ob_printf(&x->body, "# x86 e820__memblock_setup() starts with memblock_allow_resize() "
				  "(not logged)\n");
			ob_printf(&x->body, "memblock_allow_resize\n");
			x->ops++;
			x->st->ops++;
			x->resize_added = true;
		}
		x->pending_trim = true;
	}
	comment(x, l, "");
	emit_op(x, &op);
	x->st->traced++;
	if (kind == MBD_OP_ADD && x->efi_valid && x->efi_nomap && op.base == x->efi_base &&
	    op.size == x->efi_size) {
		ob_printf(&x->body, "# arm/arm64 EFI reserve_regions() marks a non-usable entry nomap "
			  "right after adding it (memblock_mark_nomap is not logged)\n");
		emit_range(x, MBD_OP_MARK_NOMAP, op.base, op.size);
	}
	x->efi_valid = false;
	return 0;
}

/* x86 e820__memblock_setup() ends with memblock_trim_memory(PAGE_SIZE),
 * which memblock=debug does not log: put it after its last add. */
static void flush_trim(struct ictx *x)
{
	if (!x->pending_trim)
		return;
	x->pending_trim = false;
	ob_printf(&x->body, "# x86 e820__memblock_setup() ends with memblock_trim_memory(PAGE_SIZE) "
		  "(not logged)\n");
	ob_printf(&x->body, "memblock_trim_memory: 0x1000\n");
	x->ops++;
	x->st->ops++;
}

/* The dump being read. */
struct dump {
	bool have_total[2], have_cnt[2];
	uint64_t total[2], cnt[2];
	size_t n;
	struct mbd_expect reg[2 * 1024];
};

/* One dump line; false if the line is not part of a dump. */
static bool dump_line(struct dump *d, const char *s)
{
	const char *p;
	uint64_t v, a, b, sz;
	int t;

	if (starts(s, "memory size = ")) {
		if (!hexnum(s + 14, &d->total[0], &p))
			return false;
		d->have_total[0] = true;
		p = strstr(p, "reserved size = ");
		if (p && hexnum(p + 16, &d->total[1], &p))
			d->have_total[1] = true;
		return true;
	}
	t = starts(s, "memory") ? 0 : starts(s, "reserved") ? 1 : -1;
	if (t < 0)
		return false;
	p = s + (t ? 8 : 6);
	if (starts(p, ".cnt")) {
		p = skip_ws(p + 4);
		if (*p != '=' || !hexnum(skip_ws(p + 1), &v, &p))
			return false;
		d->cnt[t] = v;
		d->have_cnt[t] = true;
		return true;
	}
	if (!pair(p, "[", "]", &v, &v, &p) && !(starts(p, "[0x") && strchr(p, ']')))
		return false;
	p = strchr(p, ']') + 1;
	p = skip_ws(p);
	if (!pair(p, "[", "-", &a, &b, &p) || *p != ']')
		return false;
	p = skip_ws(p + 1);
	if (*p == ',')
		p = skip_ws(p + 1);
	if (!hexnum(p, &sz, &p))
		return false;
	if (d->n < sizeof(d->reg) / sizeof(d->reg[0])) {
		struct mbd_expect *e = &d->reg[d->n++];
		const char *q;

		memset(e, 0, sizeof(*e));
		e->what = MBD_EXPECT_REGION;
		e->type = (uint32_t)t;
		e->base = a;
		e->size = sz;   /* the printed size is unambiguous, the end is not */
		if ((q = strstr(p, "on node ")) && decnum(q + 8, &v, &q)) {
			e->nid = (int32_t)v;
			e->have |= MBD_EXPECT_HAS_NID;
		}
		if ((q = strstr(p, "flags: ")) && hexnum(q + 7, &v, &q)) {
			e->flags = (uint32_t)v;
			e->have |= MBD_EXPECT_HAS_FLAGS;
		}
	}
	return true;
}

/* The regions of the dump's arrays in mask (bit t = type t) as calls into b. */
static void emit_state(struct ictx *x, struct obuf *b, const struct dump *d, unsigned mask)
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
		mbd_text_format_op(x->tmp, sizeof(x->tmp), &op);
		ob_printf(b, "%s\n", x->tmp);
		x->ops++;
		x->st->ops++;
		if (e->type == MBD_TYPE_RESERVED && (e->flags & MBD_FLAG_RSRV_NOINIT)) {
			op.kind = MBD_OP_MARK_NOINIT;
			mbd_text_format_op(x->tmp, sizeof(x->tmp), &op);
			ob_printf(b, "%s\n", x->tmp);
			x->ops++;
			x->st->ops++;
		}
		if (e->type == MBD_TYPE_RESERVED && (e->have & MBD_EXPECT_HAS_NID)) {
			op.kind = MBD_OP_SET_NODE;
			op.type = MBD_TYPE_RESERVED;
			op.nid = e->nid;
			mbd_text_format_op(x->tmp, sizeof(x->tmp), &op);
			ob_printf(b, "%s\n", x->tmp);
			x->ops++;
			x->st->ops++;
		}
	}
}

static size_t live_regions(const struct dump *d, int t, uint64_t *sum)
{
	size_t live = 0;

	*sum = 0;
	for (size_t i = 0; i < d->n; i++) {
		if (d->reg[i].type == (uint32_t)t && d->reg[i].size) {
			live++;
			*sum += d->reg[i].size;
		}
	}
	return live;
}

/*
 * Dump -> starting state (ops) when nothing ran yet, then checkpoints. The
 * first dump of a trace that never added memory also supplies that memory:
 * memblock=debug is an early_param, parsed after DT/EFI memory was added.
 */
static void finish_dump(struct ictx *x, struct dump *d, const struct line *first)
{
	bool init = !x->ops;
	uint64_t sum;

	if (init) {
		ob_printf(&x->body, "# the dump at %s:%u is the starting state: its regions as calls\n",
			  first->src, first->no);
		emit_state(x, &x->body, d, 3);
	} else if (!x->dumps_seen && !x->mem_ops && live_regions(d, 0, &sum)) {
		ob_printf(&x->pre, "# inferred from the dump at %s:%u: memory added before "
			  "memblock=debug took effect (early_param), so never logged\n",
			  first->src, first->no);
		emit_state(x, &x->pre, d, 1);
		x->mem_ops++;
	}
	x->dumps_seen++;
	if (!x->ops) {
		ob_printf(&x->body, "# (empty dump and no op before it: nothing to check)\n");
		return;
	}
	ob_printf(&x->body, "# checkpoint: the dump at %s:%u\n", first->src, first->no);
	for (int t = 0; t < 2; t++) {
		struct mbd_expect h;
		size_t live = live_regions(d, t, &sum), idx = 0;

		/* a list the poster elided says nothing about the array */
		if (!live && !d->have_cnt[t])
			continue;
		memset(&h, 0, sizeof(h));
		h.type = (uint32_t)t;
		h.what = MBD_EXPECT_HEAD;
		/* older kernels print an empty array as one zero-size region */
		h.cnt = d->have_cnt[t] && !(live == 0 && d->cnt[t] == 1) ? d->cnt[t] : live;
		h.have = MBD_EXPECT_HAS_CNT;
		if (d->have_total[t] && (!init || d->total[t] == sum)) {
			h.total = d->total[t];
			h.have |= MBD_EXPECT_HAS_TOTAL;
		} else if (d->have_total[t]) {
			ob_printf(&x->body, "# (%s size 0x%llx is not the sum of its regions 0x%llx: "
				  "memblock_trim_memory leaves total_size stale, which calls that "
				  "rebuild the regions cannot reproduce; not checked)\n",
				  t ? "reserved" : "memory", (ull)d->total[t], (ull)sum);
		}
		emit_expect(x, &h);
		for (size_t i = 0; i < d->n; i++) {
			struct mbd_expect e = d->reg[i];

			if (e.type != (uint32_t)t || !e.size)
				continue;
			e.index = (uint32_t)idx++;
			emit_expect(x, &e);
		}
	}
	x->st->checkpoints++;
}

/* "memblock: reserved is doubled to 256 at [...]" */
static int do_doubled(struct ictx *x, const struct line *l)
{
	const char *p = l->s + 10;
	struct mbd_expect e;
	uint64_t v;

	memset(&e, 0, sizeof(e));
	e.type = starts(p, "reserved") ? MBD_TYPE_RESERVED : MBD_TYPE_MEMORY;
	p = strstr(p, " is doubled to ");
	if (!p || !decnum(p + 15, &v, &p))
		return -1;
	comment(x, l, "");
	if (!x->ops) {
		ob_printf(&x->body, "# (no op before it: nothing to check)\n");
		return 0;
	}
	e.what = MBD_EXPECT_HEAD;
	e.max = v;
	e.have = MBD_EXPECT_HAS_MAX;
	emit_expect(x, &e);
	x->st->checkpoints++;
	return 0;
}

/* BIOS-e820: [mem A-B] TYPE, or the old "A - B (TYPE)" (exclusive). */
static int do_e820(struct ictx *x, const struct line *l)
{
	const char *p = skip_ws(l->s + 10), *ty;
	uint64_t a, b, size;

	if (pair(p, "[mem ", "-", &a, &b, &p) && *p == ']') {
		size = b - a + 1;
		ty = skip_ws(p + 1);
	} else if (pair(p, "", " - ", &a, &b, &p)) {
		size = b - a;
		ty = skip_ws(p);
		if (*ty == '(')
			ty++;
	} else {
		return -1;
	}
	if (x->mem_src != L_E820) {
		comment(x, l, " (map only: the trace has the calls)");
		x->st->known++;
		return 0;
	}
	if (!x->resize_added) {
		ob_printf(&x->body, "# x86 e820__memblock_setup(): allow resizing, add every usable "
			  "(and reserved-kern) entry, reserve soft-reserved ones, then trim to pages\n");
		ob_printf(&x->body, "memblock_allow_resize\n");
		x->ops++;
		x->st->ops++;
		x->resize_added = true;
	}
	comment(x, l, "");
	if (starts(ty, "usable") || starts(ty, "reserved-kern") || starts(ty, "reserved kernel"))
		emit_range(x, MBD_OP_ADD, a, size);
	else if (starts(ty, "soft reserved"))
		emit_range(x, MBD_OP_RESERVE, a, size);
	x->st->map_entries++;
	return 0;
}

/* OF: reserved mem: A..B (N KiB) [no]map ... : reserve, or mark nomap. */
static int do_of(struct ictx *x, const struct line *l)
{
	const char *p = l->s + 18;
	uint64_t a, b;

	if (!pair(p, "", "..", &a, &b, &p))
		return -1;
	if (x->trace) {
		comment(x, l, " (DT summary: the trace has the calls)");
		x->st->known++;
		return 0;
	}
	comment(x, l, " (DT reserved-memory: nomap -> memblock_mark_nomap, else memblock_reserve)");
	emit_range(x, strstr(p, " nomap") ? MBD_OP_MARK_NOMAP : MBD_OP_RESERVE, a, b - a + 1);
	x->st->map_entries++;
	return 0;
}

static bool has_type(const char *s, const char *t)
{
	const char *q = strchr(s, '[');

	return q && starts(q + 1, t);
}

/* arm "efi:   A-B [Type|...]" or x86 "efi: memNN: [Type|...] range=[A-B]". */
static int do_efi(struct ictx *x, const struct line *l)
{
	const char *p = skip_ws(l->s + 4), *r;
	uint64_t a, b, size;
	bool usable, wb;

	if ((r = strstr(p, "range=[")) && pair(r, "range=[", "-", &a, &b, &r))
		size = *r == ')' ? b - a : b - a + 1;
	else if (pair(p, "", "-", &a, &b, &r))
		size = b - a + 1;
	else
		return -1;
	usable = has_type(p, "Conventional") || has_type(p, "Loader") || has_type(p, "Boot") ||
		 has_type(p, "Persistent");
	wb = strstr(p, "|WB|") != NULL;
	if (x->mem_src != L_EFI) {
		comment(x, l, " (map only: the trace or e820 has the calls)");
		x->st->known++;
		/* arm: the logged memblock_add for it may follow; see do_op */
		x->efi_valid = wb;
		x->efi_nomap = !usable;
		x->efi_base = a;
		x->efi_size = size;
		return 0;
	}
	comment(x, l, " (arm64 EFI reserve_regions(): WB memory is added, non-usable types marked nomap)");
	x->st->map_entries++;
	if (!wb)
		return 0;
	emit_range(x, MBD_OP_ADD, a, size);
	if (!usable)
		emit_range(x, MBD_OP_MARK_NOMAP, a, size);
	if (has_type(p, "ACPI Reclaim"))
		emit_range(x, MBD_OP_RESERVE, a, size);
	return 0;
}

/* "node   N: [mem A-B]" after "Early memory node ranges". */
static int do_node(struct ictx *x, const struct line *l)
{
	const char *p = skip_ws(l->s + 5);
	uint64_t nid, a, b;
	struct mbd_op op;

	if (!decnum(p, &nid, &p) || *p != ':' || !pair(skip_ws(p + 1), "[mem ", "-", &a, &b, &p))
		return -1;
	if (x->mem_src != L_NODE) {
		comment(x, l, " (result summary: not an op)");
		x->st->known++;
		return 0;
	}
	comment(x, l, " (final memory as memblock_add_node: no other memory source in this log)");
	memset(&op, 0, sizeof(op));
	op.kind = MBD_OP_ADD_NODE;
	op.base = a;
	op.size = b - a + 1;
	op.nid = nid > MBD_MAX_NUMNODES ? MBD_MAX_NUMNODES : (int32_t)nid;
	emit_op(x, &op);
	x->st->map_entries++;
	return 0;
}

static void unparsed(struct ictx *x, const struct line *l)
{
	comment(x, l, " (not imported)");
	x->st->unparsed++;
	if (x->unparsed)
		fprintf(x->unparsed, "%s:%u: %s\n", l->src, l->no, l->raw);
}

/* Vote on the range convention from page-aligned starts and zero sizes. */
static enum mbd_import_conv detect(const struct line *ls, size_t n)
{
	long incl = 0, excl = 0;

	for (size_t i = 0; i < n; i++) {
		const char *p;
		uint64_t a, b;

		if (ls[i].cls != L_OP)
			continue;
		p = skip_ws(ls[i].s + op_name(ls[i].s) + 1);
		if (!pair(p, "[", "-", &a, &b, &p))
			continue;
		if (b == a - 1)
			incl += 2;
		else if (b == a)
			excl += 1;
		else if (!(a & 0xfff) && (b & 0xfff) == 0xfff)
			incl++;
		else if (!(a & 0xfff) && !(b & 0xfff))
			excl++;
	}
	return excl > incl ? MBD_CONV_EXCLUSIVE : MBD_CONV_INCLUSIVE;
}

static bool added_memory(const struct line *ls, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ls[i].cls == L_OP && (starts(ls[i].s, "memblock_add:") ||
					  starts(ls[i].s, "memblock_add_node:")))
			return true;
	return false;
}

/* Does this line belong to the memory-source phase (no-trace logs)? */
static bool phase_a(const struct ictx *x, const struct line *l)
{
	return x->mem_src && l->cls == x->mem_src;
}

static void process(struct ictx *x, struct line *ls, size_t n, bool only_a)
{
	for (size_t i = 0; i < n; i++) {
		struct line *l = &ls[i];
		int r = 0;

		if (l->done || l->cls == L_BLANK || l->cls == L_HEADER)
			continue;
		if (only_a && !phase_a(x, l))
			continue;
		l->done = 1;
		if (x->pending_trim && (l->cls == L_ALLOC || l->cls == L_DUMP || l->cls == L_DOUBLED ||
					(l->cls == L_OP && !strstr(l->s, " e820__memblock_setup"))))
			flush_trim(x);
		switch (l->cls) {
		case L_OP:
			r = do_op(x, l);
			break;
		case L_ALLOC:
			comment(x, l, " (allocation request: the memblock_reserve it made follows)");
			x->st->alloc_requests++;
			break;
		case L_KNOWN:
		case L_NODEHDR:
			comment(x, l, "");
			x->st->known++;
			break;
		case L_DOUBLED:
			r = do_doubled(x, l);
			break;
		case L_E820:
			r = do_e820(x, l);
			break;
		case L_OF:
			r = do_of(x, l);
			break;
		case L_EFI:
			r = do_efi(x, l);
			break;
		case L_NODE:
			r = do_node(x, l);
			break;
		case L_DUMP: {
			struct dump *d = calloc(1, sizeof(*d));
			size_t j = i + 1;

			if (!d) {
				x->body.oom = 1;
				return;
			}
			comment(x, l, "");
			while (j < n && (ls[j].cls == L_BLANK || ls[j].cls == L_OTHER) &&
			       (ls[j].cls == L_BLANK || dump_line(d, ls[j].s))) {
				if (ls[j].cls != L_BLANK)
					comment(x, &ls[j], "");
				ls[j].done = 1;
				j++;
			}
			finish_dump(x, d, l);
			x->st->dumps++;
			x->st->known += j - i - 1;
			free(d);
			i = j - 1;
			break;
		}
		default:
			unparsed(x, l);
			break;
		}
		if (r)
			unparsed(x, l);
	}
}

int mbd_import(const struct mbd_import_src *srcs, size_t nsrc, enum mbd_import_conv conv,
	       char **out, size_t *out_len, struct mbd_import_stats *st, FILE *unp)
{
	struct line *ls = NULL;
	size_t n = 0, cap = 0;
	struct ictx x;
	struct obuf head = { 0 };
	struct mbd_config cfg;
	bool has[L_NODE + 1] = { false };
	int rc = -1;

	memset(st, 0, sizeof(*st));
	memset(&x, 0, sizeof(x));
	x.st = st;
	x.unparsed = unp;
	for (size_t f = 0; f < nsrc; f++) {
		const char *p = srcs[f].buf, *end = p + srcs[f].len;
		unsigned no = 0;

		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *e = nl ? nl : end;
			struct line *l;

			no++;
			if (n == cap) {
				struct line *nls = realloc(ls, (cap = cap ? cap * 2 : 256) * sizeof(*ls));

				if (!nls)
					goto out;
				ls = nls;
			}
			l = &ls[n];
			memset(l, 0, sizeof(*l));
			if (e > p && e[-1] == '\r')
				e--;
			l->raw = malloc((size_t)(e - p) + 1);
			if (!l->raw)
				goto out;
			n++;
			memcpy(l->raw, p, (size_t)(e - p));
			l->raw[e - p] = '\0';
			/* NULs inside a line would hide its tail: make them visible */
			for (char *q = l->raw; q < l->raw + (e - p); q++)
				if (!*q)
					*q = '?';
			l->src = srcs[f].name;
			l->no = no;
			l->s = payload(l->raw);
			l->cls = l->raw[0] == '#' ? L_HEADER : classify(l->s);
			has[l->cls] = true;
			if (l->cls != L_BLANK && l->cls != L_HEADER)
				st->lines++;
			p = nl ? nl + 1 : end;
		}
	}
	x.trace = has[L_OP] || has[L_ALLOC];
	/* A map stands in for memory only when no memblock_add was traced. */
	x.mem_src = added_memory(ls, n) ? 0 : has[L_E820] ? L_E820 : has[L_EFI] ? L_EFI : has[L_NODE] ? L_NODE : 0;
	st->conv_auto = conv == MBD_CONV_AUTO;
	x.conv = st->conv = conv == MBD_CONV_AUTO ? detect(ls, n) : conv;

	mbd_config_default(&cfg);
	if (has[L_DOUBLED])
		cfg.resize = true; /* the log shows the arrays growing */
	if (x.mem_src) {
		process(&x, ls, n, true);
		ob_printf(&x.body, "# end of the memory map%s\n",
			  x.mem_src == L_E820 ? " (e820__memblock_setup trims memory to whole pages)" : "");
		if (x.mem_src == L_E820) {
			ob_printf(&x.body, "memblock_trim_memory: 0x1000\n");
			x.ops++;
			st->ops++;
		}
	}
	process(&x, ls, n, false);
	flush_trim(&x);
	if (x.body.oom || x.pre.oom)
		goto out;

	ob_printf(&head, "# imported by mbdiff import from");
	for (size_t f = 0; f < nsrc; f++)
		ob_printf(&head, " %s", srcs[f].name);
	ob_printf(&head, "\n# range convention: %s (%s)\n",
		  st->conv == MBD_CONV_EXCLUSIVE ? "exclusive end" : "inclusive end",
		  st->conv_auto ? "detected" : "forced");
	ob_printf(&head, "# source: %s%s\n", x.trace ? "memblock=debug call trace, " : "",
		  x.trace && !x.mem_src ? "" :
		  x.mem_src == L_E820 ? "x86 e820 map (no memblock_add traced: memory calls synthesized)" :
		  x.mem_src == L_EFI ? "EFI memory map (no memblock_add traced: memory calls synthesized)" :
		  x.mem_src == L_NODE ? "Early memory node ranges (no memblock_add traced: memory calls synthesized)" :
		  x.trace ? " (no memory map)" : "no call trace and no memory map");
	for (size_t i = 0; i < n; i++) {
		if (ls[i].cls != L_HEADER)
			continue;
		for (char *q = ls[i].raw; *q; q++)
			if (!(((unsigned char)*q >= 0x20 && (unsigned char)*q <= 0x7e) || *q == '\t'))
				*q = '?';
		ob_printf(&head, "# | %.3000s\n", ls[i].raw + 1);
	}
	ob_printf(&head, "# lines %zu: %zu calls traced, %zu allocation requests (not replayed: "
		  "their reservations are), %zu map entries, %zu dumps, %zu checkpoints, "
		  "%zu other recognised, %zu not imported\n", st->lines, st->traced,
		  st->alloc_requests, st->map_entries, st->dumps, st->checkpoints, st->known,
		  st->unparsed);
	mbd_text_format_config(x.tmp, sizeof(x.tmp), &cfg);
	ob_printf(&head, "%s\n", x.tmp);
	ob_printf(&head, "%.*s", (int)x.pre.len, x.pre.p ? x.pre.p : "");
	ob_printf(&head, "%.*s", (int)x.body.len, x.body.p ? x.body.p : "");
	if (head.oom)
		goto out;
	*out = head.p;
	*out_len = head.len;
	head.p = NULL;
	rc = 0;
out:
	for (size_t i = 0; i < n; i++)
		free(ls[i].raw);
	free(ls);
	free(x.body.p);
	free(x.pre.p);
	free(head.p);
	return rc;
}
