// SPDX-License-Identifier: GPL-2.0
/*
 * `mbdiff bench`: what the memblock calls of each trace cost in each
 * variant (mbd_bench.h measures). Every input is loaded before anything is
 * timed, so bad input stops the run at once and no CSV is written; the CSV
 * is written whole at the end (temp file and rename).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_bench_int.h"
#include "mbd_cli.h"
#include "mbd_input.h"
#include "mbd_pin.h"

#define DEFAULT_DIR "corpus/real"
#define MIB (1024u * 1024u)
/*
 * Processes a run's rounds are split over unless --layouts says: one per
 * ROUNDS_PER_LAYOUT rounds, MIN_LAYOUTS to MAX_LAYOUTS (never more than
 * the rounds). A process costs little (an exec and one untimed round per
 * trace and mode), and each is a fresh draw of the placement that a cold
 * ratio depends on: at 2000 rounds, 100 layouts halved the median change
 * of a trace's ratio between two runs against 20 (docs/speed.md).
 */
#define ROUNDS_PER_LAYOUT 20
#define MIN_LAYOUTS 10
#define MAX_LAYOUTS 100

static struct mbd_bench_stats *stat_at(const struct bench_cli *c, size_t k,
				       int mode, size_t i)
{
	return &c->st[(k * MBD_BENCH__MODES + (size_t)mode) * c->n + i];
}

/* A decimal count >= 1. */
static int parse_count(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v == 0 || v > 1000000ULL)
		return -1;
	*out = (size_t)v;
	return 0;
}

/* A number 0..max. */
static int parse_index(const char *s, size_t max, long *out)
{
	size_t v;

	if (s && strcmp(s, "0") == 0) {
		*out = 0;
		return 0;
	}
	if (parse_count(s, &v) || v > max)
		return -1;
	*out = (long)v;
	return 0;
}

/*
 * Every variant in the binary but the mutants, "reference" first (the
 * baseline). A mutant's cost says nothing, and running the 11 mutants in
 * the same rounds made the reference's twin read 1.012-1.020 warm, not
 * 1.00 (docs/speed.md, "Defaults"); --variants names them.
 */
static size_t all_variants(const struct mbd_variant **vs, size_t max)
{
	const struct mbd_variant *ref = mbd_variant_find("reference");
	size_t n = 0;

	if (ref && max)
		vs[n++] = ref;
	for (size_t i = 0; mbd_variants[i] && n < max; i++)
		if (mbd_variants[i] != ref && mbd_variants[i]->kind != MBD_KIND_MUTANT)
			vs[n++] = mbd_variants[i];
	return n;
}

static int parse_args(int argc, char **argv, struct bench_cli *c,
		      struct mbd_paths *paths)
{
	bool only_files = false;
	int errors = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		int m;

		if (only_files || a[0] != '-') {
			errors += mbd_walk(&a, 1, paths, "mbdiff", stderr);
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_files = true;
		} else if ((m = mbd_cli_match(argc, argv, &i, "--reps", &val)) != 0) {
			if (m < 0 || parse_count(val, &c->reps))
				return mbd_cli_bad_usage("bench: %s needs a count 1..1000000", a);
		} else if ((m = mbd_cli_match(argc, argv, &i, "--evict-mib", &val)) != 0) {
			if (m < 0 || parse_count(val, &c->evict_mib) || c->evict_mib > 4096)
				return mbd_cli_bad_usage("bench: %s needs 1..4096", a);
		} else if ((m = mbd_cli_match(argc, argv, &i, "--seed", &val)) != 0) {
			if (m < 0 || parse_count(val, &c->seed))
				return mbd_cli_bad_usage("bench: %s needs a count 1..1000000", a);
		} else if ((m = mbd_cli_match(argc, argv, &i, "--cpu", &val)) != 0) {
			if (m < 0 || parse_index(val, 4095, &c->cpu))
				return mbd_cli_bad_usage("bench: %s needs a CPU number 0..4095", a);
		} else if ((m = mbd_cli_match(argc, argv, &i, "--layouts", &val)) != 0) {
			if (m < 0 || parse_count(val, &c->layouts) || c->layouts > 1000)
				return mbd_cli_bad_usage("bench: %s needs a count 1..1000", a);
		} else if ((m = mbd_cli_match(argc, argv, &i, "--layout-worker", &val)) != 0) {
			/* not for users: one layout of a parent's run */
			if (m < 0 || parse_index(val, 999, &c->worker))
				return mbd_cli_bad_usage("bench: %s needs 0..999", a);
		} else if (strcmp(a, "--no-pin") == 0) {
			c->cpu = -2;
		} else if ((m = mbd_cli_match(argc, argv, &i, "--variants", &val)) != 0) {
			if (m < 0 || !*val)
				return mbd_cli_bad_usage("bench: %s needs a list of variant names", a);
			c->variants = val;
		} else if ((m = mbd_cli_match(argc, argv, &i, "--csv", &val)) != 0) {
			if (m < 0 || !*val)
				return mbd_cli_bad_usage("bench: %s needs a file name", a);
			c->csv = val;
		} else {
			return mbd_cli_bad_usage("bench: unknown option \"%s\"", a);
		}
	}
	return errors ? MBD_EXIT_ERROR : MBD_EXIT_OK;
}

static int load_inputs(struct bench_cli *c, const struct mbd_paths *p)
{
	int errors = 0;

	c->in = calloc(p->n ? p->n : 1, sizeof(*c->in));
	if (!c->in)
		return mbd_cli_internal("out of memory");
	for (size_t k = 0; k < p->n; k++) {
		struct input *in = &c->in[c->n_in];
		const char *base = strrchr(p->v[k], '/');
		size_t len;
		struct mbd_diag d;

		mbd_trace_init(&in->t);
		if (mbd_load_file(p->v[k], MBD_DECODER_STRUCTURED, &in->t, &d) != 0) {
			mbd_diag_print(stderr, &d);
			mbd_trace_free(&in->t);
			errors++;
			continue;
		}
		if (in->t.n_ops == 0) {
			fprintf(stderr, "%s: error: no memblock calls to time\n", p->v[k]);
			mbd_trace_free(&in->t);
			errors++;
			continue;
		}
		in->path = p->v[k];
		base = base ? base + 1 : p->v[k];
		len = strlen(base);
		if (len > 4 && strcmp(base + len - 4, ".mbt") == 0)
			len -= 4;
		if (len >= sizeof(in->name))
			len = sizeof(in->name) - 1;
		memcpy(in->name, base, len);
		in->name[len] = '\0';
		if ((int)len > c->wname)
			c->wname = (int)len;
		c->n_in++;
	}
	return errors ? MBD_EXIT_ERROR : MBD_EXIT_OK;
}

static int wvar(const struct bench_cli *c)
{
	int w = 7;

	for (size_t i = 0; i < c->n; i++)
		if ((int)strlen(c->vs[i]->name) > w)
			w = (int)strlen(c->vs[i]->name);
	return w;
}

static void print_header(const struct bench_cli *c, const struct mbd_bench *b)
{
	int err;
	size_t bytes;

	printf("mbdiff bench: %zu traces, %zu variants, %zu timed replays per "
	       "variant, trace and mode; baseline %s\n",
	       c->n_in, c->n, c->reps, c->vs[0]->name);
	printf("timed: the memblock calls only (reset, warm-up and cache sweep "
	       "untimed); variants interleaved round by round, order shuffled "
	       "(seed %zu), none twice in a row\n", c->seed);
	if (c->layouts > 1)
		printf("layouts: %zu processes, one after the other, each a fresh exec "
		       "(its own address-space layout and physical pages) measuring "
		       "%zu-%zu of the rounds; x base is the median of their medians, "
		       "its interval over them\n",
		       c->layouts, c->reps / c->layouts,
		       (c->reps + c->layouts - 1) / c->layouts);
	else
		printf("layouts: 1 (every round in this process: its one layout "
		       "biases every ratio alike)\n");
	if (c->layouts > 1)
		printf("image: each layout copies the program's code and read-only "
		       "pages to fresh physical pages of its own\n");
	else if ((err = mbd_bench_image(b, &bytes)) == 0)
		printf("image: %zu KiB of code and read-only pages copied to fresh "
		       "physical pages of this process's own\n", bytes / 1024);
	else
		printf("image: the page cache's pages, shared with every run "
		       "(copying them: %s)\n", strerror(err));
	if (c->cpu == -2)
		printf("cpu: not pinned (--no-pin)\n");
	else if (c->pinned >= 0)
		printf("cpu: pinned to %d\n", c->pinned);
	else
		printf("cpu: not pinned (sched_setaffinity: %s)\n", strerror(-c->pinned));
	printf("warm: an untimed replay of the same variant just before; cold: "
	       "the program image (every variant's code and statics) and the "
	       "trace flushed from the caches, then %zu MiB swept\n",
	       mbd_bench_evict_bytes(b) / MIB);
	printf("clock: an empty timed section takes %.0f ns (included in ns/trace)\n",
	       mbd_bench_clock_ns(b));
	err = mbd_bench_perf_errno(b);
	if (err)
		printf("instructions: not available (perf_event_open: %s)\n", strerror(err));
	else
		printf("instructions: user-space, perf_event_open "
		       "PERF_COUNT_HW_INSTRUCTIONS, median per call\n");
	if (c->layouts > 1)
		printf("x base: per layout, the median over its rounds of the ratio "
		       "to the baseline sample next to it; the median over layouts "
		       "[95%% confidence interval of that median, over the layouts; "
		       "none below 6 layouts: min and max]\n");
	else
		printf("x base: median over rounds of the ratio to the baseline sample "
		       "next to it, [95%% confidence interval of that median]\n");
	printf("\n%-*s  %-*s  %-4s  %5s  %10s  %10s  %10s  %8s  %10s  %7s  %-15s  %6s\n",
	       c->wname, "trace", wvar(c), "variant", "mode", "calls",
	       "ns min", "ns median", "ns max", "ns/call", "instr/call",
	       "x base", "95% CI", "faults");
}

static void print_row(const struct bench_cli *c, const struct input *in,
		      const char *vname, int mode, const struct mbd_bench_stats *s)
{
	char instr[32];

	if (s->instr_per_call >= 0)
		snprintf(instr, sizeof(instr), "%.1f", s->instr_per_call);
	else
		snprintf(instr, sizeof(instr), "-");
	printf("%-*s  %-*s  %-4s  %5zu  %10.0f  %10.0f  %10.0f  %8.1f  %10s  %7.3f  "
	       "[%5.3f, %5.3f]  %6.1f\n",
	       c->wname, in->name, wvar(c), vname,
	       mbd_bench_mode_name((enum mbd_bench_mode)mode), s->ops, s->ns_min,
	       s->ns_median, s->ns_max, s->ns_median / (double)s->ops, instr,
	       s->ratio, s->ratio_lo, s->ratio_hi, s->faults_per_rep);
}

/* A CSV field, quoted when it holds a comma, quote or line break. */
static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static const char csv_head[] =
	"trace,file,variant,kind,mode,calls,reps,trace_ns_min,trace_ns_median,"
	"trace_ns_max,call_ns_min,call_ns_median,call_ns_max,"
	"instructions_per_call,ratio_to_baseline,baseline,page_faults_per_rep,"
	"ratio_ci_low,ratio_ci_high\n";

static void csv_row(FILE *f, const struct bench_cli *c, const struct input *in,
		    size_t i, int mode, const struct mbd_bench_stats *s)
{
	double ops = (double)s->ops;

	csv_field(f, in->name);
	fputc(',', f);
	csv_field(f, in->path);
	fputc(',', f);
	csv_field(f, c->vs[i]->name);
	fprintf(f, ",%s,%s,%zu,%zu,%.1f,%.1f,%.1f,%.2f,%.2f,%.2f,",
		mbd_variant_kind_name(c->vs[i]->kind),
		mbd_bench_mode_name((enum mbd_bench_mode)mode), s->ops, s->reps,
		s->ns_min, s->ns_median, s->ns_max, s->ns_min / ops,
		s->ns_median / ops, s->ns_max / ops);
	if (s->instr_per_call >= 0)
		fprintf(f, "%.1f", s->instr_per_call);
	else
		fputs("NA", f);
	fprintf(f, ",%.4f,", s->ratio);
	csv_field(f, c->vs[0]->name);
	fprintf(f, ",%.2f,%.4f,%.4f\n", s->faults_per_rep, s->ratio_lo, s->ratio_hi);
}

/* Traces whose interval lies wholly above (+1) or below (-1) 1.00. */
static void count_sides(const struct bench_cli *c, int m, size_t i,
			size_t *above, size_t *below)
{
	*above = *below = 0;
	for (size_t k = 0; k < c->n_in; k++) {
		const struct mbd_bench_stats *s = stat_at(c, k, m, i);

		*above += s->ratio_lo > 1.0;
		*below += s->ratio_hi < 1.0;
	}
}

/*
 * Per variant and mode over all traces, a "boot" being one trace replayed
 * once: mean calls and ns per boot, the difference to the baseline per boot
 * and per call, the ratio of the summed boots with its interval
 * (mbd_bench_total), and how many traces alone are surely slower or faster.
 */
static int print_summary(const struct bench_cli *c, struct mbd_bench *b)
{
	struct mbd_bench_total *tot = calloc(c->n, sizeof(*tot));

	if (!tot)
		return mbd_cli_internal("out of memory");
	printf("\nper boot (one replay of a trace), mean over %zu traces; x base: "
	       "per round, the variant's ns summed over the traces / the "
	       "baseline's, median over rounds%s [95%% CI]; traces >1 / <1: "
	       "traces whose own interval lies above / below 1\n", c->n_in,
	       c->layouts > 1 ? " of each layout, median over layouts" : "");
	printf("%-*s  %-4s  %10s  %10s  %8s  %12s  %12s  %7s  %-15s  %11s\n", wvar(c),
	       "variant", "mode", "calls/boot", "ns/boot", "ns/call", "ns/boot-base",
	       "ns/call-base", "x base", "95% CI", "traces >1/<1");
	for (int m = 0; m < MBD_BENCH__MODES; m++) {
		if (mbd_bench_total(b, (enum mbd_bench_mode)m, tot) != 0) {
			free(tot);
			return mbd_cli_internal("bench: no totals");
		}
		for (size_t i = 0; i < c->n; i++) {
			double ops = 0, ns = 0, delta = 0;
			size_t above, below;

			for (size_t k = 0; k < c->n_in; k++) {
				const struct mbd_bench_stats *s = stat_at(c, k, m, i);

				ops += (double)s->ops;
				ns += s->ns_median;
				delta += s->ns_median - stat_at(c, k, m, 0)->ns_median;
			}
			count_sides(c, m, i, &above, &below);
			printf("%-*s  %-4s  %10.1f  %10.0f  %8.1f  %+12.0f  %+12.2f  %7.3f  "
			       "[%5.3f, %5.3f]  %5zu/%-5zu\n",
			       wvar(c), c->vs[i]->name,
			       mbd_bench_mode_name((enum mbd_bench_mode)m),
			       ops / (double)c->n_in, ns / (double)c->n_in, ns / ops,
			       delta / (double)c->n_in, delta / ops, tot[i].ratio,
			       tot[i].ratio_lo, tot[i].ratio_hi, above, below);
		}
	}
	printf("samples taken again after a context switch inside the clock: %zu\n",
	       mbd_bench_retaken(b));
	free(tot);
	return MBD_EXIT_OK;
}

static int measure(struct bench_cli *c, struct mbd_bench *b, FILE *csv)
{
	int rc;

	print_header(c, b);
	if (c->layouts > 1) {
		fflush(stdout);
		rc = mbd_bench_layouts(c, b);
		if (rc != MBD_EXIT_OK)
			return rc;
	}
	for (size_t k = 0; k < c->n_in; k++) {
		for (int m = 0; m < MBD_BENCH__MODES; m++) {
			struct mbd_bench_stats *row = stat_at(c, k, m, 0);

			if (c->layouts > 1) {
				mbd_bench_layouts_load(c, b, k, m);
				rc = mbd_bench_figures(b, (enum mbd_bench_mode)m, row);
			} else {
				rc = mbd_bench_run(b, &c->in[k].t, (enum mbd_bench_mode)m, row);
			}
			if (rc != 0)
				return mbd_cli_internal("bench: out of memory");
			for (size_t i = 0; i < c->n; i++) {
				print_row(c, &c->in[k], c->vs[i]->name, m, &row[i]);
				if (csv)
					csv_row(csv, c, &c->in[k], i, m, &row[i]);
			}
		}
		fflush(stdout);
	}
	return print_summary(c, b);
}

static int write_csv(const char *path, const char *buf, size_t len)
{
	if (mbd_cli_write_output(path, buf, len) != 0)
		return MBD_EXIT_ERROR;
	printf("\nwrote %s\n", path);
	return MBD_EXIT_OK;
}

static int run(struct bench_cli *c)
{
	struct mbd_bench_opts o;
	struct mbd_bench *b;
	char *buf = NULL;
	size_t len = 0;
	FILE *csv = NULL;
	int rc;

	mbd_bench_opts_default(&o);
	if (c->reps)
		o.reps = c->reps;
	c->reps = o.reps;
	if (c->seed)
		o.seed = c->seed;
	c->seed = (size_t)o.seed;
	if (!c->layouts) {
		c->layouts = c->reps / ROUNDS_PER_LAYOUT;
		if (c->layouts < MIN_LAYOUTS)
			c->layouts = MIN_LAYOUTS;
		if (c->layouts > MAX_LAYOUTS)
			c->layouts = MAX_LAYOUTS;
	}
	if (c->layouts > c->reps)
		c->layouts = c->reps;
	if (c->worker >= (long)c->layouts)
		return mbd_cli_bad_usage("bench: --layout-worker %ld: there are %zu layouts",
					 c->worker, c->layouts);
	if (c->worker >= 0)
		/* each layout its own orders */
		o.seed += (uint64_t)(c->worker + 1) * 0x9e3779b97f4a7c15u;
	else
		o.batches = c->layouts;
	if (c->cpu != -2)
		c->pinned = mbd_pin_cpu((int)c->cpu);
	/* a CPU asked for by number must be had; the default may be refused */
	if (c->cpu >= 0 && c->pinned < 0)
		return mbd_cli_error("bench: --cpu %ld: cannot pin to it (%s)", c->cpu,
				     strerror(-c->pinned));
	if (c->evict_mib)
		o.evict_bytes = c->evict_mib * MIB;
	c->st = calloc(c->n_in * MBD_BENCH__MODES * c->n, sizeof(*c->st));
	b = c->st ? mbd_bench_new(c->vs, c->n, &o) : NULL;
	if (!b) {
		free(c->st);
		return mbd_cli_internal("bench: out of memory");
	}
	if (c->worker >= 0) {
		rc = mbd_bench_worker(c, b);
		mbd_bench_free(b);
		free(c->st);
		return rc;
	}
	if (c->csv) {
		csv = open_memstream(&buf, &len);
		if (!csv) {
			mbd_bench_free(b);
			return mbd_cli_internal("out of memory");
		}
		fputs(csv_head, csv);
	}
	rc = measure(c, b, csv);
	if (csv) {
		if (fclose(csv) != 0 && rc == MBD_EXIT_OK)
			rc = mbd_cli_internal("bench: out of memory");
		if (rc == MBD_EXIT_OK)
			rc = write_csv(c->csv, buf, len);
		free(buf);
	}
	mbd_bench_free(b);
	mbd_bench_layouts_free(c);
	free(c->st);
	return rc;
}

int mbd_cli_bench(int argc, char **argv)
{
	struct bench_cli c = { .wname = 5, .cpu = -1, .worker = -1 };
	struct mbd_paths paths = { 0 };
	size_t max = mbd_variant_count();
	struct stat st;
	int rc;

	c.vs = calloc(max ? max : 1, sizeof(*c.vs));
	if (!c.vs)
		return mbd_cli_internal("out of memory");
	rc = parse_args(argc, argv, &c, &paths);
	if (rc == MBD_EXIT_OK && paths.n == 0) {
		if (stat(DEFAULT_DIR, &st) == 0 && S_ISDIR(st.st_mode))
			rc = mbd_walk((const char *const[]){ DEFAULT_DIR }, 1, &paths, "mbdiff", stderr) ?
			     MBD_EXIT_ERROR : MBD_EXIT_OK;
		else
			rc = mbd_cli_bad_usage("bench: no inputs given and no %s here "
					       "(run it in the source tree, or name "
					       "traces)", DEFAULT_DIR);
	}
	if (rc == MBD_EXIT_OK) {
		c.n = c.variants ? mbd_cli_variant_list(c.variants, c.vs, max)
				 : all_variants(c.vs, max);
		if (c.n == 0)
			rc = c.variants ? MBD_EXIT_ERROR :
			     mbd_cli_error("bench: no variant in this binary");
	}
	/* the CSV path is checked before minutes of work */
	if (rc == MBD_EXIT_OK && c.csv)
		rc = mbd_cli_check_output(c.csv, (const char *const *)paths.v, paths.n);
	if (rc == MBD_EXIT_OK)
		rc = load_inputs(&c, &paths);
	if (rc == MBD_EXIT_OK && c.n_in == 0)
		rc = mbd_cli_error("bench: no traces to time");
	if (rc == MBD_EXIT_OK)
		rc = run(&c);
	for (size_t k = 0; k < c.n_in; k++)
		mbd_trace_free(&c.in[k].t);
	free(c.in);
	free(c.vs);
	mbd_paths_free(&paths);
	return rc;
}
