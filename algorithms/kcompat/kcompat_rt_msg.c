// SPDX-License-Identifier: GPL-2.0
/* Runtime behind the kernel stand-ins: warnings, panics, printk, events. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_kc_rt.h"

void mbd_kc_warn(struct mbd_kc_ctx *c, const char *func, const char *cond)
{
	c->warnings++;
	if (c->verbose)
		fprintf(stderr, "[%s] WARNING: in %s: %s\n", c->name, func, cond);
}

static _Noreturn void leave(struct mbd_kc_ctx *c)
{
	c->panicked = true;
	if (c->verbose)
		fprintf(stderr, "[%s] Kernel panic: %s\n", c->name, c->panic_msg);
	if (!c->armed) {
		/* A panic outside any call is a harness bug, not a verdict. */
		fprintf(stderr, "mbdiff: %s panicked outside a call: %s\n",
			c->name, c->panic_msg);
		abort();
	}
	c->armed = false;
	longjmp(c->panic_jmp, 1);
}

_Noreturn void mbd_kc_panic(struct mbd_kc_ctx *c, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(c->panic_msg, sizeof(c->panic_msg), fmt, ap);
	va_end(ap);
	/* the kernel's messages end in \n; a verdict compares the text only */
	n = strlen(c->panic_msg);
	while (n && c->panic_msg[n - 1] == '\n')
		c->panic_msg[--n] = '\0';
	leave(c);
}

_Noreturn void mbd_kc_bug(struct mbd_kc_ctx *c, const char *func, const char *cond)
{
	/* No line numbers: the same BUG_ON in two variants must compare equal. */
	snprintf(c->panic_msg, sizeof(c->panic_msg), "kernel BUG in %s: %s",
		 func, cond);
	leave(c);
}

/*
 * One conversion of a kernel format. The kernel's pointer extensions are
 * rewritten: %pa/%pap (phys_addr_t *) prints the address, %pS/%ps/%pF a
 * placeholder for the caller; everything else goes to the C library.
 */
static const char *one_conv(FILE *out, const char *f, va_list *ap)
{
	char spec[32];
	size_t n = 0;
	int longs = 0;

	spec[n++] = *f++; /* '%' */
	while (*f && strchr("#0- +'", *f) && n < 20)
		spec[n++] = *f++;
	while (*f >= '0' && *f <= '9' && n < 24)
		spec[n++] = *f++;
	while (*f == 'l' || *f == 'h' || *f == 'z') {
		if (*f == 'l')
			longs++;
		if (n < 28)
			spec[n++] = *f;
		f++;
	}
	if (*f == 'p') {
		void *p = va_arg(*ap, void *);

		f++;
		if (*f == 'a') {
			f++;
			if (*f == 'p')
				f++;
			fprintf(out, "0x%016" PRIx64, p ? *(const uint64_t *)p : 0);
		} else if (*f == 'S' || *f == 's' || *f == 'F' || *f == 'f') {
			f++;
			fputs("caller", out);
		} else {
			fprintf(out, "%p", p);
		}
		return f;
	}
	if (!*f)
		return f;
	spec[n++] = *f;
	spec[n] = '\0';
	switch (*f) {
	case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
		if (longs >= 2)
			fprintf(out, spec, va_arg(*ap, long long));
		else if (longs == 1 || strchr(spec, 'z'))
			fprintf(out, spec, va_arg(*ap, long));
		else
			fprintf(out, spec, va_arg(*ap, int));
		break;
	case 'c':
		fprintf(out, spec, va_arg(*ap, int));
		break;
	case 's':
		fprintf(out, spec, va_arg(*ap, const char *));
		break;
	case '%':
		fputc('%', out);
		break;
	default:
		fputs(spec, out);
		break;
	}
	return f + 1;
}

/* fmt with its arguments, the KERN_<LEVEL> prefix ("\001" + digit) left out */
static void put_message(FILE *out, const char *fmt, va_list ap)
{
	va_list cp;
	const char *f = fmt;

	if (f[0] == '\001' && f[1])
		f += 2;
	va_copy(cp, ap);
	while (*f) {
		if (*f == '%') {
			f = one_conv(out, f, &cp);
		} else {
			fputc(*f, out);
			f++;
		}
	}
	va_end(cp);
}

static void add_event(struct mbd_kc_ctx *c, uint64_t text, int growth)
{
	struct mbd_kc_event *e;

	if (c->n_events >= MBD_KC_MAX_EVENTS) {
		c->events_cut = true;
		return;
	}
	e = &c->ev[c->n_events++];
	e->text = text;
	e->arrays[0] = e->arrays[1] = 0;
	if (c->arrays_hash)
		c->arrays_hash(e->arrays);
	e->growth = (int8_t)growth;
}

static void MBD_KC_NO_COVERAGE record_message(struct mbd_kc_ctx *c, const char *fmt,
					      va_list ap, bool growth)
{
	char buf[320] = "";
	FILE *m = fmemopen(buf, sizeof(buf) - 1, "w");
	uint64_t h = MBD_KC_HASH_SEED;

	if (m) {
		put_message(m, fmt, ap);
		fclose(m);
	}
	for (const char *p = buf; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	/* odd: never the begin (2) or end (0) entry; the array by its name */
	add_event(c, h | 1, growth ? strstr(buf, "reserved") != NULL : -1);
}

void mbd_kc_events_begin(struct mbd_kc_ctx *c)
{
	c->n_events = 0;
	c->events_cut = false;
	add_event(c, 2, -1); /* the arrays before the call */
}

void mbd_kc_event_move(struct mbd_kc_ctx *c, bool opens)
{
	add_event(c, opens ? 4 : 6, -1);
}

void mbd_kc_events_end(struct mbd_kc_ctx *c)
{
	if (c->n_events >= MBD_KC_MAX_EVENTS) {
		c->n_events = MBD_KC_MAX_EVENTS - 1; /* the end entry always fits */
		c->events_cut = true;
	}
	add_event(c, 0, -1);
}

void mbd_kc_vprintk(struct mbd_kc_ctx *c, const char *fmt, va_list ap)
{
	/* every memblock.c since 2.6 says so when an array grows or cannot
	   (the growth by memblock_dbg(): on with events, glue.c) */
	if (c->events)
		record_message(c, fmt, ap, strstr(fmt, " is doubled to ") ||
					   strstr(fmt, "Failed to double "));
	if (!c->verbose)
		return;
	fprintf(stderr, "[%s] ", c->name ? c->name : "?");
	put_message(stderr, fmt, ap);
	if (fmt[0] && fmt[strlen(fmt) - 1] != '\n')
		fputc('\n', stderr);
}

void mbd_kc_printk(struct mbd_kc_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mbd_kc_vprintk(c, fmt, ap);
	va_end(ap);
}
