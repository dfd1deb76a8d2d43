/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fuzzer byte layout the decoder (bin_decode.c) and the encoder
 * (bin_encode.c) share; docs/binary-format.md says the same in prose and
 * the three must change together. Private to forms/.
 */
#ifndef MBD_BIN_LAYOUT_H
#define MBD_BIN_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "mbd_bin.h"

#define KIB 1024ULL
#define MIB (1024ULL * KIB)
#define GIB (1024ULL * MIB)
#define TIB (1024ULL * GIB)
#define PMAX MBD_PHYS_ADDR_MAX


/* Literal markers the encoder writes (also in corpus/mbdiff.dict). */
#define SEL_LIT40 0xc0u /* address/size: 5-byte literal, below 1 TiB */
#define SEL_LIT64 0xd8u /* address/size: 8-byte literal */
#define LIT40_LIMIT (1ULL << 40)
#define SEL_ALIGN_ZERO 0xc0u
#define SEL_ALIGN_LIT 0xe0u
#define SEL_NID_LIT 0xf0u
#define SEL_FLAGS_SET 0x80u
#define CFG_LIMIT_OPERAND 0xe0u /* flags-byte bits 5..7 = 7 */

/*
 * The kinds that own opcode bytes (structured ranges, naive byte % 19): the
 * first 19 of enum mbd_op_kind. Later kinds are escapes inside an existing
 * op's operand byte, so that every byte string written before them decodes
 * as it did (docs/binary-format.md).
 */
#define MBD_BIN_OPCODE_KINDS 19u
/* memblock_set_bottom_up's value byte from here up: memblock_reserve_kern,
 * its operands follow (the encoder writes set_bottom_up as 0 or 1). */
#define SEL_RESERVE_KERN 0xf0u

/* First structured op byte of each kind (bin_decode.c); an escaped kind
 * has the opcode of the op it hides in. */
extern const uint8_t mbd_bin_op_start[MBD_OP__COUNT];
/* The structured opcode bytes of kind, escape included; returns 1 or 2. */
unsigned mbd_bin_opcode(uint32_t kind, uint8_t out[2]);

/* 128 slots hold both ends of all MBD_FUZZ_MAX_OPS ops. */
#define N_RING 128u

/* Byte cursor: past the end every read is zero. */
struct rd {
	const uint8_t *p;
	size_t n;
	size_t pos;
};

/* A ring of earlier values; the newest is index 0 of a pick. */
struct ring {
	uint64_t v[N_RING];
	uint32_t n; /* total pushed; slot = n % N_RING */
};

/*
 * Decoder state of one call: lives on the caller's stack (reentrant).
 * Most reuse draws from the low pool only, so one huge value does not
 * drag the rest of the trace above 1 TiB; the full pool keeps touching a
 * range at the top possible.
 */
struct sdec {
	struct rd r;
	struct ring ends_low; /* earlier endpoints and bounds <= 1 TiB */
	struct ring ends_all; /* all earlier endpoints and bounds */
	struct ring lens;     /* earlier sizes <= 1 TiB */
};

/*
 * The decoder one step at a time, for the compact encoder, which checks
 * every choice against the decoder itself (bin_compact.c): read the header
 * of data into c and set d up for the ops; then decode the next op.
 */
void mbd_bin_start(struct sdec *d, const uint8_t *data, size_t size,
		   enum mbd_decoder dec, struct mbd_config *c);
void mbd_bin_next_op(struct sdec *d, enum mbd_decoder dec, struct mbd_op *op);
/* The first three header bytes of c (bin_encode.c); -1 if a max is
 * outside 1..128. Bits 5..7 announce a limit operand when c has one. */
int mbd_bin_header(const struct mbd_config *c, uint8_t hdr[3]);
/* The structured producers, reading from d->r with d's rings. */
uint64_t mbd_bin_addr(struct sdec *d);
uint64_t mbd_bin_size(struct sdec *d, uint64_t base);
int32_t mbd_bin_nid(struct sdec *d);
uint64_t mbd_bin_align(struct sdec *d);

#endif
