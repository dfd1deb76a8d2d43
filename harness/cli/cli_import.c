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

int mbd_cli_import(int argc, char **argv)
{
	struct mbd_import_src srcs[MAX_LOGS];
	struct mbd_import_opts opts = { MBD_CONV_AUTO, 0, 0 };
	const char *outp = NULL, *val;
	struct mbd_import_stats st;
	struct mbd_trace t;
	struct mbd_diag d;
	size_t n = 0, len = 0;
	char *text = NULL;
	int verbose = 0, m, rc = MBD_EXIT_ERROR;

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
	if (strcmp(outp, "-") != 0) {
		const char *ins[MAX_LOGS];

		for (size_t i = 0; i < n; i++)
			ins[i] = srcs[i].name;
		if (mbd_cli_check_output(outp, ins, n) != 0)
			return MBD_EXIT_ERROR;
	}
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
	if (verbose)
		fprintf(stderr, "mbdiff: lines not imported:\n");
	m = mbd_import(srcs, n, &opts, &text, &len, &st, verbose ? stderr : NULL);
	if (m == -2) {
		fprintf(stderr, "%s\n", st.error);
		goto out;
	}
	if (m) {
		rc = mbd_cli_internal("out of memory");
		goto out;
	}
	if (!st.ops && !st.checkpoints) {
		mbd_cli_error("nothing importable in %s%s: no memblock=debug calls, memory map or "
			      "MEMBLOCK dump (%zu lines not imported)", srcs[0].name,
			      n > 1 ? " ..." : "", st.unparsed);
		goto out;
	}
	/* The importer's output must be a valid trace: check before writing. */
	mbd_trace_init(&t);
	if (mbd_text_parse(text, len, outp, &t, &d)) {
		mbd_diag_print(stderr, &d);
		rc = mbd_cli_internal("internal error: the imported trace does not parse "
				      "(a bug in mbdiff)");
		mbd_trace_free(&t);
		goto out;
	}
	fprintf(stderr, "mbdiff: imported %zu ops, %zu checkpoints (%s end%s) from %zu lines: "
		"%zu traced calls, %zu allocation requests, %zu map entries, %zu dumps, "
		"%zu other recognised, %zu not imported%s\n", t.n_ops, st.checkpoints,
		st.conv == MBD_CONV_EXCLUSIVE ? "exclusive" : "inclusive",
		st.conv_auto ? ", detected" : "", st.lines, st.traced, st.alloc_requests,
		st.map_entries, st.dumps, st.known, st.unparsed,
		st.unparsed && !verbose ? " (--verbose lists them)" : "");
	fprintf(stderr, "mbdiff: kernel %s: `mbdiff replay` uses %s, %s\n", st.era.text,
		st.era.model, st.era.exact ? "its model" : st.era.major ? "the nearest model (none covers it)" :
		"the newest model");
	mbd_trace_free(&t);
	if (!strcmp(outp, "-")) {
		rc = fwrite(text, 1, len, stdout) == len ? MBD_EXIT_OK : MBD_EXIT_ERROR;
	} else if (mbd_cli_write_output(outp, text, len) != 0) {
		rc = MBD_EXIT_ERROR;
	} else {
		rc = MBD_EXIT_OK;
	}
out:
	free(text);
	free_srcs(srcs, n);
	return rc;
}
