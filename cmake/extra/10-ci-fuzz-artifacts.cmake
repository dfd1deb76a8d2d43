# SPDX-License-Identifier: GPL-2.0
# scripts/ci-fuzz.sh keeps every crash it found when it is killed (issue 7.7).
# The test builds its own stub target, so it needs a C compiler and libFuzzer;
# it skips (exit 77) when those are missing.
if(MBDIFF_TESTS AND MBDIFF_FUZZ)
	add_test(NAME fuzz-smoke/ci-fuzz-artifacts
		COMMAND bash "${CMAKE_SOURCE_DIR}/tests/test_ci_fuzz_artifacts.sh")
	set_tests_properties(fuzz-smoke/ci-fuzz-artifacts PROPERTIES
		LABELS fuzz-smoke SKIP_RETURN_CODE 77 TIMEOUT 300
		ENVIRONMENT "MBDIFF_SOURCE_DIR=${CMAKE_SOURCE_DIR};MBDIFF_BINARY_DIR=${CMAKE_BINARY_DIR}")
endif()
