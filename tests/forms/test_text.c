// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the .mbt text form (harness/text.c) and file loading
 * (harness/input.c): exact round trips and the printed forms (here),
 * dmesg-style lines, a table of malformed inputs with the line and message
 * each must produce (text_cases_parse.c), and the file helpers on a
 * temporary directory (text_cases_files.c); text_test.h what they share.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>

#include "mbd_test.h"
#include "mbd_input.h"
#include "mbd_text.h"
#include "text_test.h"

/* the counts of every file of this test (mbd_test.h) */
int mbd_test_passed, mbd_test_failed;

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
