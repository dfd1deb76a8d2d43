/* SPDX-License-Identifier: GPL-2.0 */
/* The oracle's state and the helpers its files share (oracle.c, oracle_setup.c,
 * oracle_alloc.c, oracle_util.c, oracle_digest.c). */
#ifndef MBD_ORACLE_INT_H
#define MBD_ORACLE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "mbd_interval.h"
#include "mbd_oracle.h"

#define RET_ENOMEM (-12)
#define SMP_CACHE 64ULL                 /* SMP_CACHE_BYTES, x86_64 */
#define END_NOLEAKTRACE 1ULL            /* MEMBLOCK_ALLOC_NOLEAKTRACE */

enum { MEM = MBD_TYPE_MEMORY, RSV = MBD_TYPE_RESERVED };

struct mbd_oracle {
	struct mbd_iset t[2];   /* memory, reserved */
	uint64_t total[2];      /* expected total_size (trim does not shrink it) */
	struct mbd_iset scratch;
	bool resize, slab, bottom_up, mirror_cfg, movable;
	bool has_mirror;        /* system_has_some_mirror */
	uint64_t limit;         /* current_limit, clamped like the glue */
	bool broken;            /* out of memory: the model is no longer valid */
	bool trim_wrapped;      /* this call's trim wrapped round_up() to 0 */
	bool rsrv_kern;         /* v6.16+ node ids and flags of reservations */
	bool late_free;         /* v7.1+ phys_free once slab is up */
};

/* current_limit as the oracle keeps it: clamped like the glue's */
static inline uint64_t mbd_orc_clamp_limit(uint64_t limit)
{
	return limit < MBD_ORACLE_PHYS_LIMIT ? limit : MBD_ORACLE_PHYS_LIMIT;
}

/* Record a finding of class cls unless a worse one is already there. */
__attribute__((format(printf, 5, 6)))
void mbd_orc_note(struct mbd_oracle_finding *f, enum mbd_class cls,
		  enum mbd_where where, enum mbd_clause clause,
		  const char *fmt, ...);
/* base + memblock_cap_size(base, &size) */
uint64_t mbd_orc_cap_end(uint64_t base, uint64_t size);
/* PAGE_ALIGN(max * sizeof(struct memblock_region)), saturating */
uint64_t mbd_orc_array_bytes(uint64_t max);
/*
 * Judge an allocation's returned address against the model before it.
 * Returns the node the kernel records for the block: the requested one, or
 * NUMA_NO_NODE when it came from the any-node retry.
 */
int mbd_orc_judge_alloc(const struct mbd_oracle *o, const struct mbd_op *op,
			const struct mbd_state *before, int64_t sret,
			struct mbd_oracle_finding *f);

#endif
