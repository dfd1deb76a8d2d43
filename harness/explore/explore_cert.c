// SPDX-License-Identifier: GPL-2.0
/*
 * Certificates: the claim of a clean search in a few lines of text, each
 * field re-derived by `mbdiff explore --verify`, which runs the search again
 * and compares.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore_int.h"

void mbd_xcert_from(struct mbd_xcert *c, const struct mbd_alphabet *a,
		    const char *variants, enum mbd_class min_class,
		    const struct mbd_explore_result *r)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->variants, sizeof(c->variants), "%s", variants);
	snprintf(c->alphabet, sizeof(c->alphabet), "%s", a->name);
	c->hash[0] = a->hash[0];
	c->hash[1] = a->hash[1];
	c->depth = r->depth_done;
	c->min_class = min_class;
	mbd_explore_count_str(r->traces, c->traces, sizeof(c->traces));
	c->states = r->states;
	c->baseline_faults = r->n_found - r->n_divergent;
}

void mbd_xcert_claim(const struct mbd_xcert *c, char *buf, size_t n)
{
	snprintf(buf, n, "no divergence at class >= %s among all %s traces of <= %zu "
		 "calls over alphabet %s (%" PRIu64 " distinct states)",
		 mbd_class_name(c->min_class), c->traces, c->depth, c->alphabet,
		 c->states);
}

int mbd_xcert_write(FILE *out, const struct mbd_xcert *c)
{
	char claim[400];

	fprintf(out, "# mbdiff explore certificate; re-check with\n"
		"#   mbdiff explore --verify THIS_FILE --alphabet FILE\n"
		"# (baseline faults are findings about the first variant alone)\n");
	mbd_xcert_claim(c, claim, sizeof(claim));
	fprintf(out, "claim %s\n", claim);
	fprintf(out, "variants %s\n", c->variants);
	fprintf(out, "alphabet %s\n", c->alphabet);
	fprintf(out, "alphabet-hash %016" PRIx64 "%016" PRIx64 "\n", c->hash[0], c->hash[1]);
	fprintf(out, "depth %zu\n", c->depth);
	fprintf(out, "min-class %s\n", mbd_class_name(c->min_class));
	fprintf(out, "traces %s\n", c->traces);
	fprintf(out, "states %" PRIu64 "\n", c->states);
	fprintf(out, "baseline-faults %zu\n", c->baseline_faults);
	return ferror(out) ? -1 : 0;
}

static int cerr(struct mbd_diag *d, const char *fname, unsigned line, const char *msg)
{
	snprintf(d->file, sizeof(d->file), "%s", fname);
	d->line = line;
	snprintf(d->msg, sizeof(d->msg), "%s", msg);
	return -1;
}

static int num(const char *v, uint64_t *out)
{
	char *end;

	if (!*v || *v < '0' || *v > '9')
		return -1;
	*out = strtoull(v, &end, 10);
	return *end ? -1 : 0;
}

static int field(struct mbd_xcert *c, const char *k, const char *v, unsigned *seen)
{
	uint64_t n;

	if (!strcmp(k, "claim"))
		return 0;
	if (!strcmp(k, "variants") && strlen(v) < sizeof(c->variants)) {
		*seen |= 1;
		return snprintf(c->variants, sizeof(c->variants), "%s", v), 0;
	}
	if (!strcmp(k, "alphabet") && strlen(v) < sizeof(c->alphabet)) {
		*seen |= 2;
		return snprintf(c->alphabet, sizeof(c->alphabet), "%s", v), 0;
	}
	if (!strcmp(k, "alphabet-hash") && strlen(v) == 32 &&
	    strspn(v, "0123456789abcdef") == 32) {
		char hi[17];

		memcpy(hi, v, 16);
		hi[16] = '\0';
		c->hash[0] = strtoull(hi, NULL, 16);
		c->hash[1] = strtoull(v + 16, NULL, 16);
		*seen |= 4;
		return 0;
	}
	if (!strcmp(k, "depth") && !num(v, &n) && n >= 1 && n <= 1000) {
		*seen |= 8;
		return c->depth = n, 0;
	}
	if (!strcmp(k, "min-class") && mbd_class_lookup(v) != MBD_CLASS_NONE) {
		*seen |= 16;
		return c->min_class = mbd_class_lookup(v), 0;
	}
	if (!strcmp(k, "traces") && strlen(v) < sizeof(c->traces) &&
	    strspn(v, "0123456789.e+") == strlen(v) && *v) {
		*seen |= 32;
		return snprintf(c->traces, sizeof(c->traces), "%s", v), 0;
	}
	if (!strcmp(k, "states") && !num(v, &n)) {
		*seen |= 64;
		return c->states = n, 0;
	}
	if (!strcmp(k, "baseline-faults") && !num(v, &n)) {
		*seen |= 128;
		return c->baseline_faults = n, 0;
	}
	return -1;
}

int mbd_xcert_parse(const char *buf, size_t len, const char *fname,
		    struct mbd_xcert *c, struct mbd_diag *d)
{
	unsigned line = 0, seen = 0;
	size_t pos = 0;
	char text[1024], msg[200];

	memset(c, 0, sizeof(*c));
	while (pos < len) {
		size_t e = pos, l;
		char *sp;

		while (e < len && buf[e] != '\n')
			e++;
		l = e - pos;
		line++;
		if (l >= sizeof(text))
			return cerr(d, fname, line, "line too long");
		memcpy(text, buf + pos, l);
		text[l] = '\0';
		pos = e + 1;
		if (!l || text[0] == '#')
			continue;
		sp = strchr(text, ' ');
		if (!sp)
			return cerr(d, fname, line, "expected \"key value\"");
		*sp = '\0';
		if (field(c, text, sp + 1, &seen)) {
			snprintf(msg, sizeof(msg), "bad or unknown field \"%.60s\"", text);
			return cerr(d, fname, line, msg);
		}
	}
	if (seen != 255)
		return cerr(d, fname, 0, "not an explore certificate (fields missing)");
	return 0;
}

bool mbd_xcert_equal(const struct mbd_xcert *a, const struct mbd_xcert *b)
{
	return !strcmp(a->variants, b->variants) && !strcmp(a->alphabet, b->alphabet) &&
	       a->hash[0] == b->hash[0] && a->hash[1] == b->hash[1] &&
	       a->depth == b->depth && a->min_class == b->min_class &&
	       !strcmp(a->traces, b->traces) && a->states == b->states &&
	       a->baseline_faults == b->baseline_faults;
}
