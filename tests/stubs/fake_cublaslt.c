/*
 * fake_cublaslt.c - a mock libcublasLt.so for bench's tests: the entry
 * points bench calls, computing D = A^T B on the CPU for FP32, FP16, BF16
 * and FP8 inputs (small sizes only), so that bench's check against the CPU
 * is exercised. Device pointers are host pointers (fake_cuda.c).
 *
 * Scenario keys (GPUDOCTOR_FAKE_SCENARIO, see README.md): `lt_algos N`, how
 * many algorithms the heuristic returns (0: none for this problem).
 * Declarations come from src/nvidia/cublaslt_api.h.
 */
#include "../../src/nvidia/cublaslt_api.h"
#include "fake_scenario.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static struct {
	int read;
	int algos;
} S;

static void
on_line(const char *key, char **f, int n, void *ctx)
{
	(void)ctx;
	if (!strcmp(key, "lt_algos"))
		S.algos = (int)fake_num(f, n, 0, 4);
}

static void
load(void)
{
	if (S.read)
		return;
	S.read = 1;
	S.algos = 4;
	fake_scenario_read(on_line, NULL);
}

struct cublasLtContext {
	int unused;
};
struct cublasLtMatmulDescOpaque {
	int compute, transa, transb;
};
struct cublasLtMatrixLayoutOpaque {
	int type;
	uint64_t rows, cols;
	int64_t ld;
};
struct cublasLtMatmulPreferenceOpaque {
	uint64_t workspace;
};

size_t
cublasLtGetVersion(void)
{
	return 130100;
}

cublasStatus_t
cublasLtCreate(cublasLtHandle_t *h)
{
	static struct cublasLtContext c;

	load();
	*h = &c;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t
cublasLtDestroy(cublasLtHandle_t h)
{
	(void)h;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t
cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *d, int compute, int scale)
{
	(void)scale;
	*d = calloc(1, sizeof(**d));
	(*d)->compute = compute;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t
cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t d, int attr, const void *buf, size_t size)
{
	if (size != sizeof(int))
		return 7; /* CUBLAS_STATUS_INVALID_VALUE */
	if (attr == CUBLASLT_MATMUL_DESC_TRANSA)
		memcpy(&d->transa, buf, size);
	else if (attr == CUBLASLT_MATMUL_DESC_TRANSB)
		memcpy(&d->transb, buf, size);
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t
cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *l, int type, uint64_t rows, uint64_t cols, int64_t ld)
{
	*l = calloc(1, sizeof(**l));
	(*l)->type = type;
	(*l)->rows = rows;
	(*l)->cols = cols;
	(*l)->ld = ld;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t
cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *p)
{
	*p = calloc(1, sizeof(**p));
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t
cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t p, int attr, const void *buf, size_t size)
{
	if (attr == CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES && size == sizeof(uint64_t))
		memcpy(&p->workspace, buf, size);
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t
cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t h, cublasLtMatmulDesc_t d, cublasLtMatrixLayout_t a,
			       cublasLtMatrixLayout_t b, cublasLtMatrixLayout_t c, cublasLtMatrixLayout_t dd,
			       cublasLtMatmulPreference_t p, int requested, cublasLtMatmulHeuristicResult_t *res,
			       int *returned)
{
	int i;

	(void)h, (void)d, (void)a, (void)b, (void)c, (void)dd, (void)p;
	load();
	*returned = S.algos < requested ? S.algos : requested;
	for (i = 0; i < *returned; i++) {
		memset(&res[i], 0, sizeof(res[i]));
		res[i].algo.data[0] = (uint64_t)i;
	}
	return *returned ? CUBLAS_STATUS_SUCCESS : 15; /* CUBLAS_STATUS_NOT_SUPPORTED */
}

static double
get(const void *m, size_t i, int type)
{
	uint32_t u;
	float f;

	switch (type) {
	case CUDA_R_16F:
		u = ((const uint16_t *)m)[i];
		return ((u >> 15) ? -1 : 1) * ldexp(1 + (u & 0x3ff) / 1024.0, (int)((u >> 10) & 0x1f) - 15);
	case CUDA_R_16BF:
		u = (uint32_t)((const uint16_t *)m)[i] << 16;
		memcpy(&f, &u, 4);
		return f;
	case CUDA_R_8F_E4M3:
		u = ((const uint8_t *)m)[i];
		return ((u >> 7) ? -1 : 1) * ldexp(1 + (u & 7) / 8.0, (int)((u >> 3) & 0xf) - 7);
	default:
		memcpy(&f, (const float *)m + i, 4);
		return f;
	}
}

static void
put(void *m, size_t i, int type, double v)
{
	float f = (float)v;
	uint32_t u;

	memcpy(&u, &f, 4);
	if (type == CUDA_R_32F) {
		((float *)m)[i] = f;
	} else if (type == CUDA_R_16BF) {
		((uint16_t *)m)[i] = (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
	} else {
		/* fp16, normal range only: what the tests' sums give */
		int e = (int)((u >> 23) & 0xff) - 127 + 15;
		uint16_t h = (uint16_t)((u >> 16) & 0x8000);
		if (e > 0 && e < 31)
			h |= (uint16_t)(e << 10 | ((u >> 13) & 0x3ff));
		((uint16_t *)m)[i] = h;
	}
}

cublasStatus_t
cublasLtMatmul(cublasLtHandle_t h, cublasLtMatmulDesc_t d, const void *alpha, const void *a, cublasLtMatrixLayout_t la,
	       const void *b, cublasLtMatrixLayout_t lb, const void *beta, const void *c, cublasLtMatrixLayout_t lc,
	       void *dd, cublasLtMatrixLayout_t ld, const cublasLtMatmulAlgo_t *algo, void *ws, size_t wsize,
	       void *stream)
{
	uint64_t m = lc->rows, n = lc->cols, k = la->rows, i, j, l;

	(void)h, (void)alpha, (void)beta, (void)c, (void)algo, (void)ws, (void)wsize, (void)stream;
	if (d->transa != CUBLAS_OP_T || d->transb != CUBLAS_OP_N)
		return 15;
	for (j = 0; j < n; j++)
		for (i = 0; i < m; i++) {
			double sum = 0;
			for (l = 0; l < k; l++)
				sum += get(a, i * (uint64_t)la->ld + l, la->type) * get(b, j * (uint64_t)lb->ld + l, lb->type);
			put(dd, j * (uint64_t)ld->ld + i, ld->type, sum);
		}
	return CUBLAS_STATUS_SUCCESS;
}
