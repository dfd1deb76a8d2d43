/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files (every -o, --svg, --csv): never a half-written file, never
 * a replaced device. What is at the path decides:
 *   nothing          created whole: temp file in the same directory, rename
 *   a regular file   replaced the same way (its mode kept)
 *   a symlink        followed: its final target gets these same rules, the
 *                    link itself stays
 *   a char device,   written in place, as a stream (-o /dev/stdout,
 *   a FIFO           /dev/null); a FIFO nobody reads is an error, not a wait
 *   anything else    refused: a directory, a block device, a socket, a
 *                    dangling symlink, a missing parent directory
 * A path that names one of the inputs (same device and inode) is refused
 * too, so a crash file or a boot log is never overwritten by its product.
 */
#ifndef MBD_OUTPUT_H
#define MBD_OUTPUT_H

#include <stddef.h>

/*
 * Can path be written (before any work is done)? inputs[0..n) are the files
 * read. Returns 0, or -1 with the reason in why (n_why bytes).
 */
int mbd_output_check(const char *path, const char *const *inputs, size_t n,
		     char *why, size_t n_why);

/* Write data to path by the rules above. Returns 0, or -1 with why. */
int mbd_output_write(const char *path, const void *data, size_t len,
		     char *why, size_t n_why);

#endif
