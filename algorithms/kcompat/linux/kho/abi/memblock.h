/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in for <linux/kho/abi/memblock.h>: KHO is off (no CONFIG_KEXEC_HANDOVER). */
#include "../../../kcompat.h"
