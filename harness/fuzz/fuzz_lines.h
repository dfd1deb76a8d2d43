/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A stdio stream that writes whole lines, one write(2) each (fuzz_lines.c):
 * what fuzz_diff gives libFuzzer for its status output.
 */
#ifndef MBD_FUZZ_LINES_H
#define MBD_FUZZ_LINES_H

#include <stdbool.h>
#include <stdio.h>

struct mbd_lines {
	FILE *f;
	int fd;
	size_t n;              /* bytes held: the line not ended yet */
	unsigned long fragments; /* pieces the stream passed on to us */
	unsigned long writes;  /* write(2) calls made */
	char buf[8192];
};

/*
 * l as a stream writing to fd: bytes go out up to the last newline each
 * time the stream passes some on; the rest waits for its newline, a full
 * buffer or mbd_lines_drain(). NULL if the C library cannot make it.
 */
FILE *mbd_lines_open(struct mbd_lines *l, int fd);
/* Out with everything held, line ended or not. */
void mbd_lines_drain(struct mbd_lines *l);

/*
 * libFuzzer's output through such a stream on stderr, drained at exit
 * (counts: then a line with how many pieces and writes it took). False
 * (nothing changed) without libFuzzer or when done already.
 */
bool mbd_lines_for_libfuzzer(bool counts);

#endif
