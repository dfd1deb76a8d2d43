// SPDX-License-Identifier: GPL-2.0
/*
 * `mbdiff explore`: every trace of up to --depth calls over an alphabet
 * (harness/explore/, docs/explore.md). Writes the shortest trace of each
 * divergence signature, or a certificate that there is none; --verify
 * re-runs the search a certificate describes and compares.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mbd_output.h"
#include "mbd_cli.h"
#include "mbd_explore.h"
#include "mbd_input.h"

#define MAX_VARIANTS 16

struct xargs {
	struct mbd_cli_opts o;
	struct mbd_explore_opts x;
	const char *alphabet, *outdir, *verify;
	bool depth_given;
	char default_alphabet[4096];	/* the data dir's, without --alphabet */
};

static int number(const char *opt, const char *val, unsigned long long lo,
		  unsigned long long hi, unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = val && *val >= '0' && *val <= '9' ? strtoull(val, &end, 10) : 0;
	if (!val || *val < '0' || *val > '9' || errno || *end || *out < lo || *out > hi)
		return mbd_cli_bad_usage("explore: %s needs a number %llu..%llu", opt, lo, hi);
	return 0;
}

static int parse_args(int argc, char **argv, struct xargs *a)
{
	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i], *val = NULL;
		unsigned long long n;
		int m;

		if ((m = mbd_cli_match(argc, argv, &i, "--depth", &val)) != 0) {
			if (number(opt, m > 0 ? val : NULL, 1, 1000, &n))
				return -1;
			a->x.depth = n;
			a->depth_given = true;
		} else if ((m = mbd_cli_match(argc, argv, &i, "-j", &val)) != 0 ||
			   (m = mbd_cli_match(argc, argv, &i, "--jobs", &val)) != 0) {
			if (number(opt, m > 0 ? val : NULL, 1, 64, &n))
				return -1;
			a->x.jobs = (int)n;
		} else if ((m = mbd_cli_match(argc, argv, &i, "--max-states", &val)) != 0) {
			if (number(opt, m > 0 ? val : NULL, 1, 2000000000ULL, &n))
				return -1;
			a->x.max_states = n;
		} else if ((m = mbd_cli_match(argc, argv, &i, "--time", &val)) != 0) {
			if (number(opt, m > 0 ? val : NULL, 1, 10000000, &n))
				return -1;
			a->x.time_limit = (double)n;
		} else if ((m = mbd_cli_match(argc, argv, &i, "--alphabet", &val)) != 0 ||
			   (m = mbd_cli_match(argc, argv, &i, "-o", &val)) != 0 ||
			   (m = mbd_cli_match(argc, argv, &i, "--checkpoint", &val)) != 0 ||
			   (m = mbd_cli_match(argc, argv, &i, "--resume", &val)) != 0 ||
			   (m = mbd_cli_match(argc, argv, &i, "--verify", &val)) != 0) {
			const char **dst = opt[2] == 'a' ? &a->alphabet :
					   opt[1] == 'o' ? &a->outdir :
					   opt[2] == 'c' ? &a->x.checkpoint :
					   opt[2] == 'r' ? &a->x.resume : &a->verify;

			if (m < 0 || !*val)
				return mbd_cli_bad_usage("explore: %s needs a file name", opt);
			*dst = val;
		} else if (!strcmp(opt, "--quiet") || !strcmp(opt, "-q")) {
			a->x.progress = 0;
		} else if (!strcmp(opt, "--first")) {
			a->x.first = true;
		} else if (!strcmp(opt, "--no-merge")) {
			a->x.merge = false;
		} else if ((m = mbd_cli_common_opt(argc, argv, &i, &a->o)) != 0) {
			if (m < 0)
				return -1;
		} else {
			return mbd_cli_bad_usage("explore: unknown argument \"%s\"", opt);
		}
	}
	if (!a->alphabet) {
		char data[3800];

		if (mbd_cli_data_dir(data, sizeof(data)) != 0)
			return mbd_cli_error("explore: no --alphabet, and the data dir "
					     "path is too long (MBDIFF_DATA)");
		snprintf(a->default_alphabet, sizeof(a->default_alphabet),
			 "%s/corpus/alphabets/default.alpha", data);
		a->alphabet = a->default_alphabet;
	}
	a->x.ropts = a->o.ropts;
	return 0;
}

/* "reference~zhou-2025 memory/coverage memblock_add" as a file name. */
static void file_name(const struct mbd_xfinding *f, size_t k, char *buf, size_t n)
{
	size_t pos = (size_t)snprintf(buf, n, "%s%02zu-", f->baseline_fault ?
				      "baseline-" : "", k + 1);
	/* the variants (or "baseline-fault NAME") are the same in every file */
	const char *s = strchr(f->key, ' ');

	if (s && f->baseline_fault)
		s = strchr(s + 1, ' ');
	s = s ? s + 1 : f->key;
	for (; *s && pos + 5 < n; s++)
		buf[pos++] = (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
			     *s == '_' ? *s : '-';
	snprintf(buf + pos, n - pos, ".mbt");
}

static int write_finding(const struct xargs *a, const struct mbd_alphabet *al,
			 const char *variants, const struct mbd_xfinding *f,
			 size_t k, size_t depth)
{
	struct mbd_trace t;
	char name[256], path[4200], header[1200], why[256], *buf = NULL;
	size_t len = 0;
	int ret = 0;

	mbd_trace_init(&t);
	if (mbd_alphabet_trace(al, f->root, f->idx, f->n, &t)) {
		mbd_trace_free(&t);
		return mbd_cli_error("out of memory");
	}
	file_name(f, k, name, sizeof(name));
	printf("%s %zu call%s: %s", f->baseline_fault ? "baseline fault," : "shortest,",
	       f->n, f->n == 1 ? "" : "s", f->signature);
	if (a->outdir) {
		snprintf(path, sizeof(path), "%s/%s", a->outdir, name);
		snprintf(header, sizeof(header),
			 "# mbdiff explore: the shortest trace of \"%s\"\n"
			 "# (%zu explored call%s; alphabet %s, every trace of <= %zu calls "
			 "searched; %u filler calls first)\n"
			 "# variants: %s\n", f->key, f->n, f->n == 1 ? "" : "s", al->name,
			 depth, al->roots[f->root].fill * 2, variants);
		if (mbd_cli_format_mbt(&t, header, &buf, &len))
			ret = mbd_cli_error("%s: cannot write: out of memory", path);
		else if (mbd_output_write(path, buf, len, why, sizeof(why)))
			ret = mbd_cli_error("%s: cannot write: %s", path, why);
		else
			printf("  -> %s", path);
		free(buf);
	}
	putchar('\n');
	mbd_trace_free(&t);
	return ret;
}

static int write_cert(const char *outdir, const struct mbd_xcert *c)
{
	char path[4200], why[256], *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int bad;

	if (!m)
		return mbd_cli_error("out of memory");
	bad = mbd_xcert_write(m, c) != 0;
	bad |= fclose(m) != 0;
	mbd_xcert_write(stdout, c);
	if (outdir && !bad) {
		snprintf(path, sizeof(path), "%s/certificate.txt", outdir);
		if (mbd_output_write(path, buf, len, why, sizeof(why)))
			bad = 1, mbd_cli_error("%s: cannot write: %s", path, why);
		else
			printf("certificate written to %s\n", path);
	}
	free(buf);
	return bad ? MBD_EXIT_ERROR : MBD_EXIT_OK;
}

static int load_cert(const char *path, struct mbd_xcert *c)
{
	uint8_t *buf = NULL;
	char why[256];
	size_t len = 0;
	struct mbd_diag d;
	int bad;

	if (mbd_read_file(path, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)))
		return mbd_cli_error("%s: cannot read: %s", path, why);
	bad = mbd_xcert_parse((const char *)buf, len, path, c, &d);
	free(buf);
	if (bad) {
		mbd_diag_print(stderr, &d);
		return MBD_EXIT_ERROR;
	}
	return 0;
}

static int report(const struct xargs *a, const struct mbd_alphabet *al,
		  const char *variants, const struct mbd_explore_result *r,
		  const struct mbd_xcert *want)
{
	struct mbd_xcert c;
	char n[48];

	mbd_explore_count_str(r->traces, n, sizeof(n));
	printf("explore: %s over alphabet %s (%zu calls, %zu configurations): "
	       "depth %zu, %s traces, %llu distinct states, %llu runs, %.1f s\n",
	       variants, al->name, al->n_ops, al->n_roots, r->depth_done, n,
	       (unsigned long long)r->states, (unsigned long long)r->runs, r->seconds);
	if (!r->complete && !a->x.first)
		printf("explore: stopped before depth %zu: %s\n", a->x.depth, r->stop_reason);
	for (size_t k = 0; k < r->n_found; k++)
		if (write_finding(a, al, variants, &r->found[k], k, r->depth_done))
			return MBD_EXIT_ERROR;
	if (r->n_divergent) {
		printf("explore: %zu divergence signature%s\n", r->n_divergent,
		       r->n_divergent == 1 ? "" : "s");
		return want ? (printf("explore: certificate NOT verified: the search "
				      "diverges\n"), MBD_EXIT_DIVERGENT) : MBD_EXIT_DIVERGENT;
	}
	if (r->depth_done == 0)
		return mbd_cli_error("explore: no depth completed: %s", r->stop_reason);
	mbd_xcert_from(&c, al, variants, a->x.ropts.min_class, r);
	if (!want)
		return write_cert(a->outdir, &c);
	mbd_xcert_write(stdout, &c);
	if (!mbd_xcert_equal(&c, want)) {
		printf("explore: certificate NOT verified: the search above differs from %s\n",
		       a->verify);
		return MBD_EXIT_DIVERGENT;
	}
	printf("explore: certificate %s verified\n", a->verify);
	return MBD_EXIT_OK;
}

/* The variants of the run as "a,b" and as descriptors. */
static size_t pick_variants(const struct xargs *a, const struct mbd_variant **vs,
			    char *names, size_t n)
{
	struct mbd_runner *r = mbd_cli_runner(&a->o);
	size_t k = 0, pos = 0;

	if (!r)
		return 0;
	for (; k < mbd_runner_count(r) && k < MAX_VARIANTS; k++) {
		vs[k] = mbd_runner_variant(r, k);
		pos += (size_t)snprintf(names + pos, n - pos, "%s%s", k ? "," : "",
					vs[k]->name);
	}
	mbd_runner_free(r);
	return k;
}

int mbd_cli_explore(int argc, char **argv)
{
	struct xargs a = { 0 };
	struct mbd_xcert want;
	struct mbd_alphabet al;
	struct mbd_explore_result r;
	const struct mbd_variant *vs[MAX_VARIANTS];
	char names[512];
	struct mbd_diag d;
	size_t nv;
	int status;

	mbd_cli_opts_default(&a.o);
	mbd_explore_opts_default(&a.x);
	if (parse_args(argc, argv, &a))
		return MBD_EXIT_ERROR;
	if (a.verify) {
		if (load_cert(a.verify, &want))
			return MBD_EXIT_ERROR;
		if (a.o.variants && strcmp(a.o.variants, want.variants))
			return mbd_cli_bad_usage("explore: --variants differs from the "
						 "certificate's \"%s\"", want.variants);
		a.o.variants = want.variants;
		a.x.depth = want.depth;
		a.x.ropts.min_class = want.min_class;
	}
	if (mbd_alphabet_load(a.alphabet, &al, &d)) {
		mbd_diag_print(stderr, &d);
		return MBD_EXIT_ERROR;
	}
	if (a.verify && (al.hash[0] != want.hash[0] || al.hash[1] != want.hash[1])) {
		mbd_alphabet_free(&al);
		printf("explore: certificate NOT verified: %s is not the alphabet of %s\n",
		       a.alphabet, a.verify);
		return MBD_EXIT_DIVERGENT;
	}
	nv = pick_variants(&a, vs, names, sizeof(names));
	if (!nv || (a.outdir && mkdir(a.outdir, 0777) && errno != EEXIST)) {
		if (nv)
			mbd_cli_error("%s: cannot create: %s", a.outdir, strerror(errno));
		mbd_alphabet_free(&al);
		return MBD_EXIT_ERROR;
	}
	if (mbd_explore_run(&al, vs, nv, &a.x, &r)) {
		mbd_alphabet_free(&al);
		return MBD_EXIT_ERROR;
	}
	status = report(&a, &al, names, &r, a.verify ? &want : NULL);
	mbd_explore_result_free(&r);
	mbd_alphabet_free(&al);
	return status;
}
