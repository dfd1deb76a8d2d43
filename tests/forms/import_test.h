/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers of the importer's tests (test_import.c, test_import_logs.c):
 * import an inline log and re-parse it, check an op, replay on the reference. */
#ifndef MBD_IMPORT_TEST_H
#define MBD_IMPORT_TEST_H

#include <stdlib.h>
#include <string.h>

#include "mbd_expect.h"
#include "mbd_import.h"
#include "mbd_runner.h"
#include "mbd_test.h"
#include "mbd_text.h"
#include "mbd_variant.h"

/* Import one inline log, re-parse it; returns 0 and fills t and st. */
static inline int imp(const char *log, enum mbd_import_conv conv, struct mbd_trace *t,
	       struct mbd_import_stats *st, char **text)
{
	struct mbd_import_src s = { "t.log", log, strlen(log), NULL };
	struct mbd_diag d;
	struct mbd_import_opts o = { conv, 0, 0, 0 };
	size_t len;
	char *out;

	if (mbd_import(&s, 1, &o, &out, &len, st, NULL))
		return -1;
	if (mbd_text_parse(out, len, "t.mbt", t, &d)) {
		mbd_diag_print(stderr, &d);
		fprintf(stderr, "%.*s", (int)len, out);
		free(out);
		return -1;
	}
	if (text)
		*text = out;
	else
		free(out);
	return 0;
}

static inline void check_op(const struct mbd_trace *t, size_t i, uint32_t kind, uint64_t base,
		     uint64_t size)
{
	MBD_CHECK(i < t->n_ops);
	if (i >= t->n_ops)
		return;
	MBD_CHECK_STR(mbd_op_name(t->ops[i].kind), mbd_op_name(kind));
	MBD_CHECK_EQ_U64(t->ops[i].base, base);
	MBD_CHECK_EQ_U64(t->ops[i].size, size);
}

/* Run t on the reference alone; returns the runner's result. */
static inline int run_ref(const struct mbd_trace *t, struct mbd_verdict *v)
{
	const struct mbd_variant *ref = mbd_variant_find("reference");
	const struct mbd_variant *vs[1] = { ref };
	struct mbd_runner *r;
	int rc;

	if (!ref)
		return -1;
	r = mbd_runner_new(vs, 1, NULL);
	if (!r)
		return -1;
	rc = mbd_runner_run(r, t, v);
	mbd_runner_free(r);
	return rc;
}

#endif
