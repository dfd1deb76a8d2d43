// SPDX-License-Identifier: GPL-2.0
/*
 * Which array a debugfs table is when no line before it names it (a paste
 * of `cat memblock/memory` and `cat memblock/reserved` output without the
 * commands). Told apart, in this order, by:
 *   - flags only one array has: NOMAP, HOTPLUG, MIRROR, DRV_MNG,
 *     KHO_SCRATCH are memory's; RSV_NIT, RSV_KERN, RSV_HUGETLB reserved's;
 *   - the table beside it (only blanks and unrecognised lines between),
 *     when that one is named or told apart: it is the other array;
 *   - two unnamed tables side by side: the one that lies inside the other
 *     is reserved; if neither does, or both are the same, debugfs order
 *     (memory, then reserved) decides.
 * A single unnamed table without such flags stays unknown: the import
 * fails, saying why (import_state.c).
 */
#include <stdlib.h>
#include <string.h>

#include "import_int.h"

struct view {
	size_t first, last;   /* line indexes */
	int kind;             /* 0 memory, 1 reserved, -1 not known */
	const char *why;
	bool named;
};

int mbd_imp_names_array(const struct line *l)
{
	if (l->cls != L_HEADER && l->cls != L_OTHER)
		return -1; /* a call's "reserve_memory" caller names no table */
	return strstr(l->s, "reserved") ? 1 : strstr(l->s, "memory") ? 0 : -1;
}

/* Flags only one array has: 0 memory, 1 reserved, -1 neither. */
static int flag_kind(const struct line *ls, const struct view *v)
{
	static const char *const mem[] = { "NOMAP", "HOTPLUG", "MIRROR", "DRV_MNG", "KHO_SCRATCH" };

	for (size_t i = v->first; i <= v->last; i++) {
		const char *range = strstr(ls[i].s, "..");
		const char *rest = range ? range + 2 + strcspn(range + 2, " \t") : "";

		for (size_t k = 0; k < sizeof(mem) / sizeof(mem[0]); k++)
			if (strstr(rest, mem[k]))
				return 0;
		if (strstr(rest, "RSV_"))
			return 1;
	}
	return -1;
}

/* Does every range of b lie inside the ranges of a (both sorted)? */
static bool inside(const struct line *ls, const struct view *b, const struct view *a)
{
	for (size_t i = b->first; i <= b->last; i++) {
		struct mbd_expect e;
		bool unk;
		uint64_t at, end;

		if (mbd_imp_state_line(ls[i].s, &e, &unk) != 1)
			return false;
		at = e.base;
		end = e.base + e.size;  /* may wrap to 0 at the very top */
		for (size_t j = a->first; j <= a->last && at != end; j++) {
			struct mbd_expect r;
			uint64_t rend;

			if (mbd_imp_state_line(ls[j].s, &r, &unk) != 1)
				return false;
			rend = r.base + r.size;
			if (r.base <= at && (rend > at || rend == 0))
				at = rend == 0 || (end != 0 && rend >= end) ? end : rend;
		}
		if (at != end)
			return false;
	}
	return true;
}

/* Only blanks and unrecognised lines between views a and b? */
static bool beside(const struct line *ls, const struct view *a, const struct view *b)
{
	for (size_t i = a->last + 1; i < b->first; i++)
		if (ls[i].cls != L_BLANK && ls[i].cls != L_OTHER && ls[i].cls != L_HEADER)
			return false;
	return true;
}

static void decide_pair(const struct line *ls, struct view *a, struct view *b)
{
	bool ab = inside(ls, a, b), ba = inside(ls, b, a);

	if (ba && !ab) {
		a->kind = 0, b->kind = 1;
		a->why = "the table after it lies inside it";
		b->why = "it lies inside the table before it";
	} else if (ab && !ba) {
		a->kind = 1, b->kind = 0;
		a->why = "it lies inside the table after it";
		b->why = "the table before it lies inside it";
	} else {
		a->kind = 0, b->kind = 1;
		a->why = b->why = "of two tables side by side, debugfs lists memory first";
	}
}

int mbd_imp_views(struct line *ls, size_t n)
{
	struct view *v = NULL;
	size_t nv = 0, cap = 0;

	for (size_t i = 0; i < n; i++) {
		size_t p = i;

		if (!mbd_imp_view_starts(ls, i))
			continue;
		if (nv == cap) {
			struct view *nvs = realloc(v, (cap = cap ? cap * 2 : 8) * sizeof(*v));

			if (!nvs) {
				free(v);
				return -1;
			}
			v = nvs;
		}
		memset(&v[nv], 0, sizeof(v[nv]));
		v[nv].first = i;
		v[nv].kind = -1;
		while (i + 1 < n && ls[i + 1].cls == L_STATE && !mbd_imp_view_starts(ls, i + 1))
			i++;
		v[nv].last = i;
		/* named by the line before it, as the import reads it (blanks skipped) */
		while (p > 0 && ls[p - 1].cls == L_BLANK)
			p--;
		if (p > 0 && ls[p - 1].cls != L_STATE) {
			v[nv].kind = mbd_imp_names_array(&ls[p - 1]);
			v[nv].named = v[nv].kind >= 0;
		}
		nv++;
	}
	for (size_t k = 0; k < nv; k++) {
		if (v[k].kind < 0 && (v[k].kind = flag_kind(ls, &v[k])) >= 0)
			v[k].why = v[k].kind ? "its RSV_ flags are reserved's alone" :
				   "its NOMAP/HOTPLUG/MIRROR/DRV_MNG flags are memory's alone";
	}
	for (int pass = 0; pass < 2; pass++) {
		for (size_t k = 0; k + 1 < nv; k++) {
			struct view *a = &v[k], *b = &v[k + 1];

			if (!beside(ls, a, b) || (a->kind >= 0) == (b->kind >= 0))
				continue;
			if (a->kind < 0) {
				a->kind = !b->kind;
				a->why = "the table after it is the other array";
			} else {
				b->kind = !a->kind;
				b->why = "the table before it is the other array";
			}
		}
	}
	for (size_t k = 0; k + 1 < nv; k++)
		if (v[k].kind < 0 && v[k + 1].kind < 0 && beside(ls, &v[k], &v[k + 1]))
			decide_pair(ls, &v[k], &v[k + 1]);
	for (size_t k = 0; k < nv; k++) {
		ls[v[k].first].view = v[k].named ? -2 : v[k].kind;
		ls[v[k].first].view_why = v[k].why;
	}
	free(v);
	return 0;
}
