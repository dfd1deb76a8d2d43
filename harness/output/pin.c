// SPDX-License-Identifier: GPL-2.0
/* sched_setaffinity behind mbd_pin.h. */
#define _GNU_SOURCE

#include <errno.h>
#include <sched.h>

#include "mbd_pin.h"

int mbd_pin_cpu(int cpu)
{
	cpu_set_t set;

	if (cpu < 0) {
		cpu = sched_getcpu();
		if (cpu < 0)
			return errno ? -errno : -ENOSYS;
	}
	if (cpu >= CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		return errno ? -errno : -EINVAL;
	return cpu;
}
