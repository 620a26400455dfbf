/*
 * rule_fw.c - rules about the frameworks of each Python environment
 * (facts->python[], filled by probe/pyenv.c and probe/frameworks.c): a
 * CPU-only build on a GPU machine, a Python the release does not support,
 * a GPU architecture the build has no kernels for, deprecated or doubled
 * TensorFlow packages, a missing [and-cuda] extra, a JAX plugin that does
 * not match jaxlib; the CUDA libraries each framework would load (missing,
 * of the wrong cuDNN or CUDA major, shadowed by LD_LIBRARY_PATH); a
 * framework built for a newer CUDA than the driver runs; LD_LIBRARY_PATH
 * directories of another CUDA major than a framework that consults them.
 * With doctor --deep, the framework's own answer (framework_facts.live):
 * no GPU at run time, and where it contradicts the static prediction.
 *
 * Every finding names its environment (finding_env) and every fix is for
 * that environment: its own interpreter's pip, exact versions from the
 * knowledge base, paths shell-quoted. Unknown facts never fire a rule.
 */
#include "diag/fw_common.h"
#include "diag/rule.h"
#include "diag/fix.h"
#include "diag/rule_util.h"
#include "base/buf.h"
#include "base/path.h"
#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"

#include <string.h>

/* ---- the rule ----------------------------------------------------------------------------------- */

void
rule_fw(const struct facts *f, struct findings *out)
{
	int i, j;

	for (i = 0; i < f->npython && i < MAX_PYENVS; i++) {
		const struct python_env_facts *e = &f->python[i];

		if (!strcmp(e->kind, "windows"))
			continue; /* a Windows install seen from WSL2: rule_host.c */
		fw_check_tf_packages(f, e, out);
		fw_check_shared_packages(f, e, out);
		for (j = 0; j < e->nframeworks && j < MAX_FRAMEWORKS; j++) {
			const struct framework_facts *fw = &e->frameworks[j];
			size_t first = out->n;
			bool dnn;

			fw_check_cpu_only(f, e, fw, out);
			fw_check_python(f, e, fw, out);
			/* no NVIDIA GPU at all (hw.no_nvidia_gpu says so): what
			 * the GPU path would load does not matter */
			if (f->pci_valid && !fw_has_gpu(f) && !fw->live.ran)
				continue;
			fw_check_arch(f, e, fw, out);
			if (!strcmp(fw->name, "jax"))
				fw_check_jax(f, e, fw, out);
			/* fw.and_cuda_missing explains the lib.*_missing of the
			 * same environment (causes.c) */
			fw_check_and_cuda(f, e, fw, out);
			dnn = fw_check_cudnn_version(f, e, fw, out);
			fw_check_missing(f, e, fw, dnn, out);
			fw_check_cuda_version(e, fw, out);
			fw_check_shadowed(f, e, fw, out);
			fw_check_driver(f, e, fw, out);
			fw_check_ldpath(f, e, fw, out);
			fw_check_xla_toolchain(e, fw, out);
			if (fw->live.ran) {
				/* doctor --deep; the static findings above explain */
				fw_check_live_gpu(f, e, fw, out, first);
				fw_check_live_mismatch(f, e, fw, out);
			}
		}
	}
}
