/*
 * gemm.c - matrix multiplication in a bench child through cuBLASLt, the
 * copy the machine's frameworks load: m = n = k, A transposed (the layout
 * FP8 needs on Hopper), random finite inputs (all-zero ones draw less
 * power and run faster: not what a model sees), the workspace cuBLAS
 * recommends (32 MiB from compute capability 9.0, 4 MiB before), up to 8
 * heuristic algorithms tried and the fastest kept, then the median of the
 * timed iterations with CUDA events. A few elements of the result are
 * checked against the CPU.
 */
#include "bench/cuda_load.h"
#include "base/str.h"
#include "nvidia/cublaslt_api.h"

#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ALGOS 8
#define TRY_ITERATIONS 3
#define ITERATIONS 30
#define CHECKS 4

struct lt {
	cublasLtGetVersion_fn GetVersion;
	cublasLtCreate_fn Create;
	cublasLtMatmulDescCreate_fn DescCreate;
	cublasLtMatmulDescSetAttribute_fn DescSet;
	cublasLtMatrixLayoutCreate_fn LayoutCreate;
	cublasLtMatmulPreferenceCreate_fn PrefCreate;
	cublasLtMatmulPreferenceSetAttribute_fn PrefSet;
	cublasLtMatmulAlgoGetHeuristic_fn Heuristic;
	cublasLtMatmul_fn Matmul;
};

struct dtype {
	int ab, cd;                      /* cudaDataType_t of A/B and of C/D */
	int compute;
	int ab_size, cd_size;            /* bytes per element */
	const char *name;
};

static struct dtype
dtype_of(int test)
{
	switch (test) {
	case BENCH_GEMM_TF32:
		return (struct dtype){CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 4, 4, "tf32"};
	case BENCH_GEMM_FP16:
		return (struct dtype){CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, 2, 2, "fp16"};
	case BENCH_GEMM_BF16:
		return (struct dtype){CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 2, 2, "bf16"};
	case BENCH_GEMM_FP8:
		return (struct dtype){CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 1, 2, "fp8 (e4m3, bf16 out)"};
	default:
		return (struct dtype){CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 4, 4, "fp32"};
	}
}

/* ---- random finite inputs, and their values on the CPU --------------- */

static uint64_t
next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Each value has a random sign and mantissa and a magnitude between 1/16
 * and 2: finite in every format, no overflow in a sum of 16k of them. */
static void
fill(void *buf, size_t n, int type, uint64_t seed)
{
	uint64_t x = seed | 1;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t r = next(&x);
		unsigned s = (unsigned)(r & 1), e = (unsigned)(r >> 1) % 5, m = (unsigned)(r >> 8);
		switch (type) {
		case CUDA_R_16F:
			((uint16_t *)buf)[i] = (uint16_t)(s << 15 | (11 + e) << 10 | (m & 0x3ff));
			break;
		case CUDA_R_16BF:
			((uint16_t *)buf)[i] = (uint16_t)(s << 15 | (123 + e) << 7 | (m & 0x7f));
			break;
		case CUDA_R_8F_E4M3:
			((uint8_t *)buf)[i] = (uint8_t)(s << 7 | (3 + e) << 3 | (m & 7));
			break;
		default:
			((uint32_t *)buf)[i] = s << 31 | (123 + e) << 23 | (m & 0x7fffff);
			break;
		}
	}
}

static double
value(const void *buf, size_t i, int type)
{
	uint32_t u;
	float f;

	switch (type) {
	case CUDA_R_16F:
		u = ((const uint16_t *)buf)[i];
		return ((u >> 15) ? -1 : 1) * ldexp(1 + (u & 0x3ff) / 1024.0, (int)((u >> 10) & 0x1f) - 15);
	case CUDA_R_16BF:
		u = (uint32_t)((const uint16_t *)buf)[i] << 16;
		memcpy(&f, &u, 4);
		return f;
	case CUDA_R_8F_E4M3:
		u = ((const uint8_t *)buf)[i];
		return ((u >> 7) ? -1 : 1) * ldexp(1 + (u & 7) / 8.0, (int)((u >> 3) & 0xf) - 7);
	default:
		memcpy(&f, (const uint32_t *)buf + i, 4);
		return f;
	}
}

/* D(i,j) = sum over l of A(l,i) * B(l,j): A and B are stored k x m and
 * k x n (column-major), A transposed in the product. */
static void
check(const struct cu *c, struct bench_result *r, const void *a, const void *b, CUdeviceptr d,
      const struct dtype *t, int n)
{
	static const int at[CHECKS][2] = {{0, 0}, {1, 7}, {-1, -1}, {-2, 3}};
	unsigned char got[8];
	int p, l;

	r->verified = 1;
	for (p = 0; p < CHECKS; p++) {
		int i = at[p][0] < 0 ? n + at[p][0] : at[p][0], j = at[p][1] < 0 ? n + at[p][1] : at[p][1];
		double want = 0, mag = 0, have;
		for (l = 0; l < n; l++) {
			double x = value(a, (size_t)i * n + l, t->ab) * value(b, (size_t)j * n + l, t->ab);
			want += x;
			mag += fabs(x);
		}
		if (c->MemcpyDtoH(got, d + ((size_t)j * n + i) * t->cd_size, (size_t)t->cd_size) != CUDA_SUCCESS) {
			r->verified = 0;
			str_copy(r->verify, sizeof(r->verify), "the result could not be read back");
			return;
		}
		have = value(got, 0, t->cd);
		/* tf32 keeps 10 bits of each input, bf16 output 8 of the result */
		if (!isfinite(have) || fabs(have - want) > 1e-2 * mag + 1e-3) {
			r->verified = 0;
			str_fmt(r->verify, sizeof(r->verify), "D(%d,%d) is %g, the CPU says %g", i, j, have, want);
			return;
		}
	}
	str_fmt(r->verify, sizeof(r->verify), "%d elements checked against the CPU", CHECKS);
}

#define LTSYM(field, name)                                                     \
	do {                                                                   \
		if (!bench_sym(h, o->cublaslt, name, (void **)&lt->field, r))  \
			return -1;                                             \
	} while (0)

static int
lt_open(struct lt *lt, const struct bench_opts *o, struct bench_result *r)
{
	void *h = dlopen(o->cublaslt, RTLD_NOW | RTLD_LOCAL);
	const char *e;
	size_t v;

	if (!h) {
		e = dlerror();
		str_fmt(r->error, sizeof(r->error), "cannot load %s: %s", o->cublaslt, e ? e : "?");
		r->state = BENCH_FAILED;
		return -1;
	}
	LTSYM(GetVersion, "cublasLtGetVersion");
	LTSYM(Create, "cublasLtCreate");
	LTSYM(DescCreate, "cublasLtMatmulDescCreate");
	LTSYM(DescSet, "cublasLtMatmulDescSetAttribute");
	LTSYM(LayoutCreate, "cublasLtMatrixLayoutCreate");
	LTSYM(PrefCreate, "cublasLtMatmulPreferenceCreate");
	LTSYM(PrefSet, "cublasLtMatmulPreferenceSetAttribute");
	LTSYM(Heuristic, "cublasLtMatmulAlgoGetHeuristic");
	LTSYM(Matmul, "cublasLtMatmul");
	v = lt->GetVersion();
	str_fmt(r->library_version, sizeof(r->library_version), "%zu.%zu.%zu", v / 10000, v / 100 % 100,
		v % 100);
	str_copy(r->library, sizeof(r->library), o->cublaslt);
	return 0;
}

static int
lt_fail(struct bench_result *r, const char *call, int status)
{
	str_fmt(r->error, sizeof(r->error), "%s: cublasStatus_t %d", call, status);
	r->cu_error = status;
	r->state = BENCH_FAILED;
	return -1;
}

/* Time iterations of one algorithm; the median in ms, or -1. */
static double
run_algo(const struct cu *c, const struct lt *lt, cublasLtHandle_t h, cublasLtMatmulDesc_t desc,
	 cublasLtMatrixLayout_t la, cublasLtMatrixLayout_t lb, cublasLtMatrixLayout_t lc,
	 const cublasLtMatmulAlgo_t *algo, CUdeviceptr a, CUdeviceptr b, CUdeviceptr d, CUdeviceptr ws,
	 size_t wsize, CUstream st, CUevent e0, CUevent e1, int iterations, double *best_ms, int *status)
{
	float alpha = 1, beta = 0, ms;
	double v[ITERATIONS];
	int i;

	*best_ms = 0;
	for (i = -1; i < iterations; i++) {
		c->EventRecord(e0, st);
		*status = lt->Matmul(h, desc, &alpha, (void *)a, la, (void *)b, lb, &beta, (void *)d, lc, (void *)d,
				     lc, algo, (void *)ws, wsize, st);
		if (*status != CUBLAS_STATUS_SUCCESS)
			return -1;
		c->EventRecord(e1, st);
		if (c->EventSynchronize(e1) != CUDA_SUCCESS)
			return -1;
		if (i < 0)
			continue;                /* the first run warms up */
		c->EventElapsedTime(&ms, e0, e1);
		v[i] = ms;
		if (!*best_ms || ms < *best_ms)
			*best_ms = ms;
	}
	return bench_median(v, iterations);
}

static int
gemm(const struct cu *c, const struct bench_opts *o, int test, struct bench_result *r, struct bench_sampler *s)
{
	struct dtype t = dtype_of(test);
	struct lt lt;
	int n = o->gemm_n, ta = CUBLAS_OP_T, tb = CUBLAS_OP_N, got = 0, i, status, best = -1;
	size_t ab = (size_t)n * n * (size_t)t.ab_size, cd = (size_t)n * n * (size_t)t.cd_size;
	size_t wsize = r->cc_major >= 9 ? 32u << 20 : 4u << 20;
	cublasLtMatmulHeuristicResult_t res[ALGOS];
	cublasLtHandle_t h;
	cublasLtMatmulDesc_t desc;
	cublasLtMatrixLayout_t la, lb, lc;
	cublasLtMatmulPreference_t pref;
	CUdeviceptr a, b, d, ws;
	CUstream st;
	CUevent e0, e1;
	void *ha, *hb;
	double ms, best_ms = 0, flops = 2.0 * n * n * (double)n, bms;
	CUresult rc;
	uint64_t w64 = wsize;

	if (lt_open(&lt, o, r) < 0)
		return -1;
	if ((status = lt.Create(&h)) != CUBLAS_STATUS_SUCCESS)
		return lt_fail(r, "cublasLtCreate", status);
	if ((rc = c->MemAlloc(&a, ab)) != CUDA_SUCCESS || (rc = c->MemAlloc(&b, ab)) != CUDA_SUCCESS ||
	    (rc = c->MemAlloc(&d, cd)) != CUDA_SUCCESS || (rc = c->MemAlloc(&ws, wsize)) != CUDA_SUCCESS)
		return cu_fail(c, r, "cuMemAlloc", rc);
	ha = malloc(ab);
	hb = malloc(ab);
	if (!ha || !hb) {
		str_copy(r->error, sizeof(r->error), "out of host memory for the inputs");
		r->state = BENCH_FAILED;
		return -1;
	}
	fill(ha, (size_t)n * n, t.ab, 0x9e3779b97f4a7c15ull);
	fill(hb, (size_t)n * n, t.ab, 0xbf58476d1ce4e5b9ull);
	if ((rc = c->MemcpyHtoD(a, ha, ab)) != CUDA_SUCCESS || (rc = c->MemcpyHtoD(b, hb, ab)) != CUDA_SUCCESS)
		return cu_fail(c, r, "cuMemcpyHtoD", rc);
	if ((status = lt.DescCreate(&desc, t.compute, CUDA_R_32F)) != CUBLAS_STATUS_SUCCESS ||
	    (status = lt.DescSet(desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta))) != CUBLAS_STATUS_SUCCESS ||
	    (status = lt.DescSet(desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb))) != CUBLAS_STATUS_SUCCESS)
		return lt_fail(r, "cublasLtMatmulDesc", status);
	if ((status = lt.LayoutCreate(&la, t.ab, (uint64_t)n, (uint64_t)n, n)) != CUBLAS_STATUS_SUCCESS ||
	    (status = lt.LayoutCreate(&lb, t.ab, (uint64_t)n, (uint64_t)n, n)) != CUBLAS_STATUS_SUCCESS ||
	    (status = lt.LayoutCreate(&lc, t.cd, (uint64_t)n, (uint64_t)n, n)) != CUBLAS_STATUS_SUCCESS)
		return lt_fail(r, "cublasLtMatrixLayoutCreate", status);
	if ((status = lt.PrefCreate(&pref)) != CUBLAS_STATUS_SUCCESS ||
	    (status = lt.PrefSet(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &w64, sizeof(w64))) !=
		    CUBLAS_STATUS_SUCCESS)
		return lt_fail(r, "cublasLtMatmulPreference", status);
	status = lt.Heuristic(h, desc, la, lb, lc, lc, pref, ALGOS, res, &got);
	if (status != CUBLAS_STATUS_SUCCESS || got <= 0) {
		str_fmt(r->error, sizeof(r->error), "cuBLASLt %s has no algorithm for %s on compute capability "
						     "%d.%d (cublasLtMatmulAlgoGetHeuristic: status %d, %d found)",
			r->library_version, t.name, r->cc_major, r->cc_minor, status, got);
		r->cu_error = status;
		r->state = BENCH_SKIPPED;
		return -1;
	}
	if ((rc = c->StreamCreate(&st, CU_STREAM_NON_BLOCKING)) != CUDA_SUCCESS ||
	    (rc = c->EventCreate(&e0, CU_EVENT_DEFAULT)) != CUDA_SUCCESS ||
	    (rc = c->EventCreate(&e1, CU_EVENT_DEFAULT)) != CUDA_SUCCESS)
		return cu_fail(c, r, "cuStreamCreate", rc);
	/* the fastest of the heuristic's algorithms */
	for (i = 0; i < got; i++) {
		if (res[i].state != CUBLAS_STATUS_SUCCESS)
			continue;
		ms = run_algo(c, &lt, h, desc, la, lb, lc, &res[i].algo, a, b, d, ws, wsize, st, e0, e1,
			      TRY_ITERATIONS, &bms, &status);
		if (ms > 0 && (best < 0 || ms < best_ms)) {
			best = i;
			best_ms = ms;
		}
	}
	if (best < 0)
		return lt_fail(r, "cublasLtMatmul (every algorithm failed)", status);
	sampler_timed(s, true);
	ms = run_algo(c, &lt, h, desc, la, lb, lc, &res[best].algo, a, b, d, ws, wsize, st, e0, e1, ITERATIONS,
		      &bms, &status);
	sampler_timed(s, false);
	if (ms <= 0)
		return lt_fail(r, "cublasLtMatmul", status);
	r->value = flops / (ms / 1e3) / 1e12;
	r->best = flops / (bms / 1e3) / 1e12;
	r->iterations = ITERATIONS;
	str_fmt(r->detail, sizeof(r->detail), "%s, %dx%dx%d, A transposed, algorithm %d of %d, workspace %zu MiB, "
					       "cuBLASLt %s",
		t.name, n, n, n, best + 1, got, wsize >> 20, r->library_version);
	check(c, r, ha, hb, d, &t, n);
	free(ha);
	free(hb);
	return 0;
}

void
bench_gemm_test(const struct bench_opts *o, int test, struct bench_result *r)
{
	struct cu c;
	struct bench_sampler *s;

	if (!o->cublaslt[0]) {
		str_copy(r->error, sizeof(r->error), "no cuBLASLt was found (no framework wheel ships one and no "
						     "CUDA toolkit is installed)");
		r->state = BENCH_SKIPPED;
		return;
	}
	if (cu_open(&c, o, r) < 0)
		return;
	if (test == BENCH_GEMM_FP8 && r->cc_major * 10 + r->cc_minor < 89) {
		str_fmt(r->error, sizeof(r->error), "compute capability %d.%d has no FP8 tensor cores (8.9 and "
						     "later have)", r->cc_major, r->cc_minor);
		r->state = BENCH_SKIPPED;
		return;
	}
	s = sampler_start(o, r->bus_id);
	if (gemm(&c, o, test, r, s) == 0)
		r->state = BENCH_OK;
	sampler_stop(s, &r->nvml);
}
