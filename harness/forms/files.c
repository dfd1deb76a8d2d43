// SPDX-License-Identifier: GPL-2.0
/*
 * Every file mbdiff reads or writes. Inputs (mbd_read_file, mbd_input.h): a
 * regular file of known size, within a bound; FIFOs and devices are refused
 * before they are opened (no hang on a FIFO, no endless /dev/zero), a file
 * whose size stat() does not know (/proc, /sys) when it yields more than
 * that size. Outputs: the rules of mbd_output.h.
 */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mbd_input.h"
#include "mbd_output.h"

enum how { NEW, REPLACE, STREAM };

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
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" :
	       S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device" :
	       S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* The directory part of path ("." if none), malloc'd. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n;
	char *d;

	if (!slash)
		return strdup(".");
	n = slash == path ? 1 : (size_t)(slash - path);
	d = malloc(n + 1);
	if (d) {
		memcpy(d, path, n);
		d[n] = '\0';
	}
	return d;
}

/*
 * How to write path, and the path to create or replace (*target, malloc'd:
 * a symlink's final target, else path itself).
 */
static int classify(const char *path, enum how *how, char **target, char *why, size_t n)
{
	struct stat st;

	*target = NULL;
	if (lstat(path, &st) != 0) {
		char *dir;
		bool is_dir;

		if (errno != ENOENT)
			return why_set(why, n, "%s", strerror(errno));
		dir = dir_of(path);
		if (!dir)
			return why_set(why, n, "out of memory");
		is_dir = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
		free(dir);
		if (!is_dir)
			return why_set(why, n, "%s (its directory)", strerror(ENOENT));
		*how = NEW;
		*target = strdup(path);
		return *target ? 0 : why_set(why, n, "out of memory");
	}
	if (S_ISLNK(st.st_mode)) {
		if (stat(path, &st) != 0)
			return why_set(why, n, "a symlink to nothing usable (%s)", strerror(errno));
		if (S_ISREG(st.st_mode)) {
			*how = REPLACE;
			*target = realpath(path, NULL);
			return *target ? 0 : why_set(why, n, "%s", strerror(errno));
		}
	}
	if (S_ISREG(st.st_mode))
		*how = REPLACE;
	else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
		*how = STREAM;
	else
		return why_set(why, n, "%s: only a regular file, a character device or a FIFO "
			       "is written", kind_name(st.st_mode));
	*target = strdup(path);
	return *target ? 0 : why_set(why, n, "out of memory");
}

int mbd_output_check(const char *path, const char *const *inputs, size_t n,
		     char *why, size_t n_why)
{
	struct stat out, in;
	enum how how;
	char *target;

	if (classify(path, &how, &target, why, n_why))
		return -1;
	free(target);
	if (stat(path, &out) != 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (inputs[i] && stat(inputs[i], &in) == 0 && S_ISREG(in.st_mode) &&
		    in.st_dev == out.st_dev && in.st_ino == out.st_ino)
			return why_set(why, n_why, "is the input %s: refusing to overwrite it",
				       inputs[i]);
	}
	return 0;
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	size_t done = 0;

	while (done < len) {
		ssize_t r = write(fd, p + done, len - done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		done += (size_t)r;
	}
	return 0;
}

static int write_stream(const char *path, const void *data, size_t len, char *why, size_t n)
{
	/* O_NONBLOCK: a FIFO without a reader fails (ENXIO) instead of waiting */
	int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY), err;

	if (fd < 0) {
		if (errno == ENXIO)
			return why_set(why, n, "a FIFO that no process reads");
		return why_set(why, n, "%s", strerror(errno));
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 ||
	    write_all(fd, data, len) != 0) {
		err = errno;
		close(fd);
		return why_set(why, n, "%s", strerror(err));
	}
	if (close(fd) != 0)
		return why_set(why, n, "%s", strerror(errno));
	return 0;
}

/* Temp file beside target (a short name: target may be NAME_MAX long). */
static int write_replace(const char *target, bool existed, const void *data, size_t len,
			 char *why, size_t n)
{
	static const char base[] = "/.mbdiff-out.XXXXXX";
	char *dir = dir_of(target), *tmp = NULL;
	struct stat st;
	mode_t mode, mask;
	int fd = -1, err = 0;

	if (!dir)
		return why_set(why, n, "out of memory");
	tmp = malloc(strlen(dir) + sizeof(base));
	if (!tmp) {
		free(dir);
		return why_set(why, n, "out of memory");
	}
	strcpy(tmp, dir);
	strcat(tmp, base);
	free(dir);
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = errno;
		free(tmp);
		return why_set(why, n, "%s", strerror(err));
	}
	mask = umask(0);
	umask(mask);
	mode = existed && stat(target, &st) == 0 ? st.st_mode & 07777 : 0666 & ~mask;
	if (fchmod(fd, mode) != 0 || write_all(fd, data, len) != 0)
		err = errno;
	if (close(fd) != 0 && !err)
		err = errno;
	if (!err && rename(tmp, target) != 0)
		err = errno;
	if (err)
		unlink(tmp);
	free(tmp);
	return err ? why_set(why, n, "%s", strerror(err)) : 0;
}

int mbd_output_write(const char *path, const void *data, size_t len,
		     char *why, size_t n_why)
{
	enum how how;
	char *target;
	int rc;

	if (classify(path, &how, &target, why, n_why))
		return -1;
	if (how == STREAM)
		rc = write_stream(target, data, len, why, n_why);
	else
		rc = write_replace(target, how == REPLACE, data, len, why, n_why);
	free(target);
	return rc;
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
