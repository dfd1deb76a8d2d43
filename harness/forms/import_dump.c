// SPDX-License-Identifier: GPL-2.0
/* MEMBLOCK configuration dumps: the starting state, or `expect` checkpoints. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "import_int.h"

struct mbd_expect *mbd_imp_dump_slot(struct ictx *x, struct dump *d, const struct line *l)
{
	struct mbd_expect *e;

	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 256;
		struct mbd_expect *r;

		if (d->n >= MBD_TEXT_MAX_OPS) {
			mbd_imp_fail(x, l, "a dump of more than %u regions", MBD_TEXT_MAX_OPS);
			return NULL;
		}
		r = realloc(d->reg, cap * sizeof(*r));
		if (!r) {
			x->body.oom = 1;
			return NULL;
		}
		d->reg = r;
		d->cap = cap;
	}
	e = &d->reg[d->n++];
	memset(e, 0, sizeof(*e));
	e->line = l->no;
	return e;
}

/* One dump line (source line l); false if the line is not part of a dump. */
static bool dump_line(struct ictx *x, struct dump *d, const struct line *l)
{
	const char *s = l->s;
	const char *p, *q;
	uint64_t v, a, b, sz;
	int t;

	if (mbd_imp_starts(s, "memory size = ")) {
		if (!mbd_imp_hexnum(s + 14, &d->total[0], &p))
			return false;
		d->have_total[0] = true;
		p = strstr(p, "reserved size = ");
		if (p && mbd_imp_hexnum(p + 16, &d->total[1], &p))
			d->have_total[1] = true;
		return true;
	}
	t = mbd_imp_starts(s, "memory") ? 0 : mbd_imp_starts(s, "reserved") ? 1 : -1;
	if (t < 0)
		return false;
	p = s + (t ? 8 : 6);
	if (mbd_imp_starts(p, ".cnt")) {
		p = mbd_imp_skip_ws(p + 4);
		if (*p != '=' || !mbd_imp_hexnum(mbd_imp_skip_ws(p + 1), &v, &p))
			return false;
		d->cnt[t] = v;
		d->have_cnt[t] = true;
		return true;
	}
	/* "[0xN]" then the range; the ']' is searched from the '[' (a parsed
	 * "[A]B" leaves p past B, where there may be no ']' at all) */
	if (!mbd_imp_starts(p, "[0x") && !mbd_imp_pair(p, "[", "]", &v, &v, &q))
		return false;
	q = strchr(p, ']');
	if (!q)
		return false;
	p = q + 1;
	p = mbd_imp_skip_ws(p);
	if (!mbd_imp_pair(p, "[", "-", &a, &b, &p) || *p != ']')
		return false;
	p = mbd_imp_skip_ws(p + 1);
	if (*p == ',')
		p = mbd_imp_skip_ws(p + 1);
	if (!mbd_imp_hexnum(p, &sz, &p))
		return false;
	{
		struct mbd_expect *e = mbd_imp_dump_slot(x, d, l);

		if (!e)
			return true;
		e->what = MBD_EXPECT_REGION;
		e->type = (uint32_t)t;
		e->base = a;
		e->size = sz;   /* the printed size is unambiguous, the end is not */
		/* a line cut short (wrapped at 80 columns) still parses: its
		 * size then disagrees with its range, in either convention */
		if (sz != b - a + 1 && sz != b - a && !d->damaged)
			d->damaged = s;
		if ((q = strstr(p, "on node ")) && mbd_imp_nid(x, l->no, q + 8, &e->nid, &q) == 0)
			e->have |= MBD_EXPECT_HAS_NID;
		if ((q = strstr(p, "flags: ")) && mbd_imp_hexnum(q + 7, &v, &q)) {
			if (v > UINT32_MAX)
				mbd_imp_fail(x, l, "flags: 0x%llx out of range: at most 32 bits",
					     (ull)v);
			e->flags = (uint32_t)v;
			/* RSRV_KERN (v6.16+) a trace writes with memblock_reserve_kern */
			if (v & ~(uint64_t)(0x1f | MBD_FLAG_RSRV_KERN))
				d->unknown_flags++; /* KHO_SCRATCH, RSRV_HUGETLB */
			else
				e->have |= MBD_EXPECT_HAS_FLAGS;
		}
	}
	return true;
}

size_t mbd_imp_live_regions(const struct dump *d, int t, uint64_t *sum)
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
 * Dump -> starting state (ops) when nothing ran yet, then checkpoints. A
 * dump whose region lines cannot be read (a log wrapped or cut) is an
 * error: a checkpoint is never dropped silently.
 */
void mbd_imp_finish_dump(struct ictx *x, struct dump *d, const struct line *first)
{
	mbd_imp_note_memnodes(x, d);
	/* a debugfs view shows one array (the other's cnt is not known) */
	unsigned mask = d->have_cnt[0] != d->have_cnt[1] ? (d->have_cnt[1] ? 2u : 1u) : 3u;
	/* nothing ran yet but the starting state of the other array (two
	 * debugfs tables pasted alone): this one's regions join it */
	bool init = x->ops == x->init_ops && !(x->init_mask & mask), wrote = false;
	uint64_t sum;

	if (d->damaged) {
		mbd_imp_fail(x, first, "a region line of this dump does not add up (wrapped or cut?): "
			     "\"%.80s\"", d->damaged);
		return;
	}
	for (int t = 0; t < 2; t++) {
		if (d->have_cnt[t] && d->cnt[t] > 1 && !mbd_imp_live_regions(d, t, &sum)) {
			mbd_imp_fail(x, first, "the dump announces %llu %s regions but none of its "
				     "region lines can be read (wrapped or cut?)", (ull)d->cnt[t],
				     t ? "reserved" : "memory");
			return;
		}
	}
	if (init) {
		mbd_imp_printf(&x->body, "# the dump at %s:%u is the starting state: its regions as calls\n",
			  first->src, first->no);
		mbd_imp_emit_state(x, &x->body, d, mask);
		x->init_mask |= mask;
		x->init_ops = x->ops;
	} else {
		if (!x->dumps_seen)
			mbd_imp_infer_pre(x, d, first);
		mbd_imp_infer_nomap(x, d);
		mbd_imp_infer_nodes(x, d);
	}
	x->dumps_seen++;
	if (!x->ops) {
		mbd_imp_printf(&x->body, "# (empty dump and no op before it: nothing to check)\n");
		return;
	}
	mbd_imp_printf(&x->body, "# checkpoint: %s:%u\n", first->src, first->no);
	if (d->unknown_flags)
		mbd_imp_printf(&x->body, "# (%zu regions carry flags a trace cannot write, v6.16+ "
			       "KHO_SCRATCH 0x40 or RSRV_HUGETLB 0x80: their flags are not checked)\n",
			       d->unknown_flags);
	for (int t = 0; t < 2; t++) {
		struct mbd_expect h;
		size_t live = mbd_imp_live_regions(d, t, &sum), idx = 0;

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
			mbd_imp_printf(&x->body, "# (%s size 0x%llx is not the sum of its regions 0x%llx: "
				  "memblock_trim_memory leaves total_size stale, which calls that "
				  "rebuild the regions cannot reproduce; not checked)\n",
				  t ? "reserved" : "memory", (ull)d->total[t], (ull)sum);
		}
		mbd_imp_emit_expect(x, &h);
		wrote = true;
		for (size_t i = 0; i < d->n; i++) {
			struct mbd_expect e = d->reg[i];

			if (e.type != (uint32_t)t || !e.size)
				continue;
			e.index = (uint32_t)idx++;
			mbd_imp_emit_expect(x, &e);
		}
	}
	if (!wrote) {
		mbd_imp_fail(x, first, "a checkpoint with nothing to check: no region of the dump "
			     "can be read");
		return;
	}
	x->st->checkpoints++;
}

size_t mbd_imp_dump(struct ictx *x, struct line *ls, size_t n, size_t i)
{
	struct line *l = &ls[i];
	struct dump *d = calloc(1, sizeof(*d));
	size_t j = i + 1;

	if (!d) {
		x->body.oom = 1;
		return n;
	}
	mbd_imp_comment(x, l, "");
	while (j < n && (ls[j].cls == L_BLANK || ls[j].cls == L_OTHER) &&
	       (ls[j].cls == L_BLANK || dump_line(x, d, &ls[j]))) {
		if (ls[j].cls != L_BLANK)
			mbd_imp_comment(x, &ls[j], "");
		ls[j].done = 1;
		j++;
	}
	mbd_imp_finish_dump(x, d, l);
	x->st->dumps++;
	x->st->known += j - i - 1;
	free(d->reg);
	free(d);
	return j - 1;
}
