// SPDX-License-Identifier: GPL-2.0
/*
 * Input paths of the programs that take FILE|DIR... (mbdiff replay and
 * bench, mbdiff-replay). Directories are walked recursively in name order,
 * skipping hidden entries (AFL++'s .cur_input, .state/), AFL++'s README.txt
 * and stats files, *.dict, *.md and crash files' *.variants sidecars; files
 * named explicitly are always read.
 * Every directory is walked once (device and inode remembered), so symlink
 * loops end; entries that are not regular files are skipped with a note.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mbd_walk.h"

#define MAX_DEPTH 32

static int paths_add(struct mbd_paths *p, const char *s)
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

void mbd_paths_free(struct mbd_paths *p)
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
 * engines' dictionaries, documentation (README.md of corpus folders),
 * crash files' FILE.variants sidecars and AFL++'s bookkeeping. */
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

/* One walk: where messages go, and every directory already entered. */
struct walker {
	const char *prog;
	FILE *err;
	struct mbd_paths *out;
	struct { dev_t dev; ino_t ino; } *seen;
	size_t n_seen, cap_seen;
};

__attribute__((format(printf, 3, 4)))
static int say(const struct walker *w, const char *path, const char *fmt, ...)
{
	va_list ap;

	if (w->err) {
		fprintf(w->err, "%s: %s: ", w->prog, path);
		va_start(ap, fmt);
		vfprintf(w->err, fmt, ap);
		va_end(ap);
		fputc('\n', w->err);
	}
	return 1;
}

static const char *kind_name(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* Remember a directory; false if it was entered before (a loop). */
static int enter(struct walker *w, const struct stat *st)
{
	for (size_t i = 0; i < w->n_seen; i++)
		if (w->seen[i].dev == st->st_dev && w->seen[i].ino == st->st_ino)
			return 0;
	if (w->n_seen == w->cap_seen) {
		size_t cap = w->cap_seen ? 2 * w->cap_seen : 16;
		void *v = realloc(w->seen, cap * sizeof(*w->seen));

		if (!v)
			return -1;
		w->seen = v;
		w->cap_seen = cap;
	}
	w->seen[w->n_seen].dev = st->st_dev;
	w->seen[w->n_seen].ino = st->st_ino;
	w->n_seen++;
	return 1;
}

/* Add the inputs under dir to out, sorted by name. Returns errors seen. */
static int walk_dir(struct walker *w, const char *dir, int depth);

static int walk(struct walker *w, const char *path, int depth)
{
	struct stat st;
	size_t before = w->out->n;
	int r, errors;

	if (stat(path, &st) != 0)
		return say(w, path, "%s", strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		if (depth >= MAX_DEPTH)
			return say(w, path, "directories nested too deep (more than %d)", MAX_DEPTH);
		r = enter(w, &st);
		if (r < 0)
			return say(w, path, "out of memory");
		if (r == 0) {
			/* a symlink back up, or a second name of a walked directory */
			say(w, path, "skipped: directory already walked (%s)",
			    depth ? "a symlink loop?" : "given twice");
			return 0;
		}
		errors = walk_dir(w, path, depth + 1);
		if (depth == 0 && !errors && w->out->n == before)
			return say(w, path, "no inputs in this directory");
		return errors;
	}
	if (!S_ISREG(st.st_mode)) {
		/* FIFOs, devices: an explicit argument is an error, a
		 * directory entry is just not an input */
		if (depth == 0)
			return say(w, path, "%s, not a regular file or directory", kind_name(st.st_mode));
		say(w, path, "skipped: %s, not a regular file", kind_name(st.st_mode));
		return 0;
	}
	if (paths_add(w->out, path) != 0)
		return say(w, path, "out of memory");
	return 0;
}

static int walk_dir(struct walker *w, const char *dir, int depth)
{
	struct mbd_paths names = { 0 };
	struct dirent *e;
	int errors = 0;
	DIR *d = opendir(dir);

	if (!d)
		return say(w, dir, "cannot open directory: %s", strerror(errno));
	while ((e = readdir(d)) != NULL) {
		if (skipped(e->d_name))
			continue;
		if (paths_add(&names, e->d_name) != 0) {
			errors += say(w, dir, "out of memory");
			break;
		}
	}
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof(*names.v), cmp_str);
	for (size_t i = 0; i < names.n; i++) {
		char *p = join(dir, names.v[i]);

		if (!p) {
			errors += say(w, dir, "out of memory");
			break;
		}
		errors += walk(w, p, depth);
		free(p);
	}
	mbd_paths_free(&names);
	return errors;
}

int mbd_walk(const char *const *paths, size_t n, struct mbd_paths *out, const char *prog,
	     FILE *err)
{
	struct walker w = { prog, err, out, NULL, 0, 0 };
	int errors = 0;

	for (size_t i = 0; i < n; i++)
		errors += walk(&w, paths[i], 0);
	free(w.seen);
	return errors;
}
