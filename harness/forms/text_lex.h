/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The .mbt parser's line cursor, tokens, numbers and diagnostics
 * (text_lex.c), shared by text_parse.c. Private to forms/.
 */
#ifndef MBD_TEXT_LEX_H
#define MBD_TEXT_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mbd_text.h"

#define QUOTE_MAX 60            /* quoted input in messages is cut here */

/* Parser state for the line being parsed. */
struct pctx {
	const char *p, *end;    /* rest of the line */
	const char *fname;
	unsigned line;
	const char *name;       /* op name, for "expected" forms */
	struct mbd_diag *d;
	bool drop_expects;      /* fuzz input: expect lines checked, not kept */
};

struct tok {
	const char *s;
	size_t n;
};

/* Arguments for a "%.*s%s" conversion quoting at most QUOTE_MAX bytes. */
#define QUOTE(t) (int)((t).n > QUOTE_MAX ? QUOTE_MAX : (t).n), (t).s, \
		 ((t).n > QUOTE_MAX ? "..." : "")

enum { NUM_OK, NUM_EMPTY, NUM_BAD, NUM_OVERFLOW };

/* Fill c->d with "what was found, what was expected"; returns -1. */
__attribute__((format(printf, 2, 3)))
int mbd_tx_fail(struct pctx *c, const char *fmt, ...);
bool mbd_tx_blank(char ch);
/* The value of one hex digit, -1 if ch is not one. */
int mbd_tx_hexval(char ch);
/* Next whitespace-separated token; n == 0 at the end of the line. */
struct tok mbd_tx_next(struct pctx *c);
bool mbd_tx_is(struct tok t, const char *s);
/* If t starts with "key=", strip it and return true. */
bool mbd_tx_key(struct tok *t, const char *key);
/* One of NUM_*: "0x" hex or decimal; hex_only also takes bare hex digits. */
int mbd_tx_u64(const char *s, size_t n, bool hex_only, uint64_t *out);
/* t as a number for the field called what, reporting any problem. */
int mbd_tx_num(struct pctx *c, const char *what, struct tok t, bool hex_only,
	       uint64_t *out);
/* A node id: optional '-', then a number; NUMA_NO_NODE..MAX_NUMNODES. */
int mbd_tx_nid(struct pctx *c, struct tok t, int32_t *out);

#endif
