/*
 * rule_fw_arch.c - whether each GPU runs the framework build installed,
 * asked of runs_on.h (the one decision): fw.arch_not_in_build when it
 * cannot (no machine code for its architecture and no PTX it can use, PTX
 * newer than the driver's JIT compiler, or a known breakage), with the
 * nearest build that runs natively; fw.arch_ptx_jit when it runs only from
 * PTX compiled by the driver at first start.
 *
 * The build's code, in order of trust: the fat binaries of its CUDA
 * library (targets, read by probe/fw_targets.c), TensorFlow's own
 * build_info list, the knowledge base's row for its release and CUDA
 * variant. CuPy is left out: it compiles its kernels at run time for the
 * GPU it finds (NVRTC).
 */
#include "diag/fw_common.h"
#include "diag/fix.h"
#include "diag/rule_util.h"
#include "base/buf.h"
#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"
#include "kb/runs_on.h"

#include <string.h>

static void
code_evidence(struct finding *fd, const struct framework_facts *fw, const struct build_code *b)
{
	const char *src = !strcmp(b->from, "fatbin")
				  ? fw->targets.file
				  : !strcmp(b->from, "build_info") ? "its build_info.py (cuda_compute_capabilities)"
								    : b->kb_source;

	char ptx[96];

	if (b->ptx[0])
		STR_FMT(ptx, "PTX for %s%s%s", b->ptx, b->ptx_isa[0] ? ", PTX ISA " : "", b->ptx_isa);
	else
		STR_COPY(ptx, "no PTX");
	finding_evidence(fd, "it carries machine code for compute capability %s and %s (read from %s)",
			 b->sass[0] ? b->sass : "(none)", ptx,
			 !strcmp(b->from, "knowledge base") ? "the knowledge base" : src);
	if (!strcmp(b->from, "knowledge base") && src)
		finding_evidence(fd, "source: %s", src);
}

/* "PyTorch 2.8.0 (CUDA 12.6 wheel)", "JAX 0.4.30 (cuda12 plugin)". */
static void
plan_build_name(const struct plan *p, char *out, size_t size)
{
	if (p->fw == PLAN_TORCH && p->variant[0])
		str_fmt(out, size, "%s %s (CUDA %s wheel)", plan_fw_title(p->fw), p->version, p->variant);
	else if (p->fw == PLAN_JAX && p->variant[0])
		str_fmt(out, size, "%s %s (%s plugin)", plan_fw_title(p->fw), p->version, p->variant);
	else
		str_fmt(out, size, "%s %s", plan_fw_title(p->fw), p->version);
}

/* The install line of plan p (torch with its wheel index). */
static void
plan_install(struct buf *b, const struct python_env_facts *e, const struct plan *p)
{
	char spec[96], tag[16];

	fw_add_pip(b, e);
	if (p->fw == PLAN_TORCH) {
		plan_cuda_tag(p->variant, tag, sizeof(tag));
		STR_FMT(spec, "torch==%s", p->version);
		buf_adds(b, "install --force-reinstall ");
		buf_add_shquoted(b, spec);
		buf_addf(b, " --index-url %s%s\n", TORCH_INDEX, tag);
		return;
	}
	if (p->fw == PLAN_TF)
		fw_tf_gpu_spec(p->version, spec, sizeof(spec));
	else
		STR_FMT(spec, "jax[%s]==%s", p->variant, p->version);
	buf_adds(b, "install ");
	buf_add_shquoted(b, spec);
	buf_addch(b, '\n');
}

/* "the nearest build that runs": the same release in another variant,
 * else the newest release that runs natively on this GPU. */
static bool
nearest_native(const struct facts *f, const struct python_env_facts *e, int pfw, const char *rel,
	       const char *cc, struct plan *p)
{
	if (pfw == PLAN_TORCH && rel[0] && fw_plan(f, e, pfw, rel, cc, p) && p->gpu &&
	    !strcmp(p->runs, "native"))
		return true;
	return fw_plan(f, e, pfw, NULL, cc, p) && p->gpu && strcmp(p->runs, "jit") != 0;
}

static int
plan_fw_of(const char *name)
{
	return !strcmp(name, "tensorflow") ? PLAN_TF : !strcmp(name, "torch") ? PLAN_TORCH : PLAN_JAX;
}

void
fw_check_arch(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	      struct findings *out)
{
	static struct plan p;
	struct build_code code;
	char drv[16], label[F_TEXT], rel[40], title[F_TEXT + 96];
	int gi;

	if (fw->cuda_build == 0 || !strcmp(fw->name, "cupy") || !fw_installed_code(fw, &code))
		return;
	rule_driver_cuda(f, drv, sizeof(drv));
	vers_release(fw->version, rel, sizeof(rel));
	for (gi = 0; gi < f->ngpus && gi < MAX_GPUS; gi++) {
		const struct gpu_facts *g = &f->gpus[gi];
		struct runs_verdict v;
		struct finding *fd;
		struct buf b;
		bool alt;

		if (!g->compute_capability[0])
			continue;
		runs_decide(&code, g->compute_capability, drv, &v);
		if (v.how != RUNS_NO && v.how != RUNS_JIT)
			continue;
		rule_gpu_label(g, label, sizeof(label));
		alt = nearest_native(f, e, plan_fw_of(fw->name), rel, g->compute_capability, &p);
		buf_init(&b);
		if (v.how == RUNS_NO) {
			STR_FMT(title, "%s %s cannot run on %s (compute capability %s)", fw->name,
				fw->version, label, g->compute_capability);
			fd = fw_finding(out, e, fw, "fw.arch_not_in_build", SEV_ERROR, title);
			code_evidence(fd, fw, &code);
			finding_evidence(fd, "%s", v.reason);
			if (v.breakage)
				finding_evidence(fd, "known breakage: %s", v.breakage->source);
			else if (!v.ptx_too_new)
				finding_evidence(fd, "CUDA reports \"no kernel image is available for execution "
						     "on the device\"");
			if (v.ptx_too_new) {
				const struct kb_cuda_driver *d = kb_cuda_driver(v.driver_cuda_needed);
				buf_addf(&b, "Upgrade the driver to one for CUDA %s (%s or newer), whose JIT "
					     "compiler reads this PTX:\n",
					 v.driver_cuda_needed, d ? d->linux_min : "");
				fix_install_driver(&b, f);
				if (alt)
					buf_adds(&b, "or ");
			}
			if (alt) {
				char what[96];

				plan_build_name(&p, what, sizeof(what));
				buf_addf(&b, "%s %s, which runs natively on it (%s machine code):\n",
					 v.ptx_too_new ? "install" : "Install", what,
					 p.runs_via[0] ? p.runs_via : "its");
				plan_install(&b, e, &p);
			} else if (!v.ptx_too_new) {
				buf_addf(&b, "No %s release in the knowledge base runs natively on compute "
					     "capability %s with this machine's driver and Python: see "
					     "gpudoctor plan %s\n",
					 fw->name, g->compute_capability, fw->name);
			}
		} else {
			STR_FMT(title, "%s %s has no machine code for %s: the driver compiles its PTX at "
					"first start", fw->name, fw->version, label);
			fd = fw_finding(out, e, fw, "fw.arch_ptx_jit", SEV_WARN, title);
			code_evidence(fd, fw, &code);
			finding_evidence(fd, "%s", v.reason);
			buf_addf(&b, "Keep the compiled kernels cached, so the minutes of JIT compilation "
				     "happen once (the cache is ~/.nv/ComputeCache; its default size, 256 MiB "
				     "to 1 GiB, is too small for a framework):\n"
				     "export CUDA_CACHE_MAXSIZE=4294967296\n");
			if (alt && strcmp(p.runs, "native") == 0) {
				char what[96];

				plan_build_name(&p, what, sizeof(what));
				buf_addf(&b, "or install %s, which has machine code for compute capability %s:\n",
					 what, g->compute_capability);
				plan_install(&b, e, &p);
			}
		}
		finding_fix(fd, b.s);
		buf_release(&b);
	}
}
