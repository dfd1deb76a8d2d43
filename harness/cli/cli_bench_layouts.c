// SPDX-License-Identifier: GPL-2.0
/*
 * `mbdiff bench --layouts K`: the rounds are measured by K processes, one
 * after the other, each a fresh exec of this binary. Each draws its own
 * address-space layout (ASLR) and its own physical pages for the
 * variants' code (bench_image.c), statics and arenas, and what a replay
 * costs depends on them: one process alone gives a ratio that is off by
 * its one draw (docs/speed.md). The workers write their raw samples to a
 * pipe; the parent puts them together and computes every figure (medians
 * over the layouts, mbd_median.h).
 */
#define _GNU_SOURCE

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_bench_int.h"
#include "mbd_cli.h"

#define MIB (1024u * 1024u)

void mbd_bench_layout_rounds(size_t reps, size_t k, size_t j, size_t *lo, size_t *hi)
{
	*lo = reps * j / k;
	*hi = reps * (j + 1) / k;
}

/* One layout's part of one input and mode: per variant its rounds' ns and
 * instructions, then its faults and calls. */
static int put_slice(FILE *f, struct mbd_bench *b, size_t n, size_t reps,
		     size_t lo, size_t hi)
{
	struct mbd_bench_raw raw;
	int bad = 0;

	mbd_bench_raw(b, &raw);
	for (size_t i = 0; i < n; i++) {
		int64_t faults = raw.faults[i];
		uint64_t ops = raw.ops[i];

		bad |= fwrite(raw.ns + i * reps + lo, sizeof(*raw.ns), hi - lo, f) != hi - lo;
		bad |= fwrite(raw.instr + i * reps + lo, sizeof(*raw.instr), hi - lo, f) != hi - lo;
		bad |= fwrite(&faults, sizeof(faults), 1, f) != 1;
		bad |= fwrite(&ops, sizeof(ops), 1, f) != 1;
	}
	return bad ? -1 : 0;
}

static int get_slice(FILE *f, struct mbd_bench_raw *raw, size_t n, size_t reps,
		     size_t lo, size_t hi)
{
	int bad = 0;

	for (size_t i = 0; i < n; i++) {
		int64_t faults;
		uint64_t ops;

		bad |= fread(raw->ns + i * reps + lo, sizeof(*raw->ns), hi - lo, f) != hi - lo;
		bad |= fread(raw->instr + i * reps + lo, sizeof(*raw->instr), hi - lo, f) != hi - lo;
		bad |= fread(&faults, sizeof(faults), 1, f) != 1;
		bad |= fread(&ops, sizeof(ops), 1, f) != 1;
		if (bad)
			return -1;
		raw->faults[i] += (long)faults;
		/* the calls a replay makes are the trace's: every layout agrees */
		if (lo && raw->ops[i] != (size_t)ops)
			return -1;
		raw->ops[i] = (size_t)ops;
	}
	return 0;
}

int mbd_bench_worker(struct bench_cli *c, struct mbd_bench *b)
{
	size_t lo, hi;
	uint64_t retaken;

	mbd_bench_layout_rounds(c->reps, c->layouts, (size_t)c->worker, &lo, &hi);
	for (size_t k = 0; k < c->n_in; k++) {
		for (int m = 0; m < MBD_BENCH__MODES; m++) {
			mbd_bench_begin(b);
			if (mbd_bench_measure(b, &c->in[k].t, (enum mbd_bench_mode)m, lo, hi) != 0)
				return mbd_cli_internal("bench: out of memory");
			if (put_slice(stdout, b, c->n, c->reps, lo, hi) != 0)
				return mbd_cli_error("bench: layout worker: cannot write its samples");
		}
	}
	retaken = mbd_bench_retaken(b);
	if (fwrite(&retaken, sizeof(retaken), 1, stdout) != 1 || fflush(stdout) != 0)
		return mbd_cli_error("bench: layout worker: cannot write its samples");
	return MBD_EXIT_OK;
}

static int alloc_raw(struct bench_cli *c)
{
	size_t cells = c->n_in * MBD_BENCH__MODES;

	c->raw = calloc(cells, sizeof(*c->raw));
	if (!c->raw)
		return -1;
	for (size_t k = 0; k < cells; k++) {
		struct mbd_bench_raw *r = &c->raw[k];

		r->ns = calloc(c->n * c->reps, sizeof(*r->ns));
		r->instr = calloc(c->n * c->reps, sizeof(*r->instr));
		r->faults = calloc(c->n, sizeof(*r->faults));
		r->ops = calloc(c->n, sizeof(*r->ops));
		if (!r->ns || !r->instr || !r->faults || !r->ops)
			return -1;
	}
	return 0;
}

void mbd_bench_layouts_free(struct bench_cli *c)
{
	if (!c->raw)
		return;
	for (size_t k = 0; k < c->n_in * MBD_BENCH__MODES; k++) {
		free(c->raw[k].ns);
		free(c->raw[k].instr);
		free(c->raw[k].faults);
		free(c->raw[k].ops);
	}
	free(c->raw);
	c->raw = NULL;
}

/* The worker's command line: this run's options, its layout, the files. */
static char **worker_argv(const struct bench_cli *c, size_t evict_mib,
			  char num[5][24], char **names)
{
	size_t len = 1, argc = 0;
	char **av = calloc(18 + c->n_in, sizeof(*av));

	*names = NULL;
	for (size_t i = 0; i < c->n; i++)
		len += strlen(c->vs[i]->name) + 1;
	*names = calloc(len, 1);
	if (!av || !*names) {
		free(av);
		free(*names);
		return NULL;
	}
	for (size_t i = 0; i < c->n; i++) {
		if (i)
			strcat(*names, ",");
		strcat(*names, c->vs[i]->name);
	}
	/* num[0], the layout, is written for each worker */
	snprintf(num[1], 24, "%zu", c->layouts);
	snprintf(num[2], 24, "%zu", c->reps);
	snprintf(num[3], 24, "%zu", evict_mib);
	snprintf(num[4], 24, "%zu", c->seed);
	av[argc++] = "mbdiff";
	av[argc++] = "bench";
	av[argc++] = "--layout-worker";
	av[argc++] = num[0];
	av[argc++] = "--layouts";
	av[argc++] = num[1];
	av[argc++] = "--reps";
	av[argc++] = num[2];
	av[argc++] = "--evict-mib";
	av[argc++] = num[3];
	av[argc++] = "--seed";
	av[argc++] = num[4];
	/* the parent pinned itself: the worker inherits that CPU */
	av[argc++] = "--no-pin";
	av[argc++] = "--variants";
	av[argc++] = *names;
	av[argc++] = "--";
	for (size_t k = 0; k < c->n_in; k++)
		av[argc++] = (char *)c->in[k].path;
	av[argc] = NULL;
	return av;
}

/* Worker j: spawn it and read its samples. */
static int one_layout(struct bench_cli *c, char **av, size_t j, size_t *retaken)
{
	size_t lo, hi;
	uint64_t more;
	int fd[2], status, bad = 0;
	pid_t pid;
	FILE *f;

	if (pipe(fd) != 0)
		return mbd_cli_error("bench: pipe: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return mbd_cli_error("bench: fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(fd[0]);
		if (dup2(fd[1], STDOUT_FILENO) < 0)
			_exit(MBD_EXIT_ERROR);
		close(fd[1]);
		execv("/proc/self/exe", av);
		fprintf(stderr, "mbdiff: bench: cannot run /proc/self/exe: %s\n",
			strerror(errno));
		_exit(MBD_EXIT_ERROR);
	}
	close(fd[1]);
	f = fdopen(fd[0], "rb");
	if (!f) {
		close(fd[0]);
		bad = 1;
	}
	mbd_bench_layout_rounds(c->reps, c->layouts, j, &lo, &hi);
	for (size_t k = 0; f && !bad && k < c->n_in * MBD_BENCH__MODES; k++)
		bad = get_slice(f, &c->raw[k], c->n, c->reps, lo, hi) != 0;
	if (f) {
		bad = bad || fread(&more, sizeof(more), 1, f) != 1 ||
		      fgetc(f) != EOF;
		fclose(f);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return mbd_cli_error("bench: waitpid: %s", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || bad)
		return mbd_cli_error("bench: layout %zu of %zu failed (%s)", j + 1,
				     c->layouts, bad ? "its samples were cut short" :
				     "it did not exit 0");
	*retaken += (size_t)more;
	return MBD_EXIT_OK;
}

int mbd_bench_layouts(struct bench_cli *c, struct mbd_bench *b)
{
	char num[5][24], *names = NULL;
	size_t retaken = 0;
	char **av;
	int rc = MBD_EXIT_OK;

	if (alloc_raw(c) != 0)
		return mbd_cli_internal("bench: out of memory");
	av = worker_argv(c, mbd_bench_evict_bytes(b) / MIB, num, &names);
	if (!av)
		return mbd_cli_internal("bench: out of memory");
	for (size_t j = 0; j < c->layouts && rc == MBD_EXIT_OK; j++) {
		snprintf(num[0], sizeof(num[0]), "%zu", j);
		rc = one_layout(c, av, j, &retaken);
	}
	mbd_bench_add_retaken(b, retaken);
	free(av);
	free(names);
	return rc;
}

void mbd_bench_layouts_load(const struct bench_cli *c, struct mbd_bench *b,
			    size_t k, int m)
{
	const struct mbd_bench_raw *from = &c->raw[k * MBD_BENCH__MODES + (size_t)m];
	struct mbd_bench_raw to;

	mbd_bench_raw(b, &to);
	memcpy(to.ns, from->ns, c->n * c->reps * sizeof(*to.ns));
	memcpy(to.instr, from->instr, c->n * c->reps * sizeof(*to.instr));
	memcpy(to.faults, from->faults, c->n * sizeof(*to.faults));
	memcpy(to.ops, from->ops, c->n * sizeof(*to.ops));
}
