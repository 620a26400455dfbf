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
		const struct kb_torch_build *t = rel[0] ? kb_torch(rel) : NULL;
		char cuda[16];

		if (t && fw_torch_variant(f, t, cuda, sizeof(cuda))) {
			buf_addf(&b, "or install torch %s built for CUDA %s:\n", t->version, cuda);
			fw_torch_install(&b, f, e, t->version);
		} else if ((t = fw_torch_for_driver(f, e->version))) {
			fw_torch_variant(f, t, cuda, sizeof(cuda));
			buf_addf(&b, "or install torch %s built for CUDA %s, the newest release this "
				     "driver runs:\n",
				 t->version, cuda);
			fw_torch_install(&b, f, e, t->version);
		}
	} else if (!strcmp(fw->name, "tensorflow")) {
		const struct kb_tf_build *r, *best = NULL;
		size_t n, i;

		r = kb_list_tf_builds(&n);
		for (i = 0; i < n; i++)
			if (!strcmp(r[i].platform, "linux") && !strcmp(r[i].kind, "gpu") && r[i].cuda[0] &&
			    !fw_py_outside(e->version, r[i].python_min, r[i].python_max) &&
			    fw_driver_runs(f, r[i].cuda) == 1 && (!best || vers_cmp(r[i].version, best->version) > 0))
				best = &r[i];
		if (best) {
			buf_addf(&b, "or install TensorFlow %s (built for CUDA %s):\n", best->version, best->cuda);
			fw_tf_gpu_spec(best->version, spec, sizeof(spec));
			fw_add_pip(&b, e);
			buf_adds(&b, "install ");
			buf_add_shquoted(&b, spec);
			buf_addch(&b, '\n');
			if (!fw_tf_has_and_cuda(best->version))
				fw_tf_system_cuda(&b, e, best->version);
		}
	} else if (drv[0]) {
		buf_addf(&b, "or install the %s build for CUDA %d.\n", fw->name, fw_major_of(drv));
	}
	finding_fix(fd, b.s);
	buf_release(&b);
}
