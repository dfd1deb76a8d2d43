// SPDX-License-Identifier: GPL-2.0
/*
 * AFL++ persistent-mode target around the differential fuzz target.
 *
 * Built with afl-clang-fast it takes test cases from shared memory, 10000
 * per process (__AFL_LOOP), after a deferred fork server start that comes
 * after the one-time setup. Built with a plain compiler the AFL macros
 * fall back to reading one input from stdin, so the same file is also a
 * simple "run this input" program.
 *
 * Options: the fuzz_options.h double-dash options, from $MBDIFF_ARGS first
 * and then from the command line (afl-fuzz -- ./afl_diff --variants=...).
 * File arguments (or "-" for stdin) are run one by one instead of the loop,
 * for replaying saved crashes without afl-fuzz.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_options.h"
#include "mbd_input.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Largest input taken, as afl-fuzz's own shared-memory test case buffer. */
#define MBD_AFL_MAX_INPUT (1u << 20)

#ifndef __AFL_FUZZ_TESTCASE_LEN
/* Not built by afl-clang-fast: one pass over stdin. */
static unsigned char mbd_afl_buf[MBD_AFL_MAX_INPUT];
static size_t mbd_afl_len;
static int mbd_afl_passes;

static size_t read_fd(int fd, unsigned char *buf, size_t cap);

static int mbd_afl_once(void)
{
	if (mbd_afl_passes++)
		return 0;
	mbd_afl_len = read_fd(0, mbd_afl_buf, sizeof(mbd_afl_buf));
	return 1;
}

#define __AFL_FUZZ_INIT() struct mbd_afl_fuzz_init
#define __AFL_FUZZ_TESTCASE_BUF mbd_afl_buf
#define __AFL_FUZZ_TESTCASE_LEN mbd_afl_len
#define __AFL_LOOP(n) mbd_afl_once()
#endif

__AFL_FUZZ_INIT();

/* Read up to cap bytes from fd; stops at end of file or error. */
static size_t read_fd(int fd, unsigned char *buf, size_t cap)
{
	size_t n = 0;

	while (n < cap) {
		ssize_t r = read(fd, buf + n, cap - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	return n;
}

/* Run one input from an exactly-sized copy, so ASan sees over-reads. */
static void run_copy(const unsigned char *data, size_t len)
{
	uint8_t *copy = malloc(len ? len : 1);

	if (!copy) {
		fputs("afl_diff: out of memory\n", stderr);
		exit(2);
	}
	if (len)
		memcpy(copy, data, len);
	LLVMFuzzerTestOneInput(copy, len);
	free(copy);
}

static int run_file(const char *path)
{
	static unsigned char stdin_buf[MBD_AFL_MAX_INPUT];
	char why[200];
	uint8_t *buf;
	size_t len;

	if (strcmp(path, "-") == 0) {
		len = read_fd(0, stdin_buf, sizeof(stdin_buf));
		run_copy(stdin_buf, len);
		return 0;
	}
	/* the one reader: regular files only, bounded (a FIFO never hangs) */
	if (mbd_read_file(path, MBD_INPUT_MAX, &buf, &len, why, sizeof(why))) {
		fprintf(stderr, "afl_diff: %s: cannot read: %s\n", path, why);
		return -1;
	}
	if (len > MBD_AFL_MAX_INPUT) {
		fprintf(stderr, "afl_diff: %s: only the first %u bytes are used\n",
			path, MBD_AFL_MAX_INPUT);
		len = MBD_AFL_MAX_INPUT;
	}
	run_copy(buf, len);
	free(buf);
	return 0;
}

/* argv with the words of $MBDIFF_ARGS inserted after argv[0]. */
static char **merged_args(int argc, char **argv, int *n_out, char ***env_out)
{
	const char *s = getenv(MBD_FUZZ_ARGS_ENV);
	char **env = NULL, **all;
	int n_env = 0, n = 0;

	if (s && (n_env = mbd_fuzz_split_args(s, &env)) < 0)
		return NULL;
	all = malloc((size_t)(argc + n_env + 1) * sizeof(*all));
	if (!all) {
		mbd_fuzz_args_free(env);
		return NULL;
	}
	all[n++] = argv[0];
	for (int i = 0; i < n_env; i++)
		all[n++] = env[i];
	for (int i = 1; i < argc; i++)
		all[n++] = argv[i];
	all[n] = NULL;
	*n_out = n;
	*env_out = env;
	return all;
}

int main(int argc, char **argv)
{
	char **env = NULL, **args;
	int n_args = 0, files = 0, failed = 0;

	args = merged_args(argc, argv, &n_args, &env);
	if (!args) {
		fputs("afl_diff: out of memory\n", stderr);
		return 2;
	}
	LLVMFuzzerInitialize(&n_args, &args);

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strncmp(a, "--", 2) == 0)
			continue;
		if (a[0] == '-' && a[1] != '\0') {
			fprintf(stderr, "afl_diff: ignoring flag %s\n", a);
			continue;
		}
		files++;
		if (run_file(a))
			failed++;
	}
	if (files) {
		free(args);
		mbd_fuzz_args_free(env);
		return failed ? 2 : 0; /* 2: a path could not be run */
	}

#ifdef __AFL_HAVE_MANUAL_CONTROL
	/* Fork server from here on: the runner and its variants exist. */
	__AFL_INIT();
#endif
	{
		/* Take the buffer after __AFL_INIT and before the loop. */
		unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;

		while (__AFL_LOOP(10000)) {
			size_t len = (size_t)__AFL_FUZZ_TESTCASE_LEN;

			if (len > MBD_AFL_MAX_INPUT)
				len = MBD_AFL_MAX_INPUT;
			run_copy(buf, len);
		}
	}
	free(args);
	mbd_fuzz_args_free(env);
	return 0;
}
