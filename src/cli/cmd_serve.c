/*
 * cmd_serve.c - `gpudoctor serve`: a Prometheus exporter for this machine.
 * GPU samples on a timer through top's sampler, the whole doctor every few
 * minutes (and on SIGHUP), each turned into a snapshot that the HTTP
 * server hands out (serve/serve.h): /metrics, /facts (the doctor --json
 * document) and / (a page for people). With --textfile DIR it writes the
 * same metrics atomically for node_exporter's textfile collector instead.
 */
#include "cli/command.h"
#include "base/str.h"
#include "diag/rule.h"
#include "probe/probe.h"
#include "render/facts_json.h"
#include "serve/serve.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_LISTEN "127.0.0.1:9446"

static volatile sig_atomic_t stop_requested, doctor_requested;

static void
on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void
on_hup(int sig)
{
	(void)sig;
	doctor_requested = 1;
}

static void
serve_usage(FILE *out)
{
	fprintf(out,
		"usage: gpudoctor serve [OPTIONS]\n\n"
		"A Prometheus exporter for this machine's GPUs. /metrics carries the GPU\n"
		"figures under dcgm-exporter's names (DCGM_FI_DEV_GPU_TEMP, _POWER_USAGE,\n"
		"_FB_USED, ... with its labels), so NVIDIA's Grafana dashboard and alert rules\n"
		"work unchanged, and gpudoctor's knowledge under gpudoctor_*: each finding, the\n"
		"driver and framework builds, the last bench, the sampler's health. /facts is\n"
		"the doctor --json document, / a page for people. GPUs are sampled on a timer\n"
		"and doctor runs every few minutes (and on SIGHUP); a scrape only copies the\n"
		"last snapshot. Read-only; binds 127.0.0.1 unless --listen says otherwise.\n\n"
		"Options:\n"
		"  --listen ADDR:PORT   where to listen (default " DEFAULT_LISTEN "; :9446 is every\n"
		"                       interface, [::1]:9446 IPv6)\n"
		"  --interval SECONDS   GPU samples (default 5)\n"
		"  --doctor-interval S  the whole doctor (default 300)\n"
		"  --web-config FILE    TLS and basic auth, in the Prometheus exporters' format\n"
		"                       (tls_server_config, basic_auth_users with bcrypt hashes)\n"
		"  --max-connections N  at once (default 64)\n"
		"  --textfile DIR       no server: write DIR/gpudoctor.prom atomically after each\n"
		"                       sample, for node_exporter's textfile collector\n"
		"  --once               with --textfile: one sample and one doctor, then exit\n"
		"  --bench FILE         a `gpudoctor bench --json` document to export\n"
		"  --kmsg FILE          read Xid lines from FILE instead of /dev/kmsg\n"
		"  --timeout SECONDS    NVML's start and each doctor child (default 10)\n"
		"  --list-metrics       print every metric family (name, type, help) and exit\n"
		"  --root DIR           with --load-root: a fixture tree and its mock NVML\n"
		"  --load-root          (tests)\n"
		"  -h, --help           show this help\n\n"
		"Exit status: 0 stopped by a signal (or --once written), 3 bad usage or it\n"
		"cannot listen or write. docs/deploy.md shows Kubernetes, systemd and Slurm use.\n");
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct doctor_run {
	struct facts *f;
	struct findings fs;
	bool have;
	char *json;
};

static void
run_doctor(struct doctor_run *d, const char *root, const struct probe_opts *po, struct serve_status *st)
{
	struct facts *f = malloc(sizeof(*f));
	double t0 = now_s();
	json_t *doc;

	if (!f)
		return;
	if (cli_facts(NULL, root, po, f) < 0) {
		free(f);
		return;
	}
	if (d->have) {
		findings_release(&d->fs);
		free(d->f);
		free(d->json);
	}
	d->f = f;
	findings_init(&d->fs);
	rules_run(f, &d->fs);
	doc = facts_to_json(f, &d->fs);
	d->json = json_dumps(doc, JSON_INDENT(2) | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(6));
	json_decref(doc);
	facts_clean_text(f); /* names shown to people and in label values */
	d->have = true;
	st->facts = d->f;
	st->findings = &d->fs;
	st->doctor_time = now_s();
	st->doctor_seconds = st->doctor_time - t0;
}

/* Write DIR/gpudoctor.prom atomically (a temporary file, then rename). */
static int
write_textfile(const char *dir, const struct buf *b)
{
	char tmp[4096], dst[4096];
	FILE *fp;

	str_fmt(tmp, sizeof(tmp), "%s/.gpudoctor.prom.%ld", dir, (long)getpid());
	str_fmt(dst, sizeof(dst), "%s/gpudoctor.prom", dir);
	if (!(fp = fopen(tmp, "w"))) {
		fprintf(stderr, "gpudoctor serve: cannot write '%s': %s\n", tmp, strerror(errno));
		return -1;
	}
	if (fwrite(b->s, 1, b->len, fp) != b->len || fclose(fp) != 0 || rename(tmp, dst) < 0) {
		fprintf(stderr, "gpudoctor serve: cannot write '%s': %s\n", dst, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int
cmd_serve(int argc, char **argv)
{
	enum { O_LISTEN = 256, O_INTERVAL, O_DOCTOR, O_WEB, O_MAXCONN, O_TEXTFILE, O_ONCE, O_BENCH, O_KMSG,
	       O_TIMEOUT, O_ROOT, O_LOAD_ROOT, O_LIST };
	static const struct option longopts[] = {
		{"listen", required_argument, NULL, O_LISTEN},     {"interval", required_argument, NULL, O_INTERVAL},
		{"doctor-interval", required_argument, NULL, O_DOCTOR}, {"web-config", required_argument, NULL, O_WEB},
		{"max-connections", required_argument, NULL, O_MAXCONN},
		{"textfile", required_argument, NULL, O_TEXTFILE}, {"once", no_argument, NULL, O_ONCE},
		{"bench", required_argument, NULL, O_BENCH},       {"kmsg", required_argument, NULL, O_KMSG},
		{"timeout", required_argument, NULL, O_TIMEOUT},   {"root", required_argument, NULL, O_ROOT},
		{"load-root", no_argument, NULL, O_LOAD_ROOT},     {"help", no_argument, NULL, 'h'},
		{"list-metrics", no_argument, NULL, O_LIST},
		{NULL, 0, NULL, 0},
	};
	struct probe_opts po = {.timeout_ms = 10000};
	struct mon_opts mo;
	struct mon_session s;
	struct serve_status st;
	struct doctor_run d;
	struct web_config wc;
	struct serve_http *http = NULL;
	struct serve_http_opts ho = {.listen = DEFAULT_LISTEN, .max_connections = 64, .timeout_s = 10};
	const char *textfile = NULL, *root = NULL, *web = NULL, *bench = NULL;
	bool once = false, have_web = false;
	int doctor_ms = 300000, c, rc = 0, i;
	double next_doctor = 0;
	char err[400], *end;
	struct sigaction sa;
	struct stat sb;

	memset(&mo, 0, sizeof(mo));
	memset(&st, 0, sizeof(st));
	memset(&d, 0, sizeof(d));
	STR_COPY(mo.sampler.nvml, "libnvidia-ml.so.1");
	mo.sampler.interval_ms = 5000;
	mo.start_timeout_ms = 10000;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case O_LISTEN:
			ho.listen = optarg;
			break;
		case O_INTERVAL:
			if (cli_seconds("serve", "--interval", optarg, 0.1, 3600, &mo.sampler.interval_ms) < 0)
				return EXIT_TOOL_FAILED;
			break;
		case O_DOCTOR:
			if (cli_seconds("serve", "--doctor-interval", optarg, 10, 86400, &doctor_ms) < 0)
				return EXIT_TOOL_FAILED;
			break;
		case O_WEB:
			web = optarg;
			break;
		case O_MAXCONN:
			ho.max_connections = (int)strtol(optarg, &end, 10);
			if (!optarg[0] || *end || ho.max_connections < 1 || ho.max_connections > 10000) {
				fprintf(stderr, "gpudoctor serve: --max-connections: '%s' is not a whole number from 1 to 10000\n",
					optarg);
				return EXIT_TOOL_FAILED;
			}
			break;
		case O_TEXTFILE:
			textfile = optarg;
			break;
		case O_ONCE:
			once = true;
			break;
		case O_BENCH:
			bench = optarg;
			break;
		case O_KMSG:
			mo.kmsg = optarg;
			break;
		case O_TIMEOUT:
			if (cli_seconds("serve", "--timeout", optarg, 0.1, 600, &mo.start_timeout_ms) < 0)
				return EXIT_TOOL_FAILED;
			po.timeout_ms = mo.start_timeout_ms;
			break;
		case O_ROOT:
			root = optarg;
			break;
		case O_LOAD_ROOT:
			po.load_root = true;
			break;
		case O_LIST: {
			size_t n, k;
			const struct serve_family *fam = serve_families(&n);
			for (k = 0; k < n; k++)
				printf("%s %s %s\n", fam[k].name, fam[k].type, fam[k].help);
			return EXIT_HEALTHY;
		}
		case 'h':
			serve_usage(stdout);
			return EXIT_HEALTHY;
		default:
			cli_option_error("serve", c, argv);
			return EXIT_TOOL_FAILED;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "gpudoctor serve: unexpected argument '%s' (see gpudoctor serve --help)\n", argv[optind]);
		return EXIT_TOOL_FAILED;
	}
	if (once && !textfile) {
		fprintf(stderr, "gpudoctor serve: --once goes with --textfile\n");
		return EXIT_TOOL_FAILED;
	}
	if (textfile && (web || strcmp(ho.listen, DEFAULT_LISTEN))) {
		fprintf(stderr, "gpudoctor serve: --textfile writes a file and serves nothing: not with --listen or --web-config\n");
		return EXIT_TOOL_FAILED;
	}
	if (textfile && (stat(textfile, &sb) < 0 || !S_ISDIR(sb.st_mode))) {
		fprintf(stderr, "gpudoctor serve: --textfile '%s' is not a directory\n", textfile);
		return EXIT_TOOL_FAILED;
	}
	if (po.load_root != (root != NULL)) {
		fprintf(stderr, "gpudoctor serve: --root and --load-root go together\n");
		return EXIT_TOOL_FAILED;
	}
	if (root && cli_fixture_nvml("serve", root, mo.sampler.nvml, sizeof(mo.sampler.nvml)) < 0)
		return EXIT_TOOL_FAILED;
	if (web) {
		if (web_config_load(web, &wc, err, sizeof(err)) < 0) {
			fprintf(stderr, "gpudoctor serve: --web-config %s\n", err);
			return EXIT_TOOL_FAILED;
		}
		have_web = true;
		ho.web = &wc;
	}
	if (bench && !(st.bench = cli_bench_doc("serve", bench)))
		return EXIT_TOOL_FAILED;
	mo.sampler.slow_every = mo.sampler.interval_ms >= 5000 ? 1 : 5000 / mo.sampler.interval_ms;
	mo.sampler.pcie_ms = 10000;
	mo.want_xid = true;
	mo.quiet_hooks = true;
	st.version = GPUDOCTOR_VERSION;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_hup;
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (!textfile) {
		if (!(http = serve_http_start(&ho, err, sizeof(err)))) {
			fprintf(stderr, "gpudoctor serve: %s\n", err);
			if (have_web)
				web_config_release(&wc);
			json_decref(st.bench);
			return EXIT_TOOL_FAILED;
		}
		fprintf(stderr, "gpudoctor serve: listening on %s%s\n", ho.listen, wc.cert_pem && have_web ? " (TLS)" : "");
	}
	mon_session_start(&s, &mo, NULL);
	st.kmsg_readable = s.kmsg.fd >= 0;
	while (!stop_requested) {
		bool changed = false;
		int r;

		if (doctor_requested || now_s() >= next_doctor) {
			doctor_requested = 0;
			run_doctor(&d, root, &po, &st);
			next_doctor = now_s() + doctor_ms / 1e3;
			if (http && d.json) {
				serve_http_publish(http, "/facts", d.json, strlen(d.json));
				d.json = NULL;
			}
			changed = true;
		}
		r = st.sampler_error ? 0 : mon_session_next(&s, 200);
		if (r > 0) {
			st.have_sample = true;
			st.sample_time = s.cur->wall;
			for (i = 0; i < s.nxids; i++)
				if (s.xids[i].gpu >= 0 && s.xids[i].gpu < MON_MAX_GPUS)
					st.last_xid[s.xids[i].gpu] = s.xids[i].code;
			s.nnotes = 0;
			changed = true;
		} else if (r < 0) {
			st.sampler_error = s.stream.error;
			st.have_sample = false;
			fprintf(stderr, "gpudoctor serve: no GPU can be sampled: %s\n", s.stream.error);
			changed = true;
		} else if (st.sampler_error) {
			usleep(200000);
		}
		st.sampler_restarts = s.stream.restarts;
		if (changed) {
			struct buf b;
			buf_init(&b);
			serve_metrics(&b, &s, &st);
			if (textfile) {
				if (write_textfile(textfile, &b) < 0) {
					buf_release(&b);
					rc = EXIT_TOOL_FAILED;
					break;
				}
				buf_release(&b);
				if (once && (st.have_sample || st.sampler_error) && d.have)
					break;
			} else {
				serve_http_publish(http, "/metrics", b.s, b.len);
				buf_init(&b);
				serve_page(&b, &s, &st);
				serve_http_publish(http, "/", b.s, b.len);
				buf_init(&b);
				buf_adds(&b, "OK\n");
				serve_http_publish(http, "/-/healthy", b.s, b.len);
			}
		}
	}
	if (http) {
		unsigned long ok, refused;
		serve_http_counts(http, &ok, &refused);
		serve_http_stop(http);
		fprintf(stderr, "gpudoctor serve: stopped after %lu requests answered, %lu refused\n", ok, refused);
	}
	mon_session_end(&s);
	if (d.have) {
		findings_release(&d.fs);
		free(d.f);
		free(d.json);
	}
	if (have_web)
		web_config_release(&wc);
	json_decref(st.bench);
	return rc;
}
