/*
 * cmd_version.c - `gpudoctor version`: the program's version and the schema
 * of the facts it writes; with --json the same as an object.
 */
#include "cli/command.h"
#include "facts.h"

#include <stdio.h>
#include <string.h>

int
cmd_version(int argc, char **argv)
{
	bool json = false;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: gpudoctor version [--json]\n\n"
			       "Print gpudoctor's version and the schema of the facts documents it writes\n"
			       "(`doctor --json`); --json prints them as a JSON object.\n\n"
			       "Exit status: 0 printed, 3 bad usage.\n");
			return EXIT_HEALTHY;
		}
		if (!strcmp(argv[i], "--json")) {
			json = true;
			continue;
		}
		fprintf(stderr, "gpudoctor: version takes no '%s' (only --json)\n", argv[i]);
		return EXIT_TOOL_FAILED;
	}
	if (json)
		printf("{\"version\": \"%s\", \"facts_schema\": \"%s\"}\n", GPUDOCTOR_VERSION, FACTS_SCHEMA);
	else
		printf("gpudoctor %s (facts schema %s)\n", GPUDOCTOR_VERSION, FACTS_SCHEMA);
	return EXIT_HEALTHY;
}
