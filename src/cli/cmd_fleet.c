/*
 * cmd_fleet.c - `gpudoctor fleet`: one table of many nodes, from a
 * Prometheus server that scrapes `gpudoctor serve` (--prom URL) or from
 * facts documents collected any way (--facts DIR|FILE...), with the
 * outliers marked (fleet/fleet.h). Text or --json.
 */
#include "cli/command.h"
#include "fleet/fleet.h"
#include "render/render.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
fleet_usage(FILE *out)
{
	fprintf(out,
		"usage: gpudoctor fleet --prom URL [OPTIONS]\n"
		"       gpudoctor fleet --facts DIR|FILE... [OPTIONS]\n\n"
		"One table of many nodes: host, GPUs (against the expected count), model,\n"
		"driver, CUDA, the hottest GPU, mean utilization, memory, the last Xid, the\n"
		"worst PCIe link, the bf16 GEMM bench, findings by severity and the age of the\n"
		"data; outliers marked: a GPU missing, a driver other than the fleet's most\n"
		"common, a bench below 0.9 x the fleet's median, uncorrected ECC errors, Xid\n"
		"errors, throttling, a degraded PCIe link, error findings, old data.\n\n"
		"Inputs:\n"
		"  --prom URL          a Prometheus server that scrapes gpudoctor serve (its\n"
		"                      HTTP API; libcurl is loaded to reach it)\n"
		"  --facts PATH...     facts documents (gpudoctor doctor --json), files or\n"
		"                      directories of *.json, e.g. written by a Slurm prolog\n"
		"Options:\n"
		"  --prom-user U:P     basic auth for --prom (or GPUDOCTOR_PROM_USERPWD)\n"
		"  --expect-gpus N     GPUs every node should have (default: the PCI count)\n"
		"  --max-age SECONDS   data older than this is an outlier (default 900)\n"
		"  --timeout SECONDS   for each Prometheus query (default 10)\n"
		"  --json              the table as JSON (schema gpudoctor/fleet/1)\n"
		"  --color WHEN        auto (default), always or never\n"
		"  -h, --help          show this help\n\n"
		"Exit status: 0 no outlier, 1 outliers, 2 a node not answering or with a GPU\n"
		"missing, errors, uncorrected ECC or Xid errors, 3 bad usage or input.\n");
}

static bool
serious(const char *flag)
{
	static const char *const worst[] = {"not answering", "GPU missing", "errors", "uncorrected ECC", "Xid", NULL};
	int i;

	for (i = 0; worst[i]; i++)
		if (!strcmp(flag, worst[i]))
			return true;
	return false;
}

int
cmd_fleet(int argc, char **argv)
{
	enum { O_PROM = 256, O_FACTS, O_USER, O_EXPECT, O_AGE, O_TIMEOUT, O_JSON, O_COLOR };
	static const struct option longopts[] = {
		{"prom", required_argument, NULL, O_PROM},       {"facts", no_argument, NULL, O_FACTS},
		{"prom-user", required_argument, NULL, O_USER},  {"expect-gpus", required_argument, NULL, O_EXPECT},
		{"max-age", required_argument, NULL, O_AGE},     {"timeout", required_argument, NULL, O_TIMEOUT},
		{"json", no_argument, NULL, O_JSON},             {"color", required_argument, NULL, O_COLOR},
		{"help", no_argument, NULL, 'h'},                {NULL, 0, NULL, 0},
	};
	struct fleet f;
	const char *prom = NULL, *user = getenv("GPUDOCTOR_PROM_USERPWD"), *color = "auto";
	bool facts = false, json = false;
	int c, i, k, rc = 0, timeout_ms = 10000;
	char err[600], *end;

	memset(&f, 0, sizeof(f));
	f.max_age_s = 900;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case O_PROM:
			prom = optarg;
			break;
		case O_FACTS:
			facts = true;
			break;
		case O_USER:
			user = optarg;
			break;
		case O_EXPECT:
			f.expect_gpus = (int)strtol(optarg, &end, 10);
			if (!optarg[0] || *end || f.expect_gpus < 1 || f.expect_gpus > 1024) {
				fprintf(stderr, "gpudoctor fleet: --expect-gpus: '%s' is not a whole number from 1 to 1024\n",
					optarg);
				return EXIT_TOOL_FAILED;
			}
			break;
		case O_AGE: {
			int ms;
			if (cli_seconds("fleet", "--max-age", optarg, 1, 1e7, &ms) < 0)
				return EXIT_TOOL_FAILED;
			f.max_age_s = ms / 1000.0;
			break;
		}
		case O_TIMEOUT:
			if (cli_seconds("fleet", "--timeout", optarg, 0.1, 600, &timeout_ms) < 0)
				return EXIT_TOOL_FAILED;
			break;
		case O_JSON:
			json = true;
			break;
		case O_COLOR:
			if (cli_color(optarg) < 0)
				return EXIT_TOOL_FAILED;
			color = optarg;
			break;
		case 'h':
			fleet_usage(stdout);
			return EXIT_HEALTHY;
		default:
			cli_option_error("fleet", c, argv);
			return EXIT_TOOL_FAILED;
		}
	}
	if (!prom == !facts) {
		fprintf(stderr, "gpudoctor fleet: give --prom URL or --facts PATH... (one of them)\n");
		return EXIT_TOOL_FAILED;
	}
	if (facts && optind >= argc) {
		fprintf(stderr, "gpudoctor fleet: --facts needs files or directories of facts documents\n");
		return EXIT_TOOL_FAILED;
	}
	if (prom && optind < argc) {
		fprintf(stderr, "gpudoctor fleet: unexpected argument '%s' (see gpudoctor fleet --help)\n", argv[optind]);
		return EXIT_TOOL_FAILED;
	}
	if (prom && strncmp(prom, "http://", 7) && strncmp(prom, "https://", 8)) {
		fprintf(stderr, "gpudoctor fleet: --prom wants an http:// or https:// URL, not '%s'\n", prom);
		return EXIT_TOOL_FAILED;
	}
	if ((facts ? fleet_from_facts(&f, argv + optind, argc - optind, err, sizeof(err))
		   : fleet_from_prom(&f, prom, user, timeout_ms, err, sizeof(err))) < 0) {
		fprintf(stderr, "gpudoctor fleet: %s\n", err);
		fleet_release(&f);
		return EXIT_TOOL_FAILED;
	}
	fleet_judge(&f);
	for (i = 0; i < f.n; i++)
		for (k = 0; k < f.nodes[i].nflags; k++)
			rc = serious(f.nodes[i].flags[k]) ? EXIT_ERRORS : rc > EXIT_WARNINGS ? rc : EXIT_WARNINGS;
	if (json) {
		json_t *o = fleet_json(&f);
		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(6));
		fputc('\n', stdout);
		json_decref(o);
	} else {
		fleet_text(stdout, &f, render_want_color(color, stdout));
	}
	fleet_release(&f);
	return rc;
}
