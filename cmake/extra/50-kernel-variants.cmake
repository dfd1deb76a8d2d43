# SPDX-License-Identifier: GPL-2.0
# Kernel-tree variants (docs/kernel-variants.md). Discovery and staging live
# in cmake/MbdVariants.cmake (MBDIFF_KERNEL_VARIANTS, kernel-variants.txt);
# this registers the tests of that path:
#  kernel-variant/fixture   builds a throwaway copy of this project with a
#                           fixture tree made from algorithms/reference
#  kernel-variant/tree      the same on $MBDIFF_KERNEL_TREE (skips, 77, unset)
#  kernel-variant/real-V    the same on the real v6.12 and v6.1 files that
#                           scripts/get-kernel-tree.sh fetched into
#                           build/kernel-trees/linux-V (skips, 77, when not
#                           fetched); the divergences from the reference
#                           must be exactly those in tests/kernel-trees/V.expected
if(MBDIFF_TESTS)
	foreach(_kv_mode fixture tree)
		add_test(NAME kernel-variant/${_kv_mode}
			COMMAND bash "${CMAKE_SOURCE_DIR}/tests/test_kernel_variant.sh"
				"--mode=${_kv_mode}" "--src=${CMAKE_SOURCE_DIR}"
				"--work=${CMAKE_BINARY_DIR}/tests/work/kernel-variant-${_kv_mode}"
				"--cc=${CMAKE_C_COMPILER}")
		set_tests_properties(kernel-variant/${_kv_mode} PROPERTIES
			LABELS kernel-variant SKIP_RETURN_CODE 77 TIMEOUT 900)
	endforeach()
	foreach(_kv_ver 6.12 6.1)
		add_test(NAME kernel-variant/real-${_kv_ver}
			COMMAND bash "${CMAKE_SOURCE_DIR}/tests/test_kernel_variant.sh"
				--mode=tree "--src=${CMAKE_SOURCE_DIR}"
				"--tree=${CMAKE_SOURCE_DIR}/build/kernel-trees/linux-${_kv_ver}"
				"--expect=${CMAKE_SOURCE_DIR}/tests/kernel-trees/${_kv_ver}.expected"
				"--work=${CMAKE_BINARY_DIR}/tests/work/kernel-variant-real-${_kv_ver}"
				"--cc=${CMAKE_C_COMPILER}")
		set_tests_properties(kernel-variant/real-${_kv_ver} PROPERTIES
			LABELS "kernel-variant;regression" SKIP_RETURN_CODE 77 TIMEOUT 900)
	endforeach()
endif()
