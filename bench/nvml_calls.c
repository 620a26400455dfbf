/*
 * nvml_calls.c - what each NVML call top's sampler makes costs in CPU time
 * on this machine (GPU 0): the mean over 200 calls on the calling thread's
 * CPU clock (the driver busy-waits, so CPU is close to wall time).
 * bench/top.sh builds and runs it; docs/top.md has the H200's figures.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../src/nvidia/nvml_api.h"

#define N 200

static double
cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

#define TIME(label, call)                                                                        \
	do {                                                                                       \
		double t0 = cpu_us();                                                              \
		int rc_ = 0, i_;                                                                   \
		for (i_ = 0; i_ < N; i_++)                                                         \
			rc_ = (call);                                                              \
		printf("%-44s %9.2f us  (rc %d)\n", label, (cpu_us() - t0) / N, rc_);              \
	} while (0)

int
main(void)
{
	void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW);
	nvmlReturn_t (*init)(void), (*handle)(unsigned, nvmlDevice_t *);
	nvmlDeviceGetMemoryInfo_fn mem;
	nvmlDeviceGetMemoryInfo_v2_fn mem2;
	nvmlDeviceGetUtilizationRates_fn util;
	nvmlDeviceGetTemperature_fn temp;
	nvmlDeviceGetUint_fn power, limit, fan, gen, width;
	nvmlDeviceGetEnum_fn pstate;
	nvmlDeviceGetClock_fn clock;
	nvmlDeviceGetU64_fn reasons;
	nvmlDeviceGetProcesses_fn procs, gprocs;
	nvmlDeviceGetProcessUtilization_fn putil;
	nvmlDevice_t d;
	nvmlMemory_t m;
	nvmlMemory_v2_t m2;
	nvmlUtilization_t u;
	nvmlProcessInfo_t infos[64];
	nvmlProcessUtilizationSample_t samples[128];
	unsigned v, n;
	int e;
	unsigned long long bits;

	if (!h) {
		fprintf(stderr, "nvml_calls: %s\n", dlerror());
		return 2;
	}
#define SYM(f, name) (*(void **)&(f) = dlsym(h, name))
	SYM(init, "nvmlInit_v2");
	SYM(handle, "nvmlDeviceGetHandleByIndex_v2");
	if (!init || init() || !handle || handle(0, &d))
		return 1;
	SYM(mem, "nvmlDeviceGetMemoryInfo");
	SYM(mem2, "nvmlDeviceGetMemoryInfo_v2");
	SYM(util, "nvmlDeviceGetUtilizationRates");
	SYM(temp, "nvmlDeviceGetTemperature");
	SYM(power, "nvmlDeviceGetPowerUsage");
	SYM(limit, "nvmlDeviceGetEnforcedPowerLimit");
	SYM(fan, "nvmlDeviceGetFanSpeed");
	SYM(gen, "nvmlDeviceGetCurrPcieLinkGeneration");
	SYM(width, "nvmlDeviceGetCurrPcieLinkWidth");
	SYM(pstate, "nvmlDeviceGetPerformanceState");
	SYM(clock, "nvmlDeviceGetClockInfo");
	SYM(reasons, "nvmlDeviceGetCurrentClocksEventReasons");
	SYM(procs, "nvmlDeviceGetComputeRunningProcesses_v3");
	SYM(gprocs, "nvmlDeviceGetGraphicsRunningProcesses_v3");
	SYM(putil, "nvmlDeviceGetProcessUtilization");
	m2.version = NVML_MEMORY_V2_VERSION;
	TIME("nvmlDeviceGetUtilizationRates", util(d, &u));
	TIME("nvmlDeviceGetMemoryInfo", mem(d, &m));
	TIME("nvmlDeviceGetMemoryInfo_v2", (m2.version = NVML_MEMORY_V2_VERSION, mem2(d, &m2)));
	TIME("nvmlDeviceGetTemperature", temp(d, NVML_TEMPERATURE_GPU, &v));
	TIME("nvmlDeviceGetPowerUsage", power(d, &v));
	TIME("nvmlDeviceGetEnforcedPowerLimit", limit(d, &v));
	TIME("nvmlDeviceGetFanSpeed", fan(d, &v));
	TIME("nvmlDeviceGetPerformanceState", pstate(d, &e));
	TIME("nvmlDeviceGetClockInfo(SM)", clock(d, NVML_CLOCK_SM, &v));
	TIME("nvmlDeviceGetClockInfo(MEM)", clock(d, NVML_CLOCK_MEM, &v));
	TIME("nvmlDeviceGetCurrentClocksEventReasons", reasons(d, &bits));
	TIME("nvmlDeviceGetComputeRunningProcesses_v3", (n = 64, procs(d, &n, infos)));
	TIME("nvmlDeviceGetGraphicsRunningProcesses_v3", (n = 64, gprocs(d, &n, infos)));
	TIME("nvmlDeviceGetProcessUtilization (size)", (n = 0, putil(d, NULL, &n, 0)));
	TIME("nvmlDeviceGetProcessUtilization", (n = 128, putil(d, samples, &n, 0)));
	TIME("nvmlDeviceGetCurrPcieLinkGeneration", gen(d, &v));
	TIME("nvmlDeviceGetCurrPcieLinkWidth", width(d, &v));
	return 0;
}
