// SPDX-License-Identifier: GPL-2.0
/*
 * Each variant's coverage counters go to the fuzzing engine only when a
 * target runs that variant. libFuzzer reads every counter it knows of
 * after every input (and clears them before the next), and a build links
 * twenty and more variants while a target runs two: their counters, all
 * in one section, were 94% of what it read.
 *
 * So in libFuzzer builds cmake/MbdVariants.cmake gives every counted
 * variant object its own counter and PC-table sections, and turns the
 * object's constructor, which would hand them to libFuzzer at start-up,
 * into a call of the no-ops below. The fuzz target hands over those of
 * the variants it runs (mbd_variant_feed_coverage()), before the first
 * input. The kcompat runtime's counters stay in the common section that
 * libFuzzer takes at start-up as before.
 */
#include <stdint.h>
#include <string.h>

#include "mbd_variant.h"

/* libFuzzer's (and the sanitizer runtimes' no-op) registration calls. */
void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop)
	__attribute__((weak));
void __sanitizer_cov_pcs_init(const uintptr_t *start, const uintptr_t *stop)
	__attribute__((weak));

/* What a counted variant object's constructor calls instead. */
void mbd_cov_ctor_counters(uint8_t *start, uint8_t *stop);
void mbd_cov_ctor_pcs(const uintptr_t *start, const uintptr_t *stop);

void mbd_cov_ctor_counters(uint8_t *start, uint8_t *stop)
{
	(void)start;
	(void)stop;
}

void mbd_cov_ctor_pcs(const uintptr_t *start, const uintptr_t *stop)
{
	(void)start;
	(void)stop;
}

/* Far more than any build links; past it nothing more is handed over. */
#define MAX_FED 1024

static const uint8_t *fed[MAX_FED];
static size_t n_fed;

bool mbd_variant_feed_coverage(const struct mbd_variant *v)
{
	if (!v || !v->cov_counters || v->cov_counters_end <= v->cov_counters)
		return false;
	for (size_t i = 0; i < n_fed; i++)
		if (fed[i] == v->cov_counters)
			return false;
	if (n_fed == MAX_FED)
		return false;
	fed[n_fed++] = v->cov_counters;
	/* whatever ran before (warm-up, another driver) is not this input */
	memset(v->cov_counters, 0, (size_t)(v->cov_counters_end - v->cov_counters));
	if (__sanitizer_cov_8bit_counters_init)
		__sanitizer_cov_8bit_counters_init(v->cov_counters, v->cov_counters_end);
	/* libFuzzer pairs the n-th PC table with the n-th counter module */
	if (__sanitizer_cov_pcs_init && v->cov_pcs && v->cov_pcs_end > v->cov_pcs)
		__sanitizer_cov_pcs_init(v->cov_pcs, v->cov_pcs_end);
	return true;
}
