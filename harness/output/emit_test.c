// SPDX-License-Identifier: GPL-2.0
/*
 * The generator behind `mbdiff emit-test`.
 *
 * The kernel suite has an identity __va(), so memblock_double_array() writes
 * the new region array at the physical address it picks. Trace addresses
 * are small absolute ones (0x1000, ...), which are not mapped in a user
 * process; so every address is shifted into the suite's dummy memory:
 * b = ALIGN(dummy_physical_memory_base(), A) with A the largest alignment
 * the trace relies on. Results are the same for every such b except where
 * a trace depends on physical page 0 being skipped by memblock's search;
 * for that reason the generator re-runs the shifted trace on the patched
 * variant and says in the test whether it still fails there.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_emit_test.h"
#include "mbd_escape.h"
#include "mbd_runner.h"

#include "emit_int.h"

static void why_set(char *why, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void why_set(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;

	if (!why || !n)
		return;
	va_start(ap, fmt);
	vsnprintf(why, n, fmt, ap);
	va_end(ap);
}

static bool good_name(const char *s)
{
	if (!s || !*s || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

static bool is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* Addresses the op carries that get shifted, and the alignment it needs. */
static int check_op(const struct mbd_op *op, size_t i, struct emit_run *r,
		    char *why, size_t n)
{
	enum mbd_op_shape sh = mbd_op_table[op->kind].shape;
	uint64_t a = 0;

	switch (sh) {
	case MBD_SHAPE_RANGE:
	case MBD_SHAPE_RANGE_NODE:
	case MBD_SHAPE_RANGE_NID:
	case MBD_SHAPE_SET_NODE:
		if (op->base >= MBD_EMIT_ADDR_LIMIT ||
		    op->size > MBD_EMIT_ADDR_LIMIT - op->base)
			goto huge;
		if (op->kind == MBD_OP_ADD || op->kind == MBD_OP_ADD_NODE)
			if (op->base + op->size > r->span)
				r->span = op->base + op->size;
		break;
	case MBD_SHAPE_ALLOC_RANGE:
		if (op->start >= MBD_EMIT_ADDR_LIMIT ||
		    (op->end != MBD_ALLOC_ANYWHERE && op->end >= MBD_EMIT_ADDR_LIMIT))
			goto huge;
		/* fall through */
	case MBD_SHAPE_ALLOC_NID:
		a = op->align;
		break;
	case MBD_SHAPE_VALUE:
		if (op->kind == MBD_OP_SET_LIMIT && op->value != MBD_PHYS_ADDR_MAX &&
		    op->value >= MBD_EMIT_ADDR_LIMIT)
			goto huge;
		if (op->kind == MBD_OP_TRIM)
			a = op->value;
		break;
	default:
		break;
	}
	if (op->kind == MBD_OP_SLAB_UP) {
		why_set(why, n, "op %zu (slab_is_available() turns true): slab "
			"cannot be modelled in tools/testing/memblock", i + 1);
		return -1;
	}
	if (a && !is_pow2(a)) {
		why_set(why, n, "op %zu: alignment 0x%" PRIx64 " is not a power of two, "
			"so the result depends on where the dummy memory is", i + 1, a);
		return -1;
	}
	if (a > r->align)
		r->align = a;
	return 0;
huge:
	why_set(why, n, "op %zu: addresses above 0x%llx cannot be shifted into the "
		"dummy memory", i + 1, (unsigned long long)MBD_EMIT_ADDR_LIMIT);
	return -1;
}

static uint64_t shift(uint64_t a)
{
	return a + MBD_EMIT_BASE;
}

static void shift_op(struct mbd_op *op)
{
	switch (mbd_op_table[op->kind].shape) {
	case MBD_SHAPE_RANGE:
	case MBD_SHAPE_RANGE_NODE:
	case MBD_SHAPE_RANGE_NID:
	case MBD_SHAPE_SET_NODE:
		op->base = shift(op->base);
		break;
	case MBD_SHAPE_ALLOC_RANGE:
		op->start = shift(op->start);
		if (op->end != MBD_ALLOC_ANYWHERE && op->end != MBD_ALLOC_ACCESSIBLE)
			op->end = shift(op->end);
		break;
	case MBD_SHAPE_VALUE:
		if (op->kind == MBD_OP_SET_LIMIT && op->value != MBD_PHYS_ADDR_MAX)
			op->value = shift(op->value);
		break;
	default:
		break;
	}
}

static int prepare(const struct mbd_trace *t, const struct mbd_emit_opts *o,
		   struct emit_run *r, char *why, size_t n)
{
	const struct mbd_config *c = &t->cfg;
	const struct mbd_variant *v = o->reference;

	if (c->slab || c->mirror || c->movable) {
		why_set(why, n, "config %s cannot be modelled in tools/testing/memblock",
			c->slab ? "slab=1" : c->mirror ? "mirror=1" : "movable=1");
		return -1;
	}
	if (c->limit != MBD_PHYS_ADDR_MAX && c->limit >= MBD_EMIT_ADDR_LIMIT) {
		why_set(why, n, "config limit 0x%" PRIx64 " cannot be shifted", c->limit);
		return -1;
	}
	r->align = MBD_PAGE_SIZE;
	for (size_t i = 0; i < t->n_ops; i++)
		if (t->ops[i].kind >= MBD_OP__COUNT ||
		    check_op(&t->ops[i], i, r, why, n))
			return -1;
	/* b = ALIGN(malloc result, A) may waste up to A - 1 bytes */
	if (r->span && r->span + r->align - 1 > MBD_EMIT_MEM_SIZE) {
		why_set(why, n, "the memory it adds spans 0x%" PRIx64 " bytes (aligned "
			"to 0x%" PRIx64 "): more than the suite's %llu KiB of dummy "
			"memory (PHYS_MEM_SIZE) can hold", r->span, r->align,
			(unsigned long long)(MBD_EMIT_MEM_SIZE >> 10));
		return -1;
	}
	if (mbd_trace_copy(&r->shifted, t))
		goto oom;
	if (r->shifted.cfg.limit != MBD_PHYS_ADDR_MAX)
		r->shifted.cfg.limit = shift(r->shifted.cfg.limit);
	for (size_t i = 0; i < t->n_ops; i++)
		shift_op(&r->shifted.ops[i]);

	r->res = calloc(t->n_ops ? t->n_ops : 1, sizeof(*r->res));
	if (!r->res)
		goto oom;
	v->reset(&r->shifted.cfg, 0);
	for (r->n_run = 0; r->n_run < t->n_ops; r->n_run++) {
		struct mbd_result *res = &r->res[r->n_run];

		v->apply(&r->shifted.ops[r->n_run], res);
		if (res->panicked) {
			r->panicked = true;
			memcpy(r->panic_msg, res->panic_msg, sizeof(r->panic_msg));
			break;
		}
	}
	v->snapshot(&r->end);
	return 0;
oom:
	why_set(why, n, "out of memory");
	return -1;
}

/* ---- printing ---- */

/* A shifted physical address as "b + 0x...". */
static void put_addr(FILE *f, uint64_t shifted)
{
	uint64_t off = shifted - MBD_EMIT_BASE;

	if (off)
		fprintf(f, "b + 0x%" PRIx64, off);
	else
		fputs("b", f);
}

static void put_nid(FILE *f, int32_t nid)
{
	if (nid == MBD_NUMA_NO_NODE)
		fputs("NUMA_NO_NODE", f);
	else if (nid == MBD_MAX_NUMNODES)
		fputs("MAX_NUMNODES", f);
	else
		fprintf(f, "%" PRId32, nid);
}

static void put_flags(FILE *f, uint32_t flags)
{
	static const struct { uint32_t bit; const char *name; } names[] = {
		{ MBD_FLAG_HOTPLUG, "MEMBLOCK_HOTPLUG" },
		{ MBD_FLAG_MIRROR, "MEMBLOCK_MIRROR" },
		{ MBD_FLAG_NOMAP, "MEMBLOCK_NOMAP" },
		{ MBD_FLAG_DRIVER_MANAGED, "MEMBLOCK_DRIVER_MANAGED" },
		{ MBD_FLAG_RSRV_NOINIT, "MEMBLOCK_RSRV_NOINIT" },
		{ MBD_FLAG_RSRV_KERN, "MEMBLOCK_RSRV_KERN" },
	};
	const char *sep = "";

	if (!flags) {
		fputs("MEMBLOCK_NONE", f);
		return;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (flags & names[i].bit) {
			fprintf(f, "%s%s", sep, names[i].name);
			sep = " | ";
			flags &= ~names[i].bit;
		}
	}
	if (flags)
		fprintf(f, "%s0x%" PRIx32, sep, flags);
}

static void put_errno(FILE *f, int64_t ret)
{
	if (ret == -ENOMEM)
		fputs("-ENOMEM", f);
	else if (ret == -EINVAL)
		fputs("-EINVAL", f);
	else
		fprintf(f, "%" PRId64, ret);
}

static void put_size(FILE *f, uint64_t s)
{
	fprintf(f, "0x%" PRIx64, s);
}

/* The call for op (shifted) with the reference's result checked. */
static void put_op(FILE *f, const struct mbd_op *op, const struct mbd_result *res)
{
	const char *name = mbd_op_name(op->kind);

	switch (mbd_op_table[op->kind].shape) {
	case MBD_SHAPE_RANGE:
	case MBD_SHAPE_RANGE_NODE:
	case MBD_SHAPE_RANGE_NID:
	case MBD_SHAPE_SET_NODE:
		if (op->kind == MBD_OP_RESERVE_KERN && op->nid != MBD_NUMA_NO_NODE)
			name = "__memblock_reserve"; /* what the allocator calls */
		fprintf(f, "\tret = %s(", name);
		put_addr(f, op->base);
		fputs(", ", f);
		put_size(f, op->size);
		if (op->kind == MBD_OP_ADD_NODE) {
			fputs(", ", f);
			put_nid(f, op->nid);
			fputs(", ", f);
			put_flags(f, op->flags);
		} else if (op->kind == MBD_OP_RESERVE_KERN && op->nid != MBD_NUMA_NO_NODE) {
			fputs(", ", f);
			put_nid(f, op->nid);
			fputs(", MEMBLOCK_RSRV_KERN", f);
		} else if (op->kind == MBD_OP_SET_NODE) {
			fprintf(f, ", &memblock.%s, ", op->type == MBD_TYPE_RESERVED ?
				"reserved" : "memory");
			put_nid(f, op->nid);
		}
		fputs(");\n\tASSERT_EQ(ret, ", f);
		put_errno(f, res->ret);
		fputs(");\n", f);
		return;
	case MBD_SHAPE_ALLOC_RANGE:
	case MBD_SHAPE_ALLOC_NID:
		fprintf(f, "\taddr = %s(", name);
		put_size(f, op->size);
		fprintf(f, ", 0x%" PRIx64 ", ", op->align);
		if (op->kind == MBD_OP_ALLOC_TRY_NID) {
			put_nid(f, op->nid);
		} else {
			put_addr(f, op->start);
			fputs(", ", f);
			if (op->end == MBD_ALLOC_ANYWHERE)
				fputs("MEMBLOCK_ALLOC_ANYWHERE", f);
			else if (op->end == MBD_ALLOC_ACCESSIBLE)
				fputs("MEMBLOCK_ALLOC_ACCESSIBLE", f);
			else
				put_addr(f, op->end);
		}
		fputs(");\n\tASSERT_EQ(addr, ", f);
		if (res->ret)
			put_addr(f, (uint64_t)res->ret);
		else
			fputs("0", f);
		fputs(");\n", f);
		return;
	default:
		break;
	}
	switch (op->kind) {
	case MBD_OP_SET_LIMIT:
		fputs("\tmemblock_set_current_limit(", f);
		if (op->value == MBD_PHYS_ADDR_MAX)
			fputs("MEMBLOCK_ALLOC_ANYWHERE", f);
		else
			put_addr(f, op->value);
		fputs(");\n", f);
		break;
	case MBD_OP_SET_BOTTOM_UP:
		fprintf(f, "\tmemblock_set_bottom_up(%s);\n", op->value ? "true" : "false");
		break;
	case MBD_OP_TRIM:
		fprintf(f, "\tmemblock_trim_memory(0x%" PRIx64 ");\n", op->value);
		break;
	default:
		fprintf(f, "\t%s();\n", name);
		break;
	}
}

static void put_type(FILE *f, const char *tname, const struct mbd_type_state *s,
		     const char *boot_array)
{
	fprintf(f, "\tASSERT_EQ(memblock.%s.cnt, %" PRIu64 ");\n", tname, s->cnt);
	fprintf(f, "\tASSERT_EQ(memblock.%s.max, %" PRIu64 ");\n", tname, s->max);
	fprintf(f, "\tASSERT_EQ(memblock.%s.total_size, 0x%" PRIx64 ");\n",
		tname, s->total_size);
	if (s->regions_static) {
		fprintf(f, "\tASSERT_EQ(memblock.%s.regions, %s);\n", tname, boot_array);
	} else {
		fprintf(f, "\tASSERT_EQ(__pa(memblock.%s.regions), ", tname);
		put_addr(f, s->regions_pa);
		fputs(");\n", f);
	}
	for (size_t i = 0; i < s->n_copied; i++) {
		const struct mbd_region *g = &s->regions[i];

		fprintf(f, "\n\trgn = &memblock.%s.regions[%zu];\n\tASSERT_EQ(rgn->base, ",
			tname, i);
		put_addr(f, g->base);
		fputs(");\n\tASSERT_EQ(rgn->size, ", f);
		put_size(f, g->size);
		fputs(");\n\tASSERT_EQ(rgn->flags, ", f);
		put_flags(f, g->flags);
		fputs(");\n#ifdef CONFIG_NUMA\n\tASSERT_EQ(rgn->nid, ", f);
		put_nid(f, g->nid);
		fputs(");\n#endif\n", f);
	}
}

/* Each line of text as " * line". */
/* Lines of untrusted text inside the C comment: a "*" "/" or a control
 * byte in them must not end or break it. */
static void put_comment_lines(FILE *f, const char *text)
{
	char line[1024], safe[4 * sizeof(line) + 4];

	while (text && *text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		size_t k = len < sizeof(line) - 1 ? len : sizeof(line) - 1;

		memcpy(line, text, k);
		line[k] = '\0';
		mbd_escape_line(safe, sizeof(safe), line, sizeof(line));
		fprintf(f, len ? " * %s\n" : " *\n", safe);
		text += len + (nl ? 1 : 0);
	}
}

/* Whether the replayed calls need addr (allocations) or ret (the rest). */
static bool uses(const struct emit_run *r, bool alloc)
{
	for (size_t i = 0; i < r->n_run; i++) {
		enum mbd_op_shape sh = mbd_op_table[r->shifted.ops[i].kind].shape;
		bool is_alloc = sh == MBD_SHAPE_ALLOC_RANGE || sh == MBD_SHAPE_ALLOC_NID;
		bool is_int = mbd_shape_is_range(sh);

		if (alloc ? is_alloc : is_int)
			return true;
	}
	return false;
}

/*
 * Whether a replayed call names a node: without CONFIG_NUMA the suite
 * stores no node ids, so regions of different nodes merge and the
 * expected arrays (computed with NUMA) do not hold.
 */
static bool needs_numa(const struct emit_run *r)
{
	for (size_t i = 0; i < r->n_run; i++) {
		const struct mbd_op *op = &r->shifted.ops[i];

		if (op->kind == MBD_OP_ADD_NODE || op->kind == MBD_OP_SET_NODE ||
		    (op->kind == MBD_OP_ALLOC_TRY_NID && op->nid != MBD_NUMA_NO_NODE))
			return true;
	}
	return false;
}

static int emit(FILE *f, const struct mbd_trace *t, const struct mbd_emit_opts *o,
		const struct emit_run *r, const char *pline)
{
	bool numa = needs_numa(r);
	const struct mbd_config *c = &t->cfg;
	const struct mbd_state *s = &r->end;

	fputs("// SPDX-License-Identifier: GPL-2.0\n/*\n", f);
	fputs(" * Generated by `mbdiff emit-test`: a memblock corner case found by\n"
	      " * differential fuzzing. The expected values are what mainline\n"
	      " * (mbdiff's reference model of v7.3) computes.\n", f);
	if (o->source) {
		char src[4 * 512 + 4];

		fprintf(f, " * Trace: %s\n", mbd_escape_line(src, sizeof(src), o->source, 512));
	}
	if (o->notes && *o->notes) {
		fputs(" *\n", f);
		put_comment_lines(f, o->notes);
	}
	fputs(" *\n"
	      " * Addresses: the trace's physical address a is b + a here, b being a\n"
	      " * page-aligned address inside the dummy memory. The suite's __va() is\n"
	      " * the identity, and memblock_double_array() writes the new region\n"
	      " * array at the address it picks, so the memory the calls add must be\n"
	      " * real memory: the dummy block (PHYS_MEM_SIZE) must hold the range.\n", f);
	if (pline) {
		fputs(" *\n", f);
		put_comment_lines(f, pline);
	}
	if (numa)
		fputs(" *\n * The calls name node ids: the test runs only in a NUMA=1 build\n"
		      " * (without CONFIG_NUMA no node id is stored and it says so).\n", f);
	if (!c->resize)
		fputs(" *\n * The trace starts with resizing NOT allowed; the suite has no way\n"
		      " * to undo memblock_allow_resize(), so run this before any test that\n"
		      " * calls it.\n", f);
	if (r->panicked)
		fprintf(f, " *\n * Call %zu panics on mainline (%s); the kernel suite cannot\n"
			" * survive that, so the test stops before it and checks the state\n"
			" * the earlier calls leave.\n", r->n_run + 1, r->panic_msg);
	fputs(" */\n#include \"common.h\"\n\n", f);

	if (numa)
		fputs("#ifdef CONFIG_NUMA\n", f);
	fprintf(f, "static int %s_check(void)\n{\n", o->name);
	fputs("\tstruct memblock_region *memory_regions = memblock.memory.regions;\n"
	      "\tstruct memblock_region *reserved_regions = memblock.reserved.regions;\n"
	      "\tstruct memblock_region *rgn;\n", f);
	fprintf(f, "\tphys_addr_t b%s;\n", uses(r, true) ? ", addr" : "");
	if (uses(r, false))
		fputs("\tint ret;\n", f);
	fputs("\n\tPREFIX_PUSH();\n\n"
	      "\treset_memblock_regions();\n"
	      "\treset_memblock_attributes();\n"
	      "\tdummy_physical_memory_init();\n", f);
	fprintf(f, "\tb = ALIGN(dummy_physical_memory_base(), 0x%" PRIx64 ");\n",
		r->align);
	if (r->span)
		fprintf(f, "\t/* the memory the trace adds lies inside the dummy block */\n"
			"\tASSERT_LT(b + 0x%" PRIx64 ", dummy_physical_memory_base() + PHYS_MEM_SIZE);\n",
			r->span - 1);
	fputs("\n\t/* boot state of the trace */\n", f);
	if (c->memory_max != MBD_INIT_REGIONS)
		fprintf(f, "\tmemblock.memory.max = %" PRIu32 ";\n", c->memory_max);
	if (c->reserved_max != MBD_INIT_REGIONS)
		fprintf(f, "\tmemblock.reserved.max = %" PRIu32 ";\n", c->reserved_max);
	if (c->resize)
		fputs("\tmemblock_allow_resize();\n", f);
	if (c->bottom_up)
		fputs("\tmemblock_set_bottom_up(true);\n", f);
	if (c->limit != MBD_PHYS_ADDR_MAX) {
		fputs("\tmemblock_set_current_limit(", f);
		put_addr(f, r->shifted.cfg.limit);
		fputs(");\n", f);
	}
	for (size_t i = 0; i < r->n_run; i++) {
		fprintf(f, "\n\t/* call %zu */\n", i + 1);
		put_op(f, &r->shifted.ops[i], &r->res[i]);
	}
	if (r->panicked)
		fprintf(f, "\n\t/* call %zu, %s(), panics on mainline: not replayed */\n",
			r->n_run + 1, mbd_op_name(r->shifted.ops[r->n_run].kind));
	fputs("\n\t/* what mainline leaves */\n", f);
	put_type(f, "memory", &s->memory, "memory_regions");
	fputc('\n', f);
	put_type(f, "reserved", &s->reserved, "reserved_regions");
	fputs("\n\t/* the boot arrays back before the dummy memory goes away */\n"
	      "\tmemblock.memory.regions = memory_regions;\n"
	      "\tmemblock.memory.cnt = 0;\n"
	      "\tmemblock.reserved.regions = reserved_regions;\n"
	      "\tmemblock.reserved.cnt = 0;\n"
	      "\treset_memblock_regions();\n"
	      "\treset_memblock_attributes();\n"
	      "\tdummy_physical_memory_cleanup();\n\n"
	      "\ttest_pass_pop();\n\n"
	      "\treturn 0;\n}\n", f);
	fputs(numa ? "#endif\n\n" : "\n", f);
	fprintf(f, "int %s_checks(void)\n{\n"
		"\tprefix_reset();\n"
		"\tprefix_push(\"%s\");\n"
		"\ttest_print(\"Running %%s tests...\\n\", \"%s\");\n\n",
		o->name, o->name, o->name);
	if (numa)
		fprintf(f, "#ifdef CONFIG_NUMA\n\t%s_check();\n#else\n"
			"\ttest_print(\"%s: not run, its calls need NUMA=1\\n\");\n"
			"#endif\n", o->name, o->name);
	else
		fprintf(f, "\t%s_check();\n", o->name);
	fputs("\n\tprefix_pop();\n\n\treturn 0;\n}\n", f);
	return ferror(f) ? -1 : 0;
}

int mbd_emit_test(FILE *out, const struct mbd_trace *t,
		  const struct mbd_emit_opts *o, char *why, size_t whylen)
{
	struct emit_run r;
	char pline[512];
	bool have_pline = false;
	int rc = -1;

	if (!good_name(o->name)) {
		why_set(why, whylen, "\"%s\" is not a C identifier", o->name ? o->name : "");
		return -1;
	}
	if (!o->reference) {
		why_set(why, whylen, "no reference variant");
		return -1;
	}
	memset(&r, 0, sizeof(r));
	mbd_trace_init(&r.shifted);
	mbd_state_init(&r.end);
	if (prepare(t, o, &r, why, whylen))
		goto out;
	if (o->patched) {
		if (mbd_emit_patched_line(o, &r, t, pline, sizeof(pline))) {
			why_set(why, whylen, "out of memory");
			goto out;
		}
		have_pline = true;
	}
	rc = emit(out, t, o, &r, have_pline ? pline : NULL);
	if (rc)
		why_set(why, whylen, "write error");
out:
	free(r.res);
	mbd_trace_free(&r.shifted);
	mbd_state_free(&r.end);
	return rc;
}
