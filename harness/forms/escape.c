// SPDX-License-Identifier: GPL-2.0
/* One-line, printable-ASCII copies of untrusted strings (mbd_escape.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "mbd_escape.h"

char *mbd_escape_line(char *buf, size_t n, const char *s, size_t max)
{
	size_t o = 0, i;

	if (!n)
		return buf;
	for (i = 0; s[i] && i < max; i++) {
		unsigned char ch = (unsigned char)s[i];
		bool plain = ch >= 0x20 && ch <= 0x7e && ch != '\\' &&
			     !(ch == '/' && i > 0 && s[i - 1] == '*');

		if (o + (plain ? 1 : 4) + 4 > n)
			break;
		if (plain)
			buf[o++] = (char)ch;
		else
			o += (size_t)snprintf(buf + o, n - o, "\\x%02x", ch);
	}
	if (s[i] && o + 4 <= n) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}
