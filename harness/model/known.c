// SPDX-License-Identifier: GPL-2.0
/* Known-differences files and sets of distinct signatures (mbd_known.h). */
#define _POSIX_C_SOURCE 200809L /* strdup, fnmatch */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_known.h"

#define KNOWN_LINE_MAX 1024
#define SIG_PREFIX "mbdiff: "

void mbd_known_init(struct mbd_known *k)
{
	memset(k, 0, sizeof(*k));
}

void mbd_known_free(struct mbd_known *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->v[i].pattern);
		free(k->v[i].commit);
		free(k->v[i].why);
	}
	free(k->v);
	mbd_known_init(k);
}

/* Trim blanks at both ends, in place. */
static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' ||
			 e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* "key: value" directive; copies value into out. 1 if it was key. */
static int directive(const char *s, const char *key, char *out, size_t n)
{
	size_t kl = strlen(key);

	if (strncmp(s, key, kl) || s[kl] != ':')
		return 0;
	s += kl + 1;
	while (*s == ' ' || *s == '\t')
		s++;
	snprintf(out, n, "%s", s);
	return 1;
}

static int add_entry(struct mbd_known *k, char *pat, char *commit, char *why,
		     int line)
{
	struct mbd_known_entry *e;

	if (k->n == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 16;
		void *p = realloc(k->v, cap * sizeof(*k->v));

		if (!p)
			return -1;
		k->v = p;
		k->cap = cap;
	}
	e = &k->v[k->n];
	e->pattern = strdup(pat);
	e->commit = strdup(commit);
	e->why = strdup(why);
	e->line = line;
	if (!e->pattern || !e->commit || !e->why) {
		free(e->pattern);
		free(e->commit);
		free(e->why);
		return -1;
	}
	k->n++;
	return 0;
}

/* One entry line split at " | "; returns an error text or NULL. */
static const char *parse_entry(struct mbd_known *k, char *s, int line)
{
	char *bar1 = strstr(s, " | "), *bar2;

	if (!bar1)
		return "expected 'SIGNATURE-PATTERN | UPSTREAM COMMIT | WHY'";
	*bar1 = '\0';
	bar2 = strstr(bar1 + 3, " | ");
	if (!bar2)
		return "expected 'SIGNATURE-PATTERN | UPSTREAM COMMIT | WHY'"
		       " (two ' | ' separators)";
	*bar2 = '\0';
	s = trim(s);
	if (strncmp(s, SIG_PREFIX, strlen(SIG_PREFIX)))
		return "the pattern must start with 'mbdiff: ' (a signature line)";
	if (!*trim(bar1 + 3))
		return "empty upstream commit field";
	if (!*trim(bar2 + 3))
		return "empty 'why' field";
	if (add_entry(k, s, trim(bar1 + 3), trim(bar2 + 3), line))
		return "out of memory";
	return NULL;
}

int mbd_known_load(struct mbd_known *k, const char *path, FILE *err)
{
	char buf[KNOWN_LINE_MAX], other[256];
	const char *bad = NULL;
	int line = 0;
	FILE *f;

	mbd_known_free(k);
	f = fopen(path, "r");
	if (!f) {
		fprintf(err, "%s: error: cannot read: %s\n", path, strerror(errno));
		return -1;
	}
	while (!bad && fgets(buf, sizeof(buf), f)) {
		char *s;

		line++;
		if (!strchr(buf, '\n') && !feof(f)) {
			bad = "line longer than 1023 characters";
			break;
		}
		s = trim(buf);
		if (!*s || *s == '#')
			continue;
		if (directive(s, "baseline", k->baseline, sizeof(k->baseline)) ||
		    directive(s, "kernel", k->kernel, sizeof(k->kernel)) ||
		    directive(s, "also", other, sizeof(other)))
			continue;
		bad = parse_entry(k, s, line);
	}
	if (!bad && ferror(f))
		bad = "read error";
	fclose(f);
	if (bad) {
		fprintf(err, "%s:%d: error: %s\n", path, line, bad);
		mbd_known_free(k);
		return -1;
	}
	return 0;
}

const struct mbd_known_entry *mbd_known_match(const struct mbd_known *k,
					      const char *signature)
{
	for (size_t i = 0; i < k->n; i++)
		if (fnmatch(k->v[i].pattern, signature, 0) == 0)
			return &k->v[i];
	return NULL;
}

void mbd_sigset_init(struct mbd_sigset *s)
{
	memset(s, 0, sizeof(*s));
}

void mbd_sigset_free(struct mbd_sigset *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	mbd_sigset_init(s);
}

int mbd_sigset_add(struct mbd_sigset *s, const char *signature)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], signature))
			return 0;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		void *p = realloc(s->v, cap * sizeof(*s->v));

		if (!p)
			return -1;
		s->v = p;
		s->cap = cap;
	}
	s->v[s->n] = strdup(signature);
	if (!s->v[s->n])
		return -1;
	s->n++;
	return 1;
}
