// SPDX-License-Identifier: GPL-2.0
/* --keep-going (alias --keep-traces), --want and --config=boot of the fuzz
 * target (fuzz_keep.h). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mbd_output.h"
#include "fuzz_keep.h"
#include "mbd_input.h"
#include "mbd_text.h"

/* Signatures already written by this process (a file check covers the
 * ones an earlier process of the same search wrote). */
#define MBD_KEEP_MAX 512
static uint64_t seen[MBD_KEEP_MAX];
static size_t n_seen;

uint64_t mbd_fuzz_key_hash(const char *key)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (const unsigned char *p = (const unsigned char *)key; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3ull;
	}
	return h;
}

/* Mostly nearly full arrays (112..127 entries), sometimes any count. */
static uint32_t filler_count(uint8_t b)
{
	return b < 128 ? 112u + (b & 15u) : (uint32_t)(b - 128);
}

static int push(struct mbd_trace *t, uint32_t kind, uint64_t base, uint64_t size)
{
	struct mbd_op op;

	memset(&op, 0, sizeof(op));
	op.kind = kind;
	op.base = base;
	op.size = size;
	return mbd_trace_push(t, &op, 0);
}

int mbd_fuzz_boot_expand(const uint8_t *data, size_t size,
			 const struct mbd_trace *in, struct mbd_trace *out)
{
	uint32_t n_mem = filler_count(size > 0 ? data[0] : 0);
	uint32_t n_res = filler_count(size > 1 ? data[1] : 0);

	mbd_trace_clear(out);
	out->cfg = in->cfg;
	out->cfg.memory_max = MBD_BOOT_SLOTS;
	out->cfg.reserved_max = MBD_BOOT_SLOTS;
	out->cfg.resize = true;
	out->cfg.slab = false;
	/* Banks of 512 MiB every GiB from 4 GiB, as firmware reports them;
	 * 4 KiB reservations every 64 KiB from 1.5 GiB, as a device tree's
	 * /memreserve/ entries do. None touch, so none merge. */
	for (uint32_t i = 0; i < n_mem; i++)
		if (push(out, MBD_OP_ADD, 0x100000000ull + ((uint64_t)i << 30),
			 0x20000000ull))
			return -1;
	for (uint32_t i = 0; i < n_res; i++)
		if (push(out, MBD_OP_RESERVE, 0x60000000ull + ((uint64_t)i << 16),
			 0x1000ull))
			return -1;
	for (size_t i = 0; i < in->n_ops; i++)
		if (mbd_trace_push(out, &in->ops[i], 0))
			return -1;
	return 0;
}

/* write a kept file; its failure is reported by the caller */
static int write_text(const char *path, const struct mbd_trace *t,
		      const char *header)
{
	char why[256];

	return mbd_text_save(path, header, t, why, sizeof(why));
}

int mbd_fuzz_keep(const struct mbd_fuzz_opts *o, const struct mbd_trace *t,
		  const struct mbd_verdict *v, FILE *err)
{
	char key[256], path[4096], head[600];
	uint64_t h;
	int w, found;

	mbd_verdict_key(v, key, sizeof(key));
	h = mbd_fuzz_key_hash(key);
	if (o->want_set && h != o->want)
		return MBD_KEEP_SEEN;
	/* from here on the key is wanted, if any is */
	found = o->want_set ? MBD_KEEP_WANTED : MBD_KEEP_NEW;
	for (size_t i = 0; i < n_seen; i++)
		if (seen[i] == h)
			return o->want_set ? MBD_KEEP_WANTED : MBD_KEEP_SEEN;
	if (n_seen < MBD_KEEP_MAX)
		seen[n_seen++] = h;
	w = snprintf(path, sizeof(path), "%s/%016" PRIx64 ".sig", o->keep_dir, h);
	if (w < 0 || (size_t)w >= sizeof(path))
		return -1;
	if (access(path, F_OK) == 0)
		return o->want_set ? MBD_KEEP_WANTED : MBD_KEEP_SEEN;
	/* the trace first: a .sig always has its .mbt */
	{
		char pair[256];
		size_t used = 0;

		pair[0] = '\0';
		for (size_t i = 0; i < o->n_variants; i++) {
			int w = snprintf(pair + used, sizeof(pair) - used, "%s%s",
					 i ? "," : "", o->variants[i]->name);

			if (w < 0 || used + (size_t)w >= sizeof(pair))
				break;
			used += (size_t)w;
		}
		snprintf(head, sizeof(head), "# %s\n# key: %s\n# variants: %s\n",
			 v->signature, key, pair);
	}
	path[w - 4] = '\0';
	strcat(path, ".mbt");
	if (write_text(path, t, head) == 0) {
		path[w - 4] = '\0';
		strcat(path, ".sig");
		snprintf(head, sizeof(head), "%s\n%s\n", key, v->signature);
		if (write_text(path, NULL, head) == 0) {
			fprintf(err, "mbdiff: unexplained difference: %s\n", v->signature);
			path[w - 4] = '\0';
			fprintf(err, "mbdiff: kept as %s.mbt (+ .sig)\n", path);
			return found;
		}
	}
	fprintf(err, "mbdiff: --keep-going: cannot write %s: %s\n", path,
		strerror(errno));
	return -1;
}
