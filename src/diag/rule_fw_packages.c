/*
 * rule_fw_packages.c - the packages of one environment: deprecated or
 * doubled TensorFlow packages, two distributions of one package (the
 * knowledge base's shared_packages: ONNX Runtime, PaddlePaddle), TensorFlow
 * without its [and-cuda] extra, a JAX CUDA plugin that does not match
 * jaxlib.
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

/* ---- fw.deprecated_gpu_package --------------------------------------------------------- */

/* "<pip> uninstall -y A B ...\n" for the n distributions of have. */
static void
fw_add_uninstall(struct buf *b, const struct python_env_facts *e, const struct pypkg_facts *const *have, int n)
{
	int i;

	fw_add_pip(b, e);
	buf_adds(b, "uninstall -y");
	for (i = 0; i < n; i++) {
		buf_addch(b, ' ');
		buf_add_shquoted(b, have[i]->name);
	}
	buf_addch(b, '\n');
}

void
fw_check_tf_packages(const struct facts *f, const struct python_env_facts *e, struct findings *out)
{
	static const char *const dists[] = {
		"tensorflow", "tensorflow-gpu", "tensorflow-cpu", "tensorflow-intel", "tf-nightly", NULL,
	};
	const struct pypkg_facts *have[8], *gpu = fw_env_pkg(e, "tensorflow-gpu"), *keep;
	const struct framework_facts *fw = NULL;
	char rel[40], spec[96];
	struct finding *fd;
	struct buf b;
	int i, n = 0;

	for (i = 0; dists[i]; i++)
		if ((have[n] = fw_env_pkg(e, dists[i])))
			n++;
	for (i = 0; i < e->nframeworks && i < MAX_FRAMEWORKS; i++)
		if (!strcmp(e->frameworks[i].name, "tensorflow"))
			fw = &e->frameworks[i];
	if (n >= 2) {
		fd = findings_add(out, "fw.deprecated_gpu_package", SEV_WARN,
				  "%d TensorFlow distributions are installed in one environment", n);
		finding_env(fd, e->path);
		for (i = 0; i < n; i++)
			finding_evidence(fd, "%s %s in %s", have[i]->name, have[i]->version,
					 e->site_packages[0] ? e->site_packages : e->path);
		finding_evidence(fd, "they all install the same tensorflow/ package directory: the files "
				     "are those of whichever was installed last");
	} else if (gpu && gpu->version[0] && vers_cmp(gpu->version, "2.1") >= 0) {
		fd = findings_add(out, "fw.deprecated_gpu_package", SEV_WARN,
				  "tensorflow-gpu %s is deprecated%s", gpu->version,
				  vers_cmp(gpu->version, "2.12") >= 0 ? " and empty from 2.12" : "");
		finding_env(fd, e->path);
		finding_evidence(fd, "tensorflow-gpu %s in %s", gpu->version,
				 e->site_packages[0] ? e->site_packages : e->path);
		finding_evidence(fd, "since 2.1 the tensorflow package includes GPU support; "
				     "tensorflow-gpu was no longer updated and is an empty package "
				     "from 2.12");
	} else {
		return;
	}
	/* the version to keep: the framework's, else the first distribution's */
	keep = n ? have[0] : gpu;
	vers_release(fw && fw->version[0] ? fw->version : keep->version, rel, sizeof(rel));
	buf_init(&b);
	buf_adds(&b, "Uninstall every TensorFlow distribution (removing one deletes files the others "
		     "share), then install one:\n");
	if (n >= 2) {
		fw_add_uninstall(&b, e, have, n);
	} else {
		fw_add_pip(&b, e);
		buf_adds(&b, "uninstall -y tensorflow-gpu");
		if (fw_env_pkg(e, "tensorflow"))
			buf_adds(&b, " tensorflow");
		buf_addch(&b, '\n');
	}
	if (rel[0]) {
		if (fw_has_gpu(f) || !fw_env_pkg(e, "tensorflow-cpu"))
			fw_tf_gpu_spec(rel, spec, sizeof(spec));
		else
			STR_FMT(spec, "tensorflow-cpu==%s", rel);
		fw_add_pip(&b, e);
		buf_adds(&b, "install ");
		buf_add_shquoted(&b, spec);
		buf_addch(&b, '\n');
	}
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* ---- fw.deprecated_gpu_package: two distributions of one package ------------------------- */

/* Two or more distributions of the knowledge base's shared_packages (ONNX
 * Runtime's, PaddlePaddle's) that install one package directory: the
 * files are those of whichever came last, often the CPU build over the
 * GPU one. Keep the GPU build where a GPU may be, else the first. */
void
fw_check_shared_packages(const struct facts *f, const struct python_env_facts *e, struct findings *out)
{
	size_t n, k, j;
	const struct kb_shared_package *rows = kb_list_shared_packages(&n);

	for (k = 0; k < n; k++) {
		const struct pypkg_facts *have[8], *keep = NULL;
		const char *package = rows[k].package;
		struct finding *fd;
		char spec[96];
		struct buf b;
		int i, nhave = 0;

		for (j = 0; j < k && strcmp(rows[j].package, package); j++)
			;
		if (j < k)
			continue;        /* the package's first row gathers them all */
		for (j = k; j < n; j++) {
			const struct pypkg_facts *p;
			if (strcmp(rows[j].package, package) || !(p = fw_env_pkg(e, rows[j].distribution)) ||
			    nhave == (int)(sizeof(have) / sizeof(have[0])))
				continue;
			have[nhave++] = p;
			if (rows[j].gpu && !(f->pci_valid && !fw_has_gpu(f)))
				keep = p;
		}
		if (nhave < 2)
			continue;
		if (!keep)
			keep = have[0];
		fd = findings_add(out, "fw.deprecated_gpu_package", SEV_WARN,
				  "%d %s distributions are installed in one environment", nhave, package);
		finding_env(fd, e->path);
		for (i = 0; i < nhave; i++)
			finding_evidence(fd, "%s %s in %s", have[i]->name, have[i]->version,
					 e->site_packages[0] ? e->site_packages : e->path);
		finding_evidence(fd, "they all install the same %s/ package directory: the files are "
				     "those of whichever was installed last",
				 package);
		buf_init(&b);
		buf_adds(&b, "Uninstall every one (removing one deletes files the others share), then "
			     "install one:\n");
		fw_add_uninstall(&b, e, have, nhave);
		fw_add_pip(&b, e);
		buf_adds(&b, "install ");
		if (keep->version[0])
			STR_FMT(spec, "%s==%s", keep->name, keep->version);
		else
			STR_COPY(spec, keep->name);
		buf_add_shquoted(&b, spec);
		buf_addch(&b, '\n');
		finding_fix(fd, b.s);
		buf_release(&b);
	}
}

/* ---- fw.and_cuda_missing ---------------------------------------------------------------- */

static const struct resolved_lib_facts *
resolved_stem(const struct framework_facts *fw, const char *prefix)
{
	int i;

	for (i = 0; i < fw->nresolved && i < MAX_RESOLVED; i++)
		if (str_starts(fw->resolved[i].soname, prefix))
			return &fw->resolved[i];
	return NULL;
}

void
fw_check_and_cuda(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	       struct findings *out)
{
	const struct resolved_lib_facts *rt, *dnn;
	const struct kb_tf_pin *pins;
	char rel[40], title[F_TEXT], spec[96], wheel[48];
	struct finding *fd;
	size_t n, i, absent = 0;
	struct buf b;

	(void)f;
	if (strcmp(fw->name, "tensorflow") || fw->cuda_build != 1)
		return;
	vers_release(fw->version, rel, sizeof(rel));
	if (!rel[0] || !fw_tf_has_and_cuda(rel))
		return;
	rt = resolved_stem(fw, "libcudart.so");
	dnn = resolved_stem(fw, "libcudnn.so");
	if (!((rt && !rt->path[0]) || (dnn && !dnn->path[0])))
		return;
	/* the wheel of an unfound library is there: not this (lib.*_missing
	 * says what is wrong) */
	fw_wheel_for(rt && !rt->path[0] ? rt->soname : dnn->soname, fw_major_of(fw->built_cuda), wheel,
		  sizeof(wheel));
	if (!wheel[0] || fw_env_pkg(e, wheel))
		return;
	pins = kb_tf_pins(rel, &n);
	for (i = 0; i < n; i++)
		if (!fw_env_pkg(e, pins[i].package))
			absent++;
	STR_FMT(title, "TensorFlow %s is a CUDA build but its [and-cuda] CUDA libraries are not installed",
		rel);
	fd = fw_finding(out, e, fw, "fw.and_cuda_missing", SEV_ERROR, title);
	if (rt && !rt->path[0])
		finding_evidence(fd, "%s: not found by the dynamic loader", rt->soname);
	if (dnn && !dnn->path[0])
		finding_evidence(fd, "%s: not found by the dynamic loader", dnn->soname);
	if (n)
		finding_evidence(fd, "%zu of the %zu nvidia-* wheels of tensorflow[and-cuda]==%s are not "
				     "installed (e.g. %s%s)",
				 absent, n, rel, pins[0].package, pins[0].requirement);
	STR_FMT(spec, "tensorflow[and-cuda]==%s", rel);
	buf_init(&b);
	buf_adds(&b, "Install TensorFlow with its CUDA libraries (the pip wheels it finds by itself):\n");
	fw_add_pip(&b, e);
	buf_adds(&b, "install ");
	buf_add_shquoted(&b, spec);
	buf_addch(&b, '\n');
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* ---- fw.jax_plugin_mismatch -------------------------------------------------------------- */

void
fw_check_jax(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	  struct findings *out)
{
	const struct pypkg_facts *jaxlib = fw_env_pkg(e, "jaxlib"), *jax = fw_env_pkg(e, "jax");
	const struct pypkg_facts *plug[2] = {NULL, NULL};
	char jl[40], pv[40], title[F_TEXT], spec[96], drv[16];
	int i, k, major = -1, m;
	struct finding *fd;
	struct buf b;

	for (i = 0; i < e->npkgs && i < MAX_PYPKGS; i++) {
		if (!plug[0] && (m = fw_jax_cuda_pkg(e->pkgs[i].name, "plugin")) > 0) {
			plug[0] = &e->pkgs[i];
			major = m;
		} else if (!plug[1] && (m = fw_jax_cuda_pkg(e->pkgs[i].name, "pjrt")) > 0) {
			plug[1] = &e->pkgs[i];
			if (major < 0)
				major = m;
		}
	}
	if (major < 0)
		return;
	jl[0] = '\0';
	if (jaxlib)
		vers_release(jaxlib->version, jl, sizeof(jl));
	/* versions that differ from jaxlib's */
	fd = NULL;
	for (k = 0; k < 2 && jl[0]; k++) {
		if (!plug[k] || !plug[k]->version[0])
			continue;
		vers_release(plug[k]->version, pv, sizeof(pv));
		if (!pv[0] || vers_cmp(pv, jl) == 0)
			continue;
		if (!fd) {
			STR_FMT(title, "JAX's CUDA %d plugin does not match jaxlib %s", major, jl);
			fd = fw_finding(out, e, fw, "fw.jax_plugin_mismatch", SEV_ERROR, title);
			finding_evidence(fd, "jaxlib %s", jaxlib->version);
		}
		finding_evidence(fd, "%s %s", plug[k]->name, plug[k]->version);
	}
	if (fd) {
		buf_init(&b);
		buf_addf(&b, "Install the plugin of jaxlib's version (JAX refuses to load a plugin of "
			     "another version):\n");
		fw_add_pip(&b, e);
		buf_adds(&b, "install");
		for (k = 0; k < 2; k++) {
			if (!plug[k])
				continue;
			STR_FMT(spec, "%s==%s", plug[k]->name, jl);
			buf_addch(&b, ' ');
			buf_add_shquoted(&b, spec);
		}
		buf_addch(&b, '\n');
		finding_fix(fd, b.s);
		buf_release(&b);
	}
	/* a CUDA major the driver cannot run */
	rule_driver_cuda(f, drv, sizeof(drv));
	if (drv[0] && fw_major_of(drv) > 0 && fw_major_of(drv) < major) {
		const char *jv = jax && jax->version[0] ? jax->version : jl;
		const struct kb_jax_build *row = jv[0] ? kb_jax(jv) : NULL;
		char want[16];

		STR_FMT(title, "JAX's CUDA %d plugin needs a driver for CUDA %d; this one runs CUDA %s", major,
			major, drv);
		fd = fw_finding(out, e, fw, "fw.jax_plugin_mismatch", SEV_ERROR, title);
		finding_evidence(fd, "%s %s", (plug[0] ? plug[0] : plug[1])->name,
				 (plug[0] ? plug[0] : plug[1])->version);
		finding_evidence(fd, "driver %s runs CUDA up to %s", f->driver.version[0] ? f->driver.version : "",
				 drv);
		buf_init(&b);
		STR_FMT(want, "cuda%d", fw_major_of(drv));
		if (row && kb_has_word(row->cuda_plugins, want)) {
			buf_addf(&b, "Install JAX's CUDA %d plugin instead:\n", fw_major_of(drv));
			fw_add_pip(&b, e);
			buf_adds(&b, "uninstall -y");
			for (k = 0; k < 2; k++)
				if (plug[k]) {
					buf_addch(&b, ' ');
					buf_add_shquoted(&b, plug[k]->name);
				}
			buf_addch(&b, '\n');
			STR_FMT(spec, "jax[%s]==%s", want, row->version);
			fw_add_pip(&b, e);
			buf_adds(&b, "install ");
			buf_add_shquoted(&b, spec);
			buf_addch(&b, '\n');
			buf_adds(&b, "or upgrade the driver");
		} else {
			buf_adds(&b, "Upgrade the driver");
		}
		{
			char mm[16];
			const struct kb_cuda_driver *d;
			STR_FMT(mm, "%d.0", major);
			d = kb_cuda_driver(mm);
			if (d && d->linux_min[0])
				buf_addf(&b, " to %s or newer (CUDA %s).\n", d->linux_min, mm);
			else
				buf_adds(&b, ".\n");
		}
		finding_fix(fd, b.s);
		buf_release(&b);
	}
}
