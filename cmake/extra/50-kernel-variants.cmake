# SPDX-License-Identifier: GPL-2.0
# Kernel-tree variants (docs/kernel-variants.md). Discovery and staging live
# in cmake/MbdVariants.cmake (MBDIFF_KERNEL_VARIANTS, kernel-variants.txt);
# this registers the tests of that path:
#  kernel-variant/fixture  builds a throwaway copy of this project with a
#                          fixture tree made from algorithms/reference
#  kernel-variant/tree     the same on $MBDIFF_KERNEL_TREE (skips, 77, unset)
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
endif()
