/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lift a reproducer to the kernel's boot arrays (`mbdiff lift`, `mbdiff
 * check`). Reproducers come from tiny configurations (1- or 2-slot arrays)
 * because that is where a search finds bugs fast; a reviewer asks whether
 * the kernel's real 128-slot arrays get there. The lift answers without
 * randomness: it rebuilds the trace on arrays of the boot size, inserting
 * unrelated filler regions (no-map memory banks, small reservations, far
 * above the reproducer's addresses, or below them with the reproducer
 * moved up) before each call so that every array
 * has exactly the free slots it had in the reproducer, pre-grows an array
 * that the reproducer doubles more than once in one call, and keeps the
 * result only if the judge names the same bug on it (or, for a bug grouped
 * under a root cause, the same fault the cause led to).
 */
#ifndef MBD_LIFT_H
#define MBD_LIFT_H

#include <stdbool.h>
#include <stddef.h>

#include "mbd_judge.h"

struct mbd_lift_opts {
	uint32_t memory_slots;   /* boot memory.max (128) */
	uint32_t reserved_slots; /* boot reserved.max (128) */
	/* each candidate is written here before it runs (a crash leaves it
	   behind), and the one kept at the end; NULL: not written */
	const char *out;
	FILE *log;               /* one line per candidate, or NULL */
	/* build without judging (a trace that crashes a sanitizer build
	   would end the process: the caller replays the candidate in a
	   child): the fillers follow vs[build_side], at scale (0: 1) */
	bool no_judge;
	int build_side;
	unsigned scale;          /* 0: try every scale */
	int fillers;             /* 0: both placements, 1: above, 2: below */
};

struct mbd_lift {
	bool reached;            /* the same bug on boot-sized arrays */
	size_t n_calls;          /* calls of the lifted trace */
	size_t n_fillers;        /* of them, filler calls */
	unsigned scale;          /* the reproducer's addresses times this */
	bool below;              /* the fillers under them, they moved up */
	char key[220];           /* the bug's key (the reproducer's judge) */
	char got[220];           /* what the last candidate reached instead */
	char why[320];           /* not reached: what the reproducer needs */
};

void mbd_lift_opts_default(struct mbd_lift_opts *o);

/*
 * Lift t for the judge c of vs[0] (mainline) and vs[1] (the patch); the
 * fillers follow the side that breaks the contract (the patch for a
 * behaviour change). lifted
 * gets the trace kept (the last candidate when none reached the bug).
 * Returns 0 (see l->reached), 1 when t itself shows no bug, -1 on an
 * internal error (out of memory, or -o cannot be written: printed).
 */
int mbd_lift_run(struct mbd_judge_ctx *c, const struct mbd_variant *const vs[2],
		 const struct mbd_trace *t, const struct mbd_lift_opts *o,
		 struct mbd_trace *lifted, struct mbd_lift *l);

#endif
