// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over `mbdiff import` alone: each input is a hostile boot
 * log (any bytes: NULs, CRs, huge numbers, endless dumps). These properties
 * must hold; a violated one is reported and abort()ed:
 *
 *   located   the importer either succeeds or refuses with a diagnostic
 *             naming the log, a line inside it and a message (never an
 *             unlocated failure);
 *   parses    what it writes is an .mbt trace the parser takes as it is
 *             (the CLI's "internal error: the imported trace does not
 *             parse" must be unreachable), with the ops it counted;
 *   stable    importing the same log twice writes the same text.
 *
 * The first byte picks the range convention (auto, inclusive, exclusive),
 * so every mode is reached; the rest is the log.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_import.h"
#include "mbd_text.h"
#include "mbd_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static _Noreturn void violated(const char *what, const char *text, size_t len)
{
	fprintf(stderr, "fuzz_import: property violated: %s\n", what);
	if (text)
		fprintf(stderr, "fuzz_import: the imported text (%zu bytes):\n%.*s\n", len,
			(int)(len > 20000 ? 20000 : len), text);
	fflush(stderr);
	abort();
}

static size_t count_lines(const char *s, size_t n)
{
	size_t lines = n ? 1 : 0;

	for (size_t i = 0; i + 1 < n; i++)
		lines += s[i] == '\n';
	return lines;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum mbd_import_conv convs[] = {
		MBD_CONV_AUTO, MBD_CONV_INCLUSIVE, MBD_CONV_EXCLUSIVE,
	};
	struct mbd_import_src src = { "input.log", NULL, 0, NULL };
	struct mbd_import_opts o = { MBD_CONV_AUTO, 0, 0, 0 };
	struct mbd_import_stats st, st2;
	struct mbd_diag d;
	struct mbd_trace t;
	char *out = NULL, *out2 = NULL;
	size_t len = 0, len2 = 0;
	unsigned long line;
	char *rest = NULL;
	int rc, rc2;

	if (size == 0)
		return 0;
	o.conv = convs[data[0] % 3];
	src.buf = (const char *)data + 1;
	src.len = size - 1;
	rc = mbd_import(&src, 1, &o, &out, &len, &st, NULL);
	if (rc == -1)
		return 0; /* out of memory: the engine's -rss_limit_mb speaks */
	if (rc != 0) {
		/* "input.log:LINE: error: what" */
		line = rc == -2 && !strncmp(st.error, "input.log:", 10) ?
		       strtoul(st.error + 10, &rest, 10) : 0;
		if (!line || line > count_lines(src.buf, src.len) || strncmp(rest, ": error: ", 9) ||
		    !rest[9])
			violated("a refusal without the log, a line inside it and a message",
				 NULL, 0);
		return 0;
	}
	mbd_trace_init(&t);
	if (mbd_text_parse(out, len, "imported.mbt", &t, &d) != 0) {
		mbd_diag_print(stderr, &d);
		violated("the imported text does not parse", out, len);
	}
	if (t.n_ops != st.ops)
		violated("the imported text does not have the ops the importer counted", out, len);
	mbd_trace_free(&t);
	rc2 = mbd_import(&src, 1, &o, &out2, &len2, &st2, NULL);
	if (rc2 != 0 || len2 != len || memcmp(out, out2, len) != 0)
		violated("importing the same log twice gives different text", out, len);
	free(out);
	free(out2);
	return 0;
}
