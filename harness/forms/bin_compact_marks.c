// SPDX-License-Identifier: GPL-2.0
/*
 * The compact encoder's marks (mbd_bin_marks): what a reader of its output
 * knew after each call, so that the next encode with that output as its
 * hint starts at the first call it changes.
 */
#include <stdlib.h>

#include "bin_compact_int.h"

struct mbd_bin_marks *mbd_bin_marks_new(void)
{
	return calloc(1, sizeof(struct mbd_bin_marks));
}

void mbd_bin_marks_free(struct mbd_bin_marks *mk)
{
	free(mk);
}

/* After call i (0: the config), d read up to end. */
void mbd_compact_mark(struct mbd_bin_marks *mk, size_t i, const struct sdec *d,
		      size_t end)
{
	if (!mk)
		return;
	ring_counts(d, mk->counts[i]);
	mk->ends[i] = end;
}

static void copy_ring(struct ring *dst, const struct ring *src, uint32_t n)
{
	memcpy(dst->v, src->v, n * sizeof(src->v[0]));
	dst->n = n;
}

/* The marks of an encoding of len bytes, calls calls, whose reader is d. */
void mbd_compact_mark_done(struct mbd_bin_marks *mk, const struct mbd_config *cfg,
			   size_t len, size_t calls, const struct sdec *d)
{
	if (!mk)
		return;
	mk->valid = !wrapped(d);
	if (!mk->valid)
		return; /* the first values are gone */
	mk->cfg = *cfg;
	mk->len = len;
	mk->calls = calls;
	copy_ring(&mk->d.ends_low, &d->ends_low, d->ends_low.n);
	copy_ring(&mk->d.ends_all, &d->ends_all, d->ends_all.n);
	copy_ring(&mk->d.lens, &d->lens, d->lens.n);
}

/* How many of t's first calls hint shares (its marks and calls), 0 if the
 * marks are not of a hint like it. */
size_t mbd_compact_shared_calls(const struct mbd_trace *t,
				const struct mbd_bin_marks *mk,
				const struct mbd_op *ops, size_t hint_len)
{
	size_t k = 0, n;

	if (!mk || !ops || !mk->valid || mk->len != hint_len ||
	    !same_config(&mk->cfg, &t->cfg))
		return 0;
	n = t->n_ops < mk->calls ? t->n_ops : mk->calls;
	while (k < n && op_same(&t->ops[k], &ops[k]))
		k++;
	return k;
}

/* h as a reader of hint that has read its config and k calls. */
void mbd_compact_resume(struct sdec *h, const struct mbd_bin_marks *mk, size_t k,
			const uint8_t *hint, size_t hint_len)
{
	h->r.p = hint;
	h->r.n = hint_len;
	h->r.pos = mk->ends[k];
	copy_ring(&h->ends_low, &mk->d.ends_low, mk->counts[k][RF_LOW]);
	copy_ring(&h->ends_all, &mk->d.ends_all, mk->counts[k][RF_ALL]);
	copy_ring(&h->lens, &mk->d.lens, mk->counts[k][RF_LENS]);
}
