// SPDX-License-Identifier: GPL-2.0
/*
 * Compare two variants after the same call, worst difference first:
 * panic, coverage (memory, reserved), return value, layout, capacity,
 * warnings.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_compare.h"
#include "mbd_interval.h"

#ifdef __GNUC__
__attribute__((format(printf, 4, 5)))
#endif
static enum mbd_class set_diff(struct mbd_diff *d, enum mbd_class cls,
			       enum mbd_where where, const char *fmt, ...)
{
	va_list ap;

	d->cls = cls;
	d->where = where;
	d->detail[0] = '\0';
	if (cls < d->text_min)
		return cls;
	va_start(ap, fmt);
	vsnprintf(d->detail, sizeof(d->detail), fmt, ap);
	va_end(ap);
	return cls;
}

struct sorted_region {
	struct mbd_region r;
	size_t idx;
};

static int cmp_sorted(const void *pa, const void *pb)
{
	const struct sorted_region *a = pa, *b = pb;

	if (a->r.base != b->r.base)
		return a->r.base < b->r.base ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/*
 * Regions of t in base order. A sorted array is used in place; a broken one
 * (unsorted) is copied and sorted, stable by index, into *tmp, which the
 * caller frees. If that copy cannot be allocated the array is read as is.
 */
static const struct mbd_region *base_order(const struct mbd_type_state *t,
					   struct mbd_region **tmp)
{
	struct sorted_region *s;
	size_t n = t->n_copied;
	bool sorted = true;

	*tmp = NULL;
	for (size_t i = 1; i < n && sorted; i++)
		sorted = t->regions[i - 1].base <= t->regions[i].base;
	if (sorted)
		return t->regions;
	s = malloc(n * sizeof(*s));
	*tmp = malloc(n * sizeof(**tmp));
	if (!s || !*tmp) {
		free(s);
		free(*tmp);
		*tmp = NULL;
		return t->regions;
	}
	for (size_t i = 0; i < n; i++) {
		s[i].r = t->regions[i];
		s[i].idx = i;
	}
	qsort(s, n, sizeof(*s), cmp_sorted);
	for (size_t i = 0; i < n; i++)
		(*tmp)[i] = s[i].r;
	free(s);
	return *tmp;
}

/* True (and *d filled) if a and b cover different bytes or attributes. */
static bool coverage_diff(const struct mbd_type_state *a,
			  const struct mbd_type_state *b, struct mbd_run_diff *d)
{
	struct mbd_region *ta, *tb;
	const struct mbd_region *ra = base_order(a, &ta);
	const struct mbd_region *rb = base_order(b, &tb);
	struct mbd_run_src sa, sb;
	bool differ;

	mbd_run_src_regions(&sa, ra, a->n_copied);
	mbd_run_src_regions(&sb, rb, b->n_copied);
	differ = mbd_runs_diff(&sa, &sb, d);
	free(ta);
	free(tb);
	return differ;
}

bool mbd_same_coverage(const struct mbd_type_state *a, const struct mbd_type_state *b)
{
	struct mbd_run_diff d;

	return !coverage_diff(a, b, &d);
}

static enum mbd_class cmp_coverage(const char *nm, enum mbd_where where,
				   const struct mbd_type_state *a,
				   const struct mbd_type_state *b,
				   struct mbd_diff *out)
{
	struct mbd_run_diff d;

	if (!coverage_diff(a, b, &d))
		return MBD_CLASS_NONE;
	if (!d.in_b)
		return set_diff(out, MBD_CLASS_COVERAGE, where, "%s: [0x%" PRIx64
				"-0x%" PRIx64 "] only in a (flags 0x%x nid %d)",
				nm, d.start, d.end - 1, d.flags_a, d.nid_a);
	if (!d.in_a)
		return set_diff(out, MBD_CLASS_COVERAGE, where, "%s: [0x%" PRIx64
				"-0x%" PRIx64 "] only in b (flags 0x%x nid %d)",
				nm, d.start, d.end - 1, d.flags_b, d.nid_b);
	return set_diff(out, MBD_CLASS_COVERAGE, where, "%s: [0x%" PRIx64 "-0x%"
			PRIx64 "] flags 0x%x nid %d vs flags 0x%x nid %d", nm,
			d.start, d.end - 1, d.flags_a, d.nid_a, d.flags_b, d.nid_b);
}

static enum mbd_class cmp_layout(const char *nm, enum mbd_where where,
				 const struct mbd_type_state *a,
				 const struct mbd_type_state *b,
				 struct mbd_diff *d)
{
	size_t n = a->n_copied < b->n_copied ? a->n_copied : b->n_copied;

	if (a->cnt != b->cnt)
		return set_diff(d, MBD_CLASS_LAYOUT, where, "%s: cnt %" PRIu64
				" vs %" PRIu64, nm, a->cnt, b->cnt);
	if (a->total_size != b->total_size)
		return set_diff(d, MBD_CLASS_LAYOUT, where, "%s: total_size 0x%"
				PRIx64 " vs 0x%" PRIx64, nm, a->total_size,
				b->total_size);
	for (size_t i = 0; i < n; i++) {
		const struct mbd_region *x = &a->regions[i], *y = &b->regions[i];

		if (x->base != y->base)
			return set_diff(d, MBD_CLASS_LAYOUT, where, "%s: region %zu"
					" base 0x%" PRIx64 " vs 0x%" PRIx64, nm, i,
					x->base, y->base);
		if (x->size != y->size)
			return set_diff(d, MBD_CLASS_LAYOUT, where, "%s: region %zu"
					" size 0x%" PRIx64 " vs 0x%" PRIx64, nm, i,
					x->size, y->size);
		if (x->flags != y->flags)
			return set_diff(d, MBD_CLASS_LAYOUT, where, "%s: region %zu"
					" flags 0x%x vs 0x%x", nm, i, x->flags,
					y->flags);
		if (x->nid != y->nid)
			return set_diff(d, MBD_CLASS_LAYOUT, where, "%s: region %zu"
					" nid %d vs %d", nm, i, x->nid, y->nid);
	}
	if (a->n_copied != b->n_copied)
		return set_diff(d, MBD_CLASS_LAYOUT, where, "%s: %zu vs %zu regions"
				" copied", nm, a->n_copied, b->n_copied);
	return MBD_CLASS_NONE;
}

/* Small values (errors) in decimal, addresses in hex. */
static void fmt_ret(char *buf, size_t n, int64_t v)
{
	if (v >= -4096 && v <= 4096)
		snprintf(buf, n, "%" PRId64, v);
	else
		snprintf(buf, n, "0x%" PRIx64, (uint64_t)v);
}

enum mbd_class mbd_compare(const struct mbd_result *ra, const struct mbd_state *sa,
			   const struct mbd_result *rb, const struct mbd_state *sb,
			   struct mbd_diff *d)
{
	return mbd_compare_text(ra, sa, rb, sb, d, MBD_CLASS_NONE);
}

enum mbd_class mbd_compare_text(const struct mbd_result *ra,
				const struct mbd_state *sa,
				const struct mbd_result *rb,
				const struct mbd_state *sb, struct mbd_diff *d,
				enum mbd_class text_min)
{
	enum mbd_class c;

	/* no memset: most of *d is text, read up to its terminator only */
	d->text_min = text_min;
	d->cls = MBD_CLASS_NONE;
	d->where = MBD_WHERE_CALL;
	d->detail[0] = '\0';

	/* after a panic the states are meaningless: the outcome is all */
	if (ra->panicked != rb->panicked)
		return set_diff(d, MBD_CLASS_PANIC, MBD_WHERE_CALL,
				"panic in %s only: \"%.100s\"",
				ra->panicked ? "a" : "b",
				ra->panicked ? ra->panic_msg : rb->panic_msg);
	if (ra->panicked) {
		if (strcmp(ra->panic_msg, rb->panic_msg))
			return set_diff(d, MBD_CLASS_PANIC, MBD_WHERE_CALL,
					"panic \"%.100s\" vs \"%.100s\"",
					ra->panic_msg, rb->panic_msg);
		return MBD_CLASS_NONE;
	}

	if ((c = cmp_coverage("memory", MBD_WHERE_MEMORY, &sa->memory, &sb->memory, d)))
		return c;
	if ((c = cmp_coverage("reserved", MBD_WHERE_RESERVED, &sa->reserved,
			      &sb->reserved, d)))
		return c;

	if (ra->ret != rb->ret) {
		char x[24], y[24];

		fmt_ret(x, sizeof(x), ra->ret);
		fmt_ret(y, sizeof(y), rb->ret);
		return set_diff(d, MBD_CLASS_RETURN, MBD_WHERE_CALL, "ret %s vs %s", x, y);
	}

	if ((c = cmp_layout("memory", MBD_WHERE_MEMORY, &sa->memory, &sb->memory, d)))
		return c;
	if ((c = cmp_layout("reserved", MBD_WHERE_RESERVED, &sa->reserved,
			    &sb->reserved, d)))
		return c;

	if (sa->memory.max != sb->memory.max)
		return set_diff(d, MBD_CLASS_CAPACITY, MBD_WHERE_MEMORY,
				"memory: max %" PRIu64 " vs %" PRIu64,
				sa->memory.max, sb->memory.max);
	if (sa->reserved.max != sb->reserved.max)
		return set_diff(d, MBD_CLASS_CAPACITY, MBD_WHERE_RESERVED,
				"reserved: max %" PRIu64 " vs %" PRIu64,
				sa->reserved.max, sb->reserved.max);

	if (sa->warnings != sb->warnings)
		return set_diff(d, MBD_CLASS_WARNING, MBD_WHERE_CALL,
				"warnings %" PRIu64 " vs %" PRIu64,
				sa->warnings, sb->warnings);
	return MBD_CLASS_NONE;
}
