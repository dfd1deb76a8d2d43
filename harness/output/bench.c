// SPDX-License-Identifier: GPL-2.0
/*
 * The measuring loop behind `mbdiff bench` (mbd_bench.h): interleaved
 * rounds, one timed replay per variant per round in a shuffled order, with
 * the reset, the warm-up replay and the cache sweep kept outside the clock.
 */
#define _GNU_SOURCE

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench_int.h"
#include "mbd_bench.h"
#include "mbd_median.h"
#include "mbd_perf.h"

#define MIB (1024u * 1024u)
#define CALIBRATION_RUNS 64
/* a sample switched out this often in a row is kept as it is */
#define MAX_RETAKES 8

struct mbd_bench {
	const struct mbd_variant **vs;
	size_t n;
	struct mbd_bench_opts opts;
	struct mbd_perf perf;
	uint64_t *ns;        /* [variant][rep] */
	uint64_t *instr;     /* [variant][rep], user instructions */
	double *total;       /* [mode][variant][rep]: ns summed over traces */
	size_t traces[MBD_BENCH__MODES];
	uint64_t *scratch;   /* reps values, for medians */
	double *dscratch;
	size_t *order;       /* [variant]: this round's order */
	size_t last;         /* the variant sampled last (n: none yet) */
	uint64_t rnd;        /* xorshift64 state for the orders */
	size_t retaken;
	long *faults;        /* [variant] */
	size_t *ops;         /* [variant] */
	unsigned char *evict;  /* allocated at the first cold run */
	unsigned sink;       /* keeps the sweep from being optimized out */
	double clock_ns;     /* empty timed section */
	int image_err;       /* mbd_bench_image_private() */
	size_t image_bytes;
	uint64_t instr_overhead;
};

/* One timed replay (t NULL: an empty one, to calibrate). */
struct sample {
	uint64_t ns;
	uint64_t instr;
	bool counted;
	bool switched;   /* the thread was switched out */
	long faults;
	size_t ops;
};

const char *mbd_bench_mode_name(enum mbd_bench_mode m)
{
	return m == MBD_BENCH_COLD ? "cold" : "warm";
}

/*
 * 2000 rounds over 100 layouts (cli_bench.c) and a 1 MiB sweep: on a busy
 * 2-core VM the twin reads 1.00 +- 0.01 and two runs agree within 0.02 for
 * every patch, in about a minute a run (docs/speed.md, "Defaults"). A sweep
 * of twice the last-level cache (--evict-mib 64 here) also evicts the page
 * tables, the arena and libc, but its samples are so noisy that the same
 * would need an estimated 50 minutes a run.
 */
void mbd_bench_opts_default(struct mbd_bench_opts *o)
{
	o->reps = 2000;
	o->seed = 1;
	o->batches = 1;
	/* the small caches, not L3; the image and the trace are flushed
	 * line by line */
	o->evict_bytes = 1 * MIB;
}

size_t mbd_bench_apply(const struct mbd_variant *v, const struct mbd_trace *t)
{
	struct mbd_result res;
	size_t i;

	for (i = 0; i < t->n_ops; i++) {
		v->apply(&t->ops[i], &res);
		if (res.panicked)
			return i + 1;
	}
	return i;
}

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000u + (uint64_t)ts->tv_nsec;
}

static void timed(struct mbd_bench *b, const struct mbd_variant *v,
		  const struct mbd_trace *t, struct sample *s)
{
	struct rusage ru0, ru1;
	struct timespec t0, t1;
	uint64_t c0 = 0, c1 = 0;
	bool ok;

	getrusage(RUSAGE_THREAD, &ru0);
	ok = mbd_perf_read(&b->perf, &c0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	s->ops = t ? mbd_bench_apply(v, t) : 0;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ok = mbd_perf_read(&b->perf, &c1) && ok;
	getrusage(RUSAGE_THREAD, &ru1);
	s->ns = ts_ns(&t1) - ts_ns(&t0);
	s->counted = ok && c1 >= c0;
	s->instr = s->counted ? c1 - c0 : 0;
	s->faults = ru1.ru_minflt - ru0.ru_minflt;
	s->switched = ru1.ru_nvcsw != ru0.ru_nvcsw || ru1.ru_nivcsw != ru0.ru_nivcsw;
}

static void calibrate(struct mbd_bench *b)
{
	struct sample s;

	b->clock_ns = 0;
	b->instr_overhead = 0;
	for (int i = 0; i < CALIBRATION_RUNS; i++) {
		timed(b, NULL, NULL, &s);
		if (i == 0 || s.ns < b->clock_ns)
			b->clock_ns = (double)s.ns;
		if (s.counted && (i == 0 || s.instr < b->instr_overhead))
			b->instr_overhead = s.instr;
	}
}

struct mbd_bench *mbd_bench_new(const struct mbd_variant *const *vs, size_t n,
				const struct mbd_bench_opts *o)
{
	struct mbd_bench *b;
	size_t cells;

	if (!vs || n == 0 || !o || o->reps == 0 || o->reps > SIZE_MAX / n / 8 ||
	    o->batches == 0 || o->batches > o->reps ||
	    !mbd_variants_distinct(vs, n))
		return NULL;
	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->perf.fd = -1;
	b->n = n;
	b->opts = *o;
	cells = n * o->reps;
	b->vs = calloc(n, sizeof(*b->vs));
	b->ns = calloc(cells, sizeof(*b->ns));
	b->instr = calloc(cells, sizeof(*b->instr));
	b->total = calloc(cells * MBD_BENCH__MODES, sizeof(*b->total));
	b->scratch = calloc(o->reps, sizeof(*b->scratch));
	b->dscratch = calloc(o->reps, sizeof(*b->dscratch));
	b->faults = calloc(n, sizeof(*b->faults));
	b->ops = calloc(n, sizeof(*b->ops));
	b->order = calloc(n, sizeof(*b->order));
	if (!b->vs || !b->ns || !b->instr || !b->total ||
	    !b->scratch || !b->dscratch || !b->faults || !b->ops || !b->order) {
		mbd_bench_free(b);
		return NULL;
	}
	memcpy(b->vs, vs, n * sizeof(*vs));
	b->last = n;
	/* xorshift64 must not start at 0 */
	b->rnd = o->seed ? o->seed : 1;
	/* before anything is timed: this process's own code pages */
	b->image_err = mbd_bench_image_private(&b->image_bytes);
	mbd_perf_open(&b->perf);
	calibrate(b);
	return b;
}

void mbd_bench_free(struct mbd_bench *b)
{
	if (!b)
		return;
	mbd_perf_close(&b->perf);
	free(b->vs);
	free(b->ns);
	free(b->instr);
	free(b->total);
	free(b->order);
	free(b->scratch);
	free(b->dscratch);
	free(b->faults);
	free(b->ops);
	free(b->evict);
	free(b);
}

int mbd_bench_perf_errno(const struct mbd_bench *b)
{
	return b->perf.err;
}

double mbd_bench_clock_ns(const struct mbd_bench *b)
{
	return b->clock_ns;
}

int mbd_bench_image(const struct mbd_bench *b, size_t *bytes)
{
	*bytes = b->image_bytes;
	return b->image_err;
}

size_t mbd_bench_evict_bytes(const struct mbd_bench *b)
{
	return b->opts.evict_bytes;
}

size_t mbd_bench_retaken(const struct mbd_bench *b)
{
	return b->retaken;
}

/* Read one byte of every cache line: the lines the calls used are evicted. */
static int sweep(struct mbd_bench *b, const struct mbd_trace *t)
{
	const volatile unsigned char *p;
	unsigned sum = 0;

	if (!b->evict) {
		b->evict = malloc(b->opts.evict_bytes);
		if (!b->evict)
			return -1;
		/* fault every page in now, not inside a sweep */
		memset(b->evict, 1, b->opts.evict_bytes);
	}
	p = b->evict;
	for (size_t i = 0; i < b->opts.evict_bytes; i += 64)
		sum += p[i];
	b->sink += sum;
	mbd_bench_image_flush(t->ops, t->n_ops * sizeof(*t->ops));
	return 0;
}

/* One sample of variant i in mode m, stored as repetition rep (< 0: discard). */
static int sample_one(struct mbd_bench *b, size_t i, const struct mbd_trace *t,
		      enum mbd_bench_mode m, long rep)
{
	const struct mbd_variant *v = b->vs[i];
	struct sample s;

	for (int take = 0;; take++) {
		v->reset(&t->cfg, 0);
		if (m == MBD_BENCH_WARM) {
			mbd_bench_apply(v, t);
			v->reset(&t->cfg, 0);
		} else if (sweep(b, t) != 0) {
			return -1;
		}
		timed(b, v, t, &s);
		/* another task ran inside the clock: its time is not ours */
		if (!s.switched || take == MAX_RETAKES)
			break;
		b->retaken++;
	}
	b->last = i;
	if (rep < 0)
		return 0;
	b->ns[i * b->opts.reps + (size_t)rep] = s.ns;
	b->instr[i * b->opts.reps + (size_t)rep] =
		s.counted && s.instr > b->instr_overhead ? s.instr - b->instr_overhead : 0;
	b->faults[i] += s.faults;
	b->ops[i] = s.ops;
	return 0;
}

static uint64_t next_rnd(struct mbd_bench *b)
{
	b->rnd ^= b->rnd << 13;
	b->rnd ^= b->rnd >> 7;
	b->rnd ^= b->rnd << 17;
	return b->rnd;
}

/*
 * A shuffled order for the next round whose first variant is not the one
 * sampled last: every variant has the same odds of each position and of
 * each predecessor, and none ever follows itself.
 */
static void next_order(struct mbd_bench *b)
{
	size_t n = b->n;

	for (size_t i = 0; i < n; i++)
		b->order[i] = i;
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(next_rnd(b) % i), tmp = b->order[i - 1];

		b->order[i - 1] = b->order[j];
		b->order[j] = tmp;
	}
	if (n > 1 && b->order[0] == b->last) {
		size_t j = 1 + (size_t)(next_rnd(b) % (n - 1));

		b->order[0] = b->order[j];
		b->order[j] = b->last;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Median of the reps values at v (sorted in scratch). */
static double median_u64(struct mbd_bench *b, const uint64_t *v)
{
	size_t n = b->opts.reps;

	memcpy(b->scratch, v, n * sizeof(*v));
	qsort(b->scratch, n, sizeof(*b->scratch), cmp_u64);
	if (n % 2)
		return (double)b->scratch[n / 2];
	return ((double)b->scratch[n / 2 - 1] + (double)b->scratch[n / 2]) / 2;
}

static void stats_of(struct mbd_bench *b, size_t i, struct mbd_bench_stats *st)
{
	size_t reps = b->opts.reps;
	const uint64_t *ns = b->ns + i * reps;
	const uint64_t *base = b->ns;
	struct mbd_median md;

	memset(st, 0, sizeof(*st));
	st->ops = b->ops[i];
	st->reps = reps;
	st->ns_median = median_u64(b, ns);
	/* sorted by median_u64 */
	st->ns_min = (double)b->scratch[0];
	st->ns_max = (double)b->scratch[reps - 1];
	for (size_t r = 0; r < reps; r++)
		b->dscratch[r] = base[r] ? (double)ns[r] / (double)base[r] : 1.0;
	mbd_median_of_batches(b->dscratch, reps, b->opts.batches, &md);
	st->ratio = md.median;
	st->ratio_lo = md.lo;
	st->ratio_hi = md.hi;
	st->instr_per_call = -1;
	if (b->perf.fd >= 0 && st->ops)
		st->instr_per_call = median_u64(b, b->instr + i * reps) / (double)st->ops;
	st->faults_per_rep = (double)b->faults[i] / (double)reps;
}

void mbd_bench_raw(struct mbd_bench *b, struct mbd_bench_raw *out)
{
	out->ns = b->ns;
	out->instr = b->instr;
	out->faults = b->faults;
	out->ops = b->ops;
}

void mbd_bench_begin(struct mbd_bench *b)
{
	memset(b->faults, 0, b->n * sizeof(*b->faults));
	memset(b->ops, 0, b->n * sizeof(*b->ops));
}

int mbd_bench_measure(struct mbd_bench *b, const struct mbd_trace *t,
		      enum mbd_bench_mode m, size_t lo, size_t hi)
{
	if (!b || !t || m >= MBD_BENCH__MODES || lo >= hi || hi > b->opts.reps)
		return -1;
	/* round lo - 1 warms up the process (code pages, allocator, sweep
	 * buffer) and is not kept */
	for (long rep = (long)lo - 1; rep < (long)hi; rep++) {
		next_order(b);
		for (size_t k = 0; k < b->n; k++)
			if (sample_one(b, b->order[k], t, m, rep < (long)lo ? -1 : rep) != 0)
				return -1;
	}
	/* leave every variant reset, its arena zeroed */
	for (size_t i = 0; i < b->n; i++)
		b->vs[i]->reset(&t->cfg, 0);
	return 0;
}

int mbd_bench_figures(struct mbd_bench *b, enum mbd_bench_mode m,
		      struct mbd_bench_stats *out)
{
	size_t reps = b ? b->opts.reps : 0;

	if (!b || !out || m >= MBD_BENCH__MODES)
		return -1;
	b->traces[m]++;
	for (size_t i = 0; i < b->n; i++) {
		double *tot = b->total + ((size_t)m * b->n + i) * reps;

		for (size_t r = 0; r < reps; r++)
			tot[r] += (double)b->ns[i * reps + r];
		stats_of(b, i, &out[i]);
	}
	return 0;
}

void mbd_bench_add_retaken(struct mbd_bench *b, size_t n)
{
	b->retaken += n;
}

int mbd_bench_run(struct mbd_bench *b, const struct mbd_trace *t,
		  enum mbd_bench_mode m, struct mbd_bench_stats *out)
{
	if (!b || !t || !out || m >= MBD_BENCH__MODES)
		return -1;
	mbd_bench_begin(b);
	if (mbd_bench_measure(b, t, m, 0, b->opts.reps) != 0)
		return -1;
	return mbd_bench_figures(b, m, out);
}

int mbd_bench_total(struct mbd_bench *b, enum mbd_bench_mode m,
		    struct mbd_bench_total *out)
{
	size_t reps = b ? b->opts.reps : 0;

	if (!b || !out || m >= MBD_BENCH__MODES || !b->traces[m])
		return -1;
	for (size_t i = 0; i < b->n; i++) {
		const double *base = b->total + (size_t)m * b->n * reps;
		const double *tot = base + i * reps;
		struct mbd_median md;

		for (size_t r = 0; r < reps; r++)
			b->dscratch[r] = base[r] > 0 ? tot[r] / base[r] : 1.0;
		mbd_median_of_batches(b->dscratch, reps, b->opts.batches, &md);
		out[i].traces = b->traces[m];
		out[i].ratio = md.median;
		out[i].ratio_lo = md.lo;
		out[i].ratio_hi = md.hi;
		out[i].covered = md.covered;
	}
	return 0;
}
