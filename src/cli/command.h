/*
 * command.h - the subcommands. Each lives in cli/cmd_<name>.c and is one row
 * of the table in command.c; to add one, write the file, declare its
 * function here and add the row.
 *
 * A command gets argv with argv[0] = its name and returns the process exit
 * status (enum exit_code).
 */
#ifndef GPUDOCTOR_COMMAND_H
#define GPUDOCTOR_COMMAND_H

#include <stddef.h>
#include <stdio.h>

enum exit_code {
	EXIT_HEALTHY = 0,   /* no warnings */
	EXIT_WARNINGS = 1,
	EXIT_ERRORS = 2,
	EXIT_TOOL_FAILED = 3, /* bad usage, unreadable input, internal failure */
};

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

extern const struct command commands[];

const struct command *command_find(const char *name);
/* Closest command name to a mistyped one, or NULL. */
const char *command_suggest(const char *name);

int cmd_doctor(int argc, char **argv);
int cmd_compat(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_fleet(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_version(int argc, char **argv);

struct facts;
struct probe_opts;

/* cli_facts.c: facts_init(f), then the facts of `from` (a doctor --json
 * file) when given, else those probed under `root` (NULL: this machine).
 * 0, or -1 after a message on stderr. */
int cli_facts(const char *from, const char *root, const struct probe_opts *po, struct facts *f);

/* cli_facts.c: the libnvidia-ml of fixture tree root that top, watch and
 * serve sample (--root --load-root): the copy its loader would pick, a
 * real ELF object that others cannot write, as a path in out. 0, or -1
 * after a message on stderr naming cmd. */
int cli_fixture_nvml(const char *cmd, const char *root, char *out, size_t size);

struct explain;

/* cli_facts.c: each --python of po as the shell would take it (made
 * absolute, and said at once when it is not there), or under root a path
 * in the tree. 0, or -1 after a message. */
int cli_check_pythons(struct probe_opts *po, const char *root);

/* cli_facts.c: a `bench --json` document (schema gpudoctor/bench/1) read
 * for cmd's --bench; NULL after one line on stderr. */
struct json_t;
struct json_t *cli_bench_doc(const char *cmd, const char *path);

/* cli_log.c: stream a log into x (after explain_init): file (NULL or "-":
 * stdin) or message; *name is what messages call it. 0, or -1 after one
 * line on stderr (unreadable, empty, blank, UTF-16, binary). */
int cli_read_log(const char *file, const char *message, struct explain *x, const char **name);

/* cli_opt.c: getopt_long returned ':' (value missing) or '?' (unknown
 * option) for `command`: say which, and where the options are. */
void cli_option_error(const char *command, int c, char **argv);

/* cli_opt.c: --timeout SECONDS into milliseconds, and --color WHEN;
 * 0, or -1 after a message on stderr. */
int cli_timeout_ms(const char *arg, int *ms);
/* cli_opt.c: OPT's ARG as seconds from min to max into milliseconds; 0,
 * or -1 after "gpudoctor CMD: OPT: 'ARG' is not a number of seconds from
 * MIN to MAX" on stderr (cmd NULL: no command in the message). */
int cli_seconds(const char *cmd, const char *opt, const char *arg, double min, double max, int *ms);
int cli_color(const char *arg);

/* cli_opt.c: the GPU a --gpu NAME|ID means (kb_query.h's one lookup), or
 * NULL after a message on stderr: none, or several with the candidates. */
struct kb_gpu;
const struct kb_gpu *cli_gpu(const char *q);

/* The global usage text, for `gpudoctor --help` and `gpudoctor help`. */
void command_usage(FILE *out);

#endif
