// SPDX-License-Identifier: GPL-2.0
/*
 * Plain replay driver (no fuzzing engine, builds with gcc): runs every file
 * given, directories expanded recursively in name order, through the fuzz
 * target, the way the engines would. Each input is read into a heap buffer
 * of exactly its size, so ASan reports any read past its end. A divergence
 * aborts like in the fuzzer (this is how crash files are replayed); a clean
 * run prints "Tested N files: Success!".
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

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct run {
	unsigned long tested;
	unsigned long failed;  /* unreadable or not a regular file */
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

static int read_exact(const char *path, uint8_t **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	uint8_t *b;
	size_t n;

	if (!f)
		return -1;
	if (fstat(fileno(f), &st) || st.st_size < 0) {
		fclose(f);
		return -1;
	}
	n = (size_t)st.st_size;
	/* malloc(0) may return NULL; keep a valid pointer, pass size 0. */
	b = malloc(n ? n : 1);
	if (!b) {
		fclose(f);
		errno = ENOMEM;
		return -1;
	}
	if (fread(b, 1, n, f) != n || fgetc(f) != EOF) {
		free(b);
		fclose(f);
		errno = EIO; /* short read, or the file changed under us */
		return -1;
	}
	fclose(f);
	*buf = b;
	*len = n;
	return 0;
}

static void run_file(struct run *r, const char *path)
{
	uint8_t *buf;
	size_t len;

	if (read_exact(path, &buf, &len)) {
		fprintf(stderr, "mbdiff-replay: cannot read %s: %s\n", path,
			strerror(errno));
		r->failed++;
		return;
	}
	if (r->verbose)
		fprintf(stderr, "Running: %s\n", path);
	current = path;
	current_len = strlen(path);
	LLVMFuzzerTestOneInput(buf, len);
	current = NULL;
	free(buf);
	r->tested++;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_path(struct run *r, const char *path);

static void run_dir(struct run *r, const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;

	if (!d) {
		fprintf(stderr, "mbdiff-replay: cannot open %s: %s\n", path,
			strerror(errno));
		r->failed++;
		return;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(path) + strlen(e->d_name) + 2;
		char *full;

		/* ".", "..", and hidden files (.gitkeep, editor state) */
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap ? 2 * cap : 64) * sizeof(*nn));

			if (!nn)
				break;
			names = nn;
			cap = cap ? 2 * cap : 64;
		}
		full = malloc(len);
		if (!full)
			break;
		snprintf(full, len, "%s/%s", path, e->d_name);
		names[n++] = full;
	}
	closedir(d);
	if (e) {
		fprintf(stderr, "mbdiff-replay: out of memory listing %s\n", path);
		r->failed++;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; i < n; i++) {
		run_path(r, names[i]);
		free(names[i]);
	}
	free(names);
}

static void run_path(struct run *r, const char *path)
{
	struct stat st;

	if (stat(path, &st)) {
		fprintf(stderr, "mbdiff-replay: %s: %s\n", path, strerror(errno));
		r->failed++;
	} else if (S_ISDIR(st.st_mode)) {
		run_dir(r, path);
	} else if (S_ISREG(st.st_mode)) {
		run_file(r, path);
	} else {
		fprintf(stderr, "mbdiff-replay: %s: not a regular file\n", path);
		r->failed++;
	}
}

int main(int argc, char **argv)
{
	struct mbd_fuzz_opts o;
	struct run r = { 0, 0, 0 };
	int inputs = 0;

	/* Same options as the fuzzer: parsed (and checked) by the target. */
	LLVMFuzzerInitialize(&argc, &argv);
	mbd_fuzz_opts_default(&o);
	mbd_fuzz_opts_argv(&o, argc, argv, stderr);
	r.verbose = o.runner.verbose;
	signal(SIGABRT, on_abort);

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strncmp(a, "--", 2) == 0)
			continue;
		if (a[0] == '-' && a[1] != '\0') {
			/* an engine flag (-runs=0 ...): meaningless here */
			fprintf(stderr, "mbdiff-replay: ignoring flag %s\n", a);
			continue;
		}
		inputs++;
		run_path(&r, a);
	}
	if (!inputs) {
		fprintf(stderr, "usage: %s [--options] FILE|DIR...\n", argv[0]);
		mbd_fuzz_usage(stderr, argv[0]);
		return 2;
	}
	fprintf(stderr, "Tested %lu files: %s\n", r.tested,
		r.failed ? "Failure!" : "Success!");
	if (r.failed)
		fprintf(stderr, "mbdiff-replay: %lu paths could not be run\n",
			r.failed);
	return r.failed ? 1 : 0;
}
