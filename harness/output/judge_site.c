// SPDX-License-Identifier: GPL-2.0
/* The line a BUG_ON() stands on, quoted from the file that was compiled. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "mbd_judge.h"

/* s with every run of white space made one space, ends trimmed */
static void fold(const char *s, char *out, size_t n)
{
	size_t k = 0;
	bool sp = false;

	while (*s && isspace((unsigned char)*s))
		s++;
	for (; *s && k + 1 < n; s++) {
		if (isspace((unsigned char)*s)) {
			sp = true;
			continue;
		}
		if (sp && k + 2 < n)
			out[k++] = ' ';
		sp = false;
		out[k++] = *s;
	}
	out[k] = '\0';
}

/* A function's first line starts at column 0 and names it before '(' */
static bool opens(const char *line, const char *func)
{
	size_t fl = strlen(func);
	const char *p = line;

	if (!*line || isspace((unsigned char)*line) || *line == '#' ||
	    *line == '{' || *line == '}' || *line == '/' || *line == '*')
		return false;
	while ((p = strstr(p, func)) != NULL) {
		bool start = p == line || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');

		if (start && p[fl] == '(')
			return true;
		p += fl;
	}
	return false;
}

void mbd_judge_site(const char *path, const char *label, const char *func,
		    const char *cond, char *buf, size_t n)
{
	char line[1024], flat[1024], want[200], first[1200] = "";
	FILE *f = fopen(path, "r");
	unsigned lineno = 0;
	bool inside = false;

	buf[0] = '\0';
	if (!f)
		return;
	snprintf(line, sizeof(line), "BUG_ON(%s)", cond);
	fold(line, want, sizeof(want));
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (opens(line, func))
			inside = true;
		else if (line[0] == '}')
			inside = false;
		fold(line, flat, sizeof(flat));
		if (!strstr(flat, want))
			continue;
		if (inside) {
			snprintf(buf, n, "%.100s:%u: %.1023s", label, lineno, flat);
			break;
		}
		if (!first[0])
			snprintf(first, sizeof(first), "%.100s:%u: %.1023s", label, lineno, flat);
	}
	fclose(f);
	if (!buf[0] && first[0])
		snprintf(buf, n, "%s", first);
}
