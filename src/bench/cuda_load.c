/*
 * cuda_load.c - libcuda in a bench child: the entry points, the device,
 * its primary context (cuCtxCreate's signature changed in CUDA 13; the
 * primary context did not).
 */
#include "bench/cuda_load.h"
#include "base/str.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#define SYM(field, name)                                                       \
	do {                                                                   \
		if (!bench_sym(c->lib, o->libcuda, name, (void **)&c->field, r)) \
			return -1;                                             \
	} while (0)

int
cu_fail(const struct cu *c, struct bench_result *r, const char *call, CUresult rc)
{
	const char *name = NULL, *text = NULL;

	if (c->GetErrorName)
		c->GetErrorName(rc, &name);
	if (c->GetErrorString)
		c->GetErrorString(rc, &text);
	str_fmt(r->error, sizeof(r->error), "%s: %s (%d)%s%s", call, name ? name : "CUresult", rc,
		text ? ": " : "", text ? text : "");
	r->cu_error = rc;
	r->state = BENCH_FAILED;
	return -1;
}

int
cu_open(struct cu *c, const struct bench_opts *o, struct bench_result *r)
{
	CUresult rc;
	const char *e;

	memset(c, 0, sizeof(*c));
	c->lib = dlopen(o->libcuda, RTLD_NOW | RTLD_LOCAL);
	if (!c->lib) {
		e = dlerror();
		str_fmt(r->error, sizeof(r->error), "cannot load %s: %s", o->libcuda, e ? e : "?");
		r->state = BENCH_FAILED;
		return -1;
	}
	SYM(Init, "cuInit");
	SYM(GetErrorName, "cuGetErrorName");
	SYM(GetErrorString, "cuGetErrorString");
	SYM(DeviceGet, "cuDeviceGet");
	SYM(DeviceGetName, "cuDeviceGetName");
	SYM(DeviceGetPCIBusId, "cuDeviceGetPCIBusId");
	SYM(DeviceGetAttribute, "cuDeviceGetAttribute");
	SYM(PrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
	SYM(CtxSetCurrent, "cuCtxSetCurrent");
	SYM(ModuleLoadDataEx, "cuModuleLoadDataEx");
	SYM(ModuleGetFunction, "cuModuleGetFunction");
	SYM(LaunchKernel, "cuLaunchKernel");
	SYM(MemAlloc, "cuMemAlloc_v2");
	SYM(MemFree, "cuMemFree_v2");
	SYM(MemHostAlloc, "cuMemHostAlloc");
	SYM(MemFreeHost, "cuMemFreeHost");
	SYM(MemcpyHtoD, "cuMemcpyHtoD_v2");
	SYM(MemcpyDtoH, "cuMemcpyDtoH_v2");
	SYM(MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
	SYM(MemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2");
	SYM(MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2");
	SYM(MemsetD32, "cuMemsetD32_v2");
	SYM(StreamCreate, "cuStreamCreate");
	SYM(StreamSynchronize, "cuStreamSynchronize");
	SYM(EventCreate, "cuEventCreate");
	SYM(EventRecord, "cuEventRecord");
	SYM(EventSynchronize, "cuEventSynchronize");
	SYM(EventElapsedTime, "cuEventElapsedTime");
	if ((rc = c->Init(0)) != CUDA_SUCCESS)
		return cu_fail(c, r, "cuInit", rc);
	if ((rc = c->DeviceGet(&c->dev, o->gpu)) != CUDA_SUCCESS)
		return cu_fail(c, r, "cuDeviceGet", rc);
	c->DeviceGetName(r->gpu_name, (int)sizeof(r->gpu_name), c->dev);
	c->DeviceGetPCIBusId(r->bus_id, (int)sizeof(r->bus_id), c->dev);
	c->DeviceGetAttribute(&r->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, c->dev);
	c->DeviceGetAttribute(&r->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, c->dev);
	if ((rc = c->PrimaryCtxRetain(&c->ctx, c->dev)) != CUDA_SUCCESS)
		return cu_fail(c, r, "cuDevicePrimaryCtxRetain", rc);
	if ((rc = c->CtxSetCurrent(c->ctx)) != CUDA_SUCCESS)
		return cu_fail(c, r, "cuCtxSetCurrent", rc);
	return 0;
}
