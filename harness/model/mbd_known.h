/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Known differences: a small text file per version pair that lists the
 * divergence signatures upstream history explains, one a line:
 *
 *     SIGNATURE-PATTERN | UPSTREAM COMMIT | WHY
 *
 * The pattern is a shell glob over the whole signature line ("mbdiff:
 * divergence A~B CLASS at op N NAME"); '*' also matches blanks. Lines
 * "baseline: NAME" and "kernel: VERSION" say which pair the file is for,
 * "also: FILE" names another pair for the same kernel (for the fidelity
 * table; ignored here); '#' starts a comment. Campaigns skip inputs whose first divergence
 * matches and count the distinct signatures instead (docs/fidelity.md).
 */
#ifndef MBD_KNOWN_H
#define MBD_KNOWN_H

#include <stddef.h>
#include <stdio.h>

struct mbd_known_entry {
	char *pattern;
	char *commit;
	char *why;
	int line;               /* in the file, for messages */
};

struct mbd_known {
	struct mbd_known_entry *v;
	size_t n, cap;
	char baseline[64];      /* "" when the file names none */
	char kernel[32];
};

void mbd_known_init(struct mbd_known *k);
void mbd_known_free(struct mbd_known *k);

/*
 * Read path. Returns 0, or -1 after printing "path:line: error: ..." to
 * err (k is then empty). An empty list is valid.
 */
int mbd_known_load(struct mbd_known *k, const char *path, FILE *err);

/* The first entry whose pattern matches signature, or NULL. */
const struct mbd_known_entry *mbd_known_match(const struct mbd_known *k,
					      const char *signature);

/*
 * Distinct signatures seen during a run, in first-seen order: add()
 * returns 1 the first time a signature is seen, 0 after, -1 when out of
 * memory.
 */
struct mbd_sigset {
	char **v;
	size_t n, cap;
};

void mbd_sigset_init(struct mbd_sigset *s);
void mbd_sigset_free(struct mbd_sigset *s);
int mbd_sigset_add(struct mbd_sigset *s, const char *signature);

#endif
