/*
 * driver.c - the user-space driver seen the way a framework sees it: load
 * libcuda and libnvidia-ml (NVML) and ask them, each in its own forked
 * child with a time limit, so a hang or crash in cuInit loses neither the
 * run nor NVML's answers.
 *
 * What is loaded: on the running machine (root "/") the sonames
 * libcuda.so.1 and libnvidia-ml.so.1, exactly as a framework dlopens them,
 * and the path the loader really picked is reported. Under a fixture root
 * only the copy probe_driverlibs says the loader would pick (else the first
 * non-stub copy), and only when it is a real ELF shared object (a mock built
 * by the test suite); a toolkit stub is never loaded as the driver.
 *
 * Each child writes one fixed-size answer struct (no pointers) in two
 * stages: the first before the call that may crash or hang (cuInit,
 * nvmlInit), so a crash still leaves the load result and cuDriverGetVersion.
 *
 * Not here: finding the libraries (driverlibs.c), judging the answers
 * (diag/rule_driver.c), process liveness (procs.c).
 */
#include "probe/probe.h"
#include "probe/topology.h"
#include "base/str.h"
#include "base/vers.h"
#include "base/xalloc.h"
#include "kb/kb.h"
#include "nvidia/cuda_api.h"
#include "nvidia/nvml_api.h"
#include "sys/child.h"
#include "sys/root.h"

#include <dlfcn.h>
#include <link.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CUDA_SONAME "libcuda.so.1"
#define NVML_SONAME "libnvidia-ml.so.1"

/* ---- answers: what a child writes to its pipe ---------------------------- */

struct cuda_dev_answer {
	char name[F_NAME];
	char uuid[48];
	char bus_id[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE];
	int cc_major, cc_minor;      /* -1 unknown */
	uint64_t mem_bytes;          /* 0 unknown */
};

struct cuda_answer {
	/* stage 1, written before cuInit */
	int loaded;                  /* 0: dlopen/dlsym failed, see error */
	char error[F_TEXT];
	char loaded_path[F_PATH];
	int driver_version;          /* 0 unknown */
	int cuinit_called;
	/* stage 2 */
	int cuinit_rc;
	char cuinit_name[F_NAME];
	char cuinit_text[F_TEXT];
	int device_count;            /* -1 unknown */
	int ndevs;
	struct cuda_dev_answer devs[MAX_GPUS];
};
#define CUDA_STAGE1 offsetof(struct cuda_answer, cuinit_rc)

struct nvml_dev_answer {
	char bus_id[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE];
	unsigned pci_device_id, pci_subsys_id; /* 0 unknown */
	char name[F_NAME];
	char uuid[48];
	int mem_valid;
	uint64_t mem_total, mem_used, mem_free; /* bytes */
	int temperature_c, power_mw, power_limit_mw;
	int throttle_valid;
	uint64_t throttle;
	int persistence, compute_mode, mig_mode, utilization;
	int sm_clock, sm_clock_max, ecc_mode;
	int ecc_valid;
	uint64_t ecc_uncorrected;
};

struct nvml_proc_answer {
	int dev;                     /* index into devs[] */
	unsigned pid;
	uint64_t used_bytes;         /* NVML_VALUE_NOT_AVAILABLE unknown */
	int graphics;
};

struct nvml_answer {
	/* stage 1, written before nvmlInit */
	int loaded;
	char error[F_TEXT];
	char loaded_path[F_PATH];
	int init_called;
	/* stage 2 */
	int init_rc;
	char init_text[F_TEXT];
	char driver_version[32];
	int cuda_version;            /* 0 unknown */
	int device_count;            /* -1 unknown */
	int ndevs;
	struct nvml_dev_answer devs[MAX_GPUS];
	int nprocs;
	struct nvml_proc_answer procs[MAX_PROCS];
	struct topo_answer topo;     /* how devs[] connect (probe/topology.c) */
};
#define NVML_STAGE1 offsetof(struct nvml_answer, init_rc)

/* ---- the job: what the parent keeps between start and finish ---------- */

struct lib_job {
	const char *what;            /* "libcuda", "libnvidia-ml" */
	bool started;
	struct child child;
	char load[F_PATH];           /* what the child passes to dlopen */
	char strip[F_PATH];          /* root prefix to drop from the loaded path */
	int lib;                     /* index in facts->driver.libs, -1 */
	bool found;                  /* a non-stub copy found by driverlibs */
};

struct driver_job {
	struct lib_job cuda, nvml;
};

/* ---- symbol tables -------------------------------------------------------- */

struct sym {
	const char *names[4];        /* tried in order, NULL-terminated */
	void **ptr;
	bool required;
	int *picked;                 /* which name was found, or NULL */
};

/* Resolve every row; fill err and return -1 when a required one is
 * missing. */
static int
syms_resolve(void *h, const struct sym *tab, size_t n, char *err, size_t errsize)
{
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		*tab[i].ptr = NULL;
		for (k = 0; k < 4 && tab[i].names[k] && !*tab[i].ptr; k++) {
			*tab[i].ptr = dlsym(h, tab[i].names[k]);
			if (*tab[i].ptr && tab[i].picked)
				*tab[i].picked = k;
		}
		if (!*tab[i].ptr && tab[i].required) {
			str_fmt(err, errsize, "symbol %s not found in the library", tab[i].names[0]);
			return -1;
		}
	}
	return 0;
}

/* dlopen in the child; on success report the file the loader opened
 * (without the fixture root prefix). */
static void *
child_dlopen(const struct lib_job *j, char *err, size_t errsize, char *loaded, size_t lsize)
{
	struct link_map *lm = NULL;
	const char *p;
	void *h;

	dlerror();
	h = dlopen(j->load, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		p = dlerror();
		str_copy(err, errsize, p ? p : "dlopen failed");
		return NULL;
	}
	if (dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name && lm->l_name[0]) {
		p = lm->l_name;
		if (j->strip[0] && str_starts(p, j->strip) && p[strlen(j->strip)] == '/')
			p += strlen(j->strip);
		str_copy(loaded, lsize, p);
	} else {
		str_copy(loaded, lsize, j->load);
	}
	return h;
}

/* ---- the CUDA child --------------------------------------------------------- */

/* A CUresult's name and text for when cuGetErrorName/String are missing or
 * fail: from the knowledge base's status codes (error_codes.tsv). */
static void
cuda_error_fallback(int rc, char *name, size_t nsize, char *text, size_t tsize)
{
	const struct kb_error_code *c = rc > 0 ? kb_error_code("cuda_driver", (unsigned)rc) : NULL;

	if (rc == 0) {
		if (!name[0])
			str_copy(name, nsize, "CUDA_SUCCESS");
		if (!text[0])
			str_copy(text, tsize, "no error");
		return;
	}
	if (c) {
		if (!name[0])
			str_copy(name, nsize, c->name);
		if (!text[0] && c->message[0])
			str_copy(text, tsize, c->message);
		return;
	}
	if (!name[0])
		str_fmt(name, nsize, "CUresult %d", rc);
}

struct cuda_syms {
	cuInit_fn init;
	cuDriverGetVersion_fn driver_version;
	cuGetErrorName_fn error_name;
	cuGetErrorString_fn error_string;
	cuDeviceGetCount_fn device_count;
	cuDeviceGet_fn device_get;
	cuDeviceGetName_fn name;
	cuDeviceGetUuid_fn uuid;
	cuDeviceGetPCIBusId_fn bus_id;
	cuDeviceGetAttribute_fn attribute;
	cuDeviceTotalMem_fn total_mem;
};

static void
cuda_device(const struct cuda_syms *s, int ordinal, struct cuda_dev_answer *d)
{
	CUdevice dev = ordinal;
	CUuuid u;
	char tmp[256];
	int v;

	d->cc_major = d->cc_minor = -1;
	if (s->device_get && s->device_get(&dev, ordinal) != CUDA_SUCCESS)
		return;
	if (s->name && s->name(tmp, (int)sizeof(tmp), dev) == CUDA_SUCCESS) {
		tmp[sizeof(tmp) - 1] = '\0';
		STR_COPY(d->name, tmp);
	}
	if (s->uuid && s->uuid(&u, dev) == CUDA_SUCCESS) {
		const unsigned char *b = (const unsigned char *)u.bytes;
		STR_FMT(d->uuid, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
			b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
			b[13], b[14], b[15]);
	}
	if (s->bus_id && s->bus_id(tmp, (int)sizeof(tmp), dev) == CUDA_SUCCESS) {
		tmp[sizeof(tmp) - 1] = '\0';
		STR_COPY(d->bus_id, tmp);
	}
	if (s->attribute &&
	    s->attribute(&v, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev) == CUDA_SUCCESS)
		d->cc_major = v;
	if (s->attribute &&
	    s->attribute(&v, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev) == CUDA_SUCCESS)
		d->cc_minor = v;
	if (s->total_mem) {
		size_t bytes = 0;
		if (s->total_mem(&bytes, dev) == CUDA_SUCCESS)
			d->mem_bytes = bytes;
	}
}

static void
cuda_child(void *arg, int fd)
{
	struct lib_job *j = arg;
	struct cuda_syms s;
	const struct sym tab[] = {
		{{"cuInit"}, (void **)&s.init, true, NULL},
		{{"cuDriverGetVersion"}, (void **)&s.driver_version, true, NULL},
		{{"cuGetErrorName"}, (void **)&s.error_name, false, NULL},
		{{"cuGetErrorString"}, (void **)&s.error_string, false, NULL},
		{{"cuDeviceGetCount"}, (void **)&s.device_count, false, NULL},
		{{"cuDeviceGet"}, (void **)&s.device_get, false, NULL},
		{{"cuDeviceGetName"}, (void **)&s.name, false, NULL},
		{{"cuDeviceGetUuid_v2", "cuDeviceGetUuid"}, (void **)&s.uuid, false, NULL},
		{{"cuDeviceGetPCIBusId"}, (void **)&s.bus_id, false, NULL},
		{{"cuDeviceGetAttribute"}, (void **)&s.attribute, false, NULL},
		{{"cuDeviceTotalMem_v2"}, (void **)&s.total_mem, false, NULL},
	};
	struct cuda_answer a;
	const char *p;
	void *h;
	int i, n;

	memset(&a, 0, sizeof(a));
	a.device_count = -1;
	h = child_dlopen(j, a.error, sizeof(a.error), a.loaded_path, sizeof(a.loaded_path));
	if (!h || syms_resolve(h, tab, sizeof(tab) / sizeof(tab[0]), a.error, sizeof(a.error)) < 0) {
		child_write(fd, &a, sizeof(a));
		return;
	}
	a.loaded = 1;
	if (s.driver_version(&a.driver_version) != CUDA_SUCCESS)
		a.driver_version = 0;
	a.cuinit_called = 1;
	if (child_write(fd, &a, CUDA_STAGE1) < 0)
		return;

	a.cuinit_rc = s.init(0);
	p = NULL;
	if (s.error_name && s.error_name(a.cuinit_rc, &p) == CUDA_SUCCESS && p)
		STR_COPY(a.cuinit_name, p);
	p = NULL;
	if (s.error_string && s.error_string(a.cuinit_rc, &p) == CUDA_SUCCESS && p)
		STR_COPY(a.cuinit_text, p);
	cuda_error_fallback(a.cuinit_rc, a.cuinit_name, sizeof(a.cuinit_name), a.cuinit_text,
		sizeof(a.cuinit_text));

	if (a.cuinit_rc == CUDA_SUCCESS && s.device_count &&
	    s.device_count(&n) == CUDA_SUCCESS && n >= 0) {
		a.device_count = n;
		for (i = 0; i < n && i < MAX_GPUS; i++)
			cuda_device(&s, i, &a.devs[a.ndevs++]);
	}
	child_write(fd, (char *)&a + CUDA_STAGE1, sizeof(a) - CUDA_STAGE1);
}

/* ---- the NVML child ------------------------------------------------------------ */

/* An nvmlReturn_t's name, from the knowledge base's status codes. */
static void
nvml_error_name(int rc, char *out, size_t size)
{
	const struct kb_error_code *c = rc > 0 ? kb_error_code("nvml", (unsigned)rc) : NULL;

	if (rc == 0)
		str_copy(out, size, "NVML_SUCCESS");
	else if (c)
		str_copy(out, size, c->name);
	else
		str_fmt(out, size, "nvmlReturn_t %d", rc);
}

struct nvml_syms {
	nvmlInit_fn init;
	nvmlShutdown_fn shutdown;
	nvmlErrorString_fn error_string;
	nvmlSystemGetDriverVersion_fn driver_version;
	nvmlSystemGetCudaDriverVersion_fn cuda_version;
	nvmlDeviceGetCount_fn count;
	nvmlDeviceGetHandleByIndex_fn handle;
	nvmlDeviceGetPciInfo_fn pci;
	nvmlDeviceGetString_fn name, uuid;
	nvmlDeviceGetMemoryInfo_fn memory;
	nvmlDeviceGetMemoryInfo_v2_fn memory_v2;
	nvmlDeviceGetTemperature_fn temperature;
	nvmlDeviceGetUint_fn power, power_limit;
	nvmlDeviceGetU64_fn throttle;
	nvmlDeviceGetEnum_fn persistence, compute_mode;
	nvmlDeviceGetMigMode_fn mig;
	nvmlDeviceGetUtilizationRates_fn utilization;
	nvmlDeviceGetClock_fn clock, clock_max;
	nvmlDeviceGetEnumPair_fn ecc_mode;
	nvmlDeviceGetTotalEccErrors_fn ecc_errors;
	nvmlDeviceGetProcesses_fn compute_procs, graphics_procs;
	int compute_procs_v, graphics_procs_v; /* name index: 2 = v1 layout */
	struct topo_syms topo;
};

#define NVML_PROC_BATCH 64

static void
nvml_procs(struct nvml_answer *a, nvmlDeviceGetProcesses_fn fn, int v1, nvmlDevice_t h, int dev,
	int graphics)
{
	nvmlProcessInfo_t infos[NVML_PROC_BATCH];
	unsigned n = NVML_PROC_BATCH, i;
	size_t stride = v1 ? sizeof(nvmlProcessInfo_v1_t) : sizeof(nvmlProcessInfo_t);

	if (!fn || fn(h, &n, infos) != NVML_SUCCESS)
		return;
	for (i = 0; i < n && i < NVML_PROC_BATCH && a->nprocs < MAX_PROCS; i++) {
		const nvmlProcessInfo_v1_t *pi =
			(const nvmlProcessInfo_v1_t *)((const char *)infos + i * stride);
		struct nvml_proc_answer *pa = &a->procs[a->nprocs++];
		pa->dev = dev;
		pa->pid = pi->pid;
		pa->used_bytes = pi->usedGpuMemory;
		pa->graphics = graphics;
	}
}

static void
nvml_device(const struct nvml_syms *s, struct nvml_answer *a, unsigned index, nvmlDevice_t *handles)
{
	struct nvml_dev_answer *d = &a->devs[a->ndevs];
	nvmlDevice_t h = NULL;
	nvmlPciInfo_t pci;
	nvmlMemory_t mem;
	nvmlMemory_v2_t mem2;
	nvmlUtilization_t util;
	char tmp[NVML_DEVICE_NAME_V2_BUFFER_SIZE];
	unsigned u, u2;
	unsigned long long x;
	int e, e2;

	if (s->handle(index, &h) != NVML_SUCCESS)
		return;
	handles[a->ndevs] = h;
	a->ndevs++;
	d->temperature_c = d->power_mw = d->power_limit_mw = -1;
	d->persistence = d->compute_mode = d->mig_mode = d->utilization = -1;
	d->sm_clock = d->sm_clock_max = d->ecc_mode = -1;
	memset(&pci, 0, sizeof(pci));
	if (s->pci && s->pci(h, &pci) == NVML_SUCCESS) {
		pci.busId[sizeof(pci.busId) - 1] = '\0';
		STR_COPY(d->bus_id, pci.busId);
		d->pci_device_id = pci.pciDeviceId;
		d->pci_subsys_id = pci.pciSubSystemId;
	}
	if (s->name && s->name(h, tmp, sizeof(tmp)) == NVML_SUCCESS) {
		tmp[sizeof(tmp) - 1] = '\0';
		STR_COPY(d->name, tmp);
	}
	if (s->uuid && s->uuid(h, tmp, sizeof(tmp)) == NVML_SUCCESS) {
		tmp[sizeof(tmp) - 1] = '\0';
		STR_COPY(d->uuid, tmp);
	}
	/* v2 keeps the driver's reservation out of "used", as nvidia-smi */
	memset(&mem2, 0, sizeof(mem2));
	mem2.version = NVML_MEMORY_V2_VERSION;
	if (s->memory_v2 && s->memory_v2(h, &mem2) == NVML_SUCCESS) {
		d->mem_valid = 1;
		d->mem_total = mem2.total;
		d->mem_used = mem2.used;
		d->mem_free = mem2.free;
	} else if (s->memory && s->memory(h, &mem) == NVML_SUCCESS) {
		d->mem_valid = 1;
		d->mem_total = mem.total;
		d->mem_used = mem.used;
		d->mem_free = mem.free;
	}
	if (s->temperature && s->temperature(h, NVML_TEMPERATURE_GPU, &u) == NVML_SUCCESS &&
	    u < 1000)
		d->temperature_c = (int)u;
	if (s->power && s->power(h, &u) == NVML_SUCCESS && u <= INT_MAX)
		d->power_mw = (int)u;
	if (s->power_limit && s->power_limit(h, &u) == NVML_SUCCESS && u <= INT_MAX)
		d->power_limit_mw = (int)u;
	if (s->throttle && s->throttle(h, &x) == NVML_SUCCESS) {
		d->throttle_valid = 1;
		d->throttle = x;
	}
	if (s->persistence && s->persistence(h, &e) == NVML_SUCCESS)
		d->persistence = e;
	if (s->compute_mode && s->compute_mode(h, &e) == NVML_SUCCESS)
		d->compute_mode = e;
	if (s->mig && s->mig(h, &u, &u2) == NVML_SUCCESS && u <= 1)
		d->mig_mode = (int)u;
	if (s->utilization && s->utilization(h, &util) == NVML_SUCCESS && util.gpu <= 100)
		d->utilization = (int)util.gpu;
	if (s->clock && s->clock(h, NVML_CLOCK_SM, &u) == NVML_SUCCESS && u <= INT_MAX)
		d->sm_clock = (int)u;
	if (s->clock_max && s->clock_max(h, NVML_CLOCK_SM, &u) == NVML_SUCCESS && u <= INT_MAX)
		d->sm_clock_max = (int)u;
	if (s->ecc_mode && s->ecc_mode(h, &e, &e2) == NVML_SUCCESS)
		d->ecc_mode = e;
	if (s->ecc_errors && s->ecc_errors(h, NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_VOLATILE_ECC,
				 &x) == NVML_SUCCESS) {
		d->ecc_valid = 1;
		d->ecc_uncorrected = x;
	}
	nvml_procs(a, s->compute_procs, s->compute_procs_v == 2, h, a->ndevs - 1, 0);
	nvml_procs(a, s->graphics_procs, s->graphics_procs_v == 2, h, a->ndevs - 1, 1);
}

static void
nvml_child(void *arg, int fd)
{
	struct lib_job *j = arg;
	struct nvml_syms s;
	const struct sym tab[] = {
		{{"nvmlInit_v2", "nvmlInit"}, (void **)&s.init, true, NULL},
		{{"nvmlShutdown"}, (void **)&s.shutdown, false, NULL},
		{{"nvmlErrorString"}, (void **)&s.error_string, false, NULL},
		{{"nvmlSystemGetDriverVersion"}, (void **)&s.driver_version, false, NULL},
		{{"nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion"},
			(void **)&s.cuda_version, false, NULL},
		{{"nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"}, (void **)&s.count, false, NULL},
		{{"nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex"}, (void **)&s.handle,
			false, NULL},
		{{"nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetPciInfo_v2"}, (void **)&s.pci, false, NULL},
		{{"nvmlDeviceGetName"}, (void **)&s.name, false, NULL},
		{{"nvmlDeviceGetUUID"}, (void **)&s.uuid, false, NULL},
		{{"nvmlDeviceGetMemoryInfo"}, (void **)&s.memory, false, NULL},
		{{"nvmlDeviceGetMemoryInfo_v2"}, (void **)&s.memory_v2, false, NULL},
		{{"nvmlDeviceGetTemperature"}, (void **)&s.temperature, false, NULL},
		{{"nvmlDeviceGetPowerUsage"}, (void **)&s.power, false, NULL},
		{{"nvmlDeviceGetEnforcedPowerLimit"}, (void **)&s.power_limit, false, NULL},
		{{"nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons"},
			(void **)&s.throttle, false, NULL},
		{{"nvmlDeviceGetPersistenceMode"}, (void **)&s.persistence, false, NULL},
		{{"nvmlDeviceGetComputeMode"}, (void **)&s.compute_mode, false, NULL},
		{{"nvmlDeviceGetMigMode"}, (void **)&s.mig, false, NULL},
		{{"nvmlDeviceGetUtilizationRates"}, (void **)&s.utilization, false, NULL},
		{{"nvmlDeviceGetClockInfo"}, (void **)&s.clock, false, NULL},
		{{"nvmlDeviceGetMaxClockInfo"}, (void **)&s.clock_max, false, NULL},
		{{"nvmlDeviceGetEccMode"}, (void **)&s.ecc_mode, false, NULL},
		{{"nvmlDeviceGetTotalEccErrors"}, (void **)&s.ecc_errors, false, NULL},
		{{"nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetComputeRunningProcesses_v2",
			 "nvmlDeviceGetComputeRunningProcesses"},
			(void **)&s.compute_procs, false, &s.compute_procs_v},
		{{"nvmlDeviceGetGraphicsRunningProcesses_v3", "nvmlDeviceGetGraphicsRunningProcesses_v2",
			 "nvmlDeviceGetGraphicsRunningProcesses"},
			(void **)&s.graphics_procs, false, &s.graphics_procs_v},
		{{"nvmlDeviceGetTopologyCommonAncestor"}, (void **)&s.topo.ancestor, false, NULL},
		{{"nvmlDeviceGetP2PStatus"}, (void **)&s.topo.p2p, false, NULL},
		{{"nvmlDeviceGetNvLinkState"}, (void **)&s.topo.link_state, false, NULL},
		{{"nvmlDeviceGetNvLinkRemotePciInfo_v2", "nvmlDeviceGetNvLinkRemotePciInfo"},
			(void **)&s.topo.link_remote, false, NULL},
		{{"nvmlDeviceGetNvLinkRemoteDeviceType"}, (void **)&s.topo.link_type, false, NULL},
		{{"nvmlDeviceGetCpuAffinity"}, (void **)&s.topo.cpu_affinity, false, NULL},
	};
	static struct nvml_answer a;
	nvmlDevice_t handles[MAX_GPUS];
	const char *p;
	unsigned n, i;
	void *h;

	memset(&a, 0, sizeof(a));
	a.device_count = -1;
	s.compute_procs_v = s.graphics_procs_v = 0;
	h = child_dlopen(j, a.error, sizeof(a.error), a.loaded_path, sizeof(a.loaded_path));
	if (!h || syms_resolve(h, tab, sizeof(tab) / sizeof(tab[0]), a.error, sizeof(a.error)) < 0) {
		child_write(fd, &a, sizeof(a));
		return;
	}
	a.loaded = 1;
	a.init_called = 1;
	if (child_write(fd, &a, NVML_STAGE1) < 0)
		return;

	a.init_rc = s.init();
	if (a.init_rc != NVML_SUCCESS && s.error_string && (p = s.error_string(a.init_rc)))
		STR_COPY(a.init_text, p);
	if (a.init_rc == NVML_SUCCESS) {
		char v[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE];
		int cv;

		if (s.driver_version && s.driver_version(v, sizeof(v)) == NVML_SUCCESS) {
			v[sizeof(v) - 1] = '\0';
			STR_COPY(a.driver_version, v);
		}
		if (s.cuda_version && s.cuda_version(&cv) == NVML_SUCCESS)
			a.cuda_version = cv;
		if (s.count && s.count(&n) == NVML_SUCCESS) {
			a.device_count = n > INT_MAX ? INT_MAX : (int)n;
			for (i = 0; s.handle && i < n && a.ndevs < MAX_GPUS; i++)
				nvml_device(&s, &a, i, handles);
			if (a.ndevs > 0) {
				char bus[MAX_GPUS][NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE];
				int k;
				for (k = 0; k < a.ndevs; k++)
					STR_COPY(bus[k], a.devs[k].bus_id);
				topology_ask(&s.topo, handles, bus, a.ndevs, &a.topo);
			}
		}
	}
	child_write(fd, (char *)&a + NVML_STAGE1, sizeof(a) - NVML_STAGE1);
	/* the parent may already have taken the answer and killed us */
	if (a.init_rc == NVML_SUCCESS && s.shutdown)
		s.shutdown();
}

/* ---- start ----------------------------------------------------------------- */

/* Choose what to load for one library and say why when nothing. Returns
 * true when a child should be started. */
static bool
plan_lib(struct lib_job *j, struct facts *f, const char *name, const char *soname)
{
	const struct driver_facts *d = &f->driver;
	int i, pick = -1, first = -1, stubs = 0;

	j->what = name;
	j->lib = -1;
	for (i = 0; i < d->nlibs && i < MAX_DRIVER_LIBS; i++) {
		if (strcmp(d->libs[i].name, name))
			continue;
		if (d->libs[i].is_stub) {
			stubs++;
			continue;
		}
		if (d->libs[i].loader_pick && pick < 0)
			pick = i;
		if (first < 0)
			first = i;
	}
	j->lib = pick >= 0 ? pick : first;
	j->found = j->lib >= 0;
	if (root_is_host()) {
		/* the loader decides, as for a framework; it may find a copy
		 * where driverlibs did not look */
		STR_COPY(j->load, soname);
		return true;
	}
	if (j->lib < 0) {
		if (stubs)
			facts_note(f, "driver", "%s: only toolkit stub copies in the root: not loaded",
				name);
		return false;
	}
	if (!d->libs[j->lib].is_elf) {
		facts_note(f, "driver", "%s: '%s' is not a loadable shared object: not loaded", name,
			d->libs[j->lib].path);
		return false;
	}
	root_path(d->libs[j->lib].real_path[0] ? d->libs[j->lib].real_path : d->libs[j->lib].path,
		j->load, sizeof(j->load));
	STR_COPY(j->strip, root_get());
	return true;
}

static void
start_lib(struct lib_job *j, struct facts *f, child_fn fn, int timeout_ms)
{
	if (child_start(&j->child, fn, j, timeout_ms) < 0) {
		facts_note(f, "driver", "%s: could not start a child process", j->what);
		return;
	}
	j->started = true;
}

struct driver_job *
driver_probe_start(struct facts *f, const struct probe_opts *o)
{
	struct driver_job *job = xcalloc(1, sizeof(*job));
	int timeout = o && o->timeout_ms > 0 ? o->timeout_ms : 5000;
	bool cuda, nvml;

	cuda = plan_lib(&job->cuda, f, "libcuda", CUDA_SONAME);
	nvml = plan_lib(&job->nvml, f, "libnvidia-ml", NVML_SONAME);
	if (o && o->no_driver_calls) {
		facts_note(f, "driver", "libcuda and NVML not loaded (%s)",
			   o->no_load_why ? o->no_load_why : "--no-load");
		return job;
	}
	/* libcuda first: cuInit is the slowest thing gpudoctor waits for */
	if (cuda)
		start_lib(&job->cuda, f, cuda_child, timeout);
	if (nvml)
		start_lib(&job->nvml, f, nvml_child, timeout);
	return job;
}

/* ---- finish ------------------------------------------------------------------ */

#define TERMINATE(a) ((a)[sizeof(a) - 1] = '\0')

/* The gpus[] row for a bus id, a new one when PCI did not list it; NULL
 * when the id is empty or the table is full. */
static struct gpu_facts *
gpu_for_bus(struct facts *f, const char *bus_id)
{
	char want[32], have[32];
	struct gpu_facts *g;
	int i;

	if (!bus_id[0])
		return NULL;
	pci_bus_norm(bus_id, want, sizeof(want));
	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++) {
		pci_bus_norm(f->gpus[i].pci_bus_id, have, sizeof(have));
		if (!strcmp(want, have))
			return &f->gpus[i];
	}
	if (f->ngpus >= MAX_GPUS || f->ngpus < 0)
		return NULL;
	g = &f->gpus[f->ngpus++];
	gpu_facts_init(g);
	STR_COPY(g->pci_bus_id, want);
	g->vendor = 0x10de;
	return g;
}

static void
fill_arch(struct gpu_facts *g)
{
	const struct kb_arch *arch;
	const struct kb_gpu *k;

	if (!g->kb_known && g->device && (k = kb_gpu_by_id(g->device))) {
		g->kb_known = true;
		if (!g->name[0])
			STR_COPY(g->name, k->name);
		if (!g->architecture[0])
			STR_COPY(g->architecture, k->architecture);
		if (!g->compute_capability[0])
			STR_COPY(g->compute_capability, k->compute_capability);
		g->kb_memory_mib = k->memory_mib;
	}
	if (!g->architecture[0] && g->compute_capability[0] &&
	    (arch = kb_arch_by_cc(g->compute_capability)))
		STR_COPY(g->architecture, arch->architecture);
}

static void
apply_cuda_devs(struct facts *f, struct cuda_answer *a)
{
	int i, n = a->ndevs < 0 ? 0 : a->ndevs > MAX_GPUS ? MAX_GPUS : a->ndevs;

	for (i = 0; i < n; i++) {
		struct cuda_dev_answer *d = &a->devs[i];
		struct gpu_facts *g;

		TERMINATE(d->name);
		TERMINATE(d->uuid);
		TERMINATE(d->bus_id);
		if (!(g = gpu_for_bus(f, d->bus_id))) {
			facts_note(f, "driver", "CUDA device %d (bus '%s') has no GPU row", i, d->bus_id);
			continue;
		}
		g->cuda_valid = true;
		g->cuda_index = i;
		if (d->name[0])
			STR_COPY(g->name, d->name);
		if (d->uuid[0])
			STR_COPY(g->uuid, d->uuid);
		if (d->cc_major >= 0 && d->cc_minor >= 0 && d->cc_major < 100 && d->cc_minor < 100)
			STR_FMT(g->compute_capability, "%d.%d", d->cc_major, d->cc_minor);
		if (d->mem_bytes)
			g->memory_total_mib = d->mem_bytes >> 20;
		fill_arch(g);
	}
}

static int
clamp_int(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static void
apply_nvml_dev(struct gpu_facts *g, const struct nvml_dev_answer *d)
{
	g->nvml_valid = true;
	if (!g->device && d->pci_device_id) {
		g->vendor = d->pci_device_id & 0xffff;
		g->device = d->pci_device_id >> 16;
	}
	if (!g->subsys_vendor && !g->subsys_device && d->pci_subsys_id) {
		g->subsys_vendor = d->pci_subsys_id & 0xffff;
		g->subsys_device = d->pci_subsys_id >> 16;
	}
	if (d->name[0])
		STR_COPY(g->name, d->name);
	if (d->uuid[0] && !g->uuid[0])
		STR_COPY(g->uuid, d->uuid);
	if (d->mem_valid) {
		/* NVML's total, as nvidia-smi shows it; CUDA's figure leaves out
		 * what the driver reserves (143155 vs 143771 MiB on an H200) */
		if (d->mem_total)
			g->memory_total_mib = d->mem_total >> 20;
		g->memory_used_mib = d->mem_used >> 20;
		g->memory_free_mib = d->mem_free >> 20;
	}
	g->temperature_c = clamp_int(d->temperature_c, -1, 999);
	g->power_mw = d->power_mw < -1 ? -1 : d->power_mw;
	g->power_limit_mw = d->power_limit_mw < -1 ? -1 : d->power_limit_mw;
	g->throttle_valid = d->throttle_valid;
	g->throttle_reasons = d->throttle_valid ? d->throttle : 0;
	g->persistence_mode = clamp_int(d->persistence, -1, 1);
	g->compute_mode = clamp_int(d->compute_mode, -1, 3);
	g->mig_mode = clamp_int(d->mig_mode, -1, 1);
	g->utilization_gpu = clamp_int(d->utilization, -1, 100);
	g->sm_clock_mhz = d->sm_clock < -1 ? -1 : d->sm_clock;
	g->sm_clock_max_mhz = d->sm_clock_max < -1 ? -1 : d->sm_clock_max;
	g->ecc_mode = clamp_int(d->ecc_mode, -1, 1);
	if (d->ecc_valid)
		g->ecc_uncorrected = d->ecc_uncorrected;
	fill_arch(g);
}

static void
apply_nvml_procs(struct facts *f, struct nvml_answer *a, int ndevs)
{
	int i, k, n = clamp_int(a->nprocs, 0, MAX_PROCS);

	for (i = 0; i < n && f->nprocs < MAX_PROCS; i++) {
		const struct nvml_proc_answer *pa = &a->procs[i];
		struct proc_facts *p;
		char bus[20];
		bool dup = false;

		if (pa->dev < 0 || pa->dev >= ndevs)
			continue;
		pci_bus_norm(a->devs[pa->dev].bus_id, bus, sizeof(bus));
		for (k = 0; k < f->nprocs && !dup; k++)
			dup = f->procs[k].pid == pa->pid && !strcmp(f->procs[k].gpu_bus_id, bus);
		if (dup)
			continue;
		p = &f->procs[f->nprocs++];
		memset(p, 0, sizeof(*p));
		p->pid = pa->pid;
		STR_COPY(p->gpu_bus_id, bus);
		p->used_mib = pa->used_bytes == NVML_VALUE_NOT_AVAILABLE ? UINT64_MAX
									: pa->used_bytes >> 20;
		p->state = '?';
		STR_COPY(p->type, pa->graphics ? "graphics" : "compute");
	}
}

/* Collect one child: state, signal, time; returns the bytes received. */
static size_t
collect(struct lib_job *j, struct facts *f, void *ans, size_t size, int *state, int *sig,
	double *ms)
{
	struct child_result r;

	if (!j->started)
		return 0;
	child_finish(&j->child, ans, size, &r);
	*state = r.state;
	*sig = r.signal;
	if (ms)
		*ms = r.ms;
	switch (r.state) {
	case CHILD_CRASHED:
		facts_note(f, "driver", "%s: child killed by signal %d (%s)", j->what, r.signal,
			strsignal(r.signal));
		break;
	case CHILD_TIMEOUT:
		facts_note(f, "driver", "%s: no answer within %d ms: child killed", j->what,
			j->child.timeout_ms);
		break;
	case CHILD_FAILED:
		facts_note(f, "driver", "%s: child gave no answer (exit %d)", j->what, r.exit_code);
		break;
	default:
		break;
	}
	return r.len;
}

static void
finish_cuda(struct lib_job *j, struct facts *f)
{
	struct driver_facts *d = &f->driver;
	struct cuda_answer a;
	int state = CHILD_NOT_RUN, sig = 0;
	size_t len;

	memset(&a, 0, sizeof(a));
	len = collect(j, f, &a, sizeof(a), &state, &sig, &d->cuda_ms);
	if (!j->started)
		return;
	TERMINATE(a.error);
	TERMINATE(a.loaded_path);
	TERMINATE(a.cuinit_name);
	TERMINATE(a.cuinit_text);
	if (len >= CUDA_STAGE1) {
		STR_COPY(d->cuda_loaded_path, a.loaded_path);
		d->cuda_driver_version = a.driver_version > 0 ? a.driver_version : 0;
		d->cuinit_called = a.cuinit_called != 0;
	}
	if (state != CHILD_OK) {
		d->cuda_state = state;
		d->cuda_signal = sig;
		if (d->cuinit_called)
			facts_note(f, "driver", "libcuda: loaded '%s'; cuDriverGetVersion %d; "
				"then cuInit %s", d->cuda_loaded_path, d->cuda_driver_version,
				state == CHILD_CRASHED ? "crashed" : "never returned");
		return;
	}
	if (!a.loaded) {
		/* nothing but stubs found and the loader agrees: libcuda is
		 * missing, which is not a load failure */
		if (!(root_is_host() && !j->found))
			d->cuda_state = CHILD_LOAD_FAILED;
		STR_COPY(d->cuda_error, a.error);
		return;
	}
	d->cuda_state = CHILD_OK;
	d->cuinit_rc = a.cuinit_rc;
	STR_COPY(d->cuinit_name, a.cuinit_name);
	STR_COPY(d->cuinit_text, a.cuinit_text);
	d->cuda_device_count = a.device_count < -1 ? -1 : a.device_count;
	apply_cuda_devs(f, &a);
}

static void
finish_nvml(struct lib_job *j, struct facts *f)
{
	struct driver_facts *d = &f->driver;
	struct nvml_answer a;
	int state = CHILD_NOT_RUN, sig = 0, i, n;
	size_t len;

	memset(&a, 0, sizeof(a));
	len = collect(j, f, &a, sizeof(a), &state, &sig, NULL);
	if (!j->started)
		return;
	TERMINATE(a.error);
	TERMINATE(a.loaded_path);
	TERMINATE(a.init_text);
	TERMINATE(a.driver_version);
	if (len >= NVML_STAGE1)
		STR_COPY(d->nvml_loaded_path, a.loaded_path);
	if (state != CHILD_OK) {
		d->nvml_state = state;
		d->nvml_signal = sig;
		return;
	}
	if (!a.loaded) {
		if (!(root_is_host() && !j->found))
			d->nvml_state = CHILD_LOAD_FAILED;
		STR_COPY(d->nvml_error, a.error);
		return;
	}
	d->nvml_state = CHILD_OK;
	d->nvml_init_called = true;
	d->nvml_init_rc = a.init_rc;
	nvml_error_name(a.init_rc, d->nvml_init_name, sizeof(d->nvml_init_name));
	if (a.init_rc != NVML_SUCCESS)
		STR_COPY(d->nvml_error, a.init_text);
	STR_COPY(d->nvml_driver_version, a.driver_version);
	d->nvml_cuda_version = a.cuda_version > 0 ? a.cuda_version : 0;
	d->nvml_device_count = a.device_count < -1 ? -1 : a.device_count;
	n = clamp_int(a.ndevs, 0, MAX_GPUS);
	for (i = 0; i < n; i++) {
		struct gpu_facts *g;

		TERMINATE(a.devs[i].bus_id);
		TERMINATE(a.devs[i].name);
		TERMINATE(a.devs[i].uuid);
		if ((g = gpu_for_bus(f, a.devs[i].bus_id)))
			apply_nvml_dev(g, &a.devs[i]);
		else
			facts_note(f, "driver", "NVML device %d (bus '%s') has no GPU row", i,
				a.devs[i].bus_id);
	}
	apply_nvml_procs(f, &a, n);
	{
		int map[MAX_GPUS];
		a.topo.n = clamp_int(a.topo.n, 0, n);
		for (i = 0; i < a.topo.n; i++) {
			struct gpu_facts *gg = gpu_for_bus(f, a.devs[i].bus_id);
			map[i] = gg ? (int)(gg - f->gpus) : -1;
			TERMINATE(a.topo.cpus[i]);
		}
		topology_to_facts(&a.topo, map, f);
	}
}

/* The driver_libs row of the libcuda that was loaded, else -1. */
static int
loaded_cuda_lib(const struct facts *f, const struct lib_job *j)
{
	const struct driver_facts *d = &f->driver;
	char real[F_PATH];
	int i;

	if (!d->cuda_loaded_path[0])
		return j->lib;
	if (root_realpath(d->cuda_loaded_path, real, sizeof(real)) < 0)
		STR_COPY(real, d->cuda_loaded_path);
	for (i = 0; i < d->nlibs && i < MAX_DRIVER_LIBS; i++)
		if (!strcmp(d->libs[i].name, "libcuda") &&
		    (!strcmp(d->libs[i].real_path, real) || !strcmp(d->libs[i].path, real) ||
			    !strcmp(d->libs[i].path, d->cuda_loaded_path)))
			return i;
	return j->lib;
}

static void
best_versions(struct facts *f, const struct lib_job *cuda)
{
	struct driver_facts *d = &f->driver;
	int lib = loaded_cuda_lib(f, cuda);

	if (d->nvml_driver_version[0]) {
		STR_COPY(d->version, d->nvml_driver_version);
		STR_COPY(d->version_source, "nvml");
	} else if (lib >= 0 && d->libs[lib].version[0]) {
		STR_COPY(d->version, d->libs[lib].version);
		STR_COPY(d->version_source, "libcuda");
	} else if (f->kmod.nvidia_version[0]) {
		STR_COPY(d->version, f->kmod.nvidia_version);
		STR_COPY(d->version_source, "kmod");
	}
	if (d->cuda_driver_version > 0) {
		vers_from_cuda_int(d->cuda_driver_version, d->cuda_version, sizeof(d->cuda_version));
		STR_COPY(d->cuda_version_source, "driver");
	} else if (d->nvml_cuda_version > 0) {
		vers_from_cuda_int(d->nvml_cuda_version, d->cuda_version, sizeof(d->cuda_version));
		STR_COPY(d->cuda_version_source, "nvml");
	}
}

void
driver_probe_finish(struct driver_job *job, struct facts *f)
{
	if (!job)
		return;
	/* CUDA first: NVML's device names then override CUDA's */
	finish_cuda(&job->cuda, f);
	finish_nvml(&job->nvml, f);
	best_versions(f, &job->cuda);
	free(job);
}
