// SPDX-License-Identifier: GPL-2.0
/*
 * Where `mbdiff` finds its files: the data dir (algorithms, corpus,
 * scripts), the installed script commands, its own path and version.
 * The paths come from cmake/MbdInstall.cmake as compile definitions.
 */
#define _XOPEN_SOURCE 700

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mbd_cli.h"

#ifndef MBD_CLI_VERSION
#define MBD_CLI_VERSION "unknown"
#endif
#ifndef MBD_CLI_GIT
#define MBD_CLI_GIT ""
#endif
#ifndef MBD_CLI_SOURCE_DIR
#define MBD_CLI_SOURCE_DIR "."
#endif
#ifndef MBD_CLI_BINARY_DIR
#define MBD_CLI_BINARY_DIR "."
#endif
#ifndef MBD_CLI_DATA_REL
#define MBD_CLI_DATA_REL "../share/mbdiff"
#endif
#ifndef MBD_CLI_LIBEXEC_REL
#define MBD_CLI_LIBEXEC_REL "../libexec/mbdiff"
#endif
#ifndef MBD_CLI_DATA_INSTALLED
#define MBD_CLI_DATA_INSTALLED "/usr/local/share/mbdiff"
#endif
#ifndef MBD_CLI_LIBEXEC_INSTALLED
#define MBD_CLI_LIBEXEC_INSTALLED "/usr/local/libexec/mbdiff"
#endif

static int put(char *buf, size_t n, const char *a, const char *b, const char *c)
{
	int len = snprintf(buf, n, "%s%s%s", a, b, c);

	return len < 0 || (size_t)len >= n ? -1 : 0;
}

static bool is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

int mbd_cli_self(char *buf, size_t n)
{
	ssize_t len = readlink("/proc/self/exe", buf, n);

	if (len <= 0 || (size_t)len >= n)
		return -1;
	buf[len] = '\0';
	return 0;
}

/* The directory this executable is in; 1 if that is the build tree it
   was compiled in, 0 if not, -1 if unknown. */
static int self_dir(char *buf, size_t n)
{
	char bin[PATH_MAX];
	char *slash;

	if (mbd_cli_self(buf, n) != 0)
		return -1;
	slash = strrchr(buf, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	if (!realpath(MBD_CLI_BINARY_DIR, bin))
		return 0;
	return strcmp(buf, bin) == 0;
}

/* An installed DIR: REL beside this executable, else FULL; -1 if this is
   a build-tree binary or neither exists. */
static int installed(char *buf, size_t n, const char *rel, const char *full)
{
	char dir[PATH_MAX], path[PATH_MAX], real[PATH_MAX];

	if (self_dir(dir, sizeof(dir)) != 0)
		return -1;
	/* "BINDIR/../share/mbdiff" as the plain path it is */
	if (put(path, sizeof(path), dir, "/", rel) == 0 && is_dir(path) &&
	    realpath(path, real) && put(buf, n, real, "", "") == 0)
		return 0;
	if (put(buf, n, full, "", "") == 0 && is_dir(buf))
		return 0;
	return -1;
}

int mbd_cli_data_dir(char *buf, size_t n)
{
	const char *env = getenv("MBDIFF_DATA");

	if (env && *env)
		return put(buf, n, env, "", "");
	if (installed(buf, n, MBD_CLI_DATA_REL, MBD_CLI_DATA_INSTALLED) == 0)
		return 0;
	return put(buf, n, MBD_CLI_SOURCE_DIR, "", "");
}

int mbd_cli_libexec(const char *cmd, char *buf, size_t n)
{
	char dir[PATH_MAX];

	if (installed(dir, sizeof(dir), MBD_CLI_LIBEXEC_REL, MBD_CLI_LIBEXEC_INSTALLED) != 0)
		return -1;
	if (put(buf, n, dir, "/mbdiff-", cmd) != 0 || access(buf, X_OK) != 0)
		return -1;
	return 0;
}

const char *mbd_cli_version(void)
{
	return MBD_CLI_VERSION " (git " MBD_CLI_GIT ")";
}
