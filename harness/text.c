// SPDX-License-Identifier: GPL-2.0
/*
 * The .mbt text form: parser and printer. One call per line, written the way
 * memblock=debug prints it (see docs/mbt-format.md). The parser is strict:
 * every line either parses completely or yields one diagnostic naming the
 * file, the line, what was found and what was expected.
 */
#include <stdarg.h>
#include <string.h>

#include "mbd_expect.h"
#include "mbd_text.h"

#define MAX_LINE 4096u          /* bytes per line, without the line end */
#define MAX_OPS 10000000u       /* ops per trace */
#define QUOTE_MAX 60            /* quoted input in messages is cut here */
#define RANGE_FORM "[0xSTART-0xEND] (inclusive) or base=0x... size=0x..."
#define CONFIG_KEYS "memory.max, reserved.max, resize, slab, bottom_up, mirror, movable, limit"

/* Parser state for the line being parsed. */
struct pctx {
	const char *p, *end;    /* rest of the line */
	const char *fname;
	unsigned line;
	const char *name;       /* op name, for "expected" forms */
	struct mbd_diag *d;
};

struct tok {
	const char *s;
	size_t n;
};

__attribute__((format(printf, 2, 3)))
static int fail(struct pctx *c, const char *fmt, ...)
{
	va_list ap;

	if (!c->d)
		return -1;
	snprintf(c->d->file, sizeof(c->d->file), "%s", c->fname);
	c->d->line = c->line;
	va_start(ap, fmt);
	vsnprintf(c->d->msg, sizeof(c->d->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* Arguments for a "%.*s%s" conversion quoting at most QUOTE_MAX bytes. */
#define QUOTE(t) (int)((t).n > QUOTE_MAX ? QUOTE_MAX : (t).n), (t).s, \
		 ((t).n > QUOTE_MAX ? "..." : "")

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* Next whitespace-separated token; n == 0 at the end of the line. */
static struct tok next_tok(struct pctx *c)
{
	struct tok t;

	while (c->p < c->end && is_blank(*c->p))
		c->p++;
	t.s = c->p;
	while (c->p < c->end && !is_blank(*c->p))
		c->p++;
	t.n = (size_t)(c->p - t.s);
	return t;
}

static bool tok_is(struct tok t, const char *s)
{
	return t.n == strlen(s) && memcmp(t.s, s, t.n) == 0;
}

/* If t starts with "key=", strip it and return true. */
static bool tok_key(struct tok *t, const char *key)
{
	size_t k = strlen(key);

	if (t->n <= k || memcmp(t->s, key, k) != 0 || t->s[k] != '=')
		return false;
	t->s += k + 1;
	t->n -= k + 1;
	return true;
}

enum { NUM_OK, NUM_EMPTY, NUM_BAD, NUM_OVERFLOW };

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/*
 * "0x" followed by hex digits, or decimal digits; hex_only also takes bare
 * hex digits (flags, which the kernel prints with %x).
 */
static int parse_u64(const char *s, size_t n, bool hex_only, uint64_t *out)
{
	bool hex = hex_only;
	uint64_t v = 0;

	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		hex = true;
		s += 2;
		n -= 2;
	}
	if (n == 0)
		return NUM_EMPTY;
	for (size_t i = 0; i < n; i++) {
		int dv = hex ? hexval(s[i]) : (s[i] >= '0' && s[i] <= '9' ? s[i] - '0' : -1);

		if (dv < 0)
			return NUM_BAD;
		if (hex ? v > (UINT64_MAX >> 4) : v > (UINT64_MAX - (uint64_t)dv) / 10)
			return NUM_OVERFLOW;
		v = hex ? (v << 4) | (uint64_t)dv : v * 10 + (uint64_t)dv;
	}
	*out = v;
	return NUM_OK;
}

/* Parse t as a number for the field called what, reporting any problem. */
static int num_field(struct pctx *c, const char *what, struct tok t,
		     bool hex_only, uint64_t *out)
{
	switch (parse_u64(t.s, t.n, hex_only, out)) {
	case NUM_OK:
		return 0;
	case NUM_EMPTY:
		return fail(c, "empty number for %s: expected %s", what,
			    hex_only ? "hex digits" : "0xHEX or decimal digits");
	case NUM_OVERFLOW:
		return fail(c, "number \"%.*s%s\" for %s does not fit in 64 bits",
			    QUOTE(t), what);
	default:
		if (t.s[0] == '-')
			return fail(c, "negative number \"%.*s%s\" for %s: expected an unsigned "
				    "0xHEX or decimal", QUOTE(t), what);
		return fail(c, "bad number \"%.*s%s\" for %s: expected %s",
			    QUOTE(t), what,
			    hex_only ? "hex digits (0x optional)" : "0xHEX or decimal");
	}
}

/* A node id: optional '-', then a number; NUMA_NO_NODE..MAX_NUMNODES. */
static int nid_field(struct pctx *c, struct tok t, int32_t *out)
{
	struct tok m = t;
	bool neg = false;
	uint64_t v;

	if (m.n && m.s[0] == '-') {
		neg = true;
		m.s++;
		m.n--;
	}
	if (!m.n)
		return fail(c, "empty number for nid: expected -1 (NUMA_NO_NODE) to %d (MAX_NUMNODES)",
			    MBD_MAX_NUMNODES);
	if (parse_u64(m.s, m.n, false, &v) == NUM_BAD)
		return fail(c, "bad nid \"%.*s%s\": expected a number from -1 (NUMA_NO_NODE) to %d "
			    "(MAX_NUMNODES)", QUOTE(t), MBD_MAX_NUMNODES);
	if (num_field(c, "nid", m, false, &v))
		return -1;
	if (neg ? v > 1 : v > MBD_MAX_NUMNODES)
		return fail(c, "nid=%.*s%s out of range: expected -1 (NUMA_NO_NODE) to %d (MAX_NUMNODES)",
			    QUOTE(t), MBD_MAX_NUMNODES);
	*out = neg ? -(int32_t)v : (int32_t)v;
	return 0;
}

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
	return fail(c, "missing %s: expected \"%s%s%s\"", what, c->name,
		    mbd_op_table[kind].shape == MBD_SHAPE_NONE ? "" : ":",
		    op_form(kind));
}

/* Next token must be "key=VALUE"; returns the VALUE part in *v. */
static int keyed(struct pctx *c, int kind, const char *key, const char *form,
		 struct tok *v)
{
	*v = next_tok(c);
	if (!v->n)
		return missing(c, kind, form);
	if (!tok_key(v, key))
		return fail(c, "expected %s, found \"%.*s%s\" (form: \"%s:%s\")", form,
			    QUOTE(*v), c->name, op_form(kind));
	return 0;
}

/* "[A-B]" (inclusive) or "base=X size=Y". */
static int parse_range(struct pctx *c, int kind, struct mbd_op *op)
{
	struct tok t = next_tok(c), a, b;
	const char *dash;
	uint64_t start = 0, end = 0;

	if (!t.n)
		return missing(c, kind, "range");
	if (tok_key(&t, "base")) {
		struct tok s;

		if (num_field(c, "base", t, false, &op->base))
			return -1;
		s = next_tok(c);
		if (!s.n)
			return fail(c, "missing size=0x... after base=%.*s%s", QUOTE(t));
		if (!tok_key(&s, "size"))
			return fail(c, "expected size=0x... after base=, found \"%.*s%s\"",
				    QUOTE(s));
		return num_field(c, "size", s, false, &op->size);
	}
	if (t.s[0] != '[')
		return fail(c, "bad range \"%.*s%s\": missing '['; expected " RANGE_FORM,
			    QUOTE(t));
	if (t.s[t.n - 1] != ']')
		return fail(c, "bad range \"%.*s%s\": missing ']'; expected " RANGE_FORM,
			    QUOTE(t));
	a.s = t.s + 1;
	dash = memchr(a.s, '-', t.n - 2);
	if (!dash)
		return fail(c, "bad range \"%.*s%s\": missing '-'; expected " RANGE_FORM,
			    QUOTE(t));
	a.n = (size_t)(dash - a.s);
	b.s = dash + 1;
	b.n = (size_t)(t.s + t.n - 1 - b.s);
	for (int i = 0; i < 2; i++) {
		struct tok num = i ? b : a;
		const char *which = i ? "end" : "start";

		switch (parse_u64(num.s, num.n, false, i ? &end : &start)) {
		case NUM_OK:
			break;
		case NUM_EMPTY:
			return fail(c, "bad range \"%.*s%s\": empty %s number; expected " RANGE_FORM,
				    QUOTE(t), which);
		case NUM_OVERFLOW:
			return fail(c, "bad range \"%.*s%s\": %s \"%.*s%s\" does not fit in 64 bits",
				    QUOTE(t), which, QUOTE(num));
		default:
			return fail(c, "bad range \"%.*s%s\": bad %s number \"%.*s%s\"; expected "
				    RANGE_FORM, QUOTE(t), which, QUOTE(num));
		}
	}
	/* end = start - 1 is how the kernel prints a zero-size call. */
	if (end < start && end != start - 1)
		return fail(c, "bad range \"%.*s%s\": end before start (a range wrapping past "
			    "2^64 is written base=0x... size=0x...)", QUOTE(t));
	op->base = start;
	op->size = end - start + 1;
	return 0;
}

/* "N bytes align=0xA": the size and alignment of both alloc ops. */
static int parse_alloc_head(struct pctx *c, int kind, struct mbd_op *op)
{
	struct tok t = next_tok(c);

	if (!t.n)
		return missing(c, kind, "size");
	if (num_field(c, "size", t, false, &op->size))
		return -1;
	t = next_tok(c);
	if (!tok_is(t, "bytes"))
		return fail(c, "expected \"bytes\" after the size, found \"%.*s%s\" (form: \"%s:%s\")",
			    QUOTE(t), c->name, op_form(kind));
	if (keyed(c, kind, "align", "align=0xA", &t))
		return -1;
	return num_field(c, "align", t, false, &op->align);
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
		    nid_field(c, t, &op->nid) ||
		    keyed(c, kind, "flags", "flags=0xF", &t) ||
		    num_field(c, "flags", t, true, &v))
			return -1;
		if (v & ~(uint64_t)0x1f)
			return fail(c, "flags=%.*s%s has unknown bits: expected a subset of 0x1f "
				    "(hotplug 0x1, mirror 0x2, nomap 0x4, driver_managed 0x8, rsrv_noinit 0x10)",
				    QUOTE(t));
		op->flags = (uint32_t)v;
		return 0;
	case MBD_SHAPE_SET_NODE:
		if (parse_range(c, kind, op) || keyed(c, kind, "type", "type=memory|reserved", &t))
			return -1;
		if (tok_is(t, "memory"))
			op->type = MBD_TYPE_MEMORY;
		else if (tok_is(t, "reserved"))
			op->type = MBD_TYPE_RESERVED;
		else
			return fail(c, "bad type=%.*s%s: expected type=memory or type=reserved",
				    QUOTE(t));
		if (keyed(c, kind, "nid", "nid=N", &t))
			return -1;
		return nid_field(c, t, &op->nid);
	case MBD_SHAPE_ALLOC_RANGE:
		if (parse_alloc_head(c, kind, op) ||
		    keyed(c, kind, "from", "from=0xSTART", &t) ||
		    num_field(c, "from", t, false, &op->start) ||
		    keyed(c, kind, "max_addr", "max_addr=0xEND", &t))
			return -1;
		return num_field(c, "max_addr", t, false, &op->end);
	case MBD_SHAPE_ALLOC_NID:
		if (parse_alloc_head(c, kind, op) || keyed(c, kind, "nid", "nid=N", &t))
			return -1;
		return nid_field(c, t, &op->nid);
	case MBD_SHAPE_VALUE:
		t = next_tok(c);
		if (!t.n)
			return missing(c, kind, "value");
		if (num_field(c, "the value", t, false, &op->value))
			return -1;
		if (kind == MBD_OP_SET_BOTTOM_UP && op->value > 1)
			return fail(c, "bad value \"%.*s%s\": expected 0 or 1", QUOTE(t));
		return 0;
	case MBD_SHAPE_NONE:
		return 0;
	}
	return fail(c, "internal error: op without a shape");
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
		for (i += 3; i < t.n && hexval(t.s[i]) >= 0; i++)
			digits++;
		if (!digits)
			return false;
	}
	return i == t.n;
}

/* After the operands: at most one caller symbol, then nothing. */
static int parse_tail(struct pctx *c, int kind)
{
	struct tok t = next_tok(c);

	if (t.n && is_caller(t))
		t = next_tok(c);
	if (t.n && t.s[0] == '#')
		return fail(c, "unexpected text \"%.*s%s\": a comment must be on a line of its own",
			    QUOTE(t));
	if (t.n)
		return fail(c, "unexpected text \"%.*s%s\": expected \"%s%s%s\" and optionally "
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

	while ((t = next_tok(c)).n) {
		const char *eq = memchr(t.s, '=', t.n);
		struct tok key, val;
		unsigned k;
		uint64_t v;

		if (!eq)
			return fail(c, "bad config item \"%.*s%s\": expected KEY=VALUE with KEY one of "
				    CONFIG_KEYS, QUOTE(t));
		key.s = t.s;
		key.n = (size_t)(eq - t.s);
		val.s = eq + 1;
		val.n = t.n - key.n - 1;
		for (k = 0; k < KEY__COUNT; k++)
			if (tok_is(key, config_keys[k]))
				break;
		if (k == KEY__COUNT)
			return fail(c, "unknown config key \"%.*s%s\": valid keys are " CONFIG_KEYS,
				    QUOTE(key));
		if (seen & (1u << k))
			return fail(c, "duplicate config key \"%s\"", config_keys[k]);
		seen |= 1u << k;
		if (num_field(c, config_keys[k], val, false, &v))
			return -1;
		if ((k == KEY_MEMORY_MAX || k == KEY_RESERVED_MAX) && (v < 1 || v > MBD_INIT_REGIONS))
			return fail(c, "%s=%.*s%s out of range: expected 1..%d", config_keys[k],
				    QUOTE(val), MBD_INIT_REGIONS);
		if (k != KEY_MEMORY_MAX && k != KEY_RESERVED_MAX && k != KEY_LIMIT && v > 1)
			return fail(c, "%s=%.*s%s: expected 0 or 1", config_keys[k], QUOTE(val));
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
	struct tok ty = next_tok(c), k;
	struct mbd_expect e;
	uint64_t v;

	memset(&e, 0, sizeof(e));
	e.line = c->line;
	e.after_op = t->n_ops;
	if (!t->n_ops)
		return fail(c, "expect before the first op: a checkpoint follows the op it checks");
	if (tok_is(ty, "memory"))
		e.type = MBD_TYPE_MEMORY;
	else if (tok_is(ty, "reserved"))
		e.type = MBD_TYPE_RESERVED;
	else
		return fail(c, "bad expect type \"%.*s%s\": expected " EXPECT_FORM, QUOTE(ty));
	c->name = "expect";
	if (c->p < c->end) {
		const char *q = c->p;

		while (q < c->end && is_blank(*q))
			q++;
		if (q < c->end && (*q == '[' || (c->end - q > 5 && memcmp(q, "base=", 5) == 0))) {
			struct mbd_op op;

			memset(&op, 0, sizeof(op));
			if (!x->have_head[e.type] || x->head_at[e.type] != t->n_ops)
				return fail(c, "expect region without a preceding \"expect %s cnt=...\" line "
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
	while ((k = next_tok(c)).n) {
		if (e.what == MBD_EXPECT_REGION && tok_key(&k, "flags")) {
			if (num_field(c, "flags", k, true, &v))
				return -1;
			if (v > UINT32_MAX)
				return fail(c, "flags out of range");
			e.flags = (uint32_t)v;
			e.have |= MBD_EXPECT_HAS_FLAGS;
		} else if (e.what == MBD_EXPECT_REGION && tok_key(&k, "nid")) {
			if (nid_field(c, k, &e.nid))
				return -1;
			e.have |= MBD_EXPECT_HAS_NID;
		} else if (e.what == MBD_EXPECT_HEAD && tok_key(&k, "cnt")) {
			if (num_field(c, "cnt", k, false, &e.cnt))
				return -1;
			e.have |= MBD_EXPECT_HAS_CNT;
		} else if (e.what == MBD_EXPECT_HEAD && tok_key(&k, "total")) {
			if (num_field(c, "total", k, false, &e.total))
				return -1;
			e.have |= MBD_EXPECT_HAS_TOTAL;
		} else if (e.what == MBD_EXPECT_HEAD && tok_key(&k, "max")) {
			if (num_field(c, "max", k, false, &e.max))
				return -1;
			e.have |= MBD_EXPECT_HAS_MAX;
		} else {
			return fail(c, "unexpected text \"%.*s%s\" in expect: expected " EXPECT_FORM,
				    QUOTE(k));
		}
	}
	if (e.what == MBD_EXPECT_HEAD) {
		if (!e.have)
			return fail(c, "empty expect: expected " EXPECT_FORM);
		x->have_head[e.type] = true;
		x->head_at[e.type] = t->n_ops;
		x->next_index[e.type] = 0;
	}
	if (mbd_trace_push_expect(t, &e))
		return fail(c, "out of memory");
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

	while (s + n < c->end && !is_blank(s[n]) && s[n] != ':')
		n++;
	c->p = s + n;
	if (n == 6 && memcmp(s, "expect", 6) == 0)
		return parse_expect(c, t, x);
	if (n == 6 && memcmp(s, "config", 6) == 0) {
		if (c->p < c->end && *c->p == ':')
			return fail(c, "unexpected ':' after config: expected \"config KEY=VALUE ...\"");
		if (*config_line)
			return fail(c, "second config line (the first is on line %u): "
				    "at most one config line per trace", *config_line);
		if (t->n_ops)
			return fail(c, "config after ops (the first op is on line %u): "
				    "the config line must come before the first op", t->lines[0]);
		*config_line = c->line;
		return parse_config(c, &t->cfg);
	}
	kind = mbd_op_lookup(s, n);
	if (kind < 0) {
		struct tok name = { s, n ? n : (size_t)(c->end - s) };

		return fail(c, "unknown op \"%.*s%s\": expected \"config\" or a memblock call "
			    "such as memblock_add or memblock_reserve (see docs/mbt-format.md)",
			    QUOTE(name));
	}
	c->name = mbd_op_table[kind].name;
	if (c->p < c->end && *c->p == ':')
		c->p++;
	else if (mbd_op_table[kind].shape != MBD_SHAPE_NONE)
		return fail(c, "missing ':' after %s: expected \"%s:%s\"", c->name, c->name,
			    op_form(kind));
	memset(&op, 0, sizeof(op));
	op.kind = (uint32_t)kind;
	if (parse_operands(c, kind, &op) || parse_tail(c, kind))
		return -1;
	if (t->n_ops >= MAX_OPS)
		return fail(c, "too many ops: at most %u per trace", MAX_OPS);
	mbd_op_normalize(&op);
	if (mbd_trace_push(t, &op, c->line))
		return fail(c, "out of memory");
	return 0;
}

/* Reject binary bytes and overlong lines in the line [s, e). */
static int check_line(struct pctx *c, const char *s, const char *e)
{
	for (const char *q = s; q < e; q++) {
		unsigned char ch = (unsigned char)*q;

		if ((ch < 0x20 && ch != '\t') || ch > 0x7e)
			return fail(c, "binary data in text trace (byte 0x%02x at column %zu): "
				    "expected printable ASCII text", ch, (size_t)(q - s) + 1);
	}
	if ((size_t)(e - s) > MAX_LINE)
		return fail(c, "line too long (%zu bytes): at most %u bytes per line",
			    (size_t)(e - s), MAX_LINE);
	return 0;
}

int mbd_text_parse(const char *buf, size_t len, const char *fname,
		   struct mbd_trace *t, struct mbd_diag *d)
{
	const char *p = buf, *end = buf + len;
	unsigned config_line = 0;
	struct expctx x;
	struct pctx c;

	memset(&x, 0, sizeof(x));
	memset(&c, 0, sizeof(c));
	c.fname = fname ? fname : "<input>";
	c.d = d;
	if (d)
		memset(d, 0, sizeof(*d));
	mbd_trace_clear(t);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;

		if (c.line == UINT32_MAX) {
			fail(&c, "too many lines");
			goto err;
		}
		c.line++;
		if (e > p && e[-1] == '\r')
			e--;    /* CRLF line end */
		if (check_line(&c, p, e))
			goto err;
		while (p < e && is_blank(*p))
			p++;
		while (e > p && is_blank(e[-1]))
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

void mbd_diag_print(FILE *out, const struct mbd_diag *d)
{
	if (d->line)
		fprintf(out, "%s:%u: error: %s\n", d->file, d->line, d->msg);
	else
		fprintf(out, "%s: error: %s\n", d->file, d->msg);
}

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
