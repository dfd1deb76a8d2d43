// SPDX-License-Identifier: GPL-2.0
/* `mbdiff emit-test`'s generator on a small trace, against the reference. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_emit_test.h"
#include "mbd_test.h"

static void push(struct mbd_trace *t, uint32_t kind, uint64_t base, uint64_t size)
{
	struct mbd_op op;

	memset(&op, 0, sizeof(op));
	op.kind = kind;
	op.base = base;
	op.size = size;
	mbd_trace_push(t, &op, 0);
}

/* Emit t; returns the text (malloc'd) or NULL when refused. */
static char *emit(const struct mbd_trace *t, const char *name, char *why, size_t n)
{
	struct mbd_emit_opts o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	memset(&o, 0, sizeof(o));
	o.name = name;
	o.reference = mbd_variant_find("reference");
	rc = mbd_emit_test(f, t, &o, why, n);
	fclose(f);
	if (rc) {
		free(buf);
		return NULL;
	}
	return buf;
}

int main(void)
{
	struct mbd_trace t;
	char why[256], *s;

	mbd_trace_init(&t);
	t.cfg.memory_max = 1;
	t.cfg.resize = true;
	/* two disjoint pages: the second add doubles the 1-slot array */
	push(&t, MBD_OP_ADD, 0x1000, 0x1000);
	push(&t, MBD_OP_ADD, 0x3000, 0x1000);
	push(&t, MBD_OP_RESERVE, 0x1000, 0x800);
	s = emit(&t, "small", why, sizeof(why));
	MBD_CHECK(s != NULL);
	if (s) {
		MBD_CHECK(strstr(s, "static int small_check(void)") != NULL);
		MBD_CHECK(strstr(s, "int small_checks(void)") != NULL);
		MBD_CHECK(strstr(s, "\tmemblock.memory.max = 1;\n") != NULL);
		MBD_CHECK(strstr(s, "\tmemblock_allow_resize();\n") != NULL);
		MBD_CHECK(strstr(s, "ret = memblock_add(b + 0x3000, 0x1000);") != NULL);
		MBD_CHECK(strstr(s, "ret = memblock_reserve(b + 0x1000, 0x800);") != NULL);
		/* two disjoint memory regions, doubled to 2 slots */
		MBD_CHECK(strstr(s, "ASSERT_EQ(memblock.memory.cnt, 2);") != NULL);
		MBD_CHECK(strstr(s, "ASSERT_EQ(memblock.memory.max, 2);") != NULL);
		MBD_CHECK(strstr(s, "ASSERT_EQ(memblock.memory.total_size, 0x2000);") != NULL);
		MBD_CHECK(strstr(s, "ASSERT_EQ(rgn->base, b + 0x3000);") != NULL);
		/* the new array was placed in memory, so not the boot array */
		MBD_CHECK(strstr(s, "ASSERT_EQ(__pa(memblock.memory.regions), b + 0x") != NULL);
		MBD_CHECK(strstr(s, "ASSERT_EQ(memblock.reserved.regions, reserved_regions);") != NULL);
		MBD_CHECK(strstr(s, "test_pass_pop();") != NULL);
		free(s);
	}

	/* not C identifiers, slab: refused with a reason */
	MBD_CHECK(emit(&t, "9lives", why, sizeof(why)) == NULL);
	MBD_CHECK(emit(&t, "a-b", why, sizeof(why)) == NULL);
	t.cfg.slab = true;
	MBD_CHECK(emit(&t, "slab", why, sizeof(why)) == NULL);
	MBD_CHECK(strstr(why, "slab") != NULL);
	t.cfg.slab = false;
	push(&t, MBD_OP_SLAB_UP, 0, 0);
	MBD_CHECK(emit(&t, "slab_up", why, sizeof(why)) == NULL);
	MBD_CHECK(strstr(why, "slab") != NULL);

	/* more memory than the dummy block (16 MiB) holds; 16 MiB less a
	 * page still fits */
	mbd_trace_clear(&t);
	push(&t, MBD_OP_ADD, 0, 0x1000000);
	MBD_CHECK(emit(&t, "big", why, sizeof(why)) == NULL);
	MBD_CHECK(strstr(why, "PHYS_MEM_SIZE") != NULL);
	mbd_trace_clear(&t);
	push(&t, MBD_OP_ADD, 0, 0xfff000);
	{
		char *text = emit(&t, "fits", why, sizeof(why));

		MBD_CHECK(text != NULL);
		MBD_CHECK(text && strstr(text, "+ PHYS_MEM_SIZE);") != NULL);
		/* no node ids: runs in every build */
		MBD_CHECK(text && strstr(text, "CONFIG_NUMA\n\tfits_check") == NULL);
		free(text);
	}
	/* a call naming a node: only with NUMA=1, and it says so otherwise */
	mbd_trace_clear(&t);
	push(&t, MBD_OP_ADD_NODE, 0, 0x1000);
	{
		char *text = emit(&t, "node", why, sizeof(why));

		MBD_CHECK(text && strstr(text, "#ifdef CONFIG_NUMA\nstatic int node_check(void)") != NULL);
		MBD_CHECK(text && strstr(text, "not run, its calls need NUMA=1") != NULL);
		free(text);
	}

	/* resize not allowed: the 2nd add panics, the test stops before it */
	mbd_trace_clear(&t);
	t.cfg.memory_max = 1;
	push(&t, MBD_OP_ADD, 0x1000, 0x1000);
	push(&t, MBD_OP_ADD, 0x3000, 0x1000);
	s = emit(&t, "panics", why, sizeof(why));
	MBD_CHECK(s != NULL);
	if (s) {
		MBD_CHECK(strstr(s, "panics on mainline") != NULL);
		MBD_CHECK(strstr(s, "memblock_add(b + 0x3000") == NULL);
		MBD_CHECK(strstr(s, "ASSERT_EQ(memblock.memory.cnt, 1);") != NULL);
		free(s);
	}
	mbd_trace_free(&t);
	printf("%d passed, %d failed\n", mbd_test_passed, mbd_test_failed);
	return mbd_test_failed != 0;
}
