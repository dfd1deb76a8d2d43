// SPDX-License-Identifier: GPL-2.0
/* FILE.variants sidecars of crash files (mbd_cli.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_cli.h"

static bool is_text_name(const char *p)
{
	size_t n = strlen(p);

	return n >= 4 && strcmp(p + n - 4, ".mbt") == 0;
}

/* The first line of path.variants into buf: 1, 0 if there is none, -1. */
static int read_sidecar(const char *path, char *buf, size_t n)
{
	char name[4096];
	FILE *f;
	size_t len;

	if (snprintf(name, sizeof(name), "%s.variants", path) >= (int)sizeof(name))
		return 0;
	f = fopen(name, "r");
	if (!f)
		return errno == ENOENT ? 0 : (mbd_cli_error("%s: %s", name, strerror(errno)), -1);
	if (!fgets(buf, (int)n, f)) {
		fclose(f);
		mbd_cli_error("%s:1: expected the variants, e.g. reference,zhou-2025", name);
		return -1;
	}
	fclose(f);
	len = strcspn(buf, "\r\n");
	buf[len] = '\0';
	if (!len || strchr(buf, ' ')) {
		mbd_cli_error("%s:1: expected the variants, e.g. reference,zhou-2025", name);
		return -1;
	}
	return 1;
}

int mbd_cli_sidecar_variants(const struct mbd_cli_paths *in, char *buf, size_t n)
{
	char one[256];
	size_t missing = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < in->n; k++) {
		int rc;

		if (is_text_name(in->v[k]))
			continue;
		rc = read_sidecar(in->v[k], one, sizeof(one));
		if (rc < 0)
			return -1;
		if (rc == 0) {
			fprintf(stderr, "mbdiff: %s: crash file without --variants and "
				"without %s.variants: replayed with the default "
				"variants, which may not be the ones that found it\n",
				in->v[k], in->v[k]);
			missing++;
			continue;
		}
		if (buf[0] && strcmp(buf, one) != 0) {
			mbd_cli_error("%s.variants says %s, an earlier sidecar %s: "
				      "replay them apart or give --variants", in->v[k],
				      one, buf);
			return -1;
		}
		snprintf(buf, n, "%s", one);
	}
	if (buf[0] && missing) {
		mbd_cli_error("some crash files have a .variants sidecar (%s), "
			      "%zu have none: give --variants", buf, missing);
		return -1;
	}
	if (buf[0])
		fprintf(stderr, "mbdiff: variants %s (from the inputs' .variants)\n", buf);
	return 0;
}
