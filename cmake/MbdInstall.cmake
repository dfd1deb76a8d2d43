# SPDX-License-Identifier: GPL-2.0
#
# Where an installed mbdiff finds its files, and the install rules
# (docs/install.md): bin/mbdiff, libexec/mbdiff/mbdiff-CMD for the script
# commands, share/mbdiff (the data dir), man pages, docs; CPack makes the
# .deb from the same rules.
include(GNUInstallDirs)

# ---- what the binary is told (harness/cli/cli_paths.c) ----
find_program(MBD_GIT_EXECUTABLE git)
set(MBD_GIT_DESCRIBE "unknown")
if(MBD_GIT_EXECUTABLE)
	execute_process(COMMAND "${MBD_GIT_EXECUTABLE}" describe --always --dirty --tags
		WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
		OUTPUT_VARIABLE _describe OUTPUT_STRIP_TRAILING_WHITESPACE
		RESULT_VARIABLE _rc ERROR_QUIET)
	if(_rc EQUAL 0 AND _describe)
		set(MBD_GIT_DESCRIBE "${_describe}")
	endif()
endif()
set(MBD_INSTALL_DATADIR "${CMAKE_INSTALL_DATADIR}/mbdiff")
set(MBD_INSTALL_LIBEXECDIR "${CMAKE_INSTALL_LIBEXECDIR}/mbdiff")
# relative to bin/, so an install under any --prefix finds its own files
file(RELATIVE_PATH MBD_DATA_REL "/p/${CMAKE_INSTALL_BINDIR}" "/p/${MBD_INSTALL_DATADIR}")
file(RELATIVE_PATH MBD_LIBEXEC_REL "/p/${CMAKE_INSTALL_BINDIR}" "/p/${MBD_INSTALL_LIBEXECDIR}")
set_source_files_properties("${PROJECT_SOURCE_DIR}/harness/cli/cli_paths.c" PROPERTIES
	COMPILE_DEFINITIONS "MBD_CLI_VERSION=\"${PROJECT_VERSION}\";MBD_CLI_GIT=\"${MBD_GIT_DESCRIBE}\";MBD_CLI_SOURCE_DIR=\"${PROJECT_SOURCE_DIR}\";MBD_CLI_BINARY_DIR=\"${PROJECT_BINARY_DIR}\";MBD_CLI_DATA_REL=\"${MBD_DATA_REL}\";MBD_CLI_LIBEXEC_REL=\"${MBD_LIBEXEC_REL}\";MBD_CLI_DATA_INSTALLED=\"${CMAKE_INSTALL_FULL_DATADIR}/mbdiff\";MBD_CLI_LIBEXEC_INSTALLED=\"${CMAKE_INSTALL_FULL_LIBEXECDIR}/mbdiff\"")

# ---- install rules ----
# The script commands of harness/cli/cli_exec.c (unit/install checks that
# every one it lists is installed).
set(MBD_SCRIPT_COMMANDS check fuzz ci-fuzz status cmin minimize-crash crash-triage
	coverage get-kernel-tree kernel-variant kernel-suite port-patch fidelity
	boot-lab realize)

install(TARGETS mbdiff mbdiff-replay RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
# the fuzz targets this configuration builds (fuzz, afl and cmplog presets
# each build some); include() runs before the fuzz targets exist, so the
# rule is deferred to the end of the top directory
function(mbd_install_fuzz_targets)
	foreach(t fuzz_diff fuzz_decode fuzz_import afl_diff afl_diff_cmplog)
		if(TARGET ${t})
			install(TARGETS ${t} RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
		endif()
	endforeach()
endfunction()
cmake_language(DEFER DIRECTORY "${PROJECT_SOURCE_DIR}" CALL mbd_install_fuzz_targets)

# libexec/mbdiff/mbdiff-CMD: a wrapper that runs the data dir's script
file(RELATIVE_PATH MBD_DATA_FROM_LIBEXEC "/p/${MBD_INSTALL_LIBEXECDIR}" "/p/${MBD_INSTALL_DATADIR}")
file(RELATIVE_PATH MBD_BIN_FROM_LIBEXEC "/p/${MBD_INSTALL_LIBEXECDIR}" "/p/${CMAKE_INSTALL_BINDIR}")
foreach(MBD_CMD IN LISTS MBD_SCRIPT_COMMANDS)
	configure_file("${PROJECT_SOURCE_DIR}/cmake/libexec-wrapper.sh.in"
		"${PROJECT_BINARY_DIR}/libexec/mbdiff-${MBD_CMD}" @ONLY)
	install(PROGRAMS "${PROJECT_BINARY_DIR}/libexec/mbdiff-${MBD_CMD}"
		DESTINATION "${MBD_INSTALL_LIBEXECDIR}")
endforeach()

# share/mbdiff: what the commands read, and the sources `mbdiff check`,
# kernel-variant and coverage build variants from (without the tests)
foreach(d algorithms cmake corpus harness scripts tools)
	install(DIRECTORY "${PROJECT_SOURCE_DIR}/${d}" DESTINATION "${MBD_INSTALL_DATADIR}"
		USE_SOURCE_PERMISSIONS)
endforeach()
install(DIRECTORY "${PROJECT_SOURCE_DIR}/tests/algorithms/kernel-trees/known"
	DESTINATION "${MBD_INSTALL_DATADIR}/tests/algorithms/kernel-trees")
install(FILES "${PROJECT_SOURCE_DIR}/CMakeLists.txt" "${PROJECT_SOURCE_DIR}/CMakePresets.json"
	"${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION "${MBD_INSTALL_DATADIR}")
# the mark that tells scripts/lib.sh to write under the user's cache
file(WRITE "${PROJECT_BINARY_DIR}/mbdiff-installed"
	"mbdiff ${PROJECT_VERSION} (git ${MBD_GIT_DESCRIBE}): an installed data dir; scripts write under \${XDG_CACHE_HOME:-\$HOME/.cache}/mbdiff\n")
install(FILES "${PROJECT_BINARY_DIR}/mbdiff-installed" DESTINATION "${MBD_INSTALL_DATADIR}"
	RENAME .mbdiff-installed)

# man pages from the help texts (scripts/man.sh), and the docs
file(GLOB _scripts CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/scripts/*.sh")
add_custom_command(OUTPUT "${PROJECT_BINARY_DIR}/man/mbdiff.1"
	COMMAND "${CMAKE_COMMAND}" -E env "MBDIFF_DATA=${PROJECT_SOURCE_DIR}"
		bash "${PROJECT_SOURCE_DIR}/scripts/man.sh" --mbdiff "$<TARGET_FILE:mbdiff>"
		--out "${PROJECT_BINARY_DIR}/man"
	DEPENDS mbdiff ${_scripts}
	COMMENT "man pages from the help texts")
add_custom_target(mbdiff-man ALL DEPENDS "${PROJECT_BINARY_DIR}/man/mbdiff.1")
install(DIRECTORY "${PROJECT_BINARY_DIR}/man/" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1"
	FILES_MATCHING PATTERN "*.1")
install(FILES "${PROJECT_SOURCE_DIR}/README.md" "${PROJECT_SOURCE_DIR}/LICENSE"
	DESTINATION "${CMAKE_INSTALL_DOCDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/" DESTINATION "${CMAKE_INSTALL_DOCDIR}")

# ---- the .deb (docs/install.md: why CPack) ----
set(CPACK_PACKAGE_NAME mbdiff)
set(CPACK_PACKAGE_VENDOR "mbdiff")
set(CPACK_PACKAGE_CONTACT "mbdiff developers <mbdiff@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6, bash, patch, git, jq, cmake, clang, binutils")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libclang-rt-14-dev, llvm, lld")
include(CPack)
