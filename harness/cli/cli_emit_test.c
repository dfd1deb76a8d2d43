// SPDX-License-Identifier: GPL-2.0
/*
 * `mbdiff emit-test TRACE [-o FILE] [--name NAME] [--reference V]
 * [--patched V|none]`: print a tools/testing/memblock test that replays
 * TRACE and checks mainline's final region arrays (see emit_test.c).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_cli.h"
#include "mbd_emit_test.h"
#include "mbd_input.h"
#include "mbd_text.h"

/*
 * "mbdiff_" + the trace's folder and file name without .mbt, as an
 * identifier: corpus/regressions/zhou-2025/x.mbt gives mbdiff_zhou_2025_x,
 * the name scripts/emit-kernel-tests.sh used to pass with --name.
 */
static char *default_name(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;
	char *s;

	if (base) {
		/* back to the start of the folder's name */
		const char *d = base;

		while (d > path && d[-1] != '/')
			d--;
		/* no folder, or "." / "..": the file name alone */
		base = d < base && *d != '.' ? d : base + 1;
	} else {
		base = path;
	}
	len = strlen(base);
	if (len > 4 && strcmp(base + len - 4, ".mbt") == 0)
		len -= 4;
	s = malloc(len + 8);
	if (!s)
		return NULL;
	memcpy(s, "mbdiff_", 7);
	for (size_t i = 0; i < len; i++) {
		char c = base[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9');

		s[7 + i] = ok ? c : '_';
	}
	s[7 + len] = '\0';
	return s;
}

/*
 * The leading comment block of a text trace, without "# " and without the
 * machine-read "variants:" / "options:" lines; *patched gets the second
 * name of "# variants: a,b" (malloc'd) if there is one.
 */
static char *read_notes(const char *path, char **patched)
{
	uint8_t *buf;
	size_t len, o = 0;
	char *notes;
	size_t at = 0;

	*patched = NULL;
	if (mbd_read_file(path, &buf, &len) != 0)
		return NULL;
	notes = malloc(len + 1);
	while (notes && o < len && buf[o] == '#') {
		const char *line = (const char *)buf + o + 1;
		const uint8_t *nl = memchr(buf + o, '\n', len - o);
		size_t n = (nl ? (size_t)(nl - buf) : len) - o - 1;

		o += n + 1 + (nl ? 1 : 0);
		if (n && *line == ' ') {
			line++;
			n--;
		}
		if (n >= 9 && strncmp(line, "variants:", 9) == 0) {
			const char *comma = memchr(line, ',', n);

			if (comma && !*patched) {
				size_t k = n - (size_t)(comma + 1 - line);

				*patched = strndup(comma + 1, k);
				if (*patched)
					(*patched)[strcspn(*patched, ", \t\r")] = '\0';
			}
			continue;
		}
		if (n >= 8 && strncmp(line, "options:", 8) == 0)
			continue;
		memcpy(notes + at, line, n);
		at += n;
		notes[at++] = '\n';
	}
	if (notes) {
		/* drop blank lines at the end */
		while (at && notes[at - 1] == '\n' && (at < 2 || notes[at - 2] == '\n'))
			at--;
		notes[at] = '\0';
	}
	free(buf);
	return notes;
}

static const struct mbd_variant *variant(const char *name, int *err)
{
	const struct mbd_variant *v = mbd_variant_find(name);

	if (!v) {
		mbd_cli_error("emit-test: unknown variant \"%s\" (see `mbdiff list`)", name);
		*err = 1;
	}
	return v;
}

int mbd_cli_emit_test(int argc, char **argv)
{
	const char *in = NULL, *out = NULL, *name = NULL;
	const char *ref = "reference", *patched = NULL;
	char *auto_name = NULL, *auto_patched = NULL, *notes = NULL;
	struct mbd_emit_opts eo;
	struct mbd_trace t;
	struct mbd_diag d;
	char why[256], *buf = NULL;
	size_t len = 0;
	FILE *f;
	int err = 0, rc = MBD_EXIT_ERROR;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		int m;

		if (a[0] != '-') {
			if (in)
				return mbd_cli_bad_usage("emit-test: more than one input");
			in = a;
			continue;
		}
		if ((m = mbd_cli_match(argc, argv, &i, "-o", &val)) != 0 ||
		    (m = mbd_cli_match(argc, argv, &i, "--output", &val)) != 0) {
			if (m < 0 || !*val)
				return mbd_cli_bad_usage("emit-test: %s needs a file name", a);
			out = val;
		} else if ((m = mbd_cli_match(argc, argv, &i, "--name", &val)) != 0) {
			if (m < 0 || !*val)
				return mbd_cli_bad_usage("emit-test: --name needs a C identifier");
			name = val;
		} else if ((m = mbd_cli_match(argc, argv, &i, "--reference", &val)) != 0) {
			if (m < 0 || !*val)
				return mbd_cli_bad_usage("emit-test: --reference needs a variant");
			ref = val;
		} else if ((m = mbd_cli_match(argc, argv, &i, "--patched", &val)) != 0) {
			if (m < 0 || !*val)
				return mbd_cli_bad_usage("emit-test: --patched needs a variant or none");
			patched = val;
		} else {
			return mbd_cli_bad_usage("emit-test: unknown option \"%s\"", a);
		}
	}
	if (!in)
		return mbd_cli_bad_usage("emit-test: needs a TRACE");

	mbd_trace_init(&t);
	if (mbd_load_file(in, MBD_DECODER_STRUCTURED, &t, &d) != 0) {
		mbd_diag_print(stderr, &d);
		goto out;
	}
	notes = read_notes(in, &auto_patched);
	if (!name)
		name = auto_name = default_name(in);
	if (!patched)
		patched = auto_patched;
	memset(&eo, 0, sizeof(eo));
	eo.name = name;
	eo.source = in;
	eo.notes = notes;
	eo.reference = variant(ref, &err);
	if (patched && strcmp(patched, "none") != 0 && strcmp(patched, ref) != 0)
		eo.patched = variant(patched, &err);
	if (err || !name)
		goto out;

	f = open_memstream(&buf, &len);
	if (!f) {
		mbd_cli_error("emit-test: out of memory");
		goto out;
	}
	if (mbd_emit_test(f, &t, &eo, why, sizeof(why)) != 0) {
		fclose(f);
		mbd_cli_error("emit-test: %s: %s", in, why);
		goto out;
	}
	if (fclose(f) != 0) {
		mbd_cli_error("emit-test: out of memory");
		goto out;
	}
	if (out) {
		if (mbd_write_file_atomic(out, buf, len) != 0) {
			mbd_cli_error("emit-test: cannot write %s", out);
			goto out;
		}
	} else if (fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0) {
		mbd_cli_error("emit-test: cannot write the output");
		goto out;
	}
	rc = MBD_EXIT_OK;
out:
	free(buf);
	free(notes);
	free(auto_name);
	free(auto_patched);
	mbd_trace_free(&t);
	return rc;
}
