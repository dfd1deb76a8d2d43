// SPDX-License-Identifier: GPL-2.0
/* `expect` checkpoints: compare one array of a state with a checkpoint. */
#include <stdio.h>

#include "mbd_expect.h"

typedef unsigned long long ull;

enum mbd_class mbd_expect_check(const struct mbd_expect *e, const struct mbd_state *s,
				char *detail, size_t n)
{
	const struct mbd_type_state *ts = e->type == MBD_TYPE_RESERVED ? &s->reserved : &s->memory;
	const char *tn = e->type == MBD_TYPE_RESERVED ? "reserved" : "memory";
	const struct mbd_region *r;

	if (e->what == MBD_EXPECT_HEAD) {
		if ((e->have & MBD_EXPECT_HAS_CNT) && ts->cnt != e->cnt) {
			snprintf(detail, n, "%s.cnt is %llu, expected %llu", tn, (ull)ts->cnt,
				 (ull)e->cnt);
			return MBD_CLASS_LAYOUT;
		}
		if ((e->have & MBD_EXPECT_HAS_TOTAL) && ts->total_size != e->total) {
			snprintf(detail, n, "%s total size is 0x%llx, expected 0x%llx", tn,
				 (ull)ts->total_size, (ull)e->total);
			return MBD_CLASS_LAYOUT;
		}
		if ((e->have & MBD_EXPECT_HAS_MAX) && ts->max != e->max) {
			snprintf(detail, n, "%s.max is %llu, expected %llu", tn, (ull)ts->max,
				 (ull)e->max);
			return MBD_CLASS_CAPACITY;
		}
		return MBD_CLASS_NONE;
	}
	if (e->index >= ts->n_copied) {
		snprintf(detail, n, "%s[%u] missing (cnt %llu), expected [0x%llx-0x%llx]", tn,
			 (unsigned)e->index, (ull)ts->cnt, (ull)e->base,
			 (ull)(e->base + e->size - 1));
		return MBD_CLASS_LAYOUT;
	}
	r = &ts->regions[e->index];
	if (r->base != e->base || r->size != e->size) {
		snprintf(detail, n, "%s[%u] is [0x%llx-0x%llx], expected [0x%llx-0x%llx]", tn,
			 (unsigned)e->index, (ull)r->base, (ull)(r->base + r->size - 1),
			 (ull)e->base, (ull)(e->base + e->size - 1));
		return MBD_CLASS_COVERAGE;
	}
	if ((e->have & MBD_EXPECT_HAS_FLAGS) && r->flags != e->flags) {
		snprintf(detail, n, "%s[%u] flags 0x%x, expected 0x%x", tn, (unsigned)e->index,
			 (unsigned)r->flags, (unsigned)e->flags);
		return MBD_CLASS_COVERAGE;
	}
	if ((e->have & MBD_EXPECT_HAS_NID) && r->nid != e->nid) {
		snprintf(detail, n, "%s[%u] nid %d, expected %d", tn, (unsigned)e->index,
			 (int)r->nid, (int)e->nid);
		return MBD_CLASS_COVERAGE;
	}
	return MBD_CLASS_NONE;
}
