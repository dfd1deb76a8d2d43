// SPDX-License-Identifier: GPL-2.0
/*
 * What comes before the kernel's own text on a boot-log line, in the forms
 * people paste: dmesg timestamps ("[    0.000000] ", "[    T0] "),
 * `dmesg -T` wall clock ("[Thu Dec  3 17:29:31 2026] "), `dmesg
 * --time-format iso` ("2026-12-03T17:29:31,123456+00:00 "), kmsg levels
 * ("<6>"), syslog and journal lines ("Dec  3 17:29:31 host kernel: "),
 * and mail quoting ("> ").
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "import_int.h"

static const char *ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* "<N>" kmsg level. */
static const char *level(const char *s)
{
	const char *q = s + 1;

	if (*s != '<' || !isdigit((unsigned char)*q))
		return s;
	while (isdigit((unsigned char)*q))
		q++;
	return *q == '>' ? q + 1 : s;
}

/* "[    0.000000]", "[    T0]" (printk caller id), "[Thu Dec  3 17:29:31 2026]". */
static const char *bracket(const char *s)
{
	const char *q = s + 1, *close;

	if (*s != '[')
		return s;
	close = strchr(s, ']');
	if (!close || close - s > 40)
		return s;
	q = ws(q);
	if (*q == 'T' || *q == 'C') {
		const char *d = q + 1;

		while (isdigit((unsigned char)*d))
			d++;
		if (d > q + 1 && d == close)
			return close + 1;
	}
	if (isdigit((unsigned char)*q)) {
		while (isdigit((unsigned char)*q) || *q == '.')
			q++;
		return q == close ? close + 1 : s;
	}
	/* dmesg -T: a weekday name, then the date and time */
	if (isalpha((unsigned char)q[0]) && isalpha((unsigned char)q[1]) &&
	    isalpha((unsigned char)q[2]) && q[3] == ' ' && memchr(q, ':', (size_t)(close - q)))
		return close + 1;
	return s;
}

/* "2026-12-03T17:29:31..." up to the first blank. */
static const char *iso(const char *s)
{
	for (int i = 0; i < 10; i++)
		if (i == 4 || i == 7 ? s[i] != '-' : !isdigit((unsigned char)s[i]))
			return s;
	if (s[10] != 'T' && s[10] != ' ')
		return s;
	s += 11;
	while (*s && *s != ' ')
		s++;
	return s;
}

/* "Mon DD HH:MM:SS host kernel: " or "...T...+00:00 host kernel: ". */
static const char *syslog(const char *s)
{
	const char *k = strstr(s, " kernel: ");

	if (!k || k - s > 96 || !memchr(s, ':', (size_t)(k - s)) || memchr(s, '[', (size_t)(k - s)))
		return s;
	return k + 9;
}

const char *mbd_imp_payload(const char *raw)
{
	const char *s = ws(raw), *prev;

	while (*s == '>')
		s = ws(s + 1);
	do {
		prev = s;
		s = ws(level(s));
		s = ws(syslog(s));
		s = ws(iso(s));
		s = ws(bracket(s));
	} while (s != prev);
	return s;
}
