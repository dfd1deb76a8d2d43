// SPDX-License-Identifier: GPL-2.0
/*
 * Plain replay driver (no fuzzing engine, builds with gcc): runs every file
 * given, directories expanded recursively in name order, through the fuzz
 * target, the way the engines would. Each input is read into a heap buffer
 * of exactly its size, so ASan reports any read past its end. A divergence
 * aborts like in the fuzzer (this is how crash files are replayed); a clean
 * run prints "Tested N files: Success!" and exits 0; a path that could not
 * be run (unreadable, not a regular file, a directory without inputs) or
 * no input at all exits 2 (README "Exit codes").
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_options.h"
#include "mbd_input.h"
#include "mbd_walk.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct run {
	unsigned long tested;
	unsigned long failed;  /* unreadable, not a regular file, no inputs */
	int verbose;
};

/* The file being run, for the abort message (set outside the handler). */
static const char *current;
static size_t current_len;

static void on_abort(int sig)
{
	static const char head[] = "mbdiff-replay: aborted while running ";

	/* write() only: we are in a signal handler. */
	if (current) {
		(void)!write(2, head, sizeof(head) - 1);
		(void)!write(2, current, current_len);
		(void)!write(2, "\n", 1);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Run one regular file, from a heap copy of exactly its size. */
static void run_file(struct run *r, const char *path)
{
	char why[200];
	uint8_t *buf, *exact;
	size_t len;

	if (mbd_read_file(path, MBD_INPUT_MAX, &buf, &len, why, sizeof(why))) {
		fprintf(stderr, "mbdiff-replay: %s: cannot read: %s\n", path, why);
		r->failed++;
		return;
	}
	/* the reader adds a NUL; the target must not see it (ASan) */
	exact = malloc(len ? len : 1);
	if (!exact) {
		free(buf);
		fputs("mbdiff-replay: out of memory\n", stderr);
		exit(3);
	}
	memcpy(exact, buf, len);
	free(buf);
	if (r->verbose)
		fprintf(stderr, "Running: %s\n", path);
	current = path;
	current_len = strlen(path);
	LLVMFuzzerTestOneInput(exact, len);
	current = NULL;
	free(exact);
	r->tested++;
}

int main(int argc, char **argv)
{
	struct mbd_fuzz_opts o;
	struct run r = { 0, 0, 0 };
	struct mbd_paths files = { 0 };
	const char **args;
	int inputs = 0;

	/* Same options as the fuzzer: parsed (and checked) by the target. */
	LLVMFuzzerInitialize(&argc, &argv);
	mbd_fuzz_opts_default(&o);
	mbd_fuzz_opts_argv(&o, argc, argv, stderr);
	r.verbose = o.runner.verbose;
	signal(SIGABRT, on_abort);

	args = calloc((size_t)argc, sizeof(*args));
	if (!args) {
		fputs("mbdiff-replay: out of memory\n", stderr);
		return 3;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strncmp(a, "--", 2) == 0)
			continue;
		if (a[0] == '-' && a[1] != '\0') {
			/* an engine flag (-runs=0 ...): meaningless here */
			fprintf(stderr, "mbdiff-replay: ignoring flag %s\n", a);
			continue;
		}
		args[inputs++] = a;
	}
	if (!inputs) {
		free(args);
		fprintf(stderr, "usage: %s [--options] FILE|DIR...\n", argv[0]);
		mbd_fuzz_usage(stderr, argv[0]);
		return 2;
	}
	/* the same walk as `mbdiff replay`: loops end, FIFOs are skipped,
	 * a directory without inputs is an error */
	r.failed = (unsigned long)mbd_walk(args, (size_t)inputs, &files, "mbdiff-replay", stderr);
	free(args);
	for (size_t k = 0; k < files.n; k++)
		run_file(&r, files.v[k]);
	mbd_paths_free(&files);
	/* "Success!" only when every path named was run */
	fprintf(stderr, "Tested %lu files: %s\n", r.tested,
		r.failed || !r.tested ? "Failure!" : "Success!");
	if (r.failed)
		fprintf(stderr, "mbdiff-replay: %lu paths could not be run\n",
			r.failed);
	return r.failed || !r.tested ? 2 : 0;
}
