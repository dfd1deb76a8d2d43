// SPDX-License-Identifier: GPL-2.0
/*
 * Trace -> the shortest structured bytes we can find: each operand as an
 * extreme, an earlier endpoint or length (+- a byte or a page), a grid
 * value, else a literal. Every choice is run through the decoder's own
 * producers against the decoder's own rings, and every op is decoded back
 * before the next is written, so the output decodes to exactly the trace
 * or the encoder fails. Short inputs matter to the op mutator
 * (mbd_mutate.h): libFuzzer's -max_len and len_control count bytes, and a
 * literal range op takes 13 bytes where reuse takes 3 to 5.
 */
#include "bin_compact_int.h"

/* The filters empty (they fill from the rings when next asked). */
static void enc_reset(struct enc *e)
{
	memset(e->rf, 0, sizeof(e->rf));
	e->trust = false;
}

/* d from the start of data. */
static void enc_start(struct enc *e, const uint8_t *data, size_t size,
		      struct mbd_config *c)
{
	mbd_bin_start(&e->d, data, size, MBD_DECODER_STRUCTURED, c);
	enc_reset(e);
}

/* Decode bytes [from, o->n) as the next op: it must be exactly want. */
static bool decodes_to(struct sdec *d, const struct out *o, size_t from,
		       const struct mbd_op *want)
{
	struct mbd_op got;

	d->r.p = o->p + from;
	d->r.n = o->n - from;
	d->r.pos = 0;
	mbd_bin_next_op(d, MBD_DECODER_STRUCTURED, &got);
	return d->r.pos == d->r.n && op_same(&got, want);
}

static bool same_ring_pushes(const struct ring *a, const struct ring *b,
			     uint32_t from)
{
	if (a->n != b->n || a->n > N_RING)
		return false;
	return memcmp(&a->v[from], &b->v[from], (a->n - from) * sizeof(a->v[0])) == 0;
}

/* a and b had equal rings at counts n: did the last call push the same? */
static bool same_pushes(const struct sdec *a, const struct sdec *b,
			const uint32_t n[RF_N])
{
	return same_ring_pushes(&a->ends_low, &b->ends_low, n[RF_LOW]) &&
	       same_ring_pushes(&a->ends_all, &b->ends_all, n[RF_ALL]) &&
	       same_ring_pushes(&a->lens, &b->lens, n[RF_LENS]);
}

/* e as a reader of o's bytes, which hold the config and calls calls. */
static void rebuild(struct enc *e, const struct out *o, size_t calls)
{
	struct mbd_config got;
	struct mbd_op op;

	enc_start(e, o->p, o->n, &got);
	for (size_t i = 0; i < calls; i++)
		mbd_bin_next_op(&e->d, MBD_DECODER_STRUCTURED, &op);
}

/*
 * e as the hint's reader h was at counts n, before the call it read last
 * (o's calls calls): pushes only append below N_RING, so dropping them
 * undoes them; past it (a limit and 64 ranges) e reads o again.
 */
static void take_back(struct enc *e, const struct sdec *h, const uint32_t n[RF_N],
		      const struct out *o, size_t calls)
{
	if (wrapped(h)) {
		rebuild(e, o, calls);
		return;
	}
	e->d = *h;
	e->d.ends_low.n = n[RF_LOW];
	e->d.ends_all.n = n[RF_ALL];
	e->d.lens.n = n[RF_LENS];
	enc_reset(e);
}

/* Take back the pushes of the call e decoded since counts n; o holds the
 * calls before it (calls of them). */
static void undo_call(struct enc *e, const uint32_t n[RF_N], const struct out *o,
		      size_t calls)
{
	struct ring *g[RF_N] = { &e->d.ends_low, &e->d.ends_all, &e->d.lens };

	if (wrapped(&e->d)) {
		rebuild(e, o, calls);
		return;
	}
	for (unsigned k = 0; k < RF_N; k++) {
		g[k]->n = n[k];
		/* the filter keeps the values: a superset is fine */
		if (e->rf[k].seen > n[k])
			e->rf[k].seen = n[k];
	}
}

/* Op into o at e's rings (after calls calls), decoded back; unchecked
 * candidates first. */
static bool put_call(struct out *o, struct enc *e, const struct mbd_op *op,
		     size_t calls)
{
	size_t from = o->n;
	uint32_t n[RF_N];

	ring_counts(&e->d, n);
#ifndef MBD_COMPACT_NO_SHORTCUTS /* test_compact_paths: checked only */
	bool ok;

	e->trust = true;
	ok = mbd_compact_put_op(o, e, op) && !o->full && decodes_to(&e->d, o, from, op);
	e->trust = false;
	if (ok)
		return true;
#endif
	o->n = from;
	o->full = false;
	undo_call(e, n, o, calls);
	return mbd_compact_put_op(o, e, op) && !o->full && decodes_to(&e->d, o, from, op);
}

static long encode(const struct mbd_trace *t, bool normal, uint8_t *buf,
		   size_t cap, size_t *ends, const uint8_t *hint, size_t hint_len,
		   size_t fit, size_t *n_fit, const struct mbd_bin_marks *hint_marks,
		   const struct mbd_op *hint_ops, struct mbd_bin_marks *marks);

long mbd_bin_encode_compact(const struct mbd_trace *t, uint8_t *buf, size_t cap,
			    size_t *ends)
{
	size_t n;

	return encode(t, false, buf, cap, ends, NULL, 0, SIZE_MAX, &n, NULL, NULL, NULL);
}

long mbd_bin_encode_compact_from(const struct mbd_trace *t, uint8_t *buf,
				 size_t cap, size_t *ends, const uint8_t *hint,
				 size_t hint_len)
{
	size_t n;

	return encode(t, false, buf, cap, ends, hint, hint_len, SIZE_MAX, &n,
		      NULL, NULL, NULL);
}

long mbd_bin_encode_compact_normal(const struct mbd_trace *t, uint8_t *buf,
				   size_t cap, size_t *ends, const uint8_t *hint,
				   size_t hint_len, size_t fit, size_t *n_fit,
				   const struct mbd_bin_marks *hint_marks,
				   const struct mbd_op *hint_ops,
				   struct mbd_bin_marks *marks)
{
	if (marks == hint_marks)
		marks = NULL;
	return encode(t, true, buf, cap, ends, hint, hint_len, fit, n_fit,
		      hint_marks, hint_ops, marks);
}

/*
 * The encoding of a call depends only on the call and the rings before it.
 * So, reading the hint along (h), a call equal to the hint's call at the
 * same position keeps the hint's bytes for as long as the rings agree: the
 * common prefix, and after a call changed in place (a node, flags, kind of
 * the same shape, the config but not the limit) the calls after it. Once
 * a call pushes other values (one inserted, deleted or moved), the rings
 * never agree again and every later call is encoded here. normal: t's ops
 * are normalized already.
 */
static long encode(const struct mbd_trace *t, bool normal, uint8_t *buf,
		   size_t cap, size_t *ends, const uint8_t *hint, size_t hint_len,
		   size_t fit, size_t *n_fit, const struct mbd_bin_marks *hint_marks,
		   const struct mbd_op *hint_ops, struct mbd_bin_marks *marks)
{
	struct enc e;
	struct sdec h;
	struct mbd_config got;
	struct out o = { buf, 0, cap, false };
	uint8_t hdr[3] = { 0, 0, 0 };
	/* live: h's rings are a reader of buf's; cur: so are e's (else only
	 * h is up to date) */
	bool live = false, cur = true;
	size_t i = 0, k = 0;

	if (marks)
		marks->valid = false;
	if (t->n_ops > MBD_FUZZ_MAX_OPS || mbd_bin_header(&t->cfg, hdr))
		return -1;
	if (hint && normal)
		k = mbd_compact_shared_calls(t, hint_marks, hint_ops, hint_len);
	if (k) {
		/* the config and the first k calls as the hint has them, and
		 * h where reading them would leave it */
		mbd_compact_resume(&h, hint_marks, k, hint, hint_len);
		live = true;
		cur = false;
		put(&o, hint, hint_marks->ends[k]);
		if (o.full)
			return -1;
		for (i = 0; i <= k; i++) {
			if (ends)
				ends[i] = hint_marks->ends[i];
			if (marks) {
				memcpy(marks->counts[i], hint_marks->counts[i],
				       sizeof(marks->counts[i]));
				marks->ends[i] = hint_marks->ends[i];
			}
			if (hint_marks->ends[i] > fit) {
				/* cut as below: the config and the calls
				 * before call i - 1 (the config alone, even
				 * past fit, when i is 0) */
				size_t c = i ? i - 1 : 0;

				*n_fit = c;
				mbd_compact_mark_done(marks, &t->cfg,
						      hint_marks->ends[c], c, &h);
				return (long)hint_marks->ends[c];
			}
		}
		i = k;
		goto calls;
	}
	if (hint) {
		mbd_bin_start(&h, hint, hint_len, MBD_DECODER_STRUCTURED, &got);
		live = h.r.pos <= hint_len && got.limit == t->cfg.limit;
	}
	if (live && same_config(&got, &t->cfg)) {
		/* the hint's header bytes as they are */
		put(&o, hint, h.r.pos);
		cur = false;
	} else {
		/* empty rings for the limit operand, then the real header */
		enc_start(&e, hdr, 2, &got);
		put(&o, hdr, 3);
		if (t->cfg.limit != MBD_ALLOC_ANYWHERE &&
		    !mbd_compact_put_addr(&o, &e, t->cfg.limit))
			return -1;
		if (o.full)
			return -1;
		enc_start(&e, buf, o.n, &got);
		if (e.d.r.pos != o.n || !same_config(&got, &t->cfg))
			return -1;
	}
	if (o.full)
		return -1;
	if (ends)
		ends[0] = o.n;
	mbd_compact_mark(marks, 0, cur ? &e.d : &h, o.n);
	*n_fit = 0;
	if (o.n > fit) {
		mbd_compact_mark_done(marks, &t->cfg, o.n, 0, cur ? &e.d : &h);
		return (long)o.n;
	}
calls:
	for (; i < t->n_ops; i++) {
		struct mbd_op op = t->ops[i], hop;
		size_t from = o.n;
		uint32_t n[RF_N] = { 0, 0, 0 };
		bool kept = false;

		if (!normal)
			mbd_op_normalize(&op);
		if (op.kind >= MBD_OP__COUNT)
			return -1;
		if (live) {
			size_t hfrom = h.r.pos;

			ring_counts(&h, n);
			mbd_bin_next_op(&h, MBD_DECODER_STRUCTURED, &hop);
			/* a call cut short by the end reads zeros: not the hint's */
			live = h.r.pos <= hint_len;
			kept = live && op_same(&hop, &op);
			if (kept) {
				put(&o, hint + hfrom, h.r.pos - hfrom);
				if (o.full || (cur && !decodes_to(&e.d, &o, from, &op)))
					return -1;
			} else if (!cur) {
				take_back(&e, &h, n, &o, i);
				cur = true;
			}
		}
		if (!kept) {
			if (!put_call(&o, &e, &op, i))
				return -1;
			/* the same pushes: h again stands for a reader of buf */
			if (live && same_pushes(&e.d, &h, n))
				cur = false;
			else
				live = false;
		}
		if (ends)
			ends[i + 1] = o.n;
		mbd_compact_mark(marks, i + 1, cur ? &e.d : &h, o.n);
		if (o.n > fit) {
			*n_fit = i;
			mbd_compact_mark_done(marks, &t->cfg, from, i, cur ? &e.d : &h);
			return (long)from;
		}
	}
	*n_fit = t->n_ops;
	mbd_compact_mark_done(marks, &t->cfg, o.n, t->n_ops, cur ? &e.d : &h);
	return (long)o.n;
}
