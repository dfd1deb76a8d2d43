/* SPDX-License-Identifier: GPL-2.0 */
/* Pieces shared by the `mbdiff` subcommands (cli*.c); not a library API. */
#ifndef MBD_CLI_H
#define MBD_CLI_H

#include <stdio.h>

#include "mbd_bin.h"
#include "mbd_runner.h"
#include "mbd_walk.h"

/* Exit statuses of every subcommand. */
#define MBD_EXIT_OK 0
#define MBD_EXIT_DIVERGENT 1
#define MBD_EXIT_ERROR 2
/* a crash or an internal error: out of memory, "a bug in mbdiff"; the
   sanitizer runtimes exit with it too (sanitizer_defaults.c) */
#define MBD_EXIT_CRASH 3

/* Options several subcommands take. */
struct mbd_cli_opts {
	const char *variants;  /* "a,b,..." or NULL for the default set */
	enum mbd_decoder dec;
	struct mbd_runner_opts ropts;
};

void mbd_cli_opts_default(struct mbd_cli_opts *o);

/* Help texts (cli_usage.c): all of them, or one built-in command's
   (returns -1 if cmd is not one). */
void mbd_cli_usage(FILE *out);
int mbd_cli_usage_of(const char *cmd, FILE *out);
/* The command usage errors name (main() sets it once). */
void mbd_cli_set_command(const char *cmd);
/*
 * Print "mbdiff CMD: <msg>" and "try 'mbdiff CMD --help'" to stderr (a
 * leading "CMD: " in msg is not repeated); returns MBD_EXIT_ERROR.
 */
int mbd_cli_bad_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/* Print "mbdiff: <msg>" to stderr; returns MBD_EXIT_ERROR. */
int mbd_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for an internal error; returns MBD_EXIT_CRASH. */
int mbd_cli_internal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Outputs (mbd_output.h): check out before any work (ins[0..n) are the
 * inputs it must not be), write it at the end. Both print
 * "mbdiff: OUT: cannot write: why" and return MBD_EXIT_ERROR, or 0.
 */
int mbd_cli_check_output(const char *out, const char *const *ins, size_t n);
int mbd_cli_write_output(const char *out, const void *buf, size_t len);

/*
 * Match argv[*i] against option name ("--variants"). With val NULL the
 * option takes no value; otherwise "--name VALUE" and "--name=VALUE" both
 * work and *i moves past the value. Returns 1 if matched, 0 if not, -1 if
 * the value is missing (or a flag was given one).
 */
int mbd_cli_match(int argc, char **argv, int *i, const char *name,
		  const char **val);

/*
 * Try the shared options (--variants, --decoder, --no-oracle, --min-class,
 * --no-skip-baseline-faults, --verbose) at argv[*i]. Returns 1 if
 * consumed, 0 if not one of them, -1 after printing a usage error.
 */
int mbd_cli_common_opt(int argc, char **argv, int *i, struct mbd_cli_opts *o);

/* The runner for o->variants (or the default set); NULL after an error. */
struct mbd_runner *mbd_cli_runner(const struct mbd_cli_opts *o);

/*
 * Parse "a,b,c" into vs (at most max, each once); prints the error and
 * returns 0 on a bad list or an unknown name.
 */
size_t mbd_cli_variant_list(const char *list, const struct mbd_variant **vs,
			    size_t max);

/*
 * Crash files remember the variants that found them in a sidecar,
 * FILE.variants ("a,b" on one line; scripts and `mbdiff check` write it).
 * For a replay without --variants: buf gets the pair of the inputs'
 * sidecars ("" if none); every crash file (not .mbt) without one is named
 * on stderr, with the default pair it will be replayed with instead.
 * Returns 0, or -1 (printed) when sidecars disagree or cannot be read.
 */
int mbd_cli_sidecar_variants(const struct mbd_paths *in, char *buf, size_t n);

/* t as .mbt text after header (may be NULL), in a malloc'd buffer. */
/*
 * The "# model: NAME (...)" comment of a trace's leading comment block
 * (`mbdiff import` writes it: the model of the log's kernel) into model
 * (mn bytes), and one line for the user into note ("kernel 6.1.54:
 * replayed with mainline-6.12 (nearest to v6.1: ...)"). Returns 1, or 0
 * when there is none (or the file cannot be read: its load says why).
 */
int mbd_cli_trace_model(const char *path, char *model, size_t mn, char *note, size_t nn);

int mbd_cli_format_mbt(const struct mbd_trace *t, const char *header,
		       char **buf, size_t *len);

/* Same config and ops (after normalizing both). */
bool mbd_cli_same_trace(const struct mbd_trace *a, const struct mbd_trace *b);

/*
 * Where the installed or the build tree's files are (cli_paths.c). Each
 * fills buf (n bytes) and returns 0, or -1 when it does not fit / is not
 * there.
 *  - self: this executable (/proc/self/exe);
 *  - data dir: $MBDIFF_DATA; else, for an installed binary (not in the
 *    build tree it was compiled in), DATADIR/mbdiff beside it
 *    (BINDIR/../share/mbdiff for the usual layout, so `cmake --install
 *    --prefix P` anywhere works), else the configured install path; else
 *    the source tree it was built from;
 *  - libexec: the installed LIBEXECDIR/mbdiff/mbdiff-CMD, found the same
 *    way; -1 for a build-tree binary or when it is not installed.
 */
int mbd_cli_self(char *buf, size_t n);
int mbd_cli_data_dir(char *buf, size_t n);
int mbd_cli_libexec(const char *cmd, char *buf, size_t n);
/* "0.1.0 (git v0.1.0-5-gabc1234)": project(VERSION) and `git describe`
   at configure time. */
const char *mbd_cli_version(void);

/* Script commands (cli_exec.c): `mbdiff check` runs scripts/check.sh. */
bool mbd_cli_is_script(const char *cmd);
/* The table `mbdiff help` prints: one line a script command. */
void mbd_cli_script_table(FILE *out);
/*
 * Run script command argv[0] with argv[1..argc) and the environment
 * MBDIFF (this binary) and MBDIFF_DATA (the data dir): execv of
 * LIBEXECDIR/mbdiff/mbdiff-CMD if installed, else DATA/scripts/CMD.sh.
 * Returns only on failure (printed): MBD_EXIT_ERROR or MBD_EXIT_CRASH.
 */
int mbd_cli_exec_script(int argc, char **argv);

int mbd_cli_list(int argc, char **argv);
int mbd_cli_replay(int argc, char **argv);
int mbd_cli_convert(int argc, char **argv);
int mbd_cli_minimize(int argc, char **argv);
int mbd_cli_emit_test(int argc, char **argv);
int mbd_cli_import(int argc, char **argv);
int mbd_cli_bench(int argc, char **argv);
int mbd_cli_explore(int argc, char **argv);
int mbd_cli_judge(int argc, char **argv);
int mbd_cli_lift(int argc, char **argv);

#endif
