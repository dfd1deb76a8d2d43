/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pinning the measuring thread to one CPU (`mbdiff bench`): no migration
 * between a variant's sample and the baseline's, so both find the same
 * caches and the same core. Containers and cgroups may forbid a CPU; the
 * caller then says so and measures unpinned.
 */
#ifndef MBD_PIN_H
#define MBD_PIN_H

/* cpu >= 0: that CPU; -1: the CPU the thread runs on now. Returns the CPU
 * pinned to, or -errno. */
int mbd_pin_cpu(int cpu);

#endif
