// SPDX-License-Identifier: GPL-2.0
/* `mbdiff`: dispatch to the subcommands (cli_*.c). */
#include <string.h>

#include "mbd_cli.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "list", mbd_cli_list },
	{ "replay", mbd_cli_replay },
	{ "convert", mbd_cli_convert },
	{ "minimize", mbd_cli_minimize },
	{ "emit-test", mbd_cli_emit_test },
	{ "import", mbd_cli_import },
	{ "bench", mbd_cli_bench },
	{ "explore", mbd_cli_explore },
	{ "judge", mbd_cli_judge },
	{ "lift", mbd_cli_lift },
};

static bool is_help(const char *a)
{
	return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 ||
	       strcmp(a, "help") == 0;
}

int main(int argc, char **argv)
{
	const char *cmd;

	if (argc < 2)
		return mbd_cli_bad_usage("missing command");
	cmd = argv[1];
	if (is_help(cmd)) {
		mbd_cli_usage(stdout);
		return MBD_EXIT_OK;
	}
	/* "mbdiff CMD --help" anywhere among CMD's arguments */
	for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			mbd_cli_usage(stdout);
			return MBD_EXIT_OK;
		}
	}
	/* Subcommands parse argv[1..]: their own name is argv[0] for them. */
	for (size_t k = 0; k < sizeof(commands) / sizeof(commands[0]); k++)
		if (strcmp(cmd, commands[k].name) == 0)
			return commands[k].run(argc - 1, argv + 1);
	return mbd_cli_bad_usage("unknown command \"%s\"", cmd);
}
