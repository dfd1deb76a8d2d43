// SPDX-License-Identifier: GPL-2.0
/*
 * Divergence reports for a kernel developer: what ran, what each variant
 * returned, and the two region arrays side by side. The last line is always
 * the signature, so scripts can take it with `tail -n 1`.
 *
 * The report reads the runner's state, so it must be printed right after
 * mbd_runner_run() on the same trace.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mbd_oracle.h"
#include "mbd_report.h"
#include "mbd_text.h"

/* "0x%016llx-0x%016llx": the widest range cell. */
#define RANGE_W 37

static const char *vname(const struct mbd_runner *r, int i)
{
	const struct mbd_variant *var = mbd_runner_variant(r, (size_t)i);

	return var ? var->name : "?";
}

static void print_trace(FILE *out, const struct mbd_trace *t, size_t upto)
{
	char buf[1024];

	if (upto > t->n_ops)
		upto = t->n_ops;
	fprintf(out, "trace (ops 1-%zu of %zu):\n", upto, t->n_ops);
	mbd_text_format_config(buf, sizeof(buf), &t->cfg);
	fprintf(out, "%s\n", buf);
	for (size_t i = 0; i < upto; i++) {
		mbd_text_format_op(buf, sizeof(buf), &t->ops[i]);
		fprintf(out, "#%3zu %s\n", i + 1, buf);
	}
}

static void print_results(FILE *out, const struct mbd_runner *r,
			  const struct mbd_verdict *v)
{
	size_t n = mbd_runner_count(r);
	int w = 0;

	for (size_t i = 0; i < n; i++) {
		int len = (int)strlen(vname(r, (int)i));

		if (len > w)
			w = len;
	}
	fprintf(out, "result of op %zu %s:\n", v->op_index + 1,
		mbd_op_name(v->op_kind));
	for (size_t i = 0; i < n; i++) {
		const struct mbd_result *res = mbd_runner_result(r, i);
		const struct mbd_state *st = mbd_runner_after(r, i);
		bool mark = (int)i == v->va || (int)i == v->vb;

		fprintf(out, "%c %-*s ret 0x%016" PRIx64 " (%" PRId64 ")"
			" warnings %" PRIu64, mark ? '*' : ' ', w,
			vname(r, (int)i), (uint64_t)res->ret, res->ret,
			st->warnings);
		if (res->panicked)
			fprintf(out, " PANIC: %.*s", (int)sizeof(res->panic_msg),
				res->panic_msg);
		fputc('\n', out);
	}
}

/* One region as a fixed-width cell; rg NULL prints blanks. */
static void fmt_region(char *buf, size_t n, const struct mbd_region *rg)
{
	char range[64], sz[24], fl[16];

	if (!rg) {
		snprintf(buf, n, "%-*s %18s %5s %4s", RANGE_W, "", "", "", "");
		return;
	}
	if (rg->size)
		snprintf(range, sizeof(range), "0x%016" PRIx64 "-0x%016" PRIx64,
			 rg->base, rg->base + rg->size - 1);
	else
		snprintf(range, sizeof(range), "0x%016" PRIx64 "-(empty)",
			 rg->base);
	snprintf(sz, sizeof(sz), "0x%" PRIx64, rg->size);
	snprintf(fl, sizeof(fl), "0x%x", (unsigned)rg->flags);
	snprintf(buf, n, "%-*s %18s %5s %4d", RANGE_W, range, sz, fl,
		 (int)rg->nid);
}

static bool same_region(const struct mbd_region *a, const struct mbd_region *b)
{
	return a->base == b->base && a->size == b->size &&
	       a->flags == b->flags && a->nid == b->nid;
}

static void fmt_counters(char *buf, size_t n, const struct mbd_type_state *ts)
{
	snprintf(buf, n, "cnt %" PRIu64 " max %" PRIu64 " total_size 0x%" PRIx64
		 " array pa 0x%" PRIx64 "%s%s", ts->cnt, ts->max,
		 ts->total_size, ts->regions_pa,
		 ts->regions_static ? " static" : "",
		 ts->regions_slab ? " slab" : "");
}

static const struct mbd_type_state *type_of(const struct mbd_state *s,
					    enum mbd_type_sel t)
{
	return t == MBD_TYPE_MEMORY ? &s->memory : &s->reserved;
}

static const char *type_name(enum mbd_type_sel t)
{
	return t == MBD_TYPE_MEMORY ? "memory" : "reserved";
}

static void print_side_by_side(FILE *out, enum mbd_type_sel type,
			       const char *na, const struct mbd_type_state *a,
			       const char *nb, const struct mbd_type_state *b)
{
	size_t rows = a->n_copied > b->n_copied ? a->n_copied : b->n_copied;
	int cell_w = RANGE_W + 1 + 18 + 1 + 5 + 1 + 4;
	char ca[160], cb[160];

	fprintf(out, "%s after the op (! marks rows that differ):\n",
		type_name(type));
	fprintf(out, "  %4s | %-*s || %s\n", "idx", cell_w, na, nb);
	fprintf(out, "  %4s | %-*s %18s %5s %4s || %-*s %18s %5s %4s\n", "",
		RANGE_W, "base-end", "size", "flags", "nid",
		RANGE_W, "base-end", "size", "flags", "nid");
	for (size_t i = 0; i < rows; i++) {
		const struct mbd_region *ra = i < a->n_copied ? &a->regions[i] : NULL;
		const struct mbd_region *rb = i < b->n_copied ? &b->regions[i] : NULL;
		bool differ = !ra || !rb || !same_region(ra, rb);

		fmt_region(ca, sizeof(ca), ra);
		fmt_region(cb, sizeof(cb), rb);
		fprintf(out, "%c %4zu | %s || %s\n", differ ? '!' : ' ', i, ca, cb);
	}
	if (rows == 0)
		fprintf(out, "  %4s | %-*s || %s\n", "", cell_w, "(empty)", "(empty)");
	fmt_counters(ca, sizeof(ca), a);
	fmt_counters(cb, sizeof(cb), b);
	fprintf(out, "%c %4s | %-*s || %s\n",
		(a->cnt != b->cnt || a->max != b->max ||
		 a->total_size != b->total_size) ? '!' : ' ',
		"", cell_w, ca, cb);
	if (a->n_copied < a->cnt || b->n_copied < b->cnt)
		fprintf(out, "  (only %zu / %zu regions copied of cnt %" PRIu64
			" / %" PRIu64 ")\n", a->n_copied, b->n_copied,
			a->cnt, b->cnt);
}

/* One type of one variant, one region per line (oracle reports, before). */
static void print_compact(FILE *out, const char *title,
			  const struct mbd_type_state *ts)
{
	char buf[160];

	fmt_counters(buf, sizeof(buf), ts);
	fprintf(out, "%s: %s\n", title, buf);
	for (size_t i = 0; i < ts->n_copied; i++) {
		fmt_region(buf, sizeof(buf), &ts->regions[i]);
		fprintf(out, "  %4zu | %s\n", i, buf);
	}
	if (ts->n_copied < ts->cnt)
		fprintf(out, "  (only %zu of cnt %" PRIu64 " copied)\n",
			ts->n_copied, ts->cnt);
}

static void print_type(FILE *out, const struct mbd_runner *r,
		       const struct mbd_verdict *v, enum mbd_type_sel type)
{
	const struct mbd_state *before = mbd_runner_before(r, (size_t)v->va);
	char title[128];

	if (v->by_oracle) {
		const struct mbd_oracle *o = mbd_runner_oracle(r, (size_t)v->vb);

		snprintf(title, sizeof(title), "%s of %s after the op",
			 type_name(type), vname(r, v->vb));
		print_compact(out, title,
			      type_of(mbd_runner_after(r, (size_t)v->vb), type));
		fprintf(out, "%s expected by the oracle:\n", type_name(type));
		if (o)
			mbd_oracle_dump(o, type, out);
	} else {
		print_side_by_side(out, type, vname(r, v->va),
				   type_of(mbd_runner_after(r, (size_t)v->va), type),
				   vname(r, v->vb),
				   type_of(mbd_runner_after(r, (size_t)v->vb), type));
	}
	fputc('\n', out);
	snprintf(title, sizeof(title), "%s before the op (%s)",
		 type_name(type), vname(r, v->va));
	print_compact(out, title, type_of(before, type));
}

void mbd_report_print(FILE *out, const struct mbd_runner *r,
		      const struct mbd_trace *t, const struct mbd_verdict *v)
{
	if (!v->divergent) {
		mbd_report_ok(out, r, t, v);
		return;
	}
	if (v->by_oracle)
		fprintf(out, "mbdiff: %s oracle finding in %s at op %zu of %zu\n",
			mbd_class_name(v->cls), vname(r, v->vb),
			v->op_index + 1, t->n_ops);
	else
		fprintf(out, "mbdiff: %s divergence between %s and %s at op %zu of %zu\n",
			mbd_class_name(v->cls), vname(r, v->va), vname(r, v->vb),
			v->op_index + 1, t->n_ops);
	fprintf(out, "detail: %.*s\n\n", (int)sizeof(v->detail), v->detail);
	print_trace(out, t, v->op_index + 1);
	fputc('\n', out);
	print_results(out, r, v);
	fputc('\n', out);
	if (v->where == MBD_WHERE_MEMORY || v->where == MBD_WHERE_CALL) {
		print_type(out, r, v, MBD_TYPE_MEMORY);
		fputc('\n', out);
	}
	if (v->where == MBD_WHERE_RESERVED || v->where == MBD_WHERE_CALL) {
		print_type(out, r, v, MBD_TYPE_RESERVED);
		fputc('\n', out);
	}
	fprintf(out, "%.*s\n", (int)sizeof(v->signature), v->signature);
}

void mbd_report_ok(FILE *out, const struct mbd_runner *r,
		   const struct mbd_trace *t, const struct mbd_verdict *v)
{
	size_t n = mbd_runner_count(r);

	(void)t;
	fputs("mbdiff: ok ", out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? "~" : "", vname(r, (int)i));
	if (v->baseline_fault)
		fprintf(out, " (baseline %s faulted at op %zu, not compared further: "
			"%.*s; replay it alone with --variants %s)\n", vname(r, 0),
			v->op_index + 1, (int)sizeof(v->detail), v->detail,
			vname(r, 0));
	else if (v->all_panicked)
		fprintf(out, " (all variants panicked identically at op %zu: %.*s)\n",
			v->op_index + 1, (int)sizeof(v->detail), v->detail);
	else
		fprintf(out, " (%zu ops)\n", v->ops_run);
}
