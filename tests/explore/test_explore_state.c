// SPDX-License-Identifier: GPL-2.0
/*
 * explore's joint-state hash covers an emptied array's slot 0. The kernel
 * keeps slot 0 when the array is empty (cnt 0; a zero-size dummy before
 * v6.11) and the next memblock_add_range() reads it, so two states that
 * differ only there must not be merged. The remove-no-reset mutant leaves
 * the removed region in slot 0: after "add R; remove R" its states for two
 * different R (or the same R on two nodes) differ, though every snapshot
 * region, counter and oracle set is the same. The reference resets slot
 * 0, so for it the same pairs are one state.
 */
#include <stdio.h>
#include <string.h>

#include "explore_int.h"
#include "mbd_runner.h"
#include "mbd_test.h"
#include "mbd_text.h"

/* The digest of the state after running text on variant name alone. */
static int digest(const char *name, const char *text, uint64_t out[2])
{
	const struct mbd_variant *v = mbd_variant_find(name);
	struct mbd_runner_opts o;
	struct mbd_runner *r;
	struct mbd_trace t;
	struct mbd_verdict vd;
	struct mbd_diag d;
	int rc;

	if (!v)
		return -1;
	mbd_runner_opts_default(&o);
	r = mbd_runner_new(&v, 1, &o);
	if (!r)
		return -1;
	mbd_trace_init(&t);
	rc = mbd_text_parse(text, strlen(text), "<test>", &t, &d);
	if (!rc)
		rc = mbd_runner_run(r, &t, &vd);
	if (!rc)
		mbd_xstate_digest(r, &t, out);
	mbd_trace_free(&t);
	mbd_runner_free(r);
	return rc;
}

#define CFG "config memory.max=4 reserved.max=4 resize=0\n"

static const char at_1000[] = CFG
	"memblock_add: [0x1000-0x1fff]\n"
	"memblock_remove: [0x1000-0x1fff]\n";
static const char at_3000[] = CFG
	"memblock_add: [0x3000-0x3fff]\n"
	"memblock_remove: [0x3000-0x3fff]\n";
static const char node_1[] = CFG
	"memblock_add_node: [0x1000-0x1fff] nid=1 flags=0x0\n"
	"memblock_remove: [0x1000-0x1fff]\n";
static const char node_2[] = CFG
	"memblock_add_node: [0x1000-0x1fff] nid=2 flags=0x0\n"
	"memblock_remove: [0x1000-0x1fff]\n";

static void pair(const char *name, const char *a, const char *b, bool same)
{
	uint64_t ha[2], hb[2];

	MBD_CHECK(digest(name, a, ha) == 0);
	MBD_CHECK(digest(name, b, hb) == 0);
	if (same)
		MBD_CHECK(ha[0] == hb[0] && ha[1] == hb[1]);
	else
		MBD_CHECK(ha[0] != hb[0] || ha[1] != hb[1]);
}

int main(void)
{
	if (!mbd_variant_find("remove-no-reset")) {
		printf("remove-no-reset is not built: skipped\n");
		return mbd_test_done();
	}
	/* the mutant: slot 0 still holds the removed range, or its node */
	pair("remove-no-reset", at_1000, at_3000, false);
	pair("remove-no-reset", node_1, node_2, false);
	/* the reference: emptied is emptied, whatever was removed */
	pair("reference", at_1000, at_3000, true);
	pair("reference", node_1, node_2, true);
	return mbd_test_done();
}
