/*
 * bench.h - `gpudoctor bench`: what this GPU really delivers. Each test
 * runs alone in a child with a time limit (sys/child.h), since it loads
 * vendor code (libcuda, cuBLASLt, NVML, a CPU BLAS): a crash, a hang or
 * Ctrl-C ends the child, and the driver frees its GPU memory with it.
 *
 *   memory  d2d_kernel   a copy kernel in PTX, JIT-compiled by the driver
 *           d2d_copy     the copy engine (cuMemcpyDtoDAsync)
 *           h2d/d2h      host to device and back, pinned and pageable
 *   gemm    fp32 tf32 fp16 bf16 fp8 through cuBLASLt (the copy the
 *           machine's frameworks load)
 *   cpu     sgemm through a BLAS loaded at run time
 *   multi   p2p_copy: the copy engine between each pair of GPUs, peer
 *           access on where the pair has it; nccl_allreduce: NCCL's
 *           all-reduce across every GPU through the machine's libnccl,
 *           with nccl-tests' bus bandwidth (algbw * 2(n-1)/n)
 *
 * Copies are reported in bytes copied per second (nvbandwidth's
 * convention) and, for device-to-device, read+write bytes too (PyTorch's
 * and bandwidthTest's); GB is 10^9 bytes, TFLOP/s counts 2*m*n*k.
 */
#ifndef GPUDOCTOR_BENCH_H
#define GPUDOCTOR_BENCH_H

#include "facts.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum bench_test {
	BENCH_D2D_KERNEL,
	BENCH_D2D_COPY,
	BENCH_H2D_PINNED,
	BENCH_D2H_PINNED,
	BENCH_H2D_PAGEABLE,
	BENCH_D2H_PAGEABLE,
	BENCH_GEMM_FP32,
	BENCH_GEMM_TF32,
	BENCH_GEMM_FP16,
	BENCH_GEMM_BF16,
	BENCH_GEMM_FP8,
	BENCH_CPU_SGEMM,
	BENCH_P2P_COPY,
	BENCH_NCCL_ALLREDUCE,
	BENCH_NTESTS
};

struct bench_test_info {
	const char *name;                /* "gemm_bf16" */
	const char *group;               /* memory, gemm, cpu */
	const char *unit;                /* "GB/s", "TFLOP/s", "GFLOP/s" */
	const char *what;                /* one line for people */
};
extern const struct bench_test_info bench_tests[BENCH_NTESTS];
/* The test named name, or -1. */
int bench_test_by_name(const char *name);

enum bench_state {
	BENCH_NOT_RUN,
	BENCH_OK,
	BENCH_SKIPPED,                   /* cannot run here: no tensor cores for fp8, no BLAS */
	BENCH_FAILED,                    /* a library call failed: error, cu_error */
	BENCH_CRASHED,                   /* the child died of a signal */
	BENCH_TIMEOUT,                   /* the child passed its time limit */
};
const char *bench_state_name(int state);

/* NVML during the timed part of a test. */
struct bench_nvml {
	int samples;                     /* 0: NVML could not be read */
	int sm_clock_min, sm_clock_max;  /* MHz */
	int mem_clock_max;
	int power_max_mw, power_limit_mw;
	int temp_max;                    /* C */
	unsigned long long reasons;      /* clock-event reasons seen, OR-ed (NVML bits) */
};

#define BENCH_MAX_GPUS 8             /* GPUs a multi test measures */
#define BENCH_MAX_SIZES 4            /* message sizes of nccl_allreduce */

/* What a test answers (fixed size: it crosses the child's pipe). */
struct bench_result {
	int test;                        /* enum bench_test */
	int state;                       /* enum bench_state */
	char error[256];
	int cu_error;                    /* the CUresult or cublasStatus_t that decided; 0 */
	double value;                    /* median: GB/s copied, TFLOP/s, GFLOP/s */
	double value_rw;                 /* d2d: read+write GB/s; 0 otherwise */
	double best;                     /* the best iteration, same unit as value */
	int iterations;
	char detail[192];                /* sizes, algorithm, workspace */
	int verified;                    /* -1 not checked, 0 wrong, 1 right */
	char verify[128];
	struct bench_nvml nvml;
	double ms;                       /* the whole test, start-up included */
	char gpu_name[96];
	char bus_id[20];
	int cc_major, cc_minor;
	char library[F_PATH];            /* cuBLASLt, BLAS or NCCL file loaded */
	char library_version[32];
	/* the multi tests */
	int ngpus;                       /* GPUs measured (CUDA ordinals 0..ngpus-1) */
	float pair_gbs[BENCH_MAX_GPUS][BENCH_MAX_GPUS]; /* p2p_copy: i to j, GB/s; 0 none */
	float pair_us[BENCH_MAX_GPUS][BENCH_MAX_GPUS];  /* p2p_copy: one 4-byte copy, us */
	unsigned char pair_peer[BENCH_MAX_GPUS][BENCH_MAX_GPUS]; /* peer access was on */
	int nsizes;                      /* nccl_allreduce: message sizes measured */
	double size_bytes[BENCH_MAX_SIZES];
	double algbw[BENCH_MAX_SIZES];   /* GB/s: bytes / time */
	double busbw[BENCH_MAX_SIZES];   /* GB/s: algbw * 2(n-1)/n */
};

struct bench_opts {
	unsigned tests;                  /* 1u << enum bench_test */
	int gpu;                         /* CUDA ordinal */
	int gemm_n;                      /* m = n = k */
	int cpu_n;                       /* the CPU's GEMM */
	int copy_mib;                    /* device-to-device buffer */
	int host_mib;                    /* host transfer buffer */
	int timeout_ms;                  /* per test */
	char libcuda[F_PATH];            /* what the child dlopens */
	char nvml[F_PATH];
	char cublaslt[F_PATH];           /* "" none found */
	char blas[F_PATH];               /* "" none found */
	char nccl[F_PATH];               /* "" none found */
};

/* Defaults: every test, GPU 0, 8192, 1024 MiB, 256 MiB, 60 s. */
void bench_opts_init(struct bench_opts *o);

/* The libraries bench loads, from the doctor's facts: cuBLASLt from the
 * active environment's frameworks first, then any copy the loader or a
 * toolkit has; a CPU BLAS from the loader's cache. Only files no other
 * user can change (sys/trust.h). */
void bench_find_libraries(const struct facts *f, struct bench_opts *o);

/* Run one test in a child; r is filled whatever happens. */
void bench_run_test(const struct bench_opts *o, int test, struct bench_result *r);

/* ---- inside the child (bench_*.c) ---- */
void bench_memory_test(const struct bench_opts *o, int test, struct bench_result *r);
void bench_gemm_test(const struct bench_opts *o, int test, struct bench_result *r);
void bench_cpu_test(const struct bench_opts *o, struct bench_result *r);
void bench_multi_test(const struct bench_opts *o, int test, struct bench_result *r);

/* Look name up in lib (file libname) into *fn; false with r->error and
 * r->state set when it is not there. */
bool bench_sym(void *lib, const char *libname, const char *name, void **fn, struct bench_result *r);

/* The median of v[0..n) (sorts v). */
double bench_median(double *v, int n);

#endif
