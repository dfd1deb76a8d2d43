// SPDX-License-Identifier: GPL-2.0
/*
 * `mbdiff lift`: does a reproducer's bug happen on the kernel's boot-sized
 * arrays? Rebuilds the trace there without randomness (output/lift.c) and
 * says "reachable with 128-slot arrays: yes (N calls, FILE)" or "not
 * reached: REASON". `mbdiff check` asks it for every bug.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>

#include "mbd_cli.h"
#include "mbd_input.h"
#include "mbd_lift.h"

static int slots_opt(const char *val, struct mbd_lift_opts *lo)
{
	char *end;
	unsigned long m = strtoul(val, &end, 10), r = m;

	if (end != val && *end == ',')
		r = strtoul(end + 1, &end, 10);
	if (end == val || *end || m < 1 || r < 1 || m > MBD_MAX_BOOT_REGIONS / 2 ||
	    r > MBD_MAX_BOOT_REGIONS / 2)
		return mbd_cli_bad_usage("lift: --slots needs N or MEMORY,RESERVED, each 1..%d, got \"%s\"",
					 MBD_MAX_BOOT_REGIONS / 2, val);
	lo->memory_slots = (uint32_t)m;
	lo->reserved_slots = (uint32_t)r;
	return 0;
}

static int report(const char *file, const struct mbd_lift_opts *lo,
		  const struct mbd_lift *l)
{
	if (lo->no_judge) {
		if (!l->n_calls) {
			printf("%s: cannot be lifted: %s\n", file, l->why);
			return MBD_EXIT_DIVERGENT;
		}
		printf("%s: lifted, not judged: %zu calls at scale %u, fillers %s (%s)\n", file,
		       l->n_calls, l->scale, l->below ? "below" : "above",
		       lo->out ? lo->out : "not written: no -o");
		return MBD_EXIT_OK;
	}
	if (l->reached) {
		printf("%s: reachable with %u-slot arrays: yes (%zu calls, %s)\n", file,
		       lo->memory_slots, l->n_calls, lo->out ? lo->out : "not written: no -o");
		printf("  bug: %s\n", l->key);
		return MBD_EXIT_OK;
	}
	if (l->why[0])
		printf("%s: reachable with %u-slot arrays: not by lifting: %s\n", file,
		       lo->memory_slots, l->why);
	else
		printf("%s: reachable with %u-slot arrays: not by lifting: the lifted "
		       "trace gives %s\n", file, lo->memory_slots, l->got);
	printf("  bug: %s\n", l->key);
	return MBD_EXIT_DIVERGENT;
}

int mbd_cli_lift(int argc, char **argv)
{
	struct mbd_cli_opts o;
	struct mbd_lift_opts lo;
	const struct mbd_variant *vs[2];
	const char *file = NULL;
	struct mbd_judge_ctx *c;
	struct mbd_trace t, lifted;
	struct mbd_lift l;
	struct mbd_diag d;
	int rc;

	mbd_cli_opts_default(&o);
	mbd_lift_opts_default(&lo);
	for (int i = 1; i < argc; i++) {
		const char *v = NULL;
		int m;

		if (argv[i][0] != '-' || strcmp(argv[i], "-") == 0) {
			if (file)
				return mbd_cli_bad_usage("lift: one trace at a time (got \"%s\" and \"%s\")",
							 file, argv[i]);
			file = argv[i];
			continue;
		}
		if ((m = mbd_cli_match(argc, argv, &i, "-o", &v)) != 0 ||
		    (m = mbd_cli_match(argc, argv, &i, "--out", &v)) != 0) {
			if (m < 0)
				return mbd_cli_bad_usage("lift: -o needs a file");
			lo.out = v;
			continue;
		}
		if ((m = mbd_cli_match(argc, argv, &i, "--slots", &v)) != 0) {
			if (m < 0 || slots_opt(v, &lo))
				return m < 0 ? mbd_cli_bad_usage("lift: --slots needs a value") : MBD_EXIT_ERROR;
			continue;
		}
		if ((m = mbd_cli_match(argc, argv, &i, "--build-only", &v)) != 0) {
			if (m < 0 || (strcmp(v, "base") && strcmp(v, "patched")))
				return mbd_cli_bad_usage("lift: --build-only needs base or patched (the side the fillers follow)");
			lo.no_judge = true;
			lo.build_side = strcmp(v, "patched") == 0;
			continue;
		}
		if ((m = mbd_cli_match(argc, argv, &i, "--scale", &v)) != 0) {
			if (m < 0 || (strcmp(v, "1") && strcmp(v, "4") && strcmp(v, "16") && strcmp(v, "64")))
				return mbd_cli_bad_usage("lift: --scale needs 1, 4, 16 or 64");
			lo.scale = (unsigned)atoi(v);
			continue;
		}
		if ((m = mbd_cli_match(argc, argv, &i, "--fillers", &v)) != 0) {
			if (m < 0 || (strcmp(v, "above") && strcmp(v, "below")))
				return mbd_cli_bad_usage("lift: --fillers needs above or below");
			lo.fillers = strcmp(v, "below") == 0 ? 2 : 1;
			continue;
		}
		if ((m = mbd_cli_match(argc, argv, &i, "--log", NULL)) != 0) {
			lo.log = stderr;
			continue;
		}
		m = mbd_cli_common_opt(argc, argv, &i, &o);
		if (m < 0)
			return MBD_EXIT_ERROR;
		if (m == 0)
			return mbd_cli_bad_usage("lift: unknown option \"%s\"", argv[i]);
	}
	if (!file)
		return mbd_cli_bad_usage("lift: no trace given");
	if (!o.variants)
		return mbd_cli_bad_usage("lift: --variants BASE,PATCHED is required");
	if (mbd_cli_variant_list(o.variants, vs, 2) != 2)
		return mbd_cli_bad_usage("lift: --variants needs exactly two names, mainline first");
	if (lo.out && mbd_cli_check_output(lo.out, &file, 1))
		return MBD_EXIT_ERROR;
	mbd_trace_init(&t);
	if (mbd_load_file(file, o.dec, &t, &d) != 0) {
		mbd_diag_print(stderr, &d);
		mbd_trace_free(&t);
		return MBD_EXIT_ERROR;
	}
	c = mbd_judge_new(vs[0], vs[1], NULL, &o.ropts);
	if (!c) {
		mbd_trace_free(&t);
		return mbd_cli_internal("out of memory");
	}
	mbd_trace_init(&lifted);
	rc = mbd_lift_run(c, vs, &t, &lo, &lifted, &l);
	if (rc == 1) {
		fprintf(stderr, "mbdiff: %s: %s and %s agree and hold the contract: no bug to lift\n",
			file, vs[0]->name, vs[1]->name);
		rc = MBD_EXIT_ERROR;
	} else if (rc < 0) {
		rc = mbd_cli_internal("%s: lift failed", file);
	} else {
		rc = report(file, &lo, &l);
	}
	mbd_trace_free(&lifted);
	mbd_trace_free(&t);
	mbd_judge_free(c);
	return rc;
}
