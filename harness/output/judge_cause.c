// SPDX-License-Identifier: GPL-2.0
/*
 * The root cause of a judged divergence, where it is not the fault itself
 * (mbd_judge.h). memblock_add_range() and memblock_isolate_range() first
 * decide whether the array must grow, then insert: when the two sides
 * part inside a call at the moment an array grows (one doubles where the
 * other does not, or more times, or puts the new array elsewhere, or fails
 * to grow), every later difference of that call and of the calls after it
 * follows from the growth, whatever clause it breaks. A maintainer calls
 * that one bug: "the patch grows the array at other times".
 *
 * Where the two part inside the call comes from the messages memblock.c
 * prints and the memmove()s of its insertions and merges (mbd_state.events:
 * each with the arrays as they were then): the first event that differs
 * is the first thing done differently. From the same arrays, one side
 * growing where the other goes on is the cause: mainline grows before it
 * inserts where a single-pass patch inserts first, or a patch grows where
 * mainline just inserts. So is a side growing an array it has not changed
 * since the last event both had, and a growth fault that stops the patch
 * there. After a growth both made, the growth is still the cause where
 * one side is still at it (prints the free of the old array, the reserve
 * of the new one, or grows the array again) while the other inserts,
 * merges or ends: inserting and merging print nothing, and a full array
 * (insert's BUG_ON(type->cnt >= type->max)) is a growth fault. A side that
 * changed the arrays otherwise first (a merge or an insertion gone wrong
 * in a nested reserve, say) makes no growth cause, even when growths
 * follow; nor does one that merges or removes a region where the other
 * grows: a merge frees a slot, so the growth it spares is its effect
 * (mainline grows before it inserts, and merges only after).
 */
#include <stdio.h>
#include <string.h>

#include "mbd_judge.h"
#include "mbd_oracle.h"

static const char *const array_name[] = { "memory", "reserved" };

static const struct mbd_type_state *type_of(const struct mbd_state *s, int a)
{
	return a ? &s->reserved : &s->memory;
}

/* The growths (doublings and failures to double) the call's events hold. */
static unsigned int growths(const struct mbd_state *s)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < s->n_events; i++)
		n += s->events[i].growth >= 0;
	return n;
}

/* What the arrays after the call show of the growth, for the why. */
static void growth_why(const struct mbd_state *b, const struct mbd_state *p,
		       char *why, size_t n)
{
	snprintf(why, n, "the arrays grew (or failed to) %u time(s) in mainline, %u with the patch",
		 growths(b), growths(p));
	if (growths(b) != growths(p))
		return;
	for (int a = 0; a < 2; a++) {
		const struct mbd_type_state *tb = type_of(b, a), *tp = type_of(p, a);

		if (tb->max != tp->max) {
			snprintf(why, n, "%s max %llu in mainline, %llu with the patch",
				 array_name[a], (unsigned long long)tb->max,
				 (unsigned long long)tp->max);
			return;
		}
		if (tb->regions_pa != tp->regions_pa || tb->regions_static != tp->regions_static) {
			snprintf(why, n, "the %s array moved to %#llx in mainline, %#llx with the patch",
				 array_name[a], (unsigned long long)tb->regions_pa,
				 (unsigned long long)tp->regions_pa);
			return;
		}
	}
	why[0] = '\0'; /* alike: the how says it all */
}

/* memblock_insert_region()'s BUG_ON(type->cnt >= type->max): no room
 * left, the array was not grown enough. */
static bool full_array(const struct mbd_judge_side *s)
{
	return s->cls == MBD_CLASS_PANIC && strstr(s->what, "type->cnt >= type->max");
}

/* A fault of the growth itself, at the diverging call. */
static bool growth_fault(const struct mbd_judge_side *s, size_t op)
{
	if (!s->fault || s->op != op)
		return false;
	if (s->cls == MBD_CLASS_PANIC)
		return strstr(s->what, "memblock_double_array") ||
		       strstr(s->what, "cannot resize") || full_array(s);
	return strstr(s->key, mbd_clause_name(MBD_CL_ENOMEM_WITH_ROOM)) != NULL;
}

/* Side s stops at its event e on a panic of its own that is no growth
 * fault: that panic, not a growth, is where the two part. */
static bool stops_otherwise(const struct mbd_event *e, const struct mbd_judge_side *s,
			    size_t op)
{
	return e->text == 0 && s->op == op && (s->cls == MBD_CLASS_PANIC || s->designed_panic) &&
	       (s->fault || s->designed_panic) && !growth_fault(s, op);
}

/* A growth (of array g, or any for -1) among the first n events, which
 * both sides share. */
static bool shared_growth(const struct mbd_state *s, unsigned int n, int g)
{
	for (unsigned int k = 0; k < n; k++)
		if (s->events[k].growth >= 0 && (g < 0 || s->events[k].growth == g))
			return true;
	return false;
}

/* A memmove() that closes a slot: a merge or a removal step. */
static bool closes(const struct mbd_event *e)
{
	return e->text == 6;
}

static bool same_arrays(const struct mbd_event *a, const struct mbd_event *b)
{
	return a->arrays[0] == b->arrays[0] && a->arrays[1] == b->arrays[1];
}

/* From the events of the call: whether the sides part at a growth; *how
 * says which way. */
static bool parts_at_growth(const struct mbd_state *b, const struct mbd_state *p,
			   const struct mbd_judge_side side[2], size_t op, const char **how)
{
	const struct mbd_judge_side *wrong = &side[1];
	unsigned int n = b->n_events < p->n_events ? b->n_events : p->n_events;
	const struct mbd_event *prev, *e[2];
	unsigned int i;

	/* none recorded, or the first difference may be past what was kept */
	if (!b->n_events || !p->n_events || b->events_cut || p->events_cut)
		return false;
	for (i = 0; i < n; i++)
		if (b->events[i].text != p->events[i].text ||
		    !same_arrays(&b->events[i], &p->events[i]))
			break;
	if (i == n) {
		/* the same messages over the same arrays: a growth fault is
		   all that tells them apart (a panic before any message) */
		*how = "the patch fails to grow an array where mainline has no need";
		return growth_fault(wrong, op);
	}
	if (i == 0)
		return false; /* apart before the call: not this call's doing */
	prev = &b->events[i - 1];
	e[0] = &b->events[i];
	e[1] = &p->events[i];
	/* both grow the same array from the same arrays: to another place */
	if (e[0]->growth >= 0 && e[0]->growth == e[1]->growth && same_arrays(e[0], e[1])) {
		*how = "both grow an array, the patch to another place";
		return true;
	}
	/* the same arrays, and one grows where the other goes on (not where
	   the other dies of something else) */
	if (same_arrays(e[0], e[1]) && (e[0]->growth >= 0 || e[1]->growth >= 0) &&
	    !stops_otherwise(e[e[1]->growth < 0], &side[e[1]->growth < 0], op) &&
	    !closes(e[e[1]->growth < 0])) {
		int g = e[1]->growth >= 0;

		*how = e[1 - g]->text == 4 ?
		       (g ? "the patch grows an array where mainline inserts first" :
			    "mainline grows an array where the patch inserts first") :
		       (g ? "the patch grows an array where mainline does not" :
			    "mainline grows an array where the patch does not");
		return true;
	}
	/* after a growth both made, one prints a message (a growth's free of
	   the old array or reserve of the new one: memblock's inserting and
	   merging print nothing) where the other inserts, merges or ends: the
	   growth is done otherwise. The arrays may differ: a split edits a
	   region in place before its memmove() */
	if (shared_growth(b, i, -1) && e[0]->growth < 0 && e[1]->growth < 0 &&
	    (e[0]->text & 1) != (e[1]->text & 1) &&
	    !stops_otherwise(e[1], &side[1], op) && !stops_otherwise(e[0], &side[0], op)) {
		*how = e[0]->text & 1 ?
		       "both grow an array; mainline is still at its growth (frees, reserves, grows again) where the patch inserts first" :
		       "both grow an array; the patch is still at its growth (frees, reserves, grows again) where mainline inserts first";
		return true;
	}
	/* after a growth of an array both made, one grows it again where
	   the other does not (isolate and add grow in a loop): from the
	   arrays the growth's own reservation left, which event hashes
	   taken before the change cannot show */
	for (int s = 0; s < 2; s++) {
		int g = e[s]->growth;

		if (g < 0 || e[1 - s]->growth == g || !shared_growth(b, i, g) ||
		    stops_otherwise(e[1 - s], &side[1 - s], op) || closes(e[1 - s]))
			continue;
		*how = s ? "the patch grows an array again where mainline stops growing it" :
			   "mainline grows an array again where the patch stops growing it";
		return true;
	}
	/* one grows an array it has not changed since the last message both
	   printed: the other changed it first, or did not grow it */
	for (int s = 0; s < 2; s++) {
		int g = e[s]->growth;

		/* unchanged, or changed by nothing but that message's own
		   growth of it (isolate doubles in a loop) */
		if (g < 0 || (e[s]->arrays[g] != prev->arrays[g] && prev->growth != g) ||
		    stops_otherwise(e[1 - s], &side[1 - s], op) || closes(e[1 - s]))
			continue;
		if (e[1 - s]->growth == g && e[1 - s]->arrays[g] == e[s]->arrays[g])
			continue; /* both from the same array: other placement */
		if (e[1 - s]->growth == g)
			*how = s ? "both grow an array, mainline after changing it first" :
				   "both grow an array, the patch after changing it first";
		else
			*how = s ? "the patch grows an array where mainline does not" :
				   "mainline grows an array where the patch does not";
		return true;
	}
	/* the patch stops there (its end entry) on a growth fault */
	*how = "the patch fails to grow an array";
	return e[1]->text == 0 && same_arrays(e[1], prev) && growth_fault(wrong, op);
}

void mbd_judge_cause(const struct mbd_runner *pair, struct mbd_judge *j)
{
	const struct mbd_state *b = mbd_runner_after(pair, 0), *p = mbd_runner_after(pair, 1);
	const struct mbd_judge_side *wrong = &j->side[1];
	char why[200];
	const char *how = "";

	j->cause[0] = j->cause_why[0] = '\0';
	/* a fix is mainline's fault, grouped by it; a shared one is no bug */
	if (!j->divergent || j->kind == MBD_JUDGE_FIX || j->kind == MBD_JUDGE_SHARED ||
	    !b || !p || !parts_at_growth(b, p, j->side, j->pair.op_index, &how))
		return;
	/* the growth's own panic says how; for a full array, the counts */
	if (growth_fault(wrong, j->pair.op_index) && wrong->cls == MBD_CLASS_PANIC &&
	    !full_array(wrong))
		snprintf(why, sizeof(why), "%.190s", wrong->what);
	else
		growth_why(b, p, why, sizeof(why));
	snprintf(j->cause, sizeof(j->cause), "cause: the arrays grow differently");
	snprintf(j->cause_why, sizeof(j->cause_why), "at op %zu %s: %s%s%s%s",
		 j->pair.op_index + 1, mbd_op_name(j->pair.op_kind), how,
		 why[0] ? " (" : "", why, why[0] ? ")" : "");
}
