// SPDX-License-Identifier: GPL-2.0
/* `mbdiff list`: the variants linked into this binary and the kernel
 * each one models (or is). */
#include <stdio.h>
#include <string.h>

#include "mbd_cli.h"

int mbd_cli_list(int argc, char **argv)
{
	int w = 4, wk = 6;

	if (argc > 1)
		return mbd_cli_bad_usage("takes no arguments (got \"%s\")", argv[1]);
	for (size_t i = 0; mbd_variants[i]; i++) {
		int len = (int)strlen(mbd_variants[i]->name);

		if (len > w)
			w = len;
		len = (int)strlen(mbd_variants[i]->version ? mbd_variants[i]->version : "");
		if (len > wk)
			wk = len;
	}
	printf("%-*s  %-9s  %-*s  %s\n", w, "NAME", "KIND", wk, "KERNEL", "SUMMARY");
	for (size_t i = 0; mbd_variants[i]; i++) {
		const struct mbd_variant *v = mbd_variants[i];

		printf("%-*s  %-9s  %-*s  %s\n", w, v->name,
		       mbd_variant_kind_name(v->kind), wk,
		       v->version && *v->version ? v->version : "?",
		       v->summary ? v->summary : "");
	}
	return MBD_EXIT_OK;
}
