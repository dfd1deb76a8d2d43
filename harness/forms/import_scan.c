// SPDX-License-Identifier: GPL-2.0
/* Boot-log text scanning: blanks, prefixes, hex and decimal numbers, ranges. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "import_int.h"

const char *mbd_imp_skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

bool mbd_imp_starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

/* A hex number with optional 0x; *end past it. */
bool mbd_imp_hexnum(const char *s, uint64_t *v, const char **end)
{
	uint64_t x = 0;
	int n = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (;; s++, n++) {
		int d = (*s >= '0' && *s <= '9') ? *s - '0' :
			(*s >= 'a' && *s <= 'f') ? *s - 'a' + 10 :
			(*s >= 'A' && *s <= 'F') ? *s - 'A' + 10 : -1;
		if (d < 0)
			break;
		if (n >= 16)
			return false;
		x = (x << 4) | (uint64_t)d;
	}
	if (!n)
		return false;
	*v = x;
	*end = s;
	return true;
}

bool mbd_imp_decnum(const char *s, uint64_t *v, const char **end)
{
	uint64_t x = 0;
	int n = 0;

	for (; *s >= '0' && *s <= '9'; s++, n++) {
		uint64_t dv = (uint64_t)(*s - '0');

		x = x > (UINT64_MAX - dv) / 10 ? UINT64_MAX : x * 10 + dv;
	}
	if (!n)
		return false;
	*v = x;
	*end = s;
	return true;
}

/* "A<sep>B" with the separator sep (e.g. "-" or ".."), after opening open. */
bool mbd_imp_pair(const char *s, const char *open, const char *sep, uint64_t *a,
		 uint64_t *b, const char **end)
{
	size_t o = strlen(open), n = strlen(sep);

	if (strncmp(s, open, o) != 0 || !mbd_imp_hexnum(s + o, a, &s) || strncmp(s, sep, n) != 0)
		return false;
	return mbd_imp_hexnum(s + n, b, end);
}
