// SPDX-License-Identifier: GPL-2.0
/* Double-dash options shared by the fuzz entry points. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_options.h"

/* An OSS-Fuzz style target cannot be given "--" options (its runner passes
 * .options values as libFuzzer flags), so each such target is compiled with
 * its variant list: -DMBD_FUZZ_BAKED_VARIANTS="reference,zhou-2025". */
#ifdef MBD_FUZZ_BAKED_VARIANTS
#define MBD_FUZZ_BUILD_VARIANTS MBD_FUZZ_BAKED_VARIANTS
#else
#define MBD_FUZZ_BUILD_VARIANTS MBD_FUZZ_DEFAULT_VARIANTS
#endif

void mbd_fuzz_opts_default(struct mbd_fuzz_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->decoder = MBD_DECODER_STRUCTURED;
	o->mutator = MBD_FUZZ_DEFAULT_MUTATOR;
	mbd_runner_opts_default(&o->runner);
}

static void list_variants(FILE *err)
{
	fputs("mbdiff: variants in this build:", err);
	for (size_t i = 0; mbd_variants[i]; i++)
		fprintf(err, " %s", mbd_variants[i]->name);
	fputc('\n', err);
}

/* "a,b,c" -> o->variants; every name known, none twice. */
static int parse_variants(struct mbd_fuzz_opts *o, const char *list, FILE *err)
{
	char name[128];
	const char *p = list;
	size_t n = 0;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		const struct mbd_variant *v;

		if (len == 0 || len >= sizeof(name)) {
			fprintf(err, "mbdiff: --variants=%s: expected a comma-separated "
				"list of variant names\n", list);
			return -1;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		v = mbd_variant_find(name);
		if (!v) {
			fprintf(err, "mbdiff: unknown variant '%s'\n", name);
			list_variants(err);
			return -1;
		}
		for (size_t i = 0; i < n; i++) {
			if (o->variants[i] == v) {
				/* One object has one set of kernel globals: running
				 * it twice in lockstep would compare it with itself
				 * while both copies trample the same state. */
				fprintf(err, "mbdiff: variant '%s' given twice; a variant "
					"cannot run against itself (it has one set of "
					"globals): use reference~reference-twin for a "
					"self-check\n", name);
				return -1;
			}
		}
		if (n == MBD_FUZZ_MAX_VARIANTS) {
			fprintf(err, "mbdiff: --variants: at most %d variants\n",
				MBD_FUZZ_MAX_VARIANTS);
			return -1;
		}
		o->variants[n++] = v;
		if (!comma)
			break;
		p = comma + 1;
	}
	o->n_variants = n;
	return 0;
}

static int parse_min_class(struct mbd_fuzz_opts *o, const char *name, FILE *err)
{
	enum mbd_class c = mbd_class_lookup(name);

	if (c == MBD_CLASS_NONE) {
		fprintf(err, "mbdiff: --min-class=%s: unknown class; one of:", name);
		for (int k = MBD_CLASS_WARNING; k < MBD_CLASS__COUNT; k++)
			fprintf(err, " %s", mbd_class_name((enum mbd_class)k));
		fputc('\n', err);
		return -1;
	}
	o->runner.min_class = c;
	return 0;
}

static int parse_verbose(struct mbd_fuzz_opts *o, const char *val, FILE *err)
{
	char *end;
	long v;

	if (!val) {
		o->runner.verbose++;
		return 0;
	}
	v = strtol(val, &end, 10);
	if (*val == '\0' || *end != '\0' || v < 0 || v > 9) {
		fprintf(err, "mbdiff: --verbose=%s: expected a level 0..9\n", val);
		return -1;
	}
	o->runner.verbose = (int)v;
	return 0;
}

/* 16 hex digits: the hash of a signature key (mbd_fuzz_key_hash). */
static int parse_want(struct mbd_fuzz_opts *o, const char *val, FILE *err)
{
	char *end;

	if (strlen(val) != 16 || strspn(val, "0123456789abcdef") != 16) {
		fprintf(err, "mbdiff: --want=%s: expected 16 lower-case hex "
			"digits (the name of a --keep-going file)\n", val);
		return -1;
	}
	o->want = strtoull(val, &end, 16);
	o->want_set = true;
	return 0;
}

/* name matches "--NAME" or "--NAME=..."; *val gets the value or NULL. */
static bool opt_is(const char *arg, const char *name, const char **val)
{
	size_t len = strlen(name);

	if (strncmp(arg + 2, name, len) != 0)
		return false;
	if (arg[2 + len] == '\0') {
		*val = NULL;
		return true;
	}
	if (arg[2 + len] == '=') {
		*val = arg + 3 + len;
		return true;
	}
	return false;
}

static int need_value(const char *opt, const char *val, const char *form,
		      FILE *err)
{
	if (val)
		return 0;
	fprintf(err, "mbdiff: --%s needs a value: --%s=%s\n", opt, opt, form);
	return -1;
}

static int no_value(const char *opt, const char *val, FILE *err)
{
	if (!val)
		return 0;
	fprintf(err, "mbdiff: --%s takes no value\n", opt);
	return -1;
}

int mbd_fuzz_opts_arg(struct mbd_fuzz_opts *o, const char *arg, FILE *err)
{
	const char *val;
	int rc;

	if (strncmp(arg, "--", 2) != 0)
		return 0;
	if (arg[2] == '\0')
		return 1;
	if (opt_is(arg, "variants", &val)) {
		rc = need_value("variants", val, "a,b[,c...]", err);
		if (!rc)
			rc = parse_variants(o, val, err);
	} else if (opt_is(arg, "decoder", &val)) {
		rc = need_value("decoder", val, "structured|naive", err);
		if (!rc) {
			int d = mbd_decoder_lookup(val);

			if (d < 0) {
				fprintf(err, "mbdiff: --decoder=%s: expected "
					"structured or naive\n", val);
				rc = -1;
			} else {
				o->decoder = (enum mbd_decoder)d;
			}
		}
	} else if (opt_is(arg, "mutator", &val)) {
		rc = need_value("mutator", val, "ops|bytes", err);
		if (!rc && strcmp(val, "ops") == 0) {
			o->mutator = MBD_MUTATOR_OPS;
		} else if (!rc && strcmp(val, "bytes") == 0) {
			o->mutator = MBD_MUTATOR_BYTES;
		} else if (!rc) {
			fprintf(err, "mbdiff: --mutator=%s: expected ops or bytes\n", val);
			rc = -1;
		}
	} else if (opt_is(arg, "baseline-coverage", &val)) {
		rc = need_value("baseline-coverage", val, "on|off", err);
		if (!rc && strcmp(val, "on") == 0) {
			o->baseline_coverage = true;
		} else if (!rc && strcmp(val, "off") == 0) {
			o->baseline_coverage = false;
		} else if (!rc) {
			fprintf(err, "mbdiff: --baseline-coverage=%s: expected on or off\n",
				val);
			rc = -1;
		}
	} else if (opt_is(arg, "no-oracle", &val)) {
		rc = no_value("no-oracle", val, err);
		o->runner.oracle = false;
	} else if (opt_is(arg, "no-skip-baseline-faults", &val)) {
		rc = no_value("no-skip-baseline-faults", val, err);
		o->runner.skip_baseline_faults = false;
	} else if (opt_is(arg, "count-baseline-faults", &val)) {
		rc = no_value("count-baseline-faults", val, err);
		o->runner.skip_baseline_faults = false;
		o->runner.skip_shared_faults = true;
	} else if (opt_is(arg, "no-warm-up", &val)) {
		rc = no_value("no-warm-up", val, err);
		o->no_warm_up = true;
	} else if (opt_is(arg, "min-class", &val)) {
		rc = need_value("min-class", val, "CLASS", err);
		if (!rc)
			rc = parse_min_class(o, val, err);
	} else if (opt_is(arg, "known", &val)) {
		rc = need_value("known", val, "FILE", err);
		o->known = val;
	} else if (opt_is(arg, "keep-going", &val) || opt_is(arg, "keep-traces", &val)) {
		/* one mechanism, two names: --keep-traces is the older one */
		const char *name = arg[7] == 'g' ? "keep-going" : "keep-traces";

		rc = need_value(name, val, "DIR", err);
		if (!rc && !*val)
			rc = need_value(name, NULL, "DIR", err);
		o->keep_dir = val;
	} else if (opt_is(arg, "verbose", &val)) {
		rc = parse_verbose(o, val, err);
	} else if (opt_is(arg, "no-expect", &val)) {
		rc = no_value("no-expect", val, err);
		o->runner.expects = false;
	} else if (opt_is(arg, "config", &val)) {
		rc = need_value("config", val, "boot", err);
		if (!rc && strcmp(val, "boot") != 0) {
			fprintf(err, "mbdiff: --config=%s: expected boot\n", val);
			rc = -1;
		}
		o->boot = !rc;
	} else if (opt_is(arg, "want", &val)) {
		rc = need_value("want", val, "HASH", err);
		if (!rc)
			rc = parse_want(o, val, err);
	} else if (opt_is(arg, "help", &val)) {
		rc = no_value("help", val, err);
		o->help = true;
	} else {
		fprintf(err, "mbdiff: unknown option '%s' (--help lists them)\n", arg);
		rc = -1;
	}
	return rc ? -1 : 1;
}

int mbd_fuzz_opts_argv(struct mbd_fuzz_opts *o, int argc, char **argv,
		       FILE *err)
{
	for (int i = 1; i < argc; i++)
		if (mbd_fuzz_opts_arg(o, argv[i], err) < 0)
			return -1;
	return 0;
}

int mbd_fuzz_opts_finish(struct mbd_fuzz_opts *o, FILE *err)
{
	if (o->want_set && !o->keep_dir) {
		fputs("mbdiff: --want needs --keep-going=DIR\n", err);
		return -1;
	}
	if (o->n_variants)
		return 0;
	return parse_variants(o, MBD_FUZZ_BUILD_VARIANTS, err);
}

void mbd_fuzz_opts_pair(const struct mbd_fuzz_opts *o, char *buf, size_t n)
{
	size_t used = 0;

	if (!n)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < o->n_variants && used + 1 < n; i++) {
		int w = snprintf(buf + used, n - used, "%s%s", i ? "~" : "",
				 o->variants[i]->name);

		if (w < 0)
			break;
		used += (size_t)w;
	}
}

void mbd_fuzz_usage(FILE *out, const char *prog)
{
	fprintf(out,
		"usage: %s [engine flags] [--options] [files or dirs]\n"
		"options (double dash; libFuzzer ignores and forwards them):\n"
		"  --variants=A,B[,C...]  run these in lockstep, A the baseline\n"
		"                         (default " MBD_FUZZ_BUILD_VARIANTS ")\n"
		"  --decoder=structured|naive  how input bytes become a trace\n"
		"  --mutator=ops|bytes    libFuzzer mutates calls (default) or\n"
		"                         bytes (its own mutations)\n"
		"  --baseline-coverage=on|off  libFuzzer counts the baseline's edges\n"
		"                         too (on) or only the other variants'\n"
		"                         (off, the default: the baseline runs from\n"
		"                         a copy built without coverage; a\n"
		"                         variant alone is always counted)\n"
		"  --no-oracle            compare the variants only\n"
		"  --min-class=CLASS      ignore differences below CLASS: warning,\n"
		"                         capacity, layout, return, invariant,\n"
		"                         coverage, panic (default capacity:\n"
		"                         a WARN count alone is not reported)\n"
		"  --no-skip-baseline-faults  when the baseline itself faults, go\n"
		"                         on and report the divergence that follows\n"
		"  --count-baseline-faults  a fault only the baseline has is a\n"
		"                         divergence (a fix); one all share ends the input\n"
		"  --no-warm-up           skip the warm-up trace run before the\n"
		"                         first input (a variant that crashes on it\n"
		"                         would end each process before any input)\n"
		"  --known=FILE           divergences whose signature FILE lists\n"
		"                         (tests/algorithms/kernel-trees/known/) are no crash;\n"
		"                         each distinct one is printed once\n"
		"  --keep-going=DIR       nor are the others: the trace of each new\n"
		"                         signature key goes to DIR/HASH.mbt (+ .sig),\n"
		"                         reported once, and the search goes on\n"
		"                         (--keep-traces=DIR is the same)\n"
		"  --verbose[=N]          kernel pr_*() output and clean-run lines\n"
		"  --no-expect            ignore the traces' expect checkpoints\n"
		"  --config=boot          kernel boot arrays: 128 slots, resize\n"
		"                         allowed, filled first by realistic calls\n"
		"  --want=HASH            with --keep-going: stop at this key only\n"
		"  --help                 this text\n"
		"The AFL++ target also reads options from $" MBD_FUZZ_ARGS_ENV ".\n",
		prog);
	list_variants(out);
}

int mbd_fuzz_split_args(const char *s, char ***out)
{
	size_t n = 0, cap = 8;
	char **v = malloc(cap * sizeof(*v));

	if (!v)
		return -1;
	while (*s) {
		size_t len;

		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		len = strcspn(s, " \t\n");
		if (!len)
			break;
		if (n + 2 > cap) {
			char **nv = realloc(v, 2 * cap * sizeof(*v));

			if (!nv)
				goto oom;
			v = nv;
			cap *= 2;
		}
		v[n] = malloc(len + 1);
		if (!v[n])
			goto oom;
		memcpy(v[n], s, len);
		v[n][len] = '\0';
		n++;
		s += len;
	}
	v[n] = NULL;
	*out = v;
	return (int)n;
oom:
	v[n] = NULL;
	mbd_fuzz_args_free(v);
	return -1;
}

void mbd_fuzz_args_free(char **v)
{
	if (!v)
		return;
	for (size_t i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}
