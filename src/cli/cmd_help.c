/*
 * cmd_help.c - `gpudoctor help [COMMAND]`.
 */
#include "cli/command.h"

#include <stdio.h>

int
cmd_help(int argc, char **argv)
{
	const struct command *c;
	char *args[] = {NULL, "--help", NULL};

	if (argc < 2) {
		command_usage(stdout);
		return EXIT_HEALTHY;
	}
	c = command_find(argv[1]);
	if (!c || c->fn == cmd_help) {
		if (!c) {
			fprintf(stderr, "gpudoctor: no such command '%s'\n", argv[1]);
			return EXIT_TOOL_FAILED;
		}
		command_usage(stdout);
		return EXIT_HEALTHY;
	}
	args[0] = (char *)c->name;
	return c->fn(2, args);
}
