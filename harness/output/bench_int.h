/* SPDX-License-Identifier: GPL-2.0 */
/* What bench.c asks of bench_image.c (private to harness/output/). */
#ifndef BENCH_INT_H
#define BENCH_INT_H

#include <stddef.h>

/*
 * Give this process its own copy of the program's read-only and code
 * pages (fresh physical pages, the same addresses and bytes). 0, or the
 * errno that stopped it (the pages copied so far stay copied); *bytes is
 * how much was copied.
 */
int mbd_bench_image_private(size_t *bytes);

/* Write back and drop every cache line of the program image (every
 * variant's code and statics) and of [extra, extra + len). A no-op where
 * there is no clflush. */
void mbd_bench_image_flush(const void *extra, size_t len);

#endif
