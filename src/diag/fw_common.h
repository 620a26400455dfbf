/*
 * fw_common.h - the parts of the framework rule (rule_fw.c) that its files
 * share: helpers (fw_common.c), the release a fix proposes (fw_release.c)
 * and the checks each rule_fw_*.c file adds, called in order by rule_fw().
 */
#ifndef GPUDOCTOR_FW_COMMON_H
#define GPUDOCTOR_FW_COMMON_H

#include "base/buf.h"
#include "diag/finding.h"
#include "facts.h"
#include "kb/kb.h"
#include "plan/plan.h"

#include <stdbool.h>
#include <stddef.h>

/* The index that serves torch wheels per CUDA variant (<index>cu126). */
#define TORCH_INDEX "https://download.pytorch.org/whl/"

/* ---- fw_common.c ---- */

int fw_major_of(const char *v);
/* PEP 503 comparison of two distribution names. */
bool fw_pkg_eq(const char *a, const char *b);
const struct pypkg_facts *fw_env_pkg(const struct python_env_facts *e, const char *name);
/* "jax-cuda13-plugin" -> 13 for kind "plugin"; -1 otherwise. */
int fw_jax_cuda_pkg(const char *name, const char *kind);
/* An NVIDIA GPU this environment could use. */
bool fw_has_gpu(const struct facts *f);
/* "<interpreter> -m pip " of this environment. */
void fw_add_pip(struct buf *b, const struct python_env_facts *e);
bool fw_is_conda(const struct python_env_facts *e);
/* "conda install -p <env> -c conda-forge " */
void fw_add_conda(struct buf *b, const struct python_env_facts *e);
struct finding *fw_finding(struct findings *out, const struct python_env_facts *e, const struct framework_facts *fw,
	const char *id, enum severity sev, const char *title);
/* soname stem: "libcublasLt.so.12" -> "cublasLt". */
void fw_soname_stem(const char *soname, char *out, size_t size);
/* The number after ".so." in a soname; -1 none. */
int fw_soname_major(const char *soname);
/* The pip wheel (without version) that provides a soname, for CUDA major
 * cm; "" when none is known. From CUDA 13 the toolkit wheels dropped the
 * -cuNN suffix (nvidia-cuda-runtime, nvidia-cublas); cuDNN, NCCL and
 * cuSPARSELt kept it. */
void fw_wheel_for(const char *soname, int cm, char *out, size_t size);
/* "nvidia-cudnn-cu12==8.9.4.25" or "nvidia-cudnn-cu12==8.9.*" for a soname. */
bool fw_wheel_spec(const struct framework_facts *fw, const char *soname, char *out, size_t size);

/* The GPU code the installed build carries (kb/runs_on.h's struct
 * build_code), in order of trust: the fat binaries of its CUDA library
 * (fw->targets), TensorFlow's build_info list ("sm_XY" a cubin,
 * "compute_XY" a cubin and PTX, a bare "X.Y" both, as releases before 2.3
 * wrote it), the knowledge base's row for its release and CUDA. False when
 * none of them knows. */
struct build_code;
bool fw_installed_code(const struct framework_facts *fw, struct build_code *b);

/* ---- fw_release.c ---- */

/*
 * Whether the driver runs CUDA `cuda` (major.minor, or a major alone):
 * 1 yes (directly or by minor-version compatibility), 0 no, -1 unknown.
 */
int fw_driver_runs(const struct facts *f, const char *cuda);
/* The plan (plan/plan.h) for framework pfw (PLAN_TF, PLAN_TORCH, PLAN_JAX) on
 * this environment's machine: the facts' GPU (cc, when given, instead of
 * the oldest), driver and OS, the environment's Python; release `want`, or
 * the newest that runs. True when p->ok. */
bool fw_plan(const struct facts *f, const struct python_env_facts *e, int pfw, const char *want,
	const char *cc, struct plan *p);
/* The torch wheel variant ("12.6") of release `version` that runs on this
 * machine (natively where one does); false when none. */
bool fw_torch_variant(const struct facts *f, const struct python_env_facts *e, const char *version,
	char *out, size_t size);
/* `pip install torch==V --index-url .../cuXYZ` line(s) for a torch release. */
bool fw_torch_install(struct buf *b, const struct facts *f, const struct python_env_facts *e,
	const char *version);
/* Python py (may be "") is not in a known [min, max]. */
bool fw_py_outside(const char *py, const char *min, const char *max);
/* The newest release of framework pfw that runs on this machine with this
 * environment's Python; false when none. */
bool fw_newest(const struct facts *f, const struct python_env_facts *e, int pfw, char *out,
	size_t size);
/* The TensorFlow tested build row for a release (exact, else its minor). */
const struct kb_tf_build *fw_tf_build(const char *version, const char *kind);
bool fw_tf_has_and_cuda(const char *version);
/* The pip requirement that installs the GPU TensorFlow `version`. */
void fw_tf_gpu_spec(const char *version, char *out, size_t size);
/* The CUDA/cuDNN a pre-[and-cuda] TensorFlow needs from outside pip. */
void fw_tf_system_cuda(struct buf *b, const struct python_env_facts *e, const char *version);
/*
 * The fix for a TensorFlow without [and-cuda] that misses CUDA libraries:
 * it loads the exact sonames of its build's CUDA release from the system.
 * When the toolkit installed is another release (CUDA 10.1 for a CUDA 10.0
 * build), say so, install the build's release beside it from NVIDIA's
 * repository, and name the TensorFlow release built for the installed one.
 */
void fw_tf_system_fix(struct buf *b, const struct facts *f, const struct python_env_facts *e,
	const struct framework_facts *fw, const char *rel, const char *sonames[], int ns);

/* ---- rule_fw_build.c ---- */

void fw_check_cpu_only(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	struct findings *out);
void fw_check_python(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	struct findings *out);

/* ---- rule_fw_arch.c ---- */

void fw_check_arch(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	struct findings *out);

/* ---- rule_fw_packages.c ---- */

void fw_check_tf_packages(const struct facts *f, const struct python_env_facts *e, struct findings *out);
void fw_check_shared_packages(const struct facts *f, const struct python_env_facts *e, struct findings *out);
void fw_check_and_cuda(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	struct findings *out);
void fw_check_jax(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	struct findings *out);

/* ---- rule_fw_libs.c ---- */

/* lib.cudnn_version_mismatch; returns true when it fired for this build
 * (lib.cudnn_missing then stays quiet). */
bool fw_check_cudnn_version(const struct facts *f, const struct python_env_facts *e,
		    const struct framework_facts *fw, struct findings *out);
void fw_check_missing(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	bool skip_cudnn, struct findings *out);
/* lib.cuda_version_mismatch: a library whose version follows CUDA's of
 * another major than the build. */
void fw_check_cuda_version(const struct python_env_facts *e, const struct framework_facts *fw,
		   struct findings *out);
void fw_check_shadowed(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	struct findings *out);
void fw_check_ldpath(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	struct findings *out);

/* ---- rule_fw_driver.c ---- */

void fw_check_driver(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	struct findings *out);

/* ---- rule_fw_live.c ---- */

/* fw.no_gpu_at_runtime: the framework, asked, uses no GPU (or cannot even
 * be imported, or crashes) on a machine that has one. */
void fw_check_live_gpu(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	struct findings *out, size_t first);
/* fw.prediction_mismatch: the framework's own answer contradicts what was
 * read from its files: another version imported, another CUDA build, other
 * library files mapped than the loader was predicted to pick. */
void fw_check_live_mismatch(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
		    struct findings *out);

/* ---- rule_fw_xla.c ---- */

/* XLA (TensorFlow, JAX) compiles its GPU kernels itself: LLVM links
 * libdevice.10.bc and ptxas turns the PTX into machine code. */
void fw_check_xla_toolchain(const struct python_env_facts *e, const struct framework_facts *fw,
		    struct findings *out);

#endif
