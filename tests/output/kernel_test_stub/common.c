// SPDX-License-Identifier: GPL-2.0
/*
 * The stand-in helpers behind common.h. Included by run.c into the same
 * translation unit as the variant's memblock.c, because kcompat keeps its
 * runtime context (the arena behind __va()) static to that unit.
 */
#include <stdarg.h>
#include <string.h>

#include "common.h"

/* Where the dummy memory sits in the arena: deliberately not page-aligned,
 * as a malloc() result would be, so the tests' ALIGN() is exercised. */
#define MBD_KT_DUMMY_PA ((phys_addr_t)(1ULL << 33) + 0x10)

static const char *mbd_kt_prefixes[16];
static int mbd_kt_nr_prefixes;
static bool mbd_kt_ready;

void reset_memblock_regions(void)
{
	if (!mbd_kt_ready) {
		/* maps the arena physical addresses live in */
		mbd_kc_reset(&mbd_kc, "kernel-test", false, false, false, 0,
			     PHYS_MEM_SIZE);
		mbd_kt_ready = true;
	}
	memset(memblock.memory.regions, 0,
	       memblock.memory.cnt * sizeof(struct memblock_region));
	memblock.memory.cnt = 0;
	memblock.memory.max = INIT_MEMBLOCK_REGIONS;
	memblock.memory.total_size = 0;
	memset(memblock.reserved.regions, 0,
	       memblock.reserved.cnt * sizeof(struct memblock_region));
	memblock.reserved.cnt = 0;
	memblock.reserved.max = INIT_MEMBLOCK_RESERVED_REGIONS;
	memblock.reserved.total_size = 0;
}

void reset_memblock_attributes(void)
{
	memblock.memory.name = "memory";
	memblock.reserved.name = "reserved";
	memblock.bottom_up = false;
	memblock.current_limit = MEMBLOCK_ALLOC_ANYWHERE;
	/* the suite cannot do this; a fresh process per test makes it moot */
	memblock_can_resize = 0;
}

void dummy_physical_memory_init(void)
{
	memset(__va(MBD_KT_DUMMY_PA), 0, PHYS_MEM_SIZE);
}

void dummy_physical_memory_cleanup(void)
{
}

phys_addr_t dummy_physical_memory_base(void)
{
	return MBD_KT_DUMMY_PA;
}

void test_fail(void)
{
	fputs("FAILED:", stderr);
	for (int i = 0; i < mbd_kt_nr_prefixes; i++)
		fprintf(stderr, " %s", mbd_kt_prefixes[i]);
	fputc('\n', stderr);
}

void test_pass(void)
{
	printf("passed:");
	for (int i = 0; i < mbd_kt_nr_prefixes; i++)
		printf(" %s", mbd_kt_prefixes[i]);
	putchar('\n');
}

void test_print(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

void prefix_reset(void)
{
	mbd_kt_nr_prefixes = 0;
}

void prefix_push(const char *prefix)
{
	if (mbd_kt_nr_prefixes < 16)
		mbd_kt_prefixes[mbd_kt_nr_prefixes++] = prefix;
}

void prefix_pop(void)
{
	if (mbd_kt_nr_prefixes > 0)
		mbd_kt_nr_prefixes--;
}
