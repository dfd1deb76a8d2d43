// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the .mbt text form (harness/text.c) and file loading
 * (harness/input.c): exact round trips, dmesg-style lines, a table of
 * malformed inputs with the line and message each must produce, and the
 * file helpers on a temporary directory.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mbd_test.h"
#include "mbd_input.h"
#include "mbd_output.h"
#include "mbd_text.h"

#define U64MAX UINT64_MAX

static bool config_eq(const struct mbd_config *a, const struct mbd_config *b)
{
	return a->memory_max == b->memory_max && a->reserved_max == b->reserved_max &&
	       a->resize == b->resize && a->slab == b->slab &&
	       a->bottom_up == b->bottom_up && a->mirror == b->mirror &&
	       a->movable == b->movable && a->limit == b->limit;
}

/* Same config and the same normalized ops (struct mbd_op has no padding). */
static bool trace_eq(const struct mbd_trace *a, const struct mbd_trace *b)
{
	if (!config_eq(&a->cfg, &b->cfg) || a->n_ops != b->n_ops)
		return false;
	for (size_t i = 0; i < a->n_ops; i++) {
		struct mbd_op x = a->ops[i], y = b->ops[i];

		mbd_op_normalize(&x);
		mbd_op_normalize(&y);
		if (memcmp(&x, &y, sizeof(x)) != 0) {
			fprintf(stderr, "op %zu differs\n", i);
			return false;
		}
	}
	return true;
}

/* mbd_text_write into a malloc'd NUL-terminated string. */
static char *write_str(const struct mbd_trace *t, size_t *len)
{
	FILE *f = tmpfile();
	char *s;
	long n;

	if (!f)
		return NULL;
	if (mbd_text_write(f, t) || fflush(f) || (n = ftell(f)) < 0) {
		fclose(f);
		return NULL;
	}
	rewind(f);
	s = malloc((size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	if (s)
		s[n] = 0;
	*len = (size_t)n;
	fclose(f);
	return s;
}

static struct mbd_op mkop(uint32_t kind)
{
	struct mbd_op op;

	memset(&op, 0, sizeof(op));
	op.kind = kind;
	return op;
}

static struct mbd_op range_op(uint32_t kind, uint64_t base, uint64_t size)
{
	struct mbd_op op = mkop(kind);

	op.base = base;
	op.size = size;
	return op;
}

/* write -> parse -> equal, then write again -> the same bytes. */
static void check_round_trip(const struct mbd_trace *t, const char *what)
{
	struct mbd_trace back, back2;
	struct mbd_diag d;
	size_t len, len2;
	char *s = write_str(t, &len), *s2;
	int r;

	mbd_trace_init(&back);
	mbd_trace_init(&back2);
	MBD_CHECK(s != NULL);
	if (!s)
		return;
	r = mbd_text_parse(s, len, what, &back, &d);
	if (r)
		mbd_diag_print(stderr, &d);
	MBD_CHECK(r == 0);
	MBD_CHECK(trace_eq(t, &back));
	/* Line 1 is the config line, op i is on line i + 2. */
	for (size_t i = 0; i < back.n_ops; i++)
		if (back.lines[i] != i + 2) {
			MBD_CHECK_EQ_U64(back.lines[i], i + 2);
			break;
		}
	s2 = write_str(&back, &len2);
	MBD_CHECK(s2 && len2 == len && memcmp(s, s2, len) == 0);
	MBD_CHECK(s2 && mbd_text_parse(s2, len2, what, &back2, &d) == 0 &&
		  trace_eq(&back, &back2));
	free(s);
	free(s2);
	mbd_trace_free(&back);
	mbd_trace_free(&back2);
}

/* Every op kind, with extreme operands, and every config key non-default. */
static void test_round_trip_extremes(void)
{
	static const uint64_t vals[] = { 0, 1, 0xfff, 0x1000, 0x7fffffffffffffffULL,
					 0x8000000000000000ULL, U64MAX - 1, U64MAX };
	struct mbd_trace t;
	bool seen[MBD_OP__COUNT] = { false };
	struct mbd_op op;

	mbd_trace_init(&t);
	t.cfg.memory_max = 1;
	t.cfg.reserved_max = 128;
	t.cfg.resize = t.cfg.slab = t.cfg.bottom_up = t.cfg.mirror = t.cfg.movable = true;
	t.cfg.limit = 0x100000000ULL;
	/* Every range op with every (base, size) pair: wrapping and not. */
	for (uint32_t k = 0; k < MBD_OP__COUNT; k++) {
		enum mbd_op_shape sh = mbd_op_table[k].shape;

		if (!mbd_shape_is_range(sh))
			continue;
		for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
			for (size_t j = 0; j < sizeof(vals) / sizeof(vals[0]); j++) {
				op = range_op(k, vals[i], vals[j]);
				op.nid = (int32_t)((i + j) % 66) - 1;
				op.flags = (uint32_t)(i * 8 + j) & 0x1f;
				op.type = (uint32_t)(j & 1);
				mbd_op_normalize(&op);
				MBD_CHECK(mbd_trace_push(&t, &op, 0) == 0);
				seen[k] = true;
			}
	}
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		op = mkop(MBD_OP_ALLOC_RANGE);
		op.size = vals[i];
		op.align = vals[(i + 3) % 8];
		op.start = vals[(i + 5) % 8];
		op.end = vals[7 - i];
		MBD_CHECK(mbd_trace_push(&t, &op, 0) == 0);
		op = mkop(MBD_OP_ALLOC_TRY_NID);
		op.size = vals[7 - i];
		op.align = vals[i];
		op.nid = i & 1 ? MBD_NUMA_NO_NODE : MBD_MAX_NUMNODES;
		MBD_CHECK(mbd_trace_push(&t, &op, 0) == 0);
		op = mkop(MBD_OP_SET_LIMIT);
		op.value = vals[i];
		MBD_CHECK(mbd_trace_push(&t, &op, 0) == 0);
		op = mkop(MBD_OP_TRIM);
		op.value = vals[7 - i];
		MBD_CHECK(mbd_trace_push(&t, &op, 0) == 0);
	}
	seen[MBD_OP_ALLOC_RANGE] = seen[MBD_OP_ALLOC_TRY_NID] = true;
	seen[MBD_OP_SET_LIMIT] = seen[MBD_OP_TRIM] = true;
	for (uint64_t v = 0; v < 2; v++) {
		op = mkop(MBD_OP_SET_BOTTOM_UP);
		op.value = v;
		MBD_CHECK(mbd_trace_push(&t, &op, 0) == 0);
	}
	op = mkop(MBD_OP_ALLOW_RESIZE);
	MBD_CHECK(mbd_trace_push(&t, &op, 0) == 0);
	op = mkop(MBD_OP_SLAB_UP);
	MBD_CHECK(mbd_trace_push(&t, &op, 0) == 0);
	seen[MBD_OP_SET_BOTTOM_UP] = seen[MBD_OP_ALLOW_RESIZE] = seen[MBD_OP_SLAB_UP] = true;
	for (uint32_t k = 0; k < MBD_OP__COUNT; k++)
		if (!seen[k]) {
			fprintf(stderr, "op kind %u not covered\n", k);
			MBD_CHECK(seen[k]);
		}
	check_round_trip(&t, "extremes.mbt");

	/* The other values of each config field. */
	mbd_trace_clear(&t);
	t.cfg.memory_max = 128;
	t.cfg.reserved_max = 1;
	t.cfg.limit = 0;
	check_round_trip(&t, "config0.mbt");
	t.cfg.limit = U64MAX;
	t.cfg.memory_max = 77;
	t.cfg.reserved_max = 3;
	t.cfg.mirror = true;
	check_round_trip(&t, "config1.mbt");
	mbd_trace_free(&t);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	/* xorshift64*: deterministic, good enough to spread bits. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

/* Random values biased to the edges where printing changes form. */
static uint64_t rnd_val(void)
{
	switch (rnd() % 6) {
	case 0: return rnd() % 4;
	case 1: return U64MAX - rnd() % 4;
	case 2: return (rnd() % 4096) << 12;
	case 3: return rnd() >> (rnd() % 64);
	default: return rnd();
	}
}

static void test_round_trip_random(void)
{
	struct mbd_trace t;

	mbd_trace_init(&t);
	for (int round = 0; round < 50; round++) {
		mbd_trace_clear(&t);
		t.cfg.memory_max = (uint32_t)(1 + rnd() % 128);
		t.cfg.reserved_max = (uint32_t)(1 + rnd() % 128);
		t.cfg.resize = rnd() & 1;
		t.cfg.slab = rnd() & 1;
		t.cfg.bottom_up = rnd() & 1;
		t.cfg.mirror = rnd() & 1;
		t.cfg.movable = rnd() & 1;
		t.cfg.limit = rnd_val();
		for (int i = 0; i < 200; i++) {
			struct mbd_op op = mkop((uint32_t)(rnd() % MBD_OP__COUNT));

			op.base = rnd_val();
			op.size = rnd() & 1 ? rnd_val() : U64MAX - op.base + rnd() % 3;
			op.align = rnd_val();
			op.start = rnd_val();
			op.end = rnd_val();
			op.value = op.kind == MBD_OP_SET_BOTTOM_UP ? rnd() & 1 : rnd_val();
			op.nid = (int32_t)(rnd() % 66) - 1;
			op.flags = (uint32_t)(rnd() & 0x1f);
			op.type = (uint32_t)(rnd() & 1);
			mbd_op_normalize(&op);
			MBD_CHECK(mbd_trace_push(&t, &op, 0) == 0);
		}
		check_round_trip(&t, "random.mbt");
	}
	mbd_trace_free(&t);
}

/*
 * Whatever the structured decoder produces must survive the text form. (The
 * naive decoder is left out: it yields any int8 nid, which .mbt rejects.)
 */
static void test_round_trip_decoded(void)
{
	uint8_t bytes[512];
	struct mbd_trace t;

	mbd_trace_init(&t);
	for (int round = 0; round < 200; round++) {
		size_t n = (size_t)(rnd() % sizeof(bytes));

		for (size_t i = 0; i < n; i++)
			bytes[i] = (uint8_t)(round & 1 ? rnd() : rnd() % 8);
		mbd_bin_decode(bytes, n, MBD_DECODER_STRUCTURED, &t);
		check_round_trip(&t, "decoded.mbt");
	}
	mbd_trace_free(&t);
}

/* The printed forms the format document promises, written out by hand. */
static void test_format(void)
{
	struct mbd_config cfg;
	struct mbd_op op;
	char buf[256];
	int n;

	mbd_config_default(&cfg);
	mbd_text_format_config(buf, sizeof(buf), &cfg);
	MBD_CHECK_STR(buf, "config memory.max=128 reserved.max=128 resize=0 slab=0 bottom_up=0 "
		      "mirror=0 movable=0 limit=0xffffffffffffffff");
	cfg.memory_max = 4;
	cfg.reserved_max = 2;
	cfg.resize = cfg.movable = true;
	cfg.limit = 0x1000;
	mbd_text_format_config(buf, sizeof(buf), &cfg);
	MBD_CHECK_STR(buf, "config memory.max=4 reserved.max=2 resize=1 slab=0 bottom_up=0 "
		      "mirror=0 movable=1 limit=0x0000000000001000");

	op = range_op(MBD_OP_ADD, 0x1000, 0x9e000);
	mbd_text_format_op(buf, sizeof(buf), &op);
	MBD_CHECK_STR(buf, "memblock_add: [0x0000000000001000-0x000000000009efff]");
	op = range_op(MBD_OP_RESERVE, 0x1000, 0);
	mbd_text_format_op(buf, sizeof(buf), &op);
	MBD_CHECK_STR(buf, "memblock_reserve: [0x0000000000001000-0x0000000000000fff]");
	op = range_op(MBD_OP_REMOVE, 0, 0);
	mbd_text_format_op(buf, sizeof(buf), &op);
	MBD_CHECK_STR(buf, "memblock_remove: [0x0000000000000000-0xffffffffffffffff]");
	op = range_op(MBD_OP_PHYS_FREE, U64MAX, 1);
	mbd_text_format_op(buf, sizeof(buf), &op);
	MBD_CHECK_STR(buf, "memblock_phys_free: [0xffffffffffffffff-0xffffffffffffffff]");
	op = range_op(MBD_OP_MARK_NOMAP, 1, U64MAX);
	mbd_text_format_op(buf, sizeof(buf), &op);
	MBD_CHECK_STR(buf, "memblock_mark_nomap: [0x0000000000000001-0xffffffffffffffff]");
	op = range_op(MBD_OP_MARK_NOMAP, 2, U64MAX);
	mbd_text_format_op(buf, sizeof(buf), &op);
	MBD_CHECK_STR(buf, "memblock_mark_nomap: base=0x0000000000000002 size=0xffffffffffffffff");
	op = range_op(MBD_OP_CLEAR_HOTPLUG, U64MAX, 2);
	mbd_text_format_op(buf, sizeof(buf), &op);
	MBD_CHECK_STR(buf, "memblock_clear_hotplug: base=0xffffffffffffffff size=0x2");
	op = range_op(MBD_OP_ADD_NODE, 0x100000000ULL, 0x80000000ULL);
	op.nid = 1;
	op.flags = MBD_FLAG_HOTPLUG;
	mbd_text_format_op(buf, sizeof(buf), &op);
	MBD_CHECK_STR(buf, "memblock_add_node: [0x0000000100000000-0x000000017fffffff] nid=1 flags=0x1");
	op = range_op(MBD_OP_SET_NODE, 0x2000, 0x1000);
	op.type = MBD_TYPE_RESERVED;
	op.nid = -1;
	mbd_text_format_op(buf, sizeof(buf), &op);
	MBD_CHECK_STR(buf, "memblock_set_node: [0x0000000000002000-0x0000000000002fff] type=reserved nid=-1");
	op = mkop(MBD_OP_ALLOC_RANGE);
	op.size = 4096;
	op.align = 0x1000;
	op.end = 0x100000;
	mbd_text_format_op(buf, sizeof(buf), &op);
	MBD_CHECK_STR(buf, "memblock_phys_alloc_range: 4096 bytes align=0x1000 "
		      "from=0x0000000000000000 max_addr=0x0000000000100000");
	op = mkop(MBD_OP_ALLOC_TRY_NID);
	op.size = 65536;
	op.align = 0x40;
	op.nid = 64;
	mbd_text_format_op(buf, sizeof(buf), &op);
	MBD_CHECK_STR(buf, "memblock_phys_alloc_try_nid: 65536 bytes align=0x40 nid=64");
	op = mkop(MBD_OP_SET_LIMIT);
	op.value = 0x100000000ULL;
	mbd_text_format_op(buf, sizeof(buf), &op);
	MBD_CHECK_STR(buf, "memblock_set_current_limit: 0x0000000100000000");
	op = mkop(MBD_OP_SET_BOTTOM_UP);
	op.value = 1;
	mbd_text_format_op(buf, sizeof(buf), &op);
	MBD_CHECK_STR(buf, "memblock_set_bottom_up: 1");
	op = mkop(MBD_OP_TRIM);
	op.value = 0x1000;
	mbd_text_format_op(buf, sizeof(buf), &op);
	MBD_CHECK_STR(buf, "memblock_trim_memory: 0x1000");
	op = mkop(MBD_OP_ALLOW_RESIZE);
	mbd_text_format_op(buf, sizeof(buf), &op);
	MBD_CHECK_STR(buf, "memblock_allow_resize");
	op = mkop(MBD_OP_SLAB_UP);
	mbd_text_format_op(buf, sizeof(buf), &op);
	MBD_CHECK_STR(buf, "slab_available");

	/* snprintf contract: full length returned, output cut and terminated. */
	op = range_op(MBD_OP_ADD, 0x1000, 0x9e000);
	n = mbd_text_format_op(buf, 5, &op);
	MBD_CHECK_EQ_U64(n, strlen("memblock_add: [0x0000000000001000-0x000000000009efff]"));
	MBD_CHECK_STR(buf, "memb");
	MBD_CHECK_EQ_U64(mbd_text_format_op(NULL, 0, &op), n);
	MBD_CHECK_EQ_U64(mbd_text_format_config(NULL, 0, &cfg),
			 strlen("config memory.max=4 reserved.max=2 resize=1 slab=0 bottom_up=0 "
				"mirror=0 movable=1 limit=0x0000000000001000"));
}

/* Parse s, expecting success and n ops; returns the trace in t. */
static bool parse_ok(const char *s, size_t len, struct mbd_trace *t, size_t n)
{
	struct mbd_diag d;
	int r = mbd_text_parse(s, len, "t.mbt", t, &d);

	if (r)
		mbd_diag_print(stderr, &d);
	MBD_CHECK(r == 0);
	MBD_CHECK_EQ_U64(t->n_ops, n);
	return r == 0 && t->n_ops == n;
}

static bool parse_ok_s(const char *s, struct mbd_trace *t, size_t n)
{
	return parse_ok(s, strlen(s), t, n);
}

static void check_range(const struct mbd_op *op, uint32_t kind, uint64_t base, uint64_t size)
{
	MBD_CHECK_EQ_U64(op->kind, kind);
	MBD_CHECK_EQ_U64(op->base, base);
	MBD_CHECK_EQ_U64(op->size, size);
}

static void test_parse_dmesg(void)
{
	static const char log[] =
		"# pasted from a boot with memblock=debug\n"
		"memblock_reserve: [0x0000000001000000-0x0000000003608fff] setup_arch+0x1c8/0x5b0\n"
		"  memblock_add: [0x00000000001000-0x0000000009efff]\te820__memblock_setup+0x5a/0xa0 \n"
		"memblock_remove: [0x00001000-0x0009efff] paging_init+0x3a/0x100\n"
		"memblock_phys_free: [0x0000000000001000-0x0000000000000fff] __x.y_z9+0x0/0xABC\n"
		"memblock_add_node: [0x0000000100000000-0x000000017fffffff] nid=1 flags=0x1 acpi_numa+0x1/0x2\n"
		"memblock_add_node: [0x0-0x0] nid=-1 flags=10\n"
		"memblock_phys_alloc_range: 4096 bytes align=0x1000 from=0x0000000000000000 max_addr=0x0000000000100000 alloc_low_pages+0x46/0x160\n"
		"memblock_phys_alloc_try_nid: 0x2000 bytes align=4096 nid=64\n"
		"memblock_set_node: [4096-8191] type=memory nid=0x3f\n"
		"memblock_set_node: base=0xfffffffffffff000 size=0x2000 type=reserved nid=-1\n"
		"memblock_allow_resize:\n"
		"slab_available\n"
		"memblock_set_bottom_up: 0x1\n"
		"memblock_trim_memory: 4096\n"
		"memblock_set_current_limit: 0x0000000000000000000000000100000000\n"
		"memblock_mark_mirror:[0x0-0xffffffffffffffff]\n"
		"memblock_allow_resize do_init+0x10/0x20\n";
	struct mbd_trace t;
	const struct mbd_op *o;

	mbd_trace_init(&t);
	if (parse_ok(log, sizeof(log) - 1, &t, 17)) {
		o = t.ops;
		check_range(&o[0], MBD_OP_RESERVE, 0x1000000, 0x2609000);
		check_range(&o[1], MBD_OP_ADD, 0x1000, 0x9e000);
		check_range(&o[2], MBD_OP_REMOVE, 0x1000, 0x9e000);
		check_range(&o[3], MBD_OP_PHYS_FREE, 0x1000, 0);
		check_range(&o[4], MBD_OP_ADD_NODE, 0x100000000ULL, 0x80000000ULL);
		MBD_CHECK_EQ_U64(o[4].nid, 1);
		MBD_CHECK_EQ_U64(o[4].flags, 1);
		check_range(&o[5], MBD_OP_ADD_NODE, 0, 1);
		MBD_CHECK(o[5].nid == -1);
		MBD_CHECK_EQ_U64(o[5].flags, 0x10); /* %x without 0x: hex */
		MBD_CHECK_EQ_U64(o[6].kind, MBD_OP_ALLOC_RANGE);
		MBD_CHECK_EQ_U64(o[6].size, 4096);
		MBD_CHECK_EQ_U64(o[6].align, 0x1000);
		MBD_CHECK_EQ_U64(o[6].start, 0);
		MBD_CHECK_EQ_U64(o[6].end, 0x100000);
		MBD_CHECK_EQ_U64(o[7].kind, MBD_OP_ALLOC_TRY_NID);
		MBD_CHECK_EQ_U64(o[7].size, 0x2000);
		MBD_CHECK_EQ_U64(o[7].align, 0x1000);
		MBD_CHECK_EQ_U64(o[7].nid, 64);
		check_range(&o[8], MBD_OP_SET_NODE, 0x1000, 0x1000);
		MBD_CHECK_EQ_U64(o[8].type, MBD_TYPE_MEMORY);
		MBD_CHECK_EQ_U64(o[8].nid, 63);
		check_range(&o[9], MBD_OP_SET_NODE, 0xfffffffffffff000ULL, 0x2000);
		MBD_CHECK_EQ_U64(o[9].type, MBD_TYPE_RESERVED);
		MBD_CHECK(o[9].nid == -1);
		MBD_CHECK_EQ_U64(o[10].kind, MBD_OP_ALLOW_RESIZE);
		MBD_CHECK_EQ_U64(o[11].kind, MBD_OP_SLAB_UP);
		MBD_CHECK_EQ_U64(o[12].kind, MBD_OP_SET_BOTTOM_UP);
		MBD_CHECK_EQ_U64(o[12].value, 1);
		MBD_CHECK_EQ_U64(o[13].kind, MBD_OP_TRIM);
		MBD_CHECK_EQ_U64(o[13].value, 4096);
		MBD_CHECK_EQ_U64(o[14].kind, MBD_OP_SET_LIMIT);
		MBD_CHECK_EQ_U64(o[14].value, 0x100000000ULL);
		check_range(&o[15], MBD_OP_MARK_MIRROR, 0, 0); /* [0 - 2^64-1] is size 0 */
		MBD_CHECK_EQ_U64(o[16].kind, MBD_OP_ALLOW_RESIZE);
		/* Source lines: the comment is line 1. */
		for (size_t i = 0; i < t.n_ops; i++)
			MBD_CHECK_EQ_U64(t.lines[i], i + 2);
		/* Ops not using a field leave it zero. */
		MBD_CHECK_EQ_U64(o[1].nid, 0);
		MBD_CHECK_EQ_U64(o[10].base, 0);
		struct mbd_config def;
		mbd_config_default(&def);
		MBD_CHECK(config_eq(&t.cfg, &def));
	}
	mbd_trace_free(&t);
}

static void test_parse_misc(void)
{
	static const char crlf[] =
		"config slab=1\r\n"
		"\r\n"
		"# c\r\n"
		"memblock_add: [0x1000-0x1fff]\r\n"
		"memblock_remove: [0x1000-0x17ff] foo+0x1/0x2\r\n"
		"memblock_allow_resize\r\n";
	static const char cfg_text[] =
		"\n  # leading blank line and comment\n"
		"\tconfig limit=4096 movable=1 reserved.max=0x10\t\n";
	struct mbd_trace t;
	struct mbd_config def;

	mbd_config_default(&def);
	mbd_trace_init(&t);
	if (parse_ok(crlf, sizeof(crlf) - 1, &t, 3)) {
		check_range(&t.ops[0], MBD_OP_ADD, 0x1000, 0x1000);
		check_range(&t.ops[1], MBD_OP_REMOVE, 0x1000, 0x800);
		MBD_CHECK_EQ_U64(t.ops[2].kind, MBD_OP_ALLOW_RESIZE);
		MBD_CHECK_EQ_U64(t.lines[0], 4);
		MBD_CHECK_EQ_U64(t.lines[2], 6);
		MBD_CHECK(t.cfg.slab);
		MBD_CHECK(!t.cfg.resize);
	}
	/* Unspecified keys keep the defaults. */
	if (parse_ok(cfg_text, sizeof(cfg_text) - 1, &t, 0)) {
		MBD_CHECK_EQ_U64(t.cfg.limit, 4096);
		MBD_CHECK(t.cfg.movable);
		MBD_CHECK_EQ_U64(t.cfg.reserved_max, 16);
		MBD_CHECK_EQ_U64(t.cfg.memory_max, def.memory_max);
		MBD_CHECK(t.cfg.slab == def.slab && t.cfg.resize == def.resize &&
			  t.cfg.bottom_up == def.bottom_up && t.cfg.mirror == def.mirror);
	}
	/* A bare "config" is a (default) config line. */
	if (parse_ok_s("config\n", &t, 0))
		MBD_CHECK(config_eq(&t.cfg, &def));
	/* Empty and comment-only files are valid empty traces. */
	if (parse_ok_s("", &t, 0))
		MBD_CHECK(config_eq(&t.cfg, &def));
	parse_ok_s("# only\n#comments\n\n   \n", &t, 0);
	parse_ok_s("\n\n\n", &t, 0);
	/* Not NUL terminated: len bounds the parse. */
	parse_ok("memblock_add: [0x0-0xfff]XYZ", 25, &t, 1);
	/* A parse replaces what the trace held before. */
	t.cfg.slab = true;
	if (parse_ok_s("memblock_add: [0x0-0xfff]\n", &t, 1))
		MBD_CHECK(config_eq(&t.cfg, &def));
	/* Leading zeros are not significant digits. */
	if (parse_ok_s("memblock_add: [0x00000000000000000001-0x000000000000000000000002]", &t, 1))
		check_range(&t.ops[0], MBD_OP_ADD, 1, 2);
	/* Decimal extremes. */
	if (parse_ok_s("memblock_trim_memory: 18446744073709551615", &t, 1))
		MBD_CHECK_EQ_U64(t.ops[0].value, U64MAX);
	if (parse_ok_s("memblock_add: base=0 size=18446744073709551615", &t, 1))
		check_range(&t.ops[0], MBD_OP_ADD, 0, U64MAX);
	if (parse_ok_s("memblock_add: [0xFFFFFFFFFFFFFFFF-0xffffffffffffffff]", &t, 1))
		check_range(&t.ops[0], MBD_OP_ADD, U64MAX, 1);
	/* Longest allowed line: 4096 bytes plus CRLF. */
	{
		char *s = malloc(4096 + 3);

		if (s) {
			memset(s, ' ', 4096);
			memcpy(s, "slab_available", 14);
			memcpy(s + 4096, "\r\n", 3);
			parse_ok(s, 4098, &t, 1);
			free(s);
		}
	}
	mbd_trace_free(&t);
}

struct bad {
	const char *text;
	size_t len; /* 0: strlen(text) */
	unsigned line;
	const char *msg; /* substring the message must contain */
};

#define LIT(s) s, sizeof(s) - 1

static const struct bad bad_inputs[] = {
	{ "memblock_foo: [0x0-0x1]\n", 0, 1, "unknown op \"memblock_foo\"" },
	{ "config slab=1\nmemblock_add: [0x0-0xfff]\nmemblock_bogus\n", 0, 3,
	  "unknown op \"memblock_bogus\": expected \"config\"" },
	{ "[0x0-0xfff]\n", 0, 1, "unknown op" },
	{ "memblock_add_node: [0x0-0xfff] nid=0\n", 0, 1, "missing flags=0xF" },
	{ "memblock_add:\n", 0, 1, "missing range: expected \"memblock_add: [0xSTART-0xEND]\"" },
	{ "memblock_add: [0x0-0xfff] nid=0\n", 0, 1, "unexpected text \"nid=0\"" },
	{ "memblock_allow_resize: 1\n", 0, 1, "unexpected text \"1\"" },
	{ "memblock_add: [0x0-0xfffg]\n", 0, 1, "bad end number \"0xfffg\"" },
	{ "memblock_add: [0xq-0xfff]\n", 0, 1, "bad start number" },
	{ "memblock_set_current_limit: 0x12z\n", 0, 1, "bad number \"0x12z\"" },
	{ "memblock_phys_alloc_try_nid: 40a6 bytes align=0x1000 nid=0\n", 0, 1,
	  "bad number \"40a6\" for size" },
	{ "memblock_reserve: [0x2000-0x0fff]\n", 0, 1, "end before start" },
	{ "memblock_reserve: [0xffffffffffffffff-0x0]\n", 0, 1, "end before start" },
	{ "memblock_add: [0x10000000000000000-0x10000000000000fff]\n", 0, 1,
	  "start \"0x10000000000000000\" does not fit in 64 bits" },
	{ "memblock_phys_alloc_try_nid: 18446744073709551616 bytes align=0x1000 nid=0\n", 0, 1,
	  "does not fit in 64 bits" },
	{ "config limit=0x1ffffffffffffffff\n", 0, 1, "does not fit in 64 bits" },
	{ "config slab=1 slab=0\n", 0, 1, "duplicate config key \"slab\"" },
	{ "config slab=1\n\nconfig resize=1\n", 0, 3, "second config line (the first is on line 1)" },
	{ "# x\nmemblock_add: [0x0-0xfff]\nconfig slab=1\n", 0, 3,
	  "config after ops (the first op is on line 2)" },
	{ "config memory_max=4\n", 0, 1,
	  "unknown config key \"memory_max\": valid keys are memory.max, reserved.max, resize, "
	  "slab, bottom_up, mirror, movable, limit" },
	{ "config memory.max=0\n", 0, 1, "memory.max=0 out of range: expected 1..1024" },
	{ "config reserved.max=1025\n", 0, 1, "reserved.max=1025 out of range" },
	{ "config resize=2\n", 0, 1, "resize=2: expected 0 or 1" },
	{ "config bottom_up=0x10\n", 0, 1, "expected 0 or 1" },
	{ "config slab\n", 0, 1, "expected KEY=VALUE" },
	{ "config movable=\n", 0, 1, "empty number for movable" },
	{ "config: slab=1\n", 0, 1, "unexpected ':' after config" },
	{ "memblock_add_node: [0x0-0xfff] nid=65 flags=0x0\n", 0, 1, "nid=65 out of range" },
	{ "memblock_set_node: [0x0-0xfff] type=memory nid=-2\n", 0, 1, "nid=-2 out of range" },
	{ "memblock_phys_alloc_try_nid: 1 bytes align=1 nid=--1\n", 0, 1, "bad nid \"--1\"" },
	{ "memblock_add_node: [0x0-0xfff] nid= flags=0x0\n", 0, 1, "empty number for nid" },
	{ "memblock_add_node: [0x0-0xfff] nid=0 flags=0x20\n", 0, 1, "unknown bits" },
	{ "memblock_add_node: [0x0-0xfff] nid=0 flags=20\n", 0, 1, "flags=20 has unknown bits" },
	{ "memblock_add_node: [0x0-0xfff] flags=0x1 nid=0\n", 0, 1,
	  "expected nid=N, found \"flags=0x1\"" },
	{ "memblock_add: [0x1000-0xfff\n", 0, 1,
	  "bad range \"[0x1000-0xfff\": missing ']'; expected [0xSTART-0xEND] (inclusive) or "
	  "base=0x... size=0x..." },
	{ "memblock_add: [\n", 0, 1, "missing ']'" },
	{ "memblock_add: 0x1000-0x1fff]\n", 0, 1, "missing '['" },
	{ "memblock_add: [0x1000]\n", 0, 1, "missing '-'" },
	{ "memblock_add: []\n", 0, 1, "missing '-'" },
	{ "memblock_add [0x1000-0x1fff]\n", 0, 1, "missing ':' after memblock_add" },
	{ "memblock_add: [0x1000-0x1fff] setup_arch+0x1c8/0x5b0 extra\n", 0, 1,
	  "unexpected text \"extra\"" },
	{ "memblock_add: [0x1000-0x1fff] setup_arch+0x1c8\n", 0, 1, "unexpected text" },
	{ "memblock_add: [0x1000-0x1fff] 9setup+0x1/0x2\n", 0, 1, "unexpected text" },
	{ "memblock_add: [0x1000-0x1fff] a+0x1/0x2 b+0x1/0x2\n", 0, 1,
	  "unexpected text \"b+0x1/0x2\"" },
	{ "memblock_add: [0x1000-0x1fff] # trailing comment\n", 0, 1, "comment must be on a line of its own" },
	{ LIT("memblock_add: [0x0-0xfff]\nmemblock_add: [0x0\0-0xfff]\n"), 2,
	  "binary data in text trace (byte 0x00" },
	{ "\xff\xfe\x01\x80garbage", 0, 1, "binary data in text trace" },
	{ "# fine\n# caf\xc3\xa9\n", 0, 2, "binary data" },
	{ "memblock_add: [0x0-0xfff]\rmemblock_add: [0x0-0xfff]\n", 0, 1, "byte 0x0d" },
	{ "memblock_set_node: [0x0-0xfff] type=physmem nid=0\n", 0, 1,
	  "bad type=physmem: expected type=memory or type=reserved" },
	{ "memblock_set_node: [0x0-0xfff] nid=0\n", 0, 1, "expected type=memory|reserved" },
	{ "memblock_add: [0x-0x10]\n", 0, 1, "empty start number" },
	{ "memblock_add: [0x0-]\n", 0, 1, "empty end number" },
	{ "memblock_trim_memory: 0x\n", 0, 1, "empty number" },
	{ "memblock_phys_alloc_range: 4096 align=0x1000 from=0x0 max_addr=0x100000\n", 0, 1,
	  "expected \"bytes\" after the size, found \"align=0x1000\"" },
	{ "memblock_phys_alloc_range: 4096 bytes align=0x1000 max_addr=0x100000\n", 0, 1,
	  "expected from=0xSTART" },
	{ "memblock_phys_alloc_range: 4096 bytes align=0x1000 from=0x0\n", 0, 1,
	  "missing max_addr=0xEND" },
	{ "memblock_phys_alloc_try_nid: -4096 bytes align=0x1000 nid=0\n", 0, 1,
	  "negative number \"-4096\" for size" },
	{ "memblock_add: base=0x1000 size=-0x10\n", 0, 1, "negative number \"-0x10\" for size" },
	{ "memblock_add: base=0x1000 sz=1\n", 0, 1, "expected size=0x... after base=, found \"sz=1\"" },
	{ "memblock_add: base=0x1000\n", 0, 1, "missing size=0x... after base=0x1000" },
	{ "memblock_add: [0x2000--0x1]\n", 0, 1, "bad end number" },
	{ "memblock_set_bottom_up: 2\n", 0, 1, "bad value \"2\": expected 0 or 1" },
	{ "memblock_set_current_limit:\n", 0, 1, "missing value" },
	{ "memblock_add: [0x0-0xfff]\r\n\r\nmemblock_add: [0x0-0xfff\r\n", 0, 3, "missing ']'" },
};

static void check_bad(const char *text, size_t len, unsigned line, const char *msg, int idx)
{
	struct mbd_trace t;
	struct mbd_diag d;
	struct mbd_config def;
	int r;

	mbd_trace_init(&t);
	mbd_config_default(&def);
	/* Pre-fill so we can see the error path clears it. */
	t.cfg.slab = true;
	memset(&d, 0, sizeof(d));
	r = mbd_text_parse(text, len, "t.mbt", &t, &d);
	if (r != -1 || d.line != line || !strstr(d.msg, msg) || strcmp(d.file, "t.mbt")) {
		fprintf(stderr, "bad input #%d: r=%d, want line %u and \"%s\", got: ", idx, r,
			line, msg);
		mbd_diag_print(stderr, &d);
	}
	MBD_CHECK(r == -1);
	MBD_CHECK_EQ_U64(d.line, line);
	MBD_CHECK(strstr(d.msg, msg) != NULL);
	MBD_CHECK_STR(d.file, "t.mbt");
	MBD_CHECK_EQ_U64(t.n_ops, 0);
	MBD_CHECK(config_eq(&t.cfg, &def));
	mbd_trace_free(&t);
}

static void test_bad_inputs(void)
{
	size_t n = sizeof(bad_inputs) / sizeof(bad_inputs[0]);
	char *s;

	MBD_CHECK(n >= 30);
	for (size_t i = 0; i < n; i++) {
		const struct bad *b = &bad_inputs[i];

		check_bad(b->text, b->len ? b->len : strlen(b->text), b->line, b->msg, (int)i);
	}
	/* 4097-byte line on line 2 (a comment, still too long). */
	s = malloc(8 + 4097 + 1);
	if (s) {
		memcpy(s, "config\n", 7);
		memset(s + 7, 'x', 4097);
		s[7] = '#';
		s[7 + 4097] = '\n';
		check_bad(s, 7 + 4097 + 1, 2, "line too long (4097 bytes)", -1);
		/* without a final newline */
		check_bad(s, 7 + 4097, 2, "line too long", -2);
		free(s);
	}
}

/* Fuzz-input text: expectations dropped, 64 ops at most, the rest unread. */
static void test_fuzz_text(void)
{
	static const char with_expect[] =
		"memblock_add: [0x0-0xfff]\nexpect memory cnt=2\nexpect reserved max=7\n";
	char *s = malloc(100 * 40 + 64), *name = malloc(3001);
	struct mbd_trace t;
	struct mbd_diag d;
	size_t len = 0;
	FILE *f;
	char *out = NULL;
	size_t out_len = 0;

	mbd_trace_init(&t);
	MBD_CHECK(mbd_text_parse(with_expect, sizeof(with_expect) - 1, "e.mbt", &t, &d) == 0);
	MBD_CHECK_EQ_U64(t.n_expects, 2);
	MBD_CHECK(mbd_text_parse_fuzz(with_expect, sizeof(with_expect) - 1, "e", &t, &d) == 0);
	MBD_CHECK_EQ_U64(t.n_expects, 0);
	MBD_CHECK_EQ_U64(t.n_ops, 1);
	/* a bad expect is still a bad input */
	MBD_CHECK(mbd_text_parse_fuzz("memblock_add: [0x0-0xfff]\nexpect memory cnt=x\n", 45,
				      "e", &t, &d) == -1);
	MBD_CHECK_EQ_U64(d.line, 2);
	if (!s || !name) {
		MBD_CHECK(!"out of memory");
		free(s);
		free(name);
		return;
	}
	for (int i = 0; i < 100; i++)
		len += (size_t)sprintf(s + len, "memblock_reserve: [0x%x-0x%x]\n", i * 0x2000,
				       i * 0x2000 + 0xfff);
	len += (size_t)sprintf(s + len, "not a trace line\n");
	MBD_CHECK(mbd_text_parse_fuzz(s, len, "many", &t, &d) == 0);
	MBD_CHECK_EQ_U64(t.n_ops, MBD_FUZZ_MAX_OPS);
	MBD_CHECK(mbd_text_parse(s, len, "many.mbt", &t, &d) == -1);
	MBD_CHECK_EQ_U64(d.line, 101);
	/* a lone CR at the very end is an error (a CRLF is not) */
	MBD_CHECK(mbd_text_parse("memblock_add: [0x0-0xfff]\r\nslab_available\r", 42, "cr.mbt",
				 &t, &d) == -1);
	MBD_CHECK_EQ_U64(d.line, 2);
	MBD_CHECK(strstr(d.msg, "byte 0x0d") != NULL);
	/* the file name is never cut in a diagnostic */
	memset(name, 'n', 3000);
	name[3000] = '\0';
	MBD_CHECK(mbd_text_parse("bogus\n", 6, name, &t, &d) == -1);
	f = open_memstream(&out, &out_len);
	if (f) {
		mbd_diag_print(f, &d);
		fclose(f);
		MBD_CHECK(out_len > 3000 && strncmp(out, name, 3000) == 0 && out[3000] == ':');
		free(out);
	}
	mbd_trace_free(&t);
	free(s);
	free(name);
}

static void test_diag_print(void)
{
	struct mbd_diag d;
	char out[512];
	FILE *f = tmpfile();
	size_t n;

	MBD_CHECK(f != NULL);
	if (!f)
		return;
	memset(&d, 0, sizeof(d));
	d.file = "trace.mbt";
	d.line = 7;
	strcpy(d.msg, "bad thing");
	mbd_diag_print(f, &d);
	d.line = 0;
	mbd_diag_print(f, &d);
	rewind(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = 0;
	MBD_CHECK_STR(out, "trace.mbt:7: error: bad thing\ntrace.mbt: error: bad thing\n");
	fclose(f);

	/* A real parse error in the documented form. */
	{
		struct mbd_trace t;
		const char *in = "# a\n\n\n\n\nconfig\nmemblock_add: [0x1000-0xfff\n";

		mbd_trace_init(&t);
		MBD_CHECK(mbd_text_parse(in, strlen(in), "trace.mbt", &t, &d) == -1);
		f = tmpfile();
		if (f) {
			mbd_diag_print(f, &d);
			rewind(f);
			n = fread(out, 1, sizeof(out) - 1, f);
			out[n] = 0;
			MBD_CHECK_STR(out, "trace.mbt:7: error: bad range \"[0x1000-0xfff\": missing ']'; "
				      "expected [0xSTART-0xEND] (inclusive) or base=0x... size=0x...\n");
			fclose(f);
		}
		mbd_trace_free(&t);
	}
}

/* ---- input.c ---- */

static char tmpdir[] = "/tmp/mbd-test-text.XXXXXX";

static void path_in(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", tmpdir, name);
}

static void put_file(const char *name, const void *data, size_t len)
{
	char p[512];
	FILE *f;

	path_in(p, sizeof(p), name);
	f = fopen(p, "wb");
	MBD_CHECK(f != NULL);
	if (!f)
		return;
	MBD_CHECK(fwrite(data, 1, len, f) == len);
	MBD_CHECK(fclose(f) == 0);
}

/* Number of directory entries whose names contain sub. */
static int count_entries(const char *dir, const char *sub)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!dp)
		return -1;
	while ((e = readdir(dp)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strstr(e->d_name, sub))
			n++;
	closedir(dp);
	return n;
}

static void check_loads_as_binary(const char *name, const uint8_t *data, size_t len)
{
	struct mbd_trace t, want;
	struct mbd_diag d;
	char p[512];

	path_in(p, sizeof(p), name);
	put_file(name, data, len);
	mbd_trace_init(&t);
	mbd_trace_init(&want);
	mbd_bin_decode(data, len, MBD_DECODER_STRUCTURED, &want);
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == 0);
	MBD_CHECK(trace_eq(&t, &want));
	mbd_trace_clear(&want);
	mbd_bin_decode(data, len, MBD_DECODER_NAIVE, &want);
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_NAIVE, &t, &d) == 0);
	MBD_CHECK(trace_eq(&t, &want));
	mbd_trace_free(&t);
	mbd_trace_free(&want);
}

static void test_load(void)
{
	static const char good[] = "config slab=1\nmemblock_add: [0x0-0xfff]\nslab_available\n";
	static const char bad[] = "# c\nmemblock_add: [0x0-0xfff]\nmemblock_add: [0x0-0xfff\n";
	static const uint8_t binary[] = { 0x00, 0x13, 0xff, 0x42, 0x7f, 0x80, 0x01, 0x02, 'm' };
	static const char words[] = "hello world\nmemblock_add: [0x0-0xfff]\n";
	static const char padded[] = "  \r\n\n\tmemblock_reserve: [0x0-0xfff]\n";
	struct mbd_trace t;
	struct mbd_diag d;
	char p[512], why[200];
	uint8_t *buf;
	size_t len;

	mbd_trace_init(&t);
	put_file("good.mbt", good, sizeof(good) - 1);
	path_in(p, sizeof(p), "good.mbt");
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == 0);
	MBD_CHECK_EQ_U64(t.n_ops, 2);
	MBD_CHECK(t.cfg.slab);
	MBD_CHECK(t.n_ops == 2 && t.lines[1] == 3);

	/* .mbt with an error: -1, the diag names the file and the line. */
	put_file("bad.mbt", bad, sizeof(bad) - 1);
	path_in(p, sizeof(p), "bad.mbt");
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == -1);
	MBD_CHECK_STR(d.file, p);
	MBD_CHECK_EQ_U64(d.line, 3);
	MBD_CHECK(strstr(d.msg, "missing ']'") != NULL);
	MBD_CHECK_EQ_U64(t.n_ops, 0);

	/* .mbt is text even when it holds binary: an error, not a decode. */
	put_file("bin.mbt", binary, sizeof(binary));
	path_in(p, sizeof(p), "bin.mbt");
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == -1);
	MBD_CHECK(strstr(d.msg, "binary data") != NULL);
	/* An empty .mbt is an empty trace. */
	put_file("empty.mbt", "", 0);
	path_in(p, sizeof(p), "empty.mbt");
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == 0);
	MBD_CHECK_EQ_U64(t.n_ops, 0);

	/* Sniffing: text without the .mbt suffix. */
	put_file("crash-1234", bad + 4, 26); /* "memblock_add: [0x0-0xfff]\n" */
	path_in(p, sizeof(p), "crash-1234");
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == 0);
	MBD_CHECK(t.n_ops == 1 && t.lines[0] == 1);
	put_file("comment-first", bad, sizeof(bad) - 1);
	path_in(p, sizeof(p), "comment-first");
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == -1);
	MBD_CHECK_EQ_U64(d.line, 3);
	put_file("padded", padded, sizeof(padded) - 1);
	path_in(p, sizeof(p), "padded");
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == 0);
	MBD_CHECK(t.n_ops == 1 && t.ops[0].kind == MBD_OP_RESERVE && t.lines[0] == 3);
	put_file("config-first", "config\n", 7);
	path_in(p, sizeof(p), "config-first");
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == 0);
	MBD_CHECK_EQ_U64(t.n_ops, 0);

	/* Not text: decoded as fuzzer bytes, exactly as mbd_bin_decode does. */
	check_loads_as_binary("binary.bin", binary, sizeof(binary));
	check_loads_as_binary("words", (const uint8_t *)words, sizeof(words) - 1);
	check_loads_as_binary("config-word", (const uint8_t *)"configure\n", 10);
	check_loads_as_binary("blank", (const uint8_t *)" \n\n", 3);
	check_loads_as_binary("empty", (const uint8_t *)"", 0);
	/* Text with one stray binary byte is binary (the sniff needs all text). */
	check_loads_as_binary("almost", (const uint8_t *)"memblock_add: [0x0-0xfff]\n\x01", 27);
	check_loads_as_binary("utf8", (const uint8_t *)"memblock_add: [0x0-0xfff] \xc3\xa9\n", 29);

	/* Unreadable: missing file, directory. */
	path_in(p, sizeof(p), "no-such-file.mbt");
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == -1);
	MBD_CHECK_STR(d.file, p);
	MBD_CHECK_EQ_U64(d.line, 0);
	MBD_CHECK(strstr(d.msg, strerror(ENOENT)) != NULL);
	MBD_CHECK(mbd_load_file(tmpdir, MBD_DECODER_STRUCTURED, &t, &d) == -1);
	MBD_CHECK(strstr(d.msg, strerror(EISDIR)) != NULL);

	/* mbd_read_file: exact bytes; a reason on failure, nothing read. */
	path_in(p, sizeof(p), "binary.bin");
	MBD_CHECK(mbd_read_file(p, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == 0);
	MBD_CHECK(len == sizeof(binary) && memcmp(buf, binary, len) == 0);
	free(buf);
	/* over the bound: refused, whatever the content */
	MBD_CHECK(mbd_read_file(p, sizeof(binary) - 1, &buf, &len, why, sizeof(why)) == -1);
	MBD_CHECK(strstr(why, "too large") != NULL && buf == NULL);
	path_in(p, sizeof(p), "empty");
	MBD_CHECK(mbd_read_file(p, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == 0);
	MBD_CHECK_EQ_U64(len, 0);
	free(buf);
	MBD_CHECK(mbd_read_file(tmpdir, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == -1);
	MBD_CHECK_STR(why, strerror(EISDIR));
	path_in(p, sizeof(p), "nope");
	MBD_CHECK(mbd_read_file(p, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == -1);
	MBD_CHECK_STR(why, strerror(ENOENT));
	/* a FIFO (no writer: opening it would wait forever), a device, a
	 * /proc file with no size: refused at once */
	path_in(p, sizeof(p), "fifo");
	MBD_CHECK(mkfifo(p, 0600) == 0);
	MBD_CHECK(mbd_read_file(p, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == -1);
	MBD_CHECK(strstr(why, "a FIFO") != NULL);
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == -1);
	MBD_CHECK(strstr(d.msg, "cannot read: a FIFO") != NULL);
	MBD_CHECK(unlink(p) == 0);
	MBD_CHECK(mbd_read_file("/dev/zero", MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == -1);
	MBD_CHECK(strstr(why, "character device") != NULL);
	MBD_CHECK(mbd_read_file("/proc/self/status", MBD_INPUT_MAX, &buf, &len, why,
				sizeof(why)) == -1);
	MBD_CHECK(strstr(why, "/proc") != NULL);
	mbd_trace_free(&t);
}

static void test_write_atomic(void)
{
	char dir[512], p[600], sub[600], link[600], why[200];
	uint8_t *buf;
	size_t len;
	struct stat st;
	char big[100000];
	mode_t mask = umask(022);

	path_in(dir, sizeof(dir), "out");
	MBD_CHECK(mkdir(dir, 0755) == 0);
	snprintf(p, sizeof(p), "%s/result.mbt", dir);

	/* New file. */
	MBD_CHECK(mbd_output_write(p, "first\n", 6, why, sizeof(why)) == 0);
	MBD_CHECK(mbd_read_file(p, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == 0);
	MBD_CHECK(len == 6 && memcmp(buf, "first\n", 6) == 0);
	free(buf);
	MBD_CHECK(stat(p, &st) == 0 && (st.st_mode & 0777) == 0644);
	/* Replace, shorter and then much longer; the mode is kept. */
	MBD_CHECK(chmod(p, 0640) == 0);
	MBD_CHECK(mbd_output_write(p, "2", 1, why, sizeof(why)) == 0);
	MBD_CHECK(mbd_read_file(p, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == 0);
	MBD_CHECK(len == 1 && buf[0] == '2');
	free(buf);
	MBD_CHECK(stat(p, &st) == 0 && (st.st_mode & 0777) == 0640);
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)(i * 7);
	MBD_CHECK(mbd_output_write(p, big, sizeof(big), why, sizeof(why)) == 0);
	MBD_CHECK(mbd_read_file(p, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == 0);
	MBD_CHECK(len == sizeof(big) && memcmp(buf, big, len) == 0);
	free(buf);
	MBD_CHECK(mbd_output_write(p, "", 0, why, sizeof(why)) == 0);
	MBD_CHECK(mbd_read_file(p, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == 0);
	MBD_CHECK_EQ_U64(len, 0);
	free(buf);
	MBD_CHECK_EQ_U64(count_entries(dir, ""), 1);
	MBD_CHECK_EQ_U64(count_entries(dir, ".mbdiff-out."), 0);

	/* A symlink is written through: the link stays, its target changes. */
	snprintf(link, sizeof(link), "%s/link.mbt", dir);
	MBD_CHECK(symlink("result.mbt", link) == 0);
	MBD_CHECK(mbd_output_write(link, "via", 3, why, sizeof(why)) == 0);
	MBD_CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
	MBD_CHECK(mbd_read_file(p, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == 0);
	MBD_CHECK(len == 3 && memcmp(buf, "via", 3) == 0);
	free(buf);
	/* ... and naming the input is refused, through the link too */
	MBD_CHECK(mbd_output_check(link, (const char *const[]){ p }, 1, why, sizeof(why)) == -1);
	MBD_CHECK(strstr(why, "is the input") != NULL);
	MBD_CHECK(mbd_output_check(link, (const char *const[]){ dir }, 1, why, sizeof(why)) == 0);
	MBD_CHECK(unlink(link) == 0);
	/* A device is written in place, never replaced. */
	MBD_CHECK(mbd_output_write("/dev/null", "x", 1, why, sizeof(why)) == 0);
	MBD_CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
	/* A FIFO nobody reads: an error at once, the FIFO kept. */
	snprintf(sub, sizeof(sub), "%s/fifo", dir);
	MBD_CHECK(mkfifo(sub, 0600) == 0);
	MBD_CHECK(mbd_output_write(sub, "x", 1, why, sizeof(why)) == -1);
	MBD_CHECK(strstr(why, "FIFO") != NULL);
	MBD_CHECK(lstat(sub, &st) == 0 && S_ISFIFO(st.st_mode));
	MBD_CHECK(unlink(sub) == 0);

	/* A directory is refused, its content untouched: no temp left. */
	snprintf(sub, sizeof(sub), "%s/target", dir);
	MBD_CHECK(mkdir(sub, 0755) == 0);
	snprintf(p, sizeof(p), "%s/target/keep", dir);
	MBD_CHECK(mbd_output_write(p, "k", 1, why, sizeof(why)) == 0);
	MBD_CHECK(mbd_output_check(sub, NULL, 0, why, sizeof(why)) == -1);
	MBD_CHECK(mbd_output_write(sub, "x", 1, why, sizeof(why)) == -1);
	MBD_CHECK(strstr(why, "a directory") != NULL);
	MBD_CHECK_EQ_U64(count_entries(dir, ".mbdiff-out."), 0);
	MBD_CHECK_EQ_U64(count_entries(dir, ""), 2);
	MBD_CHECK_EQ_U64(count_entries(sub, ""), 1);
	/* No such directory: refused by the check already. */
	snprintf(p, sizeof(p), "%s/missing/x.mbt", dir);
	MBD_CHECK(mbd_output_check(p, NULL, 0, why, sizeof(why)) == -1);
	MBD_CHECK(mbd_output_write(p, "x", 1, why, sizeof(why)) == -1);
	MBD_CHECK(strstr(why, strerror(ENOENT)) != NULL);
	MBD_CHECK_EQ_U64(count_entries(dir, ".mbdiff-out."), 0);
	umask(mask);
}

/* Remove the temporary directory tree (two levels are all we create). */
static void rm_tree(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	char p[1024];
	struct stat st;

	if (!dp)
		return;
	while ((e = readdir(dp))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			rm_tree(p);
		else
			unlink(p);
	}
	closedir(dp);
	rmdir(dir);
}

int main(void)
{
	test_format();
	test_round_trip_extremes();
	test_round_trip_random();
	test_round_trip_decoded();
	test_parse_dmesg();
	test_parse_misc();
	test_bad_inputs();
	test_diag_print();
	test_fuzz_text();
	MBD_CHECK(mkdtemp(tmpdir) != NULL);
	test_load();
	test_write_atomic();
	rm_tree(tmpdir);
	return mbd_test_done();
}
