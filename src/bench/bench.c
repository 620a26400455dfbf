/*
 * bench.c - the tests, the libraries they load, and running each one in a
 * child with a time limit (see bench.h).
 */
#include "bench/bench.h"
#include "base/clean.h"
#include "base/str.h"
#include "base/vers.h"
#include "sys/child.h"
#include "sys/ldcache.h"
#include "sys/root.h"
#include "sys/trust.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const struct bench_test_info bench_tests[BENCH_NTESTS] = {
	[BENCH_D2D_KERNEL] = {"d2d_kernel", "memory", "GB/s", "device to device, a copy kernel (PTX)"},
	[BENCH_D2D_COPY] = {"d2d_copy", "memory", "GB/s", "device to device, the copy engine"},
	[BENCH_H2D_PINNED] = {"h2d_pinned", "memory", "GB/s", "host to device, pinned memory"},
	[BENCH_D2H_PINNED] = {"d2h_pinned", "memory", "GB/s", "device to host, pinned memory"},
	[BENCH_H2D_PAGEABLE] = {"h2d_pageable", "memory", "GB/s", "host to device, pageable memory"},
	[BENCH_D2H_PAGEABLE] = {"d2h_pageable", "memory", "GB/s", "device to host, pageable memory"},
	[BENCH_GEMM_FP32] = {"gemm_fp32", "gemm", "TFLOP/s", "matrix multiply, FP32"},
	[BENCH_GEMM_TF32] = {"gemm_tf32", "gemm", "TFLOP/s", "matrix multiply, TF32 tensor cores"},
	[BENCH_GEMM_FP16] = {"gemm_fp16", "gemm", "TFLOP/s", "matrix multiply, FP16"},
	[BENCH_GEMM_BF16] = {"gemm_bf16", "gemm", "TFLOP/s", "matrix multiply, BF16"},
	[BENCH_GEMM_FP8] = {"gemm_fp8", "gemm", "TFLOP/s", "matrix multiply, FP8 (e4m3)"},
	[BENCH_CPU_SGEMM] = {"cpu_sgemm", "cpu", "GFLOP/s", "matrix multiply on the CPU, FP32"},
	[BENCH_P2P_COPY] = {"p2p_copy", "multi", "GB/s", "GPU to GPU, the copy engine, peer access on"},
	[BENCH_NCCL_ALLREDUCE] = {"nccl_allreduce", "multi", "GB/s", "NCCL all-reduce across the GPUs, bus bandwidth"},
};

static const char *const state_names[] = {
	"not_run", "ok", "skipped", "failed", "crashed", "timeout",
};

const char *
bench_state_name(int state)
{
	return state >= 0 && state <= BENCH_TIMEOUT ? state_names[state] : "?";
}

int
bench_test_by_name(const char *name)
{
	int i;

	for (i = 0; i < BENCH_NTESTS; i++)
		if (!strcmp(bench_tests[i].name, name))
			return i;
	return -1;
}

void
bench_opts_init(struct bench_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->tests = (1u << BENCH_NTESTS) - 1;
	o->gemm_n = 8192;
	o->cpu_n = 2048;
	o->copy_mib = 1024;
	o->host_mib = 256;
	o->timeout_ms = 60000;
	STR_COPY(o->libcuda, "libcuda.so.1");
	STR_COPY(o->nvml, "libnvidia-ml.so.1");
}

/* ---- the libraries --------------------------------------------------- */

static bool
trusted(const char *path)
{
	char real[PATH_MAX], why[256];

	return path[0] && realpath(path, real) && trust_path(real, getuid(), why, sizeof(why));
}

/* The copy of a CUDA library (its facts name: "cublasLt", "nccl"; its
 * soname's start: "libcublasLt.so") that bench loads: the one the active
 * environment's frameworks load, else the newest on the machine; only
 * files no other user can change. */
static void
find_cuda_lib(const struct facts *f, const char *name, const char *soname, char *out, size_t size)
{
	const struct python_env_facts *e = facts_active_env(f);
	const char *best = NULL, *best_v = "";
	int i, j, k;

	out[0] = '\0';
	if (!root_is_host()) {
		/* a fixture tree (--root --load-root): its copy as the probes saw it */
		for (i = 0; i < f->nlibs && !out[0]; i++)
			if (!strcmp(f->libs[i].name, name))
				root_path(f->libs[i].real_path[0] ? f->libs[i].real_path : f->libs[i].path, out,
					  size);
		return;
	}
	for (j = 0; e && j < e->nframeworks && !out[0]; j++)
		for (k = 0; k < e->frameworks[j].nresolved; k++) {
			const struct resolved_lib_facts *r = &e->frameworks[j].resolved[k];
			if (str_starts(r->soname, soname) && trusted(r->path)) {
				str_copy(out, size, r->path);
				break;
			}
		}
	for (i = 0; !out[0] && i < f->nlibs; i++) {
		const struct lib_facts *l = &f->libs[i];
		if (strcmp(l->name, name) || !trusted(l->real_path[0] ? l->real_path : l->path))
			continue;
		if (!best || vers_cmp(l->version, best_v) > 0) {
			best = l->real_path[0] ? l->real_path : l->path;
			best_v = l->version;
		}
	}
	if (!out[0] && best)
		str_copy(out, size, best);
}

void
bench_find_libraries(const struct facts *f, struct bench_opts *o)
{
	static const char *const blas[] = {
		"libopenblas.so.0", "libblis.so.4", "libmkl_rt.so.2", "libmkl_rt.so", "libblas.so.3", NULL,
	};
	const struct ldcache *lc = ldcache_system();
	int i;

	o->blas[0] = '\0';
	find_cuda_lib(f, "cublasLt", "libcublasLt.so", o->cublaslt, sizeof(o->cublaslt));
	find_cuda_lib(f, "nccl", "libnccl.so", o->nccl, sizeof(o->nccl));
	if (!root_is_host()) {
		/* a fixture tree: its driver libraries as the probes loaded them;
		 * the CPU is this machine's and is not what the tree describes */
		o->libcuda[0] = o->nvml[0] = '\0';
		if (f->driver.cuda_state == CHILD_OK && f->driver.cuda_loaded_path[0])
			root_path(f->driver.cuda_loaded_path, o->libcuda, sizeof(o->libcuda));
		if (f->driver.nvml_state == CHILD_OK && f->driver.nvml_loaded_path[0])
			root_path(f->driver.nvml_loaded_path, o->nvml, sizeof(o->nvml));
		return;
	}
	for (i = 0; lc && blas[i]; i++) {
		const struct ldcache_entry *le = ldcache_lookup(lc, blas[i]);
		if (le) {
			STR_COPY(o->blas, blas[i]);
			break;
		}
	}
}

bool
bench_sym(void *lib, const char *libname, const char *name, void **fn, struct bench_result *r)
{
	*fn = dlsym(lib, name);
	if (*fn)
		return true;
	str_fmt(r->error, sizeof(r->error), "%s has no %s", libname, name);
	r->state = BENCH_FAILED;
	return false;
}

/* Everything a child's answer holds as text came from vendor libraries
 * (error strings, JIT logs, device names) or from the machine (paths): made
 * safe for a terminal and for JSON once, here. */
static void
clean_result(struct bench_result *r)
{
	text_clean_str(r->error, sizeof(r->error));
	text_clean_str(r->detail, sizeof(r->detail));
	text_clean_str(r->verify, sizeof(r->verify));
	text_clean_str(r->gpu_name, sizeof(r->gpu_name));
	text_clean_str(r->bus_id, sizeof(r->bus_id));
	text_clean_str(r->library, sizeof(r->library));
	text_clean_str(r->library_version, sizeof(r->library_version));
}

/* ---- one test in a child --------------------------------------------- */

struct job {
	const struct bench_opts *o;
	int test;
};

static void
child_main(void *arg, int fd)
{
	const struct job *j = arg;
	struct bench_result r;

	memset(&r, 0, sizeof(r));
	r.test = j->test;
	r.verified = -1;
	if (j->test == BENCH_CPU_SGEMM)
		bench_cpu_test(j->o, &r);
	else if (!strcmp(bench_tests[j->test].group, "multi"))
		bench_multi_test(j->o, j->test, &r);
	else if (!strcmp(bench_tests[j->test].group, "memory"))
		bench_memory_test(j->o, j->test, &r);
	else
		bench_gemm_test(j->o, j->test, &r);
	child_write(fd, &r, sizeof(r));
}

void
bench_run_test(const struct bench_opts *o, int test, struct bench_result *r)
{
	struct job j = {o, test};
	struct child c;
	struct child_result cr;

	memset(r, 0, sizeof(*r));
	if (child_start(&c, child_main, &j, o->timeout_ms) < 0) {
		r->test = test;
		r->state = BENCH_FAILED;
		str_copy(r->error, sizeof(r->error), "cannot start a child process");
		return;
	}
	if (child_finish(&c, r, sizeof(*r), &cr) < 0) {
		memset(r, 0, sizeof(*r));
		r->test = test;
		r->verified = -1;
		if (cr.state == CHILD_TIMEOUT) {
			r->state = BENCH_TIMEOUT;
			str_fmt(r->error, sizeof(r->error), "stopped after the time limit of %d s", o->timeout_ms / 1000);
		} else if (cr.state == CHILD_CRASHED) {
			r->state = BENCH_CRASHED;
			str_fmt(r->error, sizeof(r->error), "the test crashed (signal %d)", cr.signal);
		} else {
			r->state = BENCH_FAILED;
			str_fmt(r->error, sizeof(r->error), "the test ended without an answer (exit %d)", cr.exit_code);
		}
	}
	r->ms = cr.ms;
	clean_result(r);
}
