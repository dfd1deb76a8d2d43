// SPDX-License-Identifier: GPL-2.0
/* A judgement as one line of JSON (`mbdiff judge --json`, `mbdiff check`). */
#include <stdio.h>

#include "mbd_judge.h"

static void str(FILE *out, const char *s)
{
	if (!s || !*s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static void side(FILE *out, const struct mbd_judge_side *s)
{
	fprintf(out, "{\"fault\":%s", s->fault ? "true" : "false");
	if (s->fault) {
		fprintf(out, ",\"class\":\"%s\",\"where\":\"%s\",\"op\":%zu,\"key\":",
			mbd_class_name(s->cls), mbd_where_name(s->where), s->op + 1);
		str(out, s->key);
		fputs(",\"title\":", out);
		str(out, s->title);
		fputs(",\"site\":", out);
		str(out, s->site);
	}
	fputs(",\"what\":", out);
	str(out, s->what);
	fprintf(out, ",\"designed_panic\":%s}", s->designed_panic ? "true" : "false");
}

void mbd_judge_json(FILE *out, const char *file, const struct mbd_judge *j,
		    const struct mbd_trace *t)
{
	const struct mbd_verdict *v = &j->pair;

	fputs("{\"file\":", out);
	str(out, file);
	fprintf(out, ",\"calls\":%zu,\"divergent\":%s,\"kind\":\"%s\"", t->n_ops,
		j->divergent ? "true" : "false", mbd_judge_kind_name(j->kind));
	if (j->divergent) {
		fputs(",\"signature\":", out);
		str(out, v->signature);
		fprintf(out, ",\"class\":\"%s\",\"where\":\"%s\",\"op\":%zu,\"call\":\"%s\"",
			mbd_class_name(v->cls), mbd_where_name(v->where),
			v->op_index + 1, mbd_op_name(v->op_kind));
		fputs(",\"detail\":", out);
		str(out, v->detail);
	}
	fputs(",\"key\":", out);
	str(out, j->key);
	fputs(",\"title\":", out);
	str(out, j->title);
	fputs(",\"site\":", out);
	str(out, j->site);
	fputs(",\"cause\":", out);
	str(out, j->cause);
	fputs(",\"cause_why\":", out);
	str(out, j->cause_why);
	fputs(",\"base\":", out);
	side(out, &j->side[0]);
	fputs(",\"patched\":", out);
	side(out, &j->side[1]);
	fputc('}', out);
}
