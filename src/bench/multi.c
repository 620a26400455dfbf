/*
 * multi.c - the multi-GPU tests of a bench child.
 *
 * p2p_copy: for each ordered pair of GPUs, the copy engine of the first
 * copies a buffer into the second's memory (cuMemcpyPeerAsync), with peer
 * access enabled where cuDeviceCanAccessPeer allows it (otherwise the
 * driver stages the copy through host memory, as a framework's copy would
 * be); bandwidth in bytes copied per second and the latency of one 4-byte
 * copy, as CUDA's p2pBandwidthLatencyTest measures them.
 *
 * nccl_allreduce: NCCL's all-reduce of float sums across every GPU, one
 * communicator per GPU in this process (ncclCommInitAll), through the
 * libnccl the machine's frameworks load; the time of one all-reduce is
 * the wall time of ITERATIONS of them, and bus bandwidth is nccl-tests'
 * (algbw * 2(n-1)/n, the bandwidth each link must carry). The result is
 * checked: every GPU sends ones, so every element must come back as n.
 */
#include "bench/cuda_load.h"
#include "base/clock.h"
#include "base/str.h"
#include "base/vers.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define P2P_ITERATIONS 10
#define P2P_MIB 256
#define LATENCY_COPIES 100
#define NCCL_ITERATIONS 20
#define NCCL_WARMUP 3
#define ONE_F32 0x3f800000u             /* 1.0f */
#define CHECK_FLOATS 16384

/* nccl.h: the handful of names used (values from NCCL 2.x's nccl.h) */
typedef struct ncclComm *ncclComm_t;
typedef int ncclResult_t;
#define NCCL_SUCCESS 0
#define NCCL_FLOAT32 7
#define NCCL_SUM 0
typedef ncclResult_t (*ncclCommInitAll_fn)(ncclComm_t *comms, int n, const int *devs);
typedef ncclResult_t (*ncclAllReduce_fn)(const void *send, void *recv, size_t count, int type, int op,
					 ncclComm_t comm, CUstream s);
typedef ncclResult_t (*ncclGroup_fn)(void);
typedef ncclResult_t (*ncclCommDestroy_fn)(ncclComm_t comm);
typedef const char *(*ncclGetErrorString_fn)(ncclResult_t rc);
typedef ncclResult_t (*ncclGetVersion_fn)(int *version);

/* Every GPU of the machine as CUDA numbers them: device, primary context,
 * a stream. */
struct gpus {
	int n;
	CUdevice dev[BENCH_MAX_GPUS];
	CUcontext ctx[BENCH_MAX_GPUS];
	CUstream st[BENCH_MAX_GPUS];
};

static int
open_gpus(struct cu *c, const struct bench_opts *o, struct gpus *g, struct bench_result *r)
{
	cuDeviceGetCount_fn count;
	CUresult rc;
	int i;

	memset(g, 0, sizeof(*g));
	if (cu_open(c, o, r) < 0)
		return -1;
	if (!bench_sym(c->lib, o->libcuda, "cuDeviceGetCount", (void **)&count, r))
		return -1;
	if ((rc = count(&g->n)) != CUDA_SUCCESS)
		return cu_fail(c, r, "cuDeviceGetCount", rc);
	if (g->n > BENCH_MAX_GPUS)
		g->n = BENCH_MAX_GPUS;
	for (i = 0; i < g->n; i++) {
		if ((rc = c->DeviceGet(&g->dev[i], i)) != CUDA_SUCCESS)
			return cu_fail(c, r, "cuDeviceGet", rc);
		if ((rc = c->PrimaryCtxRetain(&g->ctx[i], g->dev[i])) != CUDA_SUCCESS)
			return cu_fail(c, r, "cuDevicePrimaryCtxRetain", rc);
		if ((rc = c->CtxSetCurrent(g->ctx[i])) != CUDA_SUCCESS)
			return cu_fail(c, r, "cuCtxSetCurrent", rc);
		if ((rc = c->StreamCreate(&g->st[i], CU_STREAM_NON_BLOCKING)) != CUDA_SUCCESS)
			return cu_fail(c, r, "cuStreamCreate", rc);
	}
	r->ngpus = g->n;
	return 0;
}

/* ---- p2p_copy -------------------------------------------------------- */

/* One pair: bytes from src's memory into dst's, on src's stream. */
static int
copy_pair(const struct cu *c, cuMemcpyPeerAsync_fn peer_copy, const struct gpus *g, int s, int d,
	  const CUdeviceptr *buf, size_t bytes, struct bench_result *r)
{
	CUevent e0, e1;
	CUresult rc;
	float ms = 0;
	int k;

	c->CtxSetCurrent(g->ctx[s]);
	if ((rc = c->EventCreate(&e0, CU_EVENT_DEFAULT)) != CUDA_SUCCESS ||
	    (rc = c->EventCreate(&e1, CU_EVENT_DEFAULT)) != CUDA_SUCCESS)
		return cu_fail(c, r, "cuEventCreate", rc);
	/* one copy first: peer mappings are made on the first use */
	if ((rc = peer_copy(buf[d], g->ctx[d], buf[s], g->ctx[s], bytes, g->st[s])) != CUDA_SUCCESS)
		return cu_fail(c, r, "cuMemcpyPeerAsync", rc);
	c->EventRecord(e0, g->st[s]);
	for (k = 0; k < P2P_ITERATIONS; k++)
		peer_copy(buf[d], g->ctx[d], buf[s], g->ctx[s], bytes, g->st[s]);
	c->EventRecord(e1, g->st[s]);
	if ((rc = c->EventSynchronize(e1)) != CUDA_SUCCESS)
		return cu_fail(c, r, "cuMemcpyPeerAsync", rc);
	c->EventElapsedTime(&ms, e0, e1);
	r->pair_gbs[s][d] = ms > 0 ? (float)(bytes * (double)P2P_ITERATIONS / (ms * 1e6)) : 0;
	/* latency: small copies one after another */
	c->EventRecord(e0, g->st[s]);
	for (k = 0; k < LATENCY_COPIES; k++)
		peer_copy(buf[d], g->ctx[d], buf[s], g->ctx[s], 4, g->st[s]);
	c->EventRecord(e1, g->st[s]);
	if ((rc = c->EventSynchronize(e1)) != CUDA_SUCCESS)
		return cu_fail(c, r, "cuMemcpyPeerAsync", rc);
	c->EventElapsedTime(&ms, e0, e1);
	r->pair_us[s][d] = ms * 1000.0f / LATENCY_COPIES;
	return 0;
}

/* Whether the last bytes copied into dst are src's pattern. */
static bool
copied(const struct cu *c, const struct gpus *g, int d, CUdeviceptr dst, size_t bytes, unsigned pattern)
{
	uint32_t v[256];
	size_t i;

	c->CtxSetCurrent(g->ctx[d]);
	if (c->MemcpyDtoH(v, dst + bytes - sizeof(v), sizeof(v)) != CUDA_SUCCESS)
		return false;
	for (i = 0; i < 256; i++)
		if (v[i] != pattern)
			return false;
	return true;
}

static void
p2p_copy(const struct cu *c, const struct bench_opts *o, const struct gpus *g, struct bench_result *r)
{
	cuDeviceCanAccessPeer_fn can_access;
	cuCtxEnablePeerAccess_fn enable;
	cuMemcpyPeerAsync_fn peer_copy;
	CUdeviceptr buf[BENCH_MAX_GPUS] = {0};
	size_t bytes = (size_t)(o->copy_mib < P2P_MIB ? o->copy_mib : P2P_MIB) << 20;
	double v[BENCH_MAX_GPUS * BENCH_MAX_GPUS], lo = 0;
	int s, d, nv = 0, lo_s = 0, lo_d = 0, wrong = 0, npeer = 0;
	CUresult rc;

	if (g->n < 2) {
		r->state = BENCH_SKIPPED;
		str_fmt(r->error, sizeof(r->error), "needs two GPUs or more; CUDA sees %d", g->n);
		return;
	}
	if (!bench_sym(c->lib, o->libcuda, "cuDeviceCanAccessPeer", (void **)&can_access, r) ||
	    !bench_sym(c->lib, o->libcuda, "cuCtxEnablePeerAccess", (void **)&enable, r) ||
	    !bench_sym(c->lib, o->libcuda, "cuMemcpyPeerAsync", (void **)&peer_copy, r))
		return;
	for (s = 0; s < g->n; s++) {
		c->CtxSetCurrent(g->ctx[s]);
		if ((rc = c->MemAlloc(&buf[s], bytes)) != CUDA_SUCCESS) {
			cu_fail(c, r, "cuMemAlloc", rc);
			return;
		}
		c->MemsetD32(buf[s], 0x1000u + (unsigned)s, bytes / 4);
	}
	for (s = 0; s < g->n; s++)
		for (d = 0; d < g->n; d++) {
			int can = 0;
			if (s == d)
				continue;
			if (can_access(&can, g->dev[s], g->dev[d]) == CUDA_SUCCESS && can) {
				c->CtxSetCurrent(g->ctx[s]);
				rc = enable(g->ctx[d], 0);
				if (rc == CUDA_SUCCESS || rc == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) {
					r->pair_peer[s][d] = 1;
					npeer++;
				}
			}
			if (copy_pair(c, peer_copy, g, s, d, buf, bytes, r) < 0)
				return;
			/* buf[d] now holds s's pattern: check it, then put d's back */
			wrong += !copied(c, g, d, buf[d], bytes, 0x1000u + (unsigned)s);
			c->CtxSetCurrent(g->ctx[d]);
			c->MemsetD32(buf[d], 0x1000u + (unsigned)d, bytes / 4);
			v[nv++] = r->pair_gbs[s][d];
			if (nv == 1 || r->pair_gbs[s][d] < lo) {
				lo = r->pair_gbs[s][d];
				lo_s = s;
				lo_d = d;
			}
			if (r->pair_gbs[s][d] > r->best)
				r->best = r->pair_gbs[s][d];
		}
	r->iterations = P2P_ITERATIONS;
	r->value = bench_median(v, nv);
	r->verified = wrong == 0;
	if (wrong)
		str_fmt(r->verify, sizeof(r->verify), "%d of %d pairs copied wrong data", wrong, nv);
	str_fmt(r->detail, sizeof(r->detail), "%d GPUs, %d of %d pairs with peer access, %zu MiB per copy; "
		"slowest GPU%d->GPU%d %.1f GB/s", g->n, npeer, nv, bytes >> 20, lo_s, lo_d, lo);
	r->state = BENCH_OK;
}

/* ---- nccl_allreduce -------------------------------------------------- */

struct nccl {
	void *lib;
	ncclCommInitAll_fn init_all;
	ncclAllReduce_fn all_reduce;
	ncclGroup_fn group_start, group_end;
	ncclCommDestroy_fn destroy;
	ncclGetErrorString_fn error_string;
	ncclGetVersion_fn version;
};

static int
nccl_fail(const struct nccl *nc, struct bench_result *r, const char *call, ncclResult_t rc)
{
	str_fmt(r->error, sizeof(r->error), "%s: %s (%d)", call, nc->error_string ? nc->error_string(rc) : "?",
		rc);
	r->state = BENCH_FAILED;
	return -1;
}

static int
nccl_load(struct nccl *nc, const struct bench_opts *o, struct bench_result *r)
{
	const char *e;
	int v = 0;

	memset(nc, 0, sizeof(*nc));
	nc->lib = dlopen(o->nccl, RTLD_NOW | RTLD_LOCAL);
	if (!nc->lib) {
		e = dlerror();
		str_fmt(r->error, sizeof(r->error), "cannot load %s: %s", o->nccl, e ? e : "?");
		r->state = BENCH_FAILED;
		return -1;
	}
	if (!bench_sym(nc->lib, o->nccl, "ncclCommInitAll", (void **)&nc->init_all, r) ||
	    !bench_sym(nc->lib, o->nccl, "ncclAllReduce", (void **)&nc->all_reduce, r) ||
	    !bench_sym(nc->lib, o->nccl, "ncclGroupStart", (void **)&nc->group_start, r) ||
	    !bench_sym(nc->lib, o->nccl, "ncclGroupEnd", (void **)&nc->group_end, r) ||
	    !bench_sym(nc->lib, o->nccl, "ncclCommDestroy", (void **)&nc->destroy, r) ||
	    !bench_sym(nc->lib, o->nccl, "ncclGetErrorString", (void **)&nc->error_string, r) ||
	    !bench_sym(nc->lib, o->nccl, "ncclGetVersion", (void **)&nc->version, r))
		return -1;
	STR_COPY(r->library, o->nccl);
	if (nc->version(&v) == NCCL_SUCCESS)
		vers_from_nccl_code(v, r->library_version, sizeof(r->library_version));
	return 0;
}

/* One all-reduce of count floats on every GPU. */
static ncclResult_t
all_reduce(const struct nccl *nc, const struct gpus *g, ncclComm_t *comms, const CUdeviceptr *send,
	   const CUdeviceptr *recv, size_t count)
{
	ncclResult_t rc;
	int i;

	if ((rc = nc->group_start()) != NCCL_SUCCESS)
		return rc;
	for (i = 0; i < g->n; i++)
		if ((rc = nc->all_reduce((const void *)(uintptr_t)send[i], (void *)(uintptr_t)recv[i], count,
					 NCCL_FLOAT32, NCCL_SUM, comms[i], g->st[i])) != NCCL_SUCCESS) {
			nc->group_end();
			return rc;
		}
	return nc->group_end();
}

static int
sync_all(const struct cu *c, const struct gpus *g, struct bench_result *r)
{
	CUresult rc;
	int i;

	for (i = 0; i < g->n; i++) {
		c->CtxSetCurrent(g->ctx[i]);
		if ((rc = c->StreamSynchronize(g->st[i])) != CUDA_SUCCESS)
			return cu_fail(c, r, "cuStreamSynchronize", rc);
	}
	return 0;
}

/* Every GPU's result of the last all-reduce of ones is n everywhere
 * (checked on its first CHECK_FLOATS elements). */
static bool
sums_right(const struct cu *c, const struct gpus *g, const CUdeviceptr *recv, size_t count)
{
	static float v[CHECK_FLOATS];
	size_t k, m = count < CHECK_FLOATS ? count : CHECK_FLOATS;
	int i;

	for (i = 0; i < g->n; i++) {
		c->CtxSetCurrent(g->ctx[i]);
		if (c->MemcpyDtoH(v, recv[i], m * sizeof(float)) != CUDA_SUCCESS)
			return false;
		for (k = 0; k < m; k++)
			if (v[k] != (float)g->n)     /* small integers: exact in float */
				return false;
	}
	return true;
}

static void
nccl_allreduce(const struct cu *c, const struct bench_opts *o, const struct gpus *g, struct bench_result *r)
{
	static const size_t mib[] = {8, 64, 512, 1024};
	CUdeviceptr send[BENCH_MAX_GPUS] = {0}, recv[BENCH_MAX_GPUS] = {0};
	ncclComm_t comms[BENCH_MAX_GPUS] = {0};
	size_t max = (size_t)o->copy_mib << 20, k;
	struct nccl nc;
	ncclResult_t nrc;
	CUresult rc;
	int i, it;
	bool right = true;

	if (!o->nccl[0]) {
		r->state = BENCH_SKIPPED;
		str_copy(r->error, sizeof(r->error), "no libnccl.so.2 found (pip install nvidia-nccl-cu12, "
			 "or the NCCL that a framework brings)");
		return;
	}
	if (nccl_load(&nc, o, r) < 0)
		return;
	for (i = 0; i < g->n; i++) {
		c->CtxSetCurrent(g->ctx[i]);
		if ((rc = c->MemAlloc(&send[i], max)) != CUDA_SUCCESS ||
		    (rc = c->MemAlloc(&recv[i], max)) != CUDA_SUCCESS) {
			cu_fail(c, r, "cuMemAlloc", rc);
			return;
		}
		c->MemsetD32(send[i], ONE_F32, max / 4);
	}
	c->CtxSetCurrent(g->ctx[0]);
	if ((nrc = nc.init_all(comms, g->n, NULL)) != NCCL_SUCCESS) {
		nccl_fail(&nc, r, "ncclCommInitAll", nrc);
		return;
	}
	for (k = 0; k < sizeof(mib) / sizeof(mib[0]) && r->nsizes < BENCH_MAX_SIZES; k++) {
		size_t bytes = mib[k] << 20, count = bytes / sizeof(float);
		double t0, sec;

		if (bytes > max)
			break;
		for (it = 0; it < NCCL_WARMUP; it++)
			if ((nrc = all_reduce(&nc, g, comms, send, recv, count)) != NCCL_SUCCESS) {
				nccl_fail(&nc, r, "ncclAllReduce", nrc);
				return;
			}
		if (sync_all(c, g, r) < 0)
			return;
		right &= sums_right(c, g, recv, count);
		t0 = (clock_ms() / 1000.0);
		for (it = 0; it < NCCL_ITERATIONS; it++)
			if ((nrc = all_reduce(&nc, g, comms, send, recv, count)) != NCCL_SUCCESS) {
				nccl_fail(&nc, r, "ncclAllReduce", nrc);
				return;
			}
		if (sync_all(c, g, r) < 0)
			return;
		sec = ((clock_ms() / 1000.0) - t0) / NCCL_ITERATIONS;
		r->size_bytes[r->nsizes] = (double)bytes;
		r->algbw[r->nsizes] = sec > 0 ? bytes / sec / 1e9 : 0;
		r->busbw[r->nsizes] = r->algbw[r->nsizes] * 2.0 * (g->n - 1) / g->n;
		r->nsizes++;
	}
	for (i = 0; i < g->n; i++)
		nc.destroy(comms[i]);
	if (!r->nsizes) {
		r->state = BENCH_SKIPPED;
		str_fmt(r->error, sizeof(r->error), "the buffer (%d MiB) is below the smallest size measured",
			o->copy_mib);
		return;
	}
	r->iterations = NCCL_ITERATIONS;
	/* the largest message: what a gradient all-reduce moves */
	r->value = g->n > 1 ? r->busbw[r->nsizes - 1] : r->algbw[r->nsizes - 1];
	r->best = r->value;
	r->verified = right;
	if (!right)
		str_copy(r->verify, sizeof(r->verify), "a sum of ones across the GPUs came back wrong");
	if (g->n > 1)
		str_fmt(r->detail, sizeof(r->detail), "%d GPUs, %.0f MiB floats, bus bandwidth (nccl-tests); "
			"algorithm bandwidth %.1f GB/s", g->n, r->size_bytes[r->nsizes - 1] / 1048576.0,
			r->algbw[r->nsizes - 1]);
	else
		str_fmt(r->detail, sizeof(r->detail), "1 GPU, %.0f MiB floats: algorithm bandwidth (bus "
			"bandwidth is 0 with one GPU)", r->size_bytes[r->nsizes - 1] / 1048576.0);
	r->state = BENCH_OK;
}

void
bench_multi_test(const struct bench_opts *o, int test, struct bench_result *r)
{
	struct cu c;
	struct gpus g;

	if (open_gpus(&c, o, &g, r) < 0)
		return;
	if (test == BENCH_P2P_COPY)
		p2p_copy(&c, o, &g, r);
	else
		nccl_allreduce(&c, o, &g, r);
}
