# SPDX-License-Identifier: GPL-2.0
#
# Variants: discovery, staging (patch applied into a mini kernel tree),
# one localized object per variant, and the generated registry.
#
# mbd_discover_variants()          sets MBD_VARIANTS (names, registry order)
#                                  and MBD_V_<NAME>_{ID,KIND,PATCH,SUMMARY}
# mbd_add_variant_staging()        one custom target mbd_stage_<ID> each
# mbd_write_registry(OUT)          ${OUT}: mbd_variants[] for every variant
# mbd_add_variant_objects(SUFFIX LAUNCHER OUTVAR)
#                                  compile + localize every variant; OUTVAR
#                                  gets the localized objects (ID=path pairs
#                                  in ${OUTVAR}_PAIRS for the nm check)

set(MBD_VARIANT_CFLAGS
	-fno-strict-aliasing -fno-common -Wall -Wextra -Wno-unused-parameter
	-Wno-sign-compare -Wno-missing-field-initializers)

# One line from a patch header: the Subject: (folded lines joined) without
# its "[PATCH ...]" tag, or the first non-empty header line.
function(_mbd_patch_summary patch out)
	file(READ "${patch}" text)
	set(header "${text}")
	foreach(marker "\ndiff --git " "\n--- ")
		string(FIND "${header}" "${marker}" pos)
		if(pos GREATER_EQUAL 0)
			string(SUBSTRING "${header}" 0 ${pos} header)
		endif()
	endforeach()
	set(summary "")
	if("\n${header}" MATCHES "\nSubject:[ \t]*([^\n]*(\n[ \t][^\n]*)*)")
		set(summary "${CMAKE_MATCH_1}")
		string(REGEX REPLACE "\n[ \t]+" " " summary "${summary}")
		string(REGEX REPLACE "^\\[[^]]*\\][ \t]*" "" summary "${summary}")
	elseif("${header}" MATCHES "([^\n]*[^ \t\n][^\n]*)")
		set(summary "${CMAKE_MATCH_1}")
	endif()
	string(STRIP "${summary}" summary)
	if(summary STREQUAL "")
		get_filename_component(summary "${patch}" NAME)
	endif()
	set(${out} "${summary}" PARENT_SCOPE)
endfunction()

# NAME -> C identifier suffix; fatal for names the registry cannot carry.
function(_mbd_variant_id name out)
	if(NOT name MATCHES "^[A-Za-z0-9][A-Za-z0-9_-]*$")
		message(FATAL_ERROR "variant name '${name}' must match "
			"[A-Za-z0-9][A-Za-z0-9_-]* (it becomes a C identifier)")
	endif()
	string(REPLACE "-" "_" id "${name}")
	set(${out} "${id}" PARENT_SCOPE)
endfunction()

# A function, not a macro: macro arguments are pasted into the body as
# text, so a summary with backslashes or quotes would be parsed as code.
function(_mbd_variant_define name kind patch summary)
	_mbd_variant_id("${name}" id)
	if(DEFINED _MBD_SEEN_ID_${id})
		message(FATAL_ERROR "variants '${name}' and '${_MBD_SEEN_ID_${id}}' "
			"map to the same C identifier '${id}'; rename one of them")
	endif()
	set(_MBD_SEEN_ID_${id} "${name}" PARENT_SCOPE)
	set(list ${MBD_VARIANTS} "${name}")
	set(MBD_VARIANTS "${list}" PARENT_SCOPE)
	set(MBD_V_${name}_ID "${id}" PARENT_SCOPE)
	set(MBD_V_${name}_KIND "${kind}" PARENT_SCOPE)
	set(MBD_V_${name}_PATCH "${patch}" PARENT_SCOPE)
	set(MBD_V_${name}_SUMMARY "${summary}" PARENT_SCOPE)
endfunction()

macro(mbd_discover_variants)
	set(MBD_VARIANTS "")
	set(_ref_dir "${PROJECT_SOURCE_DIR}/algorithms/reference")
	foreach(f memblock.c memblock.h)
		if(NOT EXISTS "${_ref_dir}/${f}")
			message(FATAL_ERROR "missing ${_ref_dir}/${f}: every variant is "
				"built from the reference model")
		endif()
	endforeach()
	_mbd_variant_define(reference MBD_KIND_REFERENCE ""
		"mbdiff's model of mainline mm/memblock.c (v6.11-v6.15)")
	_mbd_variant_define(reference-twin MBD_KIND_REFERENCE ""
		"a second copy of the reference: reference~reference-twin checks isolation")
	foreach(_dir_kind "patches;MBD_KIND_PATCH" "mutants;MBD_KIND_MUTANT")
		list(GET _dir_kind 0 _dir)
		list(GET _dir_kind 1 _kind)
		file(GLOB _patches CONFIGURE_DEPENDS
			"${PROJECT_SOURCE_DIR}/algorithms/${_dir}/*.patch")
		list(SORT _patches)
		foreach(_p IN LISTS _patches)
			get_filename_component(_name "${_p}" NAME_WE)
			if(_name IN_LIST MBD_VARIANTS)
				message(FATAL_ERROR "variant name '${_name}' is used twice "
					"(${_p}); reference and reference-twin are reserved")
			endif()
			_mbd_patch_summary("${_p}" _summary)
			_mbd_variant_define("${_name}" "${_kind}" "${_p}" "${_summary}")
			# The summary is read at configure time: re-read it on edits.
			set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY
				CMAKE_CONFIGURE_DEPENDS "${_p}")
		endforeach()
	endforeach()
endmacro()

function(mbd_add_variant_staging)
	set(ref_dir "${PROJECT_SOURCE_DIR}/algorithms/reference")
	set(script "${PROJECT_SOURCE_DIR}/cmake/stage_variant.cmake")
	foreach(name IN LISTS MBD_VARIANTS)
		set(id "${MBD_V_${name}_ID}")
		set(patch "${MBD_V_${name}_PATCH}")
		set(tree "${CMAKE_BINARY_DIR}/variants/${name}")
		set(stamp "${CMAKE_BINARY_DIR}/variant-objs/${name}.staged")
		if(patch)
			set(what "Applying ${name}.patch to the reference")
		else()
			set(what "Staging variant ${name}")
		endif()
		add_custom_command(
			OUTPUT "${stamp}"
			BYPRODUCTS "${tree}/mm/memblock.c" "${tree}/include/linux/memblock.h"
			COMMAND "${CMAKE_COMMAND}" "-DNAME=${name}"
				"-DREF_C=${ref_dir}/memblock.c" "-DREF_H=${ref_dir}/memblock.h"
				"-DTREE=${tree}" "-DSTAMP=${stamp}"
				"-DPATCH_EXE=${MBDIFF_PATCH_EXECUTABLE}" "-DPATCH=${patch}"
				-P "${script}"
			DEPENDS "${ref_dir}/memblock.c" "${ref_dir}/memblock.h" "${script}" ${patch}
			COMMENT "${what}"
			VERBATIM)
		add_custom_target(mbd_stage_${id} DEPENDS "${stamp}")
	endforeach()
endfunction()

function(mbd_write_registry out)
	set(decl "")
	set(list "")
	foreach(name IN LISTS MBD_VARIANTS)
		string(APPEND decl "extern const struct mbd_variant mbd_variant_${MBD_V_${name}_ID};\n")
		string(APPEND list "\t&mbd_variant_${MBD_V_${name}_ID},\n")
	endforeach()
	set(text "// SPDX-License-Identifier: GPL-2.0\n")
	string(APPEND text "/* Generated by cmake/MbdVariants.cmake: every variant "
		"linked into this build. Do not edit. */\n"
		"#include <stddef.h>\n\n#include \"mbd_variant.h\"\n\n"
		"${decl}\nconst struct mbd_variant *const mbd_variants[] = {\n"
		"${list}\tNULL,\n};\n")
	# Rewrite only on change, so a reconfigure does not relink everything.
	file(WRITE "${out}.tmp" "${text}")
	configure_file("${out}.tmp" "${out}" COPYONLY)
	file(REMOVE "${out}.tmp")
endfunction()

# A summary as the body of a C string literal on the command line.
function(_mbd_c_string in out)
	string(REPLACE "\\" "\\\\" s "${in}")
	string(REPLACE "\"" "\\\"" s "${s}")
	string(REPLACE ";" "," s "${s}")
	# The Makefile generators drop a definition containing '#': octal escape.
	string(REPLACE "#" "\\043" s "${s}")
	string(REGEX REPLACE "[\t\r\n]" " " s "${s}")
	set(${out} "${s}" PARENT_SCOPE)
endfunction()

function(mbd_add_variant_objects suffix launcher outvar)
	set(glue "${PROJECT_SOURCE_DIR}/algorithms/glue.c")
	if(NOT EXISTS "${glue}")
		message(FATAL_ERROR "missing ${glue}: it wraps each variant's memblock.c")
	endif()
	set(objs "")
	set(pairs "")
	foreach(name IN LISTS MBD_VARIANTS)
		set(id "${MBD_V_${name}_ID}")
		set(tree "${CMAKE_BINARY_DIR}/variants/${name}")
		set(raw mbd_vobj_${id}${suffix})
		_mbd_c_string("${MBD_V_${name}_SUMMARY}" summary)

		add_library(${raw} OBJECT "${glue}")
		add_dependencies(${raw} mbd_stage_${id})
		set_target_properties(${raw} PROPERTIES
			C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS ON)
		target_include_directories(${raw} PRIVATE
			"${tree}/include" "${tree}/mm"
			"${PROJECT_SOURCE_DIR}/algorithms/kcompat"
			"${PROJECT_SOURCE_DIR}/harness")
		target_compile_definitions(${raw} PRIVATE
			"MBD_VARIANT_ID=${id}"
			"MBD_VARIANT_NAME=\"${name}\""
			"MBD_VARIANT_KIND=${MBD_V_${name}_KIND}"
			"MBD_VARIANT_SUMMARY=\"${summary}\"")
		target_compile_options(${raw} PRIVATE ${MBD_VARIANT_CFLAGS} ${MBD_WERROR_FLAG})
		if(launcher)
			set_target_properties(${raw} PROPERTIES C_COMPILER_LAUNCHER "${launcher}")
		endif()

		# Localize: only the descriptor stays global, so every variant's
		# copy of memblock, memblock_can_resize, ... links side by side.
		set(obj "${CMAKE_BINARY_DIR}/variant-objs/${name}${suffix}.o")
		add_custom_command(
			OUTPUT "${obj}"
			COMMAND "${CMAKE_OBJCOPY}" "--keep-global-symbol=mbd_variant_${id}"
				"$<TARGET_OBJECTS:${raw}>" "${obj}"
			DEPENDS ${raw} "$<TARGET_OBJECTS:${raw}>"
			COMMENT "Localizing variant ${name}${suffix}"
			VERBATIM COMMAND_EXPAND_LISTS)
		list(APPEND objs "${obj}")
		list(APPEND pairs "${id}=${obj}")
	endforeach()
	set_source_files_properties(${objs} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
	set(${outvar} "${objs}" PARENT_SCOPE)
	set(${outvar}_PAIRS "${pairs}" PARENT_SCOPE)
endfunction()
