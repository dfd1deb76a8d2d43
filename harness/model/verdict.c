// SPDX-License-Identifier: GPL-2.0
/* Class and place names, the signature line and its op-index-free key. */
#include <stdio.h>
#include <string.h>

#include "mbd_trace.h"
#include "mbd_verdict.h"

static const char *const class_names[MBD_CLASS__COUNT] = {
	[MBD_CLASS_NONE] = "none",
	[MBD_CLASS_WARNING] = "warning",
	[MBD_CLASS_CAPACITY] = "capacity",
	[MBD_CLASS_LAYOUT] = "layout",
	[MBD_CLASS_RETURN] = "return",
	[MBD_CLASS_INVARIANT] = "invariant",
	[MBD_CLASS_COVERAGE] = "coverage",
	[MBD_CLASS_PANIC] = "panic",
	[MBD_CLASS_CRASH] = "crash",
};

const char *mbd_class_name(enum mbd_class c)
{
	return (unsigned)c < MBD_CLASS__COUNT ? class_names[c] : "?";
}

enum mbd_class mbd_class_lookup(const char *name)
{
	for (int c = 0; name && c < MBD_CLASS__COUNT; c++)
		if (strcmp(class_names[c], name) == 0)
			return (enum mbd_class)c;
	return MBD_CLASS_NONE;
}

const char *mbd_where_name(enum mbd_where w)
{
	switch (w) {
	case MBD_WHERE_MEMORY: return "memory";
	case MBD_WHERE_RESERVED: return "reserved";
	case MBD_WHERE_CALL: return "call";
	}
	return "?";
}

/* Append s[0..len) to buf (capacity n, at *used), truncating safely. */
static void put(char *buf, size_t n, size_t *used, const char *s, size_t len)
{
	size_t room = n - 1 - *used;

	if (len > room)
		len = room;
	memcpy(buf + *used, s, len);
	*used += len;
	buf[*used] = '\0';
}

/*
 * "mbdiff: divergence A~B WHERE/CLASS at op N OPNAME" -> "A~B WHERE/CLASS OPNAME"
 * "mbdiff: oracle A WHERE/CLASS at op N OPNAME"       -> "oracle A WHERE/CLASS OPNAME"
 * Anything else keeps its text, minus those pieces where present.
 */
void mbd_verdict_key(const struct mbd_verdict *v, char *buf, size_t n)
{
	static const char at_op[] = " at op ";
	const char *s = v->signature;
	const char *nul = memchr(s, '\0', sizeof(v->signature));
	const char *end = nul ? nul : s + sizeof(v->signature);
	const char *at;
	size_t used = 0;

	if (!n)
		return;
	buf[0] = '\0';
	if ((size_t)(end - s) >= 8 && memcmp(s, "mbdiff: ", 8) == 0)
		s += 8;
	if ((size_t)(end - s) >= 11 && memcmp(s, "divergence ", 11) == 0)
		s += 11;
	for (at = s; at + sizeof(at_op) - 1 <= end; at++)
		if (memcmp(at, at_op, sizeof(at_op) - 1) == 0)
			break;
	if (at + sizeof(at_op) - 1 > end) {
		put(buf, n, &used, s, (size_t)(end - s));
		return;
	}
	put(buf, n, &used, s, (size_t)(at - s));
	at += sizeof(at_op) - 1;
	while (at < end && *at >= '0' && *at <= '9')
		at++;
	/* keep one space before the op name */
	put(buf, n, &used, at, (size_t)(end - at));
}

void mbd_signature(struct mbd_verdict *v, const char *name_a, const char *name_b)
{
	const char *where = mbd_where_name(v->where);
	const char *cls = mbd_class_name(v->cls);
	const char *op = mbd_op_name(v->op_kind);
	unsigned long long n = (unsigned long long)v->op_index + 1;

	if (v->by_oracle)
		snprintf(v->signature, sizeof(v->signature),
			 "mbdiff: oracle %s %s/%s at op %llu %s",
			 name_b, where, cls, n, op);
	else
		snprintf(v->signature, sizeof(v->signature),
			 "mbdiff: divergence %s~%s %s/%s at op %llu %s",
			 name_a, name_b, where, cls, n, op);
}
