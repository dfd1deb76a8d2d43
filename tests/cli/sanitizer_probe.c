// SPDX-License-Identifier: GPL-2.0
/*
 * One deliberate bug, in a program linked with harness/cli/sanitizer_defaults.c
 * as mbdiff, mbdiff-replay and afl_diff are: under a sanitizer it must exit
 * 3 (README "Exit codes": a crash), not the runtime's default 1, which
 * means "divergent". Built only with MBDIFF_SANITIZERS.
 */
#include <limits.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	volatile int big = INT_MAX;
	char *p = malloc(8);
	int sum;

	(void)argv;
	if (!p)
		return 0;
	sum = big + argc;          /* signed overflow: UBSan */
	p[7 + argc] = (char)sum;   /* one past the end: ASan */
	free(p);
	return 0;
}
