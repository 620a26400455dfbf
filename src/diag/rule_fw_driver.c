/*
 * rule_fw_driver.c - driver.too_old for a framework built for a newer CUDA
 * than the driver runs, with the driver upgrade or the build that runs.
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

/* ---- driver.too_old (framework) ---------------------------------------------------------------- */

void
fw_check_driver(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	     struct findings *out)
{
	const struct kb_cuda_driver *row;
	char drv[16], title[F_TEXT], rel[40], mm[16], spec[96];
	struct finding *fd;
	struct buf b;

	/* JAX's plugin major is fw.jax_plugin_mismatch's */
	if (fw->cuda_build != 1 || !fw->built_cuda[0] || !strcmp(fw->name, "jax") ||
	    fw_driver_runs(f, fw->built_cuda) != 0)
		return;
	rule_driver_cuda(f, drv, sizeof(drv));
	STR_COPY(mm, fw->built_cuda);
	if (!strchr(mm, '.'))
		STR_FMT(mm, "%s.0", fw->built_cuda);
	row = kb_cuda_driver(mm);
	STR_FMT(title, "%s %s needs CUDA %s; the driver%s%s runs CUDA up to %s", fw->name, fw->version,
		fw->built_cuda, f->driver.version[0] ? " " : "", f->driver.version, drv);
	fd = fw_finding(out, e, fw, "driver.too_old", SEV_ERROR, title);
	finding_evidence(fd, "%s was built for CUDA %s", fw->name, fw->built_cuda);
	finding_evidence(fd, "driver %s runs CUDA up to %s", f->driver.version[0] ? f->driver.version : "",
			 drv);
	if (row && row->linux_min[0])
		finding_evidence(fd, "CUDA %s needs Linux driver >= %s%s%s%s", mm, row->linux_min,
				 row->linux_minor_compat[0] ? " (>= " : "", row->linux_minor_compat,
				 row->linux_minor_compat[0] ? " with minor-version compatibility)" : "");
	buf_init(&b);
	if (row && row->linux_min[0]) {
		if (row->linux_minor_compat[0] && fw_major_of(drv) == fw_major_of(mm))
			buf_addf(&b, "Upgrade the driver to %s or newer (%s for minor-version "
				     "compatibility):\n",
				 row->linux_min, row->linux_minor_compat);
		else
			buf_addf(&b, "Upgrade the driver to %s or newer:\n", row->linux_min);
	} else {
		buf_addf(&b, "Upgrade the driver to one that runs CUDA %s:\n", fw->built_cuda);
	}
	fix_install_driver(&b, f);
	vers_release(fw->version, rel, sizeof(rel));
	if (!strcmp(fw->name, "torch")) {
		char cuda[16], nb[24];

		if (rel[0] && fw_torch_variant(f, e, rel, cuda, sizeof(cuda))) {
			buf_addf(&b, "or install torch %s built for CUDA %s:\n", rel, cuda);
			fw_torch_install(&b, f, e, rel);
		} else if (fw_newest(f, e, PLAN_TORCH, nb, sizeof(nb)) &&
			   fw_torch_variant(f, e, nb, cuda, sizeof(cuda))) {
			buf_addf(&b, "or install torch %s built for CUDA %s, the newest release that runs "
				     "with this driver:\n",
				 nb, cuda);
			fw_torch_install(&b, f, e, nb);
		}
	} else if (!strcmp(fw->name, "tensorflow")) {
		static struct plan tp;

		if (fw_plan(f, e, PLAN_TF, NULL, NULL, &tp) && tp.gpu) {
			buf_addf(&b, "or install TensorFlow %s (built for CUDA %s):\n", tp.version, tp.cuda);
			fw_tf_gpu_spec(tp.version, spec, sizeof(spec));
			fw_add_pip(&b, e);
			buf_adds(&b, "install ");
			buf_add_shquoted(&b, spec);
			buf_addch(&b, '\n');
			if (!fw_tf_has_and_cuda(tp.version))
				fw_tf_system_cuda(&b, e, tp.version);
		}
	} else if (drv[0]) {
		buf_addf(&b, "or install the %s build for CUDA %d.\n", fw->name, fw_major_of(drv));
	}
	finding_fix(fd, b.s);
	buf_release(&b);
}
