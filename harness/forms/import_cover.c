// SPDX-License-Identifier: GPL-2.0
/* The ranges a trace touched, and the gaps a dump's region has beyond them. */
#include <stdlib.h>

#include "import_int.h"

static uint64_t end_of(uint64_t base, uint64_t size)
{
	return size > UINT64_MAX - base ? UINT64_MAX : base + size;
}

void mbd_imp_cover_add(struct cover *c, uint64_t base, uint64_t size)
{
	if (!size)
		return;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		struct span *r = realloc(c->r, cap * sizeof(*r));

		if (!r) {
			c->oom = 1;
			return;
		}
		c->r = r;
		c->cap = cap;
	}
	c->r[c->n].a = base;
	c->r[c->n].b = end_of(base, size);
	c->n++;
}

void mbd_imp_cover_gaps(const struct cover *c, uint64_t base, uint64_t size,
			   void (*fn)(void *ctx, uint64_t base, uint64_t size), void *ctx)
{
	uint64_t cur = base, end = end_of(base, size);

	while (cur < end) {
		uint64_t next = end, past = cur;

		for (size_t i = 0; i < c->n; i++) {
			if (c->r[i].a <= cur && c->r[i].b > past)
				past = c->r[i].b;      /* cur is covered up to past */
			else if (c->r[i].a > cur && c->r[i].a < next)
				next = c->r[i].a;      /* the next covered start */
		}
		if (past > cur) {
			cur = past;
			continue;
		}
		fn(ctx, cur, next - cur);
		cur = next;
	}
}

void mbd_imp_cover_free(struct cover *c)
{
	free(c->r);
	c->r = NULL;
	c->n = c->cap = 0;
}
