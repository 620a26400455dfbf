/*
 * rule_fw_build.c - the build a framework is: fw.cpu_only_build (a CPU-only
 * build on a machine with an NVIDIA GPU) and fw.python_unsupported (a Python
 * outside the release's range), each with the install line that fixes it.
 */
#include "diag/fw_common.h"
#include "diag/fix.h"
#include "diag/rule_util.h"
#include "base/buf.h"
#include "base/path.h"
#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"

#include <string.h>

/* ---- fw.cpu_only_build ------------------------------------------------------------------- */

void
fw_check_cpu_only(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	       struct findings *out)
{
	struct finding *fd;
	char rel[40], title[F_TEXT], spec[96];
	struct buf b;

	if (fw->cuda_build != 0 || !fw_has_gpu(f))
		return;
	STR_FMT(title, "%s %s is a CPU-only build on a machine with an NVIDIA GPU", fw->name,
		fw->version[0] ? fw->version : "");
	fd = fw_finding(out, e, fw, "fw.cpu_only_build", SEV_WARN, title);
	if (fw->local_tag[0])
		finding_evidence(fd, "its local version tag is +%s", fw->local_tag);
	if (!strcmp(fw->name, "tensorflow") && fw_pkg_eq(fw->package, "tensorflow-cpu"))
		finding_evidence(fd, "tensorflow-cpu has no GPU support");
	else if (!strcmp(fw->name, "tensorflow"))
		finding_evidence(fd, "build_info.py says is_cuda_build False");
	if (f->ngpus > 0)
		finding_evidence(fd, "%d NVIDIA GPU(s), the first %s", f->ngpus,
				 f->gpus[0].name[0] ? f->gpus[0].name : f->gpus[0].pci_bus_id);
	else
		finding_evidence(fd, "WSL with the Windows driver's libcuda.so.1");
	vers_release(fw->version, rel, sizeof(rel));
	buf_init(&b);
	if (!strcmp(fw->name, "torch") && rel[0]) {
		buf_addf(&b, "Install the CUDA build of torch %s:\n", rel);
		if (!fw_torch_install(&b, f, e, rel)) {
			char nb[24];
			if (fw_newest(f, e, PLAN_TORCH, nb, sizeof(nb))) {
				buf_addf(&b, "(torch %s has no build that runs here with this driver; the "
					     "newest release that has is %s)\n",
					 rel, nb);
				fw_torch_install(&b, f, e, nb);
			} else {
				buf_adds(&b, "see https://pytorch.org/get-started/locally/ for the "
					     "--index-url of your CUDA version\n");
			}
		}
	} else if (!strcmp(fw->name, "tensorflow") && rel[0]) {
		fw_tf_gpu_spec(rel, spec, sizeof(spec));
		buf_addf(&b, "Replace the CPU-only TensorFlow with the GPU build of %s:\n", rel);
		if (fw->package[0] && !fw_pkg_eq(fw->package, "tensorflow") &&
		    !fw_pkg_eq(fw->package, "tensorflow-gpu")) {
			fw_add_pip(&b, e);
			buf_adds(&b, "uninstall -y ");
			buf_add_shquoted(&b, fw->package);
			buf_addch(&b, '\n');
		}
		fw_add_pip(&b, e);
		buf_adds(&b, "install --force-reinstall ");
		buf_add_shquoted(&b, spec);
		buf_addch(&b, '\n');
		if (!fw_tf_has_and_cuda(rel))
			fw_tf_system_cuda(&b, e, rel);
	} else if (!strcmp(fw->name, "jax")) {
		static struct plan jp;
		char best[16] = "";

		if (rel[0] && fw_plan(f, e, PLAN_JAX, rel, NULL, &jp) && jp.gpu)
			STR_COPY(best, jp.variant);
		if (best[0]) {
			buf_addf(&b, "Install JAX's CUDA plugin for jaxlib %s:\n", rel);
			STR_FMT(spec, "jax[%s]==%s", best, rel);
			fw_add_pip(&b, e);
			buf_adds(&b, "install ");
			buf_add_shquoted(&b, spec);
			buf_addch(&b, '\n');
		} else {
			buf_adds(&b, "Install JAX with its CUDA plugin: pip install 'jax[cuda12]' (or "
				     "cuda13 with a driver for CUDA 13).\n");
		}
	} else {
		buf_addf(&b, "Install the CUDA build of %s for the CUDA your driver runs.\n", fw->name);
	}
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* ---- fw.python_unsupported ------------------------------------------------------------- */

static bool
py_range(const struct framework_facts *fw, const char *rel, const char **min, const char **max)
{
	if (!strcmp(fw->name, "tensorflow")) {
		const struct kb_tf_build *row = fw_tf_build(rel, fw->cuda_build == 0 ? "cpu" : "gpu");
		if (!row)
			row = fw_tf_build(rel, "cpu");
		if (!row)
			return false;
		*min = row->python_min;
		*max = row->python_max;
	} else if (!strcmp(fw->name, "torch")) {
		const struct kb_torch_build *row = kb_torch(rel);
		if (!row)
			return false;
		*min = row->python_min;
		*max = row->python_max;
	} else if (!strcmp(fw->name, "jax")) {
		const struct kb_jax_build *row = kb_jax(rel);
		if (!row)
			return false;
		*min = row->python_min;
		*max = row->python_max;
	} else {
		return false;
	}
	return (*min)[0] || (*max)[0];
}

/* The release nearest to `rel` that supports Python `py`: the oldest newer
 * one, else the newest older one. */
static const char *
release_for_python(const struct framework_facts *fw, const char *rel, const char *py)
{
	const char *newer = NULL, *older = NULL;
	size_t n, i;

#define CONSIDER(v, lo, hi)                                                                      \
	do {                                                                                     \
		if (!kb_in_range(py, lo, hi) || (!(lo)[0] && !(hi)[0]))                          \
			break;                                                                   \
		if (vers_cmp(v, rel) > 0 && (!newer || vers_cmp(v, newer) < 0))                  \
			newer = v;                                                               \
		else if (vers_cmp(v, rel) < 0 && (!older || vers_cmp(v, older) > 0))             \
			older = v;                                                               \
	} while (0)

	if (!strcmp(fw->name, "tensorflow")) {
		const struct kb_tf_build *r = kb_list_tf_builds(&n);
		for (i = 0; i < n; i++)
			if (!strcmp(r[i].platform, "linux") && !strcmp(r[i].kind, "gpu"))
				CONSIDER(r[i].version, r[i].python_min, r[i].python_max);
	} else if (!strcmp(fw->name, "torch")) {
		const struct kb_torch_build *r = kb_list_torch_builds(&n);
		for (i = 0; i < n; i++)
			CONSIDER(r[i].version, r[i].python_min, r[i].python_max);
	} else if (!strcmp(fw->name, "jax")) {
		const struct kb_jax_build *r = kb_list_jax_builds(&n);
		for (i = 0; i < n; i++)
			CONSIDER(r[i].version, r[i].python_min, r[i].python_max);
	}
#undef CONSIDER
	return newer ? newer : older;
}

void
fw_check_python(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	     struct findings *out)
{
	const char *min = "", *max = "", *alt;
	char rel[40], title[F_TEXT], spec[96];
	struct finding *fd;
	struct buf b;
	int pv[2];

	vers_release(fw->version, rel, sizeof(rel));
	if (!rel[0] || vers_parse(e->version, pv, 2) != 2 || !py_range(fw, rel, &min, &max))
		return;
	if (kb_in_range(e->version, min, max))
		return;
	STR_FMT(title, "%s %s does not support Python %s", fw->name, rel, e->version);
	fd = fw_finding(out, e, fw, "fw.python_unsupported", SEV_ERROR, title);
	finding_evidence(fd, "%s %s supports Python %s to %s", fw->name, rel, min[0] ? min : "(any)",
			 max[0] ? max : "(any)");
	finding_evidence(fd, "%s is Python %s", e->interpreter[0] ? e->interpreter : e->path, e->version);
	buf_init(&b);
	buf_addf(&b, "Use a Python from %s to %s for %s %s (a new environment)", min[0] ? min : "?",
		 max[0] ? max : "?", fw->name, rel);
	alt = release_for_python(fw, rel, e->version);
	if (alt) {
		buf_addf(&b, ", or install %s %s, which supports Python %s:\n", fw->name, alt, e->version);
		if (!strcmp(fw->name, "tensorflow"))
			fw_tf_gpu_spec(alt, spec, sizeof(spec));
		else if (!strcmp(fw->name, "jax"))
			STR_FMT(spec, "jax==%s", alt);
		else
			STR_FMT(spec, "%s==%s", fw->name, alt);
		if (!strcmp(fw->name, "torch") && fw->cuda_build == 1 && fw_torch_install(&b, f, e, alt)) {
			/* the torch line is written with its index */
		} else {
			fw_add_pip(&b, e);
			buf_adds(&b, "install ");
			buf_add_shquoted(&b, spec);
			buf_addch(&b, '\n');
		}
	} else {
		buf_adds(&b, ".\n");
	}
	finding_fix(fd, b.s);
	buf_release(&b);
}
