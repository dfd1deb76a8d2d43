// SPDX-License-Identifier: GPL-2.0
/*
 * Runs one emitted kernel test against one variant, as a single
 * translation unit: the variant's mm/memblock.c, the stand-in helpers,
 * then the test. Build with
 *   -I<tree>/include -I<tree>/mm -Ialgorithms/kcompat -Itests/kernel_test_stub
 *   -DMBD_KT_FILE='"path/to/test.c"' -DMBD_KT_CHECKS=name_checks
 * and link the kcompat runtime (every .c of algorithms/kcompat). Exit 0
 * when the test passes.
 */
#include "memblock.c"

#include "common.c"

#include MBD_KT_FILE

int main(void)
{
	MBD_KT_CHECKS();
	return 0;
}
