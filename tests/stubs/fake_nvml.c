/*
 * fake_nvml.c - a mock libnvidia-ml.so.1 for the test suite: the NVML entry
 * points gpudoctor calls, answering from the scenario file named by
 * GPUDOCTOR_FAKE_SCENARIO (format in README.md). nvmlInit can also crash,
 * abort or hang on demand.
 *
 * Declarations come from src/nvidia/nvml_api.h, the same ones the probe
 * uses; the suite on a real GPU checks them against the real library.
 */
#include "../../src/nvidia/nvml_api.h"
#include "fake_scenario.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#define FAKE_MAX_DEVS 16
#define FAKE_MAX_PROCS 128
#define UNSUPPORTED (-1LL)

enum { B_NORMAL, B_CRASH, B_HANG, B_ABORT };

/* Numbers of one nvml_gpu line, in the order of the line's fields 3..;
 * UNSUPPORTED when absent or "-". */
enum {
	G_TOTAL, G_USED, G_TEMP, G_POWER, G_LIMIT, G_THROTTLE, G_PERSIST, G_CMODE, G_MIG,
	G_UTIL, G_SM, G_SM_MAX, G_ECC, G_ECC_UNC, G_PCI_ID,
	/* only through nvml_at lines (timelines for top and watch) */
	G_LOST, G_FAN, G_MEM_UTIL, G_PCIE_GEN, G_PCIE_WIDTH, G_REMAP_FAILURE, G_ECC_COR, G_HANG, G_NUM
};

static const char *const at_keys[G_NUM] = {
	"total", "used", "temp", "power", "limit", "throttle", "persistence", "compute_mode", "mig",
	"util", "sm", "sm_max", "ecc", "ecc_unc", "pci_id",
	"lost", "fan", "mem_util", "pcie_gen", "pcie_width", "remap_failure", "ecc_cor", "hang",
};

#define FAKE_MAX_AT 256

struct nvmlDevice_st {
	char bus_id[32];
	char name[96];
	char uuid[96];
	long long v[G_NUM];
	long step;                   /* the timeline's step: the number of the current */
	long calls;                  /* call of nvmlDeviceGetUtilizationRates, from 0 */
};

struct fake_proc {
	char bus_id[32];
	unsigned pid;
	unsigned long long used;
	int graphics;
	long from, until;            /* listed at steps from <= step < until */
};

/* nvml_topo A|B|LEVEL and nvml_p2p A|B|READ|WRITE|ATOMICS, either order */
#define FAKE_MAX_PAIRS 256
struct fake_pair {
	char a[32], b[32];
	int level;                   /* -1 not given */
	int p2p[4];                  /* by caps index: read, write, nvlink, atomics; -1 not given */
};

/* nvml_nvlink BUS|UP|DOWN|REMOTE: each of the device's links in order */
#define FAKE_MAX_LINKS 512
struct fake_link {
	char bus[32];
	int active;
	char remote[32];             /* a bus id, or "switch" */
};

/* nvml_affinity BUS|HEXWORD,HEXWORD...: the mask's words, CPU 0 first */
struct fake_aff {
	char bus[32];
	unsigned long long mask[4];
};

/* nvml_at STEP|BUS_ID|key=value,...: from that step on */
struct fake_at {
	long step;
	char bus_id[32];
	int which;
	long long value;
};

static struct {
	int read;
	int initialised;
	int init_rc;
	int behaviour;
	long delay_ms;
	char driver[80];
	int cuda;
	int cuda_set;
	int ndevs;
	struct nvmlDevice_st devs[FAKE_MAX_DEVS];
	int nprocs;
	struct fake_proc procs[FAKE_MAX_PROCS];
	int nat;
	struct fake_at at[FAKE_MAX_AT];
	int ntopo;
	struct fake_pair topo[FAKE_MAX_PAIRS];  /* nvml_topo, nvml_p2p */
	int nlinks;
	struct fake_link links[FAKE_MAX_LINKS];  /* nvml_nvlink, expanded per link */
	int naff;
	struct fake_aff aff[FAKE_MAX_DEVS];
} S;

static void
parse_at(char **f, int n)
{
	char buf[512], *tok, *save = NULL;
	long step = (long)fake_num(f, n, 0, 0);
	int i;

	if (n < 3)
		return;
	snprintf(buf, sizeof(buf), "%s", f[2]);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		if (!eq || S.nat >= FAKE_MAX_AT)
			continue;
		*eq = '\0';
		for (i = 0; i < G_NUM; i++)
			if (!strcmp(at_keys[i], tok)) {
				struct fake_at *a = &S.at[S.nat++];
				a->step = step;
				snprintf(a->bus_id, sizeof(a->bus_id), "%s", f[1]);
				a->which = i;
				a->value = !strcmp(eq + 1, "-") ? UNSUPPORTED : strtoll(eq + 1, NULL, 0);
			}
	}
}

static int
same_bus(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	return la >= 7 && lb >= 7 && !strcasecmp(a + la - 7, b + lb - 7);
}

/* The pair A, B (either order); a new one when add. */
static struct fake_pair *
pair_of(const char *a, const char *b, int add)
{
	int i;

	for (i = 0; i < S.ntopo; i++)
		if ((same_bus(S.topo[i].a, a) && same_bus(S.topo[i].b, b)) ||
		    (same_bus(S.topo[i].a, b) && same_bus(S.topo[i].b, a)))
			return &S.topo[i];
	if (!add || S.ntopo >= FAKE_MAX_PAIRS)
		return NULL;
	memset(&S.topo[S.ntopo], 0, sizeof(S.topo[S.ntopo]));
	snprintf(S.topo[S.ntopo].a, sizeof(S.topo[S.ntopo].a), "%s", a);
	snprintf(S.topo[S.ntopo].b, sizeof(S.topo[S.ntopo].b), "%s", b);
	S.topo[S.ntopo].level = -1;
	for (i = 0; i < 4; i++)
		S.topo[S.ntopo].p2p[i] = -1;
	return &S.topo[S.ntopo++];
}

static void
on_line(const char *key, char **f, int n, void *ctx)
{
	int i;

	if (!strcmp(key, "nvml_init")) {
		S.init_rc = (int)fake_num(f, n, 0, 0);
	} else if (!strcmp(key, "nvml_init_delay_ms")) {
		S.delay_ms = (long)fake_num(f, n, 0, 0);
	} else if (!strcmp(key, "nvml_behaviour")) {
		S.behaviour = !strcmp(f[0], "crash") ? B_CRASH
			: !strcmp(f[0], "hang")      ? B_HANG
			: !strcmp(f[0], "abort")     ? B_ABORT
						     : B_NORMAL;
	} else if (!strcmp(key, "nvml_driver")) {
		fake_str(S.driver, sizeof(S.driver), f, n, 0);
	} else if (!strcmp(key, "nvml_cuda")) {
		S.cuda = (int)fake_num(f, n, 0, 0);
		S.cuda_set = 1;
	} else if (!strcmp(key, "cuda_driver_version") && !S.cuda_set) {
		S.cuda = (int)fake_num(f, n, 0, 13000);
	} else if (!strcmp(key, "nvml_gpu") && S.ndevs < FAKE_MAX_DEVS) {
		struct nvmlDevice_st *d = &S.devs[S.ndevs++];
		fake_str(d->bus_id, sizeof(d->bus_id), f, n, 0);
		fake_str(d->name, sizeof(d->name), f, n, 1);
		fake_str(d->uuid, sizeof(d->uuid), f, n, 2);
		for (i = 0; i < G_NUM; i++)
			d->v[i] = fake_num(f, n, 3 + i, UNSUPPORTED);
	} else if (!strcmp(key, "nvml_proc") && S.nprocs < FAKE_MAX_PROCS) {
		struct fake_proc *p = &S.procs[S.nprocs++];
		long long used = fake_num(f, n, 2, UNSUPPORTED);
		fake_str(p->bus_id, sizeof(p->bus_id), f, n, 0);
		p->pid = (unsigned)fake_num(f, n, 1, 0);
		p->used = used < 0 ? NVML_VALUE_NOT_AVAILABLE : (unsigned long long)used << 20;
		p->graphics = n > 3 && !strcmp(f[3], "graphics");
		p->from = (long)fake_num(f, n, 4, 0);
		p->until = (long)fake_num(f, n, 5, -1);
	} else if (!strcmp(key, "nvml_at")) {
		parse_at(f, n);
	} else if ((!strcmp(key, "nvml_topo") || !strcmp(key, "nvml_p2p")) && n >= 3) {
		struct fake_pair *p = pair_of(f[0], f[1], 1);
		if (!p)
			return;
		if (!strcmp(key, "nvml_topo")) {
			p->level = (int)fake_num(f, n, 2, -1);
		} else {
			p->p2p[0] = (int)fake_num(f, n, 2, -1);
			p->p2p[1] = (int)fake_num(f, n, 3, -1);
			p->p2p[3] = (int)fake_num(f, n, 4, -1);
		}
	} else if (!strcmp(key, "nvml_nvlink") && n >= 4) {
		long up = (long)fake_num(f, n, 1, 0), down = (long)fake_num(f, n, 2, 0), k;
		for (k = 0; k < up + down && S.nlinks < FAKE_MAX_LINKS; k++) {
			struct fake_link *l = &S.links[S.nlinks++];
			fake_str(l->bus, sizeof(l->bus), f, n, 0);
			l->active = k < up;
			fake_str(l->remote, sizeof(l->remote), f, n, 3);
		}
	} else if (!strcmp(key, "nvml_affinity") && n >= 2 && S.naff < FAKE_MAX_DEVS) {
		struct fake_aff *a = &S.aff[S.naff++];
		char *p = f[1], *e;
		int k;
		fake_str(a->bus, sizeof(a->bus), f, n, 0);
		for (k = 0; k < 4 && *p; k++) {
			a->mask[k] = strtoull(p, &e, 16);
			p = *e == ',' ? e + 1 : e;
		}
	}
	(void)ctx;
}

static void
load(void)
{
	if (S.read)
		return;
	S.read = 1;
	S.cuda = 13000;
	snprintf(S.driver, sizeof(S.driver), "580.159.04");
	fake_scenario_read(on_line, NULL);
}

/* The device behind a handle, NULL when it is not one of ours. */
static struct nvmlDevice_st *
dev(nvmlDevice_t h)
{
	if (h < S.devs || h >= S.devs + S.ndevs)
		return NULL;
	return h;
}

#define CHECK_DEV(h, x)                                                                        \
	do {                                                                                   \
		if (!S.initialised)                                                            \
			return NVML_ERROR_UNINITIALIZED;                                       \
		if (!((x) = dev(h)))                                                           \
			return NVML_ERROR_INVALID_ARGUMENT;                                    \
	} while (0)

nvmlReturn_t
nvmlInit_v2(void)
{
	load();
	if (S.delay_ms > 0)
		fake_sleep_ms(S.delay_ms);
	switch (S.behaviour) {
	case B_CRASH: {
		volatile int *volatile p = NULL;
		*p = 1;
		break;
	}
	case B_HANG:
		for (;;)
			pause();
	case B_ABORT:
		abort();
	default:
		break;
	}
	S.initialised = S.init_rc == NVML_SUCCESS;
	return S.init_rc;
}

nvmlReturn_t
nvmlInit(void)
{
	return nvmlInit_v2();
}

nvmlReturn_t
nvmlShutdown(void)
{
	if (!S.initialised)
		return NVML_ERROR_UNINITIALIZED;
	S.initialised = 0;
	return NVML_SUCCESS;
}

const char *
nvmlErrorString(nvmlReturn_t rc)
{
	switch (rc) {
	case NVML_SUCCESS: return "Success";
	case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
	case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
	case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
	case NVML_ERROR_NO_PERMISSION: return "Insufficient Permissions";
	case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
	case NVML_ERROR_LIB_RM_VERSION_MISMATCH: return "Driver/library version mismatch";
	default: return "Unknown Error";
	}
}

nvmlReturn_t
nvmlSystemGetDriverVersion(char *out, unsigned int len)
{
	if (!S.initialised)
		return NVML_ERROR_UNINITIALIZED;
	if (!out || len < strlen(S.driver) + 1)
		return NVML_ERROR_INSUFFICIENT_SIZE;
	snprintf(out, len, "%s", S.driver);
	return NVML_SUCCESS;
}

nvmlReturn_t
nvmlSystemGetCudaDriverVersion_v2(int *v)
{
	load();
	if (!v)
		return NVML_ERROR_INVALID_ARGUMENT;
	*v = S.cuda;
	return NVML_SUCCESS;
}

nvmlReturn_t
nvmlSystemGetCudaDriverVersion(int *v)
{
	return nvmlSystemGetCudaDriverVersion_v2(v);
}

nvmlReturn_t
nvmlDeviceGetCount_v2(unsigned int *count)
{
	if (!S.initialised)
		return NVML_ERROR_UNINITIALIZED;
	if (!count)
		return NVML_ERROR_INVALID_ARGUMENT;
	*count = (unsigned)S.ndevs;
	return NVML_SUCCESS;
}

nvmlReturn_t
nvmlDeviceGetCount(unsigned int *count)
{
	return nvmlDeviceGetCount_v2(count);
}

nvmlReturn_t
nvmlDeviceGetHandleByIndex_v2(unsigned int i, nvmlDevice_t *h)
{
	if (!S.initialised)
		return NVML_ERROR_UNINITIALIZED;
	if (!h || i >= (unsigned)S.ndevs)
		return NVML_ERROR_INVALID_ARGUMENT;
	*h = &S.devs[i];
	return NVML_SUCCESS;
}

/* "0000:00:06.0" (CUDA's form) or "00000000:00:06.0" (NVML's): the same device. */
nvmlReturn_t
nvmlDeviceGetHandleByPciBusId_v2(const char *bus, nvmlDevice_t *h)
{
	size_t lb = strlen(bus);
	int i;

	if (!S.initialised)
		return NVML_ERROR_UNINITIALIZED;
	for (i = 0; i < S.ndevs; i++) {
		size_t ld = strlen(S.devs[i].bus_id);
		if (lb >= 7 && ld >= 7 && !strcasecmp(bus + lb - 7, S.devs[i].bus_id + ld - 7)) {
			*h = &S.devs[i];
			return NVML_SUCCESS;
		}
	}
	return NVML_ERROR_NOT_FOUND;
}

nvmlReturn_t
nvmlDeviceSetCpuAffinity(nvmlDevice_t h)
{
	struct nvmlDevice_st *d;

	CHECK_DEV(h, d);
	(void)d;
	return NVML_SUCCESS;
}

nvmlReturn_t
nvmlDeviceGetHandleByIndex(unsigned int i, nvmlDevice_t *h)
{
	return nvmlDeviceGetHandleByIndex_v2(i, h);
}

nvmlReturn_t
nvmlDeviceGetPciInfo_v3(nvmlDevice_t h, nvmlPciInfo_t *pci)
{
	struct nvmlDevice_st *d;
	unsigned dom = 0, bus = 0, slot = 0, fn = 0;

	CHECK_DEV(h, d);
	if (!pci)
		return NVML_ERROR_INVALID_ARGUMENT;
	memset(pci, 0, sizeof(*pci));
	sscanf(d->bus_id, "%x:%x:%x.%x", &dom, &bus, &slot, &fn);
	snprintf(pci->busId, sizeof(pci->busId), "%s", d->bus_id);
	snprintf(pci->busIdLegacy, sizeof(pci->busIdLegacy), "%04x:%02x:%02x.%x", dom & 0xffff,
		bus & 0xff, slot & 0x1f, fn & 7);
	pci->domain = dom;
	pci->bus = bus;
	pci->device = slot;
	pci->pciDeviceId = d->v[G_PCI_ID] < 0 ? 0 : (unsigned)d->v[G_PCI_ID];
	return NVML_SUCCESS;
}

nvmlReturn_t
nvmlDeviceGetPciInfo_v2(nvmlDevice_t h, nvmlPciInfo_t *pci)
{
	return nvmlDeviceGetPciInfo_v3(h, pci);
}

static nvmlReturn_t
copy_str(nvmlDevice_t h, const char *which, char *out, unsigned len)
{
	struct nvmlDevice_st *d;
	const char *s;

	CHECK_DEV(h, d);
	s = !strcmp(which, "name") ? d->name : d->uuid;
	if (!*s)
		return NVML_ERROR_NOT_SUPPORTED;
	if (!out || len < strlen(s) + 1)
		return NVML_ERROR_INSUFFICIENT_SIZE;
	snprintf(out, len, "%s", s);
	return NVML_SUCCESS;
}

nvmlReturn_t
nvmlDeviceGetName(nvmlDevice_t h, char *out, unsigned int len)
{
	return copy_str(h, "name", out, len);
}

nvmlReturn_t
nvmlDeviceGetUUID(nvmlDevice_t h, char *out, unsigned int len)
{
	return copy_str(h, "uuid", out, len);
}

/* A number of a device at its current step: the last nvml_at line for it
 * at or before the step, else its nvml_gpu value. */
static long long
at_value(const struct nvmlDevice_st *d, int which)
{
	long long v = d->v[which];
	long best = -1;
	int i;

	for (i = 0; i < S.nat; i++)
		if (S.at[i].which == which && S.at[i].step <= d->step && S.at[i].step >= best &&
		    !strcasecmp(S.at[i].bus_id, d->bus_id)) {
			best = S.at[i].step;
			v = S.at[i].value;
		}
	return v;
}

/* One number of a device; NOT_SUPPORTED when the scenario has none. */
static nvmlReturn_t
get(nvmlDevice_t h, int which, long long *v)
{
	struct nvmlDevice_st *d;

	CHECK_DEV(h, d);
	if (!v)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (at_value(d, G_LOST) > 0)
		return NVML_ERROR_GPU_IS_LOST;
	*v = at_value(d, which);
	if (*v == UNSUPPORTED)
		return NVML_ERROR_NOT_SUPPORTED;
	return NVML_SUCCESS;
}

nvmlReturn_t
nvmlDeviceGetMemoryInfo(nvmlDevice_t h, nvmlMemory_t *m)
{
	long long total, used;
	nvmlReturn_t rc;

	if ((rc = get(h, G_TOTAL, &total)) || (rc = get(h, G_USED, &used)))
		return rc;
	if (!m)
		return NVML_ERROR_INVALID_ARGUMENT;
	m->total = (unsigned long long)total << 20;
	m->used = (unsigned long long)used << 20;
	m->free = m->total > m->used ? m->total - m->used : 0;
	return NVML_SUCCESS;
}

nvmlReturn_t
nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t h, nvmlMemory_v2_t *m)
{
	nvmlMemory_t m1;
	nvmlReturn_t rc;

	if (!m)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (m->version != NVML_MEMORY_V2_VERSION)
		return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
	if ((rc = nvmlDeviceGetMemoryInfo(h, &m1)))
		return rc;
	m->total = m1.total;
	m->reserved = 0;
	m->used = m1.used;
	m->free = m1.free;
	return NVML_SUCCESS;
}

#define GET_UINT(fn, which)                                                                    \
	nvmlReturn_t fn(nvmlDevice_t h, unsigned int *out)                                     \
	{                                                                                      \
		long long v;                                                                   \
		nvmlReturn_t rc = get(h, which, &v);                                           \
		if (rc == NVML_SUCCESS)                                                        \
			*out = (unsigned)v;                                                    \
		return rc;                                                                     \
	}

GET_UINT(nvmlDeviceGetPowerUsage, G_POWER)
GET_UINT(nvmlDeviceGetEnforcedPowerLimit, G_LIMIT)

nvmlReturn_t
nvmlDeviceGetTemperature(nvmlDevice_t h, int sensor, unsigned int *out)
{
	long long v;
	nvmlReturn_t rc;

	if (sensor != NVML_TEMPERATURE_GPU)
		return NVML_ERROR_INVALID_ARGUMENT;
	if ((rc = get(h, G_TEMP, &v)) == NVML_SUCCESS)
		*out = (unsigned)v;
	return rc;
}

nvmlReturn_t
nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t h, unsigned long long *out)
{
	long long v;
	nvmlReturn_t rc;

	if ((rc = get(h, G_THROTTLE, &v)) == NVML_SUCCESS)
		*out = (unsigned long long)v;
	return rc;
}

nvmlReturn_t
nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t h, unsigned long long *out)
{
	return nvmlDeviceGetCurrentClocksEventReasons(h, out);
}

nvmlReturn_t
nvmlDeviceGetPersistenceMode(nvmlDevice_t h, int *out)
{
	long long v;
	nvmlReturn_t rc;

	if ((rc = get(h, G_PERSIST, &v)) == NVML_SUCCESS)
		*out = (int)v;
	return rc;
}

nvmlReturn_t
nvmlDeviceGetComputeMode(nvmlDevice_t h, int *out)
{
	long long v;
	nvmlReturn_t rc;

	if ((rc = get(h, G_CMODE, &v)) == NVML_SUCCESS)
		*out = (int)v;
	return rc;
}

nvmlReturn_t
nvmlDeviceGetMigMode(nvmlDevice_t h, unsigned int *cur, unsigned int *pending)
{
	long long v;
	nvmlReturn_t rc;

	if ((rc = get(h, G_MIG, &v)) == NVML_SUCCESS)
		*cur = *pending = (unsigned)v;
	return rc;
}

nvmlReturn_t
nvmlDeviceGetUtilizationRates(nvmlDevice_t h, nvmlUtilization_t *u)
{
	long long v;
	nvmlReturn_t rc;

	struct nvmlDevice_st *d = dev(h);

	/* each call is one step of the device's timeline (a top/watch sample) */
	if (d && S.initialised)
		d->step = d->calls++;
	if (d && at_value(d, G_HANG) > 0)
		for (;;)
			pause();
	if ((rc = get(h, G_UTIL, &v)) == NVML_SUCCESS) {
		u->gpu = u->memory = (unsigned)v;
		if (d && at_value(d, G_MEM_UTIL) != UNSUPPORTED)
			u->memory = (unsigned)at_value(d, G_MEM_UTIL);
	}
	return rc;
}

nvmlReturn_t
nvmlDeviceGetClockInfo(nvmlDevice_t h, int type, unsigned int *mhz)
{
	long long v;
	nvmlReturn_t rc;

	if (type != NVML_CLOCK_SM)
		return NVML_ERROR_NOT_SUPPORTED;
	if ((rc = get(h, G_SM, &v)) == NVML_SUCCESS)
		*mhz = (unsigned)v;
	return rc;
}

nvmlReturn_t
nvmlDeviceGetMaxClockInfo(nvmlDevice_t h, int type, unsigned int *mhz)
{
	long long v;
	nvmlReturn_t rc;

	if (type != NVML_CLOCK_SM)
		return NVML_ERROR_NOT_SUPPORTED;
	if ((rc = get(h, G_SM_MAX, &v)) == NVML_SUCCESS)
		*mhz = (unsigned)v;
	return rc;
}

nvmlReturn_t
nvmlDeviceGetEccMode(nvmlDevice_t h, int *cur, int *pending)
{
	long long v;
	nvmlReturn_t rc;

	if ((rc = get(h, G_ECC, &v)) == NVML_SUCCESS)
		*cur = *pending = (int)v;
	return rc;
}

nvmlReturn_t
nvmlDeviceGetTotalEccErrors(nvmlDevice_t h, int type, int counter, unsigned long long *out)
{
	long long v;
	nvmlReturn_t rc;

	if (counter != NVML_VOLATILE_ECC)
		return NVML_ERROR_NOT_SUPPORTED;
	if ((rc = get(h, type == NVML_MEMORY_ERROR_TYPE_UNCORRECTED ? G_ECC_UNC : G_ECC_COR, &v)) == NVML_SUCCESS)
		*out = (unsigned long long)v;
	return rc;
}

/* Fill infos (stride bytes each) with the device's processes of a type;
 * INSUFFICIENT_SIZE with the needed count when they do not fit. */
static nvmlReturn_t
procs(nvmlDevice_t h, unsigned int *count, void *infos, size_t stride, int graphics)
{
	struct nvmlDevice_st *d;
	unsigned n = 0, cap;
	int i;

	CHECK_DEV(h, d);
	if (!count)
		return NVML_ERROR_INVALID_ARGUMENT;
	cap = *count;
	if (at_value(d, G_LOST) > 0)
		return NVML_ERROR_GPU_IS_LOST;
	for (i = 0; i < S.nprocs; i++) {
		const struct fake_proc *p = &S.procs[i];
		if (p->graphics != graphics || strcasecmp(p->bus_id, d->bus_id))
			continue;
		if (d->step < p->from || (p->until >= 0 && d->step >= p->until))
			continue;
		if (n < cap && infos) {
			char *slot = (char *)infos + n * stride;
			memset(slot, 0, stride);
			((nvmlProcessInfo_v1_t *)slot)->pid = p->pid;
			((nvmlProcessInfo_v1_t *)slot)->usedGpuMemory = p->used;
		}
		n++;
	}
	*count = n;
	return n > cap ? NVML_ERROR_INSUFFICIENT_SIZE : NVML_SUCCESS;
}

nvmlReturn_t
nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t h, unsigned int *n, void *infos)
{
	return procs(h, n, infos, sizeof(nvmlProcessInfo_t), 0);
}

nvmlReturn_t
nvmlDeviceGetComputeRunningProcesses_v2(nvmlDevice_t h, unsigned int *n, void *infos)
{
	return procs(h, n, infos, sizeof(nvmlProcessInfo_t), 0);
}

nvmlReturn_t
nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t h, unsigned int *n, void *infos)
{
	return procs(h, n, infos, sizeof(nvmlProcessInfo_v1_t), 0);
}

nvmlReturn_t
nvmlDeviceGetGraphicsRunningProcesses_v3(nvmlDevice_t h, unsigned int *n, void *infos)
{
	return procs(h, n, infos, sizeof(nvmlProcessInfo_t), 1);
}

nvmlReturn_t
nvmlDeviceGetGraphicsRunningProcesses_v2(nvmlDevice_t h, unsigned int *n, void *infos)
{
	return procs(h, n, infos, sizeof(nvmlProcessInfo_t), 1);
}

nvmlReturn_t
nvmlDeviceGetGraphicsRunningProcesses(nvmlDevice_t h, unsigned int *n, void *infos)
{
	return procs(h, n, infos, sizeof(nvmlProcessInfo_v1_t), 1);
}

/* ---- what top and watch read besides ------------------------------------------ */

GET_UINT(nvmlDeviceGetFanSpeed, G_FAN)
GET_UINT(nvmlDeviceGetCurrPcieLinkGeneration, G_PCIE_GEN)
GET_UINT(nvmlDeviceGetCurrPcieLinkWidth, G_PCIE_WIDTH)

nvmlReturn_t
nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t h, unsigned int *out)
{
	long long v;
	nvmlReturn_t rc = get(h, G_PCIE_GEN, &v);

	if (rc == NVML_SUCCESS)
		*out = 5;
	return rc;
}

nvmlReturn_t
nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t h, unsigned int *out)
{
	long long v;
	nvmlReturn_t rc = get(h, G_PCIE_WIDTH, &v);

	if (rc == NVML_SUCCESS)
		*out = 16;
	return rc;
}

/* P0 when busy, P8 when idle, as a datacenter GPU */
nvmlReturn_t
nvmlDeviceGetPerformanceState(nvmlDevice_t h, int *out)
{
	long long v;
	nvmlReturn_t rc = get(h, G_UTIL, &v);

	if (rc == NVML_SUCCESS)
		*out = v > 0 ? 0 : 8;
	return rc;
}

/* slowdown at 87 C, shutdown at 92 C (an H100/H200's) when the GPU reports a temperature */
nvmlReturn_t
nvmlDeviceGetTemperatureThreshold(nvmlDevice_t h, int threshold, unsigned int *out)
{
	long long v;
	nvmlReturn_t rc = get(h, G_TEMP, &v);

	if (rc == NVML_SUCCESS)
		*out = threshold == NVML_TEMPERATURE_THRESHOLD_SHUTDOWN ? 92 : 87;
	return rc;
}

nvmlReturn_t
nvmlDeviceGetRemappedRows(nvmlDevice_t h, unsigned int *corr, unsigned int *unc, unsigned int *pending,
			  unsigned int *failure)
{
	long long v;
	nvmlReturn_t rc = get(h, G_REMAP_FAILURE, &v);

	if (rc == NVML_SUCCESS) {
		*corr = *unc = *pending = 0;
		*failure = (unsigned)v;
	}
	return rc;
}

nvmlReturn_t
nvmlDeviceGetPcieThroughput(nvmlDevice_t h, int counter, unsigned int *out)
{
	long long v;
	nvmlReturn_t rc = get(h, G_PCIE_GEN, &v);

	if (rc == NVML_SUCCESS)
		*out = counter == NVML_PCIE_UTIL_TX_BYTES ? 1000 : 2000;
	return rc;
}

/* One sample per listed compute process: the device's utilization, now. */
nvmlReturn_t
nvmlDeviceGetProcessUtilization(nvmlDevice_t h, nvmlProcessUtilizationSample_t *out, unsigned int *count,
				unsigned long long last_seen)
{
	struct nvmlDevice_st *d;
	unsigned cap, n = 0, i;
	long long util = 0;
	struct timespec ts;
	nvmlReturn_t rc;

	CHECK_DEV(h, d);
	if ((rc = get(h, G_UTIL, &util)))
		return rc;
	cap = out ? *count : 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	for (i = 0; i < (unsigned)S.nprocs; i++) {
		const struct fake_proc *p = &S.procs[i];
		if (p->graphics || strcasecmp(p->bus_id, d->bus_id) || d->step < p->from ||
		    (p->until >= 0 && d->step >= p->until))
			continue;
		if (n < cap) {
			memset(&out[n], 0, sizeof(out[n]));
			out[n].pid = p->pid;
			out[n].timeStamp = (unsigned long long)ts.tv_sec * 1000000ULL + (unsigned long long)ts.tv_nsec / 1000 + 1;
			out[n].smUtil = (unsigned)util;
		}
		n++;
	}
	(void)last_seen;
	*count = n;
	return n > cap ? NVML_ERROR_INSUFFICIENT_SIZE : NVML_SUCCESS;
}

/* ---- topology (nvml_topo, nvml_p2p, nvml_nvlink, nvml_affinity) ---------------- */

nvmlReturn_t
nvmlDeviceGetTopologyCommonAncestor(nvmlDevice_t a, nvmlDevice_t b, int *level)
{
	struct nvmlDevice_st *x, *y;
	struct fake_pair *p;

	CHECK_DEV(a, x);
	CHECK_DEV(b, y);
	p = pair_of(x->bus_id, y->bus_id, 0);
	if (!p || p->level < 0)
		return NVML_ERROR_NOT_SUPPORTED;
	*level = p->level;
	return NVML_SUCCESS;
}

nvmlReturn_t
nvmlDeviceGetP2PStatus(nvmlDevice_t a, nvmlDevice_t b, int caps, int *status)
{
	struct nvmlDevice_st *x, *y;
	struct fake_pair *p;

	CHECK_DEV(a, x);
	CHECK_DEV(b, y);
	p = pair_of(x->bus_id, y->bus_id, 0);
	if (caps < 0 || caps > 3)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!p || p->p2p[caps] < 0)
		return NVML_ERROR_NOT_SUPPORTED;
	*status = p->p2p[caps];
	return NVML_SUCCESS;
}

/* The device's link number `link`, NULL past its last. */
static struct fake_link *
link_of(const struct nvmlDevice_st *d, unsigned link)
{
	unsigned k = 0;
	int i;

	for (i = 0; i < S.nlinks; i++)
		if (same_bus(S.links[i].bus, d->bus_id) && k++ == link)
			return &S.links[i];
	return NULL;
}

nvmlReturn_t
nvmlDeviceGetNvLinkState(nvmlDevice_t h, unsigned int link, int *active)
{
	struct nvmlDevice_st *d;
	struct fake_link *l;

	CHECK_DEV(h, d);
	if (!(l = link_of(d, link)))
		return link == 0 ? NVML_ERROR_NOT_SUPPORTED : NVML_ERROR_INVALID_ARGUMENT;
	*active = l->active;
	return NVML_SUCCESS;
}

nvmlReturn_t
nvmlDeviceGetNvLinkRemoteDeviceType(nvmlDevice_t h, unsigned int link, int *type)
{
	struct nvmlDevice_st *d;
	struct fake_link *l;

	CHECK_DEV(h, d);
	if (!(l = link_of(d, link)))
		return NVML_ERROR_INVALID_ARGUMENT;
	*type = !strcmp(l->remote, "switch") ? NVML_NVLINK_DEVICE_TYPE_SWITCH : NVML_NVLINK_DEVICE_TYPE_GPU;
	return NVML_SUCCESS;
}

nvmlReturn_t
nvmlDeviceGetNvLinkRemotePciInfo_v2(nvmlDevice_t h, unsigned int link, nvmlPciInfo_t *pci)
{
	struct nvmlDevice_st *d;
	struct fake_link *l;

	CHECK_DEV(h, d);
	if (!(l = link_of(d, link)) || !pci)
		return NVML_ERROR_INVALID_ARGUMENT;
	memset(pci, 0, sizeof(*pci));
	snprintf(pci->busId, sizeof(pci->busId), "%s", !strcmp(l->remote, "switch") ? "00000000:99:00.0" : l->remote);
	return NVML_SUCCESS;
}

nvmlReturn_t
nvmlDeviceGetCpuAffinity(nvmlDevice_t h, unsigned int n, unsigned long *mask)
{
	struct nvmlDevice_st *d;
	int i;

	CHECK_DEV(h, d);
	for (i = 0; i < S.naff; i++)
		if (same_bus(S.aff[i].bus, d->bus_id)) {
			unsigned k;
			for (k = 0; k < n; k++)
				mask[k] = k < 4 ? (unsigned long)S.aff[i].mask[k] : 0;
			return NVML_SUCCESS;
		}
	return NVML_ERROR_NOT_SUPPORTED;
}
