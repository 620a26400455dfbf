/*
 * cmd_report.c - `gpudoctor report`: doctor's facts and findings, and with
 * --log what a log says and with --bench a benchmark's figures, as one report to paste into a bug tracker
 * (Markdown, under GitHub's limit) or to open and print (one HTML file).
 * Redacted unless --no-redact.
 */
#include "cli/command.h"
#include "diag/rule.h"
#include "explain/explain.h"
#include "explain/here.h"
#include "kb/kb.h"
#include "probe/probe.h"
#include "render/facts_json.h"
#include "report/report.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
report_usage(FILE *out)
{
	fprintf(out,
		"usage: gpudoctor report [OPTIONS]\n\n"
		"Everything doctor finds on this machine (and with --log, what a log says)\n"
		"as one report to paste into a bug tracker: a one-line verdict, the machine\n"
		"in a table with a verdict per layer, every finding with its evidence and\n"
		"fix, then the full doctor report and the facts collapsed. User names, host\n"
		"names, UUIDs, serial numbers and IP addresses are replaced by placeholders.\n\n"
		"Options:\n"
		"  --format FORMAT    markdown (default: for a GitHub or GitLab issue, cut to\n"
		"                     GitHub's 65,536 characters) or html (one file, no\n"
		"                     script, nothing fetched; opens on a phone, prints)\n"
		"  -o, --output FILE  write the report to FILE instead of standard output\n"
		"  --log FILE         also explain this log (- = stdin) on this machine's facts\n"
		"  --bench FILE       also the figures of a `gpudoctor bench --json` document\n"
		"  --no-redact        keep user names, host names, UUIDs, serials, addresses\n"
		"  --no-limit         Markdown: never cut (for a file to attach)\n"
		"  --json             the report in a JSON object (\"text\": the report), with\n"
		"                     the findings' and the log's IDs, for scripts and APIs\n"
		"  --from FILE        facts recorded by `doctor --json` instead of probing\n"
		"  --root DIR         probe the files under DIR instead of / (read only)\n"
		"  --load-root        with --root: load its libraries, as on a machine\n"
		"  --deep             also import each framework, as `doctor --deep`\n"
		"  --python PATH      also examine this Python environment or interpreter\n"
		"  --timeout SECONDS  limit for each child that loads vendor code (default 5)\n"
		"  --no-load          never load vendor libraries\n"
		"  --kb DIR           judge with the knowledge-base tables in DIR\n"
		"  -h, --help         show this help\n\n"
		"Examples:\n"
		"  gpudoctor report > report.md                 paste report.md into the issue\n"
		"  python train.py 2>&1 | tee train.log; gpudoctor report --log train.log\n"
		"  gpudoctor report --format html -o report.html\n\n"
		"Exit status: 0 healthy, 1 warnings, 2 errors (on the machine or in the log),\n"
		"3 gpudoctor itself failed (bad usage, unreadable input, cannot write).\n");
}

enum {
	OPT_FORMAT = 256, OPT_LOG, OPT_NO_REDACT, OPT_NO_LIMIT, OPT_JSON, OPT_FROM, OPT_ROOT,
	OPT_LOAD_ROOT, OPT_DEEP, OPT_PYTHON, OPT_TIMEOUT, OPT_NO_LOAD, OPT_KB, OPT_BENCH,
};

static const struct option report_options[] = {
	{"format", required_argument, NULL, OPT_FORMAT},
	{"output", required_argument, NULL, 'o'},
	{"log", required_argument, NULL, OPT_LOG},
	{"bench", required_argument, NULL, OPT_BENCH},
	{"no-redact", no_argument, NULL, OPT_NO_REDACT},
	{"no-limit", no_argument, NULL, OPT_NO_LIMIT},
	{"json", no_argument, NULL, OPT_JSON},
	{"from", required_argument, NULL, OPT_FROM},
	{"root", required_argument, NULL, OPT_ROOT},
	{"load-root", no_argument, NULL, OPT_LOAD_ROOT},
	{"deep", no_argument, NULL, OPT_DEEP},
	{"python", required_argument, NULL, OPT_PYTHON},
	{"timeout", required_argument, NULL, OPT_TIMEOUT},
	{"no-load", no_argument, NULL, OPT_NO_LOAD},
	{"kb", required_argument, NULL, OPT_KB},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct report_args {
	enum report_format format;
	const char *output, *log, *from, *root, *kbdir, *bench;
	bool redact, limit, json, timeout_given;
	struct probe_opts po;
};

static int
parse(int argc, char **argv, struct report_args *a)
{
	int c;

	memset(a, 0, sizeof(*a));
	a->redact = a->limit = true;
	a->po.timeout_ms = 5000;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", report_options, NULL)) != -1) {
		switch (c) {
		case OPT_FORMAT:
			if (!strcmp(optarg, "markdown") || !strcmp(optarg, "md")) {
				a->format = REPORT_MARKDOWN;
			} else if (!strcmp(optarg, "html")) {
				a->format = REPORT_HTML;
			} else {
				fprintf(stderr, "gpudoctor: --format wants markdown or html, not '%s'\n", optarg);
				return -1;
			}
			break;
		case 'o':
			a->output = optarg;
			break;
		case OPT_LOG:
			a->log = optarg;
			break;
		case OPT_BENCH:
			a->bench = optarg;
			break;
		case OPT_NO_REDACT:
			a->redact = false;
			break;
		case OPT_NO_LIMIT:
			a->limit = false;
			break;
		case OPT_JSON:
			a->json = true;
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
		case OPT_DEEP:
			a->po.deep = true;
			break;
		case OPT_PYTHON:
			if (a->po.nextra_pythons >= 8) {
				fprintf(stderr, "gpudoctor: at most 8 --python options\n");
				return -1;
			}
			a->po.extra_pythons[a->po.nextra_pythons++] = optarg;
			break;
		case OPT_TIMEOUT:
			if (cli_timeout_ms(optarg, &a->po.timeout_ms) < 0)
				return -1;
			a->timeout_given = true;
			break;
		case OPT_NO_LOAD:
			a->po.no_driver_calls = true;
			break;
		case OPT_KB:
			a->kbdir = optarg;
			break;
		case 'h':
			report_usage(stdout);
			return 1;
		default:
			cli_option_error("report", c, argv);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "gpudoctor: report takes no arguments ('%s'); a log goes with --log\n",
			argv[optind]);
		return -1;
	}
	if (a->po.load_root && !a->root) {
		fprintf(stderr, "gpudoctor: --load-root goes with --root\n");
		return -1;
	}
	if (a->from && a->root) {
		fprintf(stderr, "gpudoctor: --from and --root exclude each other\n");
		return -1;
	}
	if (a->from && (a->po.no_driver_calls || a->timeout_given || a->po.nextra_pythons || a->po.deep)) {
		fprintf(stderr, "gpudoctor: --from reads recorded facts: %s does not apply to it\n",
			a->po.no_driver_calls ? "--no-load" : a->timeout_given ? "--timeout" :
			a->po.deep ? "--deep" : "--python");
		return -1;
	}
	if (a->po.deep && a->po.no_driver_calls) {
		fprintf(stderr, "gpudoctor: --deep runs the frameworks: not with --no-load\n");
		return -1;
	}
	if (a->json && a->output) {
		fprintf(stderr, "gpudoctor: --json prints to standard output: not with --output\n");
		return -1;
	}
	if (!a->from && cli_check_pythons(&a->po, a->root) < 0)
		return -1;
	return 0;
}

/* Write it all to FILE, never through a link another user planted there. */
static int
write_file(const char *path, const char *s, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0644);
	size_t off = 0;

	if (fd < 0) {
		fprintf(stderr, "gpudoctor: cannot write '%s': %s\n", path,
			errno == ELOOP ? "it is a symbolic link" : strerror(errno));
		return -1;
	}
	while (off < n) {
		ssize_t w = write(fd, s + off, n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			fprintf(stderr, "gpudoctor: cannot write '%s': %s\n", path, strerror(errno));
			close(fd);
			return -1;
		}
		off += (size_t)w;
	}
	if (close(fd) < 0) {
		fprintf(stderr, "gpudoctor: cannot write '%s': %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int
print_json(const struct report_args *a, const struct buf *text, const struct findings *fs,
	   const struct explain *x)
{
	json_t *o = json_object(), *ids = json_array(), *causes = json_array();
	size_t i;
	int rc;

	for (i = 0; i < fs->n; i++) {
		json_t *e = json_object();
		json_object_set_new(e, "id", json_string(fs->v[i].id));
		json_object_set_new(e, "severity", json_string(severity_name(fs->v[i].severity)));
		json_array_append_new(ids, e);
	}
	for (i = 0; x && i < x->ncauses; i++) {
		const struct explain_cause *c = &x->causes[i];
		if (c->role != EXPLAIN_CAUSE && c->role != EXPLAIN_SYMPTOM)
			continue;
		json_t *e = json_object();
		json_object_set_new(e, "id", json_string(c->id));
		json_object_set_new(e, "severity", json_string(severity_name(c->severity)));
		json_array_append_new(causes, e);
	}
	json_object_set_new(o, "schema", json_string("gpudoctor/report/1"));
	json_object_set_new(o, "format", json_string(a->format == REPORT_HTML ? "html" : "markdown"));
	json_object_set_new(o, "redacted", json_boolean(a->redact));
	json_object_set_new(o, "findings", ids);
	json_object_set_new(o, "log_causes", x ? causes : json_null());
	if (!x)
		json_decref(causes);
	json_object_set_new(o, "text", json_stringn(text->s ? text->s : "", text->len));
	rc = json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', stdout);
	json_decref(o);
	return rc;
}

int
cmd_report(int argc, char **argv)
{
	struct report_args a;
	struct report_input in = {0};
	struct findings fs;
	struct explain x;
	bool have_x = false;
	struct facts *f;
	struct buf out;
	char err[512];
	const char *log_name = NULL;
	enum severity worst;
	json_t *bench = NULL;
	int rc;

	rc = parse(argc, argv, &a);
	if (rc)
		return rc > 0 ? EXIT_HEALTHY : EXIT_TOOL_FAILED;
	if (a.kbdir && kb_load_dir(a.kbdir, err, sizeof(err)) < 0) {
		fprintf(stderr, "gpudoctor: --kb '%s': %s\n", a.kbdir, err);
		return EXIT_TOOL_FAILED;
	}
	if (a.bench && !(bench = cli_bench_doc("report", a.bench)))
		return EXIT_TOOL_FAILED;
	if (a.log) {
		if (explain_init(&x, err, sizeof(err)) < 0) {
			fprintf(stderr, "gpudoctor: %s\n", err);
			return EXIT_TOOL_FAILED;
		}
		have_x = true;
		if (cli_read_log(a.log, NULL, &x, &log_name) < 0) {
			explain_release(&x);
			json_decref(bench);
			return EXIT_TOOL_FAILED;
		}
	}
	f = malloc(sizeof(*f));
	if (!f || cli_facts(a.from, a.root, &a.po, f) < 0) {
		if (!f)
			fprintf(stderr, "gpudoctor: out of memory\n");
		free(f);
		if (have_x)
			explain_release(&x);
		json_decref(bench);
		return EXIT_TOOL_FAILED;
	}
	facts_clean_text(f); /* names others chose, shown to people */
	findings_init(&fs);
	rules_run(f, &fs);
	if (have_x) {
		struct findings here;
		x.machine = f;
		explain_finish(&x);
		findings_init(&here);
		rules_run(f, &here);
		explain_here(&x, f, &here);
		findings_release(&here);
	}

	in.f = f;
	in.fs = &fs;
	in.x = have_x ? &x : NULL;
	in.log_name = log_name;
	in.bench = bench;
	in.redact = a.redact;
	in.limit = a.limit && a.format == REPORT_MARKDOWN ? REPORT_GITHUB_LIMIT : 0;
	buf_init(&out);
	rc = report_render(&in, a.format, &out);
	if (rc < 0) {
		fprintf(stderr, "gpudoctor: out of memory writing the report\n");
		rc = EXIT_TOOL_FAILED;
	} else if (a.json) {
		rc = print_json(&a, &out, &fs, in.x) < 0 || fflush(stdout) != 0 ? -1 : 0;
		if (rc < 0)
			fprintf(stderr, "gpudoctor: cannot write the report\n");
	} else if (a.output) {
		rc = write_file(a.output, out.s ? out.s : "", out.len);
	} else {
		fwrite(out.s ? out.s : "", 1, out.len, stdout);
		rc = fflush(stdout) != 0 || ferror(stdout) ? -1 : 0;
		if (rc < 0)
			fprintf(stderr, "gpudoctor: cannot write the report\n");
	}
	if (rc == 0) {
		worst = findings_worst(&fs);
		if (have_x && explain_worst(&x) > worst)
			worst = explain_worst(&x);
		for (size_t k = 0; bench && k < json_array_size(json_object_get(bench, "findings")); k++) {
			int sv = severity_parse(json_string_value(
				json_object_get(json_array_get(json_object_get(bench, "findings"), k), "severity")));
			if (sv > (int)worst)
				worst = (enum severity)sv;
		}
		rc = (int)worst;
	} else {
		rc = EXIT_TOOL_FAILED;
	}
	buf_release(&out);
	findings_release(&fs);
	if (have_x)
		explain_release(&x);
	free(f);
	json_decref(bench);
	kb_reset();
	return rc;
}
