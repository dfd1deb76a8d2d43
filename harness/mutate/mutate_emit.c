// SPDX-License-Identifier: GPL-2.0
/*
 * The mutator's calls back to bytes: the compact form for the structured
 * decoder (mbd_bin_encode_compact_normal()), the plain one otherwise or
 * when that fails, as many leading calls as fit.
 */
#include <stdlib.h>
#include <string.h>

#include "mutate_int.h"

/* Length of the encoding of the first k ops (naive or fallback form). */
static long plain_len(struct mbd_mutator *m, size_t k, uint8_t **bytes)
{
	struct mbd_trace t = { .cfg = m->cfg, .ops = m->ops, .n_ops = k };
	size_t len;

	if (mbd_bin_encode(&t, m->dec, bytes, &len))
		return -1;
	return (long)len;
}

/*
 * out[0..len) is the compact form of the config and the first k calls
 * (normalized: see mbd_mut_load()): keep both, as mbd_bin_decode() gives
 * them back.
 */
static void keep_last(struct mbd_mutator *m, const uint8_t *out, size_t len,
		      size_t k)
{
	m->last_len = 0;
	m->last_trace.cfg = m->cfg;
	if (mbd_trace_set_ops(&m->last_trace, m->ops, k))
		return; /* out of memory: the target decodes */
	memcpy(m->last, out, len);
	m->last_len = len;
}

/*
 * Encode m's trace into out: as many leading calls as fit in max bytes,
 * keeping the bytes of the input it came from (hint) for the calls they
 * still give. Returns the size, or 0 if not even one call (or the config)
 * fits.
 */
size_t mbd_mut_emit(struct mbd_mutator *m, uint8_t *out, size_t max,
		    const uint8_t *hint, size_t hint_len, bool hint_is_last)
{
	const struct mbd_bin_marks *hm = hint && hint_is_last ? m->marks[m->mk] : NULL;
	struct mbd_trace t = { .cfg = m->cfg, .ops = m->ops, .n_ops = m->n };
	size_t k = 0, len;
	long full = -1;
	uint8_t *bytes = NULL;

	for (size_t i = 0; i < m->n;)
		if (mbd_bin_op_fits(&m->ops[i], m->dec))
			i++;
		else
			mbd_mut_delete_at(m, i);
	t.n_ops = m->n;
	/* the calls are normalized (mbd_mut_load() and every mutation keep
	   them so), as this entry and keep_last() want; those past max bytes
	   are not encoded, they would be cut */
	if (m->dec == MBD_DECODER_STRUCTURED)
		full = mbd_bin_encode_compact_normal(&t, m->buf, sizeof(m->buf),
						     m->ends, hint, hint_len, max, &k,
						     hm, hm ? m->last_trace.ops : NULL,
						     m->marks[m->mk ^ 1]);
	if (full >= 0) {
		if (m->ends[k] > max)
			return 0; /* not even the config fits */
		len = m->ends[k];
		memcpy(out, m->buf, len);
	} else {
		/* the literal form, trimmed until it fits */
		long l = -1;

		for (k = m->n + 1; k-- > 0;) {
			free(bytes);
			bytes = NULL;
			l = plain_len(m, k, &bytes);
			if (l >= 0 && (size_t)l <= max)
				break;
		}
		if (l < 0 || (size_t)l > max) {
			free(bytes);
			return 0;
		}
		len = (size_t)l;
		memcpy(out, bytes, len);
		free(bytes);
	}
	if (k == 0 && m->n)
		return 0; /* only the config fits: no mutation worth running */
	if (full >= 0) {
		mbd_mut_remember(m, out, len);
		keep_last(m, out, len, k);
		if (m->last_len)
			m->mk ^= 1; /* the marks of what is last now */
	}
	return len;
}
