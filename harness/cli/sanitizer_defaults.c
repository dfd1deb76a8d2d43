// SPDX-License-Identifier: GPL-2.0
/*
 * Linked into every program (mbdiff, mbdiff-replay, afl_diff), never into
 * the libFuzzer target, which has its own exit codes. A sanitizer report
 * exits 3 (README "Exit codes": a crash), not the runtimes' default 1,
 * which means "divergent" here. The environment (ASAN_OPTIONS=exitcode=N,
 * afl-fuzz's own settings) still overrides this. Harmless without
 * sanitizers: nothing calls these then.
 */
#define MBD_SANITIZER_DEFAULTS "exitcode=3"

const char *__asan_default_options(void);
const char *__ubsan_default_options(void);
const char *__lsan_default_options(void);
const char *__msan_default_options(void);

const char *__asan_default_options(void)
{
	return MBD_SANITIZER_DEFAULTS;
}

const char *__ubsan_default_options(void)
{
	return MBD_SANITIZER_DEFAULTS;
}

const char *__lsan_default_options(void)
{
	return MBD_SANITIZER_DEFAULTS;
}

const char *__msan_default_options(void)
{
	return MBD_SANITIZER_DEFAULTS;
}
