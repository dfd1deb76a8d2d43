// SPDX-License-Identifier: GPL-2.0
/*
 * Op-level mutation and cross-over of fuzzer inputs (mbd_mutate.h): an
 * input is read as calls (mutate_load.c), changed (mutate_ops.c) or
 * spliced with another, and written again (mutate_emit.c).
 */
#include <stdlib.h>
#include <string.h>

#include "mutate_int.h"

struct mbd_mutator *mbd_mutator_new(enum mbd_decoder dec)
{
	struct mbd_mutator *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->dec = dec;
	mbd_trace_init(&m->in);
	mbd_trace_init(&m->last_trace);
	m->marks[0] = mbd_bin_marks_new();
	m->marks[1] = mbd_bin_marks_new();
	if (!m->marks[0] || !m->marks[1]) {
		mbd_mutator_free(m);
		return NULL;
	}
	return m;
}

void mbd_mutator_free(struct mbd_mutator *m)
{
	if (!m)
		return;
	mbd_trace_free(&m->in);
	mbd_trace_free(&m->last_trace);
	mbd_bin_marks_free(m->marks[0]);
	mbd_bin_marks_free(m->marks[1]);
	free(m->loaded);
	free(m);
}

size_t mbd_mutate(struct mbd_mutator *m, uint8_t *data, size_t size, size_t max,
		  uint64_t seed)
{
	struct mctx c = { .s = seed, .m = m };
	unsigned rounds = 1;
	uint64_t h = mbd_mut_hash(data, size);
	bool known = mbd_mut_made_here(m, h);
	bool last = mbd_mut_load(m, data, size, h);

	if (below(&c, 3) == 0)
		rounds += 1 + below(&c, 3);
	for (unsigned i = 0; i < rounds; i++)
		mbd_mut_once(&c);
	/* data is read as the hint before mbd_mut_emit() writes it */
	return mbd_mut_emit(m, data, max, known ? data : NULL, size, last);
}

size_t mbd_crossover(struct mbd_mutator *m, const uint8_t *a, size_t na,
		     const uint8_t *b, size_t nb, uint8_t *out, size_t max,
		     uint64_t seed)
{
	struct mctx c = { .s = seed, .m = m };
	struct mbd_op run[MAX_OPS];
	size_t from, len, at;
	uint64_t h;
	bool a_last;

	mbd_mut_load(m, b, nb, mbd_mut_hash(b, nb));
	if (!m->n)
		return 0;
	/* a run of b's calls, aimed at a position in a */
	from = below(&c, (uint32_t)m->n);
	len = 1 + below(&c, (uint32_t)(m->n - from));
	memcpy(run, &m->ops[from], len * sizeof(run[0]));
	h = mbd_mut_hash(a, na);
	a_last = mbd_mut_load(m, a, na, h);
	/* after at least one of a's calls, if a has any */
	at = m->n ? 1 + below(&c, (uint32_t)m->n) : 0;
	if (at > MAX_OPS - 1)
		at = MAX_OPS - 1;
	if (len > MAX_OPS - at)
		len = MAX_OPS - at;
	if (m->n + len > MAX_OPS)
		m->n = MAX_OPS - len; /* drops a's tail; at + len <= MAX_OPS */
	memmove(&m->ops[at + len], &m->ops[at], (m->n - at) * sizeof(m->ops[0]));
	memcpy(&m->ops[at], run, len * sizeof(run[0]));
	m->n += len;
	return mbd_mut_emit(m, out, max, mbd_mut_made_here(m, h) ? a : NULL, na, a_last);
}
