# SPDX-License-Identifier: GPL-2.0
#
# Stage one variant's mini kernel tree (cmake -P script, run at build time):
#   TREE/mm/memblock.c and TREE/include/linux/memblock.h are copies of the
#   reference, then PATCH (if any) is applied with `patch -p1`.
# The tree is built in TREE.tmp and copied over TREE only when the patch
# applied, and only files whose content changed are rewritten, so an edit
# that does not change the staged sources does not recompile the variant.
#
# Inputs: NAME REF_C REF_H TREE STAMP PATCH_EXE [PATCH]
cmake_minimum_required(VERSION 3.21)

foreach(var NAME REF_C REF_H TREE STAMP PATCH_EXE)
	if(NOT DEFINED ${var})
		message(FATAL_ERROR "stage_variant.cmake: ${var} is not set")
	endif()
endforeach()

set(tmp "${TREE}.tmp")
file(REMOVE_RECURSE "${tmp}")
file(REMOVE "${STAMP}")
file(MAKE_DIRECTORY "${tmp}/mm" "${tmp}/include/linux")
file(COPY_FILE "${REF_C}" "${tmp}/mm/memblock.c")
file(COPY_FILE "${REF_H}" "${tmp}/include/linux/memblock.h")

if(PATCH)
	execute_process(
		COMMAND "${PATCH_EXE}" -p1 --no-backup-if-mismatch --batch
			-d "${tmp}" -i "${PATCH}"
		RESULT_VARIABLE rc
		OUTPUT_VARIABLE out
		ERROR_VARIABLE out)
	if(NOT rc EQUAL 0)
		message(FATAL_ERROR
			"variant '${NAME}': ${PATCH} does not apply to the reference "
			"(algorithms/reference/memblock.{c,h}); patch says:\n${out}")
	endif()
	# A hunk that needed fuzz or an offset applied, but the patch has
	# drifted from the reference: say so without failing.
	if(out MATCHES "fuzz|offset")
		message(WARNING "variant '${NAME}': ${PATCH} applied inexactly:\n${out}")
	endif()
endif()

# Copy the staged tree into place, keeping timestamps of unchanged files.
file(GLOB_RECURSE staged RELATIVE "${tmp}" "${tmp}/*")
foreach(rel IN LISTS staged)
	get_filename_component(dir "${TREE}/${rel}" DIRECTORY)
	file(MAKE_DIRECTORY "${dir}")
	file(COPY_FILE "${tmp}/${rel}" "${TREE}/${rel}" ONLY_IF_DIFFERENT)
endforeach()
# Files a previous version of the patch created but this one does not.
file(GLOB_RECURSE present RELATIVE "${TREE}" "${TREE}/*")
foreach(rel IN LISTS present)
	if(NOT rel IN_LIST staged)
		file(REMOVE "${TREE}/${rel}")
	endif()
endforeach()
file(REMOVE_RECURSE "${tmp}")
get_filename_component(stamp_dir "${STAMP}" DIRECTORY)
file(MAKE_DIRECTORY "${stamp_dir}")
file(TOUCH "${STAMP}")
