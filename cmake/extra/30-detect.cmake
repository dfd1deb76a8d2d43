# SPDX-License-Identifier: GPL-2.0
# scripts/detect.sh finds two seeded bugs (algorithms/mutants/) quickly and
# reports none for the clean pair reference~reference-twin. Needs the
# libFuzzer target; skips (exit 77) when the mutants are not built.
if(MBDIFF_TESTS AND MBDIFF_FUZZ)
	add_test(NAME fuzz-smoke/detect-mutants
		COMMAND bash "${CMAKE_SOURCE_DIR}/tests/test_detect_smoke.sh"
			"--fuzzer=$<TARGET_FILE:fuzz_diff>" "--mbdiff=$<TARGET_FILE:mbdiff>"
			"--work=${CMAKE_BINARY_DIR}/tests/work/detect-smoke")
	set_tests_properties(fuzz-smoke/detect-mutants PROPERTIES
		LABELS fuzz-smoke SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()
