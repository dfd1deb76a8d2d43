// SPDX-License-Identifier: GPL-2.0
/*
 * The one way mbdiff reads an input file: a regular file of known size,
 * within a bound. FIFOs and devices are refused before they are opened (no
 * hang on a FIFO, no endless /dev/zero); a file whose size stat() does not
 * know (/proc, /sys) is refused when it yields more than that size.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mbd_input.h"

__attribute__((format(printf, 3, 4)))
static int why_set(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;

	if (why && n) {
		va_start(ap, fmt);
		vsnprintf(why, n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static const char *kind_name(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* Read exactly n bytes (fewer only at end of file). */
static ssize_t read_n(int fd, uint8_t *b, size_t n)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = read(fd, b + done, n - done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return (ssize_t)done;
}

int mbd_read_file(const char *path, size_t max, uint8_t **buf, size_t *len,
		  char *why, size_t n_why)
{
	struct stat st;
	uint8_t *b = NULL, probe;
	ssize_t got;
	size_t size;
	int fd, err;

	*buf = NULL;
	*len = 0;
	if (stat(path, &st) != 0)
		return why_set(why, n_why, "%s", strerror(errno));
	if (S_ISDIR(st.st_mode))
		return why_set(why, n_why, "%s", strerror(EISDIR));
	if (!S_ISREG(st.st_mode))
		return why_set(why, n_why, "%s, not a regular file: not read", kind_name(st.st_mode));
	if (st.st_size < 0 || (unsigned long long)st.st_size > max)
		return why_set(why, n_why, "too large (%lld bytes): at most %zu MiB are read",
			       (long long)st.st_size, max >> 20);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return why_set(why, n_why, "%s", strerror(errno));
	/* the path may have changed since stat() */
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
	    (unsigned long long)st.st_size > max) {
		close(fd);
		return why_set(why, n_why, "changed while being opened: not read");
	}
	size = (size_t)st.st_size;
	/* +1: a NUL after the data, a convenience for text users */
	b = malloc(size + 1);
	if (!b) {
		close(fd);
		return why_set(why, n_why, "out of memory (%zu bytes)", size);
	}
	got = read_n(fd, b, size);
	if (got >= 0 && (size_t)got == size) {
		ssize_t more = read_n(fd, &probe, 1);

		got = more == 0 ? (ssize_t)size : more < 0 ? -1 : -2;
	}
	err = errno;
	close(fd);
	if (got < 0 || (size_t)got != size) {
		free(b);
		if (got == -1)
			return why_set(why, n_why, "%s", strerror(err));
		return why_set(why, n_why, "its size changed while it was read (a /proc or /sys "
			       "file has no size to bound it): not read");
	}
	b[size] = 0;
	*buf = b;
	*len = size;
	return 0;
}
