// SPDX-License-Identifier: GPL-2.0
/*
 * Several boots in one pasted log: a boot starts again where the printk
 * timestamps restart at 0.000000 after a later one, or at a second
 * "Linux version" line. Each boot is imported on its own.
 */
#include <string.h>

#include "import_int.h"

/* The printk stamp of a raw line ("[   12.345678] ", after mail quotes and
 * a kmsg level): 1 if it is 0.000000, 2 if later, 0 if there is none. */
static int stamp(const char *s)
{
	bool zero = true, digits = false;

	while (*s == '>' || *s == ' ' || *s == '\t')
		s++;
	if (*s == '<') {
		const char *q = s + 1;

		while (*q >= '0' && *q <= '9')
			q++;
		if (*q == '>')
			s = q + 1;
	}
	if (*s++ != '[')
		return 0;
	while (*s == ' ')
		s++;
	for (; (*s >= '0' && *s <= '9') || *s == '.'; s++) {
		digits |= *s != '.';
		zero &= *s == '0' || *s == '.';
	}
	if (!digits || *s != ']')
		return 0;
	return zero ? 1 : 2;
}

size_t mbd_imp_boots(struct ictx *x, const struct line *ls, size_t n, size_t *starts, size_t max)
{
	size_t nb = 1;
	bool later = false, version = false;

	starts[0] = 0;
	for (size_t i = 0; i < n; i++) {
		int st = ls[i].cls == L_HEADER ? 0 : stamp(ls[i].raw);
		bool is_version = ls[i].cls != L_HEADER && mbd_imp_starts(ls[i].s, "Linux version ");
		size_t at = i;

		if (!((st == 1 && later) || (is_version && version))) {
			later |= st == 2;
			version |= is_version;
			continue;
		}
		/* the '#' notes and blanks just before belong to the new boot */
		while (at > starts[nb - 1] + 1 &&
		       (ls[at - 1].cls == L_HEADER || ls[at - 1].cls == L_BLANK))
			at--;
		if (nb == max) {
			mbd_imp_fail(x, &ls[i], "more than %zu boots in one log: split it", max);
			return nb;
		}
		starts[nb++] = at;
		later = false;
		version = is_version;
	}
	return nb;
}
