// SPDX-License-Identifier: GPL-2.0
/* Small helpers of the oracle (oracle_int.h): findings, capped ends, array sizes. */
#include <stdarg.h>
#include <stdio.h>

#include "oracle_int.h"

void mbd_orc_note(struct mbd_oracle_finding *f, enum mbd_class cls,
		  enum mbd_where where, enum mbd_clause clause,
		  const char *fmt, ...)
{
	va_list ap;

	f->clauses |= 1u << clause;
	if (cls <= f->cls)
		return;
	f->cls = cls;
	f->where = where;
	f->clause = clause;
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

static const struct {
	const char *name, *text;
} clause_tab[MBD_CL__COUNT] = {
	[MBD_CL_NONE] = { "none", "" },
	[MBD_CL_ENOMEM_WITH_ROOM] = { "enomem-with-room", "-ENOMEM although the array had room" },
	[MBD_CL_BAD_RETURN] = { "bad-return", "a return value the call never gives" },
	[MBD_CL_ALLOC_ADDR] = { "alloc-address", "an allocation at another address than the contract's" },
	[MBD_CL_CNT_OVER_MAX] = { "cnt-over-max", "cnt above max" },
	[MBD_CL_CNT_HELD] = { "cnt-held", "cnt and the regions held disagree" },
	[MBD_CL_EMPTY_REGION] = { "empty-region", "a region of size 0" },
	[MBD_CL_WRAPS] = { "wraps", "a region past the end of the address space" },
	[MBD_CL_UNSORTED] = { "unsorted", "regions out of order or overlapping" },
	[MBD_CL_TOTAL_SIZE] = { "total-size", "total_size is not the sum of the regions" },
	[MBD_CL_MISSING] = { "missing", "bytes missing that the calls made should be there" },
	[MBD_CL_EXTRA] = { "extra", "bytes present that the calls made should not be there" },
	[MBD_CL_ATTR] = { "attributes", "the right bytes with other flags or node id" },
	[MBD_CL_ARRAY_UNRESERVED] = { "array-unreserved", "a live region array is not reserved" },
	[MBD_CL_ARRAYS_OVERLAP] = { "arrays-overlap", "the memory and reserved arrays share bytes" },
};

const char *mbd_clause_text(enum mbd_clause c)
{
	return (unsigned)c < MBD_CL__COUNT ? clause_tab[c].text : "";
}

const char *mbd_clause_name(enum mbd_clause c)
{
	return (unsigned)c < MBD_CL__COUNT ? clause_tab[c].name : "none";
}

enum mbd_clause mbd_clause_root(uint32_t mask, enum mbd_clause worst)
{
	/* an array the next call writes over explains what follows */
	if (mask & 1u << MBD_CL_ARRAYS_OVERLAP)
		return MBD_CL_ARRAYS_OVERLAP;
	if (mask & 1u << MBD_CL_ARRAY_UNRESERVED)
		return MBD_CL_ARRAY_UNRESERVED;
	return worst;
}
