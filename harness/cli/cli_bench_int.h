/* SPDX-License-Identifier: GPL-2.0 */
/* What cli_bench.c and cli_bench_layouts.c share (`mbdiff bench`). */
#ifndef CLI_BENCH_INT_H
#define CLI_BENCH_INT_H

#include <stddef.h>

#include "mbd_bench.h"
#include "mbd_trace.h"
#include "mbd_variant.h"

struct input {
	const char *path;      /* as walked */
	char name[128];        /* file name without .mbt, for the table */
	struct mbd_trace t;
};

struct bench_cli {
	const char *variants;
	const char *csv;
	size_t reps;
	size_t evict_mib;      /* 0: the default */
	size_t seed;           /* 0: the default */
	size_t layouts;        /* 0: the default */
	long worker;           /* --layout-worker J (hidden), else -1 */
	long cpu;              /* -1: where it starts; -2: not pinned */
	int pinned;            /* the CPU, or -errno */
	const struct mbd_variant **vs;
	size_t n;
	struct input *in;
	size_t n_in;
	/* [input][mode][variant] */
	struct mbd_bench_stats *st;
	/* [input][mode]: every layout's samples (--layouts > 1) */
	struct mbd_bench_raw *raw;
	int wname;
};

/* Rounds [lo, hi) of layout j of k, out of reps. */
void mbd_bench_layout_rounds(size_t reps, size_t k, size_t j, size_t *lo, size_t *hi);

/* --layout-worker: measure this layout's rounds of every input and mode
 * and write them to stdout for the parent. An exit code. */
int mbd_bench_worker(struct bench_cli *c, struct mbd_bench *b);

/* Run every layout's worker, one after the other, and gather their samples
 * into c->raw. An exit code. */
int mbd_bench_layouts(struct bench_cli *c, struct mbd_bench *b);

/* Put input k's samples in mode m from c->raw into b (mbd_bench_raw). */
void mbd_bench_layouts_load(const struct bench_cli *c, struct mbd_bench *b,
			    size_t k, int m);

void mbd_bench_layouts_free(struct bench_cli *c);

#endif
