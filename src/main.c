/*
 * main.c - entry point: pick the command (doctor by default) and run it.
 */
#include "cli/command.h"

#include <stdio.h>
#include <string.h>

int
main(int argc, char **argv)
{
	const struct command *c;
	const char *name;

	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
			command_usage(stdout);
			return EXIT_HEALTHY;
		}
		if (argc >= 2 && (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")))
			return cmd_version(1, argv);
		/* options only: they belong to doctor */
		argv[0] = "doctor";
		return cmd_doctor(argc, argv);
	}
	name = argv[1];
	c = command_find(name);
	if (!c) {
		const char *s = command_suggest(name);
		fprintf(stderr, "gpudoctor: unknown command '%s'", name);
		if (s)
			fprintf(stderr, "; did you mean '%s'?", s);
		fprintf(stderr, "\nrun 'gpudoctor --help' for the list of commands\n");
		return EXIT_TOOL_FAILED;
	}
	return c->fn(argc - 1, argv + 1);
}
