/*
 * nvml_api.h - our own minimal declarations of the NVML (libnvidia-ml)
 * entry points, types and return codes gpudoctor uses. Nothing here is
 * linked: probe/driver.c looks the functions up with dlsym in a child
 * process, and tests/stubs/fake_nvml.c implements them.
 *
 * Written for this project from NVIDIA's public documentation: "NVML API
 * Reference Manual", https://docs.nvidia.com/deploy/nvml-api/ (sections
 * Device Enums, Device Structs, Initialization and Cleanup, System Queries,
 * Device Queries, Error reporting; driver branch r580). The numbers and
 * struct layouts are part of NVIDIA's stable ABI; versioned entry points
 * (_v2, _v3) exist where a layout changed, and we only call the versions
 * whose layout is declared here.
 */
#ifndef GPUDOCTOR_NVML_API_H
#define GPUDOCTOR_NVML_API_H

typedef int nvmlReturn_t;
typedef struct nvmlDevice_st *nvmlDevice_t;

/* nvmlReturn_t */
#define NVML_SUCCESS 0
#define NVML_ERROR_UNINITIALIZED 1
#define NVML_ERROR_INVALID_ARGUMENT 2
#define NVML_ERROR_NOT_SUPPORTED 3
#define NVML_ERROR_NO_PERMISSION 4
#define NVML_ERROR_ALREADY_INITIALIZED 5
#define NVML_ERROR_NOT_FOUND 6
#define NVML_ERROR_INSUFFICIENT_SIZE 7
#define NVML_ERROR_INSUFFICIENT_POWER 8
#define NVML_ERROR_DRIVER_NOT_LOADED 9
#define NVML_ERROR_TIMEOUT 10
#define NVML_ERROR_IRQ_ISSUE 11
#define NVML_ERROR_LIBRARY_NOT_FOUND 12
#define NVML_ERROR_FUNCTION_NOT_FOUND 13
#define NVML_ERROR_CORRUPTED_INFOROM 14
#define NVML_ERROR_GPU_IS_LOST 15
#define NVML_ERROR_RESET_REQUIRED 16
#define NVML_ERROR_OPERATING_SYSTEM 17
#define NVML_ERROR_LIB_RM_VERSION_MISMATCH 18
#define NVML_ERROR_IN_USE 19
#define NVML_ERROR_MEMORY 20
#define NVML_ERROR_NO_DATA 21
#define NVML_ERROR_VGPU_ECC_NOT_SUPPORTED 22
#define NVML_ERROR_INSUFFICIENT_RESOURCES 23
#define NVML_ERROR_FREQ_NOT_SUPPORTED 24
#define NVML_ERROR_ARGUMENT_VERSION_MISMATCH 25
#define NVML_ERROR_DEPRECATED 26
#define NVML_ERROR_NOT_READY 27
#define NVML_ERROR_GPU_NOT_FOUND 28
#define NVML_ERROR_INVALID_STATE 29
#define NVML_ERROR_UNKNOWN 999

/* Buffer sizes (NVML_DEVICE_*_BUFFER_SIZE, NVML_SYSTEM_*_BUFFER_SIZE) */
#define NVML_DEVICE_NAME_V2_BUFFER_SIZE 96
#define NVML_DEVICE_UUID_V2_BUFFER_SIZE 96
#define NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE 80
#define NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE 32
#define NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE 16

/* usedGpuMemory when the driver cannot say (NVML_VALUE_NOT_AVAILABLE) */
#define NVML_VALUE_NOT_AVAILABLE (~0ULL)

/* nvmlTemperatureSensors_t */
#define NVML_TEMPERATURE_GPU 0
/* nvmlClockType_t */
#define NVML_CLOCK_GRAPHICS 0
#define NVML_CLOCK_SM 1
#define NVML_CLOCK_MEM 2
/* nvmlMemoryErrorType_t */
#define NVML_MEMORY_ERROR_TYPE_CORRECTED 0
#define NVML_MEMORY_ERROR_TYPE_UNCORRECTED 1
/* nvmlEccCounterType_t */
#define NVML_VOLATILE_ECC 0
#define NVML_AGGREGATE_ECC 1

/* nvmlTemperatureThresholds_t */
#define NVML_TEMPERATURE_THRESHOLD_SHUTDOWN 0
#define NVML_TEMPERATURE_THRESHOLD_SLOWDOWN 1
/* nvmlPcieUtilCounter_t */
#define NVML_PCIE_UTIL_TX_BYTES 0
#define NVML_PCIE_UTIL_RX_BYTES 1
/* nvmlPageRetirementCause_t */
#define NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS 0
#define NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR 1
/* MIG ids of a process when the GPU is not in MIG mode */
#define NVML_NO_INSTANCE_ID 0xFFFFFFFFu

/* nvmlClocksEventReasons (the deprecated nvmlClocksThrottleReasons have
 * the same bits) */
#define NVML_CLOCKS_EVENT_GPU_IDLE 0x1ULL
#define NVML_CLOCKS_EVENT_APPLICATIONS_CLOCKS_SETTING 0x2ULL
#define NVML_CLOCKS_EVENT_SW_POWER_CAP 0x4ULL
#define NVML_CLOCKS_EVENT_HW_SLOWDOWN 0x8ULL
#define NVML_CLOCKS_EVENT_SYNC_BOOST 0x10ULL
#define NVML_CLOCKS_EVENT_SW_THERMAL 0x20ULL
#define NVML_CLOCKS_EVENT_HW_THERMAL 0x40ULL
#define NVML_CLOCKS_EVENT_HW_POWER_BRAKE 0x80ULL
#define NVML_CLOCKS_EVENT_DISPLAY_CLOCK_SETTING 0x100ULL

/* nvmlProcessUtilizationSample_t (nvmlDeviceGetProcessUtilization) */
typedef struct {
	unsigned int pid;
	unsigned long long timeStamp;   /* microseconds, CPU clock */
	unsigned int smUtil;
	unsigned int memUtil;
	unsigned int encUtil;
	unsigned int decUtil;
} nvmlProcessUtilizationSample_t;

/* nvmlPciInfo_t as filled by nvmlDeviceGetPciInfo_v2 and _v3 (the
 * unsuffixed v1 call fills an older, shorter layout: never used). */
typedef struct {
	char busIdLegacy[NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE];
	unsigned int domain;
	unsigned int bus;
	unsigned int device;
	unsigned int pciDeviceId;    /* device id << 16 | vendor id */
	unsigned int pciSubSystemId;
	char busId[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE]; /* "00000000:06:00.0" */
} nvmlPciInfo_t;

/* nvmlMemory_t (v1, for nvmlDeviceGetMemoryInfo), bytes */
typedef struct {
	unsigned long long total;
	unsigned long long free;
	unsigned long long used;
} nvmlMemory_t;

/* nvmlMemory_v2_t (nvmlDeviceGetMemoryInfo_v2): reserved apart from used,
 * as nvidia-smi shows it; version = nvmlMemory_v2 = size | 2 << 24 */
typedef struct {
	unsigned int version;
	unsigned long long total;
	unsigned long long reserved;
	unsigned long long free;
	unsigned long long used;
} nvmlMemory_v2_t;
#define NVML_MEMORY_V2_VERSION ((unsigned int)(sizeof(nvmlMemory_v2_t) | 2u << 24))

/* nvmlUtilization_t, percent over the last sample period */
typedef struct {
	unsigned int gpu;
	unsigned int memory;
} nvmlUtilization_t;

/* nvmlProcessInfo_v1_t: the unsuffixed Compute/GraphicsRunningProcesses */
typedef struct {
	unsigned int pid;
	unsigned long long usedGpuMemory;
} nvmlProcessInfo_v1_t;

/* nvmlProcessInfo_t (= nvmlProcessInfo_v2_t): the _v2 and _v3 calls */
typedef struct {
	unsigned int pid;
	unsigned long long usedGpuMemory;
	unsigned int gpuInstanceId;
	unsigned int computeInstanceId;
} nvmlProcessInfo_t;

/* Function types, named after the entry point family. */
typedef nvmlReturn_t (*nvmlInit_fn)(void);
typedef nvmlReturn_t (*nvmlShutdown_fn)(void);
typedef const char *(*nvmlErrorString_fn)(nvmlReturn_t rc);
typedef nvmlReturn_t (*nvmlSystemGetDriverVersion_fn)(char *version, unsigned int len);
typedef nvmlReturn_t (*nvmlSystemGetCudaDriverVersion_fn)(int *version);
typedef nvmlReturn_t (*nvmlDeviceGetCount_fn)(unsigned int *count);
typedef nvmlReturn_t (*nvmlDeviceGetHandleByIndex_fn)(unsigned int index, nvmlDevice_t *dev);
typedef nvmlReturn_t (*nvmlDeviceGetPciInfo_fn)(nvmlDevice_t dev, nvmlPciInfo_t *pci);
typedef nvmlReturn_t (*nvmlDeviceGetString_fn)(nvmlDevice_t dev, char *out, unsigned int len);
typedef nvmlReturn_t (*nvmlDeviceGetMemoryInfo_fn)(nvmlDevice_t dev, nvmlMemory_t *mem);
typedef nvmlReturn_t (*nvmlDeviceGetMemoryInfo_v2_fn)(nvmlDevice_t dev, nvmlMemory_v2_t *mem);
typedef nvmlReturn_t (*nvmlDeviceGetTemperature_fn)(nvmlDevice_t dev, int sensor, unsigned int *temp);
typedef nvmlReturn_t (*nvmlDeviceGetUint_fn)(nvmlDevice_t dev, unsigned int *value);
typedef nvmlReturn_t (*nvmlDeviceGetU64_fn)(nvmlDevice_t dev, unsigned long long *value);
/* nvmlEnableState_t and nvmlComputeMode_t are C enums: int-sized */
typedef nvmlReturn_t (*nvmlDeviceGetEnum_fn)(nvmlDevice_t dev, int *value);
typedef nvmlReturn_t (*nvmlDeviceGetEnumPair_fn)(nvmlDevice_t dev, int *current, int *pending);
typedef nvmlReturn_t (*nvmlDeviceGetMigMode_fn)(nvmlDevice_t dev, unsigned int *current,
	unsigned int *pending);
typedef nvmlReturn_t (*nvmlDeviceGetUtilizationRates_fn)(nvmlDevice_t dev, nvmlUtilization_t *u);
typedef nvmlReturn_t (*nvmlDeviceGetClock_fn)(nvmlDevice_t dev, int type, unsigned int *mhz);
typedef nvmlReturn_t (*nvmlDeviceGetTotalEccErrors_fn)(nvmlDevice_t dev, int error_type,
	int counter_type, unsigned long long *count);
/* infos points at nvmlProcessInfo_t or nvmlProcessInfo_v1_t, by version */
typedef nvmlReturn_t (*nvmlDeviceGetProcesses_fn)(nvmlDevice_t dev, unsigned int *count,
	void *infos);

typedef nvmlReturn_t (*nvmlDeviceGetTempThreshold_fn)(nvmlDevice_t dev, int threshold,
	unsigned int *temp);
typedef nvmlReturn_t (*nvmlDeviceGetPcieThroughput_fn)(nvmlDevice_t dev, int counter,
	unsigned int *kib_per_s);
typedef nvmlReturn_t (*nvmlDeviceGetRemappedRows_fn)(nvmlDevice_t dev, unsigned int *corrected,
	unsigned int *uncorrected, unsigned int *pending, unsigned int *failure);
typedef nvmlReturn_t (*nvmlDeviceGetRetiredPages_fn)(nvmlDevice_t dev, int cause,
	unsigned int *count, unsigned long long *addresses);
typedef nvmlReturn_t (*nvmlDeviceGetProcessUtilization_fn)(nvmlDevice_t dev,
	nvmlProcessUtilizationSample_t *samples, unsigned int *count, unsigned long long last_seen);

/* Topology (nvidia-smi topo -m, topo -p2p): nvmlGpuTopologyLevel_t,
 * nvmlGpuP2PCapsIndex_t, nvmlGpuP2PStatus_t, nvmlIntNvLinkDeviceType_t. */
#define NVML_TOPOLOGY_INTERNAL 0
#define NVML_TOPOLOGY_SINGLE 10
#define NVML_TOPOLOGY_MULTIPLE 20
#define NVML_TOPOLOGY_HOSTBRIDGE 30
#define NVML_TOPOLOGY_NODE 40
#define NVML_TOPOLOGY_SYSTEM 50
#define NVML_P2P_CAPS_INDEX_READ 0
#define NVML_P2P_CAPS_INDEX_WRITE 1
#define NVML_P2P_CAPS_INDEX_NVLINK 2
#define NVML_P2P_CAPS_INDEX_ATOMICS 3
#define NVML_P2P_STATUS_OK 0
#define NVML_P2P_STATUS_CHIPSET_NOT_SUPPORTED 1
#define NVML_P2P_STATUS_GPU_NOT_SUPPORTED 2
#define NVML_P2P_STATUS_IOH_TOPOLOGY_NOT_SUPPORTED 3
#define NVML_P2P_STATUS_DISABLED_BY_REGKEY 4
#define NVML_P2P_STATUS_NOT_SUPPORTED 5
#define NVML_P2P_STATUS_UNKNOWN 6
#define NVML_NVLINK_MAX_LINKS 18
#define NVML_NVLINK_DEVICE_TYPE_GPU 0
#define NVML_NVLINK_DEVICE_TYPE_IBMNPU 1
#define NVML_NVLINK_DEVICE_TYPE_SWITCH 2

typedef nvmlReturn_t (*nvmlDeviceGetTopologyCommonAncestor_fn)(nvmlDevice_t a, nvmlDevice_t b, int *level);
typedef nvmlReturn_t (*nvmlDeviceGetP2PStatus_fn)(nvmlDevice_t a, nvmlDevice_t b, int caps_index, int *status);
typedef nvmlReturn_t (*nvmlDeviceGetNvLinkState_fn)(nvmlDevice_t dev, unsigned int link, int *is_active);
typedef nvmlReturn_t (*nvmlDeviceGetNvLinkRemotePciInfo_fn)(nvmlDevice_t dev, unsigned int link,
	nvmlPciInfo_t *pci);
typedef nvmlReturn_t (*nvmlDeviceGetNvLinkRemoteDeviceType_fn)(nvmlDevice_t dev, unsigned int link, int *type);
typedef nvmlReturn_t (*nvmlDeviceGetCpuAffinity_fn)(nvmlDevice_t dev, unsigned int n, unsigned long *mask);

#endif
