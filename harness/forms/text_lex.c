// SPDX-License-Identifier: GPL-2.0
/* The .mbt parser's tokens, numbers and diagnostics (text_lex.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "text_lex.h"

__attribute__((format(printf, 2, 3)))
int mbd_tx_fail(struct pctx *c, const char *fmt, ...)
{
	va_list ap;

	if (!c->d)
		return -1;
	c->d->file = c->fname;
	c->d->line = c->line;
	va_start(ap, fmt);
	vsnprintf(c->d->msg, sizeof(c->d->msg), fmt, ap);
	va_end(ap);
	return -1;
}

bool mbd_tx_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* Next whitespace-separated token; n == 0 at the end of the line. */
struct tok mbd_tx_next(struct pctx *c)
{
	struct tok t;

	while (c->p < c->end && mbd_tx_blank(*c->p))
		c->p++;
	t.s = c->p;
	while (c->p < c->end && !mbd_tx_blank(*c->p))
		c->p++;
	t.n = (size_t)(c->p - t.s);
	return t;
}

bool mbd_tx_is(struct tok t, const char *s)
{
	return t.n == strlen(s) && memcmp(t.s, s, t.n) == 0;
}

/* If t starts with "key=", strip it and return true. */
bool mbd_tx_key(struct tok *t, const char *key)
{
	size_t k = strlen(key);

	if (t->n <= k || memcmp(t->s, key, k) != 0 || t->s[k] != '=')
		return false;
	t->s += k + 1;
	t->n -= k + 1;
	return true;
}


int mbd_tx_hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/*
 * "0x" followed by hex digits, or decimal digits; hex_only also takes bare
 * hex digits (flags, which the kernel prints with %x).
 */
int mbd_tx_u64(const char *s, size_t n, bool hex_only, uint64_t *out)
{
	bool hex = hex_only;
	uint64_t v = 0;

	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		hex = true;
		s += 2;
		n -= 2;
	}
	if (n == 0)
		return NUM_EMPTY;
	for (size_t i = 0; i < n; i++) {
		int dv = hex ? mbd_tx_hexval(s[i]) : (s[i] >= '0' && s[i] <= '9' ? s[i] - '0' : -1);

		if (dv < 0)
			return NUM_BAD;
		if (hex ? v > (UINT64_MAX >> 4) : v > (UINT64_MAX - (uint64_t)dv) / 10)
			return NUM_OVERFLOW;
		v = hex ? (v << 4) | (uint64_t)dv : v * 10 + (uint64_t)dv;
	}
	*out = v;
	return NUM_OK;
}

/* Parse t as a number for the field called what, reporting any problem. */
int mbd_tx_num(struct pctx *c, const char *what, struct tok t,
		     bool hex_only, uint64_t *out)
{
	switch (mbd_tx_u64(t.s, t.n, hex_only, out)) {
	case NUM_OK:
		return 0;
	case NUM_EMPTY:
		return mbd_tx_fail(c, "empty number for %s: expected %s", what,
			    hex_only ? "hex digits" : "0xHEX or decimal digits");
	case NUM_OVERFLOW:
		return mbd_tx_fail(c, "number \"%.*s%s\" for %s does not fit in 64 bits",
			    QUOTE(t), what);
	default:
		if (t.s[0] == '-')
			return mbd_tx_fail(c, "negative number \"%.*s%s\" for %s: expected an unsigned "
				    "0xHEX or decimal", QUOTE(t), what);
		return mbd_tx_fail(c, "bad number \"%.*s%s\" for %s: expected %s",
			    QUOTE(t), what,
			    hex_only ? "hex digits (0x optional)" : "0xHEX or decimal");
	}
}

/* A node id: optional '-', then a number; NUMA_NO_NODE..MAX_NUMNODES. */
int mbd_tx_nid(struct pctx *c, struct tok t, int32_t *out)
{
	struct tok m = t;
	bool neg = false;
	uint64_t v;

	if (m.n && m.s[0] == '-') {
		neg = true;
		m.s++;
		m.n--;
	}
	if (!m.n)
		return mbd_tx_fail(c, "empty number for nid: expected -1 (NUMA_NO_NODE) to %d (MAX_NUMNODES)",
			    MBD_MAX_NUMNODES);
	if (mbd_tx_u64(m.s, m.n, false, &v) == NUM_BAD)
		return mbd_tx_fail(c, "bad nid \"%.*s%s\": expected a number from -1 (NUMA_NO_NODE) to %d "
			    "(MAX_NUMNODES)", QUOTE(t), MBD_MAX_NUMNODES);
	if (mbd_tx_num(c, "nid", m, false, &v))
		return -1;
	if (neg ? v > 1 : v > MBD_MAX_NUMNODES)
		return mbd_tx_fail(c, "nid=%.*s%s out of range: expected -1 (NUMA_NO_NODE) to %d (MAX_NUMNODES)",
			    QUOTE(t), MBD_MAX_NUMNODES);
	*out = neg ? -(int32_t)v : (int32_t)v;
	return 0;
}
