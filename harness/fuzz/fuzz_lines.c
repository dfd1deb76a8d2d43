// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer's status output, one write(2) a line. libFuzzer flushes its
 * output stream after every fragment it prints, so each NEW or REDUCE
 * line took a dozen write(2) calls: 52,325 in a 200,000-run campaign of
 * the plain target, 4,159 with this stream, and the run's system time
 * fell from 0.39 to 0.29 s (docs/speed.md, seventh pass). The stream passes
 * whole lines on as they end, so the bytes and their order are libFuzzer's
 * own; a line that never ends goes out when the buffer fills or at exit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_lines.h"

/* libFuzzer's own switch of its output stream (what -close_fd_mask=2
 * uses); weak, so that a build without libFuzzer links. */
void mbd_lf_set_output_file(FILE *f) __asm__("_ZN6fuzzer13SetOutputFileEP8_IO_FILE")
	__attribute__((weak));

static void put_all(struct mbd_lines *l, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(l->fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return; /* nowhere to write: as an unbuffered stream loses it */
		l->writes++;
		p += w;
		n -= (size_t)w;
	}
}

static ssize_t lines_write(void *cookie, const char *p, size_t n)
{
	struct mbd_lines *l = cookie;
	const char *nl;
	size_t k;

	l->fragments++;
	if (n > sizeof(l->buf) - l->n) {
		/* no room: out with what is held, and with p if it cannot wait */
		put_all(l, l->buf, l->n);
		l->n = 0;
		if (n > sizeof(l->buf)) {
			put_all(l, p, n);
			return (ssize_t)n;
		}
	}
	memcpy(l->buf + l->n, p, n);
	l->n += n;
	nl = memrchr(l->buf, '\n', l->n);
	if (!nl)
		return (ssize_t)n;
	k = (size_t)(nl - l->buf) + 1;
	put_all(l, l->buf, k);
	memmove(l->buf, l->buf + k, l->n - k);
	l->n -= k;
	return (ssize_t)n;
}

void mbd_lines_drain(struct mbd_lines *l)
{
	/* the stream's lock guards buf too: libFuzzer prints from more
	   than one thread (its RSS watcher) */
	if (l->f) {
		flockfile(l->f);
		fflush(l->f);
	}
	put_all(l, l->buf, l->n);
	l->n = 0;
	if (l->f)
		funlockfile(l->f);
}

FILE *mbd_lines_open(struct mbd_lines *l, int fd)
{
	cookie_io_functions_t io = { .write = lines_write };

	memset(l, 0, sizeof(*l));
	l->fd = fd;
	l->f = fopencookie(l, "w", io);
	/* the stream's own buffer would only add a copy: unbuffered, each
	   fprintf() reaches lines_write() at once */
	if (l->f)
		setvbuf(l->f, NULL, _IONBF, 0);
	return l->f;
}

static struct mbd_lines status;
static bool report;

static void drain_status(void)
{
	mbd_lines_drain(&status);
	if (report)
		fprintf(stderr, "mbdiff: libFuzzer's output: %lu pieces in %lu writes\n",
			status.fragments, status.writes);
}

bool mbd_lines_for_libfuzzer(bool counts)
{
	if (!mbd_lf_set_output_file || status.f)
		return false;
	if (!mbd_lines_open(&status, STDERR_FILENO))
		return false;
	/* libFuzzer leaves through exit() (a crash through _Exit(), after
	   its last line ended) */
	if (atexit(drain_status)) {
		fclose(status.f);
		status.f = NULL;
		return false;
	}
	report = counts;
	mbd_lf_set_output_file(status.f);
	return true;
}
