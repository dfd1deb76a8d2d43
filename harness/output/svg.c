// SPDX-License-Identifier: GPL-2.0
/*
 * The picture of mbd_svg.h, written as plain SVG text: a header with the
 * signature, an axis of region boundaries, one row per type and variant,
 * red overlays where a variant differs from the baseline, and a legend.
 * Everything is computed from the runner's "after" states.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_interval.h"
#include "mbd_report.h"
#include "mbd_svg.h"
#include "svg_style.h"
#include "mbd_text.h"

#define MARGIN 16
#define LABEL_W 300     /* left column: variant, counters */
#define LINE_H 18       /* header text lines */
#define GROUP_H 22      /* "memory" / "reserved" heading */
#define ROW_H 30
#define ROW_GAP 14
#define LEGEND_H 70
#define CELL_MIN 28     /* keeps rotated labels apart */
#define CELL_MAX 140
#define PLOT_W 960      /* preferred width of the address axis */
#define RIGHT_PAD 110   /* the last rotated label leans right */


enum cell_kind { CELL_SAME, CELL_LOST, CELL_EXTRA, CELL_ATTRS, CELL_SPLIT };

struct pic {
	FILE *out;
	const struct mbd_runner *r;
	size_t nv;
	uint64_t *bound;        /* sorted, distinct region boundaries */
	size_t nb;
	size_t ncells;          /* intervals between boundaries */
	const struct mbd_region **cov; /* [variant][type][cell], NULL: hole */
	double x0, cell;
	double axis_h;          /* room for the rotated boundary labels */
	double rows_top, rows_bottom;
	double width, height;
};

static const char *const type_names[2] = { "memory", "reserved" };

static const struct mbd_type_state *type_state(const struct pic *p, size_t v,
					       int type)
{
	const struct mbd_state *s = mbd_runner_after(p->r, v);

	return type ? &s->reserved : &s->memory;
}

static const struct mbd_region **cov_row(const struct pic *p, size_t v, int type)
{
	return p->cov + (v * 2 + (size_t)type) * p->ncells;
}

static void text(const struct pic *p, double x, double y, const char *attrs,
		 const char *s)
{
	fprintf(p->out, "<text x=\"%.1f\" y=\"%.1f\" %s>", x, y, attrs);
	mbd_svg_esc(p->out, s);
	fputs("</text>\n", p->out);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The range the op names, if it names one (allocations do not). */
static bool op_range(const struct mbd_op *op, uint64_t *lo, uint64_t *hi)
{
	enum mbd_op_shape s;

	if (!op || op->kind >= MBD_OP__COUNT)
		return false;
	s = mbd_op_table[op->kind].shape;
	if (!mbd_shape_is_range(s))
		return false;
	*lo = op->base;
	*hi = op->size > UINT64_MAX - op->base ? UINT64_MAX : op->base + op->size;
	return *hi > *lo;
}

static int collect_bounds(struct pic *p, const struct mbd_op *op)
{
	size_t max = 2, n = 0;
	uint64_t lo, hi;

	for (size_t v = 0; v < p->nv; v++)
		for (int t = 0; t < 2; t++)
			max += 2 * type_state(p, v, t)->n_copied;
	p->bound = malloc(max * sizeof(*p->bound));
	if (!p->bound)
		return -1;
	for (size_t v = 0; v < p->nv; v++) {
		for (int t = 0; t < 2; t++) {
			const struct mbd_type_state *ts = type_state(p, v, t);

			for (size_t i = 0; i < ts->n_copied; i++) {
				if (!ts->regions[i].size)
					continue;
				p->bound[n++] = ts->regions[i].base;
				p->bound[n++] = mbd_region_end(&ts->regions[i]);
			}
		}
	}
	if (op_range(op, &lo, &hi)) {
		p->bound[n++] = lo;
		p->bound[n++] = hi;
	}
	qsort(p->bound, n, sizeof(*p->bound), cmp_u64);
	p->nb = 0;
	for (size_t i = 0; i < n; i++)
		if (p->nb == 0 || p->bound[p->nb - 1] != p->bound[i])
			p->bound[p->nb++] = p->bound[i];
	p->ncells = p->nb ? p->nb - 1 : 0;
	return 0;
}

static size_t bound_index(const struct pic *p, uint64_t a)
{
	size_t lo = 0, hi = p->nb;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->bound[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static double xpos(const struct pic *p, uint64_t a)
{
	return p->x0 + (double)bound_index(p, a) * p->cell;
}

/* Which region of each row covers each cell (the first one, if several do). */
static int fill_cover(struct pic *p)
{
	size_t cells = p->nv * 2 * p->ncells;

	p->cov = calloc(cells ? cells : 1, sizeof(*p->cov));
	if (!p->cov)
		return -1;
	for (size_t v = 0; v < p->nv; v++) {
		for (int t = 0; t < 2; t++) {
			const struct mbd_type_state *ts = type_state(p, v, t);
			const struct mbd_region **row = cov_row(p, v, t);

			for (size_t i = 0; i < ts->n_copied; i++) {
				const struct mbd_region *rg = &ts->regions[i];
				size_t a, b;

				if (!rg->size)
					continue;
				a = bound_index(p, rg->base);
				b = bound_index(p, mbd_region_end(rg));
				for (size_t k = a; k < b && k < p->ncells; k++)
					if (!row[k])
						row[k] = rg;
			}
		}
	}
	return 0;
}

static enum cell_kind classify(const struct mbd_region *base,
			       const struct mbd_region *var)
{
	if (!base && !var)
		return CELL_SAME;
	if (!var)
		return CELL_LOST;
	if (!base)
		return CELL_EXTRA;
	if (base->flags != var->flags || base->nid != var->nid)
		return CELL_ATTRS;
	if (base->base != var->base || base->size != var->size)
		return CELL_SPLIT;
	return CELL_SAME;
}

/* "returned: reference -12, zhou-2025 -12 (BUG)", WARN counts when any. */
static void results(const struct pic *p, char *buf, size_t n)
{
	size_t used = 0;

	used += (size_t)snprintf(buf, n, "returned:");
	for (size_t v = 0; v < p->nv && used < n; v++) {
		const struct mbd_result *res = mbd_runner_result(p->r, v);
		const struct mbd_state *st = mbd_runner_after(p->r, v);

		if (res->panicked)
			used += (size_t)snprintf(buf + used, n - used, "%s %s panicked",
						 v ? "," : "", mbd_runner_variant(p->r, v)->name);
		else
			used += (size_t)snprintf(buf + used, n - used, "%s %s %" PRId64
						 " (0x%" PRIx64 ")", v ? "," : "",
						 mbd_runner_variant(p->r, v)->name,
						 res->ret, (uint64_t)res->ret);
		if (st->warnings && used < n)
			used += (size_t)snprintf(buf + used, n - used, " %" PRIu64 " WARN",
						 st->warnings);
	}
}

static void header(const struct pic *p, const struct mbd_trace *t,
		   const struct mbd_verdict *v, const char *input,
		   const char *title)
{
	char buf[1200], op[1024];
	double y = MARGIN + 16;
	size_t shown = v->divergent ? v->op_index + 1 : v->ops_run;

	text(p, MARGIN, y, "class=\"title\"", title);
	y += LINE_H + 4;
	snprintf(buf, sizeof(buf), "input: %s", input);
	text(p, MARGIN, y, "class=\"info\"", buf);
	y += LINE_H;
	if (shown && shown <= t->n_ops) {
		mbd_text_format_op(op, sizeof(op), &t->ops[shown - 1]);
		snprintf(buf, sizeof(buf), "state after op %zu of %zu: %s", shown,
			 t->n_ops, op);
	} else {
		snprintf(buf, sizeof(buf), "state at boot (no op run of %zu)", t->n_ops);
	}
	text(p, MARGIN, y, "class=\"info\"", buf);
	y += LINE_H;
	results(p, buf, sizeof(buf));
	text(p, MARGIN, y, "class=\"info\"", buf);
	y += LINE_H;
	if (v->divergent || v->baseline_fault) {
		snprintf(buf, sizeof(buf), "%s: %.*s", mbd_class_name(v->cls),
			 (int)sizeof(v->detail), v->detail);
		text(p, MARGIN, y, "class=\"info\"", buf);
	}
}

static void axis(const struct pic *p)
{
	double y = p->rows_top - 10;

	for (size_t i = 0; i < p->nb; i++) {
		double x = p->x0 + (double)i * p->cell;
		char lab[24];

		fprintf(p->out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\"/>\n", x, y + 4, x, p->rows_bottom);
		snprintf(lab, sizeof(lab), "0x%" PRIx64, p->bound[i]);
		fprintf(p->out, "<text class=\"addr\" transform=\"translate(%.1f %.1f) "
			"rotate(-60)\">%s</text>\n", x + 3, y, lab);
	}
}

static void op_band(const struct pic *p, const struct mbd_op *op)
{
	uint64_t lo, hi;
	double a, b;

	if (!op_range(op, &lo, &hi) || !p->ncells)
		return;
	a = xpos(p, lo);
	b = xpos(p, hi);
	fprintf(p->out, "<rect class=\"op\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\"/>\n", a, p->rows_top, b - a,
		p->rows_bottom - p->rows_top);
}

/* "memory[] reserved[]": the region arrays of variant v that lie in rg. */
static void arrays_in(const struct pic *p, size_t v, const struct mbd_region *rg,
		      char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int t = 0; t < 2 && used < n; t++) {
		const struct mbd_type_state *ts = type_state(p, v, t);

		if (ts->regions_static || ts->regions_slab ||
		    ts->regions_pa < rg->base || ts->regions_pa >= mbd_region_end(rg))
			continue;
		used += (size_t)snprintf(buf + used, n - used, "%s%s[]", used ? " " : "",
					 type_names[t]);
	}
}

static void region(const struct pic *p, size_t v, int type, size_t idx,
		   const struct mbd_region *rg, double y)
{
	double a = xpos(p, rg->base), b = xpos(p, mbd_region_end(rg));
	char sz[32], arr[40], note[64], tip[240];
	const char *cls = type ? "rsv" : "mem";
	size_t used = 0;

	mbd_svg_human_size(sz, sizeof(sz), rg->size);
	if (rg->flags & MBD_FLAG_NOMAP)
		cls = type ? "rsv nomap" : "mem nomap";
	/* second line: whose region array lives here, and any flags */
	arrays_in(p, v, rg, arr, sizeof(arr));
	note[0] = '\0';
	if (type && arr[0])
		used += (size_t)snprintf(note, sizeof(note), "%s", arr);
	if (rg->flags)
		snprintf(note + used, sizeof(note) - used, "%sflags 0x%x",
			 used ? " " : "", (unsigned)rg->flags);
	snprintf(tip, sizeof(tip), "%s[%zu] 0x%" PRIx64 "-0x%" PRIx64 " size 0x%"
		 PRIx64 " (%s) flags 0x%x nid %d%s%s", type_names[type], idx,
		 rg->base, mbd_region_end(rg) - 1, rg->size, sz,
		 (unsigned)rg->flags, (int)rg->nid, arr[0] ? ", holds " : "", arr);
	fprintf(p->out, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%d\"><title>", cls, a, y, b - a, ROW_H);
	mbd_svg_esc(p->out, tip);
	fputs("</title></rect>\n", p->out);
	if (note[0] && b - a < 5.5 * (double)strlen(note))
		note[0] = '\0';
	if (b - a >= 8.0 * (double)strlen(sz))
		text(p, (a + b) / 2, y + (note[0] ? 12.0 : ROW_H / 2.0 + 4), "class=\"size\"", sz);
	if (note[0])
		text(p, (a + b) / 2, y + ROW_H - 4.0, "class=\"flags\"", note);
}

static const char *kind_word(enum cell_kind k)
{
	switch (k) {
	case CELL_LOST: return "lost";
	case CELL_EXTRA: return "extra";
	case CELL_ATTRS: return "attrs";
	case CELL_SPLIT: return "split";
	default: return "";
	}
}

/* One overlay over cells [a, b) of a variant's row. */
static void overlay(const struct pic *p, enum cell_kind k, size_t a, size_t b,
		    double y)
{
	double x = p->x0 + (double)a * p->cell, w = (double)(b - a) * p->cell;

	fprintf(p->out, "<rect class=\"diff %s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%d\"><title>%s: differs from the baseline here</title>"
		"</rect>\n", kind_word(k), x + 1, y - 2, w - 2, ROW_H + 4,
		kind_word(k));
	if (w >= 34)
		text(p, x + w / 2, y - 4, "class=\"diff tag\"", kind_word(k));
}

/* Red overlays where row (v, type) differs from the baseline's row. */
static size_t overlays(const struct pic *p, size_t v, int type, double y)
{
	const struct mbd_region **base = cov_row(p, 0, type);
	const struct mbd_region **var = cov_row(p, v, type);
	size_t runs = 0, start = 0;
	enum cell_kind cur = CELL_SAME;

	for (size_t k = 0; k <= p->ncells; k++) {
		enum cell_kind ck = k < p->ncells ? classify(base[k], var[k]) : CELL_SAME;
		/* a new variant region starts a new outline, except in a hole */
		bool cut = ck != cur ||
			   (k < p->ncells && ck != CELL_LOST && var[k] != var[start]);

		if (!cut)
			continue;
		if (cur != CELL_SAME) {
			overlay(p, cur, start, k, y);
			runs++;
		}
		cur = ck;
		start = k;
	}
	return runs;
}

static bool counters_differ(const struct mbd_type_state *a,
			    const struct mbd_type_state *b)
{
	return a->cnt != b->cnt || a->max != b->max || a->total_size != b->total_size;
}

static void row_label(const struct pic *p, size_t v, int type, double y)
{
	const struct mbd_type_state *ts = type_state(p, v, type);
	const struct mbd_result *res = mbd_runner_result(p->r, v);
	const struct mbd_result *res0 = mbd_runner_result(p->r, 0);
	bool cdiff = v && counters_differ(ts, type_state(p, 0, type));
	char buf[240];

	snprintf(buf, sizeof(buf), "%s%s", mbd_runner_variant(p->r, v)->name,
		 v ? "" : " (baseline)");
	text(p, MARGIN, y + 12, "class=\"vname\"", buf);
	snprintf(buf, sizeof(buf), "cnt %" PRIu64 " max %" PRIu64 " total 0x%" PRIx64
		 "%s", ts->cnt, ts->max, ts->total_size,
		 ts->n_copied < ts->cnt ? " (not all copied)" : "");
	text(p, MARGIN, y + ROW_H - 2, cdiff ? "class=\"diff counters\"" :
	     "class=\"counters\"", buf);
	if (type == 0 && res->panicked) {
		bool pdiff = v && (!res0->panicked ||
				   strcmp(res0->panic_msg, res->panic_msg) != 0);

		snprintf(buf, sizeof(buf), "panicked: %.150s", res->panic_msg);
		text(p, p->x0, y - 4, pdiff ? "class=\"diff panic\"" : "class=\"panic\"",
		     buf);
	}
}

static double rows(const struct pic *p, int type, double y)
{
	text(p, MARGIN, y + 15, "class=\"group\"", type_names[type]);
	y += GROUP_H;
	for (size_t v = 0; v < p->nv; v++) {
		const struct mbd_type_state *ts = type_state(p, v, type);

		fprintf(p->out, "<rect class=\"lane\" x=\"%.1f\" y=\"%.1f\" "
			"width=\"%.1f\" height=\"%d\"/>\n", p->x0, y,
			(double)p->ncells * p->cell, ROW_H);
		for (size_t i = 0; i < ts->n_copied; i++)
			if (ts->regions[i].size)
				region(p, v, type, i, &ts->regions[i], y);
		if (v)
			overlays(p, v, type, y);
		row_label(p, v, type, y);
		y += ROW_H + ROW_GAP;
	}
	return y;
}

static void legend(const struct pic *p, bool have_op)
{
	double y = p->rows_bottom + 22, x = MARGIN;
	static const struct { const char *cls, *what; } keys[] = {
		{ "mem", "memory region" },
		{ "rsv", "reserved region" },
		{ "mem nomap", "nomap" },
		{ "key-lost", "lost: in the baseline, not here" },
		{ "key-extra", "extra / attrs: here, not in the baseline (or other flags, node)" },
		{ "key-split", "split: same bytes, other region bounds" },
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		fprintf(p->out, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"18\" "
			"height=\"12\"/>\n", keys[i].cls, x, y - 10);
		text(p, x + 24, y, "class=\"legend\"", keys[i].what);
		x += 40 + 6.2 * (double)strlen(keys[i].what);
		if (x > p->width - 300) {
			x = MARGIN;
			y += 18;
		}
	}
	y += 20;
	text(p, MARGIN, y, "class=\"legend\"",
	     have_op ? "yellow band: the range the op named. Axis: every interval "
		       "between two boundaries has the same width (not to scale)."
		     : "Axis: every interval between two boundaries has the same "
		       "width (not to scale).");
}

static void layout(struct pic *p, double header_h)
{
	p->x0 = MARGIN + LABEL_W;
	p->cell = p->ncells ? PLOT_W / (double)p->ncells : PLOT_W;
	if (p->cell < CELL_MIN)
		p->cell = CELL_MIN;
	if (p->cell > CELL_MAX)
		p->cell = CELL_MAX;
	/* the longest label, at 60 degrees, in 10px monospace */
	p->axis_h = 24 + 6.1 * 0.87 * (p->nb ? (double)strlen("0x") +
		(double)snprintf(NULL, 0, "%" PRIx64, p->bound[p->nb - 1]) : 0);
	p->rows_top = header_h + p->axis_h;
	p->rows_bottom = p->rows_top + 2.0 * (GROUP_H + (double)p->nv * (ROW_H + ROW_GAP));
	p->width = p->x0 + (double)p->ncells * p->cell + RIGHT_PAD;
	if (p->width < 1100)
		p->width = 1100;
	p->height = p->rows_bottom + LEGEND_H;
}

/* The first line: the signature, or the ok line of a clean run. */
static int title_of(const struct mbd_runner *r, const struct mbd_trace *t,
		    const struct mbd_verdict *v, char *buf, size_t n)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f;

	if (v->divergent) {
		snprintf(buf, n, "%.*s", (int)sizeof(v->signature), v->signature);
		return 0;
	}
	f = open_memstream(&s, &len);
	if (!f)
		return -1;
	mbd_report_ok(f, r, t, v);
	if (fclose(f) != 0) {
		free(s);
		return -1;
	}
	while (len && s[len - 1] == '\n')
		s[--len] = '\0';
	snprintf(buf, n, "%s", s);
	free(s);
	return 0;
}

int mbd_svg_write(FILE *out, const struct mbd_runner *r,
		  const struct mbd_trace *t, const struct mbd_verdict *v,
		  const char *input)
{
	struct pic p = { .out = out, .r = r, .nv = mbd_runner_count(r) };
	size_t shown = v->divergent ? v->op_index + 1 : v->ops_run;
	const struct mbd_op *op = shown && shown <= t->n_ops ? &t->ops[shown - 1] : NULL;
	double header_h = MARGIN + 5 * LINE_H + 10, y;
	char title[400];
	uint64_t lo, hi;
	int rc = -1;

	if (title_of(r, t, v, title, sizeof(title)) || collect_bounds(&p, op) ||
	    fill_cover(&p))
		goto out;
	layout(&p, header_h);
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\">\n", p.width, p.height, p.width, p.height);
	fputs(mbd_svg_style, out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#fff\"/>\n",
		p.width, p.height);
	header(&p, t, v, input, title);
	op_band(&p, op);
	axis(&p);
	y = p.rows_top;
	for (int type = 0; type < 2; type++)
		y = rows(&p, type, y);
	if (!p.ncells)
		text(&p, p.x0, p.rows_top + 16, "class=\"info\"", "(no regions)");
	legend(&p, op_range(op, &lo, &hi));
	fputs("</svg>\n", out);
	rc = ferror(out) ? -1 : 0;
out:
	free(p.bound);
	free(p.cov);
	return rc;
}
