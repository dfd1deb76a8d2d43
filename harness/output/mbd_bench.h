/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cost of the memblock calls alone (`mbdiff bench`): a trace is replayed
 * through the variant descriptor many times and only the apply() calls are
 * timed; no snapshot, comparison or oracle runs in between.
 *
 * Every variant given is measured in one interleaved loop: each round takes
 * one sample of every variant, so frequency drift, other tenants and timer
 * noise hit all of them alike, and the ratio to the baseline (variant 0) is
 * taken per round. The order inside a round is a seeded shuffle, and no
 * variant ever follows itself across a round's edge: what ran just before
 * a sample (branch predictors, caches the sweep leaves) then has the same
 * odds for every variant. A fixed order is not neutral: with "forwards,
 * then backwards" the first and last variants ran twice in a row at every
 * round's edge and a middle variant identical to the baseline read 1.04 to
 * 1.12 (docs/speed.md). A sample during which the thread was switched out
 * is taken again.
 */
#ifndef MBD_BENCH_H
#define MBD_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mbd_trace.h"
#include "mbd_variant.h"

/*
 * warm: the sample is preceded by an untimed replay of the same variant,
 *       so its code, data and the TLB are hot.
 * cold: every line of the program image (every variant's code and
 *       statics) and of the trace is flushed from the caches, then
 *       evict_bytes are swept: the calls' code and memblock's own data come
 *       from memory, as at boot. With the default 1 MiB sweep the page
 *       tables, the arena (just zeroed by the reset) and libc stay in the
 *       last-level cache; a sweep larger than that cache evicts them too,
 *       at a far noisier sample (docs/speed.md).
 * Both reset the variant just before the timed replay; that reset zeroes
 * what the previous replay wrote and keeps the arena pages mapped (the
 * descriptor's reset always does), so a sample pays a page fault only for
 * a page no replay of this process wrote before. faults_per_rep shows how
 * many there were.
 */
enum mbd_bench_mode { MBD_BENCH_WARM = 0, MBD_BENCH_COLD = 1, MBD_BENCH__MODES };

const char *mbd_bench_mode_name(enum mbd_bench_mode m);

struct mbd_bench_opts {
	size_t reps;         /* timed samples per variant and mode (>= 1) */
	size_t evict_bytes;  /* cold mode: bytes swept before each sample */
	uint64_t seed;       /* the order of the variants in every round */
	size_t batches;      /* the rounds are this many consecutive batches,
				each measured in a process of its own (the
				caller's job): 1 <= batches <= reps; a ratio
				is then the median of the batches' medians
				(mbd_median_of_batches) */
};

/* reps 2000; evict_bytes 1 MiB; seed 1; batches 1 (bench.c says why). */
void mbd_bench_opts_default(struct mbd_bench_opts *o);

/* Figures of one variant on one trace in one mode. */
struct mbd_bench_stats {
	size_t ops;             /* calls per replay (fewer than the trace's when
				   a call panicked: the kernel stops there) */
	size_t reps;
	double ns_min, ns_median, ns_max;  /* one replay of the trace */
	double ratio;           /* median over rounds of ns / baseline's ns
				   (batches > 1: over the batches' medians) */
	double ratio_lo, ratio_hi;  /* its 95% confidence interval (mbd_median.h) */
	double instr_per_call;  /* median; < 0 when not counted */
	double faults_per_rep;  /* minor page faults inside the timed replays */
};

struct mbd_bench;

/* vs[0] is the baseline; each variant at most once. NULL on bad arguments
 * or out of memory. */
struct mbd_bench *mbd_bench_new(const struct mbd_variant *const *vs, size_t n,
				const struct mbd_bench_opts *o);
void mbd_bench_free(struct mbd_bench *b);

/* 0 when instructions are counted, else the errno perf_event_open gave. */
int mbd_bench_perf_errno(const struct mbd_bench *b);
/* Smallest time one empty timed section takes (it is in every sample). */
double mbd_bench_clock_ns(const struct mbd_bench *b);
size_t mbd_bench_evict_bytes(const struct mbd_bench *b);
/* mbd_bench_new() gives the process its own copy of the program's code and
 * read-only pages (bench_image.c says why): 0 and the bytes copied, or the
 * errno that stopped it. */
int mbd_bench_image(const struct mbd_bench *b, size_t *bytes);

/* Measure t in mode m; out[i] for variant i. Returns 0 or -1 (bad args).
 * The same as begin, measure every round, figures. */
int mbd_bench_run(struct mbd_bench *b, const struct mbd_trace *t,
		  enum mbd_bench_mode m, struct mbd_bench_stats *out);

/*
 * The same in steps, so that the rounds can be measured by several
 * processes (`mbdiff bench --layouts`) and their samples put together here:
 * begin, then measure (or write the raw samples) round by round, then
 * figures.
 */
struct mbd_bench_raw {
	uint64_t *ns;      /* [variant * reps + round]: one timed replay */
	uint64_t *instr;   /* [variant * reps + round]: its instructions, 0 if
			      not counted */
	long *faults;      /* [variant]: page faults, summed over the rounds */
	size_t *ops;       /* [variant]: calls per replay */
};
void mbd_bench_raw(struct mbd_bench *b, struct mbd_bench_raw *out);
/* Zeroes faults and ops: a new trace or mode starts. */
void mbd_bench_begin(struct mbd_bench *b);
/* Rounds [lo, hi) of t in mode m into the raw samples, after one untimed
 * round that warms up the process. Returns 0, or -1 (bad args, out of
 * memory). */
int mbd_bench_measure(struct mbd_bench *b, const struct mbd_trace *t,
		      enum mbd_bench_mode m, size_t lo, size_t hi);
/* The figures of the raw samples (every round of one trace in mode m):
 * out[i] for variant i, and their share of mbd_bench_total(). */
int mbd_bench_figures(struct mbd_bench *b, enum mbd_bench_mode m,
		      struct mbd_bench_stats *out);
/* Samples another process took again (mbd_bench_retaken). */
void mbd_bench_add_retaken(struct mbd_bench *b, size_t n);

/*
 * Every trace mbd_bench_run() measured in mode m, as one set of boots: per
 * round, the variant's ns summed over the traces divided by the baseline's
 * sum, so each trace weighs what it costs. Median over rounds and its 95%
 * interval; each trace's round r pairs a variant with the baseline sample
 * taken next to it.
 */
struct mbd_bench_total {
	size_t traces;
	double ratio, ratio_lo, ratio_hi;
	bool covered;           /* false: fewer than 6 rounds, lo/hi are min/max */
};

/* out[i] for variant i. Returns 0, or -1 (bad args, no trace measured). */
int mbd_bench_total(struct mbd_bench *b, enum mbd_bench_mode m,
		    struct mbd_bench_total *out);

/* Samples taken again because the thread was switched out during one. */
size_t mbd_bench_retaken(const struct mbd_bench *b);

/*
 * The narrowest replay: apply t's ops to v as they are, from whatever state
 * v is in (reset it first). Stops after a call that panicked, as the kernel
 * would. Returns the number of calls made.
 */
size_t mbd_bench_apply(const struct mbd_variant *v, const struct mbd_trace *t);

#endif
