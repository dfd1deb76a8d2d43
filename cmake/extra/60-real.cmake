# SPDX-License-Identifier: GPL-2.0
# corpus/real: traces imported from real boot logs (scripts/import-real.sh,
# docs/real-boots.md). Each replays against reference~reference-twin with its
# `expect` checkpoints checked against the reference, and must give the
# outcome recorded in its "# real-result:" line. real/import-fresh re-imports
# the logs and fails if a committed trace is stale (skipped without the logs).
if(MBDIFF_TESTS AND TARGET mbdiff)
	file(GLOB MBD_REAL_TRACES CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/corpus/real/*.mbt")
	list(SORT MBD_REAL_TRACES)
	foreach(f IN LISTS MBD_REAL_TRACES)
		get_filename_component(name "${f}" NAME_WE)
		add_test(NAME real/${name}
			COMMAND bash "${CMAKE_SOURCE_DIR}/tests/real_replay.sh"
				"$<TARGET_FILE:mbdiff>" "${f}")
		set_tests_properties(real/${name} PROPERTIES LABELS "regression;real" TIMEOUT 60)
	endforeach()
	add_test(NAME real/import-fresh
		COMMAND bash "${CMAKE_SOURCE_DIR}/scripts/import-real.sh" --check
			--mbdiff "$<TARGET_FILE:mbdiff>")
	set_tests_properties(real/import-fresh PROPERTIES
		LABELS "regression;real" TIMEOUT 120 SKIP_RETURN_CODE 77)
endif()
