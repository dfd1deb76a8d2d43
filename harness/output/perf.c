// SPDX-License-Identifier: GPL-2.0
/* Instruction counter behind mbd_perf.h (Linux perf_event_open). */
#define _GNU_SOURCE

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mbd_perf.h"

int mbd_perf_open(struct mbd_perf *p)
{
	struct perf_event_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HARDWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	/* user space only: what perf_event_paranoid 2 still allows */
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0UL);
	if (fd < 0) {
		p->fd = -1;
		p->err = errno ? errno : ENOSYS;
		return -1;
	}
	p->fd = (int)fd;
	p->err = 0;
	return 0;
}

bool mbd_perf_read(const struct mbd_perf *p, uint64_t *count)
{
	if (p->fd < 0)
		return false;
	return read(p->fd, count, sizeof(*count)) == (ssize_t)sizeof(*count);
}

void mbd_perf_close(struct mbd_perf *p)
{
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
}
