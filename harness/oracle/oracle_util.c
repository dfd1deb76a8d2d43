// SPDX-License-Identifier: GPL-2.0
/* Small helpers of the oracle (oracle_int.h): findings, capped ends, array sizes. */
#include <stdarg.h>
#include <stdio.h>

#include "oracle_int.h"

void mbd_orc_note(struct mbd_oracle_finding *f, enum mbd_class cls,
		 enum mbd_where where, const char *fmt, ...)
{
	va_list ap;

	if (cls <= f->cls)
		return;
	f->cls = cls;
	f->where = where;
	f->detail[0] = '\0';
	if (cls < f->text_min)
		return;
	va_start(ap, fmt);
	vsnprintf(f->detail, sizeof(f->detail), fmt, ap);
	va_end(ap);
}

/* base + memblock_cap_size(base, &size) */
uint64_t mbd_orc_cap_end(uint64_t base, uint64_t size)
{
	return size < UINT64_MAX - base ? base + size : UINT64_MAX;
}

/* PAGE_ALIGN(max * sizeof(struct memblock_region)), saturating */
uint64_t mbd_orc_array_bytes(uint64_t max)
{
	uint64_t b;

	if (max > (UINT64_MAX - MBD_PAGE_SIZE) / MBD_REGION_BYTES)
		return UINT64_MAX & ~(MBD_PAGE_SIZE - 1);
	b = max * MBD_REGION_BYTES;
	return (b + MBD_PAGE_SIZE - 1) & ~(MBD_PAGE_SIZE - 1);
}
