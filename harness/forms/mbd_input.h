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
 * parsed as .mbt (-1 with d filled on a parse error), anything else is
 * decoded with dec. name is used in diagnostics; d may be NULL only if the
 * caller does not care about parse errors.
 */
int mbd_decode_input(const uint8_t *data, size_t len, const char *name,
		     enum mbd_decoder dec, struct mbd_trace *t, struct mbd_diag *d);

/* Read a whole file into a malloc'd buffer. Returns 0 or -1 (errno set). */
int mbd_read_file(const char *path, uint8_t **buf, size_t *len);

/*
 * Write data to path atomically (temp file in the same directory, then
 * rename), so a failure never leaves a half-written file. Returns 0 or -1.
 */
int mbd_write_file_atomic(const char *path, const void *data, size_t len);

#endif
