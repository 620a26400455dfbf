/*
 * cmd_check.c - `gpudoctor check`: a node health check for cron, Slurm and
 * monitoring agents. One doctor run and one NVML sample; it fails on an
 * error finding, a GPU that fell off the bus, uncorrected ECC errors, a
 * failed row remapping, or fewer GPUs answering than sit on the PCI bus
 * (or --expect-gpus). With --slurm it is a HealthCheckProgram following
 * LBNL NHC's conventions (slurm/slurm.h): a failing node is drained with a
 * reason prefixed "gpudoctor:", a healthy node is resumed only if
 * gpudoctor drained it, a node drained by someone else is left alone.
 */
#include "cli/command.h"
#include "base/clean.h"
#include "base/str.h"
#include "diag/rule.h"
#include "monitor/session.h"
#include "probe/probe.h"
#include "render/facts_json.h"
#include "slurm/slurm.h"

#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ITEMS 32

struct outcome {
	char fail[MAX_ITEMS][256];
	int nfail;
	char warn[MAX_ITEMS][256];
	int nwarn;
	int gpus, expected;
};

static void
add(char list[][256], int *n, const char *text)
{
	if (*n < MAX_ITEMS) {
		str_copy(list[*n], 256, text);
		text_clean_str(list[*n], 256);
		(*n)++;
	}
}

static void
check_usage(FILE *out)
{
	fprintf(out,
		"usage: gpudoctor check [OPTIONS]\n\n"
		"A node health check: one doctor run and one NVML sample. It fails on an error\n"
		"finding, a GPU that fell off the bus, uncorrected ECC errors, a failed row\n"
		"remapping, or fewer GPUs answering than sit on the PCI bus. Warnings are\n"
		"reported, never failed on. It finishes in seconds (Slurm allows 60).\n\n"
		"Options:\n"
		"  --slurm            act as Slurm's HealthCheckProgram: drain a failing node\n"
		"                     with a reason prefixed \"gpudoctor:\", resume a healthy\n"
		"                     node only if gpudoctor drained it (NHC's conventions)\n"
		"  --node NAME        the Slurm node (default $SLURMD_NODENAME, else the short\n"
		"                     host name)\n"
		"  --scontrol PATH    scontrol to run (default: /usr/bin, /usr/sbin,\n"
		"                     /usr/local/bin, /opt/slurm/bin)\n"
		"  --expect-gpus N    GPUs this node must have (default: those on the PCI bus)\n"
		"  --timeout SECONDS  each child that loads vendor code (default 5)\n"
		"  --root DIR         with --load-root: a fixture tree and its mock driver\n"
		"  --load-root        (tests)\n"
		"  --json             the outcome as JSON (schema gpudoctor/check/1)\n"
		"  -h, --help         show this help\n\n"
		"Exit status: 0 healthy, 1 warnings only, 2 failed (drained with --slurm),\n"
		"3 bad usage, or --slurm could not reach scontrol.\n");
}

/* One NVML sample judged by the rules that fail a node. */
static void
sample(struct outcome *o, const char *nvml, int timeout_ms)
{
	static const char *const node_rules[] = {"gpu_lost", "ecc_uncorrected>0", "remap_failure"};
	static struct alert_set alerts;
	struct mon_opts mo;
	struct mon_session s;
	char err[256];
	size_t i;
	int r, g;

	memset(&alerts, 0, sizeof(alerts));
	for (i = 0; i < sizeof(node_rules) / sizeof(node_rules[0]); i++)
		if (alert_parse(node_rules[i], &alerts.rules[alerts.nrules], err, sizeof(err)) == 0)
			alerts.nrules++;
	alerts.ignore_durations = true;
	memset(&mo, 0, sizeof(mo));
	str_copy(mo.sampler.nvml, sizeof(mo.sampler.nvml), nvml);
	mo.sampler.interval_ms = 100;
	mo.sampler.slow_every = 1;
	mo.start_timeout_ms = timeout_ms;
	mo.count = 1;
	mon_session_start(&s, &mo, &alerts);
	r = mon_session_next(&s, timeout_ms + 2000);
	if (r > 0) {
		o->gpus = 0;
		for (g = 0; g < s.cur->ngpus; g++)
			o->gpus += s.cur->gpus[g].state == MON_GPU_OK;
		for (i = 0; i < (size_t)s.nevents; i++)
			if (s.events[i].firing)
				add(o->fail, &o->nfail, s.events[i].message);
	} else if (o->expected > 0) {
		char line[320];
		str_fmt(line, sizeof(line), "no GPU can be sampled: %s", s.stream.error[0] ? s.stream.error : "NVML did not answer");
		add(o->fail, &o->nfail, line);
		o->gpus = 0;
	}
	mon_session_end(&s);
}

static void
node_name(const char *given, char *out, size_t size)
{
	const char *env = getenv("SLURMD_NODENAME");
	char *dot;

	if (given)
		str_copy(out, size, given);
	else if (env && env[0])
		str_copy(out, size, env);
	else if (gethostname(out, size - 1) == 0) {
		out[size - 1] = '\0';
		if ((dot = strchr(out, '.')))
			*dot = '\0';
	} else
		str_copy(out, size, "localhost");
}

int
cmd_check(int argc, char **argv)
{
	enum { O_SLURM = 256, O_NODE, O_SCONTROL, O_EXPECT, O_TIMEOUT, O_ROOT, O_LOAD_ROOT, O_JSON };
	static const struct option longopts[] = {
		{"slurm", no_argument, NULL, O_SLURM},           {"node", required_argument, NULL, O_NODE},
		{"scontrol", required_argument, NULL, O_SCONTROL}, {"expect-gpus", required_argument, NULL, O_EXPECT},
		{"timeout", required_argument, NULL, O_TIMEOUT}, {"root", required_argument, NULL, O_ROOT},
		{"load-root", no_argument, NULL, O_LOAD_ROOT},   {"json", no_argument, NULL, O_JSON},
		{"help", no_argument, NULL, 'h'},                {NULL, 0, NULL, 0},
	};
	struct probe_opts po = {.timeout_ms = 5000};
	struct outcome o;
	struct findings fs;
	struct facts *f;
	struct slurm_node sn;
	const char *root = NULL, *node_opt = NULL, *scontrol_opt = NULL, *action = "none";
	char nvml[PATH_MAX] = "libnvidia-ml.so.1", scontrol[PATH_MAX] = "", node[128] = "", why[512] = "", reason[400];
	bool slurm = false, json = false, have_node = false;
	int c, i, expect = 0, rc;
	char *end;
	size_t k;

	memset(&o, 0, sizeof(o));
	o.gpus = o.expected = -1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case O_SLURM:
			slurm = true;
			break;
		case O_NODE:
			node_opt = optarg;
			break;
		case O_SCONTROL:
			scontrol_opt = optarg;
			break;
		case O_EXPECT:
			expect = (int)strtol(optarg, &end, 10);
			if (!optarg[0] || *end || expect < 1 || expect > 1024) {
				fprintf(stderr, "gpudoctor check: --expect-gpus: '%s' is not a whole number from 1 to 1024\n",
					optarg);
				return EXIT_TOOL_FAILED;
			}
			break;
		case O_TIMEOUT:
			if (cli_seconds("check", "--timeout", optarg, 0.1, 50, &po.timeout_ms) < 0)
				return EXIT_TOOL_FAILED;
			break;
		case O_ROOT:
			root = optarg;
			break;
		case O_LOAD_ROOT:
			po.load_root = true;
			break;
		case O_JSON:
			json = true;
			break;
		case 'h':
			check_usage(stdout);
			return EXIT_HEALTHY;
		default:
			cli_option_error("check", c, argv);
			return EXIT_TOOL_FAILED;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "gpudoctor check: unexpected argument '%s' (see gpudoctor check --help)\n", argv[optind]);
		return EXIT_TOOL_FAILED;
	}
	if ((node_opt || scontrol_opt) && !slurm) {
		fprintf(stderr, "gpudoctor check: --node and --scontrol go with --slurm\n");
		return EXIT_TOOL_FAILED;
	}
	if (po.load_root != (root != NULL)) {
		fprintf(stderr, "gpudoctor check: --root and --load-root go together\n");
		return EXIT_TOOL_FAILED;
	}
	/* scontrol first: a health check that cannot act says so at once */
	if (slurm && slurm_find_scontrol(scontrol_opt, scontrol, sizeof(scontrol), why, sizeof(why)) < 0) {
		fprintf(stderr, "gpudoctor check: %s\n", why);
		return EXIT_TOOL_FAILED;
	}
	if (root && cli_fixture_nvml("check", root, nvml, sizeof(nvml)) < 0)
		return EXIT_TOOL_FAILED;
	if (!(f = malloc(sizeof(*f))) || cli_facts(NULL, root, &po, f) < 0) {
		free(f);
		return EXIT_TOOL_FAILED;
	}
	findings_init(&fs);
	rules_run(f, &fs);
	for (k = 0; k < fs.n; k++) {
		char line[300];
		str_fmt(line, sizeof(line), "%s (%s)", fs.v[k].title, fs.v[k].id);
		if (fs.v[k].severity == SEV_ERROR)
			add(o.fail, &o.nfail, line);
		else if (fs.v[k].severity == SEV_WARN)
			add(o.warn, &o.nwarn, line);
	}
	o.expected = expect ? expect : f->ngpus;
	sample(&o, nvml, po.timeout_ms);
	if (o.gpus >= 0 && o.expected > 0 && o.gpus < o.expected) {
		char line[160];
		str_fmt(line, sizeof(line), "%d of %d GPUs answer NVML", o.gpus, o.expected);
		add(o.fail, &o.nfail, line);
	}
	findings_release(&fs);
	free(f);
	rc = o.nfail ? EXIT_ERRORS : o.nwarn ? EXIT_WARNINGS : EXIT_HEALTHY;
	if (o.nfail) {
		str_fmt(reason, sizeof(reason), "%s", o.fail[0]);
		if (o.nfail > 1)
			str_fmt(reason + strlen(reason), sizeof(reason) - strlen(reason), " (+%d more)", o.nfail - 1);
	} else {
		reason[0] = '\0';
	}

	if (slurm) {
		node_name(node_opt, node, sizeof(node));
		if (slurm_show(scontrol, node, &sn, why, sizeof(why)) < 0) {
			fprintf(stderr, "gpudoctor check: %s\n", why);
			return EXIT_TOOL_FAILED;
		}
		have_node = true;
		if (o.nfail) {
			if (sn.drained && strncmp(sn.reason, SLURM_REASON_PREFIX, strlen(SLURM_REASON_PREFIX))) {
				action = "left alone: drained by someone else";
			} else if (slurm_drain(scontrol, node, reason, why, sizeof(why)) < 0) {
				fprintf(stderr, "gpudoctor check: %s\n", why);
				return EXIT_TOOL_FAILED;
			} else {
				action = "drained";
			}
		} else if (sn.drained && !strncmp(sn.reason, SLURM_REASON_PREFIX, strlen(SLURM_REASON_PREFIX))) {
			if (slurm_resume(scontrol, node, why, sizeof(why)) < 0) {
				fprintf(stderr, "gpudoctor check: %s\n", why);
				return EXIT_TOOL_FAILED;
			}
			action = "resumed";
		}
	}
	if (json) {
		json_t *doc = json_pack("{s:s,s:b,s:o,s:o}", "schema", "gpudoctor/check/1", "healthy", !o.nfail, "gpus",
					o.gpus < 0 ? json_null() : json_integer(o.gpus), "expected_gpus",
					o.expected < 0 ? json_null() : json_integer(o.expected));
		json_t *fa = json_array(), *wa = json_array();
		for (i = 0; i < o.nfail; i++)
			json_array_append_new(fa, json_string(o.fail[i]));
		for (i = 0; i < o.nwarn; i++)
			json_array_append_new(wa, json_string(o.warn[i]));
		json_object_set_new(doc, "failures", fa);
		json_object_set_new(doc, "warnings", wa);
		json_object_set_new(doc, "slurm", have_node ? json_pack("{s:s,s:s,s:s,s:s}", "node", node, "state_before", sn.state,
									 "reason_before", sn.reason, "action", action)
							     : json_null());
		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_ENSURE_ASCII);
		fputc('\n', stdout);
		json_decref(doc);
	} else {
		if (o.nfail)
			printf("gpudoctor check: FAILED: %s\n", reason);
		else
			printf("gpudoctor check: healthy (%d GPU%s%s)\n", o.gpus < 0 ? 0 : o.gpus, o.gpus == 1 ? "" : "s",
			       o.nwarn ? ", with warnings" : "");
		for (i = 1; i < o.nfail; i++)
			printf("  also: %s\n", o.fail[i]);
		for (i = 0; i < o.nwarn; i++)
			printf("  warning: %s\n", o.warn[i]);
		if (have_node && strcmp(action, "none"))
			printf("slurm: node %s %s%s%s%s\n", node, action, sn.reason[0] ? " (its reason was: " : "",
			       sn.reason, sn.reason[0] ? ")" : "");
	}
	return rc;
}
