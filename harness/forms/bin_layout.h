/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fuzzer byte layout the decoder (bin_decode.c) and the encoder
 * (bin_encode.c) share; docs/binary-format.md says the same in prose and
 * the three must change together. Private to forms/.
 */
#ifndef MBD_BIN_LAYOUT_H
#define MBD_BIN_LAYOUT_H

#include <stdint.h>

#include "mbd_trace.h"

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

#endif
