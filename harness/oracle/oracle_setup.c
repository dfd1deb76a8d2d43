// SPDX-License-Identifier: GPL-2.0
/* Making, resetting, copying and freeing an oracle (oracle_int.h its state). */
#include <stdlib.h>

#include "mbd_interval.h"
#include "mbd_oracle.h"
#include "oracle_int.h"

struct mbd_oracle *mbd_oracle_new(void)
{
	struct mbd_oracle *o = calloc(1, sizeof(*o));
	struct mbd_config cfg;

	if (!o)
		return NULL;
	mbd_iset_init(&o->t[MEM]);
	mbd_iset_init(&o->t[RSV]);
	mbd_iset_init(&o->scratch);
	if (mbd_iset_reserve(&o->t[MEM]) || mbd_iset_reserve(&o->t[RSV]) ||
	    mbd_iset_reserve(&o->scratch)) {
		mbd_oracle_free(o);
		return NULL;
	}
	mbd_config_default(&cfg);
	mbd_oracle_reset(o, &cfg);
	mbd_oracle_set_kver(o, 0);
	return o;
}

void mbd_oracle_set_kver(struct mbd_oracle *o, uint32_t kver)
{
	o->rsrv_kern = !kver || kver >= MBD_KVER(6, 16);
	o->late_free = !kver || kver >= MBD_KVER(7, 1);
}

void mbd_oracle_free(struct mbd_oracle *o)
{
	if (!o)
		return;
	mbd_iset_free(&o->t[MEM]);
	mbd_iset_free(&o->t[RSV]);
	mbd_iset_free(&o->scratch);
	free(o);
}

void mbd_oracle_reset(struct mbd_oracle *o, const struct mbd_config *cfg)
{
	mbd_iset_clear(&o->t[MEM]);
	mbd_iset_clear(&o->t[RSV]);
	o->total[MEM] = o->total[RSV] = 0;
	o->resize = cfg->resize;
	o->slab = cfg->slab;
	o->bottom_up = cfg->bottom_up;
	o->mirror_cfg = cfg->mirror;
	o->movable = cfg->movable;
	o->has_mirror = false;
	o->limit = mbd_orc_clamp_limit(cfg->limit);
	o->broken = false;
}

int mbd_oracle_copy(struct mbd_oracle *dst, const struct mbd_oracle *src)
{
	bool rsrv_kern = dst->rsrv_kern, late_free = dst->late_free;

	if (mbd_iset_copy(&dst->t[MEM], &src->t[MEM]) ||
	    mbd_iset_copy(&dst->t[RSV], &src->t[RSV])) {
		dst->broken = true;
		return -1;
	}
	dst->total[MEM] = src->total[MEM];
	dst->total[RSV] = src->total[RSV];
	dst->resize = src->resize;
	dst->slab = src->slab;
	dst->bottom_up = src->bottom_up;
	dst->mirror_cfg = src->mirror_cfg;
	dst->movable = src->movable;
	dst->has_mirror = src->has_mirror;
	dst->limit = src->limit;
	dst->broken = src->broken;
	dst->trim_wrapped = src->trim_wrapped;
	/* the contract stays dst's own */
	dst->rsrv_kern = rsrv_kern;
	dst->late_free = late_free;
	return 0;
}
