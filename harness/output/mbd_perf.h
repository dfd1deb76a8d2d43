/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A user-space instruction counter for `mbdiff bench`: perf_event_open()
 * with PERF_COUNT_HW_INSTRUCTIONS on this thread, kernel and hypervisor
 * excluded. Many VMs expose no PMU and many containers forbid the call, so
 * opening it can fail; the caller then says why instead of printing zeros.
 */
#ifndef MBD_PERF_H
#define MBD_PERF_H

#include <stdbool.h>
#include <stdint.h>

struct mbd_perf {
	int fd;   /* -1 when not counting */
	int err;  /* errno of the failed open, 0 when counting */
};

/* Returns 0, or -1 with p->err set (p->fd is then -1). */
int mbd_perf_open(struct mbd_perf *p);
/* The running count; false when not counting or the read failed. */
bool mbd_perf_read(const struct mbd_perf *p, uint64_t *count);
void mbd_perf_close(struct mbd_perf *p);

#endif
