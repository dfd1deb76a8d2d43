// SPDX-License-Identifier: GPL-2.0
/* `mbdiff import LOG... -o TRACE.mbt`: boot logs into a checked .mbt trace. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_cli.h"
#include "mbd_import.h"
#include "mbd_input.h"
#include "mbd_text.h"

#define MAX_LOGS 64

/* One boot imported and checked: its text and what the importer said. */
struct boot_out {
	char *text;
	size_t len;
	struct mbd_import_stats st;
	char *path;           /* where it goes (malloc'd), or NULL: not written */
};

static void free_srcs(struct mbd_import_src *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free((void *)s[i].buf);
}

/* The last path component, so comments do not depend on where logs live. */
static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* "memory=N,reserved=M" (either may be left out). */
static int parse_init_max(const char *s, struct mbd_import_opts *o)
{
	while (*s) {
		uint32_t *dst = !strncmp(s, "memory=", 7) ? &o->memory_max :
				!strncmp(s, "reserved=", 9) ? &o->reserved_max : NULL;
		char *end;
		unsigned long v;

		if (!dst)
			return -1;
		s = strchr(s, '=') + 1;
		if (*s < '0' || *s > '9')
			return -1;
		v = strtoul(s, &end, 10);
		if (v < 1 || v > MBD_MAX_BOOT_REGIONS || (*end && *end != ','))
			return -1;
		*dst = (uint32_t)v;
		s = *end ? end + 1 : end;
	}
	return 0;
}

/* "dir/t.mbt" -> "dir/t-boot2.mbt", k 0: "dir/t.mbt" (malloc'd; NULL: out of memory). */
static char *boot_name(const char *outp, unsigned k)
{
	size_t n = strlen(outp), stem = n >= 4 && !strcmp(outp + n - 4, ".mbt") ? n - 4 : n;
	char *p = malloc(n + 32);

	if (p && k)
		snprintf(p, n + 32, "%.*s-boot%u%s", (int)stem, outp, k, outp + stem);
	else if (p)
		snprintf(p, n + 32, "%s", outp);
	return p;
}

/*
 * Import boot k (0: the last) into *b and check that the text is a trace.
 * Returns 0, 1 when the boot holds nothing importable (b->text NULL), or
 * an exit status (printed).
 */
static int import_boot(const struct mbd_import_src *srcs, size_t n, struct mbd_import_opts opts,
		       unsigned k, const char *outp, int verbose, struct boot_out *b)
{
	struct mbd_trace t;
	struct mbd_diag d;
	int m;

	opts.boot = k;
	if (verbose)
		fprintf(stderr, "mbdiff: lines not imported%s:\n", k ? " (one boot)" : "");
	m = mbd_import(srcs, n, &opts, &b->text, &b->len, &b->st, verbose ? stderr : NULL);
	if (m == -2) {
		fprintf(stderr, "%s\n", b->st.error);
		return MBD_EXIT_ERROR;
	}
	if (m)
		return mbd_cli_internal("out of memory");
	if (!b->st.ops && !b->st.checkpoints) {
		free(b->text);
		b->text = NULL;
		return 1;
	}
	/* The importer's output must be a valid trace: check before writing. */
	mbd_trace_init(&t);
	if (mbd_text_parse(b->text, b->len, outp, &t, &d)) {
		mbd_diag_print(stderr, &d);
		mbd_trace_free(&t);
		return mbd_cli_internal("internal error: the imported trace does not parse "
					"(a bug in mbdiff)");
	}
	b->st.ops = t.n_ops;
	mbd_trace_free(&t);
	return 0;
}

static void say(const struct boot_out *b, int verbose)
{
	const struct mbd_import_stats *st = &b->st;

	fprintf(stderr, "mbdiff: imported %zu ops, %zu checkpoints (%s end%s) from %zu lines: "
		"%zu traced calls, %zu allocation requests, %zu map entries, %zu dumps, "
		"%zu other recognised, %zu not imported%s\n", st->ops, st->checkpoints,
		st->conv == MBD_CONV_EXCLUSIVE ? "exclusive" : "inclusive",
		st->conv_auto ? ", detected" : "", st->lines, st->traced, st->alloc_requests,
		st->map_entries, st->dumps, st->known, st->unparsed,
		st->unparsed && !verbose ? " (--verbose lists them)" : "");
	fprintf(stderr, "mbdiff: kernel %s: `mbdiff replay` uses %s, %s\n", st->era.text,
		st->era.model, st->era.exact ? "its model" : st->era.major ?
		"the nearest model (none covers it)" : "the newest model");
}

int mbd_cli_import(int argc, char **argv)
{
	struct mbd_import_src srcs[MAX_LOGS];
	struct mbd_import_opts opts = { MBD_CONV_AUTO, 0, 0, 0 };
	const char *outp = NULL, *val;
	struct boot_out *bs = NULL;
	size_t n = 0, nb = 1, last = 0;
	int verbose = 0, m, rc = MBD_EXIT_ERROR, one = 0;

	for (int i = 1; i < argc; i++) {
		if ((m = mbd_cli_match(argc, argv, &i, "-o", &val)) != 0) {
			if (m < 0)
				return mbd_cli_bad_usage("-o needs a file name");
			outp = val;
		} else if ((m = mbd_cli_match(argc, argv, &i, "--convention", &val)) != 0) {
			if (m > 0 && !strcmp(val, "inclusive"))
				opts.conv = MBD_CONV_INCLUSIVE;
			else if (m > 0 && !strcmp(val, "exclusive"))
				opts.conv = MBD_CONV_EXCLUSIVE;
			else if (m > 0 && !strcmp(val, "auto"))
				opts.conv = MBD_CONV_AUTO;
			else
				return mbd_cli_bad_usage("--convention needs inclusive, exclusive or auto");
		} else if ((m = mbd_cli_match(argc, argv, &i, "--init-max", &val)) != 0) {
			if (m < 0 || parse_init_max(val, &opts))
				return mbd_cli_bad_usage("--init-max needs memory=N,reserved=M (either or "
							 "both, 1..%d), got \"%s\"", MBD_MAX_BOOT_REGIONS,
							 m < 0 ? "" : val);
		} else if ((m = mbd_cli_match(argc, argv, &i, "--boot", &val)) != 0) {
			char *end;
			unsigned long v = m > 0 && *val >= '1' && *val <= '9' ? strtoul(val, &end, 10) : 0;

			if (!v || *end || v > MBD_IMPORT_MAX_BOOTS)
				return mbd_cli_bad_usage("--boot needs a boot number, 1..%d, got \"%s\"",
							 MBD_IMPORT_MAX_BOOTS, m < 0 ? "" : val);
			opts.boot = (unsigned)v;
			one = 1;
		} else if (mbd_cli_match(argc, argv, &i, "--verbose", NULL) > 0) {
			verbose = 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return mbd_cli_bad_usage("unknown import option \"%s\"", argv[i]);
		} else if (n == MAX_LOGS) {
			return mbd_cli_bad_usage("at most %d logs", MAX_LOGS);
		} else {
			srcs[n].name = argv[i];
			srcs[n].path = NULL;
			n++;
		}
	}
	if (!n)
		return mbd_cli_bad_usage("import needs at least one LOG");
	if (!outp)
		return mbd_cli_bad_usage("import needs -o TRACE.mbt (or -o - for stdout)");
	for (size_t i = 0; i < n; i++) {
		char why[200];
		uint8_t *buf;

		if (mbd_read_file(srcs[i].name, MBD_INPUT_MAX, &buf, &srcs[i].len, why,
				  sizeof(why))) {
			mbd_cli_error("%s: error: cannot read: %s", srcs[i].name, why);
			free_srcs(srcs, i);
			return MBD_EXIT_ERROR;
		}
		srcs[i].buf = (const char *)buf;
		srcs[i].path = srcs[i].name;
		srcs[i].name = base_name(srcs[i].name);
	}
	/* the boot asked for (or the last), then, into -o FILE, every other */
	bs = calloc(MBD_IMPORT_MAX_BOOTS, sizeof(*bs));
	if (!bs) {
		rc = mbd_cli_internal("out of memory");
		goto out;
	}
	m = import_boot(srcs, n, opts, opts.boot, outp, verbose, &bs[0]);
	if (m > 1) {
		rc = m;
		goto out;
	}
	nb = bs[0].st.boots;
	if (nb > 1 && !one && strcmp(outp, "-") != 0) {
		bs[nb - 1] = bs[0];
		memset(&bs[0], 0, sizeof(bs[0]));
		for (unsigned k = 1; k < nb; k++) {
			m = import_boot(srcs, n, opts, k, outp, verbose, &bs[k - 1]);
			if (m > 1) {
				rc = m;
				goto out;
			}
		}
	} else {
		nb = 1;
	}
	/* -o FILE gets the last boot that holds something; earlier ones FILE-bootK */
	for (last = nb; last > 0 && !bs[last - 1].text; last--)
		;
	if (!last) {
		mbd_cli_error("nothing importable in %s%s%s: no memblock=debug calls, memory map or "
			      "MEMBLOCK dump (%zu lines not imported)", srcs[0].name,
			      n > 1 ? " ..." : "", bs[0].st.boots > 1 ? " (in any of its boots)" : "",
			      bs[0].st.unparsed);
		goto out;
	}
	for (size_t k = 0; k < nb; k++) {
		const char *ins[MAX_LOGS];

		if (!bs[k].text || !strcmp(outp, "-"))
			continue;
		bs[k].path = boot_name(outp, k + 1 == last ? 0 : (unsigned)k + 1);
		if (!bs[k].path) {
			rc = mbd_cli_internal("out of memory");
			goto out;
		}
		for (size_t i = 0; i < n; i++)
			ins[i] = srcs[i].path;
		if (mbd_cli_check_output(bs[k].path, ins, n) != 0)
			goto out;
	}
	for (size_t k = 0; k < nb; k++) {
		const struct mbd_import_stats *st = &bs[k].st;

		if (st->boots > 1)
			fprintf(stderr, "mbdiff: boot %u of %zu (%s:%u-%u)%s%s\n", st->boot, st->boots,
				st->boot_src, st->boot_first, st->boot_last,
				!bs[k].text ? ": nothing importable, not written" : " -> ",
				!bs[k].text ? "" : bs[k].path ? bs[k].path : "stdout");
		if (bs[k].text)
			say(&bs[k], verbose);
	}
	if (bs[0].st.boots > 1)
		fprintf(stderr, "mbdiff: %zu boots in the log (%s): %s\n", bs[0].st.boots,
			mbd_import_boot_rule(&bs[0].st),
			one ? "wrote the one --boot asked for" : !strcmp(outp, "-") ?
			"wrote the last to stdout; --boot N writes another" :
			"wrote each that holds something, the last to -o, the others FILE-bootK.mbt");
	rc = MBD_EXIT_OK;
	for (size_t k = 0; k < nb && rc == MBD_EXIT_OK; k++) {
		if (!bs[k].text)
			continue;
		if (!strcmp(outp, "-"))
			rc = fwrite(bs[k].text, 1, bs[k].len, stdout) == bs[k].len ? MBD_EXIT_OK :
			     MBD_EXIT_ERROR;
		else if (mbd_cli_write_output(bs[k].path, bs[k].text, bs[k].len) != 0)
			rc = MBD_EXIT_ERROR;
	}
out:
	for (size_t k = 0; bs && k < MBD_IMPORT_MAX_BOOTS; k++) {
		free(bs[k].text);
		free(bs[k].path);
	}
	free(bs);
	free_srcs(srcs, n);
	return rc;
}
