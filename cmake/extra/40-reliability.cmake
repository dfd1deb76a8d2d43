# SPDX-License-Identifier: GPL-2.0
#
# Issue 7 (trust the verdicts): the input-layer fuzz target fuzz_decode
# (fuzz presets) and the short ctest checks. The long runs and figures are
# scripts/bench-reliability.sh (docs/reliability.md).
#   unit/bad-input          malformed .mbt through replay, convert, minimize
#   unit/determinism        corpus + random inputs, forwards/backwards/twice
#   fuzz-smoke/fuzz-decode  a short fuzz_decode run must find nothing
#   fuzz-smoke/stability    scripts/stability-probe.sh: every seed and
#                           regression repeats its edge coverage exactly after
#                           other inputs ran, from a cold process (AFL++
#                           stability); default build only (its own clang build)

if(MBDIFF_FUZZ)
	# Decoders, encoder, .mbt parser and printer only: no variants run.
	add_executable(fuzz_decode "${MBD_FUZZ_DIR}/fuzz_decode.c")
	mbd_harness_target(fuzz_decode)
	target_link_libraries(fuzz_decode PRIVATE mbd_harness)
	target_link_options(fuzz_decode PRIVATE ${MBD_FUZZ_ENGINE_FLAGS})
	set_target_properties(fuzz_decode PROPERTIES
		RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}")
endif()

if(MBDIFF_TESTS)
	set(_rel_env
		"MBDIFF_SOURCE_DIR=${PROJECT_SOURCE_DIR}"
		"MBDIFF_BINARY_DIR=${CMAKE_BINARY_DIR}"
		"MBDIFF=$<TARGET_FILE:mbdiff>")
	set(_rel_work "${CMAKE_BINARY_DIR}/tests/work")

	add_test(NAME unit/bad-input
		COMMAND bash "${PROJECT_SOURCE_DIR}/tests/test_bad_input.sh"
			"$<TARGET_FILE:mbdiff>" "${_rel_work}/bad-input")
	set_tests_properties(unit/bad-input PROPERTIES
		LABELS unit TIMEOUT 120 ENVIRONMENT "${_rel_env}")

	add_test(NAME unit/determinism
		COMMAND bash "${PROJECT_SOURCE_DIR}/tests/test_determinism.sh"
			"$<TARGET_FILE:mbdiff>" "${PROJECT_SOURCE_DIR}" "${_rel_work}/determinism")
	set_tests_properties(unit/determinism PROPERTIES
		LABELS unit TIMEOUT 120 ENVIRONMENT "${_rel_env}")

	if(NOT MBDIFF_FUZZ AND NOT MBDIFF_AFL)
		add_test(NAME fuzz-smoke/stability
			COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/stability-probe.sh"
				"--build-dir=${_rel_work}/stability-build" --others=3)
		set_tests_properties(fuzz-smoke/stability PROPERTIES
			LABELS fuzz-smoke TIMEOUT 600)
	endif()

	if(MBDIFF_FUZZ)
		set(MBDIFF_SMOKE_DECODE_RUNS 20000 CACHE STRING
			"fuzz-smoke: fuzz_decode runs that must find nothing")
		# fuzz_smoke.sh clean: exit 0, all runs done, no signature, no
		# artifact. fuzz_decode takes no options; --variants is ignored.
		add_test(NAME fuzz-smoke/fuzz-decode
			COMMAND bash "${PROJECT_SOURCE_DIR}/tests/fuzz_smoke.sh" clean
				"--fuzzer=$<TARGET_FILE:fuzz_decode>" "--work=${_rel_work}/fuzz-decode"
				--variants=none "--runs=${MBDIFF_SMOKE_DECODE_RUNS}" --max-time=60
				"--dict=${PROJECT_SOURCE_DIR}/corpus/mbdiff.dict")
		set_tests_properties(fuzz-smoke/fuzz-decode PROPERTIES
			LABELS fuzz-smoke TIMEOUT 120)
	endif()
endif()
