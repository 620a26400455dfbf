/*
 * cpu.c - the same matrix multiplication on the CPU, in a bench child,
 * through the BLAS the machine has (OpenBLAS, BLIS or the reference
 * libblas.so.3 from Debian's packages, MKL): the seeds' GPU-against-CPU
 * comparison in the same command. FP32, m = n = k, wall time, the median
 * of the timed runs; two elements checked against a plain sum.
 */
#include "bench/bench.h"
#include "base/clock.h"
#include "base/str.h"

#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ITERATIONS 3

/* CBLAS's enums (cblas.h of the reference CBLAS, Netlib) */
#define CBLAS_COL_MAJOR 102
#define CBLAS_NO_TRANS 111
#define CBLAS_TRANS 112

typedef void (*cblas_sgemm_fn)(int order, int ta, int tb, int m, int n, int k, float alpha, const float *a,
			       int lda, const float *b, int ldb, float beta, float *c, int ldc);
typedef int (*threads_fn)(void);

static void
fill(float *v, size_t n, uint64_t x)
{
	size_t i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v[i] = (float)((double)(x >> 11) / 9007199254740992.0 - 0.5);
	}
}

void
bench_cpu_test(const struct bench_opts *o, struct bench_result *r)
{
	int n = o->cpu_n, i, l, threads = 0;
	size_t nn = (size_t)n * n;
	double times[ITERATIONS], flops = 2.0 * n * n * (double)n, ms;
	cblas_sgemm_fn sgemm;
	threads_fn nthreads;
	float *a, *b, *c;
	void *h;
	const char *e;

	if (!o->blas[0]) {
		str_copy(r->error, sizeof(r->error), "no BLAS library is installed (install OpenBLAS: "
						     "apt install libopenblas0, dnf install openblas)");
		r->state = BENCH_SKIPPED;
		return;
	}
	h = dlopen(o->blas, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		e = dlerror();
		str_fmt(r->error, sizeof(r->error), "cannot load %s: %s", o->blas, e ? e : "?");
		r->state = BENCH_FAILED;
		return;
	}
	*(void **)&sgemm = dlsym(h, "cblas_sgemm");
	if (!sgemm) {
		str_fmt(r->error, sizeof(r->error), "%s has no cblas_sgemm", o->blas);
		r->state = BENCH_FAILED;
		return;
	}
	*(void **)&nthreads = dlsym(h, "openblas_get_num_threads");
	if (nthreads)
		threads = nthreads();
	/* OpenBLAS, BLIS and MKL say who they are; the reference BLAS
	 * (Netlib's, Debian's libblas3) is plain loops */
	if (!nthreads && !dlsym(h, "bli_info_get_version_str") && !dlsym(h, "MKL_Get_Version"))
		str_copy(r->library_version, sizeof(r->library_version), "reference");
	str_copy(r->library, sizeof(r->library), o->blas);
	a = malloc(nn * sizeof(*a));
	b = malloc(nn * sizeof(*b));
	c = malloc(nn * sizeof(*c));
	if (!a || !b || !c) {
		str_copy(r->error, sizeof(r->error), "out of host memory");
		r->state = BENCH_FAILED;
		return;
	}
	fill(a, nn, 0x9e3779b97f4a7c15ull);
	fill(b, nn, 0xbf58476d1ce4e5b9ull);
	/* the first run warms up; when it took a second or more (a slow or
	 * unoptimized BLAS) it is the measurement: the test must end soon */
	{
		double t0 = clock_ms();
		sgemm(CBLAS_COL_MAJOR, CBLAS_TRANS, CBLAS_NO_TRANS, n, n, n, 1, a, n, b, n, 0, c, n);
		ms = clock_ms() - t0;
	}
	if (ms >= 1000) {
		times[0] = flops / (ms / 1e3) / 1e9;
		r->best = times[0];
		r->iterations = 1;
	} else {
		for (i = 0; i < ITERATIONS; i++) {
			double t0 = clock_ms();
			sgemm(CBLAS_COL_MAJOR, CBLAS_TRANS, CBLAS_NO_TRANS, n, n, n, 1, a, n, b, n, 0, c, n);
			ms = clock_ms() - t0;
			times[i] = flops / (ms / 1e3) / 1e9;
			if (times[i] > r->best)
				r->best = times[i];
		}
		r->iterations = ITERATIONS;
	}
	r->value = bench_median(times, r->iterations);
	str_fmt(r->detail, sizeof(r->detail), "fp32, %dx%dx%d, A transposed, %d thread%s, wall time", n, n, n,
		threads, threads == 1 ? "" : "s");
	if (!threads)
		str_fmt(r->detail, sizeof(r->detail), "fp32, %dx%dx%d, A transposed, wall time", n, n, n);
	r->verified = 1;
	for (i = 0; i < 2 && r->verified; i++) {
		int row = i ? n - 1 : 0, col = i ? n / 2 : 0;
		double want = 0, mag = 0;
		for (l = 0; l < n; l++) {
			double x = (double)a[(size_t)row * n + l] * b[(size_t)col * n + l];
			want += x;
			mag += fabs(x);
		}
		if (fabs(c[(size_t)col * n + row] - want) > 1e-4 * mag + 1e-6)
			r->verified = 0;
	}
	str_copy(r->verify, sizeof(r->verify), r->verified ? "2 elements checked against a plain sum"
							   : "the result differs from a plain sum");
	free(a);
	free(b);
	free(c);
	r->state = BENCH_OK;
}
