/*
 * cmd_doctor.c - `gpudoctor doctor`: probe every layer (or read recorded
 * facts with --from), run every rule, render, exit with the worst severity.
 */
#include "cli/command.h"
#include "base/str.h"
#include "diag/rule.h"
#include "kb/kb.h"
#include "probe/probe.h"
#include "render/facts_json.h"
#include "render/render.h"

#include <getopt.h>
#include <limits.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
doctor_usage(FILE *out)
{
	fprintf(out,
		"usage: gpudoctor doctor [OPTIONS]\n\n"
		"Walk every layer from the PCI device up to the CUDA libraries (host, hw,\n"
		"kmod, driver, libs, env, resources), print what was found and every problem\n"
		"with its cause and the exact fix for this machine.\n\n"
		"Options:\n"
		"  --json             print the facts document (schema " FACTS_SCHEMA ")\n"
		"                     with the findings, for scripts and for --from\n"
		"  --from FILE        diagnose facts recorded by `doctor --json` (- = stdin)\n"
		"                     instead of probing this machine\n"
		"  --root DIR         read every file under DIR instead of / (a fixture tree,\n"
		"                     a mounted disk image, a container's root): read only,\n"
		"                     nothing in it is loaded or run\n"
		"  --load-root        with --root: load its driver and CUDA libraries in\n"
		"                     children, as on a machine (their code runs as you: only\n"
		"                     for trees you trust, such as the test suite's mocks)\n"
		"  --timeout SECONDS  limit for each child that loads vendor code (default 5)\n"
		"  --no-load          never load vendor libraries (libcuda, NVML, CUDA libs)\n"
		"  --deep             also import each framework in its own interpreter, in a\n"
		"                     child (limit: --timeout, at least 60 s), and compare its\n"
		"                     answers and mapped CUDA libraries with the prediction\n"
		"  --python PATH      also examine this Python environment or interpreter\n"
		"                     (repeatable; PATH, venvs, conda and pyenv are found anyway)\n"
		"  --kb DIR           judge with the knowledge-base tables in DIR (data/kb\n"
		"                     format) instead of the built-in ones\n"
		"  --color WHEN       auto (default), always or never; NO_COLOR is honoured\n"
		"  -v, --verbose      list every library copy and probe note\n"
		"  -h, --help         show this help\n\n"
		"Exit status: 0 healthy, 1 warnings, 2 errors, 3 gpudoctor itself failed.\n");
}

enum {
	OPT_JSON = 256, OPT_FROM, OPT_ROOT, OPT_TIMEOUT, OPT_NO_LOAD, OPT_COLOR, OPT_KB, OPT_PYTHON, OPT_DEEP,
	OPT_LOAD_ROOT,
};

static const struct option doctor_options[] = {
	{"json", no_argument, NULL, OPT_JSON},
	{"from", required_argument, NULL, OPT_FROM},
	{"root", required_argument, NULL, OPT_ROOT},
	{"timeout", required_argument, NULL, OPT_TIMEOUT},
	{"no-load", no_argument, NULL, OPT_NO_LOAD},
	{"load-root", no_argument, NULL, OPT_LOAD_ROOT},
	{"deep", no_argument, NULL, OPT_DEEP},
	{"kb", required_argument, NULL, OPT_KB},
	{"python", required_argument, NULL, OPT_PYTHON},
	{"color", required_argument, NULL, OPT_COLOR},
	{"colour", required_argument, NULL, OPT_COLOR},
	{"verbose", no_argument, NULL, 'v'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

int
cmd_doctor(int argc, char **argv)
{
	struct probe_opts po = {.timeout_ms = 5000};
	struct render_opts ro = {.width = 80};
	const char *from = NULL, *root = NULL, *color = "auto", *kbdir = NULL;
	bool json = false;
	struct findings fs;
	struct facts *f;
	bool timeout_given = false;
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":vh", doctor_options, NULL)) != -1) {
		switch (c) {
		case OPT_JSON:
			json = true;
			break;
		case OPT_FROM:
			from = optarg;
			break;
		case OPT_ROOT:
			root = optarg;
			break;
		case OPT_TIMEOUT:
			if (cli_timeout_ms(optarg, &po.timeout_ms) < 0)
				return EXIT_TOOL_FAILED;
			timeout_given = true;
			break;
		case OPT_LOAD_ROOT:
			po.load_root = true;
			break;
		case OPT_NO_LOAD:
			po.no_driver_calls = true;
			break;
		case OPT_DEEP:
			po.deep = true;
			break;
		case OPT_KB:
			kbdir = optarg;
			break;
		case OPT_PYTHON:
			if (po.nextra_pythons >= (int)(sizeof(po.extra_pythons) / sizeof(po.extra_pythons[0]))) {
				fprintf(stderr, "gpudoctor: at most %zu --python options\n",
					sizeof(po.extra_pythons) / sizeof(po.extra_pythons[0]));
				return EXIT_TOOL_FAILED;
			}
			po.extra_pythons[po.nextra_pythons++] = optarg;
			break;
		case OPT_COLOR:
			if (cli_color(optarg) < 0)
				return EXIT_TOOL_FAILED;
			color = optarg;
			break;
		case 'v':
			ro.verbose = true;
			break;
		case 'h':
			doctor_usage(stdout);
			return EXIT_HEALTHY;
		default:
			cli_option_error("doctor", c, argv);
			return EXIT_TOOL_FAILED;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "gpudoctor: doctor takes no arguments ('%s')\n", argv[optind]);
		return EXIT_TOOL_FAILED;
	}
	if (po.load_root && !root) {
		fprintf(stderr, "gpudoctor: --load-root goes with --root\n");
		return EXIT_TOOL_FAILED;
	}
	if (from && root) {
		fprintf(stderr, "gpudoctor: --from and --root exclude each other\n");
		return EXIT_TOOL_FAILED;
	}
	/* on this machine, a relative --python as the shell would take it, and
	 * one that is not there said at once; under --root, a path in the tree */
	if (!from && cli_check_pythons(&po, root) < 0)
		return EXIT_TOOL_FAILED;
	if (from && (po.no_driver_calls || timeout_given || po.nextra_pythons)) {
		/* they change how a machine is probed; --from probes nothing */
		fprintf(stderr, "gpudoctor: --from reads recorded facts: %s does not apply to it\n",
			po.no_driver_calls ? "--no-load" : timeout_given ? "--timeout" : "--python");
		return EXIT_TOOL_FAILED;
	}
	if (po.deep && (from || po.no_driver_calls)) {
		fprintf(stderr, "gpudoctor: --deep runs the frameworks: not with %s\n",
			from ? "--from" : "--no-load");
		return EXIT_TOOL_FAILED;
	}

	if (kbdir) {
		char err[512];
		if (kb_load_dir(kbdir, err, sizeof(err)) < 0) {
			fprintf(stderr, "gpudoctor: --kb '%s': %s\n", kbdir, err);
			return EXIT_TOOL_FAILED;
		}
	}
	f = malloc(sizeof(*f));
	if (!f) {
		fprintf(stderr, "gpudoctor: out of memory\n");
		return EXIT_TOOL_FAILED;
	}
	if (cli_facts(from, root, &po, f) < 0) {
		free(f);
		return EXIT_TOOL_FAILED;
	}

	/* a --python that is no environment: said whatever the output */
	for (c = 0; c < f->nnotes; c++)
		if (!strcmp(f->notes[c].probe, "python") && str_starts(f->notes[c].note, "--python"))
			fprintf(stderr, "gpudoctor: warning: %s\n", f->notes[c].note);
	if (!json)
		facts_clean_text(f); /* names others chose, shown to people */
	findings_init(&fs);
	rules_run(f, &fs);
	if (json) {
		rc = render_json(stdout, f, &fs);
	} else {
		ro.color = render_want_color(color, stdout);
		render_text(stdout, f, &fs, &ro);
		rc = 0;
	}
	if (fflush(stdout) != 0 || rc < 0) {
		fprintf(stderr, "gpudoctor: cannot write the report\n");
		rc = EXIT_TOOL_FAILED;
	} else {
		rc = (int)findings_worst(&fs); /* SEV_* equal the exit codes 0..2 */
	}
	findings_release(&fs);
	free(f);
	kb_reset();
	return rc;
}
