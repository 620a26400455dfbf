/*
 * cuda_load.h - the driver API entry points bench uses, looked up in the
 * child's libcuda, and the device and primary context a test runs on.
 */
#ifndef GPUDOCTOR_BENCH_CUDA_LOAD_H
#define GPUDOCTOR_BENCH_CUDA_LOAD_H

#include "bench/bench.h"
#include "nvidia/cuda_api.h"

struct cu {
	void *lib;
	CUdevice dev;
	CUcontext ctx;
	cuInit_fn Init;
	cuGetErrorName_fn GetErrorName;
	cuGetErrorString_fn GetErrorString;
	cuDeviceGet_fn DeviceGet;
	cuDeviceGetName_fn DeviceGetName;
	cuDeviceGetPCIBusId_fn DeviceGetPCIBusId;
	cuDeviceGetAttribute_fn DeviceGetAttribute;
	cuDevicePrimaryCtxRetain_fn PrimaryCtxRetain;
	cuCtxSetCurrent_fn CtxSetCurrent;
	cuModuleLoadDataEx_fn ModuleLoadDataEx;
	cuModuleGetFunction_fn ModuleGetFunction;
	cuLaunchKernel_fn LaunchKernel;
	cuMemAlloc_fn MemAlloc;
	cuMemFree_fn MemFree;
	cuMemHostAlloc_fn MemHostAlloc;
	cuMemFreeHost_fn MemFreeHost;
	cuMemcpyHtoD_fn MemcpyHtoD;
	cuMemcpyDtoH_fn MemcpyDtoH;
	cuMemcpyHtoDAsync_fn MemcpyHtoDAsync;
	cuMemcpyDtoHAsync_fn MemcpyDtoHAsync;
	cuMemcpyDtoDAsync_fn MemcpyDtoDAsync;
	cuMemsetD32_fn MemsetD32;
	cuStreamCreate_fn StreamCreate;
	cuStreamSynchronize_fn StreamSynchronize;
	cuEventCreate_fn EventCreate;
	cuEventRecord_fn EventRecord;
	cuEventSynchronize_fn EventSynchronize;
	cuEventElapsedTime_fn EventElapsedTime;
};

/* dlopen o->libcuda, look every entry point up, cuInit, take device
 * o->gpu and make its primary context current; fills r's device fields.
 * 0, or -1 with r->state and r->error set. */
int cu_open(struct cu *c, const struct bench_opts *o, struct bench_result *r);

/* Record a failed call in r ("cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (2): out
 * of memory"); returns -1. */
int cu_fail(const struct cu *c, struct bench_result *r, const char *call, CUresult rc);

/* Sample NVML on a thread while a test runs (the GPU at r->bus_id), and
 * pin this process to that GPU's CPUs first. */
struct bench_sampler;
struct bench_sampler *sampler_start(const struct bench_opts *o, const char *bus_id);
/* Stop sampling and write what was seen into out. */
void sampler_stop(struct bench_sampler *s, struct bench_nvml *out);
/* Only the timed part counts: samples taken outside are dropped. */
void sampler_timed(struct bench_sampler *s, bool on);

#endif
