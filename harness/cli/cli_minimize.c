// SPDX-License-Identifier: GPL-2.0
/*
 * `mbdiff minimize`: shrink a diverging input to a small .mbt reproducer
 * that keeps its verdict key. The text is parsed back and re-run before it
 * is written, so the file on disk is known to reproduce.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_cli.h"
#include "mbd_escape.h"
#include "mbd_input.h"
#include "mbd_minimize.h"
#include "mbd_probe.h"
#include "mbd_report.h"
#include "mbd_text.h"

#define KEY_MAX 256

static bool is_process_death(const char *key)
{
	return strcmp(key, "crash") == 0 || strcmp(key, "timeout") == 0;
}

static int parse_args(int argc, char **argv, struct mbd_cli_opts *o,
		      struct mbd_minimize_opts *mo, const char **in,
		      const char **out)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		int m;

		if (a[0] != '-' || strcmp(a, "-") == 0) {
			if (*in)
				return mbd_cli_bad_usage("minimize: more than one input "
							 "(\"%s\", \"%s\")", *in, a);
			*in = a;
			continue;
		}
		if ((m = mbd_cli_match(argc, argv, &i, "-o", &val)) != 0 ||
		    (m = mbd_cli_match(argc, argv, &i, "--output", &val)) != 0) {
			if (m < 0 || !*val)
				return mbd_cli_bad_usage("minimize: %s needs a file name", a);
			*out = val;
			continue;
		}
		if ((m = mbd_cli_match(argc, argv, &i, "--max-runs", &val)) != 0) {
			char *end;
			unsigned long n;

			errno = 0;
			n = m > 0 ? strtoul(val, &end, 10) : 0;
			if (m < 0 || errno || *end || n == 0 || n > 0xffffffffUL ||
			    val[0] == '-')
				return mbd_cli_bad_usage("minimize: --max-runs needs a "
							 "positive number");
			mo->max_runs = (unsigned)n;
			continue;
		}
		if ((m = mbd_cli_match(argc, argv, &i, "--fork", NULL)) != 0) {
			if (m < 0)
				return mbd_cli_bad_usage("minimize: --fork takes no value");
			mo->fork_each = true;
			continue;
		}
		m = mbd_cli_common_opt(argc, argv, &i, o);
		if (m < 0)
			return MBD_EXIT_ERROR;
		if (m == 0)
			return mbd_cli_bad_usage("minimize: unknown option \"%s\"", a);
	}
	if (!*in || !*out)
		return mbd_cli_bad_usage("minimize: needs IN and -o OUT.mbt");
	mo->verbose = o->ropts.verbose;
	return 0;
}

/*
 * Parse the text back and check it still has the key (in a child when the
 * key is a process death). On success the runner holds the run of it.
 */
static int check_text(struct mbd_runner *r, const char *text, size_t len,
		      const char *out, const char *key, bool in_child,
		      struct mbd_trace *back, struct mbd_verdict *v)
{
	char got[KEY_MAX];
	struct mbd_diag d;
	size_t ops_run;

	if (mbd_text_parse(text, len, out, back, &d) != 0) {
		mbd_diag_print(stderr, &d);
		return mbd_cli_internal("%s: the minimized text does not parse; nothing "
					"written (a bug in mbdiff)", out);
	}
	mbd_probe_key(r, back, in_child, 0, got, sizeof(got), &ops_run);
	if (strcmp(got, key) != 0)
		return mbd_cli_error("%s: the minimized text gives \"%s\", not \"%s\"; "
				     "nothing written", out, got, key);
	if (!in_child && mbd_runner_run(r, back, v) != 1)
		return mbd_cli_error("%s: the minimized trace stopped diverging", out);
	return 0;
}

/* "a,b,c": the --variants list that reproduces the run. */
static void variant_names(const struct mbd_runner *r, char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < mbd_runner_count(r) && used < n; i++) {
		int w = snprintf(buf + used, n - used, "%s%s", i ? "," : "",
				 mbd_runner_variant(r, i)->name);

		if (w < 0)
			break;
		used += (size_t)w;
	}
}

static int minimize(struct mbd_runner *r, const struct mbd_minimize_opts *mo,
		    const char *in, const char *out, struct mbd_trace *t)
{
	char key[KEY_MAX], names[512], header[KEY_MAX * 2 + 2048], from[4 * 256 + 4];
	struct mbd_trace small, back;
	struct mbd_verdict v;
	size_t ops_run, len = 0;
	char *text = NULL;
	long runs;
	bool death;
	int rc = MBD_EXIT_ERROR;

	mbd_probe_key(r, t, mo->fork_each, mo->verbose, key, sizeof(key), &ops_run);
	if (!key[0]) {
		printf("mbdiff: %s does not diverge (%zu ops); nothing written\n",
		       in, t->n_ops);
		return MBD_EXIT_OK;
	}
	death = is_process_death(key);
	variant_names(r, names, sizeof(names));
	mbd_trace_init(&small);
	mbd_trace_init(&back);
	runs = mbd_minimize(r, t, key, mo, &small);
	if (runs < 0) {
		rc = mbd_cli_error("%s: does not reproduce \"%s\" reliably; nothing "
				   "written", in, key);
		goto out;
	}
	if (!death && mbd_runner_run(r, &small, &v) != 1) {
		rc = mbd_cli_error("%s: the minimized trace stopped diverging", in);
		goto out;
	}
	/* the header tests/regression.sh reads: signature and variants */
	snprintf(header, sizeof(header),
		 "# %s: %s\n# variants: %s\n# minimized from: %s\n"
		 "# ops: %zu -> %zu (%ld runs)\n", death ? "key" : "signature",
		 death ? key : v.signature, names,
		 mbd_escape_line(from, sizeof(from), in, 256), t->n_ops, small.n_ops, runs);
	if (mbd_cli_format_mbt(&small, header, &text, &len) != 0) {
		rc = mbd_cli_error("%s: cannot format the trace", out);
		goto out;
	}
	if (check_text(r, text, len, out, key, death, &back, &v) != 0)
		goto out;
	if (mbd_cli_write_output(out, text, len) != 0)
		goto out;
	fprintf(stderr, "mbdiff: %s: %zu -> %zu ops in %ld runs, written to %s\n",
		in, t->n_ops, small.n_ops, runs, out);
	if (death) {
		/* running it here would kill us: show the trace instead */
		fputs(text, stdout);
		printf("mbdiff: %s reproduced by %s (%zu ops)\n", key, out, small.n_ops);
	} else {
		mbd_report_print(stdout, r, &back, &v);
	}
	rc = MBD_EXIT_DIVERGENT;
out:
	free(text);
	mbd_trace_free(&small);
	mbd_trace_free(&back);
	return rc;
}

int mbd_cli_minimize(int argc, char **argv)
{
	struct mbd_cli_opts o;
	struct mbd_minimize_opts mo;
	const char *in = NULL, *out = NULL;
	struct mbd_runner *r;
	struct mbd_trace t;
	struct mbd_diag d;
	int rc;

	mbd_cli_opts_default(&o);
	mbd_minimize_opts_default(&mo);
	rc = parse_args(argc, argv, &o, &mo, &in, &out);
	if (rc)
		return rc;
	if (mbd_cli_check_output(out, &in, 1) != 0)
		return MBD_EXIT_ERROR;
	mbd_trace_init(&t);
	if (mbd_load_file(in, o.dec, &t, &d) != 0) {
		mbd_diag_print(stderr, &d);
		mbd_trace_free(&t);
		return MBD_EXIT_ERROR;
	}
	r = mbd_cli_runner(&o);
	if (!r) {
		mbd_trace_free(&t);
		return MBD_EXIT_ERROR;
	}
	rc = minimize(r, &mo, in, out, &t);
	mbd_runner_free(r);
	mbd_trace_free(&t);
	return rc;
}
