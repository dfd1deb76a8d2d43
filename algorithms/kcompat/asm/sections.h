/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in for <asm/sections.h>: everything lives in kcompat.h. */
#include "kcompat.h"
