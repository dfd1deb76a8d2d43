// SPDX-License-Identifier: GPL-2.0
/*
 * Script commands, git style: `mbdiff check ARGS` executes the installed
 * LIBEXECDIR/mbdiff/mbdiff-check, or scripts/check.sh of the data dir for
 * a build-tree binary, with MBDIFF and MBDIFF_DATA in its environment.
 * No shell: execv of the file itself (its #! line names bash).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mbd_cli.h"

/* The user-facing scripts; cmake/MbdInstall.cmake installs the same list
   (unit/install checks that every one is there). */
static const struct {
	const char *name;
	const char *summary;
} scripts[] = {
	{ "check", "a memblock patch, or your tree's commits: verdict and report" },
	{ "fuzz", "a libFuzzer or AFL++ campaign on two variants" },
	{ "ci-fuzz", "a time-boxed campaign for CI, crashes kept as artifacts" },
	{ "status", "summary of a running or finished campaign" },
	{ "cmin", "corpus minimization: keep the inputs that add coverage" },
	{ "minimize-crash", "shrink a crash file: smallest bytes and a .mbt" },
	{ "crash-triage", "sanitizer crashes: one per crash state, who is wrong" },
	{ "coverage", "clang source coverage of a corpus" },
	{ "get-kernel-tree", "a real mm/memblock.c from Debian's linux-source" },
	{ "kernel-variant", "build a kernel tree's memblock.c as a variant" },
	{ "kernel-suite", "tests in the real tools/testing/memblock" },
	{ "port-patch", "a variant of algorithms/patches/ as a real tree's patch" },
	{ "fidelity", "does a model agree with a real kernel file?" },
	{ "boot-lab", "boot real kernels under QEMU on generated layouts" },
	{ "realize", "boot the layout a finding's trace describes" },
};

#define N_SCRIPTS (sizeof(scripts) / sizeof(scripts[0]))

bool mbd_cli_is_script(const char *cmd)
{
	for (size_t k = 0; k < N_SCRIPTS; k++)
		if (strcmp(cmd, scripts[k].name) == 0)
			return true;
	return false;
}

void mbd_cli_script_table(FILE *out)
{
	fputs("script commands (mbdiff help CMD: the script's own help):\n", out);
	for (size_t k = 0; k < N_SCRIPTS; k++)
		fprintf(out, "  %-17s %s\n", scripts[k].name, scripts[k].summary);
}

int mbd_cli_exec_script(int argc, char **argv)
{
	char self[PATH_MAX], data[PATH_MAX], path[PATH_MAX + 64];
	const char *cmd = argv[0];
	char **args;

	if (mbd_cli_self(self, sizeof(self)) != 0)
		return mbd_cli_internal("cannot find this executable (/proc/self/exe)");
	if (mbd_cli_data_dir(data, sizeof(data)) != 0)
		return mbd_cli_error("the data dir path is too long (MBDIFF_DATA)");
	if (mbd_cli_libexec(cmd, path, sizeof(path)) != 0 &&
	    snprintf(path, sizeof(path), "%s/scripts/%s.sh", data, cmd) >= (int)sizeof(path))
		return mbd_cli_error("%s/scripts/%s.sh: path too long", data, cmd);
	if (setenv("MBDIFF", self, 1) != 0 || setenv("MBDIFF_DATA", data, 1) != 0 ||
	    setenv("MBDIFF_COMMAND", cmd, 1) != 0)
		return mbd_cli_internal("out of memory");
	args = calloc((size_t)argc + 1, sizeof(*args));
	if (!args)
		return mbd_cli_internal("out of memory");
	args[0] = path;
	for (int i = 1; i < argc; i++)
		args[i] = argv[i];
	execv(path, args);
	free(args);
	return mbd_cli_error("%s: cannot run it: %s (MBDIFF_DATA=%s)", path,
			     strerror(errno), data);
}
