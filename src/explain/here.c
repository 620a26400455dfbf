/*
 * here.c - `explain --here` / `--from`: the causes found in a log set
 * against a machine's facts. Where the doctor's rules reach the same
 * finding on that machine, its evidence and its fix (which names the
 * environment, the package and the version) replace the general one;
 * otherwise the facts that bear on the cause are added as evidence: the
 * copies of a missing library the machine does have, the driver and the
 * newest CUDA it runs, the GPUs' memory and who holds it, the compute
 * capability, the framework builds in the active environment.
 */
#include "explain/here.h"
#include "base/buf.h"
#include "base/str.h"
#include "base/vers.h"
#include "base/xalloc.h"
#include "diag/fw_common.h"
#include "diag/rule_util.h"
#include "kb/runs_on.h"
#include "plan/plan.h"

#include <stdlib.h>
#include <string.h>

#define MAX_COPIES 3

/* "libcudnn.so.8" -> "cudnn", "libcudart.so.11.0" -> "cudart",
 * "cudnn64_8.dll" -> "cudnn", "cublasLt64_11.dll" -> "cublasLt". */
static void
lib_family(const char *file, char *out, size_t size)
{
	size_t n;

	if (str_starts(file, "lib"))
		file += 3;
	n = strcspn(file, ".");
	if (str_ends(file, ".dll")) {
		const char *u = strstr(file, "64_");
		if (u)
			n = (size_t)(u - file);
	}
	if (n >= size)
		n = size - 1;
	memcpy(out, file, n);
	out[n] = '\0';
}

static void
library_copies(struct explain_cause *c, const struct facts *f, const char *file)
{
	char fam[32];
	int i, shown = 0, total = 0;

	lib_family(file, fam, sizeof(fam));
	if (!fam[0])
		return;
	for (i = 0; i < f->nlibs; i++) {
		const struct lib_facts *l = &f->libs[i];
		if (strcmp(l->name, fam))
			continue;
		total++;
		if (shown++ < MAX_COPIES)
			explain_evidence(c, "this machine has %s %s: %s (%s)", l->name,
					 l->version[0] ? l->version : "of unknown version", l->path,
					 lib_origin_name(l->origin));
	}
	if (total > MAX_COPIES)
		explain_evidence(c, "and %d more copies of %s", total - MAX_COPIES, fam);
	if (!total)
		explain_evidence(c, "this machine has no copy of lib%s at all", fam);
}

static void
framework_builds(struct explain_cause *c, const struct facts *f)
{
	const struct python_env_facts *e = facts_active_env(f);
	int i;

	if (!e)
		return;
	for (i = 0; i < e->nframeworks; i++) {
		const struct framework_facts *fw = &e->frameworks[i];
		char built[96] = "";

		if (fw->cuda_build == 0)
			STR_COPY(built, ", a CPU-only build");
		else if (fw->built_cuda[0])
			STR_FMT(built, ", built for CUDA %s%s%s", fw->built_cuda,
				fw->built_cudnn[0] ? " and cuDNN " : "", fw->built_cudnn);
		explain_evidence(c, "%s (Python %s) has %s %s%s", e->path,
				 e->version[0] ? e->version : "?", fw->package, fw->version, built);
	}
}

static void
driver_state(struct explain_cause *c, const struct facts *f)
{
	if (f->unknown_parts & FACTS_PART_DRIVER)
		explain_evidence(c, "the facts do not hold this machine's driver");
	else if (f->driver.version[0])
		explain_evidence(c, "this machine's driver is %s%s%s", f->driver.version,
				 f->driver.cuda_version[0] ? ", which runs CUDA up to " : "",
				 f->driver.cuda_version);
	else if (kmod_list_whole(f) && !f->kmod.nvidia)
		explain_evidence(c, "this machine has no NVIDIA driver loaded");
	else
		explain_evidence(c, "no NVIDIA driver was found on this machine");
}

static void
gpu_state(struct explain_cause *c, const struct facts *f, bool memory)
{
	int i, k;

	if (!f->ngpus)
		explain_evidence(c, "this machine has no NVIDIA GPU");
	for (i = 0; i < f->ngpus; i++) {
		const struct gpu_facts *g = &f->gpus[i];
		if (memory && g->nvml_valid)
			explain_evidence(c, "GPU %d %s: %llu MiB in use, %llu MiB free", i,
					 g->name, (unsigned long long)g->memory_used_mib,
					 (unsigned long long)g->memory_free_mib);
		else if (!memory && g->compute_capability[0])
			explain_evidence(c, "GPU %d is %s, compute capability %s (%s)", i, g->name,
					 g->compute_capability,
					 g->architecture[0] ? g->architecture : "?");
	}
	for (k = 0; memory && k < f->nprocs; k++) {
		const struct proc_facts *p = &f->procs[k];
		if (p->used_mib != UINT64_MAX)
			explain_evidence(c, "process %u (%s%s) holds %llu MiB", p->pid, p->name,
					 p->alive ? "" : ", no longer running",
					 (unsigned long long)p->used_mib);
	}
}

/* What the doctor calls the same problem when it sees the machine rather
 * than the log: a log says a library is missing where the doctor knows
 * why (the wrong major is installed, the [and-cuda] wheels are absent). */
static const struct {
	const char *log_id;
	const char *doctor_ids[4];
} same_problem[] = {
	{"lib.cudnn_missing", {"lib.cudnn_version_mismatch", "fw.and_cuda_missing"}},
	{"lib.cudart_missing", {"lib.cuda_version_mismatch", "fw.and_cuda_missing"}},
	{"lib.cuda_lib_missing", {"lib.cuda_version_mismatch", "fw.and_cuda_missing"}},
	{"lib.cudnn_version_mismatch", {"lib.cudnn_missing", "lib.shadowed"}},
	{"driver.libcuda_missing", {"host.container_no_gpu", "host.wsl_driver_missing",
				    "kmod.nvidia_not_loaded"}},
	{"driver.init_failed", {"kmod.nvidia_not_loaded", "kmod.device_nodes_missing",
				"driver.version_mismatch", "kmod.uvm_missing"}},
	{"driver.no_visible_device", {"env.visible_devices_hides_all", "env.visible_devices_invalid",
				      "host.container_no_gpu"}},
	{"mem.oom", {"mem.held_by_other_process", "mem.low_free"}},
};

/* The GPUs CUDA can number, for a log whose process saw none. */
static void
gpu_list(struct explain_cause *c, const struct facts *f)
{
	const char *v = facts_env_value(f, "CUDA_VISIBLE_DEVICES");
	int i;

	if (!f->ngpus)
		explain_evidence(c, "this machine has no NVIDIA GPU");
	for (i = 0; i < f->ngpus; i++) {
		const struct gpu_facts *g = &f->gpus[i];
		if (g->cuda_valid)
			explain_evidence(c, "this machine's CUDA device %d: %s (%s)", g->cuda_index,
					 g->name, g->pci_bus_id);
		else
			explain_evidence(c, "this machine has %s at %s", g->name, g->pci_bus_id);
	}
	if (v)
		explain_evidence(c, "CUDA_VISIBLE_DEVICES here is \"%s\"", v);
}

/* The doctor's finding with this ID (any environment), preferring one
 * with a fix; else one the table above names for it. */
static const struct finding *
doctor_finding(const struct findings *fs, const char *id)
{
	const struct finding *best = NULL;
	size_t i, t;
	int k;

	for (i = 0; i < fs->n; i++) {
		if (strcmp(fs->v[i].id, id))
			continue;
		if (!best || (!best->fix && fs->v[i].fix))
			best = &fs->v[i];
	}
	for (t = 0; !best && t < sizeof(same_problem) / sizeof(same_problem[0]); t++) {
		if (strcmp(same_problem[t].log_id, id))
			continue;
		for (k = 0; k < 4 && same_problem[t].doctor_ids[k] && !best; k++)
			for (i = 0; i < fs->n && !best; i++)
				if (!strcmp(fs->v[i].id, same_problem[t].doctor_ids[k]))
					best = &fs->v[i];
	}
	return best;
}

/* The framework a cause's fix would install: the pattern's own, else the
 * first CUDA framework of the active environment, else torch. */
static int
cause_framework(const struct explain_cause *c, const struct python_env_facts *e)
{
	const char *fw = c->pattern ? c->pattern->framework : "";
	int i;

	if (!strcmp(fw, "tensorflow") || !strcmp(fw, "xla"))
		return PLAN_TF;
	if (!strcmp(fw, "torch"))
		return PLAN_TORCH;
	if (!strcmp(fw, "jax"))
		return PLAN_JAX;
	for (i = 0; e && i < e->nframeworks; i++)
		if (e->frameworks[i].cuda_build != 0 && strcmp(e->frameworks[i].name, "cupy"))
			return !strcmp(e->frameworks[i].name, "tensorflow") ? PLAN_TF
			       : !strcmp(e->frameworks[i].name, "jax")      ? PLAN_JAX
									     : PLAN_TORCH;
	return PLAN_TORCH;
}

static const struct framework_facts *
installed(const struct python_env_facts *e, int pfw)
{
	int i;

	for (i = 0; e && i < e->nframeworks; i++)
		if (!strcmp(e->frameworks[i].name, plan_fw_name(pfw)))
			return &e->frameworks[i];
	return NULL;
}

/*
 * A log that names a build problem (no machine code for the GPU, a driver
 * too old for the build, a CPU-only build) gets its fix from the one
 * decision on this machine, never the pattern's generic install line: the
 * build installed here when it already runs natively on every GPU (the
 * log then comes from another build), else the newest release and variant
 * that runs natively here (plan/plan.h).
 */
static void
build_fix(struct explain_cause *c, const struct facts *f)
{
	static struct plan p;
	const struct python_env_facts *e = facts_active_env(f);
	int pfw = cause_framework(c, e), i;
	const struct framework_facts *fw = installed(e, pfw);
	struct build_code code;
	char drv[16], tag[16], spec[96];
	struct buf b;
	bool native = f->ngpus > 0;

	rule_driver_cuda(f, drv, sizeof(drv));
	if (fw && fw->cuda_build == 1 && fw_installed_code(fw, &code)) {
		for (i = 0; i < f->ngpus && native; i++) {
			struct runs_verdict v;
			runs_decide(&code, f->gpus[i].compute_capability, drv, &v);
			native = v.how == RUNS_NATIVE;
		}
	} else {
		native = false;
	}
	buf_init(&b);
	if (native) {
		explain_evidence(c, "%s %s in %s has machine code for every GPU here", fw->name, fw->version,
				 e->path);
		buf_addf(&b, "%s %s installed in %s runs natively on this machine's GPUs: the log comes "
			     "from another build or environment. Run the program with that environment's "
			     "Python, and check which build it imports:\n",
			 fw->name, fw->version, e->path);
		if (!strcmp(fw->name, "torch"))
			buf_addf(&b, "%s -c 'import torch; print(torch.__file__, torch.__version__, "
				     "torch.cuda.get_arch_list())'\n",
				 e->interpreter[0] ? e->interpreter : "python3");
	} else if (e && fw_plan(f, e, pfw, NULL, NULL, &p) && p.gpu && !strcmp(p.runs, "native")) {
		buf_addf(&b, "Install %s %s, which runs natively on this machine's GPU (%s machine code):\n",
			 plan_fw_title(pfw), p.version, p.runs_via);
		if (pfw == PLAN_TORCH) {
			plan_cuda_tag(p.variant, tag, sizeof(tag));
			STR_FMT(spec, "torch==%s", p.version);
			fw_add_pip(&b, e);
			buf_adds(&b, "install --force-reinstall ");
			buf_add_shquoted(&b, spec);
			buf_addf(&b, " --index-url %s%s\n", TORCH_INDEX, tag);
		} else {
			if (pfw == PLAN_TF)
				fw_tf_gpu_spec(p.version, spec, sizeof(spec));
			else
				STR_FMT(spec, "jax[%s]==%s", p.variant, p.version);
			fw_add_pip(&b, e);
			buf_adds(&b, "install ");
			buf_add_shquoted(&b, spec);
			buf_addch(&b, '\n');
		}
		buf_addf(&b, "gpudoctor plan %s\n", plan_fw_name(pfw));
	} else {
		buf_addf(&b, "gpudoctor plan %s\n", plan_fw_name(pfw));
	}
	free(c->fix);
	c->fix = buf_detach(&b);
}

void
explain_here(struct explain *x, const struct facts *f, const struct findings *fs)
{
	size_t i;
	int k;

	for (i = 0; i < x->ncauses; i++) {
		struct explain_cause *c = &x->causes[i];
		const struct finding *d;
		const struct explain_capture *cap;
		size_t j;

		if (c->role == EXPLAIN_BENIGN || c->role == EXPLAIN_UNKNOWN)
			continue;
		d = doctor_finding(fs, c->id);
		if (d) {
			explain_evidence(c, "gpudoctor doctor finds this on the machine (%s): %s%s%s",
					 d->id, d->title, d->env ? ", in " : "", d->env ? d->env : "");
			for (k = 0; k < d->nevidence; k++)
				explain_evidence(c, "%s", d->evidence[k]);
			if (d->fix) {
				free(c->fix);
				c->fix = xstrdup(d->fix);
			}
			continue;
		}
		for (j = 0; j < c->ncaps; j++) {
			cap = &c->caps[j];
			if (strcmp(cap->name, "soname") && strcmp(cap->name, "dll"))
				continue;
			for (k = 0; k < cap->nvalues; k++)
				library_copies(c, f, cap->values[k]);
		}
		if (str_starts(c->id, "lib.") || str_starts(c->id, "fw."))
			framework_builds(c, f);
		if (str_starts(c->id, "driver.") || str_starts(c->id, "kmod."))
			driver_state(c, f);
		if (str_starts(c->id, "mem."))
			gpu_state(c, f, true);
		if (!strcmp(c->id, "fw.arch_not_in_build") || !strcmp(c->id, "hw.arch_too_old"))
			gpu_state(c, f, false);
		if (!strcmp(c->id, "fw.arch_not_in_build") || !strcmp(c->id, "fw.arch_ptx_jit") ||
		    !strcmp(c->id, "fw.cpu_only_build") || !strcmp(c->id, "driver.too_old"))
			build_fix(c, f);
		if (str_starts(c->id, "env.visible_devices") || !strcmp(c->id, "driver.no_visible_device"))
			gpu_list(c, f);
	}
}
