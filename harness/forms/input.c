// SPDX-License-Identifier: GPL-2.0
/*
 * Input files: read whole files, tell text traces from fuzzer bytes, and
 * write outputs atomically (temp file + rename) so that an interrupted run
 * never leaves a half-written corpus file or report behind.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mbd_input.h"

int mbd_read_file(const char *path, uint8_t **buf, size_t *len)
{
	size_t cap = 4096, n = 0;
	uint8_t *b = NULL;
	struct stat st;
	int fd, err;

	*buf = NULL;
	*len = 0;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st)) {
		err = errno;
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		err = EISDIR;
		goto fail;
	}
	/* st_size is a hint only: pipes and /proc files report 0. */
	if (S_ISREG(st.st_mode) && st.st_size > 0 && (uint64_t)st.st_size < SIZE_MAX - 1)
		cap = (size_t)st.st_size + 1;
	for (;;) {
		ssize_t r;

		if (!b || n == cap) {
			uint8_t *nb;

			if (b) {
				if (cap > SIZE_MAX / 2) {
					err = EFBIG;
					goto fail;
				}
				cap *= 2;
			}
			nb = realloc(b, cap + 1);
			if (!nb) {
				err = ENOMEM;
				goto fail;
			}
			b = nb;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = errno;
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	b[n] = 0; /* not counted: a convenience for text users */
	*buf = b;
	*len = n;
	return 0;
fail:
	free(b);
	close(fd);
	errno = err;
	return -1;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/*
 * Text if every byte is printable ASCII, tab, CR or LF, and the first
 * significant line is a comment or starts with a keyword of the format.
 */
static bool looks_like_text(const uint8_t *b, size_t len)
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
	uint8_t *buf;
	size_t len;
	int ret = 0;

	if (!d)
		d = &local;
	memset(d, 0, sizeof(*d));
	snprintf(d->file, sizeof(d->file), "%s", path);
	if (mbd_read_file(path, &buf, &len)) {
		snprintf(d->msg, sizeof(d->msg), "cannot read: %s", strerror(errno));
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
	if (looks_like_text(data, len))
		return mbd_text_parse((const char *)data, len, name, t, d);
	mbd_trace_clear(t);
	mbd_bin_decode(data, len, dec, t);
	return 0;
}

int mbd_write_file_atomic(const char *path, const void *data, size_t len)
{
	static const char suffix[] = ".tmp.XXXXXX";
	size_t plen = strlen(path), done = 0;
	const char *p = data;
	struct stat st;
	char *tmp;
	int fd, err;

	tmp = malloc(plen + sizeof(suffix));
	if (!tmp) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(tmp, path, plen);
	memcpy(tmp + plen, suffix, sizeof(suffix));
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = errno;
		free(tmp);
		errno = err;
		return -1;
	}
	/* mkstemp makes 0600; keep the replaced file's mode, else a plain 0644. */
	if (fchmod(fd, stat(path, &st) == 0 ? (st.st_mode & 07777) : 0644))
		goto fail;
	while (done < len) {
		ssize_t r = write(fd, p + done, len - done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		done += (size_t)r;
	}
	if (close(fd)) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path))
		goto fail;
	free(tmp);
	return 0;
fail:
	err = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	errno = err;
	return -1;
}
