/*
 * cmd_bench.c - `gpudoctor bench`: measure the GPU (memory, matrix
 * multiplication) and the CPU's matrix multiplication, judge the figures
 * against the GPU model's datasheet and a measured reference, and say
 * what to do (bench/bench.h, bench/judge.h). Text with progress on a
 * terminal, or --json.
 */
#include "cli/command.h"
#include "bench/bench.h"
#include "bench/judge.h"
#include "base/clean.h"
#include "base/str.h"
#include "diag/finding.h"
#include "diag/rule.h"
#include "facts.h"
#include "probe/probe.h"
#include "render/facts_json.h"
#include "render/render.h"

#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
bench_usage(FILE *out)
{
	fprintf(out,
		"usage: gpudoctor bench [OPTIONS]\n\n"
		"Measure what this GPU delivers, against its datasheet and a measured\n"
		"reference for its model, and the CPU beside it: memory copies (device to\n"
		"device with a PTX kernel and with the copy engine, host to device and back,\n"
		"pinned and pageable), matrix multiplication in FP32, TF32, FP16, BF16 and\n"
		"FP8 through the cuBLASLt the machine's frameworks load, FP32 matrix\n"
		"multiplication on the CPU through its BLAS, and with two GPUs or more the\n"
		"copy engine between each pair and NCCL's all-reduce through the machine's\n"
		"libnccl. No CUDA toolkit, nvcc or Python is needed. Each test runs alone in\n"
		"a child process with a time limit.\n\n"
		"Options:\n"
		"  --tests LIST       comma-separated tests or groups (default all):\n"
		"                     memory, gemm, cpu, multi; d2d_kernel, d2d_copy,\n"
		"                     h2d_pinned, d2h_pinned, h2d_pageable, d2h_pageable,\n"
		"                     gemm_fp32, gemm_tf32, gemm_fp16, gemm_bf16, gemm_fp8,\n"
		"                     cpu_sgemm, p2p_copy, nccl_allreduce (multi: by\n"
		"                     default only with two GPUs or more)\n"
		"  --gpu N            the CUDA device to measure (default 0)\n"
		"  --size N           m = n = k of the GPU's matrices (default 8192)\n"
		"  --cpu-size N       m = n = k of the CPU's matrices (default 2048)\n"
		"  --copy-mib N       device-to-device buffer in MiB (default 1024; P2P copies\n"
		"                     at most 256, all-reduce messages up to it)\n"
		"  --host-mib N       host transfer buffer in MiB (default 256)\n"
		"  --timeout SECONDS  time limit of each test (default 60)\n"
		"  --root DIR         take the machine from DIR (a fixture tree); with\n"
		"  --load-root        load its driver and cuBLASLt (tests with mock libraries)\n"
		"  --json             print the results as JSON (docs/json.md)\n"
		"  --color WHEN       auto (default), always or never\n"
		"  -h, --help         show this help\n\n"
		"Exit status: 0 nothing to improve, 1 warnings, 2 errors (wrong results, a\n"
		"driver that cannot compile PTX), 3 bad usage.\n");
}

/* "memory,gemm_bf16" into a mask; -1 with a message on an unknown name. */
static int
parse_tests(const char *list, unsigned *mask)
{
	char buf[512], *tok, *save = NULL;
	int i, t;

	*mask = 0;
	STR_COPY(buf, list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool group = false;
		if (!strcmp(tok, "all")) {
			*mask = (1u << BENCH_NTESTS) - 1;
			continue;
		}
		for (i = 0; i < BENCH_NTESTS; i++)
			if (!strcmp(bench_tests[i].group, tok)) {
				*mask |= 1u << i;
				group = true;
			}
		if (group)
			continue;
		if ((t = bench_test_by_name(tok)) < 0) {
			fprintf(stderr, "gpudoctor bench: --tests: no test or group '%s' (see gpudoctor bench --help)\n",
				tok);
			return -1;
		}
		*mask |= 1u << t;
	}
	if (!*mask) {
		fprintf(stderr, "gpudoctor bench: --tests: the list is empty\n");
		return -1;
	}
	return 0;
}

static int
parse_int(const char *opt, const char *arg, int min, int max, int *out)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (!arg[0] || *end || v < min || v > max) {
		fprintf(stderr, "gpudoctor bench: %s: '%s' is not a whole number from %d to %d\n", opt, arg, min,
			max);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/* Why no GPU can be measured here, in a sentence; NULL when one can. */
static const char *
no_gpu(const struct facts *f, char *buf, size_t size)
{
	if (f->pci_valid && f->ngpus == 0) {
		str_copy(buf, size, "this machine has no NVIDIA GPU");
		return buf;
	}
	if (f->driver.cuda_state != CHILD_OK || (f->driver.cuinit_called && f->driver.cuinit_rc) ||
	    f->driver.cuda_device_count == 0) {
		str_fmt(buf, size, "CUDA cannot use a GPU here%s%s%s", f->driver.cuda_error[0] ? " (" : "",
			f->driver.cuda_error, f->driver.cuda_error[0] ? ")" : "");
		if (!f->driver.cuda_error[0] && f->driver.cuinit_called && f->driver.cuinit_rc)
			str_fmt(buf, size, "CUDA cannot use a GPU here (cuInit: %s)", f->driver.cuinit_name);
		return buf;
	}
	return NULL;
}

/* ---- mixed precision ------------------------------------------------ */

static const struct {
	int test;
	int cc;                          /* from this compute capability x10 on tensor cores */
	const char *torch, *keras, *jax;
} precisions[] = {
	{BENCH_GEMM_TF32, 80, "torch.backends.cuda.matmul.allow_tf32 = True  (or torch.set_float32_matmul_precision('high'))",
	 "TF32 is on by default (tf.config.experimental.enable_tensor_float_32_execution(True))",
	 "jax.config.update('jax_default_matmul_precision', 'tensorfloat32')"},
	{BENCH_GEMM_FP16, 70, "with torch.autocast('cuda', dtype=torch.float16): ... with torch.amp.GradScaler()",
	 "keras.mixed_precision.set_global_policy('mixed_float16')", "params and inputs as jnp.float16, with loss scaling"},
	{BENCH_GEMM_BF16, 80, "with torch.autocast('cuda', dtype=torch.bfloat16): ...",
	 "keras.mixed_precision.set_global_policy('mixed_bfloat16')", "params and inputs as jnp.bfloat16"},
	{BENCH_GEMM_FP8, 89, "NVIDIA Transformer Engine: with te.fp8_autocast(enabled=True): ...",
	 "not in Keras itself (NVIDIA Transformer Engine for TensorFlow, or JAX/PyTorch)",
	 "NVIDIA Transformer Engine for JAX (te.fp8_autocast)"},
};

static const struct bench_result *
result_of(const struct bench_result *r, int n, int test)
{
	int i;

	for (i = 0; i < n; i++)
		if (r[i].test == test && r[i].state == BENCH_OK)
			return &r[i];
	return NULL;
}

static int
cc_of(const struct bench_result *r, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (r[i].cc_major)
			return r[i].cc_major * 10 + r[i].cc_minor;
	return 0;
}

static json_t *
mixed_json(const struct bench_result *r, int n)
{
	const struct bench_result *fp32 = result_of(r, n, BENCH_GEMM_FP32), *x;
	json_t *a = json_array();
	int cc = cc_of(r, n);
	size_t i;

	for (i = 0; cc && i < sizeof(precisions) / sizeof(precisions[0]); i++) {
		x = result_of(r, n, precisions[i].test);
		json_array_append_new(
			a, json_pack("{s:s,s:b,s:o,s:s,s:s,s:s}", "precision", bench_tests[precisions[i].test].name + 5,
				     "tensor_cores", cc >= precisions[i].cc, "speedup_over_fp32",
				     fp32 && x && fp32->value > 0 ? json_real(x->value / fp32->value) : json_null(),
				     "pytorch", precisions[i].torch, "keras", precisions[i].keras, "jax",
				     precisions[i].jax));
	}
	return a;
}

static void
mixed_text(FILE *out, const struct bench_result *r, int n)
{
	const struct bench_result *fp32 = result_of(r, n, BENCH_GEMM_FP32), *x;
	int cc = cc_of(r, n);
	size_t i;

	if (!cc)
		return;
	fprintf(out, "\nMixed precision on compute capability %d.%d:\n", cc / 10, cc % 10);
	for (i = 0; i < sizeof(precisions) / sizeof(precisions[0]); i++) {
		const char *name = bench_tests[precisions[i].test].name + 5;
		x = result_of(r, n, precisions[i].test);
		if (cc < precisions[i].cc) {
			fprintf(out, "  %-5s no tensor cores for it on this GPU (from %d.%d)\n", name,
				precisions[i].cc / 10, precisions[i].cc % 10);
			continue;
		}
		if (fp32 && x && fp32->value > 0)
			fprintf(out, "  %-5s %.1fx FP32 here\n", name, x->value / fp32->value);
		else
			fprintf(out, "  %-5s tensor cores\n", name);
		fprintf(out, "        PyTorch: %s\n        Keras:   %s\n        JAX:     %s\n", precisions[i].torch,
			precisions[i].keras, precisions[i].jax);
	}
}

/* ---- output ----------------------------------------------------------- */

static json_t *
nvml_json(const struct bench_nvml *v)
{
	if (!v->samples)
		return json_null();
	return json_pack("{s:i,s:i,s:i,s:i,s:f,s:f,s:i,s:I}", "samples", v->samples, "sm_clock_min_mhz",
			 v->sm_clock_min, "sm_clock_max_mhz", v->sm_clock_max, "mem_clock_max_mhz", v->mem_clock_max,
			 "power_max_w", v->power_max_mw / 1000.0, "power_limit_w", v->power_limit_mw / 1000.0,
			 "temperature_max_c", v->temp_max, "clock_event_reasons", (json_int_t)v->reasons);
}

static json_t *
num_or_null(double v)
{
	return v > 0 ? json_real(v) : json_null();
}

/* p2p_copy's matrices, as CUDA's p2pBandwidthLatencyTest prints them
 * (rows copy from, columns to). */
static void
pair_matrices(FILE *out, const struct bench_result *x)
{
	int n = x->ngpus < BENCH_MAX_GPUS ? x->ngpus : BENCH_MAX_GPUS, a, b, k;
	bool staged = false;

	fprintf(out, "                %s\n", x->detail);
	for (k = 0; k < 2; k++) {
		fprintf(out, "                %-8s", k ? "us" : "GB/s");
		for (b = 0; b < n; b++)
			fprintf(out, " %7s%d", "GPU", b);
		fprintf(out, "\n");
		for (a = 0; a < n; a++) {
			fprintf(out, "                GPU%-5d", a);
			for (b = 0; b < n; b++) {
				if (a == b) {
					fprintf(out, " %8s", "X");
					continue;
				}
				staged |= !x->pair_peer[a][b];
				fprintf(out, " %7.*f%s", k ? 1 : 0, k ? x->pair_us[a][b] : x->pair_gbs[a][b],
					x->pair_peer[a][b] ? " " : "*");
			}
			fprintf(out, "\n");
		}
	}
	fprintf(out, "                (rows copy to columns: bandwidth, then the latency of a 4-byte copy)\n");
	if (staged)
		fprintf(out, "                (* no peer access: the driver staged the copy through host memory)\n");
}

/* nccl_allreduce's figure per message size, as nccl-tests names them. */
static void
nccl_sizes(FILE *out, const struct bench_result *x)
{
	int i;

	fprintf(out, "                %s\n", x->detail);
	fprintf(out, "                %10s %10s %10s\n", "size", "algbw", "busbw");
	for (i = 0; i < x->nsizes && i < BENCH_MAX_SIZES; i++)
		fprintf(out, "                %6.0f MiB %6.1f GB/s %6.1f GB/s\n", x->size_bytes[i] / 1048576.0,
			x->algbw[i], x->busbw[i]);
	if (x->library[0])
		fprintf(out, "                NCCL %s (%s)\n", x->library_version[0] ? x->library_version : "?",
			x->library);
}

/* The multi tests' figures in the JSON document. */
static void
multi_json(json_t *t, const struct bench_result *x)
{
	json_t *a;
	int i, k, n = x->ngpus < BENCH_MAX_GPUS ? x->ngpus : BENCH_MAX_GPUS;

	json_object_set_new(t, "gpus", json_integer(x->ngpus));
	if (x->test == BENCH_P2P_COPY) {
		a = json_array();
		for (i = 0; x->state == BENCH_OK && i < n; i++)
			for (k = 0; k < n; k++)
				if (i != k)
					json_array_append_new(a, json_pack("{s:i,s:i,s:f,s:f,s:b}", "from", i, "to", k,
									   "gbs", (double)x->pair_gbs[i][k],
									   "latency_us", (double)x->pair_us[i][k],
									   "peer_access", x->pair_peer[i][k]));
		json_object_set_new(t, "pairs", a);
	} else {
		a = json_array();
		for (i = 0; x->state == BENCH_OK && i < x->nsizes && i < BENCH_MAX_SIZES; i++)
			json_array_append_new(a, json_pack("{s:f,s:f,s:f}", "bytes", x->size_bytes[i], "algbw",
							   x->algbw[i], "busbw", x->busbw[i]));
		json_object_set_new(t, "sizes", a);
	}
}

/* How many GPUs CUDA numbers (with CUDA_VISIBLE_DEVICES applied). */
static int
cuda_gpus(const struct facts *f)
{
	int i, n = 0;

	for (i = 0; i < f->ngpus; i++)
		n += f->gpus[i].cuda_valid;
	return n;
}

static int
render_json_out(const struct facts *f, const struct bench_opts *o, const struct bench_result *r,
		const struct bench_judged *j, int n, const struct findings *fs, const char *nogpu)
{
	json_t *doc = json_object(), *tests = json_array();
	const struct gpu_facts *g = n ? bench_gpu(f, &r[0]) : NULL;
	int i, rc;

	json_object_set_new(doc, "schema", json_string("gpudoctor/bench/1"));
	json_object_set_new(doc, "gpu", nogpu ? json_null()
					      : json_pack("{s:i,s:s?,s:s?,s:s?}", "cuda_index", o->gpu, "name",
							  g ? g->name : NULL, "pci_bus_id", g ? g->pci_bus_id : NULL,
							  "compute_capability", g ? g->compute_capability : NULL));
	json_object_set_new(doc, "no_gpu", nogpu ? json_string(nogpu) : json_null());
	json_object_set_new(doc, "libraries",
			    json_pack("{s:s?,s:s?,s:s?}", "cublaslt", o->cublaslt[0] ? o->cublaslt : NULL, "blas",
				      o->blas[0] ? o->blas : NULL, "nccl", o->nccl[0] ? o->nccl : NULL));
	for (i = 0; i < n; i++) {
		const struct bench_result *x = &r[i];
		json_t *t = json_pack("{s:s,s:s,s:s,s:s}", "name", bench_tests[x->test].name, "group",
				      bench_tests[x->test].group, "state", bench_state_name(x->state), "unit",
				      bench_tests[x->test].unit);
		json_object_set_new(t, "value", x->state == BENCH_OK ? json_real(x->value) : json_null());
		json_object_set_new(t, "value_read_write", x->value_rw > 0 ? json_real(x->value_rw) : json_null());
		json_object_set_new(t, "best", x->state == BENCH_OK ? json_real(x->best) : json_null());
		json_object_set_new(t, "iterations", json_integer(x->iterations));
		json_object_set_new(t, "detail", json_string(x->detail));
		json_object_set_new(t, "verified", x->verified < 0 ? json_null() : json_boolean(x->verified));
		json_object_set_new(t, "verify", x->verify[0] ? json_string(x->verify) : json_null());
		json_object_set_new(t, "error", x->error[0] ? json_string(x->error) : json_null());
		json_object_set_new(t, "library", x->library[0] ? json_string(x->library) : json_null());
		json_object_set_new(t, "peak", num_or_null(j[i].peak));
		json_object_set_new(t, "peak_is", j[i].peak_what[0] ? json_string(j[i].peak_what) : json_null());
		json_object_set_new(t, "of_peak", j[i].peak > 0 ? json_real(j[i].figure / j[i].peak) : json_null());
		json_object_set_new(t, "reference", num_or_null(j[i].reference));
		json_object_set_new(t, "of_reference",
				    j[i].reference > 0 ? json_real(j[i].figure / j[i].reference) : json_null());
		json_object_set_new(t, "reference_source",
				    j[i].reference_source ? json_string(j[i].reference_source) : json_null());
		json_object_set_new(t, "nvml", nvml_json(&x->nvml));
		if (!strcmp(bench_tests[x->test].group, "multi"))
			multi_json(t, x);
		json_object_set_new(t, "ms", json_real(x->ms));
		json_array_append_new(tests, t);
	}
	json_object_set_new(doc, "tests", tests);
	json_object_set_new(doc, "mixed_precision", mixed_json(r, n));
	json_object_set_new(doc, "findings", findings_to_json(fs));
	rc = json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_ENSURE_ASCII);
	fputc('\n', stdout);
	json_decref(doc);
	return rc;
}

/* One test's line, printed as it finishes. */
static void
result_line(FILE *out, const struct bench_result *x, const struct bench_judged *j)
{
	char share[64] = "";

	if (x->state != BENCH_OK) {
		fprintf(out, "  %-13s %s: %s\n", bench_tests[x->test].name, bench_state_name(x->state), x->error);
		return;
	}
	if (j->reference > 0)
		str_fmt(share, sizeof(share), "  %3.0f %% of reference", 100 * j->figure / j->reference);
	else if (j->peak > 0)
		str_fmt(share, sizeof(share), "  %3.0f %% of peak", 100 * j->figure / j->peak);
	if (x->value_rw > 0)
		fprintf(out, "  %-13s %8.1f %s copied (%.0f read+write)%s\n", bench_tests[x->test].name, x->value,
			bench_tests[x->test].unit, x->value_rw, share);
	else
		fprintf(out, "  %-13s %8.1f %s%s\n", bench_tests[x->test].name, x->value, bench_tests[x->test].unit,
			share);
	if (x->verified == 0)
		fprintf(out, "                WRONG RESULTS: %s\n", x->verify);
	if (x->test == BENCH_P2P_COPY)
		pair_matrices(out, x);
	if (x->test == BENCH_NCCL_ALLREDUCE)
		nccl_sizes(out, x);
	/* NVML's software power cap: how a large GEMM runs, said, not judged */
	if (x->nvml.reasons & 0x4ull)
		fprintf(out, "                at the power limit (%d of %d W, SM clock down to %d MHz)\n",
			x->nvml.power_max_mw / 1000, x->nvml.power_limit_mw / 1000, x->nvml.sm_clock_min);
}

int
cmd_bench(int argc, char **argv)
{
	enum { O_TESTS = 256, O_GPU, O_SIZE, O_CPU_SIZE, O_COPY, O_HOST, O_TIMEOUT, O_JSON, O_COLOR, O_ROOT,
	       O_LOAD_ROOT };
	static const struct option longopts[] = {
		{"tests", required_argument, NULL, O_TESTS},   {"gpu", required_argument, NULL, O_GPU},
		{"size", required_argument, NULL, O_SIZE},     {"cpu-size", required_argument, NULL, O_CPU_SIZE},
		{"copy-mib", required_argument, NULL, O_COPY}, {"host-mib", required_argument, NULL, O_HOST},
		{"timeout", required_argument, NULL, O_TIMEOUT}, {"json", no_argument, NULL, O_JSON},
		{"color", required_argument, NULL, O_COLOR},   {"help", no_argument, NULL, 'h'},
		{"root", required_argument, NULL, O_ROOT},     {"load-root", no_argument, NULL, O_LOAD_ROOT},
		{NULL, 0, NULL, 0},
	};
	struct probe_opts po = {.timeout_ms = 5000};
	struct bench_opts o;
	struct bench_result r[BENCH_NTESTS];
	struct bench_judged j[BENCH_NTESTS];
	struct findings fs;
	struct facts *f;
	const char *color = "auto", *nogpu, *root = NULL;
	char why[256], show_lt[F_PATH], show_blas[F_PATH], show_nccl[F_PATH];
	bool json = false, tty, tests_given = false;
	int c, i, n = 0, rc, secs;

	bench_opts_init(&o);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case O_TESTS:
			if (parse_tests(optarg, &o.tests) < 0)
				return EXIT_TOOL_FAILED;
			tests_given = true;
			break;
		case O_GPU:
			if (parse_int("--gpu", optarg, 0, 1023, &o.gpu) < 0)
				return EXIT_TOOL_FAILED;
			break;
		case O_SIZE:
			if (parse_int("--size", optarg, 64, 65536, &o.gemm_n) < 0)
				return EXIT_TOOL_FAILED;
			break;
		case O_CPU_SIZE:
			if (parse_int("--cpu-size", optarg, 16, 16384, &o.cpu_n) < 0)
				return EXIT_TOOL_FAILED;
			break;
		case O_COPY:
			if (parse_int("--copy-mib", optarg, 1, 65536, &o.copy_mib) < 0)
				return EXIT_TOOL_FAILED;
			break;
		case O_HOST:
			if (parse_int("--host-mib", optarg, 1, 65536, &o.host_mib) < 0)
				return EXIT_TOOL_FAILED;
			break;
		case O_TIMEOUT:
			if (parse_int("--timeout", optarg, 1, 3600, &secs) < 0)
				return EXIT_TOOL_FAILED;
			o.timeout_ms = secs * 1000;
			break;
		case O_JSON:
			json = true;
			break;
		case O_COLOR:
			if (cli_color(optarg) < 0)
				return EXIT_TOOL_FAILED;
			color = optarg;
			break;
		case O_ROOT:
			root = optarg;
			break;
		case O_LOAD_ROOT:
			po.load_root = true;
			break;
		case 'h':
			bench_usage(stdout);
			return EXIT_HEALTHY;
		default:
			cli_option_error("bench", c, argv);
			return EXIT_TOOL_FAILED;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "gpudoctor bench: unexpected argument '%s' (see gpudoctor bench --help)\n",
			argv[optind]);
		return EXIT_TOOL_FAILED;
	}
	if (po.load_root && !root) {
		fprintf(stderr, "gpudoctor bench: --load-root goes with --root\n");
		return EXIT_TOOL_FAILED;
	}
	f = malloc(sizeof(*f));
	if (!f || cli_facts(NULL, root, &po, f) < 0) {
		free(f);
		return EXIT_TOOL_FAILED;
	}
	bench_find_libraries(f, &o);
	nogpu = no_gpu(f, why, sizeof(why));
	if (nogpu)
		o.tests &= 1u << BENCH_CPU_SGEMM;
	if (root)
		o.tests &= ~(1u << BENCH_CPU_SGEMM); /* this machine's CPU is not the tree's */
	if (!tests_given && cuda_gpus(f) < 2)
		o.tests &= ~(1u << BENCH_P2P_COPY | 1u << BENCH_NCCL_ALLREDUCE);
	tty = !json && isatty(STDOUT_FILENO);
	/* the paths are loaded as they are; what is printed or put in JSON is
	 * cleaned (the facts' text too: GPU names, bus ids) */
	STR_COPY(show_lt, o.cublaslt);
	STR_COPY(show_blas, o.blas);
	STR_COPY(show_nccl, o.nccl);
	text_clean_str(show_nccl, sizeof(show_nccl));
	text_clean_str(show_lt, sizeof(show_lt));
	text_clean_str(show_blas, sizeof(show_blas));
	facts_clean_text(f);
	if (!json) {
		if (nogpu)
			printf("No GPU can be measured: %s. gpudoctor doctor says why and what to do.\n", nogpu);
		printf("gpudoctor bench\n");
		if (!nogpu) {
			for (i = 0; i < f->ngpus; i++)
				if (f->gpus[i].cuda_valid && f->gpus[i].cuda_index == o.gpu)
					printf("  GPU: %s (CUDA device %d, %s)\n", f->gpus[i].name, o.gpu,
					       f->gpus[i].pci_bus_id);
			printf("  cuBLASLt: %s\n", show_lt[0] ? show_lt : "none found");
			if (o.tests & (1u << BENCH_NCCL_ALLREDUCE))
				printf("  NCCL: %s\n", show_nccl[0] ? show_nccl : "none found");
		}
		printf("  CPU BLAS: %s\n", show_blas[0] ? show_blas : "none found");
	}
	for (i = 0; i < BENCH_NTESTS; i++) {
		if (!(o.tests & (1u << i)))
			continue;
		if (tty) {
			printf("  %-13s ...", bench_tests[i].name);
			fflush(stdout);
		}
		bench_run_test(&o, i, &r[n]);
		{
			struct findings none;
			findings_init(&none);
			bench_judge(f, &r[n], 1, &j[n], &none);
			findings_release(&none);
		}
		if (tty)
			printf("\r");
		if (!json)
			result_line(stdout, &r[n], &j[n]);
		fflush(stdout);
		n++;
	}
	findings_init(&fs);
	bench_judge(f, r, n, j, &fs);
	if (json) {
		STR_COPY(o.cublaslt, show_lt);
		STR_COPY(o.blas, show_blas);
		STR_COPY(o.nccl, show_nccl);
		rc = render_json_out(f, &o, r, j, n, &fs, nogpu);
	} else {
		const struct bench_result *cpu = result_of(r, n, BENCH_CPU_SGEMM);
		const struct bench_result *gpu = result_of(r, n, BENCH_GEMM_FP32);
		if (cpu && gpu)
			printf("\nGPU against CPU (FP32 matrix multiplication): %.0fx\n", gpu->value * 1000 / cpu->value);
		mixed_text(stdout, r, n);
		if (fs.n)
			render_findings(stdout, &fs,
					&(struct render_opts){.color = render_want_color(color, stdout), .width = 80});
		rc = 0;
	}
	if (fflush(stdout) != 0 || rc < 0) {
		fprintf(stderr, "gpudoctor: cannot write the answer\n");
		rc = EXIT_TOOL_FAILED;
	} else {
		enum severity w = findings_worst(&fs);
		rc = w == SEV_ERROR ? EXIT_ERRORS : w == SEV_WARN ? EXIT_WARNINGS : EXIT_HEALTHY;
	}
	findings_release(&fs);
	free(f);
	return rc;
}
