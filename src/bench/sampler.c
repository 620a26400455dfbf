/*
 * sampler.c - NVML read every 50 ms on a thread of the bench child while
 * a test runs: SM and memory clocks, power and its limit, temperature,
 * the clock-event (throttle) reasons. A result taken while the GPU slowed
 * itself down for heat or power says so (bench_judge.c). Before the test
 * the process is pinned to the CPUs near the GPU (nvmlDeviceSetCpuAffinity),
 * as nvbandwidth does. Without NVML the test runs unsampled.
 */
#include "bench/cuda_load.h"
#include "base/xalloc.h"
#include "nvidia/nvml_api.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PERIOD_MS 50

typedef nvmlReturn_t (*init_fn)(void);
typedef nvmlReturn_t (*by_bus_fn)(const char *bus, nvmlDevice_t *dev);
typedef nvmlReturn_t (*dev_fn)(nvmlDevice_t dev);
typedef nvmlReturn_t (*clock_fn)(nvmlDevice_t dev, int type, unsigned int *mhz);
typedef nvmlReturn_t (*uint_fn)(nvmlDevice_t dev, unsigned int *v);
typedef nvmlReturn_t (*temp_fn)(nvmlDevice_t dev, int sensor, unsigned int *v);
typedef nvmlReturn_t (*u64_fn)(nvmlDevice_t dev, unsigned long long *v);

struct bench_sampler {
	void *lib;
	nvmlDevice_t dev;
	clock_fn clock;
	uint_fn power, limit;
	temp_fn temp;
	u64_fn reasons;
	pthread_t thread;
	pthread_mutex_t lock;            /* seen: the thread's and the test's samples */
	bool running;
	atomic_bool stop, timed;
	struct bench_nvml seen;
};

static void
sample(struct bench_sampler *s)
{
	unsigned v = 0;
	unsigned long long bits = 0;
	struct bench_nvml *n = &s->seen;

	n->samples++;
	if (s->clock && s->clock(s->dev, NVML_CLOCK_SM, &v) == NVML_SUCCESS) {
		if (!n->sm_clock_min || (int)v < n->sm_clock_min)
			n->sm_clock_min = (int)v;
		if ((int)v > n->sm_clock_max)
			n->sm_clock_max = (int)v;
	}
	if (s->clock && s->clock(s->dev, NVML_CLOCK_MEM, &v) == NVML_SUCCESS && (int)v > n->mem_clock_max)
		n->mem_clock_max = (int)v;
	if (s->power && s->power(s->dev, &v) == NVML_SUCCESS && (int)v > n->power_max_mw)
		n->power_max_mw = (int)v;
	if (s->temp && s->temp(s->dev, NVML_TEMPERATURE_GPU, &v) == NVML_SUCCESS && (int)v > n->temp_max)
		n->temp_max = (int)v;
	if (s->reasons && s->reasons(s->dev, &bits) == NVML_SUCCESS)
		n->reasons |= bits;
}

static void *
loop(void *arg)
{
	struct bench_sampler *s = arg;
	struct timespec ts = {0, PERIOD_MS * 1000000L};

	while (!atomic_load(&s->stop)) {
		if (atomic_load(&s->timed)) {
			pthread_mutex_lock(&s->lock);
			sample(s);
			pthread_mutex_unlock(&s->lock);
		}
		nanosleep(&ts, NULL);
	}
	return NULL;
}

struct bench_sampler *
sampler_start(const struct bench_opts *o, const char *bus_id)
{
	struct bench_sampler *s = xcalloc(1, sizeof(*s));
	init_fn init;
	by_bus_fn by_bus;
	dev_fn affinity;
	unsigned v;

	s->lib = o->nvml[0] ? dlopen(o->nvml, RTLD_NOW | RTLD_LOCAL) : NULL;
	if (!s->lib)
		return s;
	*(void **)&init = dlsym(s->lib, "nvmlInit_v2");
	*(void **)&by_bus = dlsym(s->lib, "nvmlDeviceGetHandleByPciBusId_v2");
	if (!init || !by_bus || init() != NVML_SUCCESS || by_bus(bus_id, &s->dev) != NVML_SUCCESS)
		return s;
	*(void **)&affinity = dlsym(s->lib, "nvmlDeviceSetCpuAffinity");
	if (affinity)
		affinity(s->dev);
	*(void **)&s->clock = dlsym(s->lib, "nvmlDeviceGetClockInfo");
	*(void **)&s->power = dlsym(s->lib, "nvmlDeviceGetPowerUsage");
	*(void **)&s->limit = dlsym(s->lib, "nvmlDeviceGetEnforcedPowerLimit");
	*(void **)&s->temp = dlsym(s->lib, "nvmlDeviceGetTemperature");
	*(void **)&s->reasons = dlsym(s->lib, "nvmlDeviceGetCurrentClocksEventReasons");
	if (!s->reasons)
		*(void **)&s->reasons = dlsym(s->lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
	if (s->limit && s->limit(s->dev, &v) == NVML_SUCCESS)
		s->seen.power_limit_mw = (int)v;
	atomic_init(&s->stop, false);
	atomic_init(&s->timed, false);
	pthread_mutex_init(&s->lock, NULL);
	s->running = pthread_create(&s->thread, NULL, loop, s) == 0;
	return s;
}

void
sampler_timed(struct bench_sampler *s, bool on)
{
	if (!s || !s->running)
		return;
	atomic_store(&s->timed, on);
	/* a sample at each end too: a timed part shorter than the period
	 * (a fast GEMM) is still seen, and its end is when power peaks */
	pthread_mutex_lock(&s->lock);
	sample(s);
	pthread_mutex_unlock(&s->lock);
}

void
sampler_stop(struct bench_sampler *s, struct bench_nvml *out)
{
	if (!s)
		return;
	if (s->running) {
		atomic_store(&s->stop, true);
		pthread_join(s->thread, NULL);
	}
	*out = s->seen;
	free(s);                         /* the library stays: the child ends soon */
}
