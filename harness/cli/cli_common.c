// SPDX-License-Identifier: GPL-2.0
/* What the `mbdiff` subcommands share: messages, options, variants. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_cli.h"
#include "mbd_output.h"
#include "mbd_text.h"

/*
 * The command being run ("explore"), for "mbdiff explore: ..." in usage
 * errors. Set once by main() before any work; the CLI's only global.
 */
static const char *cli_command;

void mbd_cli_set_command(const char *cmd)
{
	cli_command = cmd;
}

static void vmsg(const char *fmt, va_list ap)
{
	fputs("mbdiff: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int mbd_cli_bad_usage(const char *fmt, ...)
{
	const char *cmd = cli_command, *msg;
	char buf[1024];
	size_t n = cmd ? strlen(cmd) : 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* "explore: --depth needs ..." from a subcommand: its name once */
	msg = n && strncmp(buf, cmd, n) == 0 && buf[n] == ':' && buf[n + 1] == ' ' ?
	      buf + n + 2 : buf;
	if (cmd) {
		fprintf(stderr, "mbdiff %s: %s\n", cmd, msg);
		fprintf(stderr, "try 'mbdiff %s --help'\n", cmd);
	} else {
		fprintf(stderr, "mbdiff: %s\n", msg);
		fputs("try 'mbdiff --help'\n", stderr);
	}
	return MBD_EXIT_ERROR;
}

int mbd_cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	return MBD_EXIT_ERROR;
}

int mbd_cli_internal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	return MBD_EXIT_CRASH;
}

int mbd_cli_check_output(const char *out, const char *const *ins, size_t n)
{
	char why[512];

	if (mbd_output_check(out, ins, n, why, sizeof(why)) != 0)
		return mbd_cli_error("%s: cannot write: %s", out, why);
	return 0;
}

int mbd_cli_write_output(const char *out, const void *buf, size_t len)
{
	char why[512];

	if (mbd_output_write(out, buf, len, why, sizeof(why)) != 0)
		return mbd_cli_error("%s: cannot write: %s", out, why);
	return 0;
}

void mbd_cli_opts_default(struct mbd_cli_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->variants = NULL;
	o->dec = MBD_DECODER_STRUCTURED;
	mbd_runner_opts_default(&o->ropts);
}

int mbd_cli_match(int argc, char **argv, int *i, const char *name,
		  const char **val)
{
	const char *a = argv[*i];
	size_t n = strlen(name);

	if (strncmp(a, name, n) != 0)
		return 0;
	if (a[n] == '\0') {
		if (!val)
			return 1;
		if (*i + 1 >= argc)
			return -1;
		*val = argv[++*i];
		return 1;
	}
	if (a[n] != '=')
		return 0;
	if (!val)
		return -1;
	*val = a + n + 1;
	return 1;
}

int mbd_cli_common_opt(int argc, char **argv, int *i, struct mbd_cli_opts *o)
{
	const char *val = NULL, *opt = argv[*i];
	int m;

	if ((m = mbd_cli_match(argc, argv, i, "--variants", &val)) != 0) {
		if (m < 0 || !*val) {
			mbd_cli_bad_usage("%s needs a list of variant names", opt);
			return -1;
		}
		o->variants = val;
		return 1;
	}
	if ((m = mbd_cli_match(argc, argv, i, "--decoder", &val)) != 0) {
		int d = m > 0 ? mbd_decoder_lookup(val) : -1;

		if (d < 0) {
			mbd_cli_bad_usage("%s needs structured or naive", opt);
			return -1;
		}
		o->dec = (enum mbd_decoder)d;
		return 1;
	}
	if ((m = mbd_cli_match(argc, argv, i, "--min-class", &val)) != 0) {
		enum mbd_class c = m > 0 ? mbd_class_lookup(val) : MBD_CLASS_NONE;

		if (c == MBD_CLASS_NONE) {
			mbd_cli_bad_usage("%s needs one of warning capacity layout "
					  "return invariant coverage panic crash", opt);
			return -1;
		}
		o->ropts.min_class = c;
		return 1;
	}
	if ((m = mbd_cli_match(argc, argv, i, "--count-baseline-faults", NULL)) != 0) {
		if (m < 0) {
			mbd_cli_bad_usage("%s takes no value", opt);
			return -1;
		}
		/* a fault only the baseline has is a divergence (a fix) */
		o->ropts.skip_baseline_faults = false;
		o->ropts.skip_shared_faults = true;
		return 1;
	}
	/* the value-less switches: each turns one runner option off or on */
	{
		const struct {
			const char *name;
			bool *dst;
			bool value;
		} flags[] = {
			{ "--no-oracle", &o->ropts.oracle, false },
			{ "--no-expect", &o->ropts.expects, false },
			{ "--no-skip-baseline-faults", &o->ropts.skip_baseline_faults, false },
		};

		for (size_t k = 0; k < sizeof(flags) / sizeof(flags[0]); k++) {
			if ((m = mbd_cli_match(argc, argv, i, flags[k].name, NULL)) == 0)
				continue;
			if (m < 0) {
				mbd_cli_bad_usage("%s takes no value", opt);
				return -1;
			}
			*flags[k].dst = flags[k].value;
			return 1;
		}
	}
	if ((m = mbd_cli_match(argc, argv, i, "--verbose", NULL)) != 0) {
		if (m < 0) {
			mbd_cli_bad_usage("%s takes no value", opt);
			return -1;
		}
		o->ropts.verbose = 1;
		return 1;
	}
	return 0;
}

/* Default set: reference then zhou-2025, else reference and patch kinds,
 * references first so the baseline is a reference. */
static size_t default_variants(const struct mbd_variant **vs, size_t max)
{
	const struct mbd_variant *ref = mbd_variant_find("reference");
	const struct mbd_variant *zhou = mbd_variant_find("zhou-2025");
	size_t n = 0;

	if (ref && zhou && max >= 2) {
		vs[0] = ref;
		vs[1] = zhou;
		return 2;
	}
	for (int pass = 0; pass < 2; pass++) {
		enum mbd_variant_kind k = pass ? MBD_KIND_PATCH : MBD_KIND_REFERENCE;

		for (size_t i = 0; mbd_variants[i] && n < max; i++)
			if (mbd_variants[i]->kind == k)
				vs[n++] = mbd_variants[i];
	}
	return n;
}

size_t mbd_cli_variant_list(const char *list, const struct mbd_variant **vs,
			    size_t max)
{
	size_t n = 0;
	const char *p = list;

	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char name[128];
		const struct mbd_variant *v;

		if (len == 0 || len >= sizeof(name)) {
			mbd_cli_bad_usage("bad --variants list \"%s\"", list);
			return 0;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		v = mbd_variant_find(name);
		if (!v) {
			mbd_cli_error("unknown variant \"%s\" (see `mbdiff list`)", name);
			return 0;
		}
		for (size_t j = 0; j < n; j++) {
			if (vs[j] == v) {
				mbd_cli_bad_usage("variant \"%s\" given twice", name);
				return 0;
			}
		}
		if (n == max) {
			mbd_cli_bad_usage("too many variants in \"%s\"", list);
			return 0;
		}
		vs[n++] = v;
		p += len;
		if (*p == ',' && *++p == '\0') {
			mbd_cli_bad_usage("bad --variants list \"%s\"", list);
			return 0;
		}
	}
	if (n == 0)
		mbd_cli_bad_usage("empty --variants list");
	return n;
}

struct mbd_runner *mbd_cli_runner(const struct mbd_cli_opts *o)
{
	size_t max = mbd_variant_count(), n;
	const struct mbd_variant **vs;
	struct mbd_runner *r = NULL;

	vs = calloc(max ? max : 1, sizeof(*vs));
	if (!vs) {
		mbd_cli_error("out of memory");
		return NULL;
	}
	n = o->variants ? mbd_cli_variant_list(o->variants, vs, max)
			: default_variants(vs, max);
	if (n == 0 && !o->variants)
		mbd_cli_error("no reference or patch variant in this binary");
	if (n) {
		r = mbd_runner_new(vs, n, &o->ropts);
		if (!r)
			mbd_cli_error("cannot set up the runner (out of memory)");
	}
	free(vs);
	return r;
}

int mbd_cli_format_mbt(const struct mbd_trace *t, const char *header,
		       char **buf, size_t *len)
{
	FILE *f;
	int bad;

	*buf = NULL;
	*len = 0;
	f = open_memstream(buf, len);
	if (!f)
		return -1;
	if (header)
		fputs(header, f);
	bad = mbd_text_write(f, t) != 0;
	bad |= ferror(f) != 0;
	if (fclose(f) != 0 || bad) {
		free(*buf);
		*buf = NULL;
		return -1;
	}
	return 0;
}

static bool same_config(const struct mbd_config *a, const struct mbd_config *b)
{
	return a->memory_max == b->memory_max &&
	       a->reserved_max == b->reserved_max && a->resize == b->resize &&
	       a->slab == b->slab && a->bottom_up == b->bottom_up &&
	       a->mirror == b->mirror && a->movable == b->movable &&
	       a->limit == b->limit;
}

bool mbd_cli_same_trace(const struct mbd_trace *a, const struct mbd_trace *b)
{
	if (!same_config(&a->cfg, &b->cfg) || a->n_ops != b->n_ops)
		return false;
	for (size_t i = 0; i < a->n_ops; i++) {
		struct mbd_op x = a->ops[i], y = b->ops[i];

		mbd_op_normalize(&x);
		mbd_op_normalize(&y);
		if (memcmp(&x, &y, sizeof(x)) != 0)
			return false;
	}
	return true;
}
