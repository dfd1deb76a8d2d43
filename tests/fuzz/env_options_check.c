// SPDX-License-Identifier: GPL-2.0
/*
 * An engine that never calls LLVMFuzzerInitialize: the target reads its
 * options from $MBDIFF_ARGS on the first input. Those options (here the
 * --keep-going folder) must stay valid for every later input, so between
 * inputs this driver reuses freed heap on purpose: a dangling option
 * string then names another folder, or ASan stops on it.
 *
 * Usage: env_options_check KEEP_DIR INPUT.mbt
 * Sets MBDIFF_ARGS itself; exit 0 when both runs wrote into KEEP_DIR.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count_sig(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (l > 4 && strcmp(e->d_name + l - 4, ".sig") == 0)
			n++;
	}
	closedir(d);
	return n;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 16);

	if (!f || !buf) {
		fprintf(stderr, "env_options_check: cannot read %s\n", path);
		exit(2);
	}
	*len = fread(buf, 1, 1 << 16, f);
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	char args[4096];
	size_t len;
	char *input, *junk[64];
	int first, second;

	if (argc != 3) {
		fputs("usage: env_options_check KEEP_DIR INPUT.mbt\n", stderr);
		return 2;
	}
	snprintf(args, sizeof(args),
		 "--variants=reference,zhou-2025 --no-expect --keep-going=%s", argv[1]);
	setenv("MBDIFF_ARGS", args, 1);
	input = slurp(argv[2], &len);
	LLVMFuzzerTestOneInput((const uint8_t *)input, len);
	first = count_sig(argv[1]);
	/* Take back and overwrite whatever the target freed. */
	for (int i = 0; i < 64; i++) {
		size_t n = 16u << (i % 8);

		junk[i] = malloc(n);
		if (junk[i])
			memset(junk[i], 'X', n - 1), junk[i][n - 1] = '\0';
	}
	/* The same divergence again: known key, nothing new, no crash. */
	LLVMFuzzerTestOneInput((const uint8_t *)input, len);
	second = count_sig(argv[1]);
	for (int i = 0; i < 64; i++)
		free(junk[i]);
	free(input);
	if (first < 1 || second != first) {
		fprintf(stderr, "env_options_check: %d then %d signatures in %s (want >= 1, unchanged)\n",
			first, second, argv[1]);
		return 1;
	}
	printf("env_options_check: %d signature(s) kept in %s across inputs\n", first, argv[1]);
	return 0;
}
