/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Options of the fuzz entry points (libFuzzer target, AFL++ target, replay
 * driver). They are double-dash arguments, "--name[=value]": libFuzzer
 * ignores those and passes them on to its -jobs children, so the same
 * command line works for every engine. Anything else (engine flags, files)
 * is not ours and is left alone.
 */
#ifndef MBD_FUZZ_OPTIONS_H
#define MBD_FUZZ_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mbd_bin.h"
#include "mbd_runner.h"
#include "mbd_variant.h"

#define MBD_FUZZ_MAX_VARIANTS 16
#define MBD_FUZZ_DEFAULT_VARIANTS "reference,zhou-2025"
/* Environment variable the AFL++ target reads its options from. */
#define MBD_FUZZ_ARGS_ENV "MBDIFF_ARGS"

/* How libFuzzer makes new inputs (fuzz_mutate.c): calls, or bytes. */
enum mbd_fuzz_mutator { MBD_MUTATOR_OPS = 0, MBD_MUTATOR_BYTES = 1 };
#define MBD_FUZZ_DEFAULT_MUTATOR MBD_MUTATOR_OPS

struct mbd_fuzz_opts {
	/* variants[0] is the baseline; n_variants is 0 until --variants or
	 * mbd_fuzz_opts_finish() sets it */
	const struct mbd_variant *variants[MBD_FUZZ_MAX_VARIANTS];
	size_t n_variants;
	enum mbd_decoder decoder;
	enum mbd_fuzz_mutator mutator; /* --mutator=ops|bytes (libFuzzer only) */
	/* --baseline-coverage=on|off: off (the default) runs the baseline
	 * from its uncounted copy where the build has one (libFuzzer), so
	 * only the variants under test feed coverage; a variant alone
	 * runs counted either way */
	bool baseline_coverage;
	struct mbd_runner_opts runner;
	bool help;                /* --help was given */
	/* --known=FILE: signatures listed there are no crash (mbd_known.h) */
	const char *known;
	/* --keep-going=DIR (alias --keep-traces=DIR): a divergence --known
	 * does not explain is no crash either; the trace of each new
	 * signature key goes to DIR/HASH.mbt + HASH.sig and the search goes
	 * on (fuzz_keep.c; `mbdiff check`, scripts/fidelity.sh) */
	const char *keep_dir;
	/* --config=boot: the kernel's boot arrays (fuzz_keep.c) */
	bool boot;
	/* --want=HASH: only this signature key counts (mbd_fuzz_key_hash);
	 * needs --keep-going */
	bool want_set;
	uint64_t want;
	/* --no-warm-up: skip the warm-up trace (fuzz_diff.c); a variant
	 * that crashes on it would end every process before its first
	 * input, so `mbdiff check` retries without it */
	bool no_warm_up;
};

void mbd_fuzz_opts_default(struct mbd_fuzz_opts *o);

/*
 * Parse one argument. Returns 1 if it was ours (any "--..." argument; a
 * bare "--" is accepted and ignored), 0 if it is not (engine flag, file),
 * -1 if it was ours but wrong (the reason is printed to err).
 */
int mbd_fuzz_opts_arg(struct mbd_fuzz_opts *o, const char *arg, FILE *err);

/* Parse argv[1..argc-1]. Returns 0, or -1 at the first bad option. */
int mbd_fuzz_opts_argv(struct mbd_fuzz_opts *o, int argc, char **argv,
		       FILE *err);

/* Fill in the default variants if none were given. Returns 0 or -1. */
int mbd_fuzz_opts_finish(struct mbd_fuzz_opts *o, FILE *err);

/* The variant names joined by '~' ("reference~zhou-2025"), truncated to n. */
void mbd_fuzz_opts_pair(const struct mbd_fuzz_opts *o, char *buf, size_t n);

void mbd_fuzz_usage(FILE *out, const char *prog);

/* The running target's options (fuzz_diff.c); sets the target up first
 * if the engine has not (options from $MBDIFF_ARGS then). */
const struct mbd_fuzz_opts *mbd_fuzz_target_opts(void);

/*
 * The op mutator's last output needs no decode: when fuzz_mutate.c makes
 * its mutator it hands the target fn, which gives the trace of data when
 * data is that output (mbd_mutator_last), else NULL. Handed over, not
 * called by name: the mutator calls the target (mbd_fuzz_target_opts()),
 * not the other way round, and the plain drivers link no mutator.
 */
typedef const struct mbd_trace *(*mbd_fuzz_kept_fn)(const uint8_t *data, size_t size);
void mbd_fuzz_target_kept(mbd_fuzz_kept_fn fn);

/*
 * Split s at blanks into a malloc'd, NULL-terminated vector (no quoting:
 * option values never contain blanks). Returns the number of words, or -1
 * when out of memory. Free with mbd_fuzz_args_free().
 */
int mbd_fuzz_split_args(const char *s, char ***out);
void mbd_fuzz_args_free(char **v);

#endif
