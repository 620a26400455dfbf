/*
 * runs_on.h - the one decision "does build B run on GPU G with driver D, and
 * how": natively from its machine code, only through the driver's PTX JIT,
 * or not at all. plan, doctor's framework rules, compat and explain --here
 * all ask here; nothing else decides it.
 *
 * The mechanism (docs/gpu-code.md has the sources):
 *  - a cubin (SASS) for compute capability X.y runs on X.z with z >= y,
 *    never across majors; an arch-specific cubin (sm_90a) only on exactly
 *    X.y; a family-specific one (sm_100f) on X.z with z >= y; on Tegra
 *    (integrated) GPUs only a cubin of exactly their capability runs;
 *  - PTX for compute_XY is JIT-compiled by the driver for any GPU of
 *    capability >= X.Y, provided the driver understands its PTX ISA
 *    version (the ISA of the CUDA release that wrote it must not be newer
 *    than the ISA of the newest CUDA the driver runs; minor-version
 *    compatibility does not extend to PTX);
 *  - a framework release can also fail on an architecture for reasons its
 *    targets do not show: those are rows of arch_breakages.tsv.
 *
 * Pure: reads the knowledge base, never the machine.
 */
#ifndef GPUDOCTOR_RUNS_ON_H
#define GPUDOCTOR_RUNS_ON_H

#include "kb/kb.h"

#include <stdbool.h>
#include <stddef.h>

/* What a build carries, as far as known. Empty strings are unknown. */
struct build_code {
	char framework[16];          /* tensorflow, torch, jax, cupy; "" other */
	char version[40];            /* release "2.8.0" (no local tag) */
	char platform[8];            /* linux, windows */
	char cuda[16];               /* CUDA it was built with: "12.8" */
	char sass[160];              /* machine code: "7.5 8.0 9.0a" */
	char ptx[64];                /* PTX: "12.0" */
	char ptx_isa[8];             /* PTX ISA read from the file; "" = that of cuda */
	char from[24];               /* where the lists come from: "fatbin", "build_info",
	                                "knowledge base"; "" nowhere (lists unknown) */
	const char *kb_source;       /* the knowledge-base row's source, when from it */
};

enum runs_how {
	RUNS_UNKNOWN = 0,            /* the build's code or the GPU is not known */
	RUNS_NATIVE,                 /* machine code for this GPU */
	RUNS_JIT,                    /* only PTX, JIT-compiled by the driver at first start */
	RUNS_NO,                     /* nothing this GPU can run */
};

struct runs_verdict {
	enum runs_how how;
	char via[16];                /* NATIVE: "sm_80"; JIT: "compute_80" */
	char reason[320];            /* one sentence: how, or why not */
	bool ptx_too_new;            /* NO because the driver cannot JIT the PTX's ISA */
	char driver_cuda_needed[16]; /* ptx_too_new: the CUDA the driver must run */
	const struct kb_arch_breakage *breakage; /* NO because of a known breakage */
};

/* Decide for one build, a GPU of compute capability cc ("8.9"), and a
 * driver that runs CUDA up to driver_cuda ("12.2"; "" or NULL unknown:
 * PTX is then assumed JIT-able). */
void runs_decide(const struct build_code *b, const char *cc, const char *driver_cuda,
		 struct runs_verdict *v);

/* Fill b from the knowledge base for a release, platform and CUDA variant
 * (framework, version and platform are kept in b even when no row
 * matches). Returns true when build_targets.tsv has the row. */
bool runs_code_from_kb(const char *framework, const char *version, const char *platform,
		       const char *cuda, struct build_code *b);

/* Whether a driver version supports a GPU of capability cc at all: its
 * branch is at least the branch of the first driver for the architecture
 * (the minimum of the CUDA release that brought it, arch_support cuda_min)
 * and at most the architecture's last branch. Windows driver numbers share
 * the Linux branches. On a "no", the reason and the driver to install (the
 * first that knows the GPU, or the last branch) are written. */
enum runs_driver {
	RUNS_DRIVER_UNKNOWN = -1,
	RUNS_DRIVER_OK = 1,
	RUNS_DRIVER_PREDATES_GPU = 0,  /* older than the architecture */
	RUNS_DRIVER_PAST_GPU = 2,      /* newer than its last branch */
};
enum runs_driver runs_driver_supports(const char *cc, const char *driver, char *reason, size_t rsize,
				      char *need, size_t nsize);

/* "none", "native", "jit", "unknown": for JSON. */
const char *runs_how_name(enum runs_how how);

/* Whether a capability is a Tegra (integrated, Jetson) GPU, where machine
 * code runs only on exactly its capability. */
bool runs_is_tegra(const char *cc);

#endif
