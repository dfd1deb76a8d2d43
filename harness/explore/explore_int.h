/* SPDX-License-Identifier: GPL-2.0 */
/* What the explore files share: a 128-bit hash, the node store, the seen set. */
#ifndef MBD_EXPLORE_INT_H
#define MBD_EXPLORE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "mbd_explore.h"
#include "mbd_runner.h"

/* Two independent 64-bit lanes: a collision needs both to collide. */
struct mbd_xhash {
	uint64_t h[2];
};

void mbd_xhash_init(struct mbd_xhash *x, uint64_t seed);
void mbd_xhash_u64(struct mbd_xhash *x, uint64_t v);
void mbd_xhash_bytes(struct mbd_xhash *x, const void *p, size_t n);
void mbd_xhash_done(struct mbd_xhash *x);

/* The joint state after the runner's last (agreeing) run of t: every
 * variant's arrays and counters, every oracle, and what of the config the
 * calls changed. */
void mbd_xstate_digest(const struct mbd_runner *r, const struct mbd_trace *t,
		       uint64_t out[2]);

/* The cross product of "key=v1,v2 key=v3" (alphabet_config.c): every
 * combination through the .mbt config parser, first key varying slowest.
 * Returns 0, or -1 with d filled. */
int mbd_xalpha_configs(const char *line, const char *fname, unsigned lineno,
		       struct mbd_config **out, size_t *n, struct mbd_diag *d);

/* One explored state: reached from parent by ops[op]. */
struct mbd_xnode {
	uint64_t hash[2];
	uint32_t parent;       /* index in the node store; UINT32_MAX: a root */
	uint16_t op;           /* alphabet op; the root index for a root */
	uint16_t depth;
};

struct mbd_xstore {
	struct mbd_xnode *v;
	size_t n, cap;
	uint32_t *slot;        /* open addressing: node index + 1, 0 empty */
	size_t n_slots;        /* a power of two, at least 2 x n */
};

void mbd_xstore_init(struct mbd_xstore *s);
void mbd_xstore_free(struct mbd_xstore *s);
/* The node with this hash, or -1. */
long mbd_xstore_find(const struct mbd_xstore *s, const uint64_t hash[2]);
/* Append a node (not yet present) and index it. Returns its index or -1. */
long mbd_xstore_add(struct mbd_xstore *s, const struct mbd_xnode *nd);
/* The calls from the root to node i into idx (at most cap); returns the
 * depth and sets *root. */
size_t mbd_xstore_path(const struct mbd_xstore *s, size_t i, uint16_t *idx,
		       size_t cap, size_t *root);

/* A search in progress (explore.c drives the levels, explore_work.c expands
 * one level, in this process or in forked workers). */
struct mbd_xsearch {
	const struct mbd_alphabet *a;
	const struct mbd_explore_opts *o;
	struct mbd_runner *runner;
	struct mbd_trace t;
	uint16_t *idx;          /* o->depth + 1 entries */
	struct mbd_xstore store;
	struct mbd_xfinding *found;
	size_t n_found, cap_found;
	uint64_t runs, terminal;
	double t0;              /* start, monotonic seconds */
	double t_prev;          /* seconds of the runs before a resume */
	bool stop;              /* time or state cap reached */
	char stop_reason[160];
};

/* Monotonic seconds. */
double mbd_xnow(void);
/* The runs of one level: nodes [lo, hi) all expanded by every op; children
 * stored when store is true. Returns 0 (s->stop may be set: the level is
 * incomplete) or -1 after printing an error. */
int mbd_xlevel(struct mbd_xsearch *s, size_t lo, size_t hi, size_t depth,
	       bool store);
/* Record a finding for key unless it has one; the trace is node parent's
 * calls then op. Returns 0 or -1 (out of memory). */
int mbd_xfound(struct mbd_xsearch *s, const struct mbd_verdict *v,
	       const char *key, size_t parent, uint16_t op);

/* Checkpoint of a search after a completed depth (explore_checkpoint.c). */
struct mbd_xckpt {
	uint64_t params[2];    /* alphabet, variants, class, merge */
	size_t depth_done;
	size_t level_start;    /* first node of the deepest level */
	uint64_t runs, terminal;
	double seconds;
};

int mbd_xckpt_save(const char *path, const struct mbd_xckpt *c,
		   const struct mbd_xstore *s, const struct mbd_xfinding *f,
		   size_t n_found);
/* Returns 0, or -1 after printing why. */
int mbd_xckpt_load(const char *path, struct mbd_xckpt *c, struct mbd_xstore *s,
		   struct mbd_xfinding **f, size_t *n_found);

#endif
