// SPDX-License-Identifier: GPL-2.0
/*
 * `mbdiff convert`: .mbt text <-> fuzzer bytes. The result is decoded again
 * and compared with the input before anything is written, so a conversion
 * that would lose information fails instead of writing a different trace.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_cli.h"
#include "mbd_input.h"
#include "mbd_text.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Encode t as text or bytes and check that it reads back as t. */
static int encode(const struct mbd_trace *t, bool text, enum mbd_decoder dec,
		  const char *in, uint8_t **buf, size_t *len)
{
	struct mbd_trace back;
	struct mbd_diag d;
	bool same;

	if (text) {
		char *s;

		if (mbd_cli_format_mbt(t, NULL, &s, len) != 0)
			return mbd_cli_error("%s: cannot format as .mbt text", in);
		*buf = (uint8_t *)s;
	} else if (mbd_bin_encode(t, dec, buf, len) != 0) {
		return mbd_cli_error("%s: cannot encode as %s fuzzer bytes: %zu ops "
				     "(the binary form holds at most %d) or a "
				     "config it cannot carry", in,
				     mbd_decoder_name(dec), t->n_ops,
				     MBD_FUZZ_MAX_OPS);
	}
	mbd_trace_init(&back);
	if (text) {
		same = mbd_text_parse((const char *)*buf, *len, in, &back, &d) == 0 &&
		       mbd_cli_same_trace(t, &back);
	} else {
		mbd_bin_decode(*buf, *len, dec, &back);
		same = mbd_cli_same_trace(t, &back);
	}
	mbd_trace_free(&back);
	if (!same) {
		free(*buf);
		*buf = NULL;
		return mbd_cli_internal("%s: the %s form does not read back as the same "
				     "trace; nothing written (a bug in mbdiff)", in,
				     text ? ".mbt" : "binary");
	}
	return 0;
}

int mbd_cli_convert(int argc, char **argv)
{
	struct mbd_cli_opts o;
	const char *in = NULL, *out = NULL, *to = NULL;
	struct mbd_trace t;
	struct mbd_diag d;
	uint8_t *buf = NULL;
	size_t len = 0;
	bool text;
	int rc;

	mbd_cli_opts_default(&o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		int m;

		if (a[0] != '-' || strcmp(a, "-") == 0) {
			if (in)
				return mbd_cli_bad_usage("convert: more than one input (\"%s\", \"%s\")",
							 in, a);
			in = a;
			continue;
		}
		if ((m = mbd_cli_match(argc, argv, &i, "-o", &val)) != 0 ||
		    (m = mbd_cli_match(argc, argv, &i, "--output", &val)) != 0) {
			if (m < 0 || !*val)
				return mbd_cli_bad_usage("convert: %s needs a file name", a);
			out = val;
			continue;
		}
		if ((m = mbd_cli_match(argc, argv, &i, "--to", &val)) != 0) {
			if (m < 0 || (strcmp(val, "mbt") != 0 && strcmp(val, "bin") != 0))
				return mbd_cli_bad_usage("convert: --to needs mbt or bin");
			to = val;
			continue;
		}
		if ((m = mbd_cli_match(argc, argv, &i, "--decoder", &val)) != 0) {
			int dec = m > 0 ? mbd_decoder_lookup(val) : -1;

			if (dec < 0)
				return mbd_cli_bad_usage("convert: --decoder needs structured or naive");
			o.dec = (enum mbd_decoder)dec;
			continue;
		}
		return mbd_cli_bad_usage("convert: unknown option \"%s\"", a);
	}
	if (!in || !out)
		return mbd_cli_bad_usage("convert: needs IN and -o OUT");
	text = to ? strcmp(to, "mbt") == 0 : ends_with(out, ".mbt");
	if (mbd_cli_check_output(out, &in, 1) != 0)
		return MBD_EXIT_ERROR;

	mbd_trace_init(&t);
	if (mbd_load_file(in, o.dec, &t, &d) != 0) {
		mbd_diag_print(stderr, &d);
		mbd_trace_free(&t);
		return MBD_EXIT_ERROR;
	}
	rc = encode(&t, text, o.dec, in, &buf, &len);
	if (rc == 0)
		rc = mbd_cli_write_output(out, buf, len);
	if (rc == 0)
		fprintf(stderr, "mbdiff: %s -> %s (%s, %zu ops)\n", in, out,
			text ? ".mbt text" : mbd_decoder_name(o.dec), t.n_ops);
	free(buf);
	mbd_trace_free(&t);
	return rc;
}
