// SPDX-License-Identifier: GPL-2.0
/*
 * `mbdiff replay`: run traces and fuzzer crash files through the runner.
 * Directories are walked recursively in name order, skipping hidden entries
 * (AFL++'s .cur_input, .state/), AFL++'s README.txt and stats files,
 * *.dict and *.md; files named explicitly are always read.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mbd_cli.h"
#include "mbd_input.h"
#include "mbd_report.h"

#define MAX_DEPTH 32

struct paths {
	char **v;
	size_t n, cap;
};

static int paths_add(struct paths *p, const char *s)
{
	char *dup;

	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		char **v = realloc(p->v, cap * sizeof(*v));

		if (!v)
			return -1;
		p->v = v;
		p->cap = cap;
	}
	dup = strdup(s);
	if (!dup)
		return -1;
	p->v[p->n++] = dup;
	return 0;
}

static void paths_free(struct paths *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Entries of a walked directory that are not inputs: hidden files, the
 * engines' dictionaries, documentation (README.md of corpus folders) and
 * AFL++'s bookkeeping next to its queue. */
static bool skipped(const char *name)
{
	static const char *const afl[] = {
		"README.txt", "fuzzer_stats", "plot_data", "cmdline",
		"fuzzer_setup", "fuzz_bitmap", "target_hash",
	};

	if (name[0] == '.' || ends_with(name, ".dict") || ends_with(name, ".md"))
		return true;
	for (size_t i = 0; i < sizeof(afl) / sizeof(afl[0]); i++)
		if (strcmp(name, afl[i]) == 0)
			return true;
	return false;
}

static char *join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *s = malloc(a + b + 2);

	if (!s)
		return NULL;
	memcpy(s, dir, a);
	s[a] = '/';
	memcpy(s + a + 1, name, b + 1);
	return s;
}

/* Add the inputs under dir to out, sorted by name. Returns errors seen. */
static int walk_dir(const char *dir, int depth, struct paths *out);

static int walk(const char *path, int depth, struct paths *out)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		mbd_cli_error("%s: %s", path, strerror(errno));
		return 1;
	}
	if (S_ISDIR(st.st_mode)) {
		if (depth >= MAX_DEPTH) {
			mbd_cli_error("%s: directories nested too deep", path);
			return 1;
		}
		return walk_dir(path, depth + 1, out);
	}
	if (!S_ISREG(st.st_mode)) {
		/* fifos, devices: an explicit argument is an error, a
		 * directory entry is just not an input */
		if (depth == 0) {
			mbd_cli_error("%s: not a regular file or directory", path);
			return 1;
		}
		return 0;
	}
	if (paths_add(out, path) != 0) {
		mbd_cli_error("out of memory");
		return 1;
	}
	return 0;
}

static int walk_dir(const char *dir, int depth, struct paths *out)
{
	struct paths names = { 0 };
	struct dirent *e;
	int errors = 0;
	DIR *d = opendir(dir);

	if (!d) {
		mbd_cli_error("%s: cannot open directory: %s", dir, strerror(errno));
		return 1;
	}
	while ((e = readdir(d)) != NULL) {
		if (skipped(e->d_name))
			continue;
		if (paths_add(&names, e->d_name) != 0) {
			mbd_cli_error("out of memory");
			errors++;
			break;
		}
	}
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof(*names.v), cmp_str);
	for (size_t i = 0; i < names.n; i++) {
		char *p = join(dir, names.v[i]);

		if (!p) {
			mbd_cli_error("out of memory");
			errors++;
			break;
		}
		errors += walk(p, depth, out);
		free(p);
	}
	paths_free(&names);
	return errors;
}

int mbd_cli_replay(int argc, char **argv)
{
	struct mbd_cli_opts o;
	struct paths inputs = { 0 };
	struct mbd_runner *r = NULL;
	struct mbd_trace t;
	size_t n_args = 0, divergent = 0, replayed = 0, faults = 0;
	bool quiet = false, only_files = false;
	int errors = 0, status;
	char **args;

	mbd_cli_opts_default(&o);
	args = calloc((size_t)argc, sizeof(*args));
	if (!args)
		return mbd_cli_error("out of memory");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int m;

		if (only_files || a[0] != '-' || strcmp(a, "-") == 0) {
			args[n_args++] = argv[i];
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_files = true;
			continue;
		}
		if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
			quiet = true;
			continue;
		}
		m = mbd_cli_common_opt(argc, argv, &i, &o);
		if (m == 0)
			m = (mbd_cli_bad_usage("replay: unknown option \"%s\"", a), -1);
		if (m < 0) {
			free(args);
			return MBD_EXIT_ERROR;
		}
	}
	if (n_args == 0) {
		free(args);
		return mbd_cli_bad_usage("replay: no input files");
	}
	r = mbd_cli_runner(&o);
	if (!r) {
		free(args);
		return MBD_EXIT_ERROR;
	}
	for (size_t k = 0; k < n_args; k++)
		errors += walk(args[k], 0, &inputs);
	free(args);

	mbd_trace_init(&t);
	for (size_t k = 0; k < inputs.n; k++) {
		const char *path = inputs.v[k];
		struct mbd_verdict v;
		struct mbd_diag d;
		int rc;

		if (mbd_load_file(path, o.dec, &t, &d) != 0) {
			mbd_diag_print(stderr, &d);
			errors++;
			continue;
		}
		replayed++;
		if (o.ropts.verbose) {
			/* so a crashing input is named before it kills us */
			fprintf(stderr, "mbdiff: replaying %s (%zu ops)\n", path, t.n_ops);
		}
		rc = mbd_runner_run(r, &t, &v);
		if (rc < 0) {
			mbd_cli_error("%s: internal error (out of memory)", path);
			errors++;
		} else if (rc == 1) {
			divergent++;
			printf("input: %s\n", path);
			mbd_report_print(stdout, r, &t, &v);
			printf("\n");
		} else {
			faults += v.baseline_fault;
			if (!quiet) {
				printf("%s: ", path);
				mbd_report_ok(stdout, r, &t, &v);
			}
		}
		fflush(stdout);
	}
	printf("replayed %zu inputs: %zu divergent", replayed, divergent);
	if (faults)
		printf(", %zu baseline faults", faults);
	if (errors)
		printf(", %d errors", errors);
	printf("\n");
	mbd_trace_free(&t);
	paths_free(&inputs);
	mbd_runner_free(r);
	status = errors ? MBD_EXIT_ERROR : divergent ? MBD_EXIT_DIVERGENT : MBD_EXIT_OK;
	return status;
}
