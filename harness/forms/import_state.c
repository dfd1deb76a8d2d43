// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own view of its arrays, /sys/kernel/debug/memblock/
 * {memory,reserved} (ARCH_KEEP_MEMBLOCK kernels), one region a line:
 *   "   0: 0x0000000040000000..0x00000000bfffffff"            (up to v6.x)
 *   "   0: 0x0000000040000000..0x00000000bfffffff    0 NONE"  (later: node,
 *                                                  flag names joined by |)
 * The end is inclusive; a node printed as "x" is MAX_NUMNODES (no node).
 * KHO_SCRATCH and RSV_HUGETLB are left unchecked (no trace op sets them);
 * RSV_KERN (v6.16+) is checked: memblock_reserve_kern sets it.
 * debugfs prints no header: the line before the view names the array
 * ("cat /sys/kernel/debug/memblock/reserved", or a marker saying so), else
 * import_views.c tells it from the table itself and the one beside it.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "import_int.h"

static const struct {
	const char *name;
	uint32_t bit;
} flag_names[] = {
	{ "HOTPLUG", 0x1 }, { "MIRROR", 0x2 }, { "NOMAP", 0x4 },
	{ "DRV_MNG", 0x8 }, { "RSV_NIT", 0x10 }, { "RSV_KERN", MBD_FLAG_RSRV_KERN },
};

/* "NOMAP|HOTPLUG" -> bits; false if one of them is not a flag a trace can write. */
static bool flags_of(const char *s, size_t len, uint32_t *bits)
{
	*bits = 0;
	while (len) {
		const char *bar = memchr(s, '|', len);
		size_t n = bar ? (size_t)(bar - s) : len;
		bool found = n == 4 && !memcmp(s, "NONE", 4);

		for (size_t i = 0; !found && i < sizeof(flag_names) / sizeof(flag_names[0]); i++) {
			if (strlen(flag_names[i].name) == n && !memcmp(s, flag_names[i].name, n)) {
				*bits |= flag_names[i].bit;
				found = true;
			}
		}
		if (!found)
			return false;
		s += n;
		len -= n;
		if (len) {
			s++;
			len--;
		}
	}
	return true;
}

int mbd_imp_state_line(const char *s, struct mbd_expect *e, bool *unknown)
{
	uint64_t a, b, nid = 0;
	const char *p = s;
	size_t n;

	*unknown = false;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p != ':' || (p[1] != ' ' && p[1] != '\t'))
		return 0;
	p = mbd_imp_skip_ws(p + 1);
	if (!mbd_imp_starts(p, "0x") || !mbd_imp_pair(p, "", "..", &a, &b, &p))
		return 0;
	memset(e, 0, sizeof(*e));
	e->what = MBD_EXPECT_REGION;
	e->base = a;
	e->size = b - a + 1;
	p = mbd_imp_skip_ws(p);
	if (!*p)
		return 1;
	/* the newer form: the node (or "x"), then the flag names */
	if (*p == 'x') {
		p++;
	} else {
		if (!mbd_imp_decnum(p, &nid, &p) || nid > 1024)
			return -1;
		e->nid = (int32_t)nid;
		e->have |= MBD_EXPECT_HAS_NID;
	}
	if (*p != ' ' && *p != '\t')
		return -1;
	p = mbd_imp_skip_ws(p);
	n = strcspn(p, " \t");
	if (!n || *mbd_imp_skip_ws(p + n))
		return -1;
	if (flags_of(p, n, &e->flags))
		e->have |= MBD_EXPECT_HAS_FLAGS;
	else
		*unknown = true;
	return 1;
}

/* The "N:" index of a debugfs line. */
static uint64_t index_of(const char *s)
{
	uint64_t v = 0;

	mbd_imp_decnum(s, &v, &s);
	return v;
}

bool mbd_imp_view_starts(const struct line *ls, size_t i)
{
	return ls[i].cls == L_STATE &&
	       (i == 0 || ls[i - 1].cls != L_STATE || index_of(ls[i].s) == 0);
}

size_t mbd_imp_state(struct ictx *x, struct line *ls, size_t n, size_t i)
{
	struct dump *d = calloc(1, sizeof(*d));
	int t = x->hint;
	size_t j = i;

	if (!d) {
		x->body.oom = 1;
		return n;
	}
	if (t < 0 && ls[i].view >= 0) {
		t = ls[i].view;
		mbd_imp_printf(&x->body, "# (a debugfs table no line names: memblock.%s, since %s)\n",
			       t ? "reserved" : "memory", ls[i].view_why);
	}
	if (t < 0)
		mbd_imp_fail(x, &ls[i], "memblock debugfs table, but no line before it names memory "
			     "or reserved, and nothing tells which it is (no NOMAP or RSV_ flags, no "
			     "second table beside it): put the \"cat .../memblock/memory\" (or "
			     "reserved) line before it");
	for (; j < n && ls[j].cls == L_STATE && (j == i || !mbd_imp_view_starts(ls, j)); j++) {
		struct mbd_expect e, *slot;
		bool unknown;

		mbd_imp_comment(x, &ls[j], "");
		ls[j].done = 1;
		if (mbd_imp_state_line(ls[j].s, &e, &unknown) < 0) {
			mbd_imp_fail(x, &ls[j], "damaged memblock debugfs line: expected "
				     "\"N: 0xBASE..0xEND\", optionally followed by \"NODE FLAGS\"");
			break;
		}
		slot = mbd_imp_dump_slot(x, d, &ls[j]);
		if (!slot)
			break;
		e.type = t > 0 ? MBD_TYPE_RESERVED : MBD_TYPE_MEMORY;
		e.line = ls[j].no;
		*slot = e;
		d->unknown_flags += unknown;
	}
	if (!x->err[0] && !x->body.oom) {
		d->have_cnt[t] = true;
		d->cnt[t] = d->n;
		if (t)
			mbd_imp_infer_frees(x, d);
		mbd_imp_printf(&x->body, "# the kernel's own memblock.%s (debugfs)\n",
			       t ? "reserved" : "memory");
		mbd_imp_finish_dump(x, d, &ls[i]);
		x->st->dumps++;
		x->st->known += j - i;
	}
	x->hint = -1; /* a table right after this one is not named by it */
	free(d->reg);
	free(d);
	return j - 1;
}
