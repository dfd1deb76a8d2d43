// SPDX-License-Identifier: GPL-2.0
/* The SVG picture's style sheet and its text helpers (svg_style.h). */
#include <inttypes.h>
#include <stdio.h>

#include "svg_style.h"

const char mbd_svg_style[] =
	"<style>\n"
	"text{font-family:DejaVu Sans,Helvetica,Arial,sans-serif;font-size:12px;fill:#222}\n"
	".title{font-family:DejaVu Sans Mono,monospace;font-size:14px;font-weight:bold}\n"
	".info{font-family:DejaVu Sans Mono,monospace;font-size:12px}\n"
	".addr{font-family:DejaVu Sans Mono,monospace;font-size:10px;fill:#444}\n"
	".group{font-size:14px;font-weight:bold}\n"
	".vname{font-weight:bold}\n"
	".counters{font-size:10px;fill:#555}\n"
	".size{font-size:10px;text-anchor:middle}\n"
	".flags{font-size:9px;text-anchor:middle;fill:#333}\n"
	".legend{font-size:11px}\n"
	".grid{stroke:#ccc;stroke-width:1;stroke-dasharray:2 3}\n"
	".lane{fill:#f7f7f7;stroke:#ddd}\n"
	".op{fill:#fff3a0;opacity:0.5}\n"
	".mem{fill:#9ecae1;stroke:#2b5d80;stroke-width:1}\n"
	".rsv{fill:#fdae6b;stroke:#8a4b0f;stroke-width:1}\n"
	".nomap{fill:#c7c7c7}\n"
	".diff.lost,.key-lost{fill:url(#hatch);stroke:" COLOR_DIFF ";stroke-width:2.5;stroke-dasharray:6 3}\n"
	".diff.extra,.diff.attrs,.key-extra{fill:url(#hatch);fill-opacity:0.6;stroke:" COLOR_DIFF ";stroke-width:2.5}\n"
	".diff.split,.key-split{fill:none;stroke:" COLOR_DIFF ";stroke-width:3}\n"
	"text.diff{fill:" COLOR_DIFF ";font-weight:bold}\n"
	".tag{font-size:11px;text-anchor:middle}\n"
	".panic{fill:#7a0000;font-size:11px}\n"
	"</style>\n"
	"<defs><pattern id=\"hatch\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" "
	"patternTransform=\"rotate(45)\"><rect width=\"8\" height=\"8\" fill=\"#ffe5e5\"/>"
	"<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" stroke=\"" COLOR_DIFF "\" stroke-width=\"3\"/>"
	"</pattern></defs>\n";

/* XML text: the five characters that must be escaped, and nothing else. */
void mbd_svg_esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			/* control bytes are not allowed in XML 1.0 */
			fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
		}
	}
}

/* "4 KiB", "1.5 GiB": region sizes, since the axis is not to scale. */
void mbd_svg_human_size(char *buf, size_t n, uint64_t size)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	int u = 0;
	uint64_t whole = size;

	while (whole >= 1024 && u < 6) {
		whole /= 1024;
		u++;
	}
	if (u == 0 || size % (1ULL << (10 * u)) == 0)
		snprintf(buf, n, "%" PRIu64 " %s", whole, unit[u]);
	else
		snprintf(buf, n, "%.1f %s", (double)size / (double)(1ULL << (10 * u)), unit[u]);
}
