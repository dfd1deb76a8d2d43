// SPDX-License-Identifier: GPL-2.0
/*
 * The model a trace asks to be replayed with: the machine-read "# model:"
 * (and "# kernel:") comments `mbdiff import` writes in a trace's leading
 * comment block (docs/mbt-format.md, "Machine-read comments").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_cli.h"
#include "mbd_input.h"

/* The text after "# key:" on the line at s (n bytes), blanks cut. */
static bool comment_value(const char *s, size_t n, const char *key, const char **v, size_t *vn)
{
	size_t k = strlen(key);

	if (n < 1 || s[0] != '#')
		return false;
	s++;
	n--;
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	if (n < k + 1 || strncmp(s, key, k) != 0 || s[k] != ':')
		return false;
	s += k + 1;
	n -= k + 1;
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	*v = s;
	*vn = n;
	return true;
}

int mbd_cli_trace_model(const char *path, char *model, size_t mn, char *note, size_t nn)
{
	const char *kernel = "unknown", *why = "";
	size_t kn = 7, wn = 0, o = 0;
	uint8_t *buf;
	size_t len;
	int found = 0;

	model[0] = '\0';
	note[0] = '\0';
	if (mbd_read_file(path, MBD_INPUT_MAX, &buf, &len, NULL, 0) != 0)
		return 0; /* the load that follows says why */
	while (o < len) {
		const char *s = (const char *)buf + o, *v;
		const char *nl = memchr(s, '\n', len - o);
		size_t n = nl ? (size_t)(nl - s) : len - o, vn, name;

		o += n + 1;
		if (n && s[0] != '#')
			break; /* the leading comment block ends at the first non-comment */
		if (comment_value(s, n, "kernel", &v, &vn)) {
			kernel = v;
			kn = strcspn(v, " \t(");
			kn = kn < vn ? kn : vn;
		} else if (!found && comment_value(s, n, "model", &v, &vn)) {
			name = strcspn(v, " \t(");
			name = name < vn ? name : vn;
			if (!name || name >= mn)
				continue;
			memcpy(model, v, name);
			model[name] = '\0';
			why = v + name;
			wn = vn - name;
			while (wn && (*why == ' ' || *why == '\t'))
				why++, wn--;
			found = 1;
		}
	}
	if (found)
		snprintf(note, nn, "kernel %.*s: replayed with %s%s%.*s", (int)kn, kernel, model,
			 wn ? " " : "", (int)wn, why);
	free(buf);
	return found;
}
