/*
 * facts.h - everything the probes establish about one machine, and nothing
 * they concluded from it.
 *
 * Probes write one part each; rules and renderers only read. Every string
 * is a fixed-size NUL-terminated array (empty = unknown) so the whole struct
 * can cross a pipe from a child process and be saved to JSON and read back
 * (render/facts_json.c) without an ownership protocol. Numbers that may be
 * unknown carry a validity bit or use the documented sentinel (-1).
 *
 * Adding a field: add it here, then to render/facts_json.c (both ways), then
 * to the text renderer if a person should see it.
 */
#ifndef GPUDOCTOR_FACTS_H
#define GPUDOCTOR_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#define FACTS_SCHEMA "gpudoctor/facts/1"

#define F_NAME 64
#define F_TEXT 160
#define F_PATH 512

#define MAX_GPUS 16
#define MAX_OTHER_GPUS 4
#define MAX_DRIVER_LIBS 16
#define MAX_LIBS 192
#define MAX_PROCS 64
#define MAX_DEVNODES 40
#define MAX_ENV 24
#define MAX_LDPATH_DIRS 16
#define MAX_PROBE_NOTES 32

/* ---- host --------------------------------------------------------------- */

struct host_facts {
	bool valid;
	char os_id[F_NAME];          /* os-release ID: debian, ubuntu, fedora... */
	char os_like[F_NAME];        /* os-release ID_LIKE */
	char os_version_id[F_NAME];  /* os-release VERSION_ID */
	char os_pretty[F_TEXT];      /* os-release PRETTY_NAME */
	char pkg_manager[16];        /* apt, dnf, zypper, pacman, "" unknown */
	char kernel_release[F_NAME]; /* /proc/sys/kernel/osrelease */
	char arch[16];               /* uname machine, e.g. x86_64 */
	char glibc_version[16];      /* only when probing the running system */

	bool cpu_valid;
	char cpu_model[F_TEXT];
	int cpu_count;
	bool cpu_avx, cpu_avx2, cpu_avx512f, cpu_fma;

	bool wsl;                    /* WSL2 kernel or /dev/dxg */
	bool wsl_dxg;                /* /dev/dxg present */
	bool wsl_lib_dir;            /* /usr/lib/wsl/lib present */
	bool wsl_libcuda;            /* /usr/lib/wsl/lib/libcuda.so.1 present */

	bool container;
	char container_kind[24];     /* docker, podman, kubernetes, lxc, container */

	int secure_boot;             /* -1 unknown, 0 off, 1 on (efivars) */
	char hypervisor[F_NAME];     /* "" none/unknown */

	char cpus_allowed[F_TEXT];   /* the CPUs this process may run on (sched_getaffinity), as a
	                                list "0-15"; only when probing the running system */
	bool net_valid;              /* /sys/class/net was read */
	char net_ifaces[F_TEXT];     /* its network interfaces, "eno1 ib0 lo" */
	bool ib_valid;               /* /sys/class/infiniband exists */
	char ib_devices[F_TEXT];     /* its RDMA devices, "mlx5_0 mlx5_1" */
	unsigned uid;                /* effective uid of the probing process */
	unsigned gids[32];           /* its groups, gid first */
	int ngids;
};

/* ---- hw: PCI functions ---------------------------------------------------- */

struct gpu_facts {
	char pci_bus_id[20];         /* "0000:00:06.0" as in sysfs */
	unsigned vendor, device;     /* 0x10de, 0x2335 */
	unsigned subsys_vendor, subsys_device;
	unsigned class_code;         /* 0x030200 */
	char kernel_driver[F_NAME];  /* bound driver: nvidia, nouveau, vfio-pci, "" */
	int numa_node;               /* -1 none */
	char link_speed_cur[24], link_speed_max[24]; /* "32.0 GT/s PCIe" */
	int link_width_cur, link_width_max;          /* 0 unknown */
	bool boot_vga;

	/* from the knowledge base by device id */
	bool kb_known;
	char name[F_NAME];           /* best known: NVML/CUDA name, else kb */
	char architecture[24];       /* Hopper */
	char compute_capability[8];  /* "9.0" */
	uint64_t kb_memory_mib;

	/* from CUDA (cuDeviceGet*) */
	bool cuda_valid;
	int cuda_index;              /* ordinal under this process's visibility */
	char uuid[48];               /* GPU-xxxxxxxx-... */
	uint64_t memory_total_mib;

	/* from NVML */
	bool nvml_valid;
	uint64_t memory_used_mib, memory_free_mib;
	int temperature_c;           /* -1 unknown */
	int power_mw, power_limit_mw; /* -1 unknown */
	uint64_t throttle_reasons;   /* nvmlClocksEventReasons bit mask */
	bool throttle_valid;
	int persistence_mode;        /* -1 unknown, 0, 1 */
	int compute_mode;            /* -1 unknown, 0 default, 2 prohibited, 3 exclusive */
	int mig_mode;                /* -1 unknown/unsupported, 0, 1 */
	int utilization_gpu;         /* percent, -1 unknown */
	int sm_clock_mhz, sm_clock_max_mhz; /* -1 unknown */
	int ecc_mode;                /* -1 unknown, 0, 1 */
	uint64_t ecc_uncorrected;    /* volatile, total */

	/* Topology (NVML; probe/topology.c): this GPU's row of nvidia-smi's
	 * matrices, one word per GPU of gpus[] in order ("X" for itself, "?"
	 * unknown); "" when NVML gave none. */
	char topology[F_TEXT];       /* topo -m: X NV18 PIX PXB PHB NODE SYS */
	char p2p_read[F_TEXT];       /* topo -p2p r: X OK CNS GNS TNS DRK NS U */
	char p2p_write[F_TEXT];      /* topo -p2p w */
	char p2p_atomics[F_TEXT];    /* topo -p2p a */
	char cpu_affinity[F_NAME];   /* the CPUs near it, as a list: "0-15,32-47" */
	int nvlink_up, nvlink_down;  /* NVLinks active / inactive; -1 unknown */
};

/* Non-NVIDIA display controllers (the integrated GPU of a hybrid laptop). */
struct other_gpu_facts {
	char pci_bus_id[20];
	unsigned vendor, device, class_code;
	char kernel_driver[F_NAME];
	bool boot_vga;
};

/* ---- kmod ------------------------------------------------------------------ */

struct devnode_facts {
	char path[F_NAME];           /* /dev/nvidia0 (without the root prefix) */
	bool exists;
	bool is_char;
	unsigned mode;               /* permission bits */
	unsigned uid, gid;
	bool accessible;             /* read+write for the probing process */
};

struct kmod_facts {
	bool modules_readable;       /* /proc/modules could be read */
	bool modules_cut;            /* ... but only its first MiB: what is not
	                                listed there is unknown (kmod_list_whole) */
	bool nvidia, nvidia_uvm, nvidia_modeset, nvidia_drm, nouveau;
	char nvidia_version[32];     /* /proc/driver/nvidia/version or sys/module */
	char flavour[16];            /* open, proprietary, "" unknown */
	char version_line[F_TEXT];   /* first line of /proc/driver/nvidia/version */
	bool nouveau_blacklisted;
	char nouveau_blacklist_file[F_PATH];
	bool nvidia_module_installed; /* nvidia.ko found under lib/modules/<kernel> */
	char nvidia_module_path[F_PATH];

	int ndevnodes;
	struct devnode_facts devnodes[MAX_DEVNODES];
};

/* ---- driver ---------------------------------------------------------------- */

enum child_state {
	CHILD_NOT_RUN = 0,           /* not attempted (nothing to load, or --from) */
	CHILD_OK,                    /* child answered */
	CHILD_LOAD_FAILED,           /* dlopen/dlsym failed; message says why */
	CHILD_CRASHED,               /* killed by a signal */
	CHILD_TIMEOUT,               /* killed after the time limit */
	CHILD_FAILED,                /* fork/pipe failure, garbled answer */
};

struct driver_lib_facts {
	char path[F_PATH];           /* as found (under the root) */
	char real_path[F_PATH];      /* symlinks resolved */
	char name[16];               /* libcuda, libnvidia-ml */
	char version[32];            /* from the real file name: 580.159.04 */
	char found_via[24];          /* ld_so_cache, ld_library_path, wsl, default,
	                                nvidia_dir, stubs */
	bool is_stub;                /* toolkit stub: never a driver */
	bool loader_pick;            /* what dlopen(soname) would load */
	bool is_elf;                 /* a real ELF shared object for this machine */
};

struct driver_facts {
	int nlibs;
	struct driver_lib_facts libs[MAX_DRIVER_LIBS];

	char version[32];            /* best known: NVML, else libcuda file, else kmod */
	char version_source[16];     /* nvml, libcuda, kmod */
	char cuda_version[8];        /* newest CUDA this driver runs, "13.0" */
	char cuda_version_source[12]; /* driver (cuDriverGetVersion), nvml, or derived: from
	                                 the driver version through the knowledge base, when
	                                 the driver could not be asked (probe/derive.c) */

	/* libcuda, in a child */
	int cuda_state;              /* enum child_state */
	int cuda_signal;             /* for CHILD_CRASHED */
	char cuda_error[F_TEXT];     /* load failure text */
	char cuda_loaded_path[F_PATH];
	int cuda_driver_version;     /* cuDriverGetVersion: 13000; 0 unknown */
	bool cuinit_called;
	int cuinit_rc;               /* when cuinit_called */
	char cuinit_name[F_NAME];    /* CUDA_ERROR_NO_DEVICE */
	char cuinit_text[F_TEXT];
	int cuda_device_count;       /* -1 unknown */
	double cuda_ms;              /* child wall time */

	/* libnvidia-ml, in the same child */
	int nvml_state;
	int nvml_signal;             /* for CHILD_CRASHED */
	char nvml_error[F_TEXT];
	char nvml_loaded_path[F_PATH];
	bool nvml_init_called;
	int nvml_init_rc;            /* when nvml_init_called */
	char nvml_init_name[F_NAME];
	char nvml_driver_version[32];
	int nvml_cuda_version;       /* nvmlSystemGetCudaDriverVersion: 13000 */
	int nvml_device_count;       /* -1 unknown */
};

/* ---- libs ------------------------------------------------------------------- */

enum lib_origin {
	ORIGIN_OTHER = 0,
	ORIGIN_TOOLKIT,              /* /usr/local/cuda-X.Y, /opt/nvidia/... */
	ORIGIN_SYSTEM,               /* distro package dirs */
	ORIGIN_PIP,                  /* site-packages/nvidia/... */
	ORIGIN_CONDA,                /* <conda prefix>/lib */
	ORIGIN_FRAMEWORK,            /* bundled inside torch/, tensorflow/, jaxlib/ */
	ORIGIN_DRIVER,               /* driver directory */
};

struct lib_facts {
	char name[32];               /* cudart, cublas, cublasLt, cufft, curand,
	                                cusolver, cusparse, cudnn, cudnn_ops, ...,
	                                nccl, nvrtc, nvjitlink, tensorrt */
	char path[F_PATH];           /* as found, without the root prefix */
	char real_path[F_PATH];      /* symlinks resolved */
	char soname[F_NAME];         /* DT_SONAME, else from the file name */
	char version[32];            /* as exact as known: 9.19.0 */
	char version_source[16];     /* call, header, version_json, dist_info, filename, soname */
	int origin;                  /* enum lib_origin */
	char origin_root[F_PATH];    /* /usr/local/cuda-13.0, site-packages dir... */
	bool in_ld_cache;            /* /etc/ld.so.cache names this file */
	bool loader_pick;            /* the copy a plain dlopen(soname) would get */
	char cuda_major[8];          /* CUDA major it is built for, if known: "13" */
};

/* ---- env -------------------------------------------------------------------- */

struct env_var_facts {
	char name[40];
	bool set;
	char value[F_PATH];
};

struct ldpath_dir_facts {
	char dir[F_PATH];
	bool exists;
	int ncuda_libs;              /* CUDA libraries found there */
	char cuda_major[8];          /* major of the cudart there, if any */
};

struct env_facts {
	int nvars;
	struct env_var_facts vars[MAX_ENV];
	int nldpath;
	struct ldpath_dir_facts ldpath[MAX_LDPATH_DIRS];
};

/* ---- resources: processes holding GPU memory ------------------------------- */

struct proc_facts {
	unsigned pid;
	char gpu_bus_id[20];
	uint64_t used_mib;           /* UINT64_MAX unknown */
	char name[F_NAME];           /* comm */
	bool alive;                  /* /proc/PID exists (in our pid namespace) */
	char state;                  /* R S D T Z ..., '?' unknown */
	char type[12];               /* compute, graphics */
};

/* ---- python: environments and the frameworks in them ------------------------ */

#define MAX_PYENVS 24
#define MAX_PYPKGS 48
#define MAX_FRAMEWORKS 5
#define MAX_RESOLVED 24

/* One library a framework's extension needs, and where the loader finds it. */
struct resolved_lib_facts {
	char soname[F_NAME];         /* libcudnn.so.9 */
	char path[F_PATH];           /* the file the loader would pick; "" not found */
	char version[32];            /* its version, as exact as known */
	char via[16];                /* rpath, runpath, ld_library_path, ld_so_cache, default */
	bool needed;                 /* DT_NEEDED; false: dlopened at run time */
};

#define MAX_LIVE_MAPPED 16

/*
 * With doctor --deep (probe/deep.c): the framework's own answers, asked by
 * importing it in its environment's interpreter, alone in a child with a
 * time limit. `ran` false: not asked (no --deep, --from an older report).
 */
struct framework_live_facts {
	bool ran;
	int state;                   /* enum child_state of that interpreter run */
	int signal;                  /* for CHILD_CRASHED */
	char error[F_TEXT];          /* import or query failure, or why the run failed */
	char version[40];            /* its __version__ (jax: jaxlib's) */
	char module[F_PATH];         /* the package file it imported */
	int cuda_build;              /* -1 unknown, 0/1: built with CUDA, by its own word */
	bool cuda_available;         /* it can use a GPU now */
	int gpu_count;               /* GPUs it sees; -1 unknown */
	char devices[F_TEXT];        /* their names, "; " between them */
	char cuda[16];               /* CUDA it was built with (tf build_info, torch.version.cuda) */
	char cudnn[16];              /* cuDNN: tf's build, torch's loaded one ("9.19.0") */
	char arch_list[128];         /* "sm_80 sm_90" */
	char capability[16];         /* of GPU 0: "9.0" */
	int nmapped;
	char mapped[MAX_LIVE_MAPPED][F_PATH]; /* CUDA library files the process mapped: real
	                                         paths, or resolved[].path naming the same file */
	double ms;                   /* the whole run */
	int run_uid;                 /* the user the interpreter ran as; -1 not run */
	char run_user[32];           /* its name, "" unknown */
};

/* The GPU code a framework's CUDA library carries, read from the headers of
 * its fat binaries (sys/fatbin.c): the library with the most of them among
 * the framework's CUDA libraries. */
struct targets_facts {
	char sass[160];              /* machine code: "7.5 8.0 8.6 9.0 10.0 12.0" ("9.0a": arch-specific) */
	char ptx[64];                /* PTX: "12.0"; "" none */
	char ptx_isa[8];             /* newest PTX ISA version among them: "9.0" */
	char file[F_PATH];           /* the library read; "" none had fat binaries */
	unsigned fat_binaries;       /* fat binaries walked in it */
	bool truncated;              /* the walk stopped at a damaged header */
	bool sampled;                /* the walk stopped at its time budget (cold cache):
	                                the lists are those of the fat binaries walked */
	double ms;                   /* reading every candidate library */
};

/* A framework installed in one environment, read from its files alone. */
struct framework_facts {
	char name[16];               /* tensorflow, torch, jax, cupy */
	char package[48];            /* distribution: tensorflow-gpu, torch, jaxlib, cupy-cuda12x */
	char version[40];            /* as installed: 2.11.0+cu130 */
	char local_tag[24];          /* cu130, cpu, rocm6.2, "" none */
	char built_cuda[16];         /* CUDA it was built with: "13.0"; "" unknown/none */
	char built_cudnn[16];        /* cuDNN it was built with: "9"; "" unknown */
	int cuda_build;              /* -1 unknown, 0 CPU-only build, 1 CUDA build */
	char compute_capabilities[128]; /* as the build lists them: "sm_75 sm_80 sm_90" */
	struct targets_facts targets; /* what its CUDA library really carries */
	char extension[F_PATH];      /* the CUDA-using shared object analysed */
	char plugin[64];             /* jax: "jax-cuda13-plugin 0.11.2"; "" */
	char libdevice[F_PATH];      /* tensorflow/jax: libdevice.10.bc XLA would find; "" none */
	char ptxas[F_PATH];          /* tensorflow/jax: the ptxas XLA would run; "" none */
	char ptxas_version[16];      /* its CUDA release from path/wheel: "12.4"; "" unknown */
	int nresolved;
	struct resolved_lib_facts resolved[MAX_RESOLVED];
	struct framework_live_facts live; /* doctor --deep */
};

struct pypkg_facts {
	char name[48];               /* normalised distribution name: nvidia-cudnn-cu12 */
	char version[40];
};

struct python_env_facts {
	char path[F_PATH];           /* the environment's prefix (sys.prefix) */
	char interpreter[F_PATH];    /* bin/python3 of it */
	char version[16];            /* "3.12.3" or "3.12", read from files */
	char kind[12];               /* system, conda, venv, pyenv, windows (WSL2: /mnt/c) */
	bool active;                 /* VIRTUAL_ENV / CONDA_PREFIX / first python3 on PATH */
	char site_packages[F_PATH];  /* the first site-packages (or dist-packages) dir */
	int npkgs;                   /* GPU-relevant packages only (frameworks, nvidia-*) */
	struct pypkg_facts pkgs[MAX_PYPKGS];
	int nframeworks;
	struct framework_facts frameworks[MAX_FRAMEWORKS];
};

/* ---- probe bookkeeping ------------------------------------------------------ */

struct probe_note {
	char probe[24];
	double ms;
	char note[F_TEXT];           /* why a probe could not establish something */
};

/* ---- the whole -------------------------------------------------------------- */

/* The parts of the facts a document holds under its own key; a rule that
 * reads a part (rules.c) is not run when the part is unknown. */
enum facts_part {
	FACTS_PART_HOST = 1u << 0,   /* .host */
	FACTS_PART_GPUS = 1u << 1,   /* .gpus, .other_gpus */
	FACTS_PART_KMOD = 1u << 2,   /* .kmod */
	FACTS_PART_DRIVER = 1u << 3, /* .driver */
	FACTS_PART_LIBS = 1u << 4,   /* .libs */
	FACTS_PART_ENV = 1u << 5,    /* .env */
	FACTS_PART_PROCS = 1u << 6,  /* .procs */
	FACTS_PART_PYTHON = 1u << 7, /* .python */
};

struct facts {
	char schema[32];
	char tool_version[24];
	char root[F_PATH];           /* --root the probes read */
	char hostname[F_NAME];
	char collected_at[32];       /* ISO 8601 UTC */
	bool from_file;              /* read back with --from */
	unsigned unknown_parts;      /* --from: the parts (FACTS_PART_*) the document
	                                did not hold: unknown, never taken as empty */

	struct host_facts host;

	bool pci_valid;              /* /sys/bus/pci/devices could be listed */
	int ngpus;
	struct gpu_facts gpus[MAX_GPUS];
	int nother_gpus;
	struct other_gpu_facts other_gpus[MAX_OTHER_GPUS];

	struct kmod_facts kmod;
	struct driver_facts driver;

	int nlibs;
	struct lib_facts libs[MAX_LIBS];

	struct env_facts env;

	int nprocs;
	struct proc_facts procs[MAX_PROCS];

	int npython;
	struct python_env_facts python[MAX_PYENVS];

	int nnotes;
	struct probe_note notes[MAX_PROBE_NOTES];
	double total_ms;
};

/* Zero everything and set the sentinels (-1 for unknown numbers). */
void facts_init(struct facts *f);
/* Sentinels for one GPU row. */
void gpu_facts_init(struct gpu_facts *g);

/* Lookups; NULL when absent. */
const struct env_var_facts *facts_env(const struct facts *f, const char *name);
const char *facts_env_value(const struct facts *f, const char *name); /* NULL unless set */
struct gpu_facts *facts_gpu_by_bus(struct facts *f, const char *bus_id);
/* The active Python environment (VIRTUAL_ENV, CONDA_PREFIX, the first
 * python3 on PATH), else the first one found; NULL when there is none. */
const struct python_env_facts *facts_active_env(const struct facts *f);
const struct devnode_facts *facts_devnode(const struct facts *f, const char *path);
/* /proc/modules was read whole: a module it does not list is not loaded.
 * Otherwise only what it lists is known. */
bool kmod_list_whole(const struct facts *f);

/* Append a note for probe `probe`; silently dropped when full. */
void facts_note(struct facts *f, const char *probe, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

const char *lib_origin_name(int origin);
int lib_origin_parse(const char *s); /* -1 unknown */
const char *child_state_name(int state);
int child_state_parse(const char *s);

#endif
