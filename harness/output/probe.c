// SPDX-License-Identifier: GPL-2.0
/*
 * One trace's verdict key, in this process or in a child (mbd_probe.h):
 * the minimizer's candidate test, and how `mbdiff minimize` learns the key
 * of its input without risking its own process.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mbd_probe.h"

/* A child that runs this long is hung, not crashed. */
#define CHILD_TIMEOUT_S 60
/* Longest "<ops_run> <key>" line a child sends. */
#define LINE_MAX_BYTES 512

struct probe {
	struct mbd_runner *r;
	int verbose;
	char *kbuf;
	size_t n;
};

/* Run t in this process; key "" when it does not diverge. */
static void run_here(struct probe *m, const struct mbd_trace *t, size_t *ops_run)
{
	struct mbd_verdict v;

	m->kbuf[0] = '\0';
	*ops_run = 0;
	if (mbd_runner_run(m->r, t, &v) == 1) {
		mbd_verdict_key(&v, m->kbuf, m->n);
		*ops_run = v.ops_run;
	}
}

static void write_all(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t w = write(fd, s, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		len -= (size_t)w;
	}
}

/* The child's side: run, send "<ops_run> <key>\n" (key may be empty). */
static void child_run(struct probe *m, const struct mbd_trace *t, int fd)
{
	char line[LINE_MAX_BYTES];
	size_t ops_run;
	int len;

	if (!m->verbose) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
			close(null);
		}
	}
	alarm(CHILD_TIMEOUT_S);
	run_here(m, t, &ops_run);
	len = snprintf(line, sizeof(line), "%zu %s\n", ops_run, m->kbuf);
	if (len > 0 && (size_t)len < sizeof(line))
		write_all(fd, line, (size_t)len);
	fflush(NULL);
	_exit(0);
}

/* Run t in a child; a child that dies without answering is a "crash". */
static void run_forked(struct probe *m, const struct mbd_trace *t, size_t *ops_run)
{
	char line[LINE_MAX_BYTES];
	size_t got = 0;
	int fds[2], status = 0;
	pid_t pid;
	char *nl, *sp;

	m->kbuf[0] = '\0';
	*ops_run = 0;
	fflush(NULL);
	if (pipe(fds) != 0)
		return;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		close(fds[0]);
		child_run(m, t, fds[1]);
	}
	close(fds[1]);
	while (got < sizeof(line) - 1) {
		ssize_t n = read(fds[0], line + got, sizeof(line) - 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	line[got] = '\0';
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	nl = strchr(line, '\n');
	sp = strchr(line, ' ');
	if (!nl || !sp || sp > nl || !WIFEXITED(status) || WEXITSTATUS(status)) {
		bool hung = WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM;

		snprintf(m->kbuf, m->n, "%s", hung ? "timeout" : "crash");
		return;
	}
	*nl = '\0';
	*ops_run = (size_t)strtoull(line, NULL, 10);
	snprintf(m->kbuf, m->n, "%s", sp + 1);
}

void mbd_probe_key(struct mbd_runner *r, const struct mbd_trace *t,
		   bool in_child, int verbose, char *key, size_t n,
		   size_t *ops_run)
{
	struct probe m = { r, verbose, key, n };

	if (!n) {
		*ops_run = 0;
		return;
	}
	if (in_child)
		run_forked(&m, t, ops_run);
	else
		run_here(&m, t, ops_run);
}
