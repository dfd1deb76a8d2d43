// SPDX-License-Identifier: GPL-2.0
/*
 * Edge-stability probe: finds the code whose coverage depends on what ran
 * before, which is what AFL++ reports as unstable edges. Built only in a
 * build where every other object carries -fsanitize-coverage=trace-pc-guard
 * (scripts/stability-probe.sh); this file supplies the guard callbacks.
 *
 * For every input A of the corpus: run A, run K other inputs, run A again,
 * and compare the two edge maps after AFL++'s hit-count bucketing. Every
 * edge that differs is printed once with its address, for addr2line, and
 * the inputs that showed it. The fuzz target itself is unchanged.
 *
 * Usage: stability_probe [--others=K] [--warm] [--fuzz-target-option...] FILE|DIR...
 * --warm runs every input once first, so only history that outlives the
 * first runs is reported (without it, first-use paths show up too, as
 * they do for AFL++ when a new input is calibrated).
 * Exit status: 0 when every input's coverage repeats exactly, 1 otherwise.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mbd_input.h"
#include "mbd_walk.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MBD_NO_COV __attribute__((no_sanitize("coverage")))

/* ---- the coverage map ---- */

static uint32_t n_guards;
static uint8_t *hits;        /* saturating counts, one per guard */
static uintptr_t *guard_pc;  /* the address of each guard's first hit */

MBD_NO_COV void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop);
MBD_NO_COV void __sanitizer_cov_trace_pc_guard(uint32_t *guard);

MBD_NO_COV void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop)
{
	uint32_t first = n_guards;

	if (start == stop || *start)
		return;
	for (uint32_t *g = start; g < stop; g++)
		*g = ++n_guards;
	hits = realloc(hits, (size_t)n_guards + 1);
	guard_pc = realloc(guard_pc, ((size_t)n_guards + 1) * sizeof(*guard_pc));
	if (!hits || !guard_pc) {
		fputs("stability_probe: out of memory\n", stderr);
		exit(2);
	}
	memset(hits + first, 0, (size_t)(n_guards + 1 - first));
	memset(guard_pc + first, 0, (size_t)(n_guards + 1 - first) * sizeof(*guard_pc));
}

MBD_NO_COV void __sanitizer_cov_trace_pc_guard(uint32_t *guard)
{
	uint32_t g = *guard;

	if (hits[g] != 255)
		hits[g]++;
	if (!guard_pc[g])
		guard_pc[g] = (uintptr_t)__builtin_return_address(0);
}

/* AFL++'s count classes: 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+ */
MBD_NO_COV static uint8_t bucket(uint8_t n)
{
	if (n <= 3)
		return n;
	if (n <= 7)
		return 4;
	if (n <= 15)
		return 5;
	if (n <= 31)
		return 6;
	return n <= 127 ? 7 : 8;
}

/* ---- inputs ---- */

struct input {
	char *path;
	uint8_t *data;
	size_t len;
};

static struct input *inputs;
static size_t n_inputs, cap_inputs;

static int add_file(const char *path)
{
	struct input in = { 0 };
	char why[200];

	/* the one bounded reader: FIFOs and devices are refused, not read */
	if (mbd_read_file(path, MBD_INPUT_MAX, &in.data, &in.len, why, sizeof(why)) != 0) {
		fprintf(stderr, "stability_probe: %s: cannot read: %s\n", path, why);
		return -1;
	}
	in.path = strdup(path);
	if (!in.path) {
		free(in.data);
		return -1;
	}
	if (n_inputs == cap_inputs) {
		size_t c = cap_inputs ? cap_inputs * 2 : 64;
		struct input *p = realloc(inputs, c * sizeof(*p));

		if (!p)
			return -1;
		inputs = p;
		cap_inputs = c;
	}
	inputs[n_inputs++] = in;
	return 0;
}

/* ---- the probe ---- */

static void run(const struct input *in, uint8_t *map)
{
	memset(hits, 0, (size_t)n_guards + 1);
	LLVMFuzzerTestOneInput(in->data, in->len);
	for (uint32_t g = 0; g <= n_guards; g++)
		map[g] = bucket(hits[g]);
}

int main(int argc, char **argv)
{
	char **targs = calloc((size_t)argc + 1, sizeof(*targs));
	const char **paths = calloc((size_t)argc + 1, sizeof(*paths));
	struct mbd_paths files = { 0 };
	size_t n_paths = 0;
	uint8_t *m1, *m2;
	uint32_t *seen;
	int n_targs = 0;
	size_t others = 3, unstable_inputs = 0, unstable_edges = 0;
	int warm = 0;
	uint64_t rng = 0x9e3779b97f4a7c15ull;

	if (!targs || !paths)
		return 2;
	targs[n_targs++] = argv[0];
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--others=", 9) == 0)
			others = strtoul(argv[i] + 9, NULL, 10);
		else if (strcmp(argv[i], "--warm") == 0)
			warm = 1;
		else if (strncmp(argv[i], "--", 2) == 0)
			targs[n_targs++] = argv[i];
		else
			paths[n_paths++] = argv[i];
	}
	/* the walk of mbdiff replay: loops end, FIFOs and devices skipped */
	if (mbd_walk(paths, n_paths, &files, "stability_probe", stderr))
		return 2;
	for (size_t k = 0; k < files.n; k++)
		if (add_file(files.v[k]))
			return 2;
	mbd_paths_free(&files);
	free(paths);
	if (!n_inputs) {
		fputs("usage: stability_probe [--others=K] [--option=...] FILE|DIR...\n", stderr);
		return 2;
	}
	LLVMFuzzerInitialize(&n_targs, &targs);
	m1 = malloc((size_t)n_guards + 1);
	m2 = malloc((size_t)n_guards + 1);
	seen = calloc((size_t)n_guards + 1, sizeof(*seen));
	if (!m1 || !m2 || !seen)
		return 2;

	for (size_t i = 0; warm && i < n_inputs; i++)
		run(&inputs[i], m1);
	for (size_t i = 0; i < n_inputs; i++) {
		size_t diff = 0;

		run(&inputs[i], m1);
		for (size_t k = 0; k < others; k++) {
			rng = rng * 6364136223846793005ull + 1442695040888963407ull;
			run(&inputs[(rng >> 33) % n_inputs], m2);
		}
		run(&inputs[i], m2);
		for (uint32_t g = 1; g <= n_guards; g++) {
			if (m1[g] == m2[g])
				continue;
			diff++;
			if (!seen[g]++) {
				unstable_edges++;
				printf("edge %u pc 0x%lx first/second bucket %u/%u input %s\n", g,
				       (unsigned long)guard_pc[g], m1[g], m2[g], inputs[i].path);
			}
		}
		if (diff)
			unstable_inputs++;
	}
	printf("stability_probe: %zu inputs, %u edges, %zu unstable edges, %zu inputs with "
	       "unstable coverage\n", n_inputs, n_guards, unstable_edges, unstable_inputs);
	return unstable_edges ? 1 : 0;
}
