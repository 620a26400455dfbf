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

#endif
