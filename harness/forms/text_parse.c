// SPDX-License-Identifier: GPL-2.0
/*
 * The .mbt text form: the parser (text_format.c prints, text_lex.c has its
 * tokens and numbers). One call per line, written the way
 * memblock=debug prints it (see docs/mbt-format.md). The parser is strict:
 * every line either parses completely or yields one diagnostic naming the
 * file, the line, what was found and what was expected.
 */
#include <stdarg.h>
#include <string.h>

#include "mbd_expect.h"
#include "mbd_text.h"
#include "text_lex.h"

#define MAX_LINE 4096u          /* bytes per line, without the line end */
#define RANGE_FORM "[0xSTART-0xEND] (inclusive) or base=0x... size=0x..."
#define CONFIG_KEYS "memory.max, reserved.max, resize, slab, bottom_up, mirror, movable, limit"

/* The "expected" form of the current op, for messages. */
static const char *op_form(int kind)
{
	switch (kind) {
	case MBD_OP_SET_LIMIT:
		return " 0xLIMIT";
	case MBD_OP_SET_BOTTOM_UP:
		return " 0|1";
	case MBD_OP_TRIM:
		return " 0xALIGN";
	}
	switch (mbd_op_table[kind].shape) {
	case MBD_SHAPE_RANGE:
		return " [0xSTART-0xEND]";
	case MBD_SHAPE_RANGE_NODE:
		return " [0xSTART-0xEND] nid=N flags=0xF";
	case MBD_SHAPE_RANGE_NID:
		return " [0xSTART-0xEND] [nid=N]";
	case MBD_SHAPE_SET_NODE:
		return " [0xSTART-0xEND] type=memory|reserved nid=N";
	case MBD_SHAPE_ALLOC_RANGE:
		return " N bytes align=0xA from=0xSTART max_addr=0xEND";
	case MBD_SHAPE_ALLOC_NID:
		return " N bytes align=0xA nid=N";
	default:
		return "";
	}
}

static int missing(struct pctx *c, int kind, const char *what)
{
	return mbd_tx_fail(c, "missing %s: expected \"%s%s%s\"", what, c->name,
		    mbd_op_table[kind].shape == MBD_SHAPE_NONE ? "" : ":",
		    op_form(kind));
}

/* Next token must be "key=VALUE"; returns the VALUE part in *v. */
static int keyed(struct pctx *c, int kind, const char *key, const char *form,
		 struct tok *v)
{
	*v = mbd_tx_next(c);
	if (!v->n)
		return missing(c, kind, form);
	if (!mbd_tx_key(v, key))
		return mbd_tx_fail(c, "expected %s, found \"%.*s%s\" (form: \"%s:%s\")", form,
			    QUOTE(*v), c->name, op_form(kind));
	return 0;
}

/* "[A-B]" (inclusive) or "base=X size=Y". */
static int parse_range(struct pctx *c, int kind, struct mbd_op *op)
{
	struct tok t = mbd_tx_next(c), a, b;
	const char *dash;
	uint64_t start = 0, end = 0;

	if (!t.n)
		return missing(c, kind, "range");
	if (mbd_tx_key(&t, "base")) {
		struct tok s;

		if (mbd_tx_num(c, "base", t, false, &op->base))
			return -1;
		s = mbd_tx_next(c);
		if (!s.n)
			return mbd_tx_fail(c, "missing size=0x... after base=%.*s%s", QUOTE(t));
		if (!mbd_tx_key(&s, "size"))
			return mbd_tx_fail(c, "expected size=0x... after base=, found \"%.*s%s\"",
				    QUOTE(s));
		return mbd_tx_num(c, "size", s, false, &op->size);
	}
	if (t.s[0] != '[')
		return mbd_tx_fail(c, "bad range \"%.*s%s\": missing '['; expected " RANGE_FORM,
			    QUOTE(t));
	if (t.s[t.n - 1] != ']')
		return mbd_tx_fail(c, "bad range \"%.*s%s\": missing ']'; expected " RANGE_FORM,
			    QUOTE(t));
	a.s = t.s + 1;
	dash = memchr(a.s, '-', t.n - 2);
	if (!dash)
		return mbd_tx_fail(c, "bad range \"%.*s%s\": missing '-'; expected " RANGE_FORM,
			    QUOTE(t));
	a.n = (size_t)(dash - a.s);
	b.s = dash + 1;
	b.n = (size_t)(t.s + t.n - 1 - b.s);
	for (int i = 0; i < 2; i++) {
		struct tok num = i ? b : a;
		const char *which = i ? "end" : "start";

		switch (mbd_tx_u64(num.s, num.n, false, i ? &end : &start)) {
		case NUM_OK:
			break;
		case NUM_EMPTY:
			return mbd_tx_fail(c, "bad range \"%.*s%s\": empty %s number; expected " RANGE_FORM,
				    QUOTE(t), which);
		case NUM_OVERFLOW:
			return mbd_tx_fail(c, "bad range \"%.*s%s\": %s \"%.*s%s\" does not fit in 64 bits",
				    QUOTE(t), which, QUOTE(num));
		default:
			return mbd_tx_fail(c, "bad range \"%.*s%s\": bad %s number \"%.*s%s\"; expected "
				    RANGE_FORM, QUOTE(t), which, QUOTE(num));
		}
	}
	/* end = start - 1 is how the kernel prints a zero-size call. */
	if (end < start && end != start - 1)
		return mbd_tx_fail(c, "bad range \"%.*s%s\": end before start (a range wrapping past "
			    "2^64 is written base=0x... size=0x...)", QUOTE(t));
	op->base = start;
	op->size = end - start + 1;
	return 0;
}

/* "N bytes align=0xA": the size and alignment of both alloc ops. */
static int parse_alloc_head(struct pctx *c, int kind, struct mbd_op *op)
{
	struct tok t = mbd_tx_next(c);

	if (!t.n)
		return missing(c, kind, "size");
	if (mbd_tx_num(c, "size", t, false, &op->size))
		return -1;
	t = mbd_tx_next(c);
	if (!mbd_tx_is(t, "bytes"))
		return mbd_tx_fail(c, "expected \"bytes\" after the size, found \"%.*s%s\" (form: \"%s:%s\")",
			    QUOTE(t), c->name, op_form(kind));
	if (keyed(c, kind, "align", "align=0xA", &t))
		return -1;
	return mbd_tx_num(c, "align", t, false, &op->align);
}

/* An optional "nid=N" next; without it NUMA_NO_NODE. */
static int optional_nid(struct pctx *c, struct mbd_op *op)
{
	const char *at = c->p;
	struct tok t = mbd_tx_next(c);

	op->nid = MBD_NUMA_NO_NODE;
	if (t.n && mbd_tx_key(&t, "nid"))
		return mbd_tx_nid(c, t, &op->nid);
	c->p = at;      /* not ours: the caller or trailing text */
	return 0;
}

static int parse_operands(struct pctx *c, int kind, struct mbd_op *op)
{
	struct tok t;
	uint64_t v;

	switch (mbd_op_table[kind].shape) {
	case MBD_SHAPE_RANGE:
		return parse_range(c, kind, op);
	case MBD_SHAPE_RANGE_NODE:
		if (parse_range(c, kind, op) || keyed(c, kind, "nid", "nid=N", &t) ||
		    mbd_tx_nid(c, t, &op->nid) ||
		    keyed(c, kind, "flags", "flags=0xF", &t) ||
		    mbd_tx_num(c, "flags", t, true, &v))
			return -1;
		if (v & ~(uint64_t)0x1f)
			return mbd_tx_fail(c, "flags=%.*s%s has unknown bits: expected a subset of 0x1f "
				    "(hotplug 0x1, mirror 0x2, nomap 0x4, driver_managed 0x8, rsrv_noinit 0x10)",
				    QUOTE(t));
		op->flags = (uint32_t)v;
		return 0;
	case MBD_SHAPE_RANGE_NID:
		return parse_range(c, kind, op) || optional_nid(c, op) ? -1 : 0;
	case MBD_SHAPE_SET_NODE:
		if (parse_range(c, kind, op) || keyed(c, kind, "type", "type=memory|reserved", &t))
			return -1;
		if (mbd_tx_is(t, "memory"))
			op->type = MBD_TYPE_MEMORY;
		else if (mbd_tx_is(t, "reserved"))
			op->type = MBD_TYPE_RESERVED;
		else
			return mbd_tx_fail(c, "bad type=%.*s%s: expected type=memory or type=reserved",
				    QUOTE(t));
		if (keyed(c, kind, "nid", "nid=N", &t))
			return -1;
		return mbd_tx_nid(c, t, &op->nid);
	case MBD_SHAPE_ALLOC_RANGE:
		if (parse_alloc_head(c, kind, op) ||
		    keyed(c, kind, "from", "from=0xSTART", &t) ||
		    mbd_tx_num(c, "from", t, false, &op->start) ||
		    keyed(c, kind, "max_addr", "max_addr=0xEND", &t))
			return -1;
		return mbd_tx_num(c, "max_addr", t, false, &op->end);
	case MBD_SHAPE_ALLOC_NID:
		if (parse_alloc_head(c, kind, op) || keyed(c, kind, "nid", "nid=N", &t))
			return -1;
		return mbd_tx_nid(c, t, &op->nid);
	case MBD_SHAPE_VALUE:
		t = mbd_tx_next(c);
		if (!t.n)
			return missing(c, kind, "value");
		if (mbd_tx_num(c, "the value", t, false, &op->value))
			return -1;
		if (kind == MBD_OP_SET_BOTTOM_UP && op->value > 1)
			return mbd_tx_fail(c, "bad value \"%.*s%s\": expected 0 or 1", QUOTE(t));
		return 0;
	case MBD_SHAPE_NONE:
		return 0;
	}
	return mbd_tx_fail(c, "internal error: op without a shape");
}

/* ident+0xHEX/0xHEX, as %pS prints a caller. */
static bool is_caller(struct tok t)
{
	size_t i = 0;

	if (!t.n || !(t.s[0] == '_' || t.s[0] == '.' ||
		      (t.s[0] >= 'A' && t.s[0] <= 'Z') || (t.s[0] >= 'a' && t.s[0] <= 'z')))
		return false;
	while (i < t.n && t.s[i] != '+') {
		char ch = t.s[i];

		if (!(ch == '_' || ch == '.' || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')))
			return false;
		i++;
	}
	for (int part = 0; part < 2; part++) {
		size_t digits = 0;

		/* '+' before the offset, '/' before the length. */
		if (i + 3 > t.n || t.s[i] != (part ? '/' : '+') || t.s[i + 1] != '0' ||
		    t.s[i + 2] != 'x')
			return false;
		for (i += 3; i < t.n && mbd_tx_hexval(t.s[i]) >= 0; i++)
			digits++;
		if (!digits)
			return false;
	}
	return i == t.n;
}

/* After the operands: at most one caller symbol, then nothing. */
static int parse_tail(struct pctx *c, int kind)
{
	struct tok t = mbd_tx_next(c);

	if (t.n && is_caller(t))
		t = mbd_tx_next(c);
	if (t.n && t.s[0] == '#')
		return mbd_tx_fail(c, "unexpected text \"%.*s%s\": a comment must be on a line of its own",
			    QUOTE(t));
	if (t.n)
		return mbd_tx_fail(c, "unexpected text \"%.*s%s\": expected \"%s%s%s\" and optionally "
			    "a caller like setup_arch+0x1c8/0x5b0", QUOTE(t), c->name,
			    mbd_op_table[kind].shape == MBD_SHAPE_NONE ? "" : ":",
			    op_form(kind));
	return 0;
}

enum { KEY_MEMORY_MAX, KEY_RESERVED_MAX, KEY_RESIZE, KEY_SLAB, KEY_BOTTOM_UP,
       KEY_MIRROR, KEY_MOVABLE, KEY_LIMIT, KEY__COUNT };

static const char *const config_keys[KEY__COUNT] = {
	"memory.max", "reserved.max", "resize", "slab", "bottom_up", "mirror",
	"movable", "limit",
};

static int parse_config(struct pctx *c, struct mbd_config *cfg)
{
	unsigned seen = 0;
	struct tok t;

	while ((t = mbd_tx_next(c)).n) {
		const char *eq = memchr(t.s, '=', t.n);
		struct tok key, val;
		unsigned k;
		uint64_t v;

		if (!eq)
			return mbd_tx_fail(c, "bad config item \"%.*s%s\": expected KEY=VALUE with KEY one of "
				    CONFIG_KEYS, QUOTE(t));
		key.s = t.s;
		key.n = (size_t)(eq - t.s);
		val.s = eq + 1;
		val.n = t.n - key.n - 1;
		for (k = 0; k < KEY__COUNT; k++)
			if (mbd_tx_is(key, config_keys[k]))
				break;
		if (k == KEY__COUNT)
			return mbd_tx_fail(c, "unknown config key \"%.*s%s\": valid keys are " CONFIG_KEYS,
				    QUOTE(key));
		if (seen & (1u << k))
			return mbd_tx_fail(c, "duplicate config key \"%s\"", config_keys[k]);
		seen |= 1u << k;
		if (mbd_tx_num(c, config_keys[k], val, false, &v))
			return -1;
		if ((k == KEY_MEMORY_MAX || k == KEY_RESERVED_MAX) &&
		    (v < 1 || v > MBD_MAX_BOOT_REGIONS))
			return mbd_tx_fail(c, "%s=%.*s%s out of range: expected 1..%d", config_keys[k],
				    QUOTE(val), MBD_MAX_BOOT_REGIONS);
		if (k != KEY_MEMORY_MAX && k != KEY_RESERVED_MAX && k != KEY_LIMIT && v > 1)
			return mbd_tx_fail(c, "%s=%.*s%s: expected 0 or 1", config_keys[k], QUOTE(val));
		switch (k) {
		case KEY_MEMORY_MAX: cfg->memory_max = (uint32_t)v; break;
		case KEY_RESERVED_MAX: cfg->reserved_max = (uint32_t)v; break;
		case KEY_RESIZE: cfg->resize = v != 0; break;
		case KEY_SLAB: cfg->slab = v != 0; break;
		case KEY_BOTTOM_UP: cfg->bottom_up = v != 0; break;
		case KEY_MIRROR: cfg->mirror = v != 0; break;
		case KEY_MOVABLE: cfg->movable = v != 0; break;
		default: cfg->limit = v; break;
		}
	}
	return 0;
}

/* Which `expect` region line comes next, per type. */
struct expctx {
	bool have_head[2];     /* a head line of that type at this position */
	size_t head_at[2];     /* its after_op */
	uint32_t next_index[2];
};

#define EXPECT_FORM "\"expect memory|reserved [cnt=N] [total=0xT] [max=N]\" or " \
	"\"expect memory|reserved [0xSTART-0xEND] [flags=0xF] [nid=N]\""

/* expect TYPE KEY=V...  or  expect TYPE RANGE [flags=F] [nid=N]. */
static int parse_expect(struct pctx *c, struct mbd_trace *t, struct expctx *x)
{
	struct tok ty = mbd_tx_next(c), k;
	struct mbd_expect e;
	uint64_t v;

	memset(&e, 0, sizeof(e));
	e.line = c->line;
	e.after_op = t->n_ops;
	if (!t->n_ops)
		return mbd_tx_fail(c, "expect before the first op: a checkpoint follows the op it checks");
	if (mbd_tx_is(ty, "memory"))
		e.type = MBD_TYPE_MEMORY;
	else if (mbd_tx_is(ty, "reserved"))
		e.type = MBD_TYPE_RESERVED;
	else
		return mbd_tx_fail(c, "bad expect type \"%.*s%s\": expected " EXPECT_FORM, QUOTE(ty));
	c->name = "expect";
	if (c->p < c->end) {
		const char *q = c->p;

		while (q < c->end && mbd_tx_blank(*q))
			q++;
		if (q < c->end && (*q == '[' || (c->end - q > 5 && memcmp(q, "base=", 5) == 0))) {
			struct mbd_op op;

			memset(&op, 0, sizeof(op));
			if (!x->have_head[e.type] || x->head_at[e.type] != t->n_ops)
				return mbd_tx_fail(c, "expect region without a preceding \"expect %s cnt=...\" line "
					    "after the same op", e.type ? "reserved" : "memory");
			if (parse_range(c, MBD_OP_ADD, &op))
				return -1;
			e.what = MBD_EXPECT_REGION;
			e.base = op.base;
			e.size = op.size;
			e.index = x->next_index[e.type]++;
		} else {
			e.what = MBD_EXPECT_HEAD;
		}
	}
	while ((k = mbd_tx_next(c)).n) {
		if (e.what == MBD_EXPECT_REGION && mbd_tx_key(&k, "flags")) {
			if (mbd_tx_num(c, "flags", k, true, &v))
				return -1;
			if (v > UINT32_MAX)
				return mbd_tx_fail(c, "flags out of range");
			e.flags = (uint32_t)v;
			e.have |= MBD_EXPECT_HAS_FLAGS;
		} else if (e.what == MBD_EXPECT_REGION && mbd_tx_key(&k, "nid")) {
			if (mbd_tx_nid(c, k, &e.nid))
				return -1;
			e.have |= MBD_EXPECT_HAS_NID;
		} else if (e.what == MBD_EXPECT_HEAD && mbd_tx_key(&k, "cnt")) {
			if (mbd_tx_num(c, "cnt", k, false, &e.cnt))
				return -1;
			e.have |= MBD_EXPECT_HAS_CNT;
		} else if (e.what == MBD_EXPECT_HEAD && mbd_tx_key(&k, "total")) {
			if (mbd_tx_num(c, "total", k, false, &e.total))
				return -1;
			e.have |= MBD_EXPECT_HAS_TOTAL;
		} else if (e.what == MBD_EXPECT_HEAD && mbd_tx_key(&k, "max")) {
			if (mbd_tx_num(c, "max", k, false, &e.max))
				return -1;
			e.have |= MBD_EXPECT_HAS_MAX;
		} else {
			return mbd_tx_fail(c, "unexpected text \"%.*s%s\" in expect: expected " EXPECT_FORM,
				    QUOTE(k));
		}
	}
	if (e.what == MBD_EXPECT_HEAD) {
		if (!e.have)
			return mbd_tx_fail(c, "empty expect: expected " EXPECT_FORM);
		x->have_head[e.type] = true;
		x->head_at[e.type] = t->n_ops;
		x->next_index[e.type] = 0;
	}
	if (c->drop_expects)
		return 0;
	if (mbd_trace_push_expect(t, &e))
		return mbd_tx_fail(c, "out of memory");
	return 0;
}

/* One significant line (already trimmed and checked for binary bytes). */
static int parse_line(struct pctx *c, struct mbd_trace *t, unsigned *config_line,
		      struct expctx *x)
{
	const char *s = c->p;
	struct mbd_op op;
	size_t n = 0;
	int kind;

	while (s + n < c->end && !mbd_tx_blank(s[n]) && s[n] != ':')
		n++;
	c->p = s + n;
	if (n == 6 && memcmp(s, "expect", 6) == 0)
		return parse_expect(c, t, x);
	if (n == 6 && memcmp(s, "config", 6) == 0) {
		if (c->p < c->end && *c->p == ':')
			return mbd_tx_fail(c, "unexpected ':' after config: expected \"config KEY=VALUE ...\"");
		if (*config_line)
			return mbd_tx_fail(c, "second config line (the first is on line %u): "
				    "at most one config line per trace", *config_line);
		if (t->n_ops)
			return mbd_tx_fail(c, "config after ops (the first op is on line %u): "
				    "the config line must come before the first op", t->lines[0]);
		*config_line = c->line;
		return parse_config(c, &t->cfg);
	}
	kind = mbd_op_lookup(s, n);
	if (kind < 0) {
		struct tok name = { s, n ? n : (size_t)(c->end - s) };

		return mbd_tx_fail(c, "unknown op \"%.*s%s\": expected \"config\" or a memblock call "
			    "such as memblock_add or memblock_reserve (see docs/mbt-format.md)",
			    QUOTE(name));
	}
	c->name = mbd_op_table[kind].name;
	if (c->p < c->end && *c->p == ':')
		c->p++;
	else if (mbd_op_table[kind].shape != MBD_SHAPE_NONE)
		return mbd_tx_fail(c, "missing ':' after %s: expected \"%s:%s\"", c->name, c->name,
			    op_form(kind));
	memset(&op, 0, sizeof(op));
	op.kind = (uint32_t)kind;
	if (parse_operands(c, kind, &op) || parse_tail(c, kind))
		return -1;
	if (t->n_ops >= MBD_TEXT_MAX_OPS)
		return mbd_tx_fail(c, "too many ops: at most %u per trace", MBD_TEXT_MAX_OPS);
	mbd_op_normalize(&op);
	if (mbd_trace_push(t, &op, c->line))
		return mbd_tx_fail(c, "out of memory");
	return 0;
}

/* Reject binary bytes and overlong lines in the line [s, e). */
static int check_line(struct pctx *c, const char *s, const char *e)
{
	for (const char *q = s; q < e; q++) {
		unsigned char ch = (unsigned char)*q;

		if ((ch < 0x20 && ch != '\t') || ch > 0x7e)
			return mbd_tx_fail(c, "binary data in text trace (byte 0x%02x at column %zu): "
				    "expected printable ASCII text", ch, (size_t)(q - s) + 1);
	}
	if ((size_t)(e - s) > MAX_LINE)
		return mbd_tx_fail(c, "line too long (%zu bytes): at most %u bytes per line",
			    (size_t)(e - s), MAX_LINE);
	return 0;
}

/* max_ops: stop reading after that many ops (0: MBD_TEXT_MAX_OPS, then an error). */
static int parse(const char *buf, size_t len, const char *fname, struct mbd_trace *t,
		 struct mbd_diag *d, size_t max_ops, bool drop_expects)
{
	const char *p = buf, *end = buf + len;
	unsigned config_line = 0;
	struct expctx x;
	struct pctx c;

	memset(&x, 0, sizeof(x));
	memset(&c, 0, sizeof(c));
	c.fname = fname ? fname : "<input>";
	c.d = d;
	c.drop_expects = drop_expects;
	if (d)
		memset(d, 0, sizeof(*d));
	mbd_trace_clear(t);
	while (p < end && !(max_ops && t->n_ops >= max_ops)) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;

		if (c.line == UINT32_MAX) {
			mbd_tx_fail(&c, "too many lines");
			goto err;
		}
		c.line++;
		if (nl && e > p && e[-1] == '\r')
			e--;    /* CRLF line end (a lone CR at the end is an error) */
		if (check_line(&c, p, e))
			goto err;
		while (p < e && mbd_tx_blank(*p))
			p++;
		while (e > p && mbd_tx_blank(e[-1]))
			e--;
		c.p = p;
		c.end = e;
		if (p < e && *p != '#' && parse_line(&c, t, &config_line, &x))
			goto err;
		p = nl ? nl + 1 : end;
	}
	return 0;
err:
	mbd_trace_clear(t);
	return -1;
}

int mbd_text_parse(const char *buf, size_t len, const char *fname,
		   struct mbd_trace *t, struct mbd_diag *d)
{
	return parse(buf, len, fname, t, d, 0, false);
}

int mbd_text_parse_fuzz(const char *buf, size_t len, const char *fname,
			struct mbd_trace *t, struct mbd_diag *d)
{
	return parse(buf, len, fname, t, d, MBD_FUZZ_MAX_OPS, true);
}

void mbd_diag_print(FILE *out, const struct mbd_diag *d)
{
	if (d->line)
		fprintf(out, "%s:%u: error: %s\n", d->file, d->line, d->msg);
	else
		fprintf(out, "%s: error: %s\n", d->file, d->msg);
}
