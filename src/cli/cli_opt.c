/*
 * cli_opt.c - option values several commands share, checked the same way
 * with the same message (see command.h).
 */
#include "cli/command.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

int
cli_timeout_ms(const char *arg, int *ms)
{
	char *end;
	double s = strtod(arg, &end);

	if (end == arg || *end || !(s > 0) || s > 3600) {
		fprintf(stderr, "gpudoctor: --timeout wants seconds between 0 and 3600, not '%s'\n",
			arg);
		return -1;
	}
	*ms = (int)(s * 1000);
	return 0;
}

int
cli_color(const char *arg)
{
	if (strcmp(arg, "auto") && strcmp(arg, "always") && strcmp(arg, "never")) {
		fprintf(stderr, "gpudoctor: --color wants auto, always or never, not '%s'\n", arg);
		return -1;
	}
	return 0;
}

void
cli_option_error(const char *command, int c, char **argv)
{
	if (c == ':')
		fprintf(stderr, "gpudoctor: option '%s' needs a value\n", argv[optind - 1]);
	else
		fprintf(stderr, "gpudoctor: unknown option '%s'\n"
				"run 'gpudoctor %s --help' for the options\n", argv[optind - 1], command);
}
