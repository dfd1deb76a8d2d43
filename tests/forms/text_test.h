/* SPDX-License-Identifier: GPL-2.0 */
/* What the files of unit/test_text share: trace equality, the temporary dir, the cases. */
#ifndef MBD_TEXT_TEST_H
#define MBD_TEXT_TEST_H

#include <stdbool.h>
#include <string.h>

#include "mbd_test.h"
#include "mbd_text.h"

#define U64MAX UINT64_MAX

static inline bool config_eq(const struct mbd_config *a, const struct mbd_config *b)
{
	return a->memory_max == b->memory_max && a->reserved_max == b->reserved_max &&
	       a->resize == b->resize && a->slab == b->slab &&
	       a->bottom_up == b->bottom_up && a->mirror == b->mirror &&
	       a->movable == b->movable && a->limit == b->limit;
}

/* Same config and the same normalized ops (struct mbd_op has no padding). */
static inline bool trace_eq(const struct mbd_trace *a, const struct mbd_trace *b)
{
	if (!config_eq(&a->cfg, &b->cfg) || a->n_ops != b->n_ops)
		return false;
	for (size_t i = 0; i < a->n_ops; i++) {
		struct mbd_op x = a->ops[i], y = b->ops[i];

		mbd_op_normalize(&x);
		mbd_op_normalize(&y);
		if (memcmp(&x, &y, sizeof(x)) != 0) {
			fprintf(stderr, "op %zu differs\n", i);
			return false;
		}
	}
	return true;
}

/* main()'s temporary directory (text_cases_files.c), and its removal */
extern char tmpdir[];
void rm_tree(const char *dir);

/* The cases of the other files, which main() (test_text.c) calls. */
/* text_cases_parse.c */
void test_parse_dmesg(void);
void test_parse_misc(void);
void test_bad_inputs(void);
void test_fuzz_text(void);
void test_diag_print(void);
/* text_cases_files.c */
void test_load(void);
void test_write_atomic(void);

#endif
