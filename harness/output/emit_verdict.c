// SPDX-License-Identifier: GPL-2.0
/*
 * What an emitted test's header says about the patched variant: the
 * shifted calls run on reference~patched, and compared with the trace as
 * it was found (emit_int.h).
 */
#include <stdio.h>
#include <string.h>

#include "emit_int.h"
#include "mbd_runner.h"

/* The first divergence of t's first n_ops calls on reference~patched:
 * rc as mbd_runner_run, v filled. */
static int verdict_of(const struct mbd_emit_opts *o, const struct mbd_trace *t,
		      size_t n_ops, struct mbd_verdict *v)
{
	const struct mbd_variant *vs[2] = { o->reference, o->patched };
	struct mbd_runner_opts ro;
	struct mbd_runner *run;
	struct mbd_trace part = *t;
	int rc;

	mbd_runner_opts_default(&ro);
	ro.min_class = MBD_CLASS_CAPACITY;
	ro.expects = false;
	run = mbd_runner_new(vs, 2, &ro);
	if (!run)
		return -1;
	part.n_ops = n_ops < t->n_ops ? n_ops : t->n_ops;
	part.n_expects = 0;
	memset(v, 0, sizeof(*v));
	rc = mbd_runner_run(run, &part, v);
	mbd_runner_free(run);
	return rc;
}

/* Whether the shifted trace still diverges on o->patched: one line; and
 * when it does so at another call or in another way than the trace as
 * found (physical page 0 is usable after the shift), a second line. */
int mbd_emit_patched_line(const struct mbd_emit_opts *o, const struct emit_run *r,
			  const struct mbd_trace *t, char *buf, size_t n)
{
	const struct mbd_variant *vs[2] = { o->reference, o->patched };
	struct mbd_runner_opts ro;
	struct mbd_runner *run;
	struct mbd_verdict v, orig;
	struct mbd_trace part = r->shifted;
	int rc, orc;

	mbd_runner_opts_default(&ro);
	/* warnings are not checked by the test */
	ro.min_class = MBD_CLASS_CAPACITY;
	run = mbd_runner_new(vs, 2, &ro);
	if (!run)
		return -1;
	/* only the ops the test replays (the rest follow a mainline panic) */
	part.n_ops = r->n_run;
	memset(&v, 0, sizeof(v));
	rc = mbd_runner_run(run, &part, &v);
	mbd_runner_free(run);
	if (rc < 0)
		return -1;
	if (v.baseline_fault)
		rc = 1;
	if (rc > 0 && v.baseline_fault)
		snprintf(buf, n, "Mainline itself fails mbdiff's oracle at call %zu "
			 "(%s/%s); this test pins that behaviour.", v.op_index + 1,
			 mbd_where_name(v.where), mbd_class_name(v.cls));
	else if (rc > 0)
		snprintf(buf, n, "On %s this test fails at call %zu (%s/%s).",
			 o->patched->name, v.op_index + 1, mbd_where_name(v.where),
			 mbd_class_name(v.cls));
	else
		snprintf(buf, n, "WARNING: on %s the shifted calls give the same "
			 "results, so this test passes there too (the original "
			 "divergence depends on the absolute addresses).",
			 o->patched->name);
	orc = verdict_of(o, t, r->n_run, &orig);
	if (orc < 0)
		return -1;
	if (rc > 0 && !v.baseline_fault && orc > 0 &&
	    (orig.op_index != v.op_index || orig.cls != v.cls || orig.where != v.where)) {
		size_t used = strlen(buf);

		snprintf(buf + used, n - used, "\nWARNING: that is not the divergence "
			 "the trace was found with (call %zu, %s/%s): after the "
			 "shift physical page 0 is usable, so the test fails for "
			 "another reason.", orig.op_index + 1,
			 mbd_where_name(orig.where), mbd_class_name(orig.cls));
	}
	return 0;
}
