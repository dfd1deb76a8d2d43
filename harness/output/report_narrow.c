// SPDX-License-Identifier: GPL-2.0
/*
 * The narrow report (`mbdiff replay --narrow`, used by `mbdiff check`):
 * what each variant returned and left behind after the diverging op, one
 * variant after the other in at most 72 columns, so it can be pasted into
 * a mailing-list reply.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mbd_report.h"

static void print_regions(FILE *out, const char *what,
			  const struct mbd_type_state *ts)
{
	fprintf(out, "    %s: %" PRIu64 " of %" PRIu64 " slots, 0x%" PRIx64
		" bytes, ", what, ts->cnt, ts->max, ts->total_size);
	if (ts->regions_static)
		fputs("boot array\n", out);
	else
		fprintf(out, "array at 0x%" PRIx64 "%s\n", ts->regions_pa,
			ts->regions_slab ? " (slab)" : "");
	for (size_t i = 0; i < ts->n_copied; i++) {
		const struct mbd_region *rg = &ts->regions[i];

		fprintf(out, "      [0x%" PRIx64 "-0x%" PRIx64 "]", rg->base,
			rg->base + rg->size - (rg->size ? 1 : 0));
		if (rg->flags)
			fprintf(out, " flags 0x%x", (unsigned)rg->flags);
		fprintf(out, " nid %d\n", (int)rg->nid);
	}
	if (ts->n_copied < ts->cnt)
		fprintf(out, "      (%" PRIu64 " more not shown)\n",
			ts->cnt - ts->n_copied);
}

static void print_variant(FILE *out, const struct mbd_runner *r, size_t i,
			  const struct mbd_verdict *v)
{
	const struct mbd_variant *var = mbd_runner_variant(r, i);
	const struct mbd_result *res = mbd_runner_result(r, i);
	const struct mbd_state *st = mbd_runner_after(r, i);

	fprintf(out, "  %s:\n", var ? var->name : "?");
	if (res->panicked)
		fprintf(out, "    BUG/panic: %.*s\n", (int)sizeof(res->panic_msg),
			res->panic_msg);
	else
		fprintf(out, "    returned %" PRId64 " (0x%" PRIx64 "), %" PRIu64
			" WARN(s) so far\n", res->ret, (uint64_t)res->ret,
			st->warnings);
	if (v->where != MBD_WHERE_RESERVED)
		print_regions(out, "memory", &st->memory);
	if (v->where != MBD_WHERE_MEMORY)
		print_regions(out, "reserved", &st->reserved);
}

void mbd_report_narrow(FILE *out, const struct mbd_runner *r,
		       const struct mbd_trace *t, const struct mbd_verdict *v)
{
	if (!v->divergent) {
		mbd_report_ok(out, r, t, v);
		return;
	}
	fprintf(out, "after call %zu of %zu (%s):\n", v->op_index + 1,
		t->n_ops, mbd_op_name(v->op_kind));
	for (size_t i = 0; i < mbd_runner_count(r); i++)
		print_variant(out, r, i, v);
	fprintf(out, "detail: %.*s\n", (int)sizeof(v->detail), v->detail);
	fprintf(out, "%.*s\n", (int)sizeof(v->signature), v->signature);
}
