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
