// SPDX-License-Identifier: GPL-2.0
/*
 * Several boots in one pasted log: a boot starts again where the printk
 * timestamps restart at 0.000000 after a later one, or at a second
 * "Linux version" line, or at a MEMBLOCK dump that differs from the one
 * just before with nothing between them that could change memblock (two
 * boots' dumps pasted one after the other). Each boot is imported on its
 * own.
 */
#include <stdint.h>
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

/* The line after the dump that starts at d: its region and count lines
 * ("memory size = ...", "memory.cnt", "reserved[0x0] ..."). */
static size_t dump_end(const struct line *ls, size_t n, size_t d)
{
	size_t i = d + 1;

	while (i < n && ls[i].cls != L_HEADER &&
	       (mbd_imp_starts(ls[i].s, "memory") || mbd_imp_starts(ls[i].s, "reserved") ||
		mbd_imp_starts(ls[i].s, "physmem")))
		i++;
	return i;
}

/* Whether a line between two dumps can change what memblock holds. */
static bool changes(const struct line *l)
{
	switch (l->cls) {
	case L_OP: case L_ALLOC: case L_DOUBLED: case L_E820: case L_EFI: case L_OF:
	case L_NODEHDR: case L_NODE: case L_STATE: case L_E820UPD: case L_FREEING:
		return true;
	default:
		return false;
	}
}

/* The dump at d follows the one at prev with nothing between that could
 * change memblock, and says otherwise: a dump of another boot (two boots'
 * dumps pasted one after the other). The same dump twice is one boot. */
static bool another_dump(const struct line *ls, size_t n, size_t prev, size_t d)
{
	size_t pe = dump_end(ls, n, prev), de = dump_end(ls, n, d);

	for (size_t i = pe; i < d; i++)
		if (changes(&ls[i]))
			return false;
	if (pe - prev != de - d)
		return true;
	for (size_t k = 1; prev + k < pe; k++)
		if (strcmp(ls[prev + k].s, ls[d + k].s))
			return true;
	return false;
}

const char *mbd_import_boot_rule(const struct mbd_import_stats *st)
{
	return st->boot_dumps ?
	       "a boot starts at a \"Linux version\" line, at a MEMBLOCK dump unlike the one "
	       "before with no call between them, or where the timestamps restart at 0" :
	       "a boot starts at a \"Linux version\" line or where the timestamps restart at 0";
}

size_t mbd_imp_boots(struct ictx *x, const struct line *ls, size_t n, size_t *starts, size_t max)
{
	size_t nb = 1, dump = SIZE_MAX;
	bool later = false, version = false;

	starts[0] = 0;
	for (size_t i = 0; i < n; i++) {
		int st = ls[i].cls == L_HEADER ? 0 : stamp(ls[i].raw);
		bool is_version = ls[i].cls != L_HEADER && mbd_imp_starts(ls[i].s, "Linux version ");
		bool redump = ls[i].cls == L_DUMP && dump != SIZE_MAX && another_dump(ls, n, dump, i);
		size_t at = i;

		if (ls[i].cls == L_DUMP)
			dump = i;
		if (!((st == 1 && later) || (is_version && version) || redump)) {
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
		x->st->boot_dumps += redump;
		if (ls[i].cls != L_DUMP)
			dump = SIZE_MAX; /* a new boot's first dump is compared with none */
	}
	return nb;
}
