// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the input layer alone (no variants): the binary
 * decoders, the encoder, and the .mbt parser and printer. Each input is
 * used both ways, as fuzzer bytes and as .mbt text, and these properties
 * must hold; a violated one is reported and abort()ed, so the engine keeps
 * the input:
 *
 *   decode    every byte string decodes, with both decoders, to a bounded,
 *             normalized trace with a config in range, and decoding twice
 *             gives the same trace;
 *   encode    every decoded trace encodes, and the bytes decode back to it;
 *   print     every decoded or parsed trace prints as .mbt text that parses
 *             back to the same trace;
 *   parse     text either parses or fails with a located, non-empty
 *             diagnostic and an empty trace.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_bin.h"
#include "mbd_text.h"
#include "mbd_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static _Noreturn void violated(const char *what, const struct mbd_trace *t)
{
	fprintf(stderr, "fuzz_decode: property violated: %s\n", what);
	if (t) {
		fprintf(stderr, "fuzz_decode: the trace (%zu ops):\n", t->n_ops);
		mbd_text_write(stderr, t);
	}
	fflush(stderr);
	abort();
}

static int same_config(const struct mbd_config *a, const struct mbd_config *b)
{
	return a->memory_max == b->memory_max && a->reserved_max == b->reserved_max &&
	       a->resize == b->resize && a->slab == b->slab &&
	       a->bottom_up == b->bottom_up && a->mirror == b->mirror &&
	       a->movable == b->movable && a->limit == b->limit;
}

/* Same config and the same ops field by field (ops already normalized). */
static int same_trace(const struct mbd_trace *a, const struct mbd_trace *b)
{
	if (!same_config(&a->cfg, &b->cfg) || a->n_ops != b->n_ops)
		return 0;
	for (size_t i = 0; i < a->n_ops; i++) {
		struct mbd_op x = a->ops[i], y = b->ops[i];

		mbd_op_normalize(&x);
		mbd_op_normalize(&y);
		if (memcmp(&x, &y, sizeof(x)) != 0)
			return 0;
	}
	return 1;
}

/* Bounds every trace the input layer produces must respect. */
static void check_bounded(const struct mbd_trace *t, size_t max_ops)
{
	const struct mbd_config *c = &t->cfg;

	if (t->n_ops > max_ops)
		violated("too many ops", t);
	/* .mbt may ask for boot arrays larger than 128 slots (lifted traces) */
	if (c->memory_max < 1 || c->memory_max > MBD_MAX_BOOT_REGIONS ||
	    c->reserved_max < 1 || c->reserved_max > MBD_MAX_BOOT_REGIONS)
		violated("config max out of 1..MBD_MAX_BOOT_REGIONS", t);
	for (size_t i = 0; i < t->n_ops; i++) {
		struct mbd_op op = t->ops[i];

		if (op.kind >= MBD_OP__COUNT)
			violated("op kind out of range", t);
		mbd_op_normalize(&op);
		if (memcmp(&op, &t->ops[i], sizeof(op)) != 0)
			violated("op not normalized", t);
		if (op.flags > 0x1f || op.type > MBD_TYPE_RESERVED ||
		    op.nid < MBD_NUMA_NO_NODE || op.nid > MBD_MAX_NUMNODES)
			violated("op field out of range", t);
	}
}

/* print -> parse gives back t. */
static void check_print(const struct mbd_trace *t)
{
	struct mbd_trace back;
	struct mbd_diag d;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		violated("open_memstream failed (out of memory)", NULL);
	if (mbd_text_write(f, t) != 0)
		violated("mbd_text_write failed", t);
	if (fclose(f) != 0)
		violated("printing into memory failed", t);
	mbd_trace_init(&back);
	if (mbd_text_parse(text, len, "printed.mbt", &back, &d) != 0) {
		mbd_diag_print(stderr, &d);
		fprintf(stderr, "%.*s", (int)len, text);
		violated("printed text does not parse", t);
	}
	if (!same_trace(t, &back)) {
		fprintf(stderr, "fuzz_decode: read back as:\n");
		mbd_text_write(stderr, &back);
		violated("printed text parses to another trace", t);
	}
	mbd_trace_free(&back);
	free(text);
}

/* encode(dec) -> decode(dec) gives back t. */
static void check_encode(const struct mbd_trace *t, enum mbd_decoder dec)
{
	struct mbd_trace back;
	uint8_t *bytes;
	size_t len;

	if (mbd_bin_encode(t, dec, &bytes, &len) != 0) {
		fprintf(stderr, "fuzz_decode: decoder %s\n", mbd_decoder_name(dec));
		violated("a bounded trace does not encode", t);
	}
	mbd_trace_init(&back);
	mbd_bin_decode(bytes, len, dec, &back);
	if (!same_trace(t, &back)) {
		fprintf(stderr, "fuzz_decode: decoder %s; decoded back as:\n",
			mbd_decoder_name(dec));
		mbd_text_write(stderr, &back);
		violated("encoded bytes decode to another trace", t);
	}
	mbd_trace_free(&back);
	free(bytes);
}

static void as_bytes(const uint8_t *data, size_t size, enum mbd_decoder dec)
{
	struct mbd_trace t, again;

	mbd_trace_init(&t);
	mbd_trace_init(&again);
	mbd_bin_decode(data, size, dec, &t);
	check_bounded(&t, MBD_FUZZ_MAX_OPS);
	mbd_bin_decode(data, size, dec, &again);
	if (!same_trace(&t, &again))
		violated("decoding the same bytes twice differs", &t);
	check_encode(&t, dec);
	/* the other decoder must carry this trace too */
	check_encode(&t, dec == MBD_DECODER_NAIVE ? MBD_DECODER_STRUCTURED
						  : MBD_DECODER_NAIVE);
	check_print(&t);
	mbd_trace_free(&again);
	mbd_trace_free(&t);
}

static void as_text(const uint8_t *data, size_t size)
{
	struct mbd_trace t;
	struct mbd_diag d;

	mbd_trace_init(&t);
	memset(&d, 0, sizeof(d));
	if (mbd_text_parse((const char *)data, size, "input.mbt", &t, &d) != 0) {
		if (d.msg[0] == '\0')
			violated("a parse error without a message", NULL);
		if (strcmp(d.file, "input.mbt") != 0)
			violated("a parse error that does not name the file", NULL);
		if (t.n_ops != 0)
			violated("a failed parse left ops in the trace", &t);
		/* every error the parser finds is about a line */
		if (d.line == 0)
			violated("a parse error without a line number", NULL);
	} else {
		check_bounded(&t, SIZE_MAX);
		check_print(&t);
		/* the binary form holds boot arrays of up to 128 slots */
		if (t.n_ops <= MBD_FUZZ_MAX_OPS && t.cfg.memory_max <= MBD_INIT_REGIONS &&
		    t.cfg.reserved_max <= MBD_INIT_REGIONS) {
			check_encode(&t, MBD_DECODER_STRUCTURED);
			check_encode(&t, MBD_DECODER_NAIVE);
		}
	}
	mbd_trace_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	as_bytes(data, size, MBD_DECODER_STRUCTURED);
	as_bytes(data, size, MBD_DECODER_NAIVE);
	as_text(data, size);
	return 0;
}
