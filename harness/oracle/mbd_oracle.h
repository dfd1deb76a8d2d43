/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The oracle: an independent model of what memblock's API promises, kept as
 * plain byte intervals with (flags, nid) and no arrays, no merging windows,
 * no two passes. One oracle follows one variant: it replays the same calls,
 * learns where that variant put its region arrays (from the snapshots), and
 * checks after every call that the variant's arrays cover exactly the bytes
 * the API contract says, and that the arrays are well formed.
 */
#ifndef MBD_ORACLE_H
#define MBD_ORACLE_H

#include <stdio.h>

#include "mbd_trace.h"
#include "mbd_variant.h"
#include "mbd_verdict.h"

struct mbd_oracle;

struct mbd_oracle_finding {
	enum mbd_class cls;    /* MBD_CLASS_NONE when all is well */
	enum mbd_where where;
	char detail[256];
	enum mbd_class text_min; /* detail written from this class up */
};

struct mbd_oracle *mbd_oracle_new(void);
void mbd_oracle_free(struct mbd_oracle *o);

/*
 * Judge by the contract of kernel version kver (MBD_KVER(major, minor) of
 * the variant's descriptor; 0 is the newest). New oracles judge as 0.
 */
void mbd_oracle_set_kver(struct mbd_oracle *o, uint32_t kver);

/*
 * dst takes src's model (its own contract version stays). For a variant
 * whose history equals src's variant's so far: the runner steps one oracle
 * for both. 0, or -1 when out of memory (dst is then marked broken).
 */
int mbd_oracle_copy(struct mbd_oracle *dst, const struct mbd_oracle *src);
/* Start over from the boot state (both types empty). */
void mbd_oracle_reset(struct mbd_oracle *o, const struct mbd_config *cfg);

/*
 * Apply op to the model and check the variant. before/after are the
 * variant's snapshots around the call, res its result. Array moves
 * (memblock_double_array) are read from before/after. Returns the class
 * of the worst violation (MBD_CLASS_NONE if none) and fills f.
 * Must not be called for a call that panicked.
 */
enum mbd_class mbd_oracle_step(struct mbd_oracle *o, const struct mbd_op *op,
			       const struct mbd_state *before,
			       const struct mbd_state *after,
			       const struct mbd_result *res,
			       struct mbd_oracle_finding *f);
/* The same, writing f->detail only for a finding of class text_min or
 * worse (else it is empty); the class is the same either way. */
enum mbd_class mbd_oracle_step_text(struct mbd_oracle *o, const struct mbd_op *op,
				    const struct mbd_state *before,
				    const struct mbd_state *after,
				    const struct mbd_result *res,
				    struct mbd_oracle_finding *f,
				    enum mbd_class text_min);

/* Feed the model's whole state to feed (mbdiff explore hashes it). */
typedef void (*mbd_oracle_feed)(void *ctx, const void *p, size_t n);
void mbd_oracle_digest(const struct mbd_oracle *o, mbd_oracle_feed feed,
		       void *ctx);

/* Print the model's intervals of one type (for reports). */
void mbd_oracle_dump(const struct mbd_oracle *o, enum mbd_type_sel type,
		     FILE *out);

#endif
