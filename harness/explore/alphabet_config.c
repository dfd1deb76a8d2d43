// SPDX-License-Identifier: GPL-2.0
/*
 * An alphabet's config line: "memory.max=1,2,4 resize=0,1" stands for every
 * combination, each checked by the .mbt config parser.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore_int.h"

#define MAX_KEYS 8
#define MAX_VALS 16
#define MAX_COMBOS 4096

struct key {
	char name[32];
	char vals[MAX_VALS][24];
	size_t n;
};

static int err(struct mbd_diag *d, const char *fname, unsigned line,
	       const char *msg, const char *tok)
{
	snprintf(d->file, sizeof(d->file), "%s", fname);
	d->line = line;
	snprintf(d->msg, sizeof(d->msg), "config: %s%s%.80s%s", msg,
		 tok ? " (\"" : "", tok ? tok : "", tok ? "\")" : "");
	return -1;
}

static int split_key(char *tok, struct key *k, struct mbd_diag *d,
		     const char *fname, unsigned line)
{
	char *eq = strchr(tok, '='), *save = NULL;

	if (!eq || eq == tok || (size_t)(eq - tok) >= sizeof(k->name))
		return err(d, fname, line, "expected key=value[,value...]", tok);
	memcpy(k->name, tok, (size_t)(eq - tok));
	k->name[eq - tok] = '\0';
	k->n = 0;
	for (char *v = strtok_r(eq + 1, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
		if (k->n == MAX_VALS || strlen(v) >= sizeof(k->vals[0]))
			return err(d, fname, line, "too many or too long values", tok);
		snprintf(k->vals[k->n++], sizeof(k->vals[0]), "%s", v);
	}
	if (!k->n)
		return err(d, fname, line, "expected key=value[,value...]", tok);
	return 0;
}

int mbd_xalpha_configs(const char *line, const char *fname, unsigned lineno,
		       struct mbd_config **out, size_t *n, struct mbd_diag *d)
{
	struct key keys[MAX_KEYS];
	size_t nk = 0, total = 1, idx[MAX_KEYS] = { 0 };
	char *copy = strdup(line), *save = NULL;
	struct mbd_trace t;

	*out = NULL;
	*n = 0;
	if (!copy)
		return err(d, fname, lineno, "out of memory", NULL);
	for (char *tok = strtok_r(copy, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (nk == MAX_KEYS) {
			free(copy);
			return err(d, fname, lineno, "too many keys", tok);
		}
		if (split_key(tok, &keys[nk], d, fname, lineno)) {
			free(copy);
			return -1;
		}
		total *= keys[nk++].n;
		if (total > MAX_COMBOS) {
			free(copy);
			return err(d, fname, lineno, "more than 4096 combinations", NULL);
		}
	}
	free(copy);
	*out = calloc(total, sizeof(**out));
	if (!*out)
		return err(d, fname, lineno, "out of memory", NULL);
	mbd_trace_init(&t);
	for (size_t c = 0; c < total; c++) {
		char text[1024];
		size_t pos = (size_t)snprintf(text, sizeof(text), "config");
		struct mbd_diag pd;

		for (size_t k = 0; k < nk; k++)
			pos += (size_t)snprintf(text + pos, sizeof(text) - pos, " %s=%s",
						keys[k].name, keys[k].vals[idx[k]]);
		snprintf(text + pos, sizeof(text) - pos, "\n");
		if (mbd_text_parse(text, strlen(text), fname, &t, &pd)) {
			mbd_trace_free(&t);
			free(*out);
			*out = NULL;
			snprintf(d->file, sizeof(d->file), "%s", fname);
			d->line = lineno;
			snprintf(d->msg, sizeof(d->msg), "%s", pd.msg);
			return -1;
		}
		(*out)[c] = t.cfg;
		/* odometer, last key fastest */
		for (size_t k = nk; k-- > 0;) {
			if (++idx[k] < keys[k].n)
				break;
			idx[k] = 0;
		}
	}
	mbd_trace_free(&t);
	*n = total;
	return 0;
}
