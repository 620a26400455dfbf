/*
 * memory.c - the memory tests of a bench child: device-to-device with a
 * copy kernel and with the copy engine, host-to-device and back from
 * pinned and from pageable memory.
 *
 * The kernel is PTX text, JIT-compiled by the driver: no nvcc, no CUDA
 * headers, every driver since CUDA 9 accepts ISA 6.0 for sm_50 and runs
 * it on every later GPU. One 16-byte element per thread, which on an H200
 * reaches the same memory roofline as the copy engine.
 */
#include "bench/cuda_load.h"
#include "base/clock.h"
#include "base/str.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ITERATIONS 20
#define WARMUP 2
#define THREADS 256
#define PATTERN 0x5a17c3e9u
#define CHECK_BYTES (64u << 10)
#define CHECKS 8

static const char copy_ptx[] =
	".version 6.0\n"
	".target sm_50\n"
	".address_size 64\n"
	"\n"
	".visible .entry copy_v4(.param .u64 dst, .param .u64 src, .param .u64 n)\n"
	"{\n"
	"	.reg .pred p;\n"
	"	.reg .b32 r<4>;\n"
	"	.reg .b32 v<4>;\n"
	"	.reg .b64 d<8>;\n"
	"\n"
	"	ld.param.u64 d1, [dst];\n"
	"	ld.param.u64 d2, [src];\n"
	"	ld.param.u64 d3, [n];\n"
	"	mov.u32 r1, %ctaid.x;\n"
	"	mov.u32 r2, %ntid.x;\n"
	"	mov.u32 r3, %tid.x;\n"
	"	cvt.u64.u32 d4, r3;\n"
	"	mad.wide.u32 d4, r1, r2, d4;\n"
	"	setp.ge.u64 p, d4, d3;\n"
	"	@p ret;\n"
	"	shl.b64 d4, d4, 4;\n"
	"	cvta.to.global.u64 d5, d2;\n"
	"	add.s64 d5, d5, d4;\n"
	"	ld.global.v4.u32 {v0, v1, v2, v3}, [d5];\n"
	"	cvta.to.global.u64 d6, d1;\n"
	"	add.s64 d6, d6, d4;\n"
	"	st.global.v4.u32 [d6], {v0, v1, v2, v3};\n"
	"	ret;\n"
	"}\n";

double
bench_median(double *v, int n)
{
	int i, j;

	for (i = 1; i < n; i++) {
		double t = v[i];
		for (j = i; j > 0 && v[j - 1] > t; j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
	return n ? (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) : 0;
}

/* GB/s of each timed iteration (ms) into value (median) and best. */
static void
rates(struct bench_result *r, const float *ms, int n, double bytes)
{
	double gbs[ITERATIONS];
	int i;

	for (i = 0; i < n; i++) {
		gbs[i] = ms[i] > 0 ? bytes / (ms[i] / 1e3) / 1e9 : 0;
		if (gbs[i] > r->best)
			r->best = gbs[i];
	}
	r->value = bench_median(gbs, n);
	r->iterations = n;
}

/* Read back CHECKS slices of dst spread over it (the last one at its end):
 * each must hold the pattern. */
static void
verify(const struct cu *c, struct bench_result *r, CUdeviceptr dst, size_t bytes)
{
	static uint32_t buf[CHECK_BYTES / 4];
	size_t k, i, off, span = bytes < CHECK_BYTES ? bytes : CHECK_BYTES;

	for (k = 0; k < CHECKS; k++) {
		off = k == CHECKS - 1 ? bytes - span : (bytes - span) / CHECKS * k;
		off &= ~(size_t)15;
		if (c->MemcpyDtoH(buf, dst + off, span) != CUDA_SUCCESS) {
			r->verified = 0;
			str_copy(r->verify, sizeof(r->verify), "the copy could not be read back");
			return;
		}
		for (i = 0; i < span / 4; i++)
			if (buf[i] != PATTERN) {
				r->verified = 0;
				str_fmt(r->verify, sizeof(r->verify), "wrong data at byte %zu of the copy",
					off + i * 4);
				return;
			}
	}
	r->verified = 1;
	str_fmt(r->verify, sizeof(r->verify), "%d slices of %zu KiB read back", CHECKS, span >> 10);
}

static int
device_to_device(const struct cu *c, const struct bench_opts *o, int test, struct bench_result *r,
		 struct bench_sampler *s)
{
	size_t bytes = (size_t)o->copy_mib << 20, n16 = bytes / 16;
	CUdeviceptr src = 0, dst = 0;
	CUmodule mod = NULL;
	CUfunction fn = NULL;
	CUstream st;
	CUevent e0, e1;
	float ms[ITERATIONS];
	char log[2048] = "";
	int opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
	void *vals[2] = {log, (void *)(uintptr_t)sizeof(log)};
	unsigned blocks = (unsigned)((n16 + THREADS - 1) / THREADS);
	void *params[3];
	CUresult rc;
	int i;

	if (test == BENCH_D2D_KERNEL) {
		rc = c->ModuleLoadDataEx(&mod, copy_ptx, 2, opts, vals);
		if (rc != CUDA_SUCCESS) {
			cu_fail(c, r, "cuModuleLoadDataEx (the PTX copy kernel)", rc);
			if (log[0])
				str_fmt(r->detail, sizeof(r->detail), "JIT: %s", log);
			return -1;
		}
		if ((rc = c->ModuleGetFunction(&fn, mod, "copy_v4")) != CUDA_SUCCESS)
			return cu_fail(c, r, "cuModuleGetFunction", rc);
	}
	if ((rc = c->MemAlloc(&src, bytes)) != CUDA_SUCCESS || (rc = c->MemAlloc(&dst, bytes)) != CUDA_SUCCESS)
		return cu_fail(c, r, "cuMemAlloc", rc);
	if ((rc = c->MemsetD32(src, PATTERN, bytes / 4)) != CUDA_SUCCESS ||
	    (rc = c->MemsetD32(dst, 0, bytes / 4)) != CUDA_SUCCESS)
		return cu_fail(c, r, "cuMemsetD32", rc);
	if ((rc = c->StreamCreate(&st, CU_STREAM_NON_BLOCKING)) != CUDA_SUCCESS ||
	    (rc = c->EventCreate(&e0, CU_EVENT_DEFAULT)) != CUDA_SUCCESS ||
	    (rc = c->EventCreate(&e1, CU_EVENT_DEFAULT)) != CUDA_SUCCESS)
		return cu_fail(c, r, "cuStreamCreate", rc);
	params[0] = &dst;
	params[1] = &src;
	params[2] = &n16;
	for (i = -WARMUP; i < ITERATIONS; i++) {
		if (i == 0)
			sampler_timed(s, true);
		c->EventRecord(e0, st);
		rc = test == BENCH_D2D_KERNEL
			     ? c->LaunchKernel(fn, blocks, 1, 1, THREADS, 1, 1, 0, st, params, NULL)
			     : c->MemcpyDtoDAsync(dst, src, bytes, st);
		if (rc != CUDA_SUCCESS)
			return cu_fail(c, r, test == BENCH_D2D_KERNEL ? "cuLaunchKernel" : "cuMemcpyDtoDAsync", rc);
		c->EventRecord(e1, st);
		if ((rc = c->EventSynchronize(e1)) != CUDA_SUCCESS)
			return cu_fail(c, r, "cuEventSynchronize", rc);
		if (i >= 0)
			c->EventElapsedTime(&ms[i], e0, e1);
	}
	sampler_timed(s, false);
	rates(r, ms, ITERATIONS, (double)bytes);
	r->value_rw = 2 * r->value;
	str_fmt(r->detail, sizeof(r->detail), "%d MiB, %d iterations%s", o->copy_mib, ITERATIONS,
		test == BENCH_D2D_KERNEL ? ", PTX kernel JIT-compiled by the driver, 16 B per thread"
					 : ", cuMemcpyDtoDAsync");
	verify(c, r, dst, bytes);
	return 0;
}

static int
host_transfer(const struct cu *c, const struct bench_opts *o, int test, struct bench_result *r,
	      struct bench_sampler *s)
{
	size_t bytes = (size_t)o->host_mib << 20;
	bool pinned = test == BENCH_H2D_PINNED || test == BENCH_D2H_PINNED;
	bool up = test == BENCH_H2D_PINNED || test == BENCH_H2D_PAGEABLE;
	CUdeviceptr dev = 0;
	void *host = NULL;
	CUstream st;
	CUevent e0, e1;
	float ms[ITERATIONS];
	CUresult rc;
	uint32_t *w;
	size_t k;
	int i;

	if ((rc = c->MemAlloc(&dev, bytes)) != CUDA_SUCCESS)
		return cu_fail(c, r, "cuMemAlloc", rc);
	if (pinned) {
		if ((rc = c->MemHostAlloc(&host, bytes, CU_MEMHOSTALLOC_PORTABLE)) != CUDA_SUCCESS)
			return cu_fail(c, r, "cuMemHostAlloc", rc);
	} else if (!(host = malloc(bytes))) {
		str_copy(r->error, sizeof(r->error), "out of host memory");
		r->state = BENCH_FAILED;
		return -1;
	}
	w = host;
	for (k = 0; k < bytes / 4; k++)
		w[k] = up ? PATTERN : 0;     /* from the device: the pattern must arrive */
	if (!up && (rc = c->MemsetD32(dev, PATTERN, bytes / 4)) != CUDA_SUCCESS)
		return cu_fail(c, r, "cuMemsetD32", rc);
	if ((rc = c->StreamCreate(&st, CU_STREAM_NON_BLOCKING)) != CUDA_SUCCESS ||
	    (rc = c->EventCreate(&e0, CU_EVENT_DEFAULT)) != CUDA_SUCCESS ||
	    (rc = c->EventCreate(&e1, CU_EVENT_DEFAULT)) != CUDA_SUCCESS)
		return cu_fail(c, r, "cuStreamCreate", rc);
	for (i = -WARMUP; i < ITERATIONS; i++) {
		double t0 = clock_ms();
		if (i == 0)
			sampler_timed(s, true);
		if (pinned) {
			c->EventRecord(e0, st);
			rc = up ? c->MemcpyHtoDAsync(dev, host, bytes, st) : c->MemcpyDtoHAsync(host, dev, bytes, st);
			c->EventRecord(e1, st);
			if (rc == CUDA_SUCCESS)
				rc = c->EventSynchronize(e1);
			if (rc == CUDA_SUCCESS && i >= 0)
				c->EventElapsedTime(&ms[i], e0, e1);
		} else {
			/* pageable memory is staged through the driver's pinned
			 * buffers, by the CPU: wall time is what a program sees */
			rc = up ? c->MemcpyHtoD(dev, host, bytes) : c->MemcpyDtoH(host, dev, bytes);
			if (i >= 0)
				ms[i] = (float)(clock_ms() - t0);
		}
		if (rc != CUDA_SUCCESS)
			return cu_fail(c, r, up ? "cuMemcpyHtoD" : "cuMemcpyDtoH", rc);
	}
	sampler_timed(s, false);
	rates(r, ms, ITERATIONS, (double)bytes);
	str_fmt(r->detail, sizeof(r->detail), "%d MiB, %d iterations, %s host memory%s", o->host_mib,
		ITERATIONS, pinned ? "pinned (cuMemHostAlloc)" : "pageable (malloc)",
		pinned ? ", CUDA events" : ", wall time");
	if (up) {
		verify(c, r, dev, bytes);
	} else {
		r->verified = 1;
		for (k = 0; k < bytes / 4 && r->verified; k++)
			r->verified = w[k] == PATTERN;
		str_copy(r->verify, sizeof(r->verify), r->verified ? "every byte read back" : "wrong data read back");
	}
	return 0;
}

void
bench_memory_test(const struct bench_opts *o, int test, struct bench_result *r)
{
	struct cu c;
	struct bench_sampler *s;

	if (cu_open(&c, o, r) < 0)
		return;
	s = sampler_start(o, r->bus_id);
	if ((test == BENCH_D2D_KERNEL || test == BENCH_D2D_COPY ? device_to_device(&c, o, test, r, s)
								  : host_transfer(&c, o, test, r, s)) == 0)
		r->state = BENCH_OK;
	sampler_stop(s, &r->nvml);
}
