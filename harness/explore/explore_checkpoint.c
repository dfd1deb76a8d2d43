// SPDX-License-Identifier: GPL-2.0
/*
 * Checkpoints: the node store (every state with its parent link), the
 * findings and the counters after a completed depth, written atomically so
 * an interrupted search resumes from its last complete level.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore_int.h"
#include "mbd_input.h"

static const char magic[8] = { 'M', 'B', 'D', 'X', 'C', 'K', 'P', '1' };

/* The fixed part of a finding on disk. */
struct fhead {
	char key[200];
	char signature[200];
	uint32_t fault, cls;
	uint64_t root, n;
};

int mbd_xckpt_save(const char *path, const struct mbd_xckpt *c,
		   const struct mbd_xstore *s, const struct mbd_xfinding *f,
		   size_t n_found)
{
	char *buf = NULL;
	size_t len = 0;
	uint64_t n = s->n, nf = n_found;
	FILE *m = open_memstream(&buf, &len);
	int bad;

	if (!m)
		return fprintf(stderr, "mbdiff: explore: out of memory\n"), -1;
	bad = fwrite(magic, sizeof(magic), 1, m) != 1;
	bad |= fwrite(c, sizeof(*c), 1, m) != 1;
	bad |= fwrite(&n, sizeof(n), 1, m) != 1;
	bad |= n && fwrite(s->v, sizeof(*s->v), n, m) != n;
	bad |= fwrite(&nf, sizeof(nf), 1, m) != 1;
	for (size_t i = 0; i < n_found && !bad; i++) {
		struct fhead h = { .fault = f[i].baseline_fault, .cls = f[i].cls,
				   .root = f[i].root, .n = f[i].n };

		memcpy(h.key, f[i].key, sizeof(h.key));
		memcpy(h.signature, f[i].signature, sizeof(h.signature));
		bad |= fwrite(&h, sizeof(h), 1, m) != 1;
		bad |= fwrite(f[i].idx, sizeof(*f[i].idx), f[i].n, m) != f[i].n;
	}
	bad |= fclose(m) != 0;
	if (!bad && mbd_write_file_atomic(path, buf, len)) {
		fprintf(stderr, "mbdiff: %s: cannot write checkpoint: %s\n", path,
			strerror(errno));
		bad = 1;
	} else if (bad) {
		fprintf(stderr, "mbdiff: explore: out of memory writing the checkpoint\n");
	}
	free(buf);
	return bad ? -1 : 0;
}

struct reader {
	const uint8_t *p;
	size_t left;
};

static int take(struct reader *r, void *out, size_t n)
{
	if (r->left < n)
		return -1;
	memcpy(out, r->p, n);
	r->p += n;
	r->left -= n;
	return 0;
}

static int load_findings(struct reader *r, struct mbd_xfinding **f, size_t *n_found)
{
	uint64_t nf;

	if (take(r, &nf, sizeof(nf)) || nf > 100000)
		return -1;
	*f = calloc(nf + 1, sizeof(**f));
	if (!*f)
		return -1;
	for (uint64_t i = 0; i < nf; i++) {
		struct fhead h;
		struct mbd_xfinding *x = &(*f)[i];

		if (take(r, &h, sizeof(h)) || h.n > 65535 || h.n == 0)
			return -1;
		memcpy(x->key, h.key, sizeof(x->key));
		memcpy(x->signature, h.signature, sizeof(x->signature));
		x->key[sizeof(x->key) - 1] = x->signature[sizeof(x->signature) - 1] = '\0';
		x->baseline_fault = h.fault;
		x->cls = (enum mbd_class)h.cls;
		x->root = h.root;
		x->n = h.n;
		x->idx = calloc(h.n, sizeof(*x->idx));
		if (!x->idx || take(r, x->idx, h.n * sizeof(*x->idx)))
			return -1;
		*n_found = i + 1;
	}
	return 0;
}

int mbd_xckpt_load(const char *path, struct mbd_xckpt *c, struct mbd_xstore *s,
		   struct mbd_xfinding **f, size_t *n_found)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	struct reader r;
	char m[8];
	uint64_t n;
	int bad = 0;

	*f = NULL;
	*n_found = 0;
	if (mbd_read_file(path, &buf, &len)) {
		fprintf(stderr, "mbdiff: %s: cannot read checkpoint: %s\n", path,
			strerror(errno));
		return -1;
	}
	r.p = buf;
	r.left = len;
	if (take(&r, m, sizeof(m)) || memcmp(m, magic, sizeof(m)) ||
	    take(&r, c, sizeof(*c)) || take(&r, &n, sizeof(n)) || n > UINT32_MAX - 2 ||
	    c->level_start > n) {
		bad = 1;
	} else {
		for (uint64_t i = 0; i < n && !bad; i++) {
			struct mbd_xnode nd;

			if (take(&r, &nd, sizeof(nd)) ||
			    (nd.parent != UINT32_MAX && nd.parent >= i) ||
			    mbd_xstore_add(s, &nd) < 0)
				bad = 1;
		}
		bad = bad || load_findings(&r, f, n_found) || r.left != 0;
	}
	free(buf);
	if (bad)
		fprintf(stderr, "mbdiff: %s: not an explore checkpoint, or damaged\n", path);
	return bad ? -1 : 0;
}
