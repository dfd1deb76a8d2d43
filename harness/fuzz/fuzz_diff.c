// SPDX-License-Identifier: GPL-2.0
/*
 * The differential fuzz target: decode the input bytes into a trace, run it
 * on every selected variant in lockstep, and abort() with a report at the
 * first divergence, so that every engine (libFuzzer, AFL++, the replay
 * driver) saves the input as a crash. Options: fuzz_options.h. With
 * --known / --keep-going, divergences explained by a known-differences file
 * are counted once per distinct signature instead, and, keeping going, the
 * others are written once per signature key (fuzz_keep.c), so that a
 * campaign measures its whole time box.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_keep.h"
#include "fuzz_lines.h"
#include "fuzz_options.h"
#include "mbd_bin.h"
#include "mbd_input.h"
#include "mbd_known.h"
#include "mbd_report.h"
#include "mbd_runner.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Process-wide by necessity: the engine calls us with bytes only. Nothing
 * here carries over from one input to the next; the runner resets every
 * variant (and its arena, warnings, panic state) at the start of each run,
 * and the trace is cleared before each decode.
 */
static struct {
	struct mbd_runner *runner;
	struct mbd_trace trace;
	struct mbd_trace boot;  /* --config=boot: the trace that runs */
	enum mbd_decoder decoder;
	int verbose;
	struct mbd_fuzz_opts opts;
	bool have_known;
	struct mbd_known known;
	struct mbd_sigset seen_known;
	char **env_words;       /* $MBDIFF_ARGS split: g.opts points into it */
	mbd_fuzz_kept_fn kept;  /* the op mutator's, once it runs */
} g;

static _Noreturn void bad_options(void)
{
	fputs("mbdiff: bad fuzz target options (--help lists them)\n", stderr);
	exit(2);
}

/*
 * Every call kind once, on tiny arrays, so that resizing, allocation and
 * every flag's interval set run too. Its verdict does not matter.
 */
static const char warm_up_trace[] =
	"config memory.max=1 reserved.max=1 resize=1\n"
	"memblock_add: [0x0000000000100000-0x00000000004fffff]\n"
	"memblock_add_node: [0x0000000000800000-0x00000000008fffff] nid=1 flags=0x0\n"
	"memblock_reserve: [0x0000000000100000-0x0000000000100fff]\n"
	"memblock_reserve: [0x0000000000300000-0x0000000000300fff]\n"
	"memblock_reserve_kern: [0x0000000000310000-0x0000000000310fff] nid=1\n"
	"memblock_phys_alloc_range: 4096 bytes align=0x1000 from=0x0 max_addr=0x0\n"
	"memblock_phys_alloc_try_nid: 4096 bytes align=0x1000 nid=1\n"
	"memblock_mark_hotplug: [0x0000000000800000-0x000000000080ffff]\n"
	"memblock_clear_hotplug: [0x0000000000800000-0x0000000000800fff]\n"
	"memblock_mark_mirror: [0x0000000000100000-0x00000000001fffff]\n"
	"memblock_mark_nomap: [0x0000000000200000-0x00000000002fffff]\n"
	"memblock_clear_nomap: [0x0000000000200000-0x0000000000200fff]\n"
	"memblock_reserved_mark_noinit: [0x0000000000300000-0x0000000000300fff]\n"
	"memblock_set_node: [0x0000000000100000-0x00000000001fffff] type=memory nid=0\n"
	"memblock_phys_free: [0x0000000000100000-0x0000000000100fff]\n"
	"memblock_remove: [0x0000000000400000-0x0000000000400fff]\n"
	"memblock_set_current_limit: 0x0000000001000000\n"
	"memblock_set_bottom_up: 1\n"
	"memblock_phys_alloc_range: 8192 bytes align=0x1000 from=0x0 max_addr=0x0\n"
	"slab_available\n"
	"memblock_add: [0x0000000002000000-0x00000000020fffff]\n"
	"memblock_trim_memory: 0x10000\n";

/*
 * Runs before the first input, and before AFL++'s fork server starts: maps
 * the arenas, takes the variants' first-reset snapshots and gives every
 * buffer (trace, states, oracle sets) its first allocation. Otherwise each
 * new process would take those first-use paths on its first input only,
 * and the same input would show different coverage (AFL++ stability).
 */
static void warm_up(void)
{
	struct mbd_verdict v;

	if (mbd_decode_input((const uint8_t *)warm_up_trace, sizeof(warm_up_trace) - 1,
			     "<warm-up>", MBD_DECODER_STRUCTURED, &g.trace, NULL) == 0)
		mbd_runner_run(g.runner, &g.trace, &v);
	mbd_trace_clear(&g.trace);
	mbd_runner_run(g.runner, &g.trace, &v);
}

static void setup_known(const struct mbd_fuzz_opts *o)
{
	mbd_known_init(&g.known);
	mbd_sigset_init(&g.seen_known);
	if (o->known) {
		if (mbd_known_load(&g.known, o->known, stderr))
			exit(2);
		g.have_known = true;
		fprintf(stderr, "mbdiff: %zu known differences from %s\n",
			g.known.n, o->known);
	}
}

static void setup(const struct mbd_fuzz_opts *o)
{
	struct mbd_runner_opts ro = o->runner;
	const struct mbd_variant *vs[MBD_FUZZ_MAX_VARIANTS];
	bool uncounted = false;
	char pair[256];

	setup_known(o);

	/*
	 * A baseline fault and no divergence are both no crash here, so the
	 * baseline's oracle may wait until something happens (mbd_runner.h).
	 * Only for a reference baseline: past a fault it does not see yet, a
	 * baseline runs on, and a patch may then corrupt memory (deng-2022
	 * does) where the exact runner would have stopped. --verbose reports
	 * every trace, so it keeps the exact verdicts.
	 */
	ro.lazy_baseline_oracle = !ro.verbose && o->n_variants > 0 &&
				  o->variants[0]->kind == MBD_KIND_REFERENCE;
	/*
	 * The baseline's edges are mostly the other variants' edges again:
	 * libFuzzer would collect each twice per input. Its uncounted copy
	 * runs the same code (docs/speed.md measured what it costs and
	 * what it finds). A variant alone is the subject: counted.
	 */
	memcpy(vs, o->variants, o->n_variants * sizeof(vs[0]));
	if (o->n_variants > 1 && !o->baseline_coverage) {
		const struct mbd_variant *u = mbd_variant_uncounted(vs[0]);

		uncounted = u != NULL;
		if (u)
			vs[0] = u;
	}
	/* libFuzzer reads the counters of these variants, not of all linked */
	for (size_t i = 0; i < o->n_variants; i++)
		mbd_variant_feed_coverage(vs[i]);
	g.runner = mbd_runner_new(vs, o->n_variants, &ro);
	if (!g.runner) {
		fputs("mbdiff: cannot create the runner (out of memory)\n", stderr);
		exit(2);
	}
	mbd_trace_init(&g.trace);
	mbd_trace_init(&g.boot);
	g.opts = *o;
	if (o->keep_dir && mkdir(o->keep_dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "mbdiff: --keep-going=%s: %s\n", o->keep_dir,
			strerror(errno));
		exit(2);
	}
	if (!o->no_warm_up)
		warm_up();
	g.decoder = o->decoder;
	g.verbose = o->runner.verbose;
	mbd_fuzz_opts_pair(o, pair, sizeof(pair));
	fprintf(stderr, "mbdiff: fuzz target %s, decoder %s, oracle %s, min-class %s%s%s%s\n",
		pair, mbd_decoder_name(o->decoder), o->runner.oracle ? "on" : "off",
		mbd_class_name(o->runner.min_class), o->boot ? ", boot arrays" : "",
		o->keep_dir ? ", keep going" : "",
		uncounted ? ", baseline uncounted" : "");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct mbd_fuzz_opts o;

	if (g.runner)
		return 0;
	mbd_fuzz_opts_default(&o);
	if (mbd_fuzz_opts_argv(&o, *argc, *argv, stderr))
		bad_options();
	if (o.help) {
		mbd_fuzz_usage(stdout, *argc > 0 ? (*argv)[0] : "fuzz_diff");
		exit(0);
	}
	if (mbd_fuzz_opts_finish(&o, stderr))
		bad_options();
	setup(&o);
	/* libFuzzer's status lines, one write each (--verbose: and how many) */
	mbd_lines_for_libfuzzer(o.runner.verbose > 0);
	return 0;
}

/* For drivers that never call LLVMFuzzerInitialize: options from the
 * environment, else the defaults. */
static void setup_without_init(void)
{
	struct mbd_fuzz_opts o;
	const char *env = getenv(MBD_FUZZ_ARGS_ENV);
	char **words = NULL;
	int n = 0;

	mbd_fuzz_opts_default(&o);
	if (env) {
		n = mbd_fuzz_split_args(env, &words);
		if (n < 0) {
			fputs("mbdiff: out of memory\n", stderr);
			exit(2);
		}
	}
	for (int i = 0; i < n; i++)
		if (mbd_fuzz_opts_arg(&o, words[i], stderr) <= 0)
			bad_options();
	if (mbd_fuzz_opts_finish(&o, stderr))
		bad_options();
	setup(&o);
	/*
	 * g.opts keeps pointers into the words (--keep-going's folder,
	 * --known's file, ...): they live as long as the process.
	 */
	g.env_words = words;
}

/*
 * A divergence that is no crash: known (--known), printed once per
 * distinct signature, or any other while keeping going (--keep-going):
 * the trace of each new key is written and reported once (fuzz_keep.c).
 * False when it is a crash: no --keep-going, or the --want key.
 */
static bool divergence_kept(const struct mbd_trace *t, const struct mbd_verdict *v)
{
	const struct mbd_known_entry *e = NULL;
	int first, k;

	if (g.have_known)
		e = mbd_known_match(&g.known, v->signature);
	if (e) {
		first = mbd_sigset_add(&g.seen_known, v->signature);
		if (first > 0)
			fprintf(stderr, "mbdiff: known difference: %s | %s\n",
				v->signature, e->commit);
		return first >= 0;
	}
	if (!g.opts.keep_dir)
		return false;
	k = mbd_fuzz_keep(&g.opts, t, v, stderr);
	if (k < 0)
		exit(2);
	if (k == MBD_KEEP_NEW)
		mbd_report_print(stderr, g.runner, t, v);
	return k != MBD_KEEP_WANTED;
}

void mbd_fuzz_target_kept(mbd_fuzz_kept_fn fn)
{
	g.kept = fn;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mbd_verdict v;
	const struct mbd_trace *t;
	int rc;

	memset(&v, 0, sizeof(v));
	if (!g.runner)
		setup_without_init();
	/*
	 * Decode exactly as `mbdiff replay` reads a crash file: text-looking
	 * bytes (a .mbt seed given as corpus) are a text trace, and malformed
	 * text is no input at all, since replay would refuse it too. The op
	 * mutator's own output needs no decode: it kept the trace.
	 */
	t = g.kept && !g.opts.boot ? g.kept(data, size) : NULL;
	/* (text-looking bytes stay text, as replay reads them) */
	if (t && mbd_input_is_text(data, size))
		t = NULL;
	if (!t) {
		t = &g.trace;
		if (mbd_decode_input(data, size, "<input>", g.decoder, &g.trace, NULL))
			return 0;
	}
	if (g.opts.boot) {
		if (mbd_fuzz_boot_expand(data, size, &g.trace, &g.boot)) {
			fputs("mbdiff: internal error: out of memory\n", stderr);
			abort();
		}
		t = &g.boot;
	}
	rc = mbd_runner_run(g.runner, t, &v);
	if (rc < 0) {
		/* Not a verdict, but the input must not be lost either. */
		fputs("mbdiff: internal error: the runner failed (out of memory)\n",
		      stderr);
		abort();
	}
	if (rc > 0) {
		if (divergence_kept(t, &v)) {
			fflush(stderr);
			return 0;
		}
		mbd_report_print(stderr, g.runner, t, &v);
		fflush(stderr);
		abort();
	}
	if (g.verbose)
		mbd_report_ok(stderr, g.runner, t, &v);
	return 0;
}

const struct mbd_fuzz_opts *mbd_fuzz_target_opts(void)
{
	if (!g.runner)
		setup_without_init();
	return &g.opts;
}
