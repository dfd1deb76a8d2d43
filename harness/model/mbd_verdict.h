/* SPDX-License-Identifier: GPL-2.0 */
/* Divergence classes and verdicts, shared by runner, oracle and report. */
#ifndef MBD_VERDICT_H
#define MBD_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Ascending severity: a larger value is worse. */
enum mbd_class {
	MBD_CLASS_NONE = 0,
	MBD_CLASS_WARNING,   /* WARN_ON counts differ */
	MBD_CLASS_CAPACITY,  /* max differs */
	MBD_CLASS_LAYOUT,    /* same coverage, different split/merge/cnt/total */
	MBD_CLASS_RETURN,    /* return value or allocated address differs */
	MBD_CLASS_INVARIANT, /* unsorted, overlapping, empty region, cnt > max,
				total_size wrong (oracle) */
	MBD_CLASS_COVERAGE,  /* bytes, flags or nid differ: memory lost/gained */
	MBD_CLASS_PANIC,     /* one side hit BUG_ON()/panic(), or both with
				different messages */
	MBD_CLASS_CRASH,     /* the process died (sanitizer, signal) */
	MBD_CLASS__COUNT
};

/* Where the difference is. */
enum mbd_where {
	MBD_WHERE_MEMORY = 0,
	MBD_WHERE_RESERVED = 1,
	MBD_WHERE_CALL = 2,  /* return value, panic, warnings */
};

/*
 * The default minimum class of every entry point (replay, minimize, the
 * fuzz targets, the campaign scripts): everything but a WARN count alone,
 * which is a note for a kernel developer, not a failure (--min-class
 * warning shows it).
 */
#define MBD_CLASS_DEFAULT_MIN MBD_CLASS_CAPACITY

const char *mbd_class_name(enum mbd_class c);
/* Class for a name ("coverage", ...), MBD_CLASS_NONE if unknown. */
enum mbd_class mbd_class_lookup(const char *name);
const char *mbd_where_name(enum mbd_where w);

struct mbd_verdict {
	bool divergent;
	bool by_oracle;        /* found by the oracle, not by a comparison */
	enum mbd_class cls;
	enum mbd_where where;
	size_t op_index;       /* 0-based index of the op that diverged */
	uint32_t op_kind;
	int va;                /* index of the first variant (the baseline) */
	int vb;                /* index of the other variant; the oracle's
				  subject when by_oracle (then va == vb) */
	size_t ops_run;        /* ops executed by every variant */
	bool all_panicked;     /* trace ended early: every variant panicked
				  with the same message (agreement) */
	bool baseline_fault;   /* trace ended early: the baseline hit BUG_ON()
				  or failed the oracle (see mbd_runner_opts) */
	char detail[256];      /* one human line: what differs */
	/* by_oracle: the contract clause broken (enum mbd_clause) and every
	   clause that step noted (1u << clause); 0 otherwise */
	int clause;
	uint32_t clauses;
	/*
	 * One stable line, e.g.
	 * "mbdiff: divergence reference~zhou-2025 reserved/coverage at op 17 memblock_reserve"
	 * or "mbdiff: oracle zhou-2025 reserved/invariant at op 3 memblock_add".
	 */
	char signature[200];
};

/*
 * The part of a signature that minimization must keep: the variants, where,
 * class and op name, without the op index (which shrinks).
 */
void mbd_verdict_key(const struct mbd_verdict *v, char *buf, size_t n);

/* Fill v->signature from the other fields (the runner calls this). */
void mbd_signature(struct mbd_verdict *v, const char *name_a, const char *name_b);

#endif
