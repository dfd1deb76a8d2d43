// SPDX-License-Identifier: GPL-2.0
/* unit/test_text's parser cases: dmesg lines, other forms, bad inputs, fuzz text, diagnostics. */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>

#include "mbd_test.h"
#include "mbd_input.h"
#include "mbd_text.h"
#include "text_test.h"

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

void test_parse_dmesg(void)
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

void test_parse_misc(void)
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

void test_bad_inputs(void)
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
void test_fuzz_text(void)
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

void test_diag_print(void)
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
