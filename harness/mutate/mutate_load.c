// SPDX-License-Identifier: GPL-2.0
/*
 * Input bytes to the calls the mutator works on: the last output and the
 * inputs it decoded before are not decoded again, and the inputs it wrote
 * are known by their hash (the encoder may keep their bytes).
 */
#include <stdlib.h>
#include <string.h>

#include "mbd_input.h"
#include "mutate_int.h"

/* A 64-bit hash of bytes, never 0 (0 marks an empty slot). */
uint64_t mbd_mut_hash(const uint8_t *p, size_t n)
{
	uint64_t h = 0x243f6a8885a308d3ULL ^ n, w;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	for (; i < n; i++) {
		h = (h ^ p[i]) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	return h ? h : 1;
}

void mbd_mut_remember(struct mbd_mutator *m, const uint8_t *p, size_t n)
{
	uint64_t h = mbd_mut_hash(p, n);

	m->made[h & (KNOWN_SLOTS - 1)] = h;
}

/*
 * data is a compact encoding this mutator wrote: reusing its prefix gives
 * the very bytes a full encode would (the encoding of a call depends only
 * on the calls before it), so the output never depends on what is
 * remembered. A collision only costs compactness, never correctness: the
 * encoder decodes whatever it keeps.
 */
bool mbd_mut_made_here(const struct mbd_mutator *m, uint64_t h)
{
	return m->made[h & (KNOWN_SLOTS - 1)] == h;
}

/* The slot data would have in the cache of decoded inputs, if any. */
static struct loaded *loaded_slot(struct mbd_mutator *m, size_t size, uint64_t h)
{
	if (size > LOADED_MAX_LEN)
		return NULL;
	if (!m->loaded) {
		m->loaded = calloc(LOADED_SLOTS, sizeof(*m->loaded));
		if (!m->loaded)
			return NULL; /* out of memory: decode every time */
	}
	return &m->loaded[h & (LOADED_SLOTS - 1)];
}

/* Input bytes (h: their mbd_mut_hash()) -> m's trace; text that does not
 * parse is read as bytes. Returns true if data is m's last output (whose
 * encoder marks m keeps), however it was read. */
bool mbd_mut_load(struct mbd_mutator *m, const uint8_t *data, size_t size,
		  uint64_t h)
{
	/* libFuzzer mutates its last mutation again (-mutate_depth) */
	const struct mbd_trace *t = mbd_mutator_last(m, data, size);
	bool last = t != NULL;
	struct loaded *l = NULL;

	if (t && mbd_input_is_text(data, size))
		t = NULL; /* read as text, as below */
	if (!t) {
		l = loaded_slot(m, size, h);
		if (l && l->h == h && l->len == size &&
		    memcmp(l->bytes, data, size) == 0) {
			m->cfg = l->cfg;
			m->n = l->n;
			memcpy(m->ops, l->ops, m->n * sizeof(m->ops[0]));
			return last;
		}
		t = &m->in;
		if (mbd_decode_input(data, size, "<mutate>", m->dec, &m->in, NULL))
			mbd_bin_decode(data, size, m->dec, &m->in);
	}
	m->cfg = t->cfg;
	/* a text trace may ask for boot arrays the byte form cannot carry */
	if (m->cfg.memory_max > MBD_INIT_REGIONS)
		m->cfg.memory_max = MBD_INIT_REGIONS;
	if (m->cfg.reserved_max > MBD_INIT_REGIONS)
		m->cfg.reserved_max = MBD_INIT_REGIONS;
	m->n = t->n_ops < MAX_OPS ? t->n_ops : MAX_OPS;
	if (m->n)
		memcpy(m->ops, t->ops, m->n * sizeof(m->ops[0]));
	/* a text trace's calls may carry fields of no use to their shape;
	 * decoded and last calls are normalized, and every mutation keeps
	 * them so (mbd_mut_emit() relies on it) */
	if (t == &m->in)
		for (size_t i = 0; i < m->n; i++)
			mbd_op_normalize(&m->ops[i]);
	if (l) {
		/* what this load gave, for the next load of the same bytes */
		l->h = h;
		l->len = size;
		memcpy(l->bytes, data, size);
		l->cfg = m->cfg;
		l->n = m->n;
		memcpy(l->ops, m->ops, m->n * sizeof(m->ops[0]));
	}
	return last;
}

const struct mbd_trace *mbd_mutator_last(const struct mbd_mutator *m,
					 const uint8_t *data, size_t size)
{
	if (!m->last_len || size != m->last_len || memcmp(data, m->last, size) != 0)
		return NULL;
	return &m->last_trace;
}
