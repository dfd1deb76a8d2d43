// SPDX-License-Identifier: GPL-2.0
/*
 * The one-call search `mbdiff check` runs before fuzzing: load the
 * alphabet, search quietly, and say in one line what came out.
 */
#include <stdio.h>
#include <string.h>

#include "mbd_explore.h"

int mbd_explore_quick(const char *alphabet, const struct mbd_variant *const *vs,
		      size_t n, size_t depth, double seconds,
		      enum mbd_class min_class, char *line, size_t len)
{
	struct mbd_alphabet a;
	struct mbd_explore_opts o;
	struct mbd_explore_result r;
	struct mbd_xcert c;
	struct mbd_diag d;
	char names[512];
	size_t pos = 0;
	int ret;

	if (mbd_alphabet_load(alphabet, &a, &d)) {
		mbd_diag_print(stderr, &d);
		snprintf(line, len, "%s:%u: %s", d.file, d.line, d.msg);
		return -1;
	}
	mbd_explore_opts_default(&o);
	o.depth = depth;
	o.time_limit = seconds;
	o.progress = 0;
	o.ropts.min_class = min_class;
	if (mbd_explore_run(&a, vs, n, &o, &r)) {
		mbd_alphabet_free(&a);
		snprintf(line, len, "explore failed (see above)");
		return -1;
	}
	if (r.n_divergent) {
		snprintf(line, len, "%s (%zu calls)", r.found[0].signature, r.found[0].n);
		ret = 1;
	} else if (r.depth_done == 0) {
		snprintf(line, len, "no depth completed: %s", r.stop_reason);
		ret = -1;
	} else {
		for (size_t i = 0; i < n && pos < sizeof(names); i++)
			pos += (size_t)snprintf(names + pos, sizeof(names) - pos, "%s%s",
						i ? "," : "", vs[i]->name);
		mbd_xcert_from(&c, &a, names, min_class, &r);
		mbd_xcert_claim(&c, line, len);
		ret = 0;
	}
	mbd_explore_result_free(&r);
	mbd_alphabet_free(&a);
	return ret;
}
