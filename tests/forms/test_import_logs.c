// SPDX-License-Identifier: GPL-2.0
/*
 * mbdiff import of the log forms real boots give (docs/real-boots.md,
 * docs/boot-lab.md): pasted prefixes, debugfs views, logs wrapped at 80
 * columns, memblock's own frees, v6.16 reservations, 64K-page EFI entries,
 * old e820 updates, the state before memblock=debug, initial array sizes.
 */
#include <stdio.h>

#include "import_test.h"

/* Import with options; returns mbd_import's result, the text in *text. */
static int imp_opts(const char *log, const struct mbd_import_opts *o, struct mbd_import_stats *st,
		    char **text)
{
	struct mbd_import_src s = { "t.log", log, strlen(log), NULL };
	size_t len;

	*text = NULL;
	return mbd_import(&s, 1, o, text, &len, st, NULL);
}

static void test_more_prefixes(void)
{
	struct mbd_import_stats st;
	struct mbd_trace t;

	mbd_trace_init(&t);
	MBD_CHECK(imp("[Thu Dec  3 17:29:31 2026] memblock_add: [0x0000000080000000-0x00000000bfffffff] a+0x1/0x2\n"
		      "Dec  3 17:29:31 host kernel: [    0.000000] memblock_reserve: [0x0000000080000000-0x0000000080000fff] b+0x1/0x2\n"
		      "Dec 03 17:29:31 host kernel: memblock_reserve: [0x0000000080002000-0x0000000080002fff]\n"
		      "<6>[    0.000000] memblock_remove: [0x00000000b0000000-0x00000000b0000fff] c+0x1/0x2\n"
		      "2026-12-03T17:29:31,123456+00:00 memblock_phys_free: [0x0000000080000000-0x00000000800007ff]\n"
		      "[Thu Dec  3 17:29:31 2026] Kernel command line: memblock=debug\n",
		      MBD_CONV_AUTO, &t, &st, NULL) == 0);
	MBD_CHECK_EQ_U64(t.n_ops, 5);
	check_op(&t, 0, MBD_OP_ADD, 0x80000000, 0x40000000);
	check_op(&t, 1, MBD_OP_RESERVE, 0x80000000, 0x1000);
	check_op(&t, 2, MBD_OP_RESERVE, 0x80002000, 0x1000);
	check_op(&t, 3, MBD_OP_REMOVE, 0xb0000000, 0x1000);
	check_op(&t, 4, MBD_OP_PHYS_FREE, 0x80000000, 0x800);
	MBD_CHECK_EQ_U64(st.unparsed, 1); /* the command line */
	mbd_trace_free(&t);
}

static const char debugfs_log[] =
	"memblock_add: [0x0000000040000000-0x000000007fffffff] a+0x1/0x2\n"
	"memblock_reserve: [0x0000000040200000-0x0000000040ffffff] b+0x1/0x2\n"
	"memblock_reserve: [0x0000000041000000-0x0000000041000fff] b+0x1/0x2\n"
	"# cat /sys/kernel/debug/memblock/memory\n"
	"   0: 0x0000000040000000..0x000000007fffffff\n"
	"$ cat /sys/kernel/debug/memblock/reserved\n"
	"   0: 0x0000000040200000..0x0000000041000fff\n";

static void test_debugfs(void)
{
	struct mbd_import_stats st;
	struct mbd_verdict v;
	struct mbd_trace t;

	mbd_trace_init(&t);
	MBD_CHECK(imp(debugfs_log, MBD_CONV_AUTO, &t, &st, NULL) == 0);
	MBD_CHECK_EQ_U64(st.checkpoints, 2);
	MBD_CHECK_EQ_U64(t.n_expects, 4);
	MBD_CHECK(t.n_expects == 4 && t.expects[0].type == MBD_TYPE_MEMORY &&
		  t.expects[0].cnt == 1 && t.expects[1].size == 0x40000000 &&
		  t.expects[2].type == MBD_TYPE_RESERVED && t.expects[3].base == 0x40200000 &&
		  t.expects[3].size == 0xe01000 &&
		  !(t.expects[3].have & (MBD_EXPECT_HAS_FLAGS | MBD_EXPECT_HAS_NID)));
	MBD_CHECK_EQ_U64(run_ref(&t, &v), 0);
	MBD_CHECK(!v.divergent);
	mbd_trace_free(&t);

	/* the newer form: node and flag names; a flag the model lacks is not checked */
	mbd_trace_init(&t);
	MBD_CHECK(imp("memblock_add: [0x0000000040000000-0x000000007fffffff] a+0x1/0x2\n"
		      "memblock_reserve: [0x0000000040200000-0x0000000040ffffff] b+0x1/0x2\n"
		      "mbdiff-boot-lab: begin memory\n"
		      "   0: 0x0000000040000000..0x000000007fffffff    0 NONE\n"
		      "mbdiff-boot-lab: begin reserved\n"
		      "   0: 0x0000000040200000..0x0000000040ffffff    x UNKNOWN\n",
		      MBD_CONV_AUTO, &t, &st, NULL) == 0);
	MBD_CHECK_EQ_U64(t.n_expects, 4);
	MBD_CHECK(t.n_expects == 4 && (t.expects[1].have & MBD_EXPECT_HAS_NID) &&
		  t.expects[1].nid == 0 && (t.expects[1].have & MBD_EXPECT_HAS_FLAGS) &&
		  !(t.expects[3].have & (MBD_EXPECT_HAS_FLAGS | MBD_EXPECT_HAS_NID)));
	/* the node is set as shown (memblock_set_node is not logged) */
	MBD_CHECK(t.n_ops == 3 && t.ops[2].kind == MBD_OP_SET_NODE && t.ops[2].nid == 0);
	MBD_CHECK_EQ_U64(run_ref(&t, &v), 0);
	MBD_CHECK(!v.divergent);
	mbd_trace_free(&t);
}

/*
 * v7.2+ free_reserved_area() removes the initrd and the init sections from
 * memblock.reserved unlogged: each "Freeing NAME memory: NK" becomes a
 * memblock_phys_free of the hole the final view shows, if its whole pages
 * make N KiB; a hole no line accounts for stays a difference. RSV_KERN in
 * the view is checked (memblock_reserve_kern sets it).
 */
static const char frees_log[] =
	"memblock_add: [0x0000000040000000-0x000000007fffffff] a+0x1/0x2\n"
	"__memblock_reserve: [0x0000000040200000-0x0000000042acffff] nid=-1 flags=0 b+0x1/0x2\n"
	"__memblock_reserve: [0x0000000048000000-0x00000000480f0fff] nid=-1 flags=0 b+0x1/0x2\n"
	"__memblock_reserve: [0x000000007fff0000-0x000000007fffffff] nid=-1 flags=20 memblock_alloc_range_nid+0x1/0x2\n"
	"__memblock_reserve: [0x000000007ffe0000-0x000000007ffe0fff] nid=-1 flags=0 c+0x1/0x2\n"
	"[    1.313462] Freeing initrd memory: 960K\n"
	"[    2.609640] Freeing unused kernel memory: 2560K\n"
	"mbdiff-boot-lab: begin reserved\n"
	"   0: 0x0000000040200000..0x000000004226ffff    x NONE\n"
	"   1: 0x00000000424f0000..0x0000000042acffff    x NONE\n"
	"   2: 0x00000000480f0d7e..0x00000000480f0fff    x NONE\n"
	"   3: 0x000000007fff0000..0x000000007fffffff    x RSV_KERN\n";

static void test_unlogged_frees(void)
{
	struct mbd_import_stats st;
	struct mbd_verdict v;
	struct mbd_trace t;
	char *text;
	size_t n;

	mbd_trace_init(&t);
	MBD_CHECK(imp(frees_log, MBD_CONV_AUTO, &t, &st, &text) == 0);
	n = t.n_ops;
	/* the 4K reservation at 0x7ffe0000 is gone without a line: not inferred */
	MBD_CHECK_EQ_U64(n, 7);
	if (n == 7) {
		check_op(&t, 5, MBD_OP_PHYS_FREE, 0x42270000, 0x280000);
		check_op(&t, 6, MBD_OP_PHYS_FREE, 0x48000000, 0xf0d7e);
	}
	MBD_CHECK(text && strstr(text, "inferred from t.log:6 (\"Freeing ... memory: 960K\")"));
	MBD_CHECK(t.n_expects == 5 && (t.expects[4].have & MBD_EXPECT_HAS_FLAGS) &&
		  t.expects[4].flags == MBD_FLAG_RSRV_KERN);
	MBD_CHECK_EQ_U64(run_ref(&t, &v), 1); /* only the unexplained hole differs */
	MBD_CHECK(strstr(v.detail, "reserved.cnt is 5, expected 4") != NULL);
	free(text);
	mbd_trace_free(&t);
}

/*
 * memblock_free_all() (just before "Memory: ... available") gives every
 * reserved region the node of its memory, unlogged: two RSRV_KERN
 * neighbours on nodes -1 and 0 then merge, as the final view shows.
 */
static void test_free_all_nodes(void)
{
	struct mbd_import_stats st;
	struct mbd_verdict v;
	struct mbd_trace t;
	char *text;

	mbd_trace_init(&t);
	MBD_CHECK(imp("memblock_add: [0x0000000040000000-0x000000007fffffff] a+0x1/0x2\n"
		      "__memblock_reserve: [0x000000007fff0000-0x000000007fffffff] nid=0 flags=20 m+0x1/0x2\n"
		      "MEMBLOCK configuration:\n"
		      " memory size = 0x0000000040000000 reserved size = 0x0000000000010000\n"
		      " memory.cnt  = 0x1\n"
		      " memory[0x0]\t[0x0000000040000000-0x000000007fffffff], 0x0000000040000000 bytes on node 0 flags: 0x0\n"
		      " reserved.cnt  = 0x1\n"
		      " reserved[0x0]\t[0x000000007fff0000-0x000000007fffffff], 0x0000000000010000 bytes on node 0 flags: 0x20\n"
		      "__memblock_reserve: [0x000000007ffe0000-0x000000007ffeffff] nid=-1 flags=20 m+0x1/0x2\n"
		      "Memory: 829780K/1048576K available (17472K kernel code)\n"
		      "mbdiff-boot-lab: begin reserved\n"
		      "   0: 0x000000007ffe0000..0x000000007fffffff    0 RSV_KERN\n",
		      MBD_CONV_AUTO, &t, &st, &text) == 0);
	MBD_CHECK(text && strstr(text, "memmap_init_reserved_pages()"));
	MBD_CHECK(text && strstr(text, "memblock_set_node: [0x0000000040000000-0x000000007fffffff] "
				 "type=reserved nid=0"));
	MBD_CHECK_EQ_U64(run_ref(&t, &v), 0);
	MBD_CHECK(!v.divergent);
	free(text);
	mbd_trace_free(&t);
}

/* Logs that must not import: what they announce cannot be checked. */
static void test_refused(void)
{
	static const struct {
		const char *log, *msg;
	} bad[] = {
		/* a dump wrapped at 80 columns ends at its first cut line */
		{ "memblock_reserve: [0x0000000000001000-0x0000000000001fff]\n"
		  "[    0.000000] MEMBLOCK configuration:\n"
		  "[    0.000000]  memory size = 0x000000007fe2ec00 reserved size = 0x00000000\n"
		  "0298e000\n"
		  "[    0.000000]  memory.cnt  = 0x1\n"
		  "[    0.000000]  memory[0x0]\t[0x0000000000001000-0x000000000009efff], 0x00000000\n"
		  "0009e000 bytes flags: 0x0\n",
		  "t.log:2: error: a checkpoint with nothing to check" },
		/* a region line cut inside its size */
		{ "memblock_reserve: [0x0000000000001000-0x0000000000001fff]\n"
		  "MEMBLOCK configuration:\n"
		  " memory.cnt  = 0x1\n"
		  " memory[0x0]\t[0x0000000000001000-0x000000000009efff], 0x00000000\n",
		  "t.log:2: error: a region line of this dump does not add up" },
		/* cut before the sizes: none of 3 regions readable */
		{ "memblock_reserve: [0x0000000000001000-0x0000000000001fff]\n"
		  "MEMBLOCK configuration:\n"
		  " memory.cnt  = 0x3\n"
		  " memory[0x0]\t[0x0000000000001000-0x00000000\n"
		  "0009efff], 0x000000000009e000 bytes flags: 0x0\n",
		  "t.log:2: error: the dump announces 3 memory regions but none" },
		{ "memblock_add: [0x0000000040000000-0x000000007fffffff]\n"
		  "   0: 0x0000000040000000..0x000000007fffffff\n",
		  "t.log:2: error: memblock debugfs table, but no line before it names memory or reserved, and nothing tells" },
		{ "memblock_add: [0x0000000040000000-0x000000007fffffff]\n"
		  "cat /sys/kernel/debug/memblock/memory\n"
		  "   0: 0x0000000040000000..0x000000007fffffff 0 NONE extra\n",
		  "t.log:3: error: damaged memblock debugfs line" },
	};
	struct mbd_import_opts o = { MBD_CONV_AUTO, 0, 0, 0 };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct mbd_import_stats st;
		char *text;

		MBD_CHECK_EQ_U64(imp_opts(bad[i].log, &o, &st, &text), (uint64_t)-2);
		MBD_CHECK(strstr(st.error, bad[i].msg) != NULL);
		if (!strstr(st.error, bad[i].msg))
			fprintf(stderr, "log %zu: got \"%s\"\n", i, st.error);
		free(text);
	}
}

static void test_internal_and_v616(void)
{
	struct mbd_import_stats st;
	struct mbd_trace t;
	char *text;

	mbd_trace_init(&t);
	MBD_CHECK(imp("memblock_phys_free: [0x00000000bfbd9000-0x00000000bfbd9fff] memblock_double_array+0x1b0/0x200\n"
		      "memblock_free: [0x00000000bfbd8000-0x00000000bfbd8fff] memblock_free_reserved_regions+0x1/0x2\n"
		      "__memblock_reserve: [0x0000000040200000-0x0000000042acffff] nid=-1 flags=0 arm64_memblock_init+0x2b0/0x310\n"
		      "__memblock_reserve: [0x00000000bffff000-0x00000000bfffffff] nid=0 flags=20 memblock_alloc_range_nid+0x10c/0x1b8\n"
		      "__memblock_reserve: [0x00000000bfffe000-0x00000000bfffefff] nid=-1 flags=20 memblock_alloc_range_nid+0x10c/0x1b8\n"
		      "__memblock_reserve: [0x00000000bfff0000-0x00000000bfffdfff] nid=-1 flags=a0 memblock_alloc_range_nid+0x1/0x2\n",
		      MBD_CONV_AUTO, &t, &st, &text) == 0);
	/* memblock's own frees are not calls; a plain reservation is
	 * memblock_reserve, memblock's own (RSRV_KERN) memblock_reserve_kern
	 * with the node it was made for */
	MBD_CHECK_EQ_U64(t.n_ops, 4);
	check_op(&t, 0, MBD_OP_RESERVE, 0x40200000, 0x28d0000);
	check_op(&t, 1, MBD_OP_RESERVE_KERN, 0xbffff000, 0x1000);
	MBD_CHECK_EQ_U64((uint64_t)(int64_t)t.ops[1].nid, 0);
	check_op(&t, 2, MBD_OP_RESERVE_KERN, 0xbfffe000, 0x1000);
	MBD_CHECK(t.ops[2].nid == MBD_NUMA_NO_NODE);
	check_op(&t, 3, MBD_OP_RESERVE_KERN, 0xbfff0000, 0xe000);
	MBD_CHECK(text && strstr(text, "memblock_reserve_kern: [0x00000000bffff000-0x00000000bfffffff] nid=0\n"));
	MBD_CHECK(text && strstr(text, "memblock_reserve_kern: [0x00000000bfffe000-0x00000000bfffefff]\n"));
	MBD_CHECK(text && strstr(text, "reserved with flags 0xa0"));
	free(text);
	mbd_trace_free(&t);
}

static void test_efi_64k_and_e820_update(void)
{
	struct mbd_import_stats st;
	struct mbd_trace t;

	/* a 4K runtime entry on a 64K-page kernel: added as a 64K page, marked nomap */
	mbd_trace_init(&t);
	MBD_CHECK(imp("efi:   0x000080010000-0x000080010fff [Runtime Data|RUN|  |  |  |  |  |  |  |  |   |WB|WT|WC|UC]\n"
		      "memblock_add: [0x0000000080010000-0x000000008001ffff] early_init_dt_add_memory_arch+0x1/0x2\n",
		      MBD_CONV_AUTO, &t, &st, NULL) == 0);
	MBD_CHECK_EQ_U64(t.n_ops, 2);
	check_op(&t, 1, MBD_OP_MARK_NOMAP, 0x80010000, 0x10000);
	mbd_trace_free(&t);

	/* an old kernel's e820 update takes the range out of what the map adds */
	mbd_trace_init(&t);
	MBD_CHECK(imp("BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable\n"
		      "BIOS-e820: [mem 0x0000000000100000-0x000000007ffdffff] usable\n"
		      "e820: update [mem 0x00000000-0x00000fff] usable ==> reserved\n",
		      MBD_CONV_AUTO, &t, &st, NULL) == 0);
	MBD_CHECK(t.n_ops == 5 && t.ops[3].kind == MBD_OP_REMOVE && t.ops[3].base == 0 &&
		  t.ops[3].size == 0x1000 && t.ops[4].kind == MBD_OP_TRIM);
	mbd_trace_free(&t);
}

/* arm64 as booted: DT memory and the DTB reservation come before
 * memblock=debug; the first dump shows them. */
static const char early_log[] =
	"memblock_add: [0x0000000048000000-0x00000000480fdfff] arm64_memblock_init+0x14c/0x260\n"
	"memblock_reserve: [0x0000000048000000-0x00000000480fdfff] arm64_memblock_init+0x164/0x260\n"
	"memblock_reserve: [0x0000000040210000-0x0000000041c9ffff] arm64_memblock_init+0x1f0/0x260\n"
	"MEMBLOCK configuration:\n"
	" memory size = 0x0000000080000000 reserved size = 0x0000000001b9008b\n"
	" memory.cnt  = 0x2\n"
	" memory[0x0]\t[0x0000000040000000-0x000000006fffffff], 0x0000000030000000 bytes on node 0 flags: 0x0\n"
	" memory[0x1]\t[0x0000000070000000-0x00000000bfffffff], 0x0000000050000000 bytes on node 0 flags: 0x4\n"
	" reserved.cnt  = 0x3\n"
	" reserved[0x0]\t[0x0000000040210000-0x0000000041c9ffff], 0x0000000001a90000 bytes flags: 0x0\n"
	" reserved[0x1]\t[0x0000000048000000-0x00000000480fdfff], 0x00000000000fe000 bytes flags: 0x0\n"
	" reserved[0x2]\t[0x0000000048400000-0x000000004840208a], 0x000000000000208b bytes flags: 0x0\n"
	"memblock: reserved is doubled to 770 at [0x00000000bfbeb000-0x00000000bfbef82f]\n";

static void test_early_state_and_sizes(void)
{
	struct mbd_import_opts o = { MBD_CONV_AUTO, 0, 0, 0 };
	struct mbd_import_stats st;
	struct mbd_verdict v;
	struct mbd_trace t;
	struct mbd_diag d;
	char *text;

	MBD_CHECK_EQ_U64(imp_opts(early_log, &o, &st, &text), 0);
	mbd_trace_init(&t);
	MBD_CHECK(text && mbd_text_parse(text, strlen(text), "t.mbt", &t, &d) == 0);
	/* inferred first: the dump's memory with its node and nomap flag, the DTB;
	 * then the logged calls, and the nodes the dump shows (2 set_node) */
	MBD_CHECK(t.n_ops == 8 && t.ops[0].kind == MBD_OP_ADD_NODE && t.ops[0].nid == 0 &&
		  t.ops[1].kind == MBD_OP_ADD_NODE && t.ops[1].flags == 0x4);
	check_op(&t, 2, MBD_OP_RESERVE, 0x48400000, 0x208b);
	check_op(&t, 3, MBD_OP_ADD, 0x48000000, 0xfe000);
	/* the doubling says the array started with 385 slots */
	MBD_CHECK_EQ_U64(t.cfg.reserved_max, 385);
	MBD_CHECK_EQ_U64(t.cfg.memory_max, 128);
	MBD_CHECK(strstr(text, "# reserved starts with 385 slots: the log says it was doubled to 770"));
	v.divergent = true;
	MBD_CHECK_EQ_U64(run_ref(&t, &v), 1); /* max=770 is never reached by 3 calls */
	MBD_CHECK(v.divergent && strstr(v.detail, "reserved.max is 385, expected 770"));
	mbd_trace_free(&t);
	free(text);

	/* sizes given by the caller win */
	o.memory_max = 1024;
	o.reserved_max = 641;
	MBD_CHECK_EQ_U64(imp_opts(early_log, &o, &st, &text), 0);
	MBD_CHECK(text && strstr(text, "config memory.max=1024 reserved.max=641 "));
	free(text);
}

int main(void)
{
	test_more_prefixes();
	test_debugfs();
	test_refused();
	test_internal_and_v616();
	test_efi_64k_and_e820_update();
	test_early_state_and_sizes();
	test_unlogged_frees();
	test_free_all_nodes();
	return mbd_test_done();
}
