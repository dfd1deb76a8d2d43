/* SPDX-License-Identifier: GPL-2.0 */
/* Compare two variants' outcomes of the same call. */
#ifndef MBD_COMPARE_H
#define MBD_COMPARE_H

#include "mbd_variant.h"
#include "mbd_verdict.h"

struct mbd_diff {
	enum mbd_class cls;    /* worst difference, MBD_CLASS_NONE if equal */
	enum mbd_where where;
	char detail[256];      /* e.g. "reserved: cnt 3 vs 4" */
	enum mbd_class text_min; /* detail written from this class up */
};

/*
 * Compare results and states of variant a and b after the same op.
 * Coverage (bytes with flags and nid, regardless of how they are split) is
 * checked before layout, so a lost reservation is reported as coverage even
 * though the arrays also differ in shape.
 */
enum mbd_class mbd_compare(const struct mbd_result *ra, const struct mbd_state *sa,
			   const struct mbd_result *rb, const struct mbd_state *sb,
			   struct mbd_diff *d);
/*
 * The same, writing d->detail only for a difference of class text_min or
 * worse (else it is empty): a caller that drops lesser differences spares
 * the formatting. The class is the same either way.
 */
enum mbd_class mbd_compare_text(const struct mbd_result *ra,
				const struct mbd_state *sa,
				const struct mbd_result *rb,
				const struct mbd_state *sb, struct mbd_diff *d,
				enum mbd_class text_min);

/* True if the two types cover the same bytes with the same flags and nid. */
bool mbd_same_coverage(const struct mbd_type_state *a, const struct mbd_type_state *b);

#endif
