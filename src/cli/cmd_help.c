/*
 * cmd_help.c - `gpudoctor help [COMMAND]`.
 */
#include "cli/command.h"

#include <stdio.h>
#include <string.h>

int
cmd_help(int argc, char **argv)
{
	const struct command *c;
	char *args[] = {NULL, "--help", NULL};

	if (argc < 2) {
		command_usage(stdout);
		return EXIT_HEALTHY;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		printf("usage: gpudoctor help [COMMAND]\n\n"
		       "Show what gpudoctor does and its commands, or with COMMAND that command's\n"
		       "options (the same as `gpudoctor COMMAND --help`).\n\n"
		       "Exit status: 0 shown, 3 no such command.\n");
		return EXIT_HEALTHY;
	}
	if (argc > 2) {
		fprintf(stderr, "gpudoctor: help takes one command, not '%s' as well\n", argv[2]);
		return EXIT_TOOL_FAILED;
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
