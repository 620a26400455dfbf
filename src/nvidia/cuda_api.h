/*
 * cuda_api.h - our own minimal declarations of the few CUDA driver API
 * entry points, types and result codes gpudoctor uses. Nothing here is
 * linked: probe/driver.c looks the functions up with dlsym in a child
 * process, and tests/stubs/fake_cuda.c implements them.
 *
 * Written for this project from NVIDIA's public documentation: "CUDA Driver
 * API" reference, modules Error Handling (enum CUresult), Version
 * Management, Initialization and Device Management (enum CUdevice_attribute),
 * https://docs.nvidia.com/cuda/cuda-driver-api/ (CUDA 13.0). The numbers are
 * part of NVIDIA's stable ABI.
 *
 * Symbol names: the library exports versioned names for some calls
 * (cuDeviceTotalMem_v2: size_t result; the unsuffixed one is the old 32-bit
 * form) and both cuDeviceGetUuid and cuDeviceGetUuid_v2 with the same
 * signature.
 */
#ifndef GPUDOCTOR_CUDA_API_H
#define GPUDOCTOR_CUDA_API_H

#include <stddef.h>

typedef int CUresult;
typedef int CUdevice;
typedef int CUdevice_attribute;

typedef struct {
	char bytes[16];
} CUuuid;

/* enum CUresult: the codes gpudoctor names when the library cannot */
#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_OUT_OF_MEMORY 2
#define CUDA_ERROR_NOT_INITIALIZED 3
#define CUDA_ERROR_DEINITIALIZED 4
#define CUDA_ERROR_NO_DEVICE 100
#define CUDA_ERROR_INVALID_DEVICE 101
#define CUDA_ERROR_STUB_LIBRARY 34
#define CUDA_ERROR_DEVICE_UNAVAILABLE 46
#define CUDA_ERROR_INSUFFICIENT_DRIVER 35
#define CUDA_ERROR_OPERATING_SYSTEM 304
#define CUDA_ERROR_NOT_SUPPORTED 801
#define CUDA_ERROR_SYSTEM_NOT_READY 802
#define CUDA_ERROR_SYSTEM_DRIVER_MISMATCH 803
#define CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE 804
#define CUDA_ERROR_UNKNOWN 999

/* enum CUdevice_attribute */
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR 76

/* Function types, named after the entry point. */
typedef CUresult (*cuInit_fn)(unsigned int flags);
typedef CUresult (*cuDriverGetVersion_fn)(int *version);
typedef CUresult (*cuGetErrorName_fn)(CUresult rc, const char **name);
typedef CUresult (*cuGetErrorString_fn)(CUresult rc, const char **text);
typedef CUresult (*cuDeviceGetCount_fn)(int *count);
typedef CUresult (*cuDeviceGet_fn)(CUdevice *dev, int ordinal);
typedef CUresult (*cuDeviceGetName_fn)(char *name, int len, CUdevice dev);
typedef CUresult (*cuDeviceGetUuid_fn)(CUuuid *uuid, CUdevice dev);
typedef CUresult (*cuDeviceGetPCIBusId_fn)(char *bus_id, int len, CUdevice dev);
typedef CUresult (*cuDeviceGetAttribute_fn)(int *value, CUdevice_attribute attr, CUdevice dev);
typedef CUresult (*cuDeviceTotalMem_fn)(size_t *bytes, CUdevice dev);

/* What `gpudoctor bench` uses besides (bench/cuda_load.c), from the same
 * reference's modules Primary Context, Context, Module, Execution, Memory,
 * Stream and Event Management. */
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;

#define CUDA_ERROR_INVALID_PTX 218
#define CUDA_ERROR_JIT_COMPILER_NOT_FOUND 221
#define CUDA_ERROR_UNSUPPORTED_PTX_VERSION 222

#define CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT 16
#define CU_DEVICE_ATTRIBUTE_CLOCK_RATE 13            /* kHz */
#define CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE 36     /* kHz */
#define CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH 37 /* bits */

/* enum CUjit_option */
#define CU_JIT_INFO_LOG_BUFFER 3
#define CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES 4
#define CU_JIT_ERROR_LOG_BUFFER 5
#define CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES 6

#define CU_STREAM_NON_BLOCKING 1
#define CU_EVENT_DEFAULT 0
#define CU_MEMHOSTALLOC_PORTABLE 1

typedef CUresult (*cuDevicePrimaryCtxRetain_fn)(CUcontext *ctx, CUdevice dev);
typedef CUresult (*cuDevicePrimaryCtxRelease_fn)(CUdevice dev);
typedef CUresult (*cuCtxSetCurrent_fn)(CUcontext ctx);
typedef CUresult (*cuModuleLoadDataEx_fn)(CUmodule *mod, const void *image, unsigned int n,
					  int *options, void **values);
typedef CUresult (*cuModuleGetFunction_fn)(CUfunction *fn, CUmodule mod, const char *name);
typedef CUresult (*cuModuleUnload_fn)(CUmodule mod);
typedef CUresult (*cuLaunchKernel_fn)(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
				      unsigned by, unsigned bz, unsigned shared, CUstream s, void **params,
				      void **extra);
typedef CUresult (*cuMemAlloc_fn)(CUdeviceptr *p, size_t bytes);
typedef CUresult (*cuMemFree_fn)(CUdeviceptr p);
typedef CUresult (*cuMemHostAlloc_fn)(void **p, size_t bytes, unsigned int flags);
typedef CUresult (*cuMemFreeHost_fn)(void *p);
typedef CUresult (*cuMemcpyHtoD_fn)(CUdeviceptr dst, const void *src, size_t bytes);
typedef CUresult (*cuMemcpyDtoH_fn)(void *dst, CUdeviceptr src, size_t bytes);
typedef CUresult (*cuMemcpyHtoDAsync_fn)(CUdeviceptr dst, const void *src, size_t bytes, CUstream s);
typedef CUresult (*cuMemcpyDtoHAsync_fn)(void *dst, CUdeviceptr src, size_t bytes, CUstream s);
typedef CUresult (*cuMemcpyDtoDAsync_fn)(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream s);
typedef CUresult (*cuMemsetD32_fn)(CUdeviceptr dst, unsigned int value, size_t n);
typedef CUresult (*cuMemGetInfo_fn)(size_t *free_bytes, size_t *total_bytes);
typedef CUresult (*cuStreamCreate_fn)(CUstream *s, unsigned int flags);
typedef CUresult (*cuStreamDestroy_fn)(CUstream s);
typedef CUresult (*cuStreamSynchronize_fn)(CUstream s);
typedef CUresult (*cuEventCreate_fn)(CUevent *e, unsigned int flags);
typedef CUresult (*cuEventDestroy_fn)(CUevent e);
typedef CUresult (*cuEventRecord_fn)(CUevent e, CUstream s);
typedef CUresult (*cuEventSynchronize_fn)(CUevent e);
typedef CUresult (*cuEventElapsedTime_fn)(float *ms, CUevent start, CUevent end);

/* Peer access between two GPUs (Peer Context Memory Access). */
#define CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED 704
typedef CUresult (*cuDeviceCanAccessPeer_fn)(int *can, CUdevice dev, CUdevice peer);
typedef CUresult (*cuCtxEnablePeerAccess_fn)(CUcontext peer, unsigned int flags);
typedef CUresult (*cuMemcpyPeerAsync_fn)(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src,
					 CUcontext src_ctx, size_t bytes, CUstream s);

#endif
