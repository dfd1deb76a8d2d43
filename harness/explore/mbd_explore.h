/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exhaustive search within a small scope (docs/explore.md): every trace of
 * up to depth calls over an alphabet, breadth first, with states reached
 * twice expanded once. The outcome is either the shortest trace of every
 * divergence signature or a certificate that there is none.
 */
#ifndef MBD_EXPLORE_H
#define MBD_EXPLORE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "mbd_runner.h"
#include "mbd_text.h"
#include "mbd_trace.h"

/* ------------------------------------------------------------- alphabet */

/* A starting point: a boot configuration and filler calls run before the
 * explored ones (not counted in the depth). */
struct mbd_xroot {
	struct mbd_config cfg;
	uint32_t fill;        /* filler regions in memory and in reserved */
};

struct mbd_alphabet {
	char name[64];
	struct mbd_op *ops;   /* in search order: smaller addresses first */
	size_t n_ops;
	struct mbd_xroot *roots;
	size_t n_roots;
	uint64_t hash[2];     /* of the expanded ops and roots, not the text */
};

/* Where filler regions go: above the 1 TiB window region arrays live in,
 * so no array or allocation ever lands among them. */
#define MBD_XFILL_BASE 0x20000000000ULL
#define MBD_XFILL_STEP 0x2000ULL
#define MBD_XFILL_MAX 127u

/* Parse an alphabet file. Returns 0, or -1 with d filled (file:line). */
int mbd_alphabet_load(const char *path, struct mbd_alphabet *a,
		      struct mbd_diag *d);
int mbd_alphabet_parse(const char *buf, size_t len, const char *fname,
		       struct mbd_alphabet *a, struct mbd_diag *d);
void mbd_alphabet_free(struct mbd_alphabet *a);

/* The trace of root r followed by ops[idx[0..n)] (t is cleared first).
 * Returns 0 or -1 (out of memory). */
int mbd_alphabet_trace(const struct mbd_alphabet *a, size_t root,
		       const uint16_t *idx, size_t n, struct mbd_trace *t);

/* ---------------------------------------------------------------- search */

struct mbd_explore_opts {
	size_t depth;          /* calls per trace, at most */
	int jobs;              /* worker processes (1: in this process) */
	size_t max_states;     /* cap on distinct states kept */
	double time_limit;     /* seconds, 0 for none: stop after the last
				  depth completed in time */
	int progress;          /* 0 silent, 1 a progress line on stderr */
	bool first;            /* stop after the first depth that diverges */
	bool merge;            /* expand a state once (false: every trace,
				  for checking the state hash) */
	const char *checkpoint; /* written after every completed depth */
	const char *resume;     /* start from this checkpoint */
	struct mbd_runner_opts ropts;
};

void mbd_explore_opts_default(struct mbd_explore_opts *o);

/* The shortest trace found for one signature key. */
struct mbd_xfinding {
	char key[200];
	char signature[200];
	bool baseline_fault;   /* about the baseline alone, not a divergence */
	enum mbd_class cls;
	size_t root;
	uint16_t *idx;         /* the explored calls */
	size_t n;
};

struct mbd_explore_result {
	size_t depth_done;     /* every trace of this many calls was judged */
	bool complete;         /* depth_done == opts.depth */
	char stop_reason[160]; /* why not complete */
	long double traces;    /* root count x sum of |alphabet|^d, d <= depth_done */
	uint64_t states;       /* distinct states expanded */
	uint64_t runs;         /* traces actually run */
	uint64_t terminal;     /* runs that ended in an agreed panic */
	double seconds;
	struct mbd_xfinding *found; /* divergences first, in finding order */
	size_t n_found;
	size_t n_divergent;    /* found[] entries that are divergences */
};

/*
 * Run the search for variants vs[0..n) over a. Returns 0 (see r), or -1
 * after printing an error ("mbdiff: ...") to stderr.
 */
int mbd_explore_run(const struct mbd_alphabet *a,
		    const struct mbd_variant *const *vs, size_t n,
		    const struct mbd_explore_opts *o,
		    struct mbd_explore_result *r);
void mbd_explore_result_free(struct mbd_explore_result *r);

/* N traces as text: exact below 2^64, else in e-notation. */
void mbd_explore_count_str(long double n, char *buf, size_t len);

/* ----------------------------------------------------------- certificate */

struct mbd_xcert {
	char variants[512];
	char alphabet[64];
	uint64_t hash[2];
	size_t depth;
	enum mbd_class min_class;
	char traces[48];
	uint64_t states;
	size_t baseline_faults;
};

/* The certificate of a clean result (r->n_divergent == 0). */
void mbd_xcert_from(struct mbd_xcert *c, const struct mbd_alphabet *a,
		    const char *variants, enum mbd_class min_class,
		    const struct mbd_explore_result *r);
/* "no divergence at class >= C among all N traces of <= K calls over
 * alphabet A (S distinct states)" */
void mbd_xcert_claim(const struct mbd_xcert *c, char *buf, size_t n);
int mbd_xcert_write(FILE *out, const struct mbd_xcert *c);
/* Returns 0, or -1 with d filled. */
int mbd_xcert_parse(const char *buf, size_t len, const char *fname,
		    struct mbd_xcert *c, struct mbd_diag *d);
/* Same claim: every field equal. */
bool mbd_xcert_equal(const struct mbd_xcert *a, const struct mbd_xcert *b);

/* ----------------------------------------------------------- quick check */

/*
 * A short search for `mbdiff check`: alphabet file, variants, depth, a time
 * limit in seconds (0: none), the class. Returns 0 when clean (line: the
 * certificate's claim), 1 on a divergence (line: the signature of the
 * first shortest counterexample), -1 on an error (line: what; also printed).
 */
int mbd_explore_quick(const char *alphabet, const struct mbd_variant *const *vs,
		      size_t n, size_t depth, double seconds,
		      enum mbd_class min_class, char *line, size_t len);

#endif
