/*
 * cmd_explain.c - `gpudoctor explain [FILE|-]`, `explain -e MESSAGE`: read
 * a log (any size, as a stream) or one message, and say what caused the
 * GPU errors in it and what to do; with --here (this machine's facts) or
 * --from FILE (another machine's `doctor --json`) the fix is made concrete
 * for that machine.
 */
#include "cli/command.h"
#include "diag/rule.h"
#include "explain/explain.h"
#include "explain/here.h"
#include "kb/kb.h"
#include "probe/probe.h"
#include "render/explain_render.h"
#include "render/facts_json.h"
#include "render/render.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void
explain_usage(FILE *out)
{
	fprintf(out,
		"usage: gpudoctor explain [FILE | -] [OPTIONS]\n"
		"       gpudoctor explain -e MESSAGE [OPTIONS]\n\n"
		"Read a log (a training run's output, a traceback, dmesg, docker's error) and\n"
		"say what caused its GPU errors: the causes ranked, a root cause before what\n"
		"follows from it, each with its line numbers, why it happens and the fix.\n"
		"Harmless messages are said to be harmless. Any size; read as a stream.\n\n"
		"  FILE               the log; - or nothing (with a pipe) reads standard input\n"
		"  -e, --message MSG  explain one message given on the command line\n"
		"  --here             also look at this machine (as `doctor` does) and make\n"
		"                     the fix concrete for it\n"
		"  --from FACTS       the same with another machine's `doctor --json` output\n"
		"  --root DIR         with --here: read the machine's files under DIR\n"
		"  --no-load          with --here: do not load the driver libraries\n"
		"  --load-root        with --root: load the tree's libraries, as on a machine\n"
		"  --timeout SECONDS  with --here: limit for the driver calls (default 5)\n"
		"  --json             the answer as JSON (schema gpudoctor/explain/1)\n"
		"  --kb DIR           use the knowledge-base tables in DIR (log_patterns.tsv\n"
		"                     and the others) instead of the built-in ones\n"
		"  --color WHEN       auto (default), always or never; NO_COLOR is honoured\n"
		"  -h, --help         show this help\n\n"
		"Examples:\n"
		"  python train.py 2>&1 | gpudoctor explain\n"
		"  gpudoctor explain train.log --here\n"
		"  gpudoctor explain -e \"Could not load dynamic library 'libcudnn.so.8'\"\n\n"
		"Exit status: 0 nothing wrong found, 1 warnings, 2 errors, 3 gpudoctor itself\n"
		"failed (unreadable input, bad usage).\n");
}

enum {
	OPT_JSON = 256, OPT_HERE, OPT_FROM, OPT_ROOT, OPT_NO_LOAD, OPT_TIMEOUT, OPT_KB, OPT_COLOR,
	OPT_LOAD_ROOT,
};

static const struct option explain_options[] = {
	{"message", required_argument, NULL, 'e'},
	{"json", no_argument, NULL, OPT_JSON},
	{"here", no_argument, NULL, OPT_HERE},
	{"from", required_argument, NULL, OPT_FROM},
	{"root", required_argument, NULL, OPT_ROOT},
	{"no-load", no_argument, NULL, OPT_NO_LOAD},
	{"load-root", no_argument, NULL, OPT_LOAD_ROOT},
	{"timeout", required_argument, NULL, OPT_TIMEOUT},
	{"kb", required_argument, NULL, OPT_KB},
	{"color", required_argument, NULL, OPT_COLOR},
	{"colour", required_argument, NULL, OPT_COLOR},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct explain_args {
	const char *file, *message, *from, *root, *kbdir, *color;
	bool json, here;
	struct probe_opts po;
};

/* 0 go on, 1 help shown, -1 bad usage (reported). */
static int
parse_args(int argc, char **argv, struct explain_args *a)
{
	int c;

	memset(a, 0, sizeof(*a));
	a->color = "auto";
	a->po.timeout_ms = 5000;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":e:h", explain_options, NULL)) != -1) {
		switch (c) {
		case 'e':
			a->message = optarg;
			break;
		case OPT_JSON:
			a->json = true;
			break;
		case OPT_HERE:
			a->here = true;
			break;
		case OPT_FROM:
			a->from = optarg;
			break;
		case OPT_ROOT:
			a->root = optarg;
			break;
		case OPT_LOAD_ROOT:
			a->po.load_root = true;
			break;
		case OPT_NO_LOAD:
			a->po.no_driver_calls = true;
			break;
		case OPT_TIMEOUT:
			if (cli_timeout_ms(optarg, &a->po.timeout_ms) < 0)
				return -1;
			break;
		case OPT_KB:
			a->kbdir = optarg;
			break;
		case OPT_COLOR:
			if (cli_color(optarg) < 0)
				return -1;
			a->color = optarg;
			break;
		case 'h':
			explain_usage(stdout);
			return 1;
		default:
			cli_option_error("explain", c, argv);
			return -1;
		}
	}
	if (optind < argc)
		a->file = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "gpudoctor: explain reads one log, not '%s' as well\n", argv[optind]);
		return -1;
	}
	if (a->file && a->message) {
		fprintf(stderr, "gpudoctor: give a FILE or -e MESSAGE, not both\n");
		return -1;
	}
	if (a->here && a->from) {
		fprintf(stderr, "gpudoctor: --here and --from exclude each other\n");
		return -1;
	}
	if (a->po.load_root && !a->root) {
		fprintf(stderr, "gpudoctor: --load-root goes with --root\n");
		return -1;
	}
	if ((a->root || a->po.no_driver_calls) && !a->here) {
		fprintf(stderr, "gpudoctor: --root and --no-load go with --here\n");
		return -1;
	}
	if (!a->file && !a->message && isatty(STDIN_FILENO)) {
		fprintf(stderr, "gpudoctor: explain needs a log: a FILE, - with a pipe, or -e MESSAGE\n"
				"run 'gpudoctor explain --help' for examples\n");
		return -1;
	}
	return 0;
}

int
cmd_explain(int argc, char **argv)
{
	struct explain_args a;
	struct render_opts ro = {.width = 80};
	struct explain x;
	struct findings fs;
	struct facts *f = NULL;
	const char *name;
	char err[512];
	int rc;

	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc > 0 ? EXIT_HEALTHY : EXIT_TOOL_FAILED;
	if (a.kbdir && kb_load_dir(a.kbdir, err, sizeof(err)) < 0) {
		fprintf(stderr, "gpudoctor: --kb '%s': %s\n", a.kbdir, err);
		return EXIT_TOOL_FAILED;
	}
	if (explain_init(&x, err, sizeof(err)) < 0) {
		fprintf(stderr, "gpudoctor: %s\n", err);
		return EXIT_TOOL_FAILED;
	}
	if (cli_read_log(a.file, a.message, &x, &name) < 0) {
		explain_release(&x);
		return EXIT_TOOL_FAILED;
	}

	findings_init(&fs);
	if (a.here || a.from) {
		f = malloc(sizeof(*f));
		if (!f || cli_facts(a.from, a.root, &a.po, f) < 0) {
			if (!f)
				fprintf(stderr, "gpudoctor: out of memory\n");
			free(f);
			findings_release(&fs);
			explain_release(&x);
			return EXIT_TOOL_FAILED;
		}
		if (!a.json)
			facts_clean_text(f);
		/* what the log states is judged on this machine's facts */
		x.machine = f;
	}
	explain_finish(&x);
	if (f) {
		rules_run(f, &fs);
		explain_here(&x, f, &fs);
	}
	if (a.json) {
		rc = explain_render_json(stdout, &x, name,
					 a.from ? a.from : a.here ? "this machine" : NULL);
	} else {
		ro.color = render_want_color(a.color, stdout);
		explain_render_text(stdout, &x, name,
				    a.from ? a.from : a.here ? "this machine" : NULL, &ro);
		rc = 0;
	}
	if (fflush(stdout) != 0 || rc < 0) {
		fprintf(stderr, "gpudoctor: cannot write the answer\n");
		rc = EXIT_TOOL_FAILED;
	} else {
		enum severity w = explain_worst(&x);
		rc = w == SEV_ERROR ? EXIT_ERRORS : w == SEV_WARN ? EXIT_WARNINGS : EXIT_HEALTHY;
	}
	findings_release(&fs);
	free(f);
	explain_release(&x);
	return rc;
}
