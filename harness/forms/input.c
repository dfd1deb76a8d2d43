// SPDX-License-Identifier: GPL-2.0
/*
 * Input files: tell text traces from fuzzer bytes (files themselves are
 * read and written by files.c).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbd_input.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/*
 * Text if every byte is printable ASCII, tab, CR or LF, and the first
 * significant line is a comment or starts with a keyword of the format.
 */
bool mbd_input_is_text(const uint8_t *b, size_t len)
{
	size_t i = 0, n = 0;

	for (size_t k = 0; k < len; k++)
		if ((b[k] < 0x20 && b[k] != '\t' && b[k] != '\r' && b[k] != '\n') || b[k] > 0x7e)
			return false;
	while (i < len && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n'))
		i++;
	if (i == len)
		return false; /* only whitespace: not recognisably a trace */
	if (b[i] == '#')
		return true;
	while (i + n < len && b[i + n] != ' ' && b[i + n] != '\t' && b[i + n] != '\r' &&
	       b[i + n] != '\n' && b[i + n] != ':')
		n++;
	if ((n == 6 && memcmp(b + i, "config", 6) == 0) ||
	    (n == 6 && memcmp(b + i, "expect", 6) == 0))
		return true;
	return mbd_op_lookup((const char *)b + i, n) >= 0;
}

int mbd_load_file(const char *path, enum mbd_decoder dec, struct mbd_trace *t,
		  struct mbd_diag *d)
{
	struct mbd_diag local;
	char why[200];
	uint8_t *buf;
	size_t len;
	int ret = 0;

	if (!d)
		d = &local;
	memset(d, 0, sizeof(*d));
	d->file = path;
	if (mbd_read_file(path, MBD_INPUT_MAX, &buf, &len, why, sizeof(why))) {
		snprintf(d->msg, sizeof(d->msg), "cannot read: %s", why);
		mbd_trace_clear(t);
		return -1;
	}
	if (ends_with(path, ".mbt"))
		ret = mbd_text_parse((const char *)buf, len, path, t, d);
	else
		ret = mbd_decode_input(buf, len, path, dec, t, d);
	free(buf);
	return ret;
}

int mbd_decode_input(const uint8_t *data, size_t len, const char *name,
		     enum mbd_decoder dec, struct mbd_trace *t, struct mbd_diag *d)
{
	if (mbd_input_is_text(data, len))
		return mbd_text_parse_fuzz((const char *)data, len, name, t, d);
	mbd_trace_clear(t);
	mbd_bin_decode(data, len, dec, t);
	return 0;
}
