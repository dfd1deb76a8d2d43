# SPDX-License-Identifier: GPL-2.0
#
# Variants: discovery, staging (patch applied into a mini kernel tree),
# one localized object per variant, and the generated registry.
#
# mbd_discover_variants()          sets MBD_VARIANTS (names, registry order)
#                                  and MBD_V_<NAME>_{ID,KIND,PATCH,SUMMARY,
#                                  VERSION}
# mbd_add_variant_staging()        one custom target mbd_stage_<ID> each
# mbd_write_registry(OUT)          ${OUT}: mbd_variants[] for every variant
# mbd_add_variant_objects(SUFFIX LAUNCHER OUTVAR)
#                                  compile + localize every variant; OUTVAR
#                                  gets the localized objects (ID=path pairs
#                                  in ${OUTVAR}_PAIRS for the nm check)

set(MBD_VARIANT_CFLAGS
	-fno-strict-aliasing -fno-common -Wall -Wextra -Wno-unused-parameter
	-Wno-sign-compare -Wno-missing-field-initializers)

# objcopy options: the sections a variant object can have, page-aligned
# (a name the object lacks is ignored).
set(MBD_VARIANT_PAGE_ALIGN "")
foreach(_s .text .text.unlikely .text.hot .text.startup .data .bss .rodata
		.rodata.str1.1 .rodata.str1.8 .data.rel.local .data.rel.ro.local)
	list(APPEND MBD_VARIANT_PAGE_ALIGN "--set-section-alignment" "${_s}=4096")
endforeach()

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

# The kernel the reference models ("Kernel:" of mbdiff list); patches that
# name no other are taken to model it too.
set(MBD_REFERENCE_VERSION "v7.3")

# The "Kernel: vX.Y" header line of a patch (one word), or the reference's.
function(_mbd_patch_version patch out)
	file(STRINGS "${patch}" lines REGEX "^Kernel:[ \t]*v[0-9]" LIMIT_COUNT 1)
	set(v "${MBD_REFERENCE_VERSION}")
	if(lines MATCHES "^Kernel:[ \t]*([^ \t]+)")
		set(v "${CMAKE_MATCH_1}")
	endif()
	set(${out} "${v}" PARENT_SCOPE)
endfunction()

# "v7.3.4" -> MBD_KVER(7, 3) as a number (mbd_variant.h); 0 if unknown.
function(_mbd_kver version out)
	set(k 0)
	if(version MATCHES "^v([0-9]+)\\.([0-9]+)")
		math(EXPR k "${CMAKE_MATCH_1} * 65536 + ${CMAKE_MATCH_2} * 256")
	endif()
	set(${out} "${k}" PARENT_SCOPE)
endfunction()

# A kernel tree's release from its top-level Makefile ("v7.3.4"), or "".
function(_mbd_tree_version tree out)
	set(v "")
	if(EXISTS "${tree}/Makefile")
		file(STRINGS "${tree}/Makefile" lines REGEX
			"^(VERSION|PATCHLEVEL|SUBLEVEL)[ \t]*=" LIMIT_COUNT 3)
		foreach(l IN LISTS lines)
			if(l MATCHES "^([A-Z]+)[ \t]*=[ \t]*([0-9]*)")
				set(_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
			endif()
		endforeach()
		if(DEFINED _VERSION AND DEFINED _PATCHLEVEL)
			set(v "v${_VERSION}.${_PATCHLEVEL}")
			if(DEFINED _SUBLEVEL AND NOT _SUBLEVEL STREQUAL "")
				string(APPEND v ".${_SUBLEVEL}")
			endif()
		endif()
	endif()
	set(${out} "${v}" PARENT_SCOPE)
endfunction()

# NAME -> C identifier suffix; fatal for names the registry cannot carry.
function(_mbd_variant_id name out)
	if(NOT name MATCHES "^[A-Za-z0-9][A-Za-z0-9_.-]*$")
		message(FATAL_ERROR "variant name '${name}' must match "
			"[A-Za-z0-9][A-Za-z0-9_.-]* (it becomes a C identifier)")
	endif()
	string(REGEX REPLACE "[-.]" "_" id "${name}")
	set(${out} "${id}" PARENT_SCOPE)
endfunction()

# A function, not a macro: macro arguments are pasted into the body as
# text, so a summary with backslashes or quotes would be parsed as code.
function(_mbd_variant_define name kind patch summary version)
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
	set(MBD_V_${name}_VERSION "${version}" PARENT_SCOPE)
	set(MBD_V_${name}_FILE "${name}" PARENT_SCOPE)
endfunction()

# kernel:NAME -> C identifier kernel_NAME; file names use kernel-NAME
# (a ':' in a path upsets the Makefile generators).
function(_mbd_kernel_variant_define name tree patches)
	_mbd_variant_id("${name}" id)
	set(full "kernel:${name}")
	set(id "kernel_${id}")
	if(DEFINED _MBD_SEEN_ID_${id})
		message(FATAL_ERROR "kernel variant '${name}' is listed twice")
	endif()
	set(_MBD_SEEN_ID_${id} "${full}" PARENT_SCOPE)
	set(list ${MBD_VARIANTS} "${full}")
	set(MBD_VARIANTS "${list}" PARENT_SCOPE)
	set(summary "mm/memblock.c from ${tree}")
	foreach(p IN LISTS patches)
		get_filename_component(pn "${p}" NAME)
		string(APPEND summary " + ${pn}")
	endforeach()
	set(MBD_V_${full}_ID "${id}" PARENT_SCOPE)
	set(MBD_V_${full}_KIND MBD_KIND_KERNEL PARENT_SCOPE)
	set(MBD_V_${full}_PATCH "" PARENT_SCOPE)
	set(MBD_V_${full}_SUMMARY "${summary}" PARENT_SCOPE)
	_mbd_tree_version("${tree}" version)
	set(MBD_V_${full}_VERSION "${version}" PARENT_SCOPE)
	set(MBD_V_${full}_FILE "kernel-${name}" PARENT_SCOPE)
	set(MBD_V_${full}_TREE "${tree}" PARENT_SCOPE)
	set(MBD_V_${full}_KPATCHES "${patches}" PARENT_SCOPE)
endfunction()

# Kernel trees (docs/kernel-variants.md): entries "name=tree[:patch...]"
# from the cache variable MBDIFF_KERNEL_VARIANTS and from the build dir's
# kernel-variants.txt (written by scripts/kernel-variant.sh), one a line.
macro(_mbd_discover_kernel_variants)
	set(MBDIFF_KERNEL_VARIANTS "${MBDIFF_KERNEL_VARIANTS}" CACHE STRING
		"Kernel trees to build as variants kernel:NAME: name=tree[:patch...];...")
	set(_kv_entries ${MBDIFF_KERNEL_VARIANTS})
	set(_kv_file "${CMAKE_BINARY_DIR}/kernel-variants.txt")
	set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY
		CMAKE_CONFIGURE_DEPENDS "${_kv_file}")
	if(NOT EXISTS "${_kv_file}")
		file(WRITE "${_kv_file}" "# kernel variants: name=tree[:patch...], one a line\n")
	endif()
	file(STRINGS "${_kv_file}" _kv_lines)
	foreach(_l IN LISTS _kv_lines)
		string(STRIP "${_l}" _l)
		if(_l AND NOT _l MATCHES "^#")
			list(APPEND _kv_entries "${_l}")
		endif()
	endforeach()
	foreach(_e IN LISTS _kv_entries)
		if(NOT _e MATCHES "^([^=]+)=([^:]+)(:.*)?$")
			message(FATAL_ERROR "kernel variant entry '${_e}' is not name=tree[:patch...]")
		endif()
		set(_kn "${CMAKE_MATCH_1}")
		set(_kt "${CMAKE_MATCH_2}")
		set(_kp "${CMAKE_MATCH_3}")
		string(REGEX REPLACE "^:" "" _kp "${_kp}")
		string(REPLACE ":" ";" _kp "${_kp}")
		foreach(_f "${_kt}/mm/memblock.c" "${_kt}/include/linux/memblock.h" ${_kp})
			if(NOT EXISTS "${_f}")
				message(FATAL_ERROR "kernel variant '${_kn}': ${_f} does not exist")
			endif()
		endforeach()
		_mbd_kernel_variant_define("${_kn}" "${_kt}" "${_kp}")
	endforeach()
endmacro()

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
		"mbdiff's model of mainline mm/memblock.c (newest release)"
		"${MBD_REFERENCE_VERSION}")
	# scripts/check.sh builds the reference and its two kernel trees only
	option(MBDIFF_KERNEL_VARIANTS_ONLY
		"Build the reference and the kernel variants only (no patches, mutants, twin)" OFF)
	# ... plus the patches or mutants named here (a kernel tree's baseline)
	set(MBDIFF_KERNEL_VARIANTS_WITH "" CACHE STRING
		"With MBDIFF_KERNEL_VARIANTS_ONLY: these patch or mutant variants too (a;b)")
	if(MBDIFF_KERNEL_VARIANTS_ONLY)
		set(_mbd_dirs "")
		if(MBDIFF_KERNEL_VARIANTS_WITH)
			set(_mbd_dirs "patches=MBD_KIND_PATCH" "mutants=MBD_KIND_MUTANT")
		endif()
	else()
		_mbd_variant_define(reference-twin MBD_KIND_REFERENCE ""
			"a second copy of the reference: reference~reference-twin checks isolation"
			"${MBD_REFERENCE_VERSION}")
		set(_mbd_dirs "patches=MBD_KIND_PATCH" "mutants=MBD_KIND_MUTANT")
	endif()
	foreach(_dir_kind IN LISTS _mbd_dirs)
		string(REPLACE "=" ";" _dir_kind "${_dir_kind}")
		list(GET _dir_kind 0 _dir)
		list(GET _dir_kind 1 _kind)
		file(GLOB _patches CONFIGURE_DEPENDS
			"${PROJECT_SOURCE_DIR}/algorithms/${_dir}/*.patch")
		list(SORT _patches)
		foreach(_p IN LISTS _patches)
			get_filename_component(_name "${_p}" NAME_WLE)
			if(MBDIFF_KERNEL_VARIANTS_ONLY AND NOT _name IN_LIST MBDIFF_KERNEL_VARIANTS_WITH)
				continue()
			endif()
			if(_name IN_LIST MBD_VARIANTS)
				message(FATAL_ERROR "variant name '${_name}' is used twice "
					"(${_p}); reference and reference-twin are reserved")
			endif()
			_mbd_patch_summary("${_p}" _summary)
			_mbd_patch_version("${_p}" _version)
			_mbd_variant_define("${_name}" "${_kind}" "${_p}" "${_summary}"
				"${_version}")
			# The summary is read at configure time: re-read it on edits.
			set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY
				CMAKE_CONFIGURE_DEPENDS "${_p}")
		endforeach()
	endforeach()
	foreach(_w IN LISTS MBDIFF_KERNEL_VARIANTS_WITH)
		if(NOT MBDIFF_KERNEL_VARIANTS_ONLY OR NOT _w IN_LIST MBD_VARIANTS)
			message(FATAL_ERROR "MBDIFF_KERNEL_VARIANTS_WITH names '${_w}': it needs "
				"MBDIFF_KERNEL_VARIANTS_ONLY=ON and algorithms/patches/${_w}.patch or "
				"algorithms/mutants/${_w}.patch")
		endif()
	endforeach()
	_mbd_discover_kernel_variants()
endmacro()

function(mbd_add_variant_staging)
	set(ref_dir "${PROJECT_SOURCE_DIR}/algorithms/reference")
	set(script "${PROJECT_SOURCE_DIR}/cmake/stage_variant.cmake")
	foreach(name IN LISTS MBD_VARIANTS)
		set(id "${MBD_V_${name}_ID}")
		set(patch "${MBD_V_${name}_PATCH}")
		set(tree "${CMAKE_BINARY_DIR}/variants/${MBD_V_${name}_FILE}")
		set(stamp "${CMAKE_BINARY_DIR}/variant-objs/${MBD_V_${name}_FILE}.staged")
		if(MBD_V_${name}_KIND STREQUAL "MBD_KIND_KERNEL")
			_mbd_add_kernel_staging("${name}" "${tree}" "${stamp}")
			continue()
		endif()
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

# A kernel tree: scripts/kernel-variant.sh --stage copies, patches, checks
# that the file compiles through kcompat and lists its static state.
function(_mbd_add_kernel_staging name tree stamp)
	set(id "${MBD_V_${name}_ID}")
	set(src "${MBD_V_${name}_TREE}")
	set(script "${PROJECT_SOURCE_DIR}/scripts/kernel-variant.sh")
	set(pargs "")
	foreach(p IN LISTS MBD_V_${name}_KPATCHES)
		list(APPEND pargs --patch "${p}")
	endforeach()
	file(GLOB kc_headers "${PROJECT_SOURCE_DIR}/algorithms/kcompat/*.h"
		"${PROJECT_SOURCE_DIR}/algorithms/kcompat/*/*.h"
		"${PROJECT_SOURCE_DIR}/algorithms/kcompat/*/*/*.h")
	add_custom_command(
		OUTPUT "${stamp}"
		BYPRODUCTS "${tree}/mm/memblock.c" "${tree}/include/linux/memblock.h"
			"${tree}/mbd/mbd_kstate.h" "${tree}/mbd/mbd_kernel_era.h"
		COMMAND bash "${script}" --stage --name "${name}" --tree "${src}"
			--out "${tree}" --stamp "${stamp}" --cc "${CMAKE_C_COMPILER}"
			--nm "${CMAKE_NM}" --patch-exe "${MBDIFF_PATCH_EXECUTABLE}"
			--src "${PROJECT_SOURCE_DIR}" ${pargs}
		DEPENDS "${src}/mm/memblock.c" "${src}/include/linux/memblock.h"
			"${script}" ${MBD_V_${name}_KPATCHES} ${kc_headers}
		COMMENT "Staging kernel variant ${name} from ${src}"
		VERBATIM)
	add_custom_target(mbd_stage_${id} DEPENDS "${stamp}")
endfunction()

function(mbd_write_registry out)
	set(decl "")
	set(list "")
	set(ulist "")
	foreach(name IN LISTS MBD_VARIANTS)
		string(APPEND decl "extern const struct mbd_variant mbd_variant_${MBD_V_${name}_ID};\n")
		string(APPEND list "\t&mbd_variant_${MBD_V_${name}_ID},\n")
		if(MBD_V_${name}_KIND MATCHES "^MBD_KIND_(REFERENCE|KERNEL)$")
			string(APPEND decl "extern const struct mbd_variant mbd_variant_${MBD_V_${name}_ID}_uncounted;\n")
			string(APPEND ulist "\t&mbd_variant_${MBD_V_${name}_ID}_uncounted,\n")
		endif()
	endforeach()
	set(text "// SPDX-License-Identifier: GPL-2.0\n")
	string(APPEND text "/* Generated by cmake/MbdVariants.cmake: every variant "
		"linked into this build. Do not edit. */\n"
		"#include <stddef.h>\n\n#include \"mbd_variant.h\"\n\n"
		"${decl}\nconst struct mbd_variant *const mbd_variants[] = {\n"
		"${list}\tNULL,\n};\n\n"
		"/* The same variants without coverage callbacks: libFuzzer stacks only\n"
		" * (MBD_REGISTRY_UNCOUNTED), empty elsewhere. */\n"
		"const struct mbd_variant *const mbd_variants_uncounted[] = {\n"
		"#ifdef MBD_REGISTRY_UNCOUNTED\n${ulist}#endif\n\tNULL,\n};\n")
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
	# UNCOUNTED: a second copy of the references and kernels (what is a
	# baseline in practice) without coverage callbacks, the descriptor
	# renamed mbd_variant_<id>_uncounted (the libFuzzer targets run the
	# baseline from it: docs/speed.md)
	set(uncounted OFF)
	if("UNCOUNTED" IN_LIST ARGN)
		set(uncounted ON)
	endif()
	set(glue "${PROJECT_SOURCE_DIR}/algorithms/glue.c")
	if(NOT EXISTS "${glue}")
		message(FATAL_ERROR "missing ${glue}: it wraps each variant's memblock.c")
	endif()
	set(objs "")
	set(pairs "")
	foreach(name IN LISTS MBD_VARIANTS)
		if(uncounted AND NOT MBD_V_${name}_KIND MATCHES "^MBD_KIND_(REFERENCE|KERNEL)$")
			continue() # only what is a baseline in practice: build time
		endif()
		set(id "${MBD_V_${name}_ID}")
		set(tree "${CMAKE_BINARY_DIR}/variants/${MBD_V_${name}_FILE}")
		set(raw mbd_vobj_${id}${suffix})
		_mbd_c_string("${MBD_V_${name}_SUMMARY}" summary)
		_mbd_c_string("${MBD_V_${name}_VERSION}" version)
		_mbd_kver("${MBD_V_${name}_VERSION}" kver)

		add_library(${raw} OBJECT "${glue}")
		add_dependencies(${raw} mbd_stage_${id})
		set_target_properties(${raw} PROPERTIES
			C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS ON)
		target_include_directories(${raw} PRIVATE
			"${tree}/include" "${tree}/mm"
			"${PROJECT_SOURCE_DIR}/algorithms/kcompat"
			"${MBD_MODEL_INCLUDE_DIR}")
		target_compile_definitions(${raw} PRIVATE
			"MBD_VARIANT_ID=${id}"
			"MBD_VARIANT_NAME=\"${name}\""
			"MBD_VARIANT_KIND=${MBD_V_${name}_KIND}"
			"MBD_VARIANT_SUMMARY=\"${summary}\""
			"MBD_VARIANT_VERSION=\"${version}\"" "MBD_VARIANT_KVER=${kver}")
		target_compile_options(${raw} PRIVATE ${MBD_VARIANT_CFLAGS} ${MBD_WERROR_FLAG})
		set(keep "mbd_variant_${id}")
		set(rename "")
		if(uncounted)
			target_compile_options(${raw} PRIVATE
				-fno-sanitize-coverage=inline-8bit-counters,indirect-calls,trace-cmp,pc-table)
			set(keep "mbd_variant_${id}_uncounted")
			set(rename "--redefine-sym" "mbd_variant_${id}=${keep}")
		endif()
		if(MBD_V_${name}_KIND STREQUAL "MBD_KIND_KERNEL")
			# real files: era macros and the static-state list (glue.c);
			# their warnings are the kernel's, never fatal here
			target_include_directories(${raw} PRIVATE "${tree}/mbd")
			target_compile_definitions(${raw} PRIVATE MBD_KERNEL_VARIANT=1)
			target_compile_options(${raw} PRIVATE -Wno-error -w)
		endif()
		if(launcher)
			set_target_properties(${raw} PROPERTIES C_COMPILER_LAUNCHER "${launcher}")
		endif()
		# libFuzzer builds: the counters and PC table of a counted variant
		# in sections of its own, which libFuzzer scans only once a target
		# runs the variant (harness/model/variant_cov.c). The object's
		# constructor keeps a name of its own (it is a COMDAT group that
		# the linker would keep once for all objects) and calls no-ops.
		set(own_cov "")
		if(MBDIFF_FUZZ AND NOT uncounted)
			target_compile_definitions(${raw} PRIVATE MBD_VARIANT_OWN_COVERAGE=1)
			set(own_cov
				--rename-section "__sancov_cntrs=__sancov_cntrs_${id}"
				--rename-section "__sancov_pcs=__sancov_pcs_${id}"
				--redefine-sym "mbd_own_cov_counters=__start___sancov_cntrs_${id}"
				--redefine-sym "mbd_own_cov_counters_end=__stop___sancov_cntrs_${id}"
				--redefine-sym "mbd_own_cov_pcs=__start___sancov_pcs_${id}"
				--redefine-sym "mbd_own_cov_pcs_end=__stop___sancov_pcs_${id}"
				--redefine-sym "sancov.module_ctor_8bit_counters=mbd_cov_ctor_${id}"
				--redefine-sym "__sanitizer_cov_8bit_counters_init=mbd_cov_ctor_counters"
				--redefine-sym "__sanitizer_cov_pcs_init=mbd_cov_ctor_pcs")
		endif()

		# Localize: only the descriptor stays global, so every variant's
		# copy of memblock, memblock_can_resize, ... links side by side.
		# Every section starts on a page, so two variants with the same
		# code (reference, reference-twin) have the same addresses modulo
		# 4096: same cache-line, fetch-window and predictor placement, and
		# `mbdiff bench` times code, not where the linker put it.
		set(obj "${CMAKE_BINARY_DIR}/variant-objs/${MBD_V_${name}_FILE}${suffix}.o")
		add_custom_command(
			OUTPUT "${obj}"
			COMMAND "${CMAKE_OBJCOPY}" ${rename} ${own_cov} "--keep-global-symbol=mbd_variant_${id}"
				"--keep-global-symbol=${keep}" ${MBD_VARIANT_PAGE_ALIGN}
				"$<TARGET_OBJECTS:${raw}>" "${obj}"
			DEPENDS ${raw} "$<TARGET_OBJECTS:${raw}>"
			COMMENT "Localizing variant ${name}${suffix}"
			VERBATIM COMMAND_EXPAND_LISTS)
		list(APPEND objs "${obj}")
		if(NOT uncounted)
			list(APPEND pairs "${id}=${obj}")
		endif()
	endforeach()
	set_source_files_properties(${objs} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
	set(${outvar} "${objs}" PARENT_SCOPE)
	set(${outvar}_PAIRS "${pairs}" PARENT_SCOPE)
endfunction()
