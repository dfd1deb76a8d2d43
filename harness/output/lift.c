// SPDX-License-Identifier: GPL-2.0
/*
 * The lift (mbd_lift.h): profile the reproducer, build a candidate per
 * address scale, keep the first on which the judge names the same bug. The
 * scales give the doubled arrays of a boot-sized array (6 KiB and more,
 * where the reproducer's take one page) the room the reproducer's holes
 * gave its own; 0 and 1 are never scaled (lift_build.c).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lift_int.h"
#include "mbd_output.h"
#include "mbd_text.h"

static const unsigned scales[] = { 1, 4, 16, 64 };
#define NSCALES (sizeof(scales) / sizeof(scales[0]))

void mbd_lift_opts_default(struct mbd_lift_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->memory_slots = 128;
	o->reserved_slots = 128;
}

static unsigned doublings(uint64_t before, uint64_t after)
{
	unsigned d = 0;

	while (before && after > before && d < 64) {
		before <<= 1;
		d++;
	}
	return d;
}

int mbd_lift_profile(const struct mbd_variant *v, const struct mbd_trace *t,
		     struct mbd_lift_profile *p)
{
	struct mbd_state before, after;

	p->n = 0;
	p->steps = calloc(t->n_ops ? t->n_ops : 1, sizeof(*p->steps));
	if (!p->steps)
		return -1;
	mbd_state_init(&before);
	mbd_state_init(&after);
	v->reset(&t->cfg, 0);
	v->snapshot(&before);
	for (size_t k = 0; k < t->n_ops; k++) {
		struct mbd_lift_step *s = &p->steps[p->n++];
		const struct mbd_type_state *tb[2] = { &before.memory, &before.reserved };
		const struct mbd_type_state *ta[2] = { &after.memory, &after.reserved };
		struct mbd_result r;

		memset(&r, 0, sizeof(r));
		v->apply(&t->ops[k], &r);
		v->snapshot(&after);
		for (int ty = 0; ty < 2; ty++) {
			s->cnt[ty] = tb[ty]->cnt;
			s->max[ty] = tb[ty]->max;
			s->doublings[ty] = doublings(tb[ty]->max, ta[ty]->max);
		}
		if (r.panicked)
			break;
		mbd_state_copy(&before, &after);
	}
	mbd_state_free(&before);
	mbd_state_free(&after);
	return 0;
}

static int write_trace(const char *path, const struct mbd_trace *t,
		       const char *head)
{
	char why[256];

	if (mbd_text_save(path, head, t, why, sizeof(why)) == 0)
		return 0;
	fprintf(stderr, "mbdiff: %s: cannot write: %s\n", path, why);
	return -1;
}

/* what the reproducer needs that boot-sized arrays do not give, read from
 * its profile; "" when nothing stands out */
static void explain(const struct mbd_lift_profile *p,
		    const struct mbd_lift_opts *o, char *why, size_t n)
{
	static const char *const names[2] = { "memory", "reserved" };
	const uint32_t slots[2] = { o->memory_slots, o->reserved_slots };

	for (size_t k = 0; k < p->n; k++) {
		for (int ty = 0; ty < 2; ty++) {
			const struct mbd_lift_step *s = &p->steps[k];

			if (s->doublings[ty] < 2 || s->max[ty] >= slots[ty])
				continue;
			snprintf(why, n, "needs %s doubled %u times in one call (call %zu, "
				 "from a %llu-slot array); a %u-slot array gains %u slots "
				 "in one doubling", names[ty], s->doublings[ty], k + 1,
				 (unsigned long long)s->max[ty], slots[ty], slots[ty]);
			return;
		}
	}
	why[0] = '\0';
}

int mbd_lift_run(struct mbd_judge_ctx *c, const struct mbd_variant *const vs[2],
		 const struct mbd_trace *t, const struct mbd_lift_opts *o,
		 struct mbd_trace *lifted, struct mbd_lift *l)
{
	struct mbd_lift_profile p = { 0 };
	struct mbd_judge j;
	const struct mbd_variant *wrong;
	struct mbd_trace cand;
	char head[900], build_why[200] = "", first_why[200] = "";
	/* a bug grouped under a root cause: its first fault's own key too */
	char fault_key[220] = "";
	int rc = 0;

	memset(l, 0, sizeof(*l));
	if (o->no_judge) {
		wrong = vs[o->build_side ? 1 : 0];
		snprintf(l->key, sizeof(l->key), "not judged");
	} else {
		if (mbd_judge_run(c, t, &j))
			return -1;
		if (j.kind == MBD_JUDGE_NONE)
			return 1;
		snprintf(l->key, sizeof(l->key), "%s", mbd_judge_bug_key(&j));
		if (j.cause[0])
			snprintf(fault_key, sizeof(fault_key), "%s", j.key);
		/* the fillers are sized by the side whose fault it is */
		wrong = j.kind == MBD_JUDGE_FIX || j.kind == MBD_JUDGE_SHARED ? vs[0] : vs[1];
	}
	if (mbd_lift_profile(wrong, t, &p))
		return -1;
	mbd_trace_init(&cand);
	for (size_t i = 0; i < 2 * NSCALES && !l->reached; i++) {
		unsigned sc = scales[i / 2];
		bool below = i % 2;
		const char *where = below ? "below" : "above";
		size_t nf = 0;
		int b;

		if ((o->scale && sc != o->scale) || (o->fillers && o->fillers != 1 + below))
			continue;
		b = mbd_lift_build(wrong, t, &p, sc, below, o, &cand, &nf, build_why,
				   sizeof(build_why));
		if (b < 0) {
			rc = -1;
			break;
		}
		if (b > 0) {
			if (!first_why[0])
				snprintf(first_why, sizeof(first_why), "%s", build_why);
			if (o->log)
				fprintf(o->log, "lift: scale %u, fillers %s: %s\n", sc, where, build_why);
			continue;
		}
		snprintf(head, sizeof(head),
			 "# mbdiff lift: candidate at scale %u, fillers %s (%zu calls, %zu "
			 "fillers), being judged for: %s\n", sc, where, cand.n_ops, nf, l->key);
		if (o->out && write_trace(o->out, &cand, head)) {
			rc = -1;
			break;
		}
		if (o->no_judge) {
			l->got[0] = '\0';
		} else if (mbd_judge_run(c, &cand, &j)) {
			rc = -1;
			break;
		} else {
			/* the same bug, or the same fault it leads to (the
			   boot arrays may get there without the growth that
			   the tiny ones part at) */
			l->reached = strcmp(mbd_judge_bug_key(&j), l->key) == 0 ||
				     (fault_key[0] && j.kind != MBD_JUDGE_NONE &&
				      strcmp(j.key, fault_key) == 0);
			snprintf(l->got, sizeof(l->got), "%s",
				 j.kind == MBD_JUDGE_NONE ? "no divergence" : mbd_judge_bug_key(&j));
		}
		if (o->log)
			fprintf(o->log, "lift: scale %u, fillers %s: %zu calls (%zu fillers): %s\n",
				sc, where, cand.n_ops, nf, l->reached ? "same bug" : l->got);
		if (mbd_trace_copy(lifted, &cand)) {
			rc = -1;
			break;
		}
		l->n_calls = cand.n_ops;
		l->n_fillers = nf;
		l->scale = sc;
		l->below = below;
		if (o->no_judge)
			break;
	}
	if (!rc && !l->reached) {
		if (!o->no_judge)
			explain(&p, o, l->why, sizeof(l->why));
		if (!l->why[0] && !l->n_calls)
			snprintf(l->why, sizeof(l->why), "%s", first_why);
	}
	if (!rc && o->out && l->n_calls) {
		if (o->no_judge)
			snprintf(head, sizeof(head),
				 "# mbdiff lift: built, not judged, with %u-slot memory and "
				 "%u-slot reserved arrays\n# (%zu calls: %zu fillers %s the "
				 "reproducer's addresses, times %u)\n", o->memory_slots,
				 o->reserved_slots, l->n_calls, l->n_fillers,
				 l->below ? "below" : "above", l->scale);
		else if (l->reached)
			snprintf(head, sizeof(head),
				 "# mbdiff lift: %s with %u-slot memory and %u-slot reserved "
				 "arrays\n# (%zu calls: %zu fillers %s the reproducer's addresses, "
				 "times %u)\n# key: %s\n", "reached", o->memory_slots,
				 o->reserved_slots, l->n_calls, l->n_fillers,
				 l->below ? "below" : "above", l->scale, l->key);
		else
			snprintf(head, sizeof(head),
				 "# mbdiff lift: NOT reached with %u-slot arrays; this "
				 "candidate gives: %s\n# wanted: %s\n", o->memory_slots,
				 l->got, l->key);
		if (write_trace(o->out, lifted, head))
			rc = -1;
	}
	mbd_trace_free(&cand);
	free(p.steps);
	return rc;
}
