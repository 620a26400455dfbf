/*
 * command.c - the command table, lookup and "did you mean".
 */
#include "cli/command.h"

#include <string.h>

const struct command commands[] = {
	{.name = "doctor", .fn = cmd_doctor,
	 .summary = "walk every layer; print facts and findings with fixes (default)"},
	{.name = "compat", .fn = cmd_compat,
	 .summary = "compatibility tables: framework, driver, GPU, CUDA (no probing)"},
	{.name = "plan", .fn = cmd_plan,
	 .summary = "the install steps for a framework that will work on this machine"},
	{.name = "explain", .fn = cmd_explain,
	 .summary = "read a log or an error message: its root cause and the fix"},
	{.name = "report", .fn = cmd_report,
	 .summary = "a report to paste in a bug tracker (Markdown) or open (HTML), redacted"},
	{.name = "bench", .fn = cmd_bench,
	 .summary = "measure the GPU and the CPU against the datasheet and a reference"},
	{.name = "top", .fn = cmd_top,
	 .summary = "a live view of every GPU and the processes on it (stale ones marked)"},
	{.name = "watch", .fn = cmd_watch,
	 .summary = "alert rules on live GPU samples: run a command when one fires"},
	{.name = "serve", .fn = cmd_serve,
	 .summary = "a Prometheus exporter: GPU metrics under dcgm-exporter's names, findings"},
	{.name = "diff", .fn = cmd_diff,
	 .summary = "two facts documents side by side: every fact and finding that differs"},
	{.name = "fleet", .fn = cmd_fleet,
	 .summary = "many nodes in one table from Prometheus or facts documents, outliers marked"},
	{.name = "check", .fn = cmd_check,
	 .summary = "a node health check for cron and Slurm (drains and resumes with --slurm)"},
	{.name = "help", .fn = cmd_help, .summary = "show help for gpudoctor or a command"},
	{.name = "version", .fn = cmd_version, .summary = "print the version"},
	{.name = NULL, .fn = NULL, .summary = NULL},
};

const struct command *
command_find(const char *name)
{
	const struct command *c;

	for (c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* Levenshtein distance, for short names only. */
static int
distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b);
	int d[32][32];
	int i, j;

	if (la > 30 || lb > 30)
		return 99;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			d[i][j] = c;
		}
	return d[la][lb];
}

const char *
command_suggest(const char *name)
{
	const struct command *c;
	const char *best = NULL;
	int bd = 3;

	for (c = commands; c->name; c++) {
		int dd = distance(name, c->name);
		if (dd < bd) {
			bd = dd;
			best = c->name;
		}
	}
	return best;
}

void
command_usage(FILE *out)
{
	const struct command *c;

	fprintf(out, "usage: gpudoctor [COMMAND] [OPTIONS]\n\n"
		     "Tells why a deep-learning framework does or does not use the NVIDIA GPU\n"
		     "of this machine, layer by layer, and what exactly to do about it.\n\n"
		     "Commands:\n");
	for (c = commands; c->name; c++)
		fprintf(out, "  %-10s %s\n", c->name, c->summary);
	fprintf(out, "\nWith no command, gpudoctor runs `doctor`.\n"
		     "Run `gpudoctor COMMAND --help` for a command's options.\n\n"
		     "Options:\n"
		     "  -h, --help     show this help\n"
		     "  -V, --version  print the version\n\n"
		     "Exit status, the same scheme in every command (each --help says what it\n"
		     "means there; docs/exit-status.md lists them all):\n"
		     "  0  nothing to act on (healthy, answered, nothing differs or fired)\n"
		     "  1  warnings: something to look at, the GPU still works\n"
		     "  2  errors: something is broken or cannot work\n"
		     "  3  gpudoctor itself failed: bad usage, unreadable input, cannot write\n");
}
