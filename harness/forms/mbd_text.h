/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The .mbt text form: one call per line in memblock=debug notation, ranges
 * inclusive as dmesg prints them. See docs/mbt-format.md.
 */
#ifndef MBD_TEXT_H
#define MBD_TEXT_H

#include <stdio.h>

#include "mbd_trace.h"

/* Ops per .mbt trace (docs/mbt-format.md). */
#define MBD_TEXT_MAX_OPS 10000000u

/* A parse error: where and what was expected. */
struct mbd_diag {
	const char *file;      /* the caller's name for the input, never cut */
	unsigned line;         /* 1-based; 0 if not about a line */
	char msg[320];
};

/* "file:line: error: msg" (the form every parse error is printed in). */
void mbd_diag_print(FILE *out, const struct mbd_diag *d);

/*
 * Parse .mbt text (buf need not be NUL terminated). fname is used in
 * diagnostics. Returns 0, or -1 with d filled; t is then cleared.
 */
int mbd_text_parse(const char *buf, size_t len, const char *fname,
		   struct mbd_trace *t, struct mbd_diag *d);

/*
 * The same for text given to a fuzz target (docs/mbt-format.md): a trace
 * without expectations (expect lines are checked, then dropped: they judge
 * the baseline, and could make identical variants "diverge") and with the
 * binary decoders' cap, MBD_FUZZ_MAX_OPS ops (the lines after the last one
 * taken are not read).
 */
int mbd_text_parse_fuzz(const char *buf, size_t len, const char *fname,
			struct mbd_trace *t, struct mbd_diag *d);

/* Write t as .mbt text (a config line, then one line per op). */
int mbd_text_write(FILE *out, const struct mbd_trace *t);

/*
 * Write header, then t (when not NULL) as .mbt text to path, all or
 * nothing (mbd_output_write's rules). Returns 0, or -1 with why.
 */
int mbd_text_save(const char *path, const char *header,
		  const struct mbd_trace *t, char *why, size_t n_why);

/* Format one op / the config line into buf (no newline). Returns the length
 * that would have been written, like snprintf. */
int mbd_text_format_op(char *buf, size_t n, const struct mbd_op *op);
int mbd_text_format_config(char *buf, size_t n, const struct mbd_config *c);

#endif
