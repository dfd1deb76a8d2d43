// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle's whole state as bytes, for `mbdiff explore`: two searches
 * that reach the same variant states by different calls must also agree on
 * what the oracle expects next before they may be merged.
 */

#include "oracle_int.h"

static void feed_set(const struct mbd_iset *s, mbd_oracle_feed feed, void *ctx)
{
	uint64_t n = s->n;

	feed(ctx, &n, sizeof(n));
	for (size_t i = 0; i < s->n; i++) {
		const struct mbd_ival *v = &s->v[i];
		uint64_t w[3] = { v->start, v->end,
				  (uint64_t)v->flags << 32 | (uint32_t)v->nid };

		feed(ctx, w, sizeof(w));
	}
}

void mbd_oracle_digest(const struct mbd_oracle *o, mbd_oracle_feed feed,
		       void *ctx)
{
	uint64_t w[4];

	feed_set(&o->t[MEM], feed, ctx);
	feed_set(&o->t[RSV], feed, ctx);
	w[0] = o->total[MEM];
	w[1] = o->total[RSV];
	w[2] = o->limit;
	w[3] = (uint64_t)o->resize | (uint64_t)o->slab << 1 |
	       (uint64_t)o->bottom_up << 2 | (uint64_t)o->mirror_cfg << 3 |
	       (uint64_t)o->movable << 4 | (uint64_t)o->has_mirror << 5 |
	       (uint64_t)o->broken << 6 | (uint64_t)o->rsrv_kern << 7 |
	       (uint64_t)o->late_free << 8;
	feed(ctx, w, sizeof(w));
}
