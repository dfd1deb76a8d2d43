// SPDX-License-Identifier: GPL-2.0
/* What the `mbdiff` subcommands share: usage, messages, options, variants. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_cli.h"
#include "mbd_output.h"
#include "mbd_text.h"

static const char usage_text[] =
"usage: mbdiff <command> [options]\n"
"\n"
"  mbdiff list\n"
"      every variant in this binary: name, kind, the kernel it models or is,\n"
"      summary\n"
"\n"
"  mbdiff replay [--variants a,b,...] [--decoder structured|naive] [--no-oracle]\n"
"                [--min-class C] [--no-skip-baseline-faults] [--no-expect]\n"
"                [--verbose] [--quiet] [--narrow] [--svg FILE.svg] [--known FILE]\n"
"                FILE|DIR...\n"
"      run .mbt traces and libFuzzer/AFL++ crash files (directories are walked\n"
"      in name order); print a report for each divergence; --no-expect skips\n"
"      the traces' expect checkpoints (compare the variants only); --narrow\n"
"      prints each variant's result and arrays in <= 72 columns instead\n"
"      --svg (one input only): draw every variant's memory and reserved\n"
"      regions at the divergence (or at the end), differences in red\n"
"      --known FILE: a divergence whose signature FILE lists (known version\n"
"      differences, tests/algorithms/kernel-trees/known/) is one \"known:\" line, no report\n"
"      without --variants, a trace that names its model (\"# model:\", written\n"
"      by import for the log's kernel) is replayed with that model alone\n"
"      exit 1 if any input diverges (known ones aside), 0 if all agree, 2 on errors\n"
"\n"
"  mbdiff convert IN -o OUT [--to mbt|bin] [--decoder D]\n"
"      .mbt <-> fuzzer bytes, losslessly; OUT ending in .mbt is text, else binary\n"
"\n"
"  mbdiff minimize IN -o OUT.mbt [--variants ...] [--decoder D] [--max-runs N]\n"
"                  [--fork] [--no-oracle] [--min-class C]\n"
"                  [--no-skip-baseline-faults] [--verbose]\n"
"      shrink a diverging input keeping its signature; --fork runs each\n"
"      candidate in a child so crashing inputs can be minimized\n"
"      exit 1 when a reproducer was written, 0 if IN does not diverge, 2 on errors\n"
"\n"
"  mbdiff emit-test TRACE [-o FILE] [--name NAME] [--reference V]\n"
"                   [--patched V|none]\n"
"      print a C test for the kernel's tools/testing/memblock that replays\n"
"      TRACE and checks the reference's final arrays (docs/kernel-tests/);\n"
"      --patched (default: the second name of the trace's \"# variants:\")\n"
"      is run too, to say in the test whether it fails there\n"
"\n"
"  mbdiff import LOG... -o TRACE.mbt [--convention inclusive|exclusive|auto]\n"
"                [--init-max memory=N,reserved=M] [--boot N] [--verbose]\n"
"      boot logs (dmesg, memblock=debug, e820/EFI/DT maps, MEMBLOCK dumps,\n"
"      debugfs memblock arrays) into a trace; dumps become expect checkpoints;\n"
"      --init-max: the kernel's initial array sizes (default: from the log's\n"
"      \"doubled to N\", else 128); --verbose lists the lines not imported\n"
"      a log holding several boots (a second \"Linux version\", timestamps\n"
"      restarting at 0) gives one trace each: the last in TRACE.mbt, boot K\n"
"      in TRACE-bootK.mbt; --boot N writes boot N alone\n"
"      (docs/real-boots.md); exit 2 when a checkpoint cannot be read\n"
"\n"
"  mbdiff bench [--variants a,b,...] [--reps N] [--csv FILE] [--evict-mib N]\n"
"               [--seed N] [--cpu N|--no-pin] [--layouts K] [FILE|DIR...]\n"
"      time the memblock calls alone (no snapshot, no oracle) of each trace\n"
"      (default: corpus/real) in every variant (default: all but the\n"
"      mutants, reference first), warm and cold, interleaved with the\n"
"      baseline in a shuffled order (--seed), pinned to one CPU (default:\n"
"      the one it starts on), N rounds (--reps, default 2000); the rounds\n"
"      are split over K fresh processes one after the other (default one\n"
"      per 20 rounds, 10 to 100), each with its own code, data and\n"
"      address placement; cold: code, statics and trace flushed, then N\n"
"      MiB swept (default 1; 64 here also evicts the page tables and the\n"
"      arena, but is far noisier);\n"
"      ratios to the baseline with 95% confidence intervals, a table on\n"
"      stdout, and with --csv one row per trace, variant and mode\n"
"\n"
"  mbdiff explore --alphabet FILE [--variants a,b] [--depth K] [--min-class C]\n"
"                 [-j N] [--time S] [--max-states N] [--checkpoint F]\n"
"                 [--resume F] [-o DIR] [--verify CERT] [--first] [--quiet]\n"
"                 [--no-merge]\n"
"      every trace of up to K calls (default 3) over the alphabet, breadth\n"
"      first, each joint state expanded once: the shortest trace of every\n"
"      divergence signature (into DIR), or a certificate that there is none\n"
"      (DIR/certificate.txt); --verify re-runs a certificate's search;\n"
"      --first stops after the first depth with a divergence; --no-merge\n"
"      expands every trace (slow; checks the state hash)\n"
"      (docs/explore.md); exit 1 on a divergence or a failed --verify,\n"
"      0 with a certificate, 2 on errors\n"
"\n"
"  mbdiff judge --variants BASE,PATCHED [--source NAME=FILE]... [--json]\n"
"               [--min-class C] TRACE...\n"
"      who breaks the API contract in each trace: the two in lockstep (a fault\n"
"      only BASE has counts), then each alone under its oracle; prints the kind\n"
"      (regression, fix, behaviour, both, shared, none) and the root-cause key\n"
"      bugs are grouped by (a BUG_ON site, quoted from --source, a contract\n"
"      clause and array, or what behaves differently); --json: one object a line\n"
"\n"
"  mbdiff lift --variants BASE,PATCHED [--slots N[,M]] [-o OUT] [--log]\n"
"              [--build-only base|patched [--scale 1|4|16|64]\n"
"              [--fillers above|below]] TRACE\n"
"      does TRACE's bug happen with the kernel's boot arrays (N-slot memory,\n"
"      M-slot reserved, default 128,128)? Rebuilds it there without\n"
"      randomness: filler regions far above its addresses (or below them,\n"
"      the trace moved up 16 GiB) give every array the free slots it had\n"
"      before each call; the first address scale (1, 4, 16, 64) and\n"
"      placement on which the judge names the same bug is kept in OUT;\n"
"      exit 0 reached, 1 not (the line says what the trace needs), 2 on\n"
"      errors or a trace without a bug (docs/check.md); --build-only: write\n"
"      the candidate (fillers after that side) without running the judge,\n"
"      for a trace that crashes a sanitizer build (replay it in a child)\n"
"\n"
"  The first variant is the baseline. Default variants: reference,zhou-2025 if\n"
"  both exist, else every reference and patch variant. Classes for --min-class:\n"
"  warning capacity layout return invariant coverage panic crash; the default,\n"
"  capacity, leaves out a difference in WARN counts alone (--min-class warning).\n"
"  When the baseline itself hits BUG_ON() or fails the oracle, the input stops there\n"
"  as a baseline fault (not a divergence; replay the baseline alone to see\n"
"  it) unless --no-skip-baseline-faults. --count-baseline-faults: a fault only the\n"
"  baseline has is a divergence (the other variant fixes it), one they share ends\n"
"  the input as a baseline fault.\n";

void mbd_cli_usage(FILE *out)
{
	fputs(usage_text, out);
}

static void vmsg(const char *fmt, va_list ap)
{
	fputs("mbdiff: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int mbd_cli_bad_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	mbd_cli_usage(stderr);
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
