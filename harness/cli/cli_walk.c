// SPDX-License-Identifier: GPL-2.0
/*
 * Input paths of the subcommands that take FILE|DIR... (replay, bench).
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

#define MAX_DEPTH 32

static int paths_add(struct mbd_cli_paths *p, const char *s)
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

void mbd_cli_paths_free(struct mbd_cli_paths *p)
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

	if (name[0] == '.' || ends_with(name, ".dict") || ends_with(name, ".md") ||
	    ends_with(name, ".variants"))
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
static int walk_dir(const char *dir, int depth, struct mbd_cli_paths *out);

static int walk(const char *path, int depth, struct mbd_cli_paths *out)
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

static int walk_dir(const char *dir, int depth, struct mbd_cli_paths *out)
{
	struct mbd_cli_paths names = { 0 };
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
	mbd_cli_paths_free(&names);
	return errors;
}

int mbd_cli_walk(const char *path, struct mbd_cli_paths *out)
{
	return walk(path, 0, out);
}
