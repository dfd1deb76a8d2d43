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

/*
 * The clause of the API contract a finding is about: with where (which
 * array), what `mbdiff judge` groups bugs by; the numbers in the detail
 * vary from trace to trace, the clause does not.
 */
enum mbd_clause {
	MBD_CL_NONE = 0,
	MBD_CL_ENOMEM_WITH_ROOM, /* -ENOMEM although the array had room */
	MBD_CL_BAD_RETURN,       /* a return value the call never gives */
	MBD_CL_ALLOC_ADDR,       /* an allocation at another address */
	MBD_CL_CNT_OVER_MAX,     /* cnt above max */
	MBD_CL_CNT_HELD,         /* cnt and the regions held disagree */
	MBD_CL_EMPTY_REGION,     /* a region of size 0 */
	MBD_CL_WRAPS,            /* a region past the end of the address space */
	MBD_CL_UNSORTED,         /* regions out of order or overlapping */
	MBD_CL_TOTAL_SIZE,       /* total_size is not the sum of the sizes */
	MBD_CL_MISSING,          /* bytes the contract has are not there */
	MBD_CL_EXTRA,            /* bytes there that the contract does not have */
	MBD_CL_ATTR,             /* the right bytes with other flags or nid */
	MBD_CL_ARRAY_UNRESERVED, /* a live region array is not reserved */
	MBD_CL_ARRAYS_OVERLAP,   /* the memory and reserved arrays share bytes */
	MBD_CL__COUNT
};

/* A few words for a clause ("bytes missing"), "" for MBD_CL_NONE. */
const char *mbd_clause_text(enum mbd_clause c);
/* Its stable name ("missing"), for keys. */
const char *mbd_clause_name(enum mbd_clause c);
/*
 * Of the clauses in mask (1u << clause), the one a root cause is named
 * after: a broken array first (everything after it follows from it), then
 * the worst class's; MBD_CL_NONE for 0.
 */
enum mbd_clause mbd_clause_root(uint32_t mask, enum mbd_clause worst);

struct mbd_oracle_finding {
	enum mbd_class cls;    /* MBD_CLASS_NONE when all is well */
	enum mbd_where where;
	enum mbd_clause clause; /* the worst class's clause */
	uint32_t clauses;      /* every clause noted in this step, 1u << c */
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
