// SPDX-License-Identifier: GPL-2.0
/* Boot-log lines: numbers and ranges read, each line classified. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "import_int.h"

/* The op name before ':' of a memblock=debug line, or 0. */
size_t mbd_imp_op_name(const char *s)
{
	size_t n = 0;

	if (!mbd_imp_starts(s, "memblock_") && !mbd_imp_starts(s, "__memblock_"))
		return 0;
	while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= '0' && s[n] <= '9') || s[n] == '_')
		n++;
	return s[n] == ':' ? n : 0;
}

bool mbd_imp_is_alloc_name(const char *s, size_t n)
{
	for (size_t i = 0; i + 5 <= n; i++)
		if (memcmp(s + i, "alloc", 5) == 0)
			return true;
	return false;
}

bool mbd_imp_is_free_late(const char *s, size_t n)
{
	return (n == 20 && memcmp(s, "__memblock_free_late", n) == 0) ||
	       (n == 18 && memcmp(s, "memblock_free_late", n) == 0);
}

int mbd_imp_classify(const char *s)
{
	size_t n = mbd_imp_op_name(s);
	struct mbd_expect e;
	bool unknown;

	if (!*s)
		return L_BLANK;
	if (mbd_imp_state_line(s, &e, &unknown))
		return L_STATE;
	if (n) {
		if (mbd_imp_is_alloc_name(s, n))
			return L_ALLOC;
		if (mbd_imp_is_free_late(s, n))
			return L_KNOWN;
		return L_OP;
	}
	if (mbd_imp_starts(s, "memblock: ") && strstr(s, " is doubled to "))
		return L_DOUBLED;
	if (mbd_imp_starts(s, "MEMBLOCK configuration:"))
		return L_DUMP;
	if (mbd_imp_starts(s, "BIOS-e820: ") || mbd_imp_starts(s, "user: [mem "))
		return L_E820;
	if (mbd_imp_starts(s, "OF: reserved mem: 0x") || mbd_imp_starts(s, "OF: reserved mem: "))
		return strstr(s, "..") ? L_OF : L_OTHER;
	if (mbd_imp_starts(s, "efi: ") && (strstr(s, "range=[") || mbd_imp_starts(mbd_imp_skip_ws(s + 4), "0x")) &&
	    strchr(s, '|'))
		return L_EFI;
	if (mbd_imp_starts(s, "Early memory node ranges"))
		return L_NODEHDR;
	if (mbd_imp_starts(s, "node ") && strstr(s, ": [mem "))
		return L_NODE;
	if ((mbd_imp_starts(s, "e820: update [mem ") && strstr(s, " ==> ")) ||
	    mbd_imp_starts(s, "e820: remove [mem "))
		return L_E820UPD;
	if (mbd_imp_starts(s, "Freeing ") && strstr(s, " memory: "))
		return L_FREEING;
	if (mbd_imp_starts(s, "Memory: ") && strstr(s, " available"))
		return L_MEMINFO;
	if (mbd_imp_starts(s, "Linux version "))
		return L_KNOWN; /* the kernel's era (import_era.c) */
	if (mbd_imp_starts(s, "reserve setup_data: ") || mbd_imp_starts(s, "e820: update ") ||
	    mbd_imp_starts(s, "e820: remove "))
		return L_KNOWN;
	return L_OTHER;
}

/* Size of [a-b] under the convention (mod 2^64, so wrapped ends work). */
uint64_t mbd_imp_range_size(uint64_t a, uint64_t b, enum mbd_import_conv c)
{
	return c == MBD_CONV_EXCLUSIVE ? b - a : b - a + 1;
}
