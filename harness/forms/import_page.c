// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's page size, as far as a log shows it: arm64 rounds every EFI
 * memory map entry out to whole native pages (memrange_efi_to_native(), 4,
 * 16 or 64 KiB) before it adds or marks it, so a log whose EFI map stands
 * for the memory calls needs it. Read from the memory regions a MEMBLOCK
 * dump or debugfs view shows: the largest of 64K, 16K and 4K that every
 * region boundary is a multiple of (4K without such a view).
 */
#include <string.h>

#include "import_int.h"

/* The "[A-B]" (dump) or "A..B" (debugfs) range of a memory region line. */
static bool memory_range(const struct line *l, bool in_memory_view, uint64_t *a, uint64_t *b)
{
	const char *p = strstr(l->s, "memory[0x"), *q;

	if (p && (q = strchr(p, ']')) && mbd_imp_pair(mbd_imp_skip_ws(q + 1), "[", "-", a, b, &q))
		return true;
	if (in_memory_view && l->cls == L_STATE && (p = strchr(l->s, ':')) &&
	    mbd_imp_pair(mbd_imp_skip_ws(p + 1), "", "..", a, b, &q))
		return true;
	return false;
}

uint64_t mbd_imp_page_size(const struct line *ls, size_t n)
{
	uint64_t bits = 0;
	bool any = false;
	int view = -1;

	for (size_t i = 0; i < n; i++) {
		uint64_t a, b;

		if (ls[i].cls != L_STATE)
			view = mbd_imp_names_array(&ls[i]) >= 0 ? mbd_imp_names_array(&ls[i]) : view;
		if (!memory_range(&ls[i], view == 0, &a, &b) || b < a)
			continue;
		bits |= a | (b + 1);
		any = true;
	}
	if (!any || (bits & 0xfff))
		return 0x1000;
	return !(bits & 0xffff) ? 0x10000 : !(bits & 0x3fff) ? 0x4000 : 0x1000;
}
