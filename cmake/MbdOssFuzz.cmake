# SPDX-License-Identifier: GPL-2.0
# OSS-Fuzz/ClusterFuzzLite targets (docs/ci-fuzzing.md).
#
# MBDIFF_OSSFUZZ=ON (with MBDIFF_FUZZ=ON) adds one libFuzzer target per
# useful variant set, each with its variant list compiled in, because an
# OSS-Fuzz/ClusterFuzzLite runner cannot pass our "--" options:
#   mbdiff_reference_<patch>  reference against one patch (zhou-2025 -> zhou_2025)
#   mbdiff_all                reference, reference-twin and every patch
# Mutants (seeded bugs) are left out: they would crash at once.
# It writes ${CMAKE_BINARY_DIR}/ossfuzz-targets.txt, "name variants" per
# line, which .clusterfuzzlite/build.sh reads to install the targets.
option(MBDIFF_OSSFUZZ "Build OSS-Fuzz style targets with baked-in variants" OFF)

if(MBDIFF_OSSFUZZ AND MBDIFF_FUZZ)
	set(_all "")
	set(_pairs "")
	foreach(v IN LISTS MBD_VARIANTS)
		if(MBD_V_${v}_KIND STREQUAL "MBD_KIND_MUTANT")
			continue()
		endif()
		list(APPEND _all "${v}")
		if(MBD_V_${v}_KIND STREQUAL "MBD_KIND_PATCH")
			string(REPLACE "-" "_" _id "${v}")
			list(APPEND _pairs "mbdiff_reference_${_id}=reference,${v}")
		endif()
	endforeach()
	list(JOIN _all "," _all_csv)
	# fuzz_options.c alone reads MBD_FUZZ_BAKED_VARIANTS: the rest of the
	# fuzz target is compiled once for all of them.
	add_library(mbd_ossfuzz_common OBJECT "${MBD_FUZZ_DIR}/fuzz_diff.c"
		"${MBD_FUZZ_DIR}/fuzz_keep.c" "${MBD_FUZZ_DIR}/fuzz_mutate.c"
		"${MBD_FUZZ_DIR}/fuzz_lines.c")
	mbd_harness_target(mbd_ossfuzz_common)
	target_link_libraries(mbd_ossfuzz_common PRIVATE mbd_harness)
	set(_manifest "")
	set(_names "")
	foreach(item IN LISTS _pairs ITEMS "mbdiff_all=${_all_csv}")
		string(FIND "${item}" "=" _eq)
		string(SUBSTRING "${item}" 0 ${_eq} _name)
		math(EXPR _eq "${_eq} + 1")
		string(SUBSTRING "${item}" ${_eq} -1 _vars)
		add_executable(${_name} "${MBD_FUZZ_DIR}/fuzz_options.c"
			$<TARGET_OBJECTS:mbd_ossfuzz_common>)
		mbd_harness_target(${_name})
		target_compile_definitions(${_name} PRIVATE "MBD_FUZZ_BAKED_VARIANTS=\"${_vars}\"")
		target_link_libraries(${_name} PRIVATE mbd_harness)
		target_link_options(${_name} PRIVATE ${MBD_FUZZ_ENGINE_FLAGS})
		set_target_properties(${_name} PROPERTIES
			RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/ossfuzz")
		string(APPEND _manifest "${_name} ${_vars}\n")
		list(APPEND _names ${_name})
	endforeach()
	file(WRITE "${CMAKE_BINARY_DIR}/ossfuzz-targets.txt" "${_manifest}")
	# What .clusterfuzzlite/build.sh builds, as one goal: with Makefiles
	# every goal on the command line walks the whole dependency tree
	# again (about 5 CPU s each, no-op or not).
	add_custom_target(mbdiff-ossfuzz)
	add_dependencies(mbdiff-ossfuzz mbdiff ${_names})
endif()
