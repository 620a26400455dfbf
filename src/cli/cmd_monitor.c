/*
 * cmd_monitor.c - `gpudoctor top` (a live view of every GPU and the
 * processes on it) and `gpudoctor watch` (the same sampler without a
 * screen: alert rules that run a command when they fire, and a health
 * check for cron). They share their options and their run
 * (monitor/session.h); docs/top.md describes both.
 */
#include "cli/command.h"
#include "base/str.h"
#include "monitor/session.h"
#include "probe/probe.h"
#include "render/render.h"
#include "sys/root.h"
#include "sys/trust.h"

#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested;

static void
on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void
top_usage(FILE *out)
{
	fprintf(out,
		"usage: gpudoctor top [OPTIONS]\n\n"
		"A live view of every NVIDIA GPU and the processes using it: utilization with\n"
		"its recent history, memory, temperature, power, clocks and why they are held\n"
		"down, ECC errors, the PCIe link; per process its user, command, GPU memory and\n"
		"SM share, and STALE when it is gone or a zombie but still holds memory (with\n"
		"the command that would end the hold: top itself never kills). Alert rules\n"
		"are judged as in `gpudoctor watch`. Keys: q quit, ? help, s sort.\n"
		"When the output is not a terminal, one line per GPU and sample.\n\n"
		"Options:\n"
		"  --interval SECONDS  time between samples (default 1; 0.05 to 3600)\n"
		"  --count N           stop after N samples\n"
		"  --once              one sample, as text (with --json or --csv: one record)\n"
		"  --json              one JSON object per sample, a line each (docs/json.md)\n"
		"  --csv               CSV rows, one per GPU and sample\n"
		"  --rule RULE         an alert rule (repeatable; default: the rules in\n"
		"                      gpudoctor watch --help)\n"
		"  --exec CMD          run CMD (with /bin/sh) when a rule fires\n"
		"  --exec-timeout S    time limit of CMD (default 10)\n"
		"  --kmsg FILE         read Xid lines from FILE instead of /dev/kmsg\n"
		"  --timeout SECONDS   how long NVML may take to start (default 10)\n"
		"  --pid-namespace NS  auto (default), host or private: whether this process\n"
		"                      sees the host's PIDs (NVML's); in a private one, a PID\n"
		"                      missing here is outside the container, not stale\n"
		"  --root DIR          with --load-root: sample the NVML found in the fixture\n"
		"  --load-root         tree DIR (tests with a mock library)\n"
		"  --color WHEN        auto (default), always or never; NO_COLOR is honoured\n"
		"  -h, --help          show this help\n\n"
		"Exit status: 0 no rule fired, 1 a warning rule fired, 2 an error rule fired\n"
		"or no GPU can be sampled (the message says why), 3 bad usage.\n");
}

static void
watch_usage(FILE *out)
{
	fprintf(out,
		"usage: gpudoctor watch [OPTIONS]\n\n"
		"Sample every NVIDIA GPU without a screen and judge alert rules on each\n"
		"sample; print a line when a rule fires and when it clears, and run --exec\n"
		"CMD once per firing, with the facts in GPUDOCTOR_* environment variables\n"
		"and as JSON on its standard input (docs/top.md). With --once or --count it\n"
		"is a health check: the exit status says the worst rule that fired.\n\n"
		"Rules: KIND [OP VALUE[UNIT]] [for DURATION] [as error|warning]\n"
		"  temp>=85 for 30s     mem>=95%%     power>=98%% for 1m     power_throttle for 10s\n"
		"  ecc_uncorrected>0    stale_process    xid    xid==79    gpu_lost as error\n"
		"Kinds:\n%s"
		"Default rules (when no --rule is given): temp>=85 for 30s, mem>=95%%,\n"
		"hw_slowdown for 10s, ecc_uncorrected>0, remap_failure, stale_process, xid,\n"
		"gpu_lost.\n\n"
		"Options:\n"
		"  --rule RULE         an alert rule (repeatable)\n"
		"  --exec CMD          run CMD (with /bin/sh) when a rule fires\n"
		"  --exec-timeout S    time limit of CMD, then it is killed (default 10)\n"
		"  --interval SECONDS  time between samples (default 1; 0.05 to 3600)\n"
		"  --count N           stop after N samples\n"
		"  --once              one sample: is any rule's condition true now ('for'\n"
		"                      durations count as met)\n"
		"  --json              events as JSON lines (schema gpudoctor/alert/1)\n"
		"  --kmsg FILE         read Xid lines from FILE instead of /dev/kmsg\n"
		"  --timeout SECONDS   how long NVML may take to start (default 10)\n"
		"  --pid-namespace NS  auto (default), host or private: whether this process\n"
		"                      sees the host's PIDs (NVML's); in a private one, a PID\n"
		"                      missing here is outside the container, not stale\n"
		"  --root DIR          with --load-root: sample the NVML found in the fixture\n"
		"  --load-root         tree DIR (tests with a mock library)\n"
		"  --color WHEN        auto (default), always or never; NO_COLOR is honoured\n"
		"  -h, --help          show this help\n\n"
		"Exit status: 0 no rule fired, 1 a warning rule fired, 2 an error rule fired\n"
		"or no GPU can be sampled (the message says why), 3 bad usage.\n",
		alert_kinds_text());
}

/* Why sampling cannot start, in words a user can act on. */
static void
explain_failure(const char *cmd, const struct mon_session *s)
{
	const char *e = s->stream.error;

	fprintf(stderr, "gpudoctor %s: no GPU can be sampled: %s\n", cmd, e);
	if (strstr(e, "cannot open shared object") || strstr(e, "LIBRARY_NOT_FOUND"))
		fprintf(stderr, "  NVML (libnvidia-ml.so.1) comes with the NVIDIA driver, which is not installed or not "
				"on the loader's path. gpudoctor doctor says why.\n");
	else if (strstr(e, "/stubs/") || strstr(s->stream.error, "stub"))
		fprintf(stderr, "  that is the CUDA toolkit's stub library, made for linking only: take its stubs "
				"directory out of LD_LIBRARY_PATH.\n");
	else if (strstr(e, "LIB_RM_VERSION_MISMATCH"))
		fprintf(stderr, "  the driver library and the loaded kernel module are different versions (a driver "
				"update without a reboot): reboot, or reload the nvidia modules.\n");
	else if (strstr(e, "DRIVER_NOT_LOADED"))
		fprintf(stderr, "  the nvidia kernel module is not loaded: gpudoctor doctor says why (Secure Boot, a "
				"kernel update, nouveau).\n");
	else if (strstr(e, "NO_PERMISSION"))
		fprintf(stderr, "  no permission on /dev/nvidia*: check the device files' group and your groups.\n");
	else
		fprintf(stderr, "  gpudoctor doctor says what is wrong with the driver.\n");
}

enum mode { M_SCREEN, M_LINES, M_TEXT_ONCE, M_JSON, M_CSV, M_EVENTS, M_EVENTS_JSON };

static int
run(const char *cmd, bool is_top, int argc, char **argv)
{
	enum { O_INTERVAL = 256, O_COUNT, O_ONCE, O_JSON, O_CSV, O_RULE, O_EXEC, O_EXEC_TIMEOUT, O_KMSG, O_TIMEOUT,
	       O_ROOT, O_LOAD_ROOT, O_COLOR, O_PIDNS };
	static const struct option longopts[] = {
		{"interval", required_argument, NULL, O_INTERVAL}, {"count", required_argument, NULL, O_COUNT},
		{"once", no_argument, NULL, O_ONCE},               {"json", no_argument, NULL, O_JSON},
		{"csv", no_argument, NULL, O_CSV},                 {"rule", required_argument, NULL, O_RULE},
		{"exec", required_argument, NULL, O_EXEC},         {"exec-timeout", required_argument, NULL, O_EXEC_TIMEOUT},
		{"kmsg", required_argument, NULL, O_KMSG},         {"timeout", required_argument, NULL, O_TIMEOUT},
		{"root", required_argument, NULL, O_ROOT},         {"load-root", no_argument, NULL, O_LOAD_ROOT},
		{"color", required_argument, NULL, O_COLOR},       {"help", no_argument, NULL, 'h'},
		{"pid-namespace", required_argument, NULL, O_PIDNS},
		{NULL, 0, NULL, 0},
	};
	static struct alert_set alerts;
	struct mon_opts o;
	struct mon_session s;
	const char *root = NULL, *color = "auto";
	bool load_root = false, once = false, json = false, csv = false, use_color;
	char err[300], *end;
	enum mode mode;
	int c, i, rc = 0, r, ngpus;
	struct sigaction sa;

	memset(&alerts, 0, sizeof(alerts));
	memset(&o, 0, sizeof(o));
	STR_COPY(o.sampler.nvml, "libnvidia-ml.so.1");
	o.sampler.interval_ms = 1000;
	o.start_timeout_ms = 10000;
	o.exec_timeout_ms = 10000;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case O_INTERVAL:
			if (cli_seconds(cmd, "--interval", optarg, 0.05, 3600, &o.sampler.interval_ms) < 0)
				return EXIT_TOOL_FAILED;
			break;
		case O_COUNT:
			o.count = strtoll(optarg, &end, 10);
			if (!optarg[0] || *end || o.count < 1) {
				fprintf(stderr, "gpudoctor %s: --count: '%s' is not a whole number of samples from 1\n", cmd,
					optarg);
				return EXIT_TOOL_FAILED;
			}
			break;
		case O_ONCE:
			once = true;
			break;
		case O_JSON:
			json = true;
			break;
		case O_CSV:
			if (!is_top) {
				fprintf(stderr, "gpudoctor watch: --csv is top's (gpudoctor top --csv)\n");
				return EXIT_TOOL_FAILED;
			}
			csv = true;
			break;
		case O_RULE:
			if (alerts.nrules >= ALERT_MAX_RULES) {
				fprintf(stderr, "gpudoctor %s: --rule: at most %d rules\n", cmd, ALERT_MAX_RULES);
				return EXIT_TOOL_FAILED;
			}
			if (alert_parse(optarg, &alerts.rules[alerts.nrules], err, sizeof(err)) < 0) {
				fprintf(stderr, "gpudoctor %s: --rule %s\n", cmd, err);
				return EXIT_TOOL_FAILED;
			}
			alerts.nrules++;
			break;
		case O_EXEC:
			if (!optarg[0]) {
				fprintf(stderr, "gpudoctor %s: --exec: the command is empty\n", cmd);
				return EXIT_TOOL_FAILED;
			}
			o.exec = optarg;
			break;
		case O_EXEC_TIMEOUT:
			if (cli_seconds(cmd, "--exec-timeout", optarg, 0.01, 3600, &o.exec_timeout_ms) < 0)
				return EXIT_TOOL_FAILED;
			break;
		case O_KMSG:
			o.kmsg = optarg;
			break;
		case O_TIMEOUT:
			if (cli_seconds(cmd, "--timeout", optarg, 0.1, 600, &o.start_timeout_ms) < 0)
				return EXIT_TOOL_FAILED;
			break;
		case O_ROOT:
			root = optarg;
			break;
		case O_LOAD_ROOT:
			load_root = true;
			break;
		case O_PIDNS:
			if (!strcmp(optarg, "auto"))
				o.pid_ns = MON_PIDNS_AUTO;
			else if (!strcmp(optarg, "host"))
				o.pid_ns = MON_PIDNS_HOST;
			else if (!strcmp(optarg, "private"))
				o.pid_ns = MON_PIDNS_PRIVATE;
			else {
				fprintf(stderr, "gpudoctor %s: --pid-namespace wants auto, host or private, not '%s'\n",
					cmd, optarg);
				return EXIT_TOOL_FAILED;
			}
			break;
		case O_COLOR:
			if (cli_color(optarg) < 0)
				return EXIT_TOOL_FAILED;
			color = optarg;
			break;
		case 'h':
			if (is_top)
				top_usage(stdout);
			else
				watch_usage(stdout);
			return EXIT_HEALTHY;
		default:
			cli_option_error(cmd, c, argv);
			return EXIT_TOOL_FAILED;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "gpudoctor %s: unexpected argument '%s' (see gpudoctor %s --help)\n", cmd, argv[optind],
			cmd);
		return EXIT_TOOL_FAILED;
	}
	if (json && csv) {
		fprintf(stderr, "gpudoctor top: --json and --csv: choose one\n");
		return EXIT_TOOL_FAILED;
	}
	if (once && o.count) {
		fprintf(stderr, "gpudoctor %s: --once and --count: choose one\n", cmd);
		return EXIT_TOOL_FAILED;
	}
	if (load_root != (root != NULL)) {
		fprintf(stderr, "gpudoctor %s: --root and --load-root go together (%s samples the tree's NVML)\n", cmd,
			cmd);
		return EXIT_TOOL_FAILED;
	}
	if (root && cli_fixture_nvml(cmd, root, o.sampler.nvml, sizeof(o.sampler.nvml)) < 0)
		return EXIT_TOOL_FAILED;
	if (once) {
		o.count = 1;
		alerts.ignore_durations = true;
	}
	if (!alerts.nrules)
		alert_defaults(&alerts);
	for (i = 0; i < alerts.nrules; i++)
		if (!strcmp(alert_kind_name(&alerts.rules[i]), "xid"))
			o.want_xid = true;
	o.sampler.slow_every = o.sampler.interval_ms >= 5000 ? 1 : 5000 / o.sampler.interval_ms;
	o.sampler.pcie_ms = 10000;
	if (is_top)
		mode = json ? M_JSON : csv ? M_CSV : once ? M_TEXT_ONCE : isatty(STDOUT_FILENO) && isatty(STDIN_FILENO)
			? M_SCREEN : M_LINES;
	else
		mode = json ? M_EVENTS_JSON : M_EVENTS;
	o.quiet_hooks = mode == M_SCREEN;
	use_color = mode != M_SCREEN && render_want_color(color, stdout);

	/* stop cleanly on Ctrl-C and TERM: the sampler and the hooks go too */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	mon_session_start(&s, &o, &alerts);
	if (mode == M_SCREEN) {
		rc = mon_tui_run(&s, o.sampler.interval_ms, &stop_requested);
		if (rc == 2 && s.stream.error[0])
			explain_failure(cmd, &s);
		mon_session_end(&s);
		return rc;
	}
	if (mode == M_CSV)
		mon_csv_header(stdout);
	while (!stop_requested) {
		r = mon_session_next(&s, 200);
		if (r < 0) {
			explain_failure(cmd, &s);
			mon_session_end(&s);
			return EXIT_ERRORS;
		}
		if (r == 0)
			continue;
		switch (mode) {
		case M_JSON: {
			json_t *doc = mon_sample_json(&s);
			json_dumpf(doc, stdout, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(6));
			fputc('\n', stdout);
			json_decref(doc);
			break;
		}
		case M_CSV:
			mon_csv_rows(stdout, &s);
			break;
		case M_TEXT_ONCE:
			mon_text_snapshot(stdout, &s, use_color);
			break;
		case M_LINES:
			mon_text_lines(stdout, &s, s.taken == 1);
			break;
		case M_EVENTS_JSON:
			for (i = 0; i < s.nevents; i++) {
				json_t *ev = alert_event_json(&alerts, &s.events[i], s.cur, s.hostname);
				json_dumpf(ev, stdout, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(6));
				fputc('\n', stdout);
				json_decref(ev);
			}
			for (i = 0; i < s.nnotes; i++) {
				json_t *n = json_pack("{s:s,s:s}", "schema", "gpudoctor/alert/1", "note", s.notes[i]);
				json_dumpf(n, stdout, JSON_COMPACT | JSON_ENSURE_ASCII);
				fputc('\n', stdout);
				json_decref(n);
			}
			break;
		default:
			for (i = 0; i < s.nevents; i++)
				mon_text_event(stdout, &s, &s.events[i], use_color);
			for (i = 0; i < s.nnotes; i++)
				printf("note: %s\n", s.notes[i]);
			break;
		}
		s.nnotes = 0;
		fflush(stdout);
		if (o.count > 0 && s.taken >= o.count)
			break;
	}
	ngpus = s.cur->ngpus;
	mon_session_end(&s);
	/* what the hooks said after the last sample */
	for (i = 0; i < s.nnotes; i++) {
		if (mode == M_EVENTS_JSON) {
			json_t *n = json_pack("{s:s,s:s}", "schema", "gpudoctor/alert/1", "note", s.notes[i]);
			json_dumpf(n, stdout, JSON_COMPACT | JSON_ENSURE_ASCII);
			fputc('\n', stdout);
			json_decref(n);
		} else {
			fprintf(mode == M_EVENTS ? stdout : stderr, "note: %s\n", s.notes[i]);
		}
	}
	if (mode == M_EVENTS && alerts.worst == 0 && o.count > 0)
		printf("%s: no rule fired on %d GPU%s in %lld sample%s\n", s.hostname, ngpus, ngpus == 1 ? "" : "s",
		       (long long)o.count, o.count == 1 ? "" : "s");
	return alerts.worst;
}

int
cmd_top(int argc, char **argv)
{
	return run("top", true, argc, argv);
}

int
cmd_watch(int argc, char **argv)
{
	return run("watch", false, argc, argv);
}
