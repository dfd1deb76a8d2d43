// SPDX-License-Identifier: GPL-2.0
/*
 * Making, freeing and reading a runner. Nothing here is called inside the
 * lockstep loop (runner.c), so the loop's code and stack stay as they are.
 */
#include <stdlib.h>
#include <string.h>

#include "runner_int.h"

void mbd_runner_opts_default(struct mbd_runner_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->oracle = true;
	o->min_class = MBD_CLASS_DEFAULT_MIN;
	o->verbose = 0;
	o->skip_baseline_faults = true;
	o->expects = true;
}

struct mbd_runner *mbd_runner_new(const struct mbd_variant *const *variants,
				  size_t n, const struct mbd_runner_opts *o)
{
	struct mbd_runner *r;
	const char *strict;

	if (!variants || n == 0 || !mbd_variants_distinct(variants, n))
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	if (o)
		r->opts = *o;
	else
		mbd_runner_opts_default(&r->opts);
	r->slot = calloc(n, sizeof(*r->slot));
	if (!r->slot) {
		free(r);
		return NULL;
	}
	r->n = n;
	r->lazy = r->opts.lazy_baseline_oracle && r->opts.oracle &&
		  r->opts.skip_baseline_faults && n > 1;
	/* set and not "0", as the variants' reset reads it (kcompat_rt.c,
	   which parses its own: it also links alone into the kernel tests) */
	strict = getenv("MBDIFF_RESET_CHECK");
	r->strict = strict && *strict && strcmp(strict, "0") != 0;
	for (size_t i = 0; i < n; i++) {
		struct mbd_slot *s = &r->slot[i];

		s->var = variants[i];
		s->ring_n = i == 0 && r->lazy ? LAZY_RING : 2;
		s->ring = calloc(s->ring_n, sizeof(*s->ring));
		if (i == 0 && r->lazy)
			s->res_ring = calloc(LAZY_RING, sizeof(*s->res_ring));
		if (!s->ring || (i == 0 && r->lazy && !s->res_ring)) {
			mbd_runner_free(r);
			return NULL;
		}
		for (size_t k = 0; k < s->ring_n; k++)
			mbd_state_init(&s->ring[k]);
		s->before = &s->ring[s->ring_n - 1];
		s->after = &s->ring[0];
		if (r->opts.oracle) {
			s->oracle = mbd_oracle_new();
			if (!s->oracle) {
				mbd_runner_free(r);
				return NULL;
			}
			/* judge each variant by its own kernel's contract */
			mbd_oracle_set_kver(s->oracle, s->var->kver);
		}
	}
	return r;
}

void mbd_runner_free(struct mbd_runner *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++) {
		struct mbd_slot *s = &r->slot[i];

		for (size_t k = 0; s->ring && k < s->ring_n; k++)
			mbd_state_free(&s->ring[k]);
		free(s->ring);
		free(s->res_ring);
		if (s->oracle)
			mbd_oracle_free(s->oracle);
	}
	free(r->slot);
	free(r);
}

size_t mbd_runner_count(const struct mbd_runner *r)
{
	return r->n;
}

const struct mbd_variant *mbd_runner_variant(const struct mbd_runner *r, size_t i)
{
	return i < r->n ? r->slot[i].var : NULL;
}

/* A variant on the baseline's path has the baseline's states. */
const struct mbd_state *mbd_runner_before(const struct mbd_runner *r, size_t i)
{
	if (i >= r->n)
		return NULL;
	return r->slot[i].same ? r->slot[0].before : r->slot[i].before;
}

const struct mbd_state *mbd_runner_after(const struct mbd_runner *r, size_t i)
{
	if (i >= r->n)
		return NULL;
	return r->slot[i].same ? r->slot[0].after : r->slot[i].after;
}

const struct mbd_result *mbd_runner_result(const struct mbd_runner *r, size_t i)
{
	return i < r->n ? &r->slot[i].res : NULL;
}
