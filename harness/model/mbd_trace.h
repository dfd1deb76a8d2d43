/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace model: one boot configuration plus a sequence of memblock calls.
 * Every input (fuzzer bytes, .mbt text, boot logs) becomes one of these, and
 * nothing else in mbdiff interprets inputs.
 */
#ifndef MBD_TRACE_H
#define MBD_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MBD_PHYS_ADDR_MAX UINT64_MAX
#define MBD_ALLOC_ANYWHERE UINT64_MAX /* MEMBLOCK_ALLOC_ANYWHERE */
#define MBD_ALLOC_ACCESSIBLE 0ULL     /* MEMBLOCK_ALLOC_ACCESSIBLE */
#define MBD_PAGE_SIZE 4096ULL
#define MBD_NUMA_NO_NODE (-1)
#define MBD_MAX_NUMNODES 64 /* CONFIG_NODES_SHIFT=6, x86_64 default */
#define MBD_INIT_REGIONS 128 /* INIT_MEMBLOCK_REGIONS */
/* The largest boot array a config may ask for: arm64 sizes reserved as
 * 128 + NR_CPUS + 1 (385 on Debian's 6.1, 641 on 7.3) and, with EFI, memory
 * as 128 * 8. The fuzzer's byte form stays within MBD_INIT_REGIONS. */
#define MBD_MAX_BOOT_REGIONS 1024
#define MBD_REGION_BYTES 24 /* sizeof(struct memblock_region), 64-bit, NUMA */

/* memblock_flags bits as in v7.3 include/linux/memblock.h */
#define MBD_FLAG_HOTPLUG 0x1u
#define MBD_FLAG_MIRROR 0x2u
#define MBD_FLAG_NOMAP 0x4u
#define MBD_FLAG_DRIVER_MANAGED 0x8u
#define MBD_FLAG_RSRV_NOINIT 0x10u
#define MBD_FLAG_RSRV_KERN 0x20u     /* v6.16: memblock's own reservations */

/* Ops above this many are dropped by the binary decoders (bounded work). */
#define MBD_FUZZ_MAX_OPS 64

struct mbd_config {
	uint32_t memory_max;   /* memblock.memory.max at boot, 1..MBD_MAX_BOOT_REGIONS */
	uint32_t reserved_max; /* memblock.reserved.max at boot, 1..MBD_MAX_BOOT_REGIONS */
	bool resize;           /* memblock_allow_resize() already called */
	bool slab;             /* slab_is_available() */
	bool bottom_up;        /* memblock.bottom_up */
	bool mirror;           /* mirrored_kernelcore (kernelcore=mirror) */
	bool movable;          /* movable_node_is_enabled() */
	uint64_t limit;        /* memblock.current_limit */
};

enum mbd_op_kind {
	MBD_OP_ADD,            /* memblock_add(base, size) */
	MBD_OP_ADD_NODE,       /* memblock_add_node(base, size, nid, flags) */
	MBD_OP_REMOVE,         /* memblock_remove(base, size) */
	MBD_OP_RESERVE,        /* memblock_reserve(base, size) */
	MBD_OP_PHYS_FREE,      /* memblock_phys_free(base, size) */
	MBD_OP_MARK_HOTPLUG,   /* memblock_mark_hotplug(base, size) */
	MBD_OP_CLEAR_HOTPLUG,  /* memblock_clear_hotplug(base, size) */
	MBD_OP_MARK_MIRROR,    /* memblock_mark_mirror(base, size) */
	MBD_OP_MARK_NOMAP,     /* memblock_mark_nomap(base, size) */
	MBD_OP_CLEAR_NOMAP,    /* memblock_clear_nomap(base, size) */
	MBD_OP_MARK_NOINIT,    /* memblock_reserved_mark_noinit(base, size) */
	MBD_OP_SET_NODE,       /* memblock_set_node(base, size, type, nid) */
	MBD_OP_ALLOC_RANGE,    /* memblock_phys_alloc_range(size, align, start, end) */
	MBD_OP_ALLOC_TRY_NID,  /* memblock_phys_alloc_try_nid(size, align, nid) */
	MBD_OP_SET_LIMIT,      /* memblock_set_current_limit(limit) */
	MBD_OP_ALLOW_RESIZE,   /* memblock_allow_resize() */
	MBD_OP_SET_BOTTOM_UP,  /* memblock_set_bottom_up(enable) */
	MBD_OP_SLAB_UP,        /* slab_is_available() becomes true */
	MBD_OP_TRIM,           /* memblock_trim_memory(align) */
	/* v6.16+: memblock_reserve_kern(base, size), or with a node
	 * __memblock_reserve(base, size, nid, MEMBLOCK_RSRV_KERN) as
	 * memblock_alloc_range_nid() reserves what it found. Older kernels
	 * have no such call: their variants stop (glue.c). Kinds are never
	 * renumbered: the fuzzer byte forms depend on the order. */
	MBD_OP_RESERVE_KERN,
	MBD_OP__COUNT
};

/* What operands an op carries; drives the text form and the decoders. */
enum mbd_op_shape {
	MBD_SHAPE_RANGE,       /* base, size */
	MBD_SHAPE_RANGE_NODE,  /* base, size, nid, flags */
	MBD_SHAPE_RANGE_NID,   /* base, size, nid (NUMA_NO_NODE when absent in text) */
	MBD_SHAPE_SET_NODE,    /* base, size, type, nid */
	MBD_SHAPE_ALLOC_RANGE, /* size, align, start, end */
	MBD_SHAPE_ALLOC_NID,   /* size, align, nid */
	MBD_SHAPE_VALUE,       /* value */
	MBD_SHAPE_NONE,
};

enum mbd_type_sel { MBD_TYPE_MEMORY = 0, MBD_TYPE_RESERVED = 1 };

/*
 * One call. Field use by shape:
 *   RANGE:       base, size
 *   RANGE_NODE:  base, size, nid, flags
 *   RANGE_NID:   base, size, nid
 *   SET_NODE:    base, size, type, nid
 *   ALLOC_RANGE: size, align, start (= from), end (= max_addr)
 *   ALLOC_NID:   size, align, nid
 *   VALUE:       value (limit, align for trim, 0/1 for bottom-up)
 * Unused fields are zero, so two equal ops compare equal with memcmp.
 */
struct mbd_op {
	uint32_t kind; /* enum mbd_op_kind */
	uint32_t flags;
	int32_t nid;
	uint32_t type; /* enum mbd_type_sel */
	uint64_t base;
	uint64_t size;
	uint64_t align;
	uint64_t start;
	uint64_t end;
	uint64_t value;
};

/*
 * An `expect` checkpoint (text traces only; fuzzer bytes have none): what
 * the baseline's array of one type must look like after the first after_op
 * ops. A HEAD entry checks the array's cnt/total/max (those in have); each
 * REGION entry checks region number index (base, size, and flags/nid when
 * in have). See docs/mbt-format.md.
 */
enum mbd_expect_what { MBD_EXPECT_HEAD = 0, MBD_EXPECT_REGION = 1 };

#define MBD_EXPECT_HAS_CNT 0x1u
#define MBD_EXPECT_HAS_TOTAL 0x2u
#define MBD_EXPECT_HAS_MAX 0x4u
#define MBD_EXPECT_HAS_FLAGS 0x8u
#define MBD_EXPECT_HAS_NID 0x10u

struct mbd_expect {
	size_t after_op;  /* checked after this many ops (>= 1) */
	uint32_t line;    /* source line (text input), 0 otherwise */
	uint32_t type;    /* enum mbd_type_sel */
	uint32_t what;    /* enum mbd_expect_what */
	uint32_t have;    /* MBD_EXPECT_HAS_* */
	uint64_t cnt, total, max;     /* HEAD */
	uint32_t index;               /* REGION: position in the array */
	uint32_t flags;               /* REGION */
	int32_t nid;                  /* REGION */
	uint64_t base, size;          /* REGION */
};

struct mbd_trace {
	struct mbd_config cfg;
	struct mbd_op *ops;
	uint32_t *lines; /* source line of each op (text input), 0 otherwise */
	size_t n_ops;
	size_t cap;
	/* Checkpoints in file order (after_op never decreases). Not copied by
	 * mbd_trace_copy (they name op positions that editing invalidates). */
	struct mbd_expect *expects;
	size_t n_expects;
	size_t expects_cap;
};

struct mbd_op_info {
	const char *name;   /* kernel function name, also the .mbt keyword */
	enum mbd_op_shape shape;
};

extern const struct mbd_op_info mbd_op_table[MBD_OP__COUNT];

/* Does an op of this shape name an address range (base, size)? */
static inline bool mbd_shape_is_range(enum mbd_op_shape s)
{
	return s == MBD_SHAPE_RANGE || s == MBD_SHAPE_RANGE_NODE ||
	       s == MBD_SHAPE_RANGE_NID || s == MBD_SHAPE_SET_NODE;
}

/* Kernel name of op kind k, "?" if out of range. */
const char *mbd_op_name(uint32_t kind);
/* Op kind for a kernel name, -1 if unknown. */
int mbd_op_lookup(const char *name, size_t len);

/* The boot state the kernel starts in (max 128, no resize, top-down, ...). */
void mbd_config_default(struct mbd_config *cfg);

void mbd_trace_init(struct mbd_trace *t);
void mbd_trace_free(struct mbd_trace *t);
/* Drop the ops and restore the default config; keeps the buffers. */
void mbd_trace_clear(struct mbd_trace *t);
/* Append an op (copied); line may be 0. Returns 0, or -1 when out of memory. */
int mbd_trace_push(struct mbd_trace *t, const struct mbd_op *op, uint32_t line);
/* Replace the ops by a copy of ops[0..n), line 0 each; the config and
 * checkpoints stay. Returns 0, or -1 when out of memory. */
int mbd_trace_set_ops(struct mbd_trace *t, const struct mbd_op *ops, size_t n);
/* Deep copy; returns 0 or -1. */
int mbd_trace_copy(struct mbd_trace *dst, const struct mbd_trace *src);
/* Append a checkpoint (copied). Returns 0, or -1 when out of memory. */
int mbd_trace_push_expect(struct mbd_trace *t, const struct mbd_expect *e);
/* Replace dst's checkpoints by a copy of src's; returns 0 or -1. */
int mbd_trace_copy_expects(struct mbd_trace *dst, const struct mbd_trace *src);
/* Zero the fields the op's shape does not use. */
void mbd_op_normalize(struct mbd_op *op);

#endif
