/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in for <linux/seq_file.h>: everything lives in kcompat.h. */
#include "kcompat.h"
