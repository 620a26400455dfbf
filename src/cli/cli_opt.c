/*
 * cli_opt.c - option values several commands share, checked the same way
 * with the same message (see command.h).
 */
#include "cli/command.h"
#include "kb/kb_query.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int
cli_seconds(const char *cmd, const char *opt, const char *arg, double min, double max, int *ms)
{
	char *end;
	double s = strtod(arg, &end);

	if (!arg[0] || end == arg || *end || !isfinite(s) || s < min || s > max) {
		fprintf(stderr, "gpudoctor%s%s: %s: '%s' is not a number of seconds from %g to %g\n", cmd ? " " : "",
			cmd ? cmd : "", opt, arg, min, max);
		return -1;
	}
	*ms = (int)(s * 1000 + 0.5);
	return 0;
}

int
cli_timeout_ms(const char *arg, int *ms)
{
	return cli_seconds(NULL, "--timeout", arg, 0.01, 3600, ms);
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

const struct kb_gpu *
cli_gpu(const char *q)
{
	struct kbq_gpu_match m;
	char list[1024];

	switch (kbq_gpu_resolve(q, &m)) {
	case KBQ_GPU_FOUND:
		return m.gpu;
	case KBQ_GPU_AMBIGUOUS:
		kbq_gpu_candidates_text(&m, list, sizeof(list));
		fprintf(stderr, "gpudoctor: '%s' matches several GPUs: %s; name one exactly or give its "
				"PCI device id\n", q, list);
		return NULL;
	default:
		if (m.by_id)
			fprintf(stderr, "gpudoctor: no GPU with PCI device id %s in the knowledge base\n", q);
		else
			fprintf(stderr, "gpudoctor: no GPU named like '%s' in the knowledge base\n", q);
		return NULL;
	}
}
