/*
 * plan.h - `gpudoctor plan`: which release of a framework can run on one
 * machine (its driver, GPU, Python, OS and CPU), why every newer release
 * cannot, and, when none can, what to change first.
 *
 * Pure functions over a struct plan_machine and the knowledge base (kb.h);
 * no I/O. The machine comes from the probes, a facts file or the command
 * line (cli/cmd_plan.c); the install steps are written from the result by
 * render/plan_text.c.
 *
 * Driver rule: a build for CUDA X.Y runs on a driver at least X.Y's own
 * minimum (cuda_driver.tsv linux_min, windows_min on Windows and WSL2), or
 * at least the minor-version-compatibility minimum of the major X
 * (linux_minor_compat) unless the machine asks for strict minimums; the
 * plan says which one it relied on. Whether the GPU runs a build is
 * runs_on.h's decision over the build's targets (build_targets.tsv):
 * natively, only through PTX JIT, or not at all; the plan takes the newest
 * release and CUDA variant that runs natively, and a JIT-only build only
 * when no release runs natively. A driver older than the GPU's
 * architecture blocks every release.
 */
#ifndef GPUDOCTOR_PLAN_H
#define GPUDOCTOR_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "facts.h"

enum plan_os { PLAN_OS_LINUX, PLAN_OS_WSL2, PLAN_OS_WINDOWS, PLAN_OS_MACOS };
enum plan_fw { PLAN_TF, PLAN_TORCH, PLAN_JAX };

/* What is known about the machine; "" (or -1) = unknown / absent. */
struct plan_machine {
	char driver[32];            /* "470.82.01"; "" no NVIDIA driver found */
	bool driver_unknown;        /* "" means unknown, not none (a facts document
	                               without its driver) */
	char gpu_name[64];          /* "NVIDIA GeForce RTX 3090"; "" none or unknown */
	char compute_capability[8]; /* "8.6"; "" unknown */
	bool gpu_present;           /* an NVIDIA GPU is there (its name may be unknown) */
	bool gpu_known;             /* gpu_present is a fact, not a guess */
	char python[16];            /* "3.12" or "3.12.3"; "" unknown */
	char python3[16];           /* the version `python3` runs here, when probed; "" unknown */
	int os;                     /* enum plan_os */
	int cpu_avx;                /* -1 unknown, 0 no AVX, 1 AVX */
	char toolkit[16];           /* CUDA toolkit already installed: "13.0"; "" none */
	bool strict_driver;         /* never rely on minor-version compatibility */
	bool described;             /* given by options alone (--gpu, --os): not probed */
};

/* Why a release is ruled out; a bit set per release. */
enum plan_why {
	WHY_PYTHON = 1 << 0,        /* this Python is outside the release's range */
	WHY_DRIVER = 1 << 1,        /* the driver is older than its CUDA needs */
	WHY_ARCH = 1 << 2,          /* the GPU is outside its CUDA's architecture range */
	WHY_OS = 1 << 3,            /* no build for this OS */
	WHY_CPU = 1 << 4,           /* the CPU lacks an instruction set the wheels need */
	WHY_JIT = 1 << 5,           /* the GPU runs it only from PTX, JIT-compiled at first
	                               start: chosen only when no release runs natively */
};

#define PLAN_LINE 512
#define PLAN_MAX_REASONS 3
#define PLAN_MAX_EXCLUDED 10
#define PLAN_MAX_NOTES 8
#define PLAN_MAX_BLOCKERS 4

struct plan_excluded {
	char version[24];
	unsigned why;               /* enum plan_why bits */
	int nreasons;
	char reasons[PLAN_MAX_REASONS][PLAN_LINE];
};

struct plan_blocker {
	unsigned why;               /* the one enum plan_why this blocker is about */
	char what[PLAN_LINE];       /* "driver 470.82.01 is too old for every ..." */
	char fix[PLAN_LINE];        /* "upgrade the NVIDIA driver to >= 525.60.13 first" */
	char driver_min[32];        /* WHY_DRIVER: the driver version to install */
	char python[8];             /* WHY_PYTHON: the Python minor to install */
};

struct plan {
	int fw;                     /* enum plan_fw */
	int os;                     /* the OS planned for (from the machine) */
	bool gpu;                   /* a GPU build (false: CPU-only) */
	bool ok;                    /* a release can work: version is set */
	char version[24];           /* the release chosen (or asked and possible) */
	char asked[24];             /* ==VERSION as given; "" newest */
	char cuda[16];              /* CUDA of the chosen build ("12.4"); "" CPU */
	char cudnn[16];             /* TensorFlow: its cuDNN; "" otherwise */
	char variant[16];           /* torch: wheel CUDA "12.4"; jax: plugin "cuda12" */
	bool and_cuda;              /* TensorFlow: the [and-cuda] extra exists */
	char python_min[8], python_max[8]; /* the release's range; "" unknown */
	char python[8];             /* major.minor the steps use */
	bool python_assumed;        /* the machine's Python is unknown */
	char max_cuda[16];          /* newest CUDA the driver runs by own minimums */
	char driver_basis[PLAN_LINE]; /* which minimum the plan relies on */
	bool need_driver_install;   /* GPU present, no driver: install one first */
	char driver_min[32];        /* the driver the chosen build needs */
	char runs[12];              /* on this GPU: "native", "jit", "unknown" (runs_how_name) */
	char runs_via[16];          /* "sm_80" machine code, "compute_80" PTX */
	char runs_reason[PLAN_LINE];
	bool targets_known;         /* build_targets.tsv has the chosen build */
	char newest_ok[24];         /* with ==VERSION refused: the newest that works */

	int nnotes;                 /* assumptions and remarks, in order */
	char notes[PLAN_MAX_NOTES][PLAN_LINE];

	int nexcluded;              /* releases newer than the choice, newest first */
	int nexcluded_total;        /* how many there were (may exceed the array) */
	struct plan_excluded excluded[PLAN_MAX_EXCLUDED];

	int nblockers;              /* when !ok: what to change, first things first */
	struct plan_blocker blockers[PLAN_MAX_BLOCKERS];
};

/* "tensorflow", "tf", "torch", "pytorch", "jax", ... -> enum plan_fw, -1 unknown. */
int plan_fw_parse(const char *name);
const char *plan_fw_name(int fw);        /* "tensorflow", "torch", "jax" */
const char *plan_fw_title(int fw);       /* "TensorFlow", "PyTorch", "JAX" */
/* "linux", "wsl2" (or "wsl"), "windows", "macos" (or "darwin") -> enum plan_os, -1. */
int plan_os_parse(const char *name);
const char *plan_os_name(int os);

/* Decide for framework fw on machine m; want is a version ("2.15") or
 * NULL/"" for the newest possible. Fills *p completely. Returns 0 when a
 * plan exists (p->ok), 1 when no release can work (p->blockers say why),
 * -1 when `want` names no release in the knowledge base. */
int plan_make(const struct plan_machine *m, int fw, const char *want, struct plan *p);

/* The machine as facts (probed or loaded) describe it; several GPUs: the
 * oldest architecture. m is cleared first. */
void plan_machine_from_facts(const struct facts *f, struct plan_machine *m);

/* "12.4" -> "cu124"; "9" -> "cu90". Written to out. */
void plan_cuda_tag(const char *cuda, char *out, size_t size);

#endif
