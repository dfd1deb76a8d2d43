// SPDX-License-Identifier: GPL-2.0
/* `mbdiff`: dispatch to the built-in subcommands (cli_*.c) and, git
 * style, to the script commands (cli_exec.c). */
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

/* `mbdiff help CMD`: CMD's help alone; a script answers its own --help. */
static int help(int argc, char **argv)
{
	char *args[] = { argv[1], "--help", NULL };

	if (argc < 2) {
		mbd_cli_usage(stdout);
		return MBD_EXIT_OK;
	}
	if (argc > 2)
		return mbd_cli_bad_usage("help takes one command, got \"%s\" too", argv[2]);
	if (mbd_cli_usage_of(argv[1], stdout) == 0)
		return MBD_EXIT_OK;
	if (mbd_cli_is_script(argv[1]))
		return mbd_cli_exec_script(2, args);
	return mbd_cli_bad_usage("unknown command \"%s\"", argv[1]);
}

int main(int argc, char **argv)
{
	const char *cmd;

	if (argc < 2)
		return mbd_cli_bad_usage("missing command");
	cmd = argv[1];
	if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
		printf("mbdiff %s\n", mbd_cli_version());
		return MBD_EXIT_OK;
	}
	if (strcmp(cmd, "--data-dir") == 0) {
		char data[4096];

		if (mbd_cli_data_dir(data, sizeof(data)) != 0)
			return mbd_cli_error("the data dir path is too long (MBDIFF_DATA)");
		printf("%s\n", data);
		return MBD_EXIT_OK;
	}
	if (is_help(cmd))
		return help(argc - 1, argv + 1);
	/* a script parses all of its arguments, --help too */
	if (mbd_cli_is_script(cmd)) {
		mbd_cli_set_command(cmd);
		return mbd_cli_exec_script(argc - 1, argv + 1);
	}
	for (size_t k = 0; k < sizeof(commands) / sizeof(commands[0]); k++) {
		if (strcmp(cmd, commands[k].name) != 0)
			continue;
		mbd_cli_set_command(cmd);
		/* "mbdiff CMD --help" anywhere among CMD's arguments */
		for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++) {
			if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
				mbd_cli_usage_of(cmd, stdout);
				return MBD_EXIT_OK;
			}
		}
		/* Subcommands parse argv[1..]: their own name is argv[0] for them. */
		return commands[k].run(argc - 1, argv + 1);
	}
	return mbd_cli_bad_usage("unknown command \"%s\"", cmd);
}
