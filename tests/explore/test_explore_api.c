// SPDX-License-Identifier: GPL-2.0
/*
 * The explore library calls `mbdiff check` uses: mbd_explore_quick() on
 * tests/explore/tiny.alpha, and the alphabet's order and trace count.
 */
#include <stdio.h>
#include <string.h>

#include "mbd_explore.h"
#include "mbd_test.h"

#define TINY MBD_TEST_SRCDIR "/tests/explore/tiny.alpha"

static void check_alphabet(void)
{
	struct mbd_alphabet a;
	struct mbd_diag d;

	MBD_CHECK(mbd_alphabet_load(TINY, &a, &d) == 0);
	/* 3 lattice pairs and 3 half pages, for 3 calls; 2 configurations */
	MBD_CHECK_EQ_U64(a.n_ops, 18);
	MBD_CHECK_EQ_U64(a.n_roots, 2);
	MBD_CHECK_STR(a.name, "tiny");
	/* smaller bases first, then smaller sizes, then the line order */
	for (size_t i = 1; i < a.n_ops; i++)
		MBD_CHECK(a.ops[i - 1].base < a.ops[i].base ||
			  (a.ops[i - 1].base == a.ops[i].base &&
			   a.ops[i - 1].size <= a.ops[i].size));
	MBD_CHECK_EQ_U64(a.ops[0].kind, MBD_OP_ADD);
	MBD_CHECK_EQ_U64(a.ops[0].base, 0);
	MBD_CHECK_EQ_U64(a.ops[0].size, 0x800);
	MBD_CHECK_EQ_U64(a.roots[0].cfg.memory_max, 1);
	MBD_CHECK_EQ_U64(a.roots[1].cfg.memory_max, 2);
	mbd_alphabet_free(&a);
}

static void check_quick(void)
{
	const struct mbd_variant *twin[2] = { mbd_variant_find("reference"),
					      mbd_variant_find("reference-twin") };
	const struct mbd_variant *zhou[2] = { mbd_variant_find("reference"),
					      mbd_variant_find("zhou-2025") };
	char line[400];

	MBD_CHECK(twin[0] && twin[1] && zhou[1]);
	if (!twin[0] || !twin[1] || !zhou[1])
		return;
	MBD_CHECK(mbd_explore_quick(TINY, twin, 2, 2, 0, MBD_CLASS_CAPACITY,
				    line, sizeof(line)) == 0);
	/* 2 * (18 + 18 * 18) traces */
	MBD_CHECK(strstr(line, "no divergence at class >= capacity among all 684 "
			 "traces of <= 2 calls over alphabet tiny") == line);
	MBD_CHECK(mbd_explore_quick(TINY, zhou, 2, 2, 0, MBD_CLASS_CAPACITY,
				    line, sizeof(line)) == 1);
	MBD_CHECK_STR(line, "mbdiff: divergence reference~zhou-2025 memory/coverage "
		      "at op 2 memblock_add (2 calls)");
	MBD_CHECK(mbd_explore_quick(TINY, zhou, 2, 1, 0, MBD_CLASS_CAPACITY,
				    line, sizeof(line)) == 0);
	MBD_CHECK(mbd_explore_quick("/nonexistent.alpha", zhou, 2, 1, 0,
				    MBD_CLASS_CAPACITY, line, sizeof(line)) == -1);
}

int main(void)
{
	check_alphabet();
	check_quick();
	return mbd_test_done();
}
