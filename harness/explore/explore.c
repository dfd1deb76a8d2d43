// SPDX-License-Identifier: GPL-2.0
/*
 * The breadth-first search over an alphabet's traces. Level d holds the
 * distinct joint states reached by d calls, each by the first trace (in
 * alphabet order) that reaches it; a trace that diverges is recorded, once
 * per signature key, the first time its key is seen, which is the shortest
 * such trace and, among those, the first in alphabet order.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore_int.h"

void mbd_explore_opts_default(struct mbd_explore_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->depth = 3;
	o->jobs = 1;
	o->max_states = 8000000;
	o->progress = 1;
	o->merge = true;
	mbd_runner_opts_default(&o->ropts);
}

void mbd_explore_count_str(long double n, char *buf, size_t len)
{
	if (n < 18446744073709551615.0L)
		snprintf(buf, len, "%llu", (unsigned long long)n);
	else
		snprintf(buf, len, "%.3Le", n);
}

/* What a checkpoint must agree on to be resumed by this search. */
static void params_hash(const struct mbd_xsearch *s, uint64_t out[2])
{
	struct mbd_xhash x;

	mbd_xhash_init(&x, 0x636b707400000001ULL);
	mbd_xhash_u64(&x, s->a->hash[0]);
	mbd_xhash_u64(&x, s->a->hash[1]);
	for (size_t i = 0; i < mbd_runner_count(s->runner); i++) {
		const char *name = mbd_runner_variant(s->runner, i)->name;

		mbd_xhash_bytes(&x, name, strlen(name));
	}
	mbd_xhash_u64(&x, s->o->ropts.min_class);
	mbd_xhash_u64(&x, (uint64_t)s->o->ropts.oracle |
			  (uint64_t)s->o->ropts.skip_baseline_faults << 1 |
			  (uint64_t)s->o->merge << 2 |
			  (uint64_t)s->o->ropts.skip_shared_faults << 3);
	mbd_xhash_done(&x);
	out[0] = x.h[0];
	out[1] = x.h[1];
}

/* Level 0: every root's filler calls, which must run cleanly. */
static int add_roots(struct mbd_xsearch *s)
{
	struct mbd_verdict v;
	struct mbd_xnode nd;

	for (size_t r = 0; r < s->a->n_roots; r++) {
		if (mbd_alphabet_trace(s->a, r, NULL, 0, &s->t) ||
		    mbd_runner_run(s->runner, &s->t, &v) < 0)
			return fprintf(stderr, "mbdiff: explore: out of memory\n"), -1;
		s->runs++;
		if (v.divergent || v.baseline_fault || v.all_panicked ||
		    v.ops_run < s->t.n_ops) {
			fprintf(stderr, "mbdiff: explore: configuration %zu (fill %u) does "
				"not run cleanly before the first explored call: %s\n",
				r + 1, s->a->roots[r].fill,
				v.divergent ? v.signature : v.detail);
			return -1;
		}
		memset(&nd, 0, sizeof(nd));
		mbd_xstate_digest(s->runner, &s->t, nd.hash);
		nd.parent = UINT32_MAX;
		nd.op = (uint16_t)r;
		if (s->o->merge && mbd_xstore_find(&s->store, nd.hash) >= 0)
			continue;
		if (mbd_xstore_add(&s->store, &nd) < 0)
			return fprintf(stderr, "mbdiff: explore: out of memory\n"), -1;
	}
	return 0;
}

static long double count_traces(const struct mbd_alphabet *a, size_t depth)
{
	long double sum = 0, p = 1;

	for (size_t d = 1; d <= depth; d++) {
		p *= (long double)a->n_ops;
		sum += p;
	}
	return sum * (long double)a->n_roots;
}

/* Findings in the order they were made, divergences before faults. */
static int fill_result(struct mbd_xsearch *s, struct mbd_explore_result *r,
		       size_t depth_done, size_t first_of_last)
{
	size_t k = 0;

	r->depth_done = depth_done;
	r->complete = depth_done >= s->o->depth;
	snprintf(r->stop_reason, sizeof(r->stop_reason), "%s", s->stop_reason);
	r->traces = count_traces(s->a, depth_done);
	r->states = 0;
	/* the states expanded: those of depth < depth_done (the same whether
	 * or not the last level was stored) */
	for (size_t i = 0; i < first_of_last && i < s->store.n; i++)
		r->states += s->store.v[i].depth < depth_done;
	r->runs = s->runs;
	r->terminal = s->terminal;
	r->seconds = mbd_xnow() - s->t0 + s->t_prev;
	r->found = calloc(s->n_found + 1, sizeof(*r->found));
	if (!r->found)
		return -1;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < s->n_found; i++)
			if (s->found[i].baseline_fault == (pass == 1)) {
				r->found[k++] = s->found[i];
				r->n_divergent += pass == 0;
			}
	r->n_found = k;
	free(s->found);
	s->found = NULL;
	s->n_found = 0;
	return 0;
}

static int save(struct mbd_xsearch *s, size_t depth_done, size_t level_start)
{
	struct mbd_xckpt c = { .depth_done = depth_done, .level_start = level_start,
			       .runs = s->runs, .terminal = s->terminal,
			       .seconds = mbd_xnow() - s->t0 + s->t_prev };

	params_hash(s, c.params);
	return mbd_xckpt_save(s->o->checkpoint, &c, &s->store, s->found,
			      s->n_found);
}

static int resume(struct mbd_xsearch *s, size_t *depth_done, size_t *lo)
{
	struct mbd_xckpt c;
	uint64_t want[2];

	if (mbd_xckpt_load(s->o->resume, &c, &s->store, &s->found, &s->n_found))
		return -1;
	s->cap_found = s->n_found;
	params_hash(s, want);
	if (want[0] != c.params[0] || want[1] != c.params[1]) {
		fprintf(stderr, "mbdiff: %s: checkpoint of another search (alphabet, "
			"variants, class or options differ)\n", s->o->resume);
		return -1;
	}
	for (size_t i = 0; i < s->store.n; i++) {
		const struct mbd_xnode *nd = &s->store.v[i];
		bool root = nd->parent == UINT32_MAX;

		if (root ? nd->op >= s->a->n_roots || nd->depth :
			   nd->op >= s->a->n_ops ||
			   nd->depth != s->store.v[nd->parent].depth + 1)
			goto damaged;
	}
	for (size_t i = 0; i < s->n_found; i++)
		for (size_t k = 0; k < s->found[i].n; k++)
			if (s->found[i].root >= s->a->n_roots ||
			    s->found[i].idx[k] >= s->a->n_ops)
				goto damaged;
	if (c.level_start < s->store.n &&
	    s->store.v[c.level_start].depth != c.depth_done)
		goto damaged;
	*depth_done = c.depth_done;
	*lo = c.level_start;
	s->runs = c.runs;
	s->terminal = c.terminal;
	s->t_prev = c.seconds;
	return 0;
damaged:
	fprintf(stderr, "mbdiff: %s: damaged checkpoint\n", s->o->resume);
	return -1;
}

static bool has_divergence(const struct mbd_xsearch *s)
{
	for (size_t i = 0; i < s->n_found; i++)
		if (!s->found[i].baseline_fault)
			return true;
	return false;
}

static int search(struct mbd_xsearch *s, struct mbd_explore_result *r)
{
	size_t lo = 0, d = 0;

	if (s->o->resume) {
		if (resume(s, &d, &lo))
			return -1;
	} else if (add_roots(s)) {
		return -1;
	}
	/* level d is nodes [lo, store.n): all at depth d */
	while (d < s->o->depth) {
		size_t hi = s->store.n;
		bool store = d + 1 < s->o->depth || s->o->checkpoint;

		if (mbd_xlevel(s, lo, hi, d + 1, store))
			return -1;
		if (s->stop) {
			/* an incomplete level: its states are dropped, its
			 * divergences (real, and of minimal length) kept */
			s->store.n = hi;
			break;
		}
		d++;
		lo = hi;
		if (s->o->checkpoint && save(s, d, lo))
			return -1;
		if (s->o->first && has_divergence(s)) {
			snprintf(s->stop_reason, sizeof(s->stop_reason),
				 "--first: depth %zu diverges", d);
			return fill_result(s, r, d, s->store.n);
		}
		if (hi == s->store.n && store)
			break; /* nothing new: every deeper trace is covered */
	}
	if (!s->stop && d < s->o->depth) {
		/* closed: no state has a successor not seen before */
		d = s->o->depth;
	}
	return fill_result(s, r, d, s->store.n);
}

int mbd_explore_run(const struct mbd_alphabet *a,
		    const struct mbd_variant *const *vs, size_t n,
		    const struct mbd_explore_opts *o,
		    struct mbd_explore_result *r)
{
	struct mbd_xsearch s;
	int ret;

	memset(r, 0, sizeof(*r));
	memset(&s, 0, sizeof(s));
	if (o->depth < 1 || o->depth > 1000) {
		fprintf(stderr, "mbdiff: explore: --depth must be 1..1000\n");
		return -1;
	}
	s.a = a;
	s.o = o;
	s.t0 = mbd_xnow();
	mbd_trace_init(&s.t);
	mbd_xstore_init(&s.store);
	s.runner = mbd_runner_new(vs, n, &o->ropts);
	s.idx = calloc(o->depth + 1, sizeof(*s.idx));
	if (!s.runner || !s.idx) {
		fprintf(stderr, "mbdiff: explore: cannot set up the runner\n");
		ret = -1;
	} else {
		ret = search(&s, r);
	}
	for (size_t i = 0; i < s.n_found; i++)
		free(s.found[i].idx);
	free(s.found);
	free(s.idx);
	mbd_runner_free(s.runner);
	mbd_trace_free(&s.t);
	mbd_xstore_free(&s.store);
	return ret;
}

void mbd_explore_result_free(struct mbd_explore_result *r)
{
	for (size_t i = 0; i < r->n_found; i++)
		free(r->found[i].idx);
	free(r->found);
	memset(r, 0, sizeof(*r));
}
