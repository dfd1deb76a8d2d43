// SPDX-License-Identifier: GPL-2.0
/*
 * Alphabet files (docs/explore.md): an address lattice, the calls made of
 * it, and the boot configurations to start from. Every generated call and
 * config goes through the .mbt parser, so the alphabet accepts exactly
 * what a trace does and its errors point at the alphabet's own line.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore_int.h"
#include "mbd_input.h"

#define MAX_POINTS 64
#define MAX_VALUES 16
#define MAX_OPS 65000u

struct xop {
	struct mbd_op op;
	uint64_t key_base, key_size;
	size_t order;
};

struct pstate {
	const char *fname;
	unsigned line;
	struct mbd_diag *d;
	uint64_t points[MAX_POINTS];
	size_t n_points;
	uint64_t sizes[MAX_POINTS];
	size_t n_sizes;
	bool have_points, have_config, have_fill, have_name;
	struct xop *ops;
	size_t n_ops, cap;
	/* range lines wait until the lattice is known */
	char **range_lines;
	unsigned *range_lineno;
	size_t n_range;
	char *config_line;
	unsigned config_lineno;
	uint32_t fills[MAX_VALUES];
	size_t n_fills;
};

__attribute__((format(printf, 2, 3)))
static int fail(struct pstate *p, const char *fmt, ...)
{
	va_list ap;

	p->d->file = p->fname;
	p->d->line = p->line;
	va_start(ap, fmt);
	vsnprintf(p->d->msg, sizeof(p->d->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* Hex with 0x, else decimal (never octal), as in .mbt. */
static int parse_u64(const char *s, uint64_t *out)
{
	int base = 10;
	uint64_t v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		int dgt;

		if (*s >= '0' && *s <= '9')
			dgt = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			dgt = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			dgt = *s - 'A' + 10;
		else
			return -1;
		if (v > (UINT64_MAX - (uint64_t)dgt) / (uint64_t)base)
			return -1;
		v = v * (uint64_t)base + (uint64_t)dgt;
	}
	*out = v;
	return 0;
}

/* One op line through the .mbt parser; errors come back at our line. */
static int parse_op(struct pstate *p, const char *text, struct mbd_op *op)
{
	struct mbd_trace t;
	struct mbd_diag d;
	int ret = 0;

	mbd_trace_init(&t);
	if (mbd_text_parse(text, strlen(text), p->fname, &t, &d) != 0)
		ret = fail(p, "%s", d.msg);
	else if (t.n_ops != 1)
		ret = fail(p, "expected one call, got %zu", t.n_ops);
	else
		*op = t.ops[0];
	mbd_trace_free(&t);
	return ret;
}

static int push_op(struct pstate *p, const struct mbd_op *op, uint64_t kb,
		   uint64_t ks)
{
	if (p->n_ops >= MAX_OPS)
		return fail(p, "more than %u calls in the alphabet", MAX_OPS);
	if (p->n_ops == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 64;
		struct xop *v = realloc(p->ops, cap * sizeof(*v));

		if (!v)
			return fail(p, "out of memory");
		p->ops = v;
		p->cap = cap;
	}
	p->ops[p->n_ops].op = *op;
	p->ops[p->n_ops].key_base = kb;
	p->ops[p->n_ops].key_size = ks;
	p->ops[p->n_ops].order = p->n_ops;
	p->n_ops++;
	return 0;
}

static int number_list(struct pstate *p, char *rest, uint64_t *out, size_t *n,
		       const char *what)
{
	char *save = NULL;

	*n = 0;
	for (char *tok = strtok_r(rest, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (*n == MAX_POINTS)
			return fail(p, "more than %d %s", MAX_POINTS, what);
		if (parse_u64(tok, &out[*n]))
			return fail(p, "bad number \"%s\" in %s (hex with 0x, or decimal)",
				    tok, what);
		if (*n && out[*n] <= out[*n - 1])
			return fail(p, "%s must be strictly ascending (%s)", what, tok);
		(*n)++;
	}
	if (!*n)
		return fail(p, "%s: expected at least one number", what);
	return 0;
}

/* One range op over every lattice pair and every (point, size). */
static int expand_range(struct pstate *p, const char *rest)
{
	char name[64], text[512];
	const char *fields;
	size_t nl = strcspn(rest, " \t");
	int kind;

	if (nl == 0 || nl >= sizeof(name))
		return fail(p, "range: expected a call name");
	memcpy(name, rest, nl);
	name[nl] = '\0';
	fields = rest + nl + strspn(rest + nl, " \t");
	kind = mbd_op_lookup(name, nl);
	if (kind < 0)
		return fail(p, "range: unknown call \"%s\"", name);
	if (!mbd_shape_is_range(mbd_op_table[kind].shape))
		return fail(p, "range: %s takes no address range (use call)", name);
	for (size_t i = 0; i < p->n_points; i++) {
		size_t nsz = p->n_points - i - 1 + p->n_sizes;

		for (size_t k = 0; k < nsz; k++) {
			uint64_t base = p->points[i], size;
			struct mbd_op op;
			bool dup = false;

			if (k < p->n_points - i - 1) {
				size = p->points[i + 1 + k] - base;
			} else {
				size = p->sizes[k - (p->n_points - i - 1)];
				for (size_t j = i + 1; j < p->n_points; j++)
					dup |= p->points[j] - base == size;
			}
			if (dup)
				continue;
			snprintf(text, sizeof(text), "%s: base=0x%llx size=0x%llx%s%s\n",
				 name, (unsigned long long)base,
				 (unsigned long long)size, *fields ? " " : "", fields);
			if (parse_op(p, text, &op) || push_op(p, &op, base, size))
				return -1;
		}
	}
	return 0;
}

static int parse_fill(struct pstate *p, char *rest)
{
	char *save = NULL;

	if (p->have_fill)
		return fail(p, "second fill line");
	p->have_fill = true;
	p->n_fills = 0;
	for (char *tok = strtok_r(rest, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (p->n_fills == MAX_VALUES)
			return fail(p, "fill: more than %d values", MAX_VALUES);
		if (parse_u64(tok, &v) || v > MBD_XFILL_MAX)
			return fail(p, "fill: expected counts 0..%u separated by commas, got \"%s\"",
				    MBD_XFILL_MAX, tok);
		p->fills[p->n_fills++] = (uint32_t)v;
	}
	if (!p->n_fills)
		return fail(p, "fill: expected counts 0..%u separated by commas",
			    MBD_XFILL_MAX);
	return 0;
}

static int parse_line(struct pstate *p, char *s)
{
	size_t kl = strcspn(s, " \t");
	char *rest = s + kl + strspn(s + kl, " \t");
	struct mbd_op op;
	char text[4200];

	if (kl == 4 && !strncmp(s, "name", 4)) {
		if (p->have_name || !*rest || strlen(rest) >= 64 || strpbrk(rest, " \t"))
			return fail(p, "name: expected one word (at most 63 characters), once");
		p->have_name = true;
		return 0; /* read again by the caller */
	}
	if (kl == 9 && !strncmp(s, "addresses", 9)) {
		if (p->have_points)
			return fail(p, "second addresses line");
		p->have_points = true;
		return number_list(p, rest, p->points, &p->n_points, "addresses");
	}
	if (kl == 5 && !strncmp(s, "sizes", 5)) {
		if (p->n_sizes)
			return fail(p, "second sizes line");
		if (number_list(p, rest, p->sizes, &p->n_sizes, "sizes"))
			return -1;
		if (p->sizes[0] == 0)
			return fail(p, "sizes: 0 is not a size");
		return 0;
	}
	if (kl == 5 && !strncmp(s, "range", 5)) {
		char **l = realloc(p->range_lines, (p->n_range + 1) * sizeof(*l));
		unsigned *n = realloc(p->range_lineno, (p->n_range + 1) * sizeof(*n));

		if (l)
			p->range_lines = l;
		if (n)
			p->range_lineno = n;
		if (!l || !n || !(l[p->n_range] = strdup(rest)))
			return fail(p, "out of memory");
		n[p->n_range++] = p->line;
		return 0;
	}
	if (kl == 4 && !strncmp(s, "call", 4)) {
		if (!*rest)
			return fail(p, "call: expected a call in .mbt form");
		snprintf(text, sizeof(text), "%s\n", rest);
		if (parse_op(p, text, &op))
			return -1;
		return push_op(p, &op, 0, 0);
	}
	if (kl == 6 && !strncmp(s, "config", 6)) {
		if (p->have_config)
			return fail(p, "second config line");
		p->have_config = true;
		p->config_lineno = p->line;
		p->config_line = strdup(rest);
		return p->config_line ? 0 : fail(p, "out of memory");
	}
	if (kl == 4 && !strncmp(s, "fill", 4))
		return parse_fill(p, rest);
	return fail(p, "unknown keyword \"%.*s\" (expected name, addresses, sizes, "
		    "range, call, config or fill)", (int)kl, s);
}

static int cmp_xop(const void *a, const void *b)
{
	const struct xop *x = a, *y = b;

	if (x->key_base != y->key_base)
		return x->key_base < y->key_base ? -1 : 1;
	if (x->key_size != y->key_size)
		return x->key_size < y->key_size ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void alphabet_hash(struct mbd_alphabet *a)
{
	struct mbd_xhash x;

	mbd_xhash_init(&x, 0x616c706861626574ULL);
	mbd_xhash_bytes(&x, a->ops, a->n_ops * sizeof(*a->ops));
	for (size_t i = 0; i < a->n_roots; i++) {
		const struct mbd_config *c = &a->roots[i].cfg;
		uint64_t w[4] = { c->memory_max, c->reserved_max, c->limit,
				  (uint64_t)c->resize | (uint64_t)c->slab << 1 |
				  (uint64_t)c->bottom_up << 2 |
				  (uint64_t)c->mirror << 3 |
				  (uint64_t)c->movable << 4 |
				  (uint64_t)a->roots[i].fill << 8 };

		mbd_xhash_bytes(&x, w, sizeof(w));
	}
	mbd_xhash_done(&x);
	a->hash[0] = x.h[0];
	a->hash[1] = x.h[1];
}

static int finish(struct pstate *p, struct mbd_alphabet *a)
{
	struct mbd_config *cfgs = NULL;
	size_t n_cfg = 1;

	if (!p->have_points && p->n_range)
		return p->line = p->range_lineno[0],
		       fail(p, "range before any addresses line");
	for (size_t i = 0; i < p->n_range; i++) {
		p->line = p->range_lineno[i];
		if (expand_range(p, p->range_lines[i]))
			return -1;
	}
	if (!p->n_ops)
		return p->line = 0, fail(p, "no calls (expected range or call lines)");
	if (p->have_config) {
		if (mbd_xalpha_configs(p->config_line, p->fname, p->config_lineno,
				       &cfgs, &n_cfg, p->d))
			return -1;
	} else {
		cfgs = malloc(sizeof(*cfgs));
		if (!cfgs)
			return fail(p, "out of memory");
		mbd_config_default(cfgs);
	}
	if (!p->n_fills)
		p->fills[p->n_fills++] = 0;
	a->n_roots = n_cfg * p->n_fills;
	if (a->n_roots > 65535) {
		free(cfgs);
		return p->line = p->config_lineno, fail(p, "more than 65535 configurations");
	}
	a->roots = calloc(a->n_roots, sizeof(*a->roots));
	if (!a->roots) {
		free(cfgs);
		return fail(p, "out of memory");
	}
	for (size_t i = 0; i < n_cfg; i++)
		for (size_t f = 0; f < p->n_fills; f++) {
			a->roots[i * p->n_fills + f].cfg = cfgs[i];
			a->roots[i * p->n_fills + f].fill = p->fills[f];
		}
	free(cfgs);
	qsort(p->ops, p->n_ops, sizeof(*p->ops), cmp_xop);
	a->ops = calloc(p->n_ops, sizeof(*a->ops));
	if (!a->ops)
		return fail(p, "out of memory");
	for (size_t i = 0; i < p->n_ops; i++)
		a->ops[i] = p->ops[i].op;
	a->n_ops = p->n_ops;
	alphabet_hash(a);
	return 0;
}

static void base_name(const char *path, char *out, size_t n)
{
	const char *b = strrchr(path, '/');
	size_t len;

	b = b ? b + 1 : path;
	len = strcspn(b, ".");
	if (len >= n)
		len = n - 1;
	memcpy(out, b, len);
	out[len] = '\0';
}

int mbd_alphabet_parse(const char *buf, size_t len, const char *fname,
		       struct mbd_alphabet *a, struct mbd_diag *d)
{
	struct pstate p = { .fname = fname, .d = d };
	char line[4200];
	size_t pos = 0;
	int ret = 0;

	memset(a, 0, sizeof(*a));
	base_name(fname, a->name, sizeof(a->name));
	while (pos < len && !ret) {
		size_t e = pos, l;
		char *s, *end;

		while (e < len && buf[e] != '\n')
			e++;
		l = e - pos;
		p.line++;
		if (l >= sizeof(line)) {
			ret = fail(&p, "line longer than %zu bytes", sizeof(line) - 1);
			break;
		}
		memcpy(line, buf + pos, l);
		line[l] = '\0';
		pos = e + 1;
		if (memchr(line, '\0', l)) {
			ret = fail(&p, "binary data in alphabet");
			break;
		}
		if (l && line[l - 1] == '\r')
			line[--l] = '\0';
		s = line + strspn(line, " \t");
		end = s + strlen(s);
		while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		if (!*s || *s == '#')
			continue;
		ret = parse_line(&p, s);
		if (!ret && !strncmp(s, "name", 4) && (s[4] == ' ' || s[4] == '\t'))
			snprintf(a->name, sizeof(a->name), "%s", s + 5 + strspn(s + 5, " \t"));
	}
	if (!ret)
		ret = finish(&p, a);
	free(p.ops);
	for (size_t i = 0; i < p.n_range; i++)
		free(p.range_lines[i]);
	free(p.range_lines);
	free(p.range_lineno);
	free(p.config_line);
	if (ret)
		mbd_alphabet_free(a);
	return ret;
}

int mbd_alphabet_load(const char *path, struct mbd_alphabet *a,
		      struct mbd_diag *d)
{
	uint8_t *buf = NULL;
	char why[200];
	size_t len = 0;
	int ret;

	memset(a, 0, sizeof(*a));
	if (mbd_read_file(path, MBD_INPUT_MAX, &buf, &len, why, sizeof(why))) {
		d->file = path;
		d->line = 0;
		snprintf(d->msg, sizeof(d->msg), "cannot read alphabet: %s", why);
		return -1;
	}
	ret = mbd_alphabet_parse((const char *)buf, len, path, a, d);
	free(buf);
	return ret;
}

void mbd_alphabet_free(struct mbd_alphabet *a)
{
	free(a->ops);
	free(a->roots);
	memset(a, 0, sizeof(*a));
}

int mbd_alphabet_trace(const struct mbd_alphabet *a, size_t root,
		       const uint16_t *idx, size_t n, struct mbd_trace *t)
{
	const struct mbd_xroot *r = &a->roots[root];

	mbd_trace_clear(t);
	t->cfg = r->cfg;
	for (int type = 0; type < 2; type++)
		for (uint32_t i = 0; i < r->fill; i++) {
			struct mbd_op op = {
				.kind = type ? MBD_OP_RESERVE : MBD_OP_ADD,
				.base = MBD_XFILL_BASE + i * MBD_XFILL_STEP,
				.size = MBD_PAGE_SIZE,
			};

			if (mbd_trace_push(t, &op, 0))
				return -1;
		}
	for (size_t i = 0; i < n; i++)
		if (mbd_trace_push(t, &a->ops[idx[i]], 0))
			return -1;
	return 0;
}
