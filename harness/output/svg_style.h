/* SPDX-License-Identifier: GPL-2.0 */
/* What svg.c draws with: the style sheet, XML escaping, human sizes. */
#ifndef MBD_SVG_STYLE_H
#define MBD_SVG_STYLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define COLOR_DIFF "#d62728"

/* <style> and <defs> for every picture. */
extern const char mbd_svg_style[];
/* XML text: the five characters that must be escaped, and nothing else. */
void mbd_svg_esc(FILE *f, const char *s);
/* "4 KiB", "1.5 GiB": region sizes, since the axis is not to scale. */
void mbd_svg_human_size(char *buf, size_t n, uint64_t size);

#endif
