// SPDX-License-Identifier: GPL-2.0
/*
 * The line stream fuzz_diff gives libFuzzer (harness/fuzz/fuzz_lines.c):
 * pieces flushed one by one leave as whole lines, one write(2) each, with
 * every byte in order; a line longer than the buffer and whatever is held
 * at the end still go out.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_lines.h"
#include "mbd_test.h"

static int rd = -1;

/* Everything the pipe holds now (non-blocking), as a string in out. */
static size_t drain_pipe(char *out, size_t cap)
{
	size_t n = 0;

	for (;;) {
		ssize_t r = read(rd, out + n, cap - 1 - n);

		if (r <= 0)
			break;
		n += (size_t)r;
	}
	out[n] = '\0';
	return n;
}

/* fprintf + fflush, as libFuzzer's Printf() does each piece. */
static void piece(FILE *f, const char *s)
{
	fputs(s, f);
	fflush(f);
}

int main(void)
{
	static struct mbd_lines l;
	static char got[1 << 16], want[1 << 16], big[3 * sizeof(l.buf)];
	uint64_t rng = 0x5eed1e55ULL;
	int fds[2];
	size_t n_want = 0, n_got = 0;
	unsigned long newlines = 0, writes0;
	FILE *f;

	MBD_CHECK(pipe(fds) == 0);
	rd = fds[0];
	MBD_CHECK(fcntl(rd, F_SETFL, O_NONBLOCK) == 0);
	f = mbd_lines_open(&l, fds[1]);
	MBD_CHECK(f != NULL);

	/* a status line in pieces: nothing until it ends, then one write */
	piece(f, "#1024\t");
	piece(f, "NEW    cov: 12");
	piece(f, " ft: 34");
	MBD_CHECK(drain_pipe(got, sizeof(got)) == 0);
	MBD_CHECK(l.writes == 0);
	piece(f, "\n");
	drain_pipe(got, sizeof(got));
	MBD_CHECK(strcmp(got, "#1024\tNEW    cov: 12 ft: 34\n") == 0);
	MBD_CHECK(l.writes == 1);
	MBD_CHECK(l.fragments == 4);

	/* lines ended inside a piece go out; the unended rest waits */
	piece(f, "a\nb\nc");
	drain_pipe(got, sizeof(got));
	MBD_CHECK(strcmp(got, "a\nb\n") == 0);
	MBD_CHECK(l.writes == 2);
	MBD_CHECK(l.n == 1);

	/* longer than the buffer: what is held, then the piece, in order */
	memset(big, 'x', sizeof(big) - 2);
	big[sizeof(big) - 2] = '\n';
	big[sizeof(big) - 1] = '\0';
	piece(f, big);
	drain_pipe(got, sizeof(got));
	MBD_CHECK(got[0] == 'c' && strcmp(got + 1, big) == 0);
	MBD_CHECK(l.n == 0);

	/* held at the end: mbd_lines_drain() lets it out */
	piece(f, "tail");
	MBD_CHECK(drain_pipe(got, sizeof(got)) == 0);
	mbd_lines_drain(&l);
	drain_pipe(got, sizeof(got));
	MBD_CHECK(strcmp(got, "tail") == 0);

	/* random pieces: the same bytes in the same order, one write a flush
	   that ended a line */
	writes0 = l.writes;
	for (int i = 0; i < 2000 && n_want < sizeof(want) / 2; i++) {
		char p[40];
		size_t len = (size_t)(mbd_test_rnd(&rng) % (sizeof(p) - 1));
		bool ends = false;

		for (size_t k = 0; k < len; k++) {
			uint64_t r = mbd_test_rnd(&rng) % 16;

			p[k] = r == 0 ? '\n' : (char)('a' + r);
			ends |= r == 0;
		}
		p[len] = '\0';
		piece(f, p);
		memcpy(want + n_want, p, len);
		n_want += len;
		newlines += ends;
		n_got += drain_pipe(got + n_got, sizeof(got) - n_got);
	}
	mbd_lines_drain(&l);
	n_got += drain_pipe(got + n_got, sizeof(got) - n_got);
	MBD_CHECK(n_got == n_want && memcmp(got, want, n_want) == 0);
	/* each piece with a newline wrote once, the final drain at most once */
	MBD_CHECK(l.writes - writes0 <= newlines + 1);
	MBD_CHECK(l.writes - writes0 >= newlines);
	fclose(f);
	close(fds[0]);
	close(fds[1]);
	return mbd_test_done();
}
