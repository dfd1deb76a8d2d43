/* SPDX-License-Identifier: GPL-2.0 */
/* Load any input file (.mbt text, libFuzzer or AFL++ crash file) as a trace. */
#ifndef MBD_INPUT_H
#define MBD_INPUT_H

#include "mbd_bin.h"
#include "mbd_text.h"

/*
 * Files named *.mbt, and files that look like text traces (printable, first
 * significant token "config" or a known op name), are parsed as
 * text; anything else is decoded as fuzzer bytes with dec.
 * Returns 0, or -1 with d filled (unreadable file, text parse error).
 */
int mbd_load_file(const char *path, enum mbd_decoder dec, struct mbd_trace *t,
		  struct mbd_diag *d);

/*
 * The same choice for bytes already in memory (the fuzz targets use it, so a
 * crash file replays exactly as the engine ran it): text-looking bytes are
 * parsed as a fuzz-input .mbt (mbd_text_parse_fuzz: no expectations, at most
 * MBD_FUZZ_MAX_OPS ops; -1 with d filled on a parse error), anything else is
 * decoded with dec. name is used in diagnostics; d may be NULL only if the
 * caller does not care about parse errors.
 */
int mbd_decode_input(const uint8_t *data, size_t len, const char *name,
		     enum mbd_decoder dec, struct mbd_trace *t, struct mbd_diag *d);
/* Whether mbd_decode_input() reads data as a text trace. */
bool mbd_input_is_text(const uint8_t *data, size_t len);

/* The most any reader takes from one file (docs/mbt-format.md). */
#define MBD_INPUT_MAX ((size_t)256 << 20)

/*
 * Read a whole regular file of at most max bytes into a malloc'd buffer
 * (NUL-terminated, the NUL not counted). FIFOs and devices are refused
 * without opening them, a file that yields more than its stat() size (a
 * /proc or /sys file) is refused too. Returns 0, or -1 with the reason in
 * why (n_why bytes).
 */
int mbd_read_file(const char *path, size_t max, uint8_t **buf, size_t *len,
		  char *why, size_t n_why);

#endif
