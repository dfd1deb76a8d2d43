# SPDX-License-Identifier: GPL-2.0
# docs/kernel-tests/*.c (written by `mbdiff emit-test`, see
# scripts/emit-kernel-tests.sh) are built against the stand-in suite in
# tests/kernel_test_stub with the staged reference tree and run: each must
# pass. A <variant>--*.c whose header says it fails on that variant is also
# built against that variant's tree and must fail there.
if(MBDIFF_TESTS AND "reference" IN_LIST MBD_VARIANTS)
	file(GLOB _kt_files CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/docs/kernel-tests/*.c")
	set(_kt_stub "${PROJECT_SOURCE_DIR}/tests/kernel_test_stub")

	function(mbd_kernel_test file variant expect_fail)
		get_filename_component(base "${file}" NAME_WE)
		string(REPLACE "--" ";" parts "${base}")
		list(GET parts 0 dir)
		list(GET parts 1 rest)
		string(MAKE_C_IDENTIFIER "mbdiff_${dir}_${rest}" checks)
		string(MAKE_C_IDENTIFIER "kt_${base}_${variant}" exe)
		set(tree "${CMAKE_BINARY_DIR}/variants/${variant}")
		add_executable(${exe} "${_kt_stub}/run.c"
			"${PROJECT_SOURCE_DIR}/algorithms/kcompat/kcompat_rt.c")
		add_dependencies(${exe} mbd_stage_${MBD_V_${variant}_ID})
		set_target_properties(${exe} PROPERTIES
			C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS ON
			RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/kernel-tests")
		target_include_directories(${exe} PRIVATE "${tree}/include" "${tree}/mm"
			"${PROJECT_SOURCE_DIR}/algorithms/kcompat" "${_kt_stub}")
		target_compile_definitions(${exe} PRIVATE
			"MBD_KT_FILE=\"${file}\"" "MBD_KT_CHECKS=${checks}_checks")
		target_compile_options(${exe} PRIVATE ${MBD_VARIANT_CFLAGS} ${MBD_WERROR_FLAG})
		set(t "kernel-test/${base}@${variant}")
		if(expect_fail)
			# a failed ASSERT exits 1, a BUG() aborts: anything but 0
			add_test(NAME ${t} COMMAND "${MBDIFF_BASH}" -c "! \"$0\"" $<TARGET_FILE:${exe}>)
		else()
			add_test(NAME ${t} COMMAND ${exe})
		endif()
		set_tests_properties(${t} PROPERTIES LABELS regression TIMEOUT 60)
	endfunction()

	foreach(f IN LISTS _kt_files)
		mbd_kernel_test("${f}" reference FALSE)
		get_filename_component(b "${f}" NAME_WE)
		string(REGEX MATCH "^[^-]+(-[^-]+)*--" _dir "${b}")
		string(REGEX REPLACE "--$" "" _dir "${_dir}")
		file(STRINGS "${f}" _fails REGEX "On ${_dir} this test fails at call")
		if(_fails AND NOT _dir STREQUAL "reference" AND _dir IN_LIST MBD_VARIANTS)
			mbd_kernel_test("${f}" "${_dir}" TRUE)
		endif()
	endforeach()
endif()
