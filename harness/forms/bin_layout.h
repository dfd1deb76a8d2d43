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

/* First structured op byte of each kind (bin_decode.c). */
extern const uint8_t mbd_bin_op_start[MBD_OP__COUNT];

#endif
