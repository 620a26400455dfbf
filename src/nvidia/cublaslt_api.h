/*
 * cublaslt_api.h - our own declarations of the cuBLASLt entry points,
 * types and enum values `gpudoctor bench` uses; nothing is linked: the
 * library is dlopen'ed in a child (bench/gemm.c).
 *
 * Written from NVIDIA's public documentation, "cuBLAS" guide, section
 * "Using the cuBLASLt API" (https://docs.nvidia.com/cuda/cublas/#using-the-cublaslt-api):
 * cublasLtMatmul, cublasLtMatmulAlgoGetHeuristic, cublasLtMatmulDescAttributes_t,
 * cublasLtMatmulPreferenceAttributes_t, cublasComputeType_t and cudaDataType_t.
 * The numbers are part of the stable ABI; each was checked against the CUDA
 * 13.0 toolkit's headers.
 */
#ifndef GPUDOCTOR_CUBLASLT_API_H
#define GPUDOCTOR_CUBLASLT_API_H

#include <stddef.h>
#include <stdint.h>

typedef int cublasStatus_t;
typedef struct cublasLtContext *cublasLtHandle_t;
typedef struct cublasLtMatmulDescOpaque *cublasLtMatmulDesc_t;
typedef struct cublasLtMatrixLayoutOpaque *cublasLtMatrixLayout_t;
typedef struct cublasLtMatmulPreferenceOpaque *cublasLtMatmulPreference_t;

/* cublasLtMatmulAlgo_t: 64 opaque bytes */
typedef struct {
	uint64_t data[8];
} cublasLtMatmulAlgo_t;

/* cublasLtMatmulHeuristicResult_t: 96 bytes */
typedef struct {
	cublasLtMatmulAlgo_t algo;
	size_t workspaceSize;
	cublasStatus_t state;
	float wavesCount;
	int reserved[4];
} cublasLtMatmulHeuristicResult_t;

#define CUBLAS_STATUS_SUCCESS 0

/* cudaDataType_t */
#define CUDA_R_32F 0
#define CUDA_R_16F 2
#define CUDA_R_16BF 14
#define CUDA_R_8F_E4M3 28

/* cublasComputeType_t */
#define CUBLAS_COMPUTE_32F 68
#define CUBLAS_COMPUTE_32F_FAST_TF32 77

/* cublasLtMatmulDescAttributes_t */
#define CUBLASLT_MATMUL_DESC_TRANSA 3
#define CUBLASLT_MATMUL_DESC_TRANSB 4

/* cublasLtMatmulPreferenceAttributes_t */
#define CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES 1

/* cublasOperation_t */
#define CUBLAS_OP_N 0
#define CUBLAS_OP_T 1

typedef size_t (*cublasLtGetVersion_fn)(void);
typedef cublasStatus_t (*cublasLtCreate_fn)(cublasLtHandle_t *h);
typedef cublasStatus_t (*cublasLtDestroy_fn)(cublasLtHandle_t h);
typedef cublasStatus_t (*cublasLtMatmulDescCreate_fn)(cublasLtMatmulDesc_t *d, int compute, int scale);
typedef cublasStatus_t (*cublasLtMatmulDescDestroy_fn)(cublasLtMatmulDesc_t d);
typedef cublasStatus_t (*cublasLtMatmulDescSetAttribute_fn)(cublasLtMatmulDesc_t d, int attr,
							     const void *buf, size_t size);
typedef cublasStatus_t (*cublasLtMatrixLayoutCreate_fn)(cublasLtMatrixLayout_t *l, int type, uint64_t rows,
							 uint64_t cols, int64_t ld);
typedef cublasStatus_t (*cublasLtMatrixLayoutDestroy_fn)(cublasLtMatrixLayout_t l);
typedef cublasStatus_t (*cublasLtMatmulPreferenceCreate_fn)(cublasLtMatmulPreference_t *p);
typedef cublasStatus_t (*cublasLtMatmulPreferenceDestroy_fn)(cublasLtMatmulPreference_t p);
typedef cublasStatus_t (*cublasLtMatmulPreferenceSetAttribute_fn)(cublasLtMatmulPreference_t p, int attr,
								   const void *buf, size_t size);
typedef cublasStatus_t (*cublasLtMatmulAlgoGetHeuristic_fn)(
	cublasLtHandle_t h, cublasLtMatmulDesc_t d, cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,
	cublasLtMatrixLayout_t c, cublasLtMatrixLayout_t dd, cublasLtMatmulPreference_t p, int requested,
	cublasLtMatmulHeuristicResult_t *results, int *returned);
typedef cublasStatus_t (*cublasLtMatmul_fn)(cublasLtHandle_t h, cublasLtMatmulDesc_t d, const void *alpha,
					    const void *a, cublasLtMatrixLayout_t la, const void *b,
					    cublasLtMatrixLayout_t lb, const void *beta, const void *c,
					    cublasLtMatrixLayout_t lc, void *dd, cublasLtMatrixLayout_t ld,
					    const cublasLtMatmulAlgo_t *algo, void *workspace, size_t wsize,
					    void *stream);

#endif
