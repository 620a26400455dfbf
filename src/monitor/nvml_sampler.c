/*
 * nvml_sampler.c - the sampler child of `top` and `watch`: loads NVML,
 * reads what never changes once, then writes one struct mon_sample to its
 * pipe per tick until it is killed. Three cadences, after the costs
 * measured on an H200 (docs/top.md): every tick the cheap calls (a few µs
 * each); every few seconds ECC, remapped rows and the PCIe link; on a
 * thread of its own the two calls that block (PCIe throughput waits out a
 * 20 ms window per direction, the energy counter costs ~4 ms).
 *
 * Ticks keep to a fixed schedule (tick k at k x interval): a late tick is
 * taken at once, so the times in the samples, which alert durations are
 * measured in, are the schedule's.
 */
#include "monitor/monitor.h"
#include "base/str.h"
#include "kb/kb.h"
#include "nvidia/nvml_api.h"
#include "sys/child.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

typedef nvmlReturn_t (*procs_fn)(nvmlDevice_t dev, unsigned int *count, nvmlProcessInfo_t *infos);

struct syms {
	nvmlInit_fn init;
	nvmlSystemGetDriverVersion_fn driver_version;
	nvmlDeviceGetCount_fn count;
	nvmlDeviceGetHandleByIndex_fn handle;
	nvmlDeviceGetPciInfo_fn pci;
	nvmlDeviceGetString_fn name, uuid;
	nvmlDeviceGetMemoryInfo_fn memory;
	nvmlDeviceGetMemoryInfo_v2_fn memory_v2;
	nvmlDeviceGetUtilizationRates_fn util;
	nvmlDeviceGetTemperature_fn temp;
	nvmlDeviceGetTempThreshold_fn temp_threshold;
	nvmlDeviceGetUint_fn power, power_limit, fan, pcie_gen, pcie_width, pcie_gen_max,
		pcie_width_max, minor;
	nvmlDeviceGetEnum_fn pstate;
	nvmlDeviceGetClock_fn clock, clock_max;
	nvmlDeviceGetU64_fn reasons, energy;
	nvmlDeviceGetTotalEccErrors_fn ecc;
	nvmlDeviceGetRemappedRows_fn remapped;
	nvmlDeviceGetRetiredPages_fn retired;
	nvmlDeviceGetMigMode_fn mig;
	nvmlDeviceGetPcieThroughput_fn pcie_tput;
	procs_fn compute, graphics;
	nvmlDeviceGetProcessUtilization_fn proc_util;
};

struct sampler {
	const struct mon_sampler_opts *o;
	struct syms s;
	nvmlDevice_t dev[MON_MAX_GPUS];
	unsigned long long last_seen[MON_MAX_GPUS];
	unsigned unsupported[MON_MAX_GPUS];  /* bit per enum call: NOT_SUPPORTED once, never asked again */
	struct {
		uint32_t pid;
		int sm;
	} kept[MON_MAX_GPUS][64];            /* the last per-process SM % */
	int nkept[MON_MAX_GPUS];
	nvmlProcessUtilizationSample_t *util_buf;
	unsigned util_cap;
	struct mon_sample m;
	/* the blocking calls' thread */
	pthread_mutex_t lock;
	atomic_bool lost[MON_MAX_GPUS];
	int64_t tx[MON_MAX_GPUS], rx[MON_MAX_GPUS], energy[MON_MAX_GPUS];
};

#define SYM(h, field, name) (*(void **)&(field) = dlsym((h), (name)))

static void
resolve(void *h, struct syms *s)
{
	SYM(h, s->init, "nvmlInit_v2");
	SYM(h, s->driver_version, "nvmlSystemGetDriverVersion");
	SYM(h, s->count, "nvmlDeviceGetCount_v2");
	SYM(h, s->handle, "nvmlDeviceGetHandleByIndex_v2");
	SYM(h, s->pci, "nvmlDeviceGetPciInfo_v3");
	if (!s->pci)
		SYM(h, s->pci, "nvmlDeviceGetPciInfo_v2");
	SYM(h, s->name, "nvmlDeviceGetName");
	SYM(h, s->uuid, "nvmlDeviceGetUUID");
	SYM(h, s->memory, "nvmlDeviceGetMemoryInfo");
	SYM(h, s->memory_v2, "nvmlDeviceGetMemoryInfo_v2");
	SYM(h, s->util, "nvmlDeviceGetUtilizationRates");
	SYM(h, s->temp, "nvmlDeviceGetTemperature");
	SYM(h, s->temp_threshold, "nvmlDeviceGetTemperatureThreshold");
	SYM(h, s->power, "nvmlDeviceGetPowerUsage");
	SYM(h, s->power_limit, "nvmlDeviceGetEnforcedPowerLimit");
	SYM(h, s->fan, "nvmlDeviceGetFanSpeed");
	SYM(h, s->pstate, "nvmlDeviceGetPerformanceState");
	SYM(h, s->clock, "nvmlDeviceGetClockInfo");
	SYM(h, s->clock_max, "nvmlDeviceGetMaxClockInfo");
	SYM(h, s->reasons, "nvmlDeviceGetCurrentClocksEventReasons");
	if (!s->reasons)
		SYM(h, s->reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
	SYM(h, s->energy, "nvmlDeviceGetTotalEnergyConsumption");
	SYM(h, s->ecc, "nvmlDeviceGetTotalEccErrors");
	SYM(h, s->remapped, "nvmlDeviceGetRemappedRows");
	SYM(h, s->retired, "nvmlDeviceGetRetiredPages");
	SYM(h, s->mig, "nvmlDeviceGetMigMode");
	SYM(h, s->pcie_tput, "nvmlDeviceGetPcieThroughput");
	SYM(h, s->pcie_gen, "nvmlDeviceGetCurrPcieLinkGeneration");
	SYM(h, s->pcie_width, "nvmlDeviceGetCurrPcieLinkWidth");
	SYM(h, s->pcie_gen_max, "nvmlDeviceGetMaxPcieLinkGeneration");
	SYM(h, s->pcie_width_max, "nvmlDeviceGetMaxPcieLinkWidth");
	SYM(h, s->minor, "nvmlDeviceGetMinorNumber");
	SYM(h, s->compute, "nvmlDeviceGetComputeRunningProcesses_v3");
	if (!s->compute)
		SYM(h, s->compute, "nvmlDeviceGetComputeRunningProcesses_v2");
	SYM(h, s->graphics, "nvmlDeviceGetGraphicsRunningProcesses_v3");
	if (!s->graphics)
		SYM(h, s->graphics, "nvmlDeviceGetGraphicsRunningProcesses_v2");
	SYM(h, s->proc_util, "nvmlDeviceGetProcessUtilization");
}

/* The calls made on every sample or every few seconds. One that answers
 * NOT_SUPPORTED is not made again on that GPU: a GPU without a fan still
 * costs 160 us per fan query on an H200. */
enum call {
	C_TEMP, C_POWER, C_LIMIT, C_FAN, C_PSTATE, C_SM_CLOCK, C_MEM_CLOCK, C_REASONS, C_COMPUTE, C_GRAPHICS,
	C_PROC_UTIL,
	C_ECC_CORRECTED, C_ECC_UNCORRECTED, C_REMAPPED, C_RETIRED, C_PCIE_GEN, C_PCIE_WIDTH,
};

static nvmlReturn_t
remember(struct sampler *sp, int i, enum call c, nvmlReturn_t rc)
{
	if (rc == NVML_ERROR_NOT_SUPPORTED)
		sp->unsupported[i] |= 1u << c;
	else if (rc == NVML_ERROR_GPU_IS_LOST) {
		sp->m.gpus[i].state = MON_GPU_LOST;
		sp->m.gpus[i].error_rc = rc;
	}
	return rc;
}

/* Make call c on GPU i unless it is known unsupported; its answer. */
#define ASK(sp, i, c, fn, ...)                                                                     \
	(!(fn) || ((sp)->unsupported[i] >> (c)) & 1 ? NVML_ERROR_NOT_SUPPORTED                     \
						     : remember((sp), (i), (c), (fn)(__VA_ARGS__)))

static int
ask_uint(struct sampler *sp, int i, enum call c, nvmlDeviceGetUint_fn fn)
{
	unsigned v = 0;

	return ASK(sp, i, c, fn, sp->dev[i], &v) == NVML_SUCCESS ? (int)v : MON_NA;
}

/* A static value, asked once. */
static int
once_uint(nvmlDeviceGetUint_fn fn, nvmlDevice_t d)
{
	unsigned v = 0;

	return fn && fn(d, &v) == NVML_SUCCESS ? (int)v : MON_NA;
}

/* Memory as nvidia-smi shows it: used without what the driver reserves
 * (the _v2 call; the v1 call counts the reserve as used). */
static void
read_memory(const struct syms *s, nvmlDevice_t d, struct mon_gpu *g)
{
	nvmlMemory_v2_t m2;
	nvmlMemory_t m;

	memset(&m2, 0, sizeof(m2));
	m2.version = NVML_MEMORY_V2_VERSION;
	g->mem_used_mib = g->mem_free_mib = g->mem_reserved_mib = MON_NA;
	if (s->memory_v2 && s->memory_v2(d, &m2) == NVML_SUCCESS) {
		g->mem_used_mib = (int64_t)(m2.used >> 20);
		g->mem_free_mib = (int64_t)(m2.free >> 20);
		g->mem_reserved_mib = (int64_t)(m2.reserved >> 20);
	} else if (s->memory && s->memory(d, &m) == NVML_SUCCESS) {
		g->mem_used_mib = (int64_t)(m.used >> 20);
		g->mem_free_mib = (int64_t)(m.free >> 20);
	}
}

static void
read_static(struct sampler *sp, int i)
{
	const struct syms *s = &sp->s;
	struct mon_gpu *g = &sp->m.gpus[i];
	nvmlDevice_t d = sp->dev[i];
	nvmlPciInfo_t pci;
	nvmlMemory_t mem;
	unsigned v = 0, cur = 0, pend = 0;

	if (s->name && s->name(d, g->name, sizeof(g->name)) != NVML_SUCCESS)
		g->name[0] = '\0';
	if (s->uuid && s->uuid(d, g->uuid, sizeof(g->uuid)) != NVML_SUCCESS)
		g->uuid[0] = '\0';
	memset(&pci, 0, sizeof(pci));
	if (s->pci && s->pci(d, &pci) == NVML_SUCCESS)
		STR_COPY(g->bus_id, pci.busId);
	g->mem_total_mib = s->memory && s->memory(d, &mem) == NVML_SUCCESS ? (int64_t)(mem.total >> 20) : MON_NA;
	g->sm_clock_max = s->clock_max && s->clock_max(d, NVML_CLOCK_SM, &v) == NVML_SUCCESS ? (int)v : MON_NA;
	g->mem_clock_max = s->clock_max && s->clock_max(d, NVML_CLOCK_MEM, &v) == NVML_SUCCESS ? (int)v : MON_NA;
	g->temp_slowdown = s->temp_threshold &&
		s->temp_threshold(d, NVML_TEMPERATURE_THRESHOLD_SLOWDOWN, &v) == NVML_SUCCESS ? (int)v : MON_NA;
	g->temp_shutdown = s->temp_threshold &&
		s->temp_threshold(d, NVML_TEMPERATURE_THRESHOLD_SHUTDOWN, &v) == NVML_SUCCESS ? (int)v : MON_NA;
	g->pcie_gen_max = once_uint(s->pcie_gen_max, d);
	g->pcie_width_max = once_uint(s->pcie_width_max, d);
	g->minor = once_uint(s->minor, d);
	g->mig = s->mig && s->mig(d, &cur, &pend) == NVML_SUCCESS ? (int)cur : MON_NA;
}

static void
clear_slow(struct mon_gpu *g)
{
	g->ecc_corrected = g->ecc_uncorrected = MON_NA;
	g->remapped_corrected = g->remapped_uncorrected = MON_NA;
	g->remap_pending = g->remap_failure = MON_NA;
	g->retired_pages = MON_NA;
	g->pcie_gen = g->pcie_width = MON_NA;
	g->pcie_tx_kib = g->pcie_rx_kib = g->energy_mj = MON_NA;
}

static void
read_slow(struct sampler *sp, int i)
{
	const struct syms *s = &sp->s;
	struct mon_gpu *g = &sp->m.gpus[i];
	nvmlDevice_t d = sp->dev[i];
	unsigned long long n = 0;
	unsigned c = 0, u = 0, p = 0, f = 0, a = 0, b = 0;

	g->ecc_corrected = ASK(sp, i, C_ECC_CORRECTED, s->ecc, d, NVML_MEMORY_ERROR_TYPE_CORRECTED, NVML_VOLATILE_ECC,
			       &n) == NVML_SUCCESS ? (int64_t)n : MON_NA;
	g->ecc_uncorrected = ASK(sp, i, C_ECC_UNCORRECTED, s->ecc, d, NVML_MEMORY_ERROR_TYPE_UNCORRECTED,
				 NVML_VOLATILE_ECC, &n) == NVML_SUCCESS ? (int64_t)n : MON_NA;
	if (ASK(sp, i, C_REMAPPED, s->remapped, d, &c, &u, &p, &f) == NVML_SUCCESS) {
		g->remapped_corrected = c;
		g->remapped_uncorrected = u;
		g->remap_pending = (int)p;
		g->remap_failure = (int)f;
	} else {
		g->remapped_corrected = g->remapped_uncorrected = MON_NA;
		g->remap_pending = g->remap_failure = MON_NA;
	}
	/* pages retired (before Ampere; remapped rows since): the counts only */
	if (ASK(sp, i, C_RETIRED, s->retired, d, NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS, &a, NULL) ==
		    NVML_SUCCESS &&
	    ASK(sp, i, C_RETIRED, s->retired, d, NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR, &b, NULL) == NVML_SUCCESS)
		g->retired_pages = (int64_t)a + b;
	else
		g->retired_pages = MON_NA;
	g->pcie_gen = ask_uint(sp, i, C_PCIE_GEN, s->pcie_gen);
	g->pcie_width = ask_uint(sp, i, C_PCIE_WIDTH, s->pcie_width);
}

static void
read_procs(struct sampler *sp, int i, procs_fn fn, int kind)
{
	nvmlProcessInfo_t infos[64];
	unsigned n = 64, k;
	struct mon_sample *m = &sp->m;

	if (!fn)
		return;
	if (remember(sp, i, kind == MON_PROC_GRAPHICS ? C_GRAPHICS : C_COMPUTE, fn(sp->dev[i], &n, infos)) != NVML_SUCCESS)
		return;
	for (k = 0; k < n && k < 64; k++) {
		struct mon_proc *p;
		if (m->nprocs >= MON_MAX_PROCS) {
			m->procs_cut = true;
			return;
		}
		p = &m->procs[m->nprocs++];
		memset(p, 0, sizeof(*p));
		p->gpu = i;
		p->pid = infos[k].pid;
		p->kind = kind;
		p->mem_mib = infos[k].usedGpuMemory == NVML_VALUE_NOT_AVAILABLE ? MON_NA
										 : (int64_t)(infos[k].usedGpuMemory >> 20);
		p->sm_util = MON_NA;
		p->gi = infos[k].gpuInstanceId;
		p->ci = infos[k].computeInstanceId;
		p->cpu_pct = MON_NA;
	}
}

static unsigned long long
now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (unsigned long long)tv.tv_sec * 1000000ULL + (unsigned long long)tv.tv_usec;
}

/* Per-process SM %: ask for the size first (NVML answers
 * INSUFFICIENT_SIZE), keep only fresh, sane samples of listed processes. */
static void
read_proc_util(struct sampler *sp, int i, int first_proc)
{
	unsigned n = 0, k;
	unsigned long long newest = sp->last_seen[i];
	int j;
	nvmlReturn_t rc;

	if (!sp->s.proc_util || sp->m.gpus[i].mig == 1 || first_proc == sp->m.nprocs ||
	    sp->unsupported[i] >> C_PROC_UTIL & 1)
		return;
	if (!sp->last_seen[i])
		sp->last_seen[i] = now_us() - 2000000ULL;
	rc = remember(sp, i, C_PROC_UTIL, sp->s.proc_util(sp->dev[i], NULL, &n, sp->last_seen[i]));
	if (rc != NVML_ERROR_INSUFFICIENT_SIZE && rc != NVML_SUCCESS)
		return;
	if (!n)
		return;
	if (n > sp->util_cap) {
		free(sp->util_buf);
		sp->util_cap = n + 16;
		sp->util_buf = calloc(sp->util_cap, sizeof(*sp->util_buf));
		if (!sp->util_buf) {
			sp->util_cap = 0;
			return;
		}
	}
	n = sp->util_cap;
	if (sp->s.proc_util(sp->dev[i], sp->util_buf, &n, sp->last_seen[i]) != NVML_SUCCESS)
		return;
	for (k = 0; k < n && k < sp->util_cap; k++) {
		const nvmlProcessUtilizationSample_t *u = &sp->util_buf[k];
		if (u->timeStamp <= sp->last_seen[i] || u->smUtil > 100)
			continue;
		if (u->timeStamp > newest)
			newest = u->timeStamp;
		for (j = first_proc; j < sp->m.nprocs; j++)
			if (sp->m.procs[j].pid == u->pid && (int)u->smUtil > sp->m.procs[j].sm_util)
				sp->m.procs[j].sm_util = (int)u->smUtil;
	}
	sp->nkept[i] = 0;
	for (j = first_proc; j < sp->m.nprocs; j++) {
		if (sp->m.procs[j].sm_util == MON_NA)
			sp->m.procs[j].sm_util = 0;
		if (sp->nkept[i] < 64) {
			sp->kept[i][sp->nkept[i]].pid = sp->m.procs[j].pid;
			sp->kept[i][sp->nkept[i]++].sm = sp->m.procs[j].sm_util;
		}
	}
	sp->last_seen[i] = newest;
}

/* Between those reads: each process's last figure (0 for a new one). */
static void
keep_proc_util(struct sampler *sp, int i, int first_proc)
{
	int j, k;

	if (!sp->s.proc_util || sp->m.gpus[i].mig == 1)
		return;
	for (j = first_proc; j < sp->m.nprocs; j++) {
		sp->m.procs[j].sm_util = 0;
		for (k = 0; k < sp->nkept[i]; k++)
			if (sp->kept[i][k].pid == sp->m.procs[j].pid)
				sp->m.procs[j].sm_util = sp->kept[i][k].sm;
	}
}

static void
read_fast(struct sampler *sp, int i, bool slow)
{
	const struct syms *s = &sp->s;
	struct mon_gpu *g = &sp->m.gpus[i];
	nvmlDevice_t d = sp->dev[i];
	nvmlUtilization_t u;
	unsigned long long bits = 0;
	unsigned v = 0;
	int e = 0, first = sp->m.nprocs;
	nvmlReturn_t rc;

	rc = s->util ? s->util(d, &u) : NVML_ERROR_FUNCTION_NOT_FOUND;
	if (rc == NVML_ERROR_GPU_IS_LOST) {
		g->state = MON_GPU_LOST;
		g->error_rc = rc;
		return;
	}
	g->util_gpu = rc == NVML_SUCCESS ? (int)u.gpu : MON_NA;
	g->util_mem = rc == NVML_SUCCESS ? (int)u.memory : MON_NA;
	read_memory(s, d, g);
	g->temp = ASK(sp, i, C_TEMP, s->temp, d, NVML_TEMPERATURE_GPU, &v) == NVML_SUCCESS ? (int)v : MON_NA;
	g->power_mw = ask_uint(sp, i, C_POWER, s->power);
	g->power_limit_mw = ask_uint(sp, i, C_LIMIT, s->power_limit);
	g->fan = ask_uint(sp, i, C_FAN, s->fan);
	g->pstate = ASK(sp, i, C_PSTATE, s->pstate, d, &e) == NVML_SUCCESS && e >= 0 && e < 32 ? e : MON_NA;
	g->sm_clock = ASK(sp, i, C_SM_CLOCK, s->clock, d, NVML_CLOCK_SM, &v) == NVML_SUCCESS ? (int)v : MON_NA;
	g->mem_clock = ASK(sp, i, C_MEM_CLOCK, s->clock, d, NVML_CLOCK_MEM, &v) == NVML_SUCCESS ? (int)v : MON_NA;
	g->reasons = ASK(sp, i, C_REASONS, s->reasons, d, &bits) == NVML_SUCCESS ? (int64_t)(bits & 0xffffffffffffULL)
										  : MON_NA;
	if (g->state == MON_GPU_LOST)
		return;
	read_procs(sp, i, s->compute, MON_PROC_COMPUTE);
	if (!(sp->unsupported[i] >> C_GRAPHICS & 1))
		read_procs(sp, i, s->graphics, MON_PROC_GRAPHICS);
	/* per-process SM %: 2.4 ms of CPU per call on an H200, so with the
	 * slow cadence; the values are kept between */
	if (slow)
		read_proc_util(sp, i, first);
	else
		keep_proc_util(sp, i, first);
}

/* The blocking calls, on their own thread every pcie_ms. */
static void *
slow_thread(void *arg)
{
	struct sampler *sp = arg;
	const struct syms *s = &sp->s;
	int i;

	for (;;) {
		for (i = 0; i < sp->m.ngpus; i++) {
			unsigned tx = 0, rx = 0;
			unsigned long long mj = 0;
			int64_t t = MON_NA, r = MON_NA, en = MON_NA;
			if (atomic_load(&sp->lost[i]) || !sp->dev[i])
				continue;
			if (s->pcie_tput && s->pcie_tput(sp->dev[i], NVML_PCIE_UTIL_TX_BYTES, &tx) == NVML_SUCCESS &&
			    s->pcie_tput(sp->dev[i], NVML_PCIE_UTIL_RX_BYTES, &rx) == NVML_SUCCESS) {
				t = tx;
				r = rx;
			}
			if (s->energy && s->energy(sp->dev[i], &mj) == NVML_SUCCESS)
				en = (int64_t)mj;
			pthread_mutex_lock(&sp->lock);
			sp->tx[i] = t;
			sp->rx[i] = r;
			sp->energy[i] = en;
			pthread_mutex_unlock(&sp->lock);
		}
		struct timespec ts = {sp->o->pcie_ms / 1000, (long)(sp->o->pcie_ms % 1000) * 1000000L};
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static double
cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void
sleep_until(double ms)
{
	struct timespec ts = {(time_t)(ms / 1e3), (long)((ms - (double)(time_t)(ms / 1e3) * 1e3) * 1e6)};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0)
		;
}

static void
fail(struct sampler *sp, int fd, int rc, const char *what, const char *detail)
{
	sp->m.init_rc = rc;
	str_fmt(sp->m.error, sizeof(sp->m.error), "%s%s", what, detail);
	child_write(fd, &sp->m, sizeof(sp->m));
}

/* The NVML return code's name ("NVML_ERROR_GPU_IS_LOST"). */
void
mon_nvml_error_name(int rc, char *out, size_t size)
{
	const struct kb_error_code *c = rc > 0 ? kb_error_code("nvml", (unsigned)rc) : NULL;

	if (c)
		str_copy(out, size, c->name);
	else
		str_fmt(out, size, "nvmlReturn_t %d", rc);
}

static bool
open_nvml(struct sampler *sp, int fd)
{
	struct link_map *lm = NULL;
	char name[64];
	void *h;
	nvmlReturn_t rc;
	unsigned n = 0, i;

	h = dlopen(sp->o->nvml, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fail(sp, fd, NVML_ERROR_LIBRARY_NOT_FOUND, "", dlerror());
		return false;
	}
	if (dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name)
		STR_COPY(sp->m.nvml_path, lm->l_name);
	if (strstr(sp->m.nvml_path, "/stubs/")) {
		fail(sp, fd, NVML_ERROR_LIBRARY_NOT_FOUND, sp->m.nvml_path,
		     " is the CUDA toolkit's stub library, not the driver's NVML");
		return false;
	}
	resolve(h, &sp->s);
	if (!sp->s.init || !sp->s.count || !sp->s.handle) {
		fail(sp, fd, NVML_ERROR_FUNCTION_NOT_FOUND, sp->m.nvml_path,
		     " lacks nvmlInit_v2 or nvmlDeviceGetCount_v2");
		return false;
	}
	rc = sp->s.init();
	if (rc != NVML_SUCCESS) {
		mon_nvml_error_name(rc, name, sizeof(name));
		fail(sp, fd, rc, "nvmlInit_v2: ", name);
		return false;
	}
	if (sp->s.driver_version && sp->s.driver_version(sp->m.driver, sizeof(sp->m.driver)) != NVML_SUCCESS)
		sp->m.driver[0] = '\0';
	if ((rc = sp->s.count(&n)) != NVML_SUCCESS) {
		mon_nvml_error_name(rc, name, sizeof(name));
		fail(sp, fd, rc, "nvmlDeviceGetCount_v2: ", name);
		return false;
	}
	sp->m.ngpus = n > MON_MAX_GPUS ? MON_MAX_GPUS : (int)n;
	for (i = 0; i < (unsigned)sp->m.ngpus; i++) {
		struct mon_gpu *g = &sp->m.gpus[i];
		g->index = (int)i;
		clear_slow(g);
		rc = sp->s.handle(i, &sp->dev[i]);
		if (rc != NVML_SUCCESS) {
			sp->dev[i] = NULL;
			g->state = rc == NVML_ERROR_GPU_IS_LOST ? MON_GPU_LOST : MON_GPU_ERROR;
			g->error_rc = rc;
			continue;
		}
		read_static(sp, (int)i);
		atomic_init(&sp->lost[i], false);
	}
	return true;
}

void
mon_sampler_child(void *arg, int fd)
{
	struct sampler *sp = calloc(1, sizeof(*sp));
	const struct mon_sampler_opts *o = arg;
	pthread_t thread;
	double start, due;
	int64_t k;
	int i;

	if (!sp)
		return;
	sp->o = o;
	sp->m.magic = MON_SAMPLE_MAGIC;
	sp->m.size = sizeof(sp->m);
	if (!open_nvml(sp, fd))
		return;
	pthread_mutex_init(&sp->lock, NULL);
	for (i = 0; i < sp->m.ngpus; i++)
		sp->tx[i] = sp->rx[i] = sp->energy[i] = MON_NA;
	if (o->pcie_ms > 0)
		pthread_create(&thread, NULL, slow_thread, sp);
	start = mono_ms();
	for (k = 0; o->count <= 0 || k < o->count; k++) {
		double c0;
		due = start + (double)k * o->interval_ms;
		if (mono_ms() < due)
			sleep_until(due);
		else if (mono_ms() - due > 5.0 * o->interval_ms) {
			/* stopped for a while (SIGSTOP, a suspended machine): a
			 * new schedule from now, not a burst of catch-up ticks */
			start = mono_ms() - (double)k * o->interval_ms;
		}
		c0 = cpu_ms();
		sp->m.seq = k;
		sp->m.t_ms = (double)k * o->interval_ms;
		sp->m.wall = (double)time(NULL);
		sp->m.nprocs = 0;
		sp->m.procs_cut = false;
		for (i = 0; i < sp->m.ngpus; i++) {
			struct mon_gpu *g = &sp->m.gpus[i];
			if (g->state != MON_GPU_OK)
				continue;
			bool slow = o->slow_every > 0 && k % o->slow_every == 0;
			read_fast(sp, i, slow);
			if (g->state == MON_GPU_OK && slow)
				read_slow(sp, i);
			if (g->state == MON_GPU_LOST)
				atomic_store(&sp->lost[i], true);
			pthread_mutex_lock(&sp->lock);
			g->pcie_tx_kib = sp->tx[i];
			g->pcie_rx_kib = sp->rx[i];
			g->energy_mj = sp->energy[i];
			pthread_mutex_unlock(&sp->lock);
		}
		sp->m.cpu_ms = cpu_ms() - c0;
		if (child_write(fd, &sp->m, sizeof(sp->m)) < 0)
			return;
	}
}
