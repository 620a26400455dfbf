/*
 * sample.h - one reading of every GPU and the processes on them, as the
 * NVML sampler child writes it to its pipe (fixed size, no pointers), and
 * the host's view of each process added by the parent (procinfo.c).
 *
 * Numbers NVML could not give are -1 (MON_NA); never NVML's "not
 * supported" sentinels.
 */
#ifndef GPUDOCTOR_MONITOR_SAMPLE_H
#define GPUDOCTOR_MONITOR_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#define MON_MAX_GPUS 16
#define MON_MAX_PROCS 256
#define MON_NA (-1)
#define MON_SAMPLE_MAGIC 0x47444d31u /* "GDM1" */

enum mon_gpu_state {
	MON_GPU_OK,
	MON_GPU_LOST,     /* NVML_ERROR_GPU_IS_LOST: fell off the bus */
	MON_GPU_ERROR,    /* no handle, or another error on every call */
};

struct mon_gpu {
	/* static: read once */
	int index;
	char name[96];
	char uuid[96];
	char bus_id[32];             /* NVML's "00000000:06:00.0" */
	int minor;                   /* /dev/nvidiaN; MON_NA unknown */
	int64_t mem_total_mib;
	int sm_clock_max, mem_clock_max;
	int temp_slowdown, temp_shutdown;
	int pcie_gen_max, pcie_width_max;
	int mig;                     /* 1 MIG mode on, 0 off, MON_NA */
	/* every sample */
	int state;                   /* enum mon_gpu_state */
	int error_rc;                /* the nvmlReturn_t behind LOST/ERROR */
	int util_gpu, util_mem;      /* % */
	int64_t mem_used_mib;
	int64_t mem_free_mib, mem_reserved_mib;  /* reserved: MON_NA without the _v2 call */
	int temp;                    /* C */
	int power_mw, power_limit_mw;
	int fan;                     /* % */
	int pstate;                  /* 0..15 */
	int sm_clock, mem_clock;     /* MHz */
	int64_t reasons;             /* clock-event bits; MON_NA unknown */
	/* slow cadence (every few seconds) */
	int64_t ecc_corrected, ecc_uncorrected; /* volatile counts */
	int64_t remapped_corrected, remapped_uncorrected;
	int remap_pending, remap_failure;
	int64_t retired_pages;
	int pcie_gen, pcie_width;
	int64_t pcie_tx_kib, pcie_rx_kib; /* KiB/s, on the slowest cadence */
	int64_t energy_mj;
};

enum mon_proc_kind { MON_PROC_COMPUTE, MON_PROC_GRAPHICS };

/* What the host says about a process NVML lists (procinfo.c). */
enum mon_proc_state {
	MON_PROC_RUNNING,
	MON_PROC_ZOMBIE,           /* exited, not reaped: its memory waits for its parent */
	MON_PROC_STOPPED,
	MON_PROC_GONE,             /* no such process, same PID namespace: a leaked context */
	MON_PROC_ELSEWHERE,        /* not visible here: gpudoctor runs in a container */
};

struct mon_proc {
	int gpu;                     /* index into gpus[] */
	uint32_t pid;
	int kind;                    /* enum mon_proc_kind */
	int64_t mem_mib;             /* MON_NA: NVML cannot say (containers, MIG) */
	int sm_util;                 /* %, MON_NA without a sample */
	uint32_t gi, ci;             /* MIG instance ids, NVML_NO_INSTANCE_ID */
	/* filled by the parent */
	int state;                   /* enum mon_proc_state */
	bool stale;
	int ppid;
	int uid;
	char user[32];
	char command[160];           /* cleaned for a terminal */
	char container[16];          /* short container id, "" none */
	double cpu_pct;              /* host CPU since the previous sample, MON_NA */
	unsigned long long cpu_ticks, start_ticks;
};

struct mon_sample {
	uint32_t magic;
	uint32_t size;               /* sizeof(struct mon_sample), a check */
	int64_t seq;                 /* sample number from 0 */
	double t_ms;                 /* its time on the schedule: seq * interval */
	double wall;                 /* seconds since the epoch when taken */
	double cpu_ms;               /* CPU the sample cost the sampler */
	int init_rc;                 /* nvmlInit_v2's answer; the rest is empty unless 0 */
	char error[200];             /* why there is nothing to show */
	char driver[80];
	char nvml_path[200];         /* the library really loaded */
	int ngpus;
	struct mon_gpu gpus[MON_MAX_GPUS];
	int nprocs;
	bool procs_cut;              /* more than MON_MAX_PROCS */
	struct mon_proc procs[MON_MAX_PROCS];
};

#endif
