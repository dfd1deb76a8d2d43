// SPDX-License-Identifier: GPL-2.0
/*
 * `mbdiff replay`: run traces and fuzzer crash files through the runner
 * (directories are walked as forms/walk.c says).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_cli.h"
#include "mbd_input.h"
#include "mbd_known.h"
#include "mbd_report.h"
#include "mbd_svg.h"

/* The picture of the run just made, written whole or not at all. */
static int write_svg(const char *svg, const struct mbd_runner *r,
		     const struct mbd_trace *t, const struct mbd_verdict *v,
		     const char *input)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int bad;

	if (!f)
		return mbd_cli_internal("out of memory");
	bad = mbd_svg_write(f, r, t, v, input) != 0;
	bad |= fclose(f) != 0;
	if (bad) {
		free(buf);
		return mbd_cli_internal("%s: cannot draw (out of memory)", svg);
	}
	bad = mbd_cli_write_output(svg, buf, len) != 0;
	free(buf);
	return bad ? MBD_EXIT_ERROR : MBD_EXIT_OK;
}

/*
 * Without --variants, a trace that names its model ("# model:", written by
 * `mbdiff import` for the log's kernel) is replayed with that model alone,
 * and one line on stderr says which and why; r is remade when the model
 * changes from one input to the next (cur: the current one, "" = default).
 */
static int pick_model(const char *path, struct mbd_cli_opts *o, struct mbd_runner **r,
		      char *cur, size_t n)
{
	char model[128], note[512];
	const char *want = "";
	struct mbd_runner *nr;

	if (mbd_cli_trace_model(path, model, sizeof(model), note, sizeof(note))) {
		if (mbd_variant_find(model)) {
			want = model;
			fprintf(stderr, "mbdiff: %s: %s\n", path, note);
		} else {
			fprintf(stderr, "mbdiff: %s: the trace's model %s is not in this binary "
				"(`mbdiff list`): replayed with the default variants\n", path, model);
		}
	}
	if (!strcmp(want, cur))
		return 0;
	o->variants = *want ? want : NULL;
	nr = mbd_cli_runner(o);
	o->variants = NULL;
	if (!nr)
		return -1;
	mbd_runner_free(*r);
	*r = nr;
	snprintf(cur, n, "%s", want);
	return 0;
}

int mbd_cli_replay(int argc, char **argv)
{
	struct mbd_cli_opts o;
	struct mbd_paths inputs = { 0 };
	struct mbd_runner *r = NULL;
	struct mbd_trace t;
	size_t n_args = 0, divergent = 0, replayed = 0, faults = 0, crashed = 0, n_known = 0;
	bool quiet = false, only_files = false, narrow = false;
	int errors = 0, status;
	const char *svg = NULL, *known_file = NULL;
	struct mbd_known known;
	char **args, pair[256], cur_model[128] = "";
	bool by_model;

	mbd_cli_opts_default(&o);
	mbd_known_init(&known);
	args = calloc((size_t)argc, sizeof(*args));
	if (!args)
		return mbd_cli_internal("out of memory");
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
		if (strcmp(a, "--narrow") == 0) {
			narrow = true;
			continue;
		}
		m = mbd_cli_match(argc, argv, &i, "--svg", &svg);
		if (m != 0 && (m < 0 || !*svg))
			m = (mbd_cli_bad_usage("replay: --svg needs a file name"), -1);
		if (m == 0) {
			m = mbd_cli_match(argc, argv, &i, "--known", &known_file);
			if (m != 0 && (m < 0 || !*known_file))
				m = (mbd_cli_bad_usage("replay: --known needs a file"), -1);
		}
		if (m == 0)
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
	if (known_file && mbd_known_load(&known, known_file, stderr)) {
		free(args);
		return MBD_EXIT_ERROR;
	}
	errors += mbd_walk((const char *const *)args, n_args, &inputs, "mbdiff", stderr);
	free(args);
	if (!o.variants && mbd_cli_sidecar_variants(&inputs, pair, sizeof(pair)) < 0) {
		mbd_paths_free(&inputs);
		mbd_known_free(&known);
		return MBD_EXIT_ERROR;
	}
	if (!o.variants && pair[0])
		o.variants = pair;
	by_model = !o.variants;
	r = mbd_cli_runner(&o);
	if (!r) {
		mbd_paths_free(&inputs);
		mbd_known_free(&known);
		return MBD_EXIT_ERROR;
	}
	if (svg && inputs.n != 1 && !errors) {
		size_t n = inputs.n;

		mbd_paths_free(&inputs);
		mbd_runner_free(r);
		return mbd_cli_bad_usage("replay: --svg draws one input, %zu given", n);
	}
	if (svg && mbd_cli_check_output(svg, (const char *const *)inputs.v, inputs.n) != 0) {
		/* nothing is run when the picture could not be written */
		mbd_paths_free(&inputs);
		mbd_runner_free(r);
		return MBD_EXIT_ERROR;
	}

	mbd_trace_init(&t);
	for (size_t k = 0; k < inputs.n; k++) {
		const char *path = inputs.v[k];
		struct mbd_verdict v;
		struct mbd_diag d;
		int rc;

		if (by_model && pick_model(path, &o, &r, cur_model, sizeof(cur_model)) != 0) {
			crashed++; /* out of memory (printed) */
			break;
		}
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
			mbd_cli_internal("%s: internal error (out of memory)", path);
			crashed++;
		} else if (rc == 1 && mbd_known_match(&known, v.signature)) {
			/* explained by upstream history: one line, not a report */
			n_known++;
			printf("known: %s: %s | %s\n", path, v.signature,
			       mbd_known_match(&known, v.signature)->commit);
		} else if (rc == 1) {
			divergent++;
			printf("input: %s\n", path);
			if (narrow)
				mbd_report_narrow(stdout, r, &t, &v);
			else
				mbd_report_print(stdout, r, &t, &v);
			printf("\n");
		} else {
			faults += v.baseline_fault;
			if (!quiet) {
				printf("%s: ", path);
				mbd_report_ok(stdout, r, &t, &v);
			}
		}
		if (rc >= 0 && svg && write_svg(svg, r, &t, &v, path) != MBD_EXIT_OK)
			errors++;
		fflush(stdout);
	}
	printf("replayed %zu inputs: %zu divergent", replayed, divergent);
	if (known_file)
		printf(", %zu known differences", n_known);
	if (faults)
		printf(", %zu baseline faults", faults);
	if (errors)
		printf(", %d errors", errors);
	printf("\n");
	mbd_trace_free(&t);
	mbd_paths_free(&inputs);
	mbd_runner_free(r);
	mbd_known_free(&known);
	status = crashed ? MBD_EXIT_CRASH : errors ? MBD_EXIT_ERROR :
		 divergent ? MBD_EXIT_DIVERGENT : MBD_EXIT_OK;
	return status;
}
