// SPDX-License-Identifier: GPL-2.0
/*
 * mbdiff import (harness/import.c) and `expect` checkpoints (text.c,
 * expect.c, runner.c): each log form from a small inline sample, and the
 * checkpoint pass/fail path against the reference.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdlib.h>
#include <string.h>

#include "import_test.h"

static void test_prefixes(void)
{
	struct mbd_import_stats st;
	struct mbd_trace t;
	char *text;

	mbd_trace_init(&t);
	MBD_CHECK(imp("[    0.000000] memblock_reserve: [0x0000000000001000-0x0000000000001fff] a+0x1/0x2\n"
		      "> > [    0.000000][    T0] memblock_add: [0x0000000080000000-0x00000000bfffffff] b+0x1/0x2\n"
		      "memblock_remove: [0x0000000090000000-0x0000000090000fff]\r\n"
		      ">[ 12.345678] memblock_phys_free: [0x00001000-0x000017ff] c+0x1/0x2\n",
		      MBD_CONV_AUTO, &t, &st, &text) == 0);
	MBD_CHECK_EQ_U64(t.n_ops, 4);
	check_op(&t, 0, MBD_OP_RESERVE, 0x1000, 0x1000);
	check_op(&t, 1, MBD_OP_ADD, 0x80000000, 0x40000000);
	check_op(&t, 2, MBD_OP_REMOVE, 0x90000000, 0x1000);
	check_op(&t, 3, MBD_OP_PHYS_FREE, 0x1000, 0x800);
	MBD_CHECK_EQ_U64(st.unparsed, 0);
	/* every op is preceded by its source line */
	MBD_CHECK(text && strstr(text, "# t.log:2: > > [    0.000000][    T0] memblock_add: "
				 "[0x0000000080000000-0x00000000bfffffff] b+0x1/0x2\nmemblock_add:"));
	free(text);
	mbd_trace_free(&t);
}

static void test_conventions(void)
{
	const char *old = "memblock_reserve: [0x00000000000000-0x00000000790000] x+0x1/0x2\n"
			  "memblock_reserve: [0x00000003fdc000-0x00000003feb000] x+0x1/0x2\n"
			  "memblock_reserve: [0x00000000c10000-0x00000000c10000] x+0x1/0x2\n";
	struct mbd_import_stats st;
	struct mbd_trace t;

	mbd_trace_init(&t);
	MBD_CHECK(imp(old, MBD_CONV_AUTO, &t, &st, NULL) == 0);
	MBD_CHECK(st.conv == MBD_CONV_EXCLUSIVE && st.conv_auto);
	check_op(&t, 0, MBD_OP_RESERVE, 0, 0x790000);
	check_op(&t, 1, MBD_OP_RESERVE, 0x3fdc000, 0xf000);
	check_op(&t, 2, MBD_OP_RESERVE, 0xc10000, 0);     /* a == b: zero size */
	/* forcing inclusive reads the same lines one byte longer */
	MBD_CHECK(imp(old, MBD_CONV_INCLUSIVE, &t, &st, NULL) == 0);
	MBD_CHECK(st.conv == MBD_CONV_INCLUSIVE && !st.conv_auto);
	check_op(&t, 0, MBD_OP_RESERVE, 0, 0x790001);
	check_op(&t, 2, MBD_OP_RESERVE, 0xc10000, 1);
	/* inclusive zero size is end = start - 1; remove(base, ULLONG_MAX) wraps */
	MBD_CHECK(imp("memblock_free: [0x00000000bcf85000-0x00000000bcf84fff] p+0x2e/0x38\n"
		      "memblock_reserve: [0x0000000080000000-0x000000008fffffff] q+0x1/0x2\n"
		      "memblock_remove: [0x0000004000000000-0x0000003ffffffffe] r+0x94/0x258\n",
		      MBD_CONV_AUTO, &t, &st, NULL) == 0);
	MBD_CHECK(st.conv == MBD_CONV_INCLUSIVE);
	check_op(&t, 0, MBD_OP_PHYS_FREE, 0xbcf85000, 0);
	check_op(&t, 2, MBD_OP_REMOVE, 0x4000000000, UINT64_MAX);
	mbd_trace_free(&t);
}

static void test_flags_and_allocs(void)
{
	struct mbd_import_stats st;
	struct mbd_trace t;

	mbd_trace_init(&t);
	MBD_CHECK(imp("memblock_reserve: [0x00000088008000-0x0000008802bf3b] flags 0x0 arm_memblock_init+0xf/0x48\n"
		      "memblock_virt_alloc_try_nid: 28 bytes align=0x0 nid=-1 from=0x0 max_addr=0x0 s+0x295/0x3a6\n"
		      "memblock_reserve: [0x000000883fbd00-0x000000883fbd1b] flags 0x0 memblock_virt_alloc_internal+0x8d/0xe0\n"
		      "memblock_phys_alloc_range: 4096 bytes align=0x1000 from=0x0000000000000000 max_addr=0x0000000000000000 a+0x14/0x1c\n"
		      "memblock_reserve: [0x000000017ffff000-0x000000017fffffff] memblock_alloc_range_nid+0xb8/0x128\n"
		      "__memblock_free_late: [0x000000017ffff000-0x000000017fffffff] f+0x1/0x2\n"
		      "this line is not a memblock line\n",
		      MBD_CONV_AUTO, &t, &st, NULL) == 0);
	/* requests are not replayed: the reservation they made is */
	MBD_CHECK_EQ_U64(t.n_ops, 3);
	MBD_CHECK_EQ_U64(st.alloc_requests, 2);
	check_op(&t, 0, MBD_OP_RESERVE, 0x88008000, 0x23f3c);
	check_op(&t, 1, MBD_OP_RESERVE, 0x883fbd00, 0x1c);
	check_op(&t, 2, MBD_OP_RESERVE, 0x17ffff000, 0x1000);
	MBD_CHECK_EQ_U64(st.unparsed, 1);
	MBD_CHECK_EQ_U64(st.lines, 7);
	mbd_trace_free(&t);
}

/* A value the trace cannot hold: refused at its log line, never wrapped. */
static void check_refused(const char *log, unsigned line, const char *msg)
{
	struct mbd_import_src s = { "t.log", log, strlen(log), "dir/t.log" };
	struct mbd_import_opts o = { MBD_CONV_AUTO, 0, 0, 0 };
	struct mbd_import_stats st;
	char *out = NULL, where[64];
	size_t len;
	int rc = mbd_import(&s, 1, &o, &out, &len, &st, NULL);

	MBD_CHECK_EQ_U64(rc, (uint64_t)-2);
	if (rc == -2) {
		snprintf(where, sizeof(where), "dir/t.log:%u: error: ", line);
		MBD_CHECK(strncmp(st.error, where, strlen(where)) == 0);
		if (!strstr(st.error, msg))
			fprintf(stderr, "expected \"%s\" in \"%s\"\n", msg, st.error);
		MBD_CHECK(strstr(st.error, msg) != NULL);
	}
	free(out);
}

static void test_values_range_checked(void)
{
	struct mbd_import_stats st;
	struct mbd_trace t;
	char *text = NULL;

	check_refused("memblock_add_node: [0x1000-0x1fff] nid=100 flags=0x0 x\n", 1, "nid 100 out of range");
	check_refused("# h\nmemblock_add_node: [0x1000-0x1fff] nid=-5 flags=0x0 x\n", 2, "nid -5 out");
	check_refused("memblock_add_node: [0x1000-0x1fff] nid=4294967295 flags=0x0 x\n", 1,
		      "nid 4294967295 out of range");
	check_refused("memblock_add_node: [0x1000-0x1fff] nid=1 flags=0x100000000 x\n", 1, "flags");
	check_refused("memblock_add: [0x1000-0x1fff] x\n"
		      "memblock: memory is doubled to 99999999999999999999 at [0x1-0x2]\n", 2,
		      "does not fit in 64 bits");
	check_refused("memblock_add: [0x1000-0x1fff] x\n"
		      "memblock: memory is doubled to 0 at [0x1-0x2]\n", 2, "array size 0 out of range");
	check_refused("memblock_add: [0x1000-0x1fff] x\nMEMBLOCK configuration:\n"
		      " memory.cnt  = 0x1\n"
		      " memory[0x0]\t[0x1000-0x1fff], 0x1000 bytes on node 77 flags: 0x0\n", 4,
		      "nid 77 out of range");
	check_refused("node   99: [mem 0x0000000000001000-0x0000000000001fff]\n", 1, "nid 99 out");
	/* fuzz_import's first find: "[0xN]B" with no ']' after B read past
	 * a NULL; now the line is just not part of the dump, which is then
	 * a checkpoint with nothing in it: refused at the dump's header */
	check_refused("memblock_add: [0x1000-0x1fff] x\nMEMBLOCK configuration:\n"
		      " memory[0x0]0x178\n", 2, "a checkpoint with nothing to check");
	/* nid=- in the caller symbol is not the node's sign */
	mbd_trace_init(&t);
	MBD_CHECK(imp("memblock_add_node: [0x1000-0x1fff] nid=1 flags=0x0 f_nid=-x+0x1\n",
		      MBD_CONV_AUTO, &t, &st, NULL) == 0);
	MBD_CHECK(t.n_ops == 1 && t.ops[0].nid == 1);
	/* a dump longer than any fixed table keeps every region */
	{
		size_t cap = 3000 * 90 + 200, n = 0;
		char *log = malloc(cap);

		MBD_CHECK(log != NULL);
		if (log) {
			n += (size_t)snprintf(log + n, cap - n, "memblock_add: [0x0-0xfff] x\n"
					      "MEMBLOCK configuration:\n memory.cnt  = 0xbb8\n");
			for (unsigned i = 0; i < 3000; i++)
				n += (size_t)snprintf(log + n, cap - n, " memory[0x%x]\t[0x%x-0x%x], "
						      "0x1000 bytes flags: 0x0\n", i, i * 0x2000u,
						      i * 0x2000u + 0xfffu);
			MBD_CHECK(imp(log, MBD_CONV_AUTO, &t, &st, &text) == 0);
			MBD_CHECK_EQ_U64(t.n_expects, 3001);
			free(text);
			free(log);
		}
	}
	/* odd names stay inside their comment line */
	{
		const char *log = "memblock_add: [0x1000-0x1fff] x\n";
		struct mbd_import_src s = { "a\nb\xc3\xa9*/.log", log, strlen(log), NULL };
		struct mbd_diag d;
		char *out = NULL;
		size_t len;

		MBD_CHECK(mbd_import(&s, 1, &(struct mbd_import_opts){ MBD_CONV_AUTO, 0, 0, 0 }, &out,
				     &len, &st, NULL) == 0);
		MBD_CHECK(out && mbd_text_parse(out, len, "n.mbt", &t, &d) == 0);
		MBD_CHECK(out && strstr(out, "a\\x0ab\\xc3\\xa9*\\x2f.log") != NULL);
		free(out);
	}
	mbd_trace_free(&t);
}

static void test_unparsed_listed(void)
{
	const char *log = "memblock_add: [0x1000-0x1fff]\nfoo bar\nmemblock_add: [0x1000-garbage]\n";
	struct mbd_import_src s = { "u.log", log, strlen(log), NULL };
	struct mbd_import_stats st;
	char *out = NULL, *list = NULL;
	size_t len, llen;
	FILE *f = open_memstream(&list, &llen);

	MBD_CHECK(f != NULL);
	if (!f)
		return;
	MBD_CHECK(mbd_import(&s, 1, &(struct mbd_import_opts){ MBD_CONV_AUTO, 0, 0, 0 }, &out, &len,
			     &st, f) == 0);
	fclose(f);
	MBD_CHECK_EQ_U64(st.unparsed, 2);
	MBD_CHECK(list && strstr(list, "u.log:2: foo bar\n") && strstr(list, "u.log:3: memblock_add"));
	MBD_CHECK(out && strstr(out, "# u.log:2 (not imported): foo bar\n"));
	free(out);
	free(list);
}

static void test_e820(void)
{
	struct mbd_import_stats st;
	struct mbd_trace t;

	mbd_trace_init(&t);
	MBD_CHECK(imp("[    0.000000] BIOS-provided physical RAM map:\n"
		      "[    0.000000] BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable\n"
		      "[    0.000000] BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved\n"
		      "[    0.000000] BIOS-e820: [mem 0x0000000000100000-0x00000000bffdffff] usable\n",
		      MBD_CONV_AUTO, &t, &st, NULL) == 0);
	MBD_CHECK_EQ_U64(t.n_ops, 4);
	MBD_CHECK(t.n_ops == 4 && t.ops[0].kind == MBD_OP_ALLOW_RESIZE);
	check_op(&t, 1, MBD_OP_ADD, 0, 0x9fc00);
	check_op(&t, 2, MBD_OP_ADD, 0x100000, 0xbfee0000);
	MBD_CHECK(t.n_ops == 4 && t.ops[3].kind == MBD_OP_TRIM && t.ops[3].value == 0x1000);
	MBD_CHECK_EQ_U64(st.map_entries, 3);
	mbd_trace_free(&t);
}

static void test_of_and_nodes(void)
{
	struct mbd_import_stats st;
	struct mbd_trace t;

	mbd_trace_init(&t);
	/* node ranges come last in the log but are memory: they go first */
	MBD_CHECK(imp("OF: reserved mem: 0x0000000086000000..0x00000000862fffff (3072 KiB) nomap non-reusable tz@86000000\n"
		      "OF: reserved mem: 0x0000000090000000..0x00000000900fffff (1024 KiB) map reusable cma\n"
		      "Early memory node ranges\n"
		      "  node   0: [mem 0x0000000080000000-0x00000000ffffffff]\n"
		      "  node   1: [mem 0x0000000880000000-0x00000008ffffffff]\n",
		      MBD_CONV_AUTO, &t, &st, NULL) == 0);
	MBD_CHECK_EQ_U64(t.n_ops, 4);
	check_op(&t, 0, MBD_OP_ADD_NODE, 0x80000000, 0x80000000);
	check_op(&t, 1, MBD_OP_ADD_NODE, 0x880000000, 0x80000000);
	MBD_CHECK(t.n_ops > 1 && t.ops[1].nid == 1);
	check_op(&t, 2, MBD_OP_MARK_NOMAP, 0x86000000, 0x300000);
	check_op(&t, 3, MBD_OP_RESERVE, 0x90000000, 0x100000);
	mbd_trace_free(&t);
}

static const char dump_log[] =
	"[    0.000000] MEMBLOCK configuration:\n"
	"[    0.000000]  memory size = 0x0000000000400000 reserved size = 0x0000000000001000\n"
	"[    0.000000]  memory.cnt  = 0x1\n"
	"[    0.000000]  memory[0x0]\t[0x0000000088000000-0x00000000883fffff], 0x0000000000400000 bytes on node 0 flags: 0x0\n"
	"[    0.000000]  reserved.cnt  = 0x1\n"
	"[    0.000000]  reserved[0x0]\t[0x0000000088000000-0x0000000088000fff], 0x0000000000001000 bytes flags: 0x0\n"
	"[    0.000000] memblock_reserve: [0x0000000088100000-0x0000000088100fff] x+0x1/0x2\n"
	"[    0.000000] MEMBLOCK configuration:\n"
	"[    0.000000]  memory size = 0x0000000000400000 reserved size = 0x0000000000002000\n"
	"[    0.000000]  memory.cnt  = 0x1\n"
	"[    0.000000]  memory[0x0]\t[0x0000000088000000-0x00000000883fffff], 0x0000000000400000 bytes on node 0 flags: 0x0\n"
	"[    0.000000]  reserved.cnt  = 0x2\n"
	"[    0.000000]  reserved[0x0]\t[0x0000000088000000-0x0000000088000fff], 0x0000000000001000 bytes flags: 0x0\n"
	"[    0.000000]  reserved[0x1]\t[0x0000000088100000-0x0000000088100fff], 0x0000000000001000 bytes flags: 0x0\n";

static void test_dumps(void)
{
	struct mbd_import_stats st;
	struct mbd_verdict v;
	struct mbd_trace t;

	mbd_trace_init(&t);
	MBD_CHECK(imp(dump_log, MBD_CONV_AUTO, &t, &st, NULL) == 0);
	MBD_CHECK_EQ_U64(st.dumps, 2);
	MBD_CHECK_EQ_U64(st.checkpoints, 2);
	/* the first dump is the starting state: add_node (it has a node), reserve;
	 * the second's node is set as shown (memblock_set_node is not logged) */
	MBD_CHECK_EQ_U64(t.n_ops, 4);
	check_op(&t, 0, MBD_OP_ADD_NODE, 0x88000000, 0x400000);
	check_op(&t, 1, MBD_OP_RESERVE, 0x88000000, 0x1000);
	check_op(&t, 2, MBD_OP_RESERVE, 0x88100000, 0x1000);
	check_op(&t, 3, MBD_OP_SET_NODE, 0x88000000, 0x400000);
	/* each dump: a head and a region line per type (2 + 1 + 1 + 1, then 1 + 1 + 1 + 2) */
	MBD_CHECK_EQ_U64(t.n_expects, 9);
	MBD_CHECK(t.n_expects == 9 && t.expects[0].after_op == 2 && t.expects[4].after_op == 4);
	MBD_CHECK(t.n_expects == 9 && t.expects[8].what == MBD_EXPECT_REGION &&
		  t.expects[8].index == 1 && t.expects[8].base == 0x88100000);
	MBD_CHECK(t.n_expects == 9 && (t.expects[1].have & MBD_EXPECT_HAS_NID) &&
		  t.expects[1].nid == 0);
	MBD_CHECK_EQ_U64(run_ref(&t, &v), 0);
	MBD_CHECK(!v.divergent);
	mbd_trace_free(&t);
}

static void test_doubled(void)
{
	struct mbd_import_stats st;
	struct mbd_trace t;

	mbd_trace_init(&t);
	MBD_CHECK(imp("memblock_reserve: [0x000000017ffff000-0x000000017fffffff] m+0xb8/0x128\n"
		      "memblock: reserved is doubled to 256 at [0x000000017fffd000-0x000000017fffe7ff]\n"
		      "memblock_reserve: [0x000000017fffd000-0x000000017fffe7ff] memblock_double_array+0x1/0x2\n",
		      MBD_CONV_AUTO, &t, &st, NULL) == 0);
	/* the array's own reservation is made by the model: not an op */
	MBD_CHECK_EQ_U64(t.n_ops, 1);
	MBD_CHECK(t.cfg.resize);
	MBD_CHECK(t.n_expects == 1 && t.expects[0].type == MBD_TYPE_RESERVED &&
		  t.expects[0].have == MBD_EXPECT_HAS_MAX && t.expects[0].max == 256);
	mbd_trace_free(&t);
}

static void test_nothing(void)
{
	struct mbd_import_stats st;
	struct mbd_trace t;

	mbd_trace_init(&t);
	MBD_CHECK(imp("Linux version 6.1\nCommand line: quiet\n", MBD_CONV_AUTO, &t, &st, NULL) == 0);
	MBD_CHECK_EQ_U64(st.ops + st.checkpoints, 0);
	/* the version line is recognised (the era), the command line is not */
	MBD_CHECK_EQ_U64(st.unparsed, 1);
	MBD_CHECK_EQ_U64(st.known, 1);
	MBD_CHECK(st.era.major == 6 && st.era.minor == 1 && st.era.line == 1 && !st.era.exact);
	MBD_CHECK_STR(st.era.model, "mainline-6.12");
	mbd_trace_free(&t);
}

static int parse(const char *s, struct mbd_trace *t, struct mbd_diag *d)
{
	return mbd_text_parse(s, strlen(s), "e.mbt", t, d);
}

static void test_expect_text(void)
{
	const char *src = "memblock_add: [0x1000-0x2fff]\n"
			  "expect memory cnt=1 total=0x2000 max=128\n"
			  "expect memory [0x1000-0x2fff] flags=0x0 nid=64\n"
			  "memblock_reserve: [0x1000-0x1fff]\n"
			  "expect reserved cnt=1\n";
	struct mbd_trace t, u;
	struct mbd_diag d;
	char *buf = NULL;
	size_t len;
	FILE *f;

	mbd_trace_init(&t);
	mbd_trace_init(&u);
	MBD_CHECK(parse(src, &t, &d) == 0);
	MBD_CHECK_EQ_U64(t.n_expects, 3);
	/* printed and parsed back: the same checkpoints */
	f = open_memstream(&buf, &len);
	MBD_CHECK(f && mbd_text_write(f, &t) == 0);
	if (f)
		fclose(f);
	MBD_CHECK(buf && parse(buf, &u, &d) == 0);
	MBD_CHECK_EQ_U64(u.n_expects, 3);
	for (size_t i = 0; i < 3 && i < u.n_expects; i++) {
		MBD_CHECK_EQ_U64(u.expects[i].after_op, t.expects[i].after_op);
		MBD_CHECK_EQ_U64(u.expects[i].what, t.expects[i].what);
		MBD_CHECK_EQ_U64(u.expects[i].have, t.expects[i].have);
		MBD_CHECK_EQ_U64(u.expects[i].total, t.expects[i].total);
		MBD_CHECK_EQ_U64(u.expects[i].base, t.expects[i].base);
		MBD_CHECK_EQ_U64(u.expects[i].size, t.expects[i].size);
	}
	free(buf);
	MBD_CHECK(parse("expect memory cnt=0\n", &t, &d) != 0 && strstr(d.msg, "before the first op"));
	MBD_CHECK(parse("memblock_add: [0x1000-0x1fff]\nexpect memory [0x1000-0x1fff]\n", &t, &d) != 0 &&
		  strstr(d.msg, "without a preceding"));
	MBD_CHECK(parse("memblock_add: [0x1000-0x1fff]\nexpect disk cnt=1\n", &t, &d) != 0 &&
		  d.line == 2);
	MBD_CHECK(parse("memblock_add: [0x1000-0x1fff]\nexpect memory cnt=1 flags=0x0\n", &t, &d) != 0);
	MBD_CHECK(parse("memblock_add: [0x1000-0x1fff]\nexpect memory\n", &t, &d) != 0);
	mbd_trace_free(&t);
	mbd_trace_free(&u);
}

/* One checkpoint after memblock_add(0x1000, 0x2000); returns the verdict. */
static int expect_run(const char *line, struct mbd_verdict *v)
{
	char src[512];
	struct mbd_trace t;
	struct mbd_diag d;
	int rc;

	snprintf(src, sizeof(src), "memblock_add: [0x1000-0x2fff]\n%s\nmemblock_add: [0x8000-0x8fff]\n",
		 line);
	mbd_trace_init(&t);
	if (parse(src, &t, &d)) {
		mbd_diag_print(stderr, &d);
		mbd_trace_free(&t);
		return -1;
	}
	rc = run_ref(&t, v);
	mbd_trace_free(&t);
	return rc;
}

static void test_expect_check(void)
{
	struct mbd_verdict v;

	MBD_CHECK_EQ_U64(expect_run("expect memory cnt=1 total=0x2000 max=128\n"
				    "expect memory [0x1000-0x2fff] flags=0x0", &v), 0);
	MBD_CHECK(!v.divergent && v.ops_run == 2);
	MBD_CHECK_EQ_U64(expect_run("expect memory cnt=2", &v), 1);
	MBD_CHECK(v.divergent && v.cls == MBD_CLASS_LAYOUT && v.where == MBD_WHERE_MEMORY &&
		  v.op_index == 0);
	MBD_CHECK_STR(v.signature, "mbdiff: expectation reference memory/layout at op 1 memblock_add");
	MBD_CHECK(strstr(v.detail, "memory.cnt is 1, expected 2") != NULL);
	MBD_CHECK_EQ_U64(expect_run("expect reserved max=256", &v), 1);
	MBD_CHECK(v.cls == MBD_CLASS_CAPACITY && v.where == MBD_WHERE_RESERVED);
	MBD_CHECK_EQ_U64(expect_run("expect memory cnt=1\nexpect memory [0x1000-0x1fff]", &v), 1);
	MBD_CHECK(v.cls == MBD_CLASS_COVERAGE);
	MBD_CHECK_EQ_U64(expect_run("expect memory cnt=1\nexpect memory [0x1000-0x2fff] flags=0x4", &v), 1);
	MBD_CHECK(v.cls == MBD_CLASS_COVERAGE && strstr(v.detail, "flags"));
	MBD_CHECK_EQ_U64(expect_run("expect memory cnt=1\nexpect memory [0x1000-0x2fff] nid=0", &v), 1);
	MBD_CHECK(v.cls == MBD_CLASS_COVERAGE && strstr(v.detail, "nid 64, expected 0"));
}

int main(void)
{
	test_prefixes();
	test_conventions();
	test_flags_and_allocs();
	test_unparsed_listed();
	test_values_range_checked();
	test_e820();
	test_of_and_nodes();
	test_dumps();
	test_doubled();
	test_nothing();
	test_expect_text();
	test_expect_check();
	return mbd_test_done();
}
