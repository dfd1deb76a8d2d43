/* SPDX-License-Identifier: GPL-2.0 */
/* Untrusted strings (file names, log text) inside one line of output. */
#ifndef MBD_ESCAPE_H
#define MBD_ESCAPE_H

#include <stddef.h>

/*
 * Copy s into buf (n bytes, always terminated) so that it stays on one
 * line of an .mbt comment, a C comment or an SVG text: bytes outside
 * printable ASCII, '\' and the '/' that would close a C comment ("*" "/")
 * become \xNN. At most max bytes of s are used; a longer s ends in "...".
 * n >= 4 * max + 4 always fits. Returns buf.
 */
char *mbd_escape_line(char *buf, size_t n, const char *s, size_t max);

#endif
