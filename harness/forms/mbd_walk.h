/* SPDX-License-Identifier: GPL-2.0 */
/* The input files named on a command line, directories walked (walk.c). */
#ifndef MBD_WALK_H
#define MBD_WALK_H

#include <stddef.h>
#include <stdio.h>

struct mbd_paths {
	char **v;
	size_t n, cap;
};

/*
 * Add paths[0..n) to out: a file as it is, a directory walked recursively
 * in name order (hidden entries, *.dict, *.md and AFL++'s bookkeeping
 * skipped; each directory once, so symlink loops end; FIFOs and devices in
 * it skipped with a note). A directory that yields no input, a missing
 * path or an explicit non-regular file is an error. Messages go to err as
 * "PROG: PATH: what". Returns how many errors there were.
 */
int mbd_walk(const char *const *paths, size_t n, struct mbd_paths *out, const char *prog,
	     FILE *err);
void mbd_paths_free(struct mbd_paths *p);

#endif
