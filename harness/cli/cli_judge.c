// SPDX-License-Identifier: GPL-2.0
/*
 * `mbdiff judge`: for each trace, who breaks the API contract (mainline,
 * the patch, both, neither) and the root-cause key it is grouped by
 * (output/judge.c). `mbdiff check` calls it on every finding.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>

#include "mbd_cli.h"
#include "mbd_input.h"
#include "mbd_judge.h"

struct judge_args {
	struct mbd_cli_opts o;
	const char *src[2];
	bool json;
	char **files;
	size_t n_files;
};

/* --source NAME=FILE: the file variant NAME was compiled from */
static int source_opt(struct judge_args *a, const char *val,
		      const struct mbd_variant *const vs[2])
{
	const char *eq = strchr(val, '=');

	if (!eq || eq == val || !eq[1])
		return mbd_cli_bad_usage("judge: --source needs NAME=FILE, got \"%s\"", val);
	for (int i = 0; i < 2; i++) {
		if (strlen(vs[i]->name) == (size_t)(eq - val) &&
		    strncmp(vs[i]->name, val, (size_t)(eq - val)) == 0) {
			a->src[i] = eq + 1;
			return 0;
		}
	}
	return mbd_cli_bad_usage("judge: --source %s: not one of the two --variants", val);
}

static int parse(int argc, char **argv, struct judge_args *a,
		 const char **sources, size_t *n_sources)
{
	for (int i = 1; i < argc; i++) {
		const char *v = NULL;
		int m;

		if (argv[i][0] != '-' || strcmp(argv[i], "-") == 0) {
			a->files[a->n_files++] = argv[i];
			continue;
		}
		if (strcmp(argv[i], "--json") == 0) {
			a->json = true;
			continue;
		}
		m = mbd_cli_match(argc, argv, &i, "--source", &v);
		if (m > 0) {
			sources[(*n_sources)++] = v;
			continue;
		}
		if (m < 0)
			return mbd_cli_bad_usage("judge: --source needs NAME=FILE");
		m = mbd_cli_common_opt(argc, argv, &i, &a->o);
		if (m < 0)
			return MBD_EXIT_ERROR;
		if (m == 0)
			return mbd_cli_bad_usage("judge: unknown option \"%s\"", argv[i]);
	}
	if (!a->o.variants)
		return mbd_cli_bad_usage("judge: --variants BASE,PATCHED is required");
	if (!a->n_files)
		return mbd_cli_bad_usage("judge: no trace given");
	return 0;
}

static void print_line(const char *file, const struct mbd_judge *j)
{
	if (j->kind == MBD_JUDGE_NONE) {
		printf("%s: no divergence\n", file);
		return;
	}
	printf("%s: %s: %s [%s]\n", file, mbd_judge_kind_name(j->kind), j->title, j->key);
	if (j->site[0])
		printf("  at %s\n", j->site);
}

int mbd_cli_judge(int argc, char **argv)
{
	struct judge_args a = { 0 };
	const struct mbd_variant *vs[2];
	const char **sources;
	size_t n_sources = 0;
	struct mbd_judge_ctx *c;
	struct mbd_trace t;
	int errors = 0, rc;

	mbd_cli_opts_default(&a.o);
	a.files = calloc((size_t)argc, sizeof(*a.files));
	sources = calloc((size_t)argc, sizeof(*sources));
	if (!a.files || !sources) {
		free(a.files);
		free(sources);
		return mbd_cli_internal("out of memory");
	}
	rc = parse(argc, argv, &a, sources, &n_sources);
	if (!rc && mbd_cli_variant_list(a.o.variants, vs, 2) != 2)
		rc = mbd_cli_bad_usage("judge: --variants needs exactly two names, mainline first");
	for (size_t k = 0; !rc && k < n_sources; k++)
		rc = source_opt(&a, sources[k], vs);
	free(sources);
	if (rc) {
		free(a.files);
		return MBD_EXIT_ERROR;
	}
	c = mbd_judge_new(vs[0], vs[1], a.src, &a.o.ropts);
	if (!c) {
		free(a.files);
		return mbd_cli_internal("out of memory");
	}
	mbd_trace_init(&t);
	for (size_t k = 0; k < a.n_files; k++) {
		struct mbd_judge j;
		struct mbd_diag d;

		if (mbd_load_file(a.files[k], a.o.dec, &t, &d) != 0) {
			mbd_diag_print(stderr, &d);
			errors++;
			continue;
		}
		if (mbd_judge_run(c, &t, &j) != 0) {
			mbd_trace_free(&t);
			mbd_judge_free(c);
			free(a.files);
			return mbd_cli_internal("%s: out of memory", a.files[k]);
		}
		if (a.json) {
			mbd_judge_json(stdout, a.files[k], &j, &t);
			putchar('\n');
		} else {
			print_line(a.files[k], &j);
		}
		fflush(stdout);
	}
	mbd_trace_free(&t);
	mbd_judge_free(c);
	free(a.files);
	return errors ? MBD_EXIT_ERROR : MBD_EXIT_OK;
}
