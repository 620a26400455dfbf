/*
 * cmd_version.c - `gpudoctor version`: the program's version and the schema
 * of the facts it writes.
 */
#include "cli/command.h"
#include "facts.h"

#include <stdio.h>

int
cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("gpudoctor %s (facts schema %s)\n", GPUDOCTOR_VERSION, FACTS_SCHEMA);
	return EXIT_HEALTHY;
}
