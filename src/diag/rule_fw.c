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
#include "diag/fix.h"
#include "diag/rule.h"
#include "diag/rule_util.h"
#include "base/buf.h"
#include "base/path.h"
#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"

#include <string.h>

#define TORCH_INDEX "https://download.pytorch.org/whl/"

/* ---- small helpers -------------------------------------------------------------- */

static int
major_of(const char *v)
{
	int m;

	return vers_parse(v, &m, 1) == 1 ? m : -1;
}

/* PEP 503 comparison of two distribution names. */
static bool
pkg_eq(const char *a, const char *b)
{
	for (;; a++, b++) {
		char x = *a, y = *b;

		if (x == '_' || x == '.')
			x = '-';
		if (y == '_' || y == '.')
			y = '-';
		if (x >= 'A' && x <= 'Z')
			x = (char)(x + 32);
		if (y >= 'A' && y <= 'Z')
			y = (char)(y + 32);
		if (x != y)
			return false;
		if (!x)
			return true;
	}
}

static const struct pypkg_facts *
env_pkg(const struct python_env_facts *e, const char *name)
{
	int i;

	for (i = 0; i < e->npkgs && i < MAX_PYPKGS; i++)
		if (pkg_eq(e->pkgs[i].name, name))
			return &e->pkgs[i];
	return NULL;
}

/* "jax-cuda13-plugin" -> 13 for kind "plugin"; -1 otherwise. */
static int
jax_cuda_pkg(const char *name, const char *kind)
{
	char want[48];
	int v;

	if (strncmp(name, "jax-cuda", 8) != 0 || vers_parse(name + 8, &v, 1) != 1 || v <= 0 || v > 99)
		return -1;
	STR_FMT(want, "jax-cuda%d-%s", v, kind);
	return pkg_eq(name, want) ? v : -1;
}

/* An NVIDIA GPU this environment could use. */
static bool
has_gpu(const struct facts *f)
{
	return f->ngpus > 0 || (f->host.wsl && f->host.wsl_libcuda);
}

/* "<interpreter> -m pip " of this environment. */
static void
add_pip(struct buf *b, const struct python_env_facts *e)
{
	char py[F_PATH];

	if (e->interpreter[0])
		STR_COPY(py, e->interpreter);
	else
		STR_FMT(py, "%s/bin/python", e->path);
	buf_add_shquoted(b, py);
	buf_adds(b, " -m pip ");
}

static bool
is_conda(const struct python_env_facts *e)
{
	return !strcmp(e->kind, "conda");
}

/* "conda install -p <env> -c conda-forge " */
static void
add_conda(struct buf *b, const struct python_env_facts *e)
{
	buf_adds(b, "conda install -p ");
	buf_add_shquoted(b, e->path);
	buf_adds(b, " -c conda-forge ");
}

static struct finding *
fw_finding(struct findings *out, const struct python_env_facts *e, const struct framework_facts *fw,
	   const char *id, enum severity sev, const char *title)
{
	struct finding *fd = findings_add(out, id, sev, "%s", title);

	finding_env(fd, e->path);
	finding_evidence(fd, "%s %s (package %s) in %s (%s%s%s)", fw->name,
			 fw->version[0] ? fw->version : "of unknown version",
			 fw->package[0] ? fw->package : fw->name, e->path, e->kind[0] ? e->kind : "environment",
			 e->version[0] ? ", Python " : "", e->version);
	return fd;
}

/* ---- the driver and CUDA releases ------------------------------------------------------ */

/*
 * Whether the driver runs CUDA `cuda` (major.minor, or a major alone):
 * 1 yes (directly or by minor-version compatibility), 0 no, -1 unknown.
 */
static int
driver_runs(const struct facts *f, const char *cuda)
{
	const struct kb_cuda_driver *row;
	char drv[16];
	int c[2] = {0, 0}, d[2] = {0, 0}, nc;

	rule_driver_cuda(f, drv, sizeof(drv));
	if (!drv[0] || vers_parse(drv, d, 2) < 1 || (nc = vers_parse(cuda, c, 2)) < 1)
		return -1;
	if (c[0] < d[0] || (c[0] == d[0] && (nc < 2 || c[1] <= d[1])))
		return 1;
	if (c[0] != d[0])
		return 0;
	row = kb_cuda_driver(cuda);
	if (row && row->linux_minor_compat[0] && f->driver.version[0] &&
	    vers_cmp(f->driver.version, row->linux_minor_compat) >= 0)
		return 1;
	return 0;
}

/* "12.6" -> "cu126". */
static void
torch_tag(const char *cuda, char *out, size_t size)
{
	int v[2] = {0, 0};

	if (vers_parse(cuda, v, 2) == 2)
		str_fmt(out, size, "cu%d%d", v[0], v[1]);
	else
		str_copy(out, size, "");
}

/* The newest CUDA variant of a torch release row that the driver runs
 * (the default or newest when the driver is unknown); false when none. */
static bool
torch_variant(const struct facts *f, const struct kb_torch_build *row, char *out, size_t size)
{
	char w[16];
	size_t i;
	bool any = false;

	out[0] = '\0';
	for (i = 0; kb_word(row->cuda_variants, i, w, sizeof(w)) == 0; i++) {
		int r = driver_runs(f, w);

		if (r == 0)
			continue;
		if (r < 0 && row->cuda_default[0]) {
			str_copy(out, size, row->cuda_default);
			return true;
		}
		if (!any || vers_cmp(w, out) > 0)
			str_copy(out, size, w);
		any = true;
	}
	return any;
}

/* `pip install torch==V --index-url .../cuXYZ` line(s) for a torch release. */
static bool
torch_install(struct buf *b, const struct facts *f, const struct python_env_facts *e,
	      const char *version)
{
	const struct kb_torch_build *row = kb_torch(version);
	char cuda[16], tag[16], spec[64];

	if (!row || !torch_variant(f, row, cuda, sizeof(cuda)))
		return false;
	torch_tag(cuda, tag, sizeof(tag));
	if (!tag[0])
		return false;
	STR_FMT(spec, "torch==%s", row->version);
	add_pip(b, e);
	buf_adds(b, "install --force-reinstall ");
	buf_add_shquoted(b, spec);
	buf_addf(b, " --index-url %s%s\n", TORCH_INDEX, tag);
	return true;
}

/* Python py (may be "") is not in a known [min, max]. */
static bool
py_outside(const char *py, const char *min, const char *max)
{
	int v[2];

	return vers_parse(py, v, 2) == 2 && (min[0] || max[0]) && !kb_in_range(py, min, max);
}

/* The newest torch release that has a variant the driver runs (and, where
 * the table knows, supports Python py). */
static const struct kb_torch_build *
torch_for_driver(const struct facts *f, const char *py)
{
	const struct kb_torch_build *rows, *best = NULL;
	char cuda[16];
	size_t n, i;

	rows = kb_list_torch_builds(&n);
	for (i = 0; i < n; i++)
		if (!py_outside(py, rows[i].python_min, rows[i].python_max) &&
		    torch_variant(f, &rows[i], cuda, sizeof(cuda)) && cuda[0] &&
		    (!best || vers_cmp(rows[i].version, best->version) > 0))
			best = &rows[i];
	return best;
}

/* The TensorFlow tested build row for a release (exact, else its minor). */
static const struct kb_tf_build *
tf_build(const char *version, const char *kind)
{
	const struct kb_tf_build *row;
	char mm[16];

	if (!version[0])
		return NULL;
	if ((row = kb_tf_build(version, "linux", kind)))
		return row;
	vers_truncate(version, 2, mm, sizeof(mm));
	return kb_tf_build(mm, "linux", kind);
}

static bool
tf_has_and_cuda(const char *version)
{
	const struct kb_tf_feature *ft = version[0] ? kb_tf_features(version) : NULL;

	return ft && ft->and_cuda_extra;
}

/* The pip requirement that installs the GPU TensorFlow `version`. */
static void
tf_gpu_spec(const char *version, char *out, size_t size)
{
	if (tf_has_and_cuda(version))
		str_fmt(out, size, "tensorflow[and-cuda]==%s", version);
	else if (vers_cmp(version, "2.1") < 0)
		str_fmt(out, size, "tensorflow-gpu==%s", version);
	else
		str_fmt(out, size, "tensorflow==%s", version);
}

/* The CUDA/cuDNN a pre-[and-cuda] TensorFlow needs from outside pip. */
static void
tf_system_cuda(struct buf *b, const struct python_env_facts *e, const char *version)
{
	const struct kb_tf_build *row = tf_build(version, "gpu");
	char spec[64];

	if (!row || !row->cuda[0])
		return;
	buf_addf(b, "TensorFlow %s loads CUDA %s and cuDNN %s from the system (its tested build "
		    "configuration): install that toolkit and cuDNN and put their lib64 directories in "
		    "LD_LIBRARY_PATH",
		 version, row->cuda, row->cudnn);
	if (is_conda(e)) {
		buf_adds(b, ", or into this conda environment:\n");
		add_conda(b, e);
		STR_FMT(spec, "cudatoolkit=%s", row->cuda);
		buf_add_shquoted(b, spec);
		buf_addch(b, ' ');
		STR_FMT(spec, "cudnn=%s", row->cudnn);
		buf_add_shquoted(b, spec);
		buf_addch(b, '\n');
	} else {
		buf_adds(b, ".\n");
	}
}

/* The CUDA runtime of the newest toolkit installed outside the
 * environments (/usr/local/cuda-X.Y, libs.c's ORIGIN_TOOLKIT); NULL none. */
static const struct lib_facts *
system_toolkit(const struct facts *f)
{
	const struct lib_facts *best = NULL;
	int i;

	for (i = 0; i < f->nlibs && i < MAX_LIBS; i++) {
		const struct lib_facts *l = &f->libs[i];

		if (strcmp(l->name, "cudart") || l->origin != ORIGIN_TOOLKIT || !l->version[0] ||
		    !l->origin_root[0])
			continue;
		if (!best || vers_cmp(l->version, best->version) > 0)
			best = l;
	}
	return best;
}

/* The TensorFlow GPU release built for CUDA `mm` (major.minor) nearest to
 * `rel`: the oldest newer one, else the newest older one; Python py
 * supported where the table says. NULL none. */
static const struct kb_tf_build *
tf_for_cuda(const char *mm, const char *rel, const char *py)
{
	const struct kb_tf_build *r, *up = NULL, *down = NULL;
	size_t n, i;

	r = kb_list_tf_builds(&n);
	for (i = 0; i < n; i++) {
		char v[16];

		if (strcmp(r[i].platform, "linux") || strcmp(r[i].kind, "gpu") || !r[i].cuda[0] ||
		    py_outside(py, r[i].python_min, r[i].python_max))
			continue;
		vers_truncate(r[i].cuda, 2, v, sizeof(v));
		if (strcmp(v, mm))
			continue;
		vers_truncate(r[i].version, 2, v, sizeof(v));
		if (vers_cmp(v, rel) > 0) {
			if (!up || vers_cmp(r[i].version, up->version) < 0)
				up = &r[i];
		} else if (vers_cmp(v, rel) < 0) {
			if (!down || vers_cmp(r[i].version, down->version) > 0)
				down = &r[i];
		}
	}
	return up ? up : down;
}

/*
 * The fix for a TensorFlow without [and-cuda] that misses CUDA libraries:
 * it loads the exact sonames of its build's CUDA release from the system.
 * When the toolkit installed is another release (CUDA 10.1 for a CUDA 10.0
 * build), say so, install the build's release beside it from NVIDIA's
 * repository, and name the TensorFlow release built for the installed one.
 */
static void
tf_system_fix(struct buf *b, const struct facts *f, const struct python_env_facts *e,
	      const struct framework_facts *fw, const char *rel, const char *sonames[], int ns)
{
	const struct kb_tf_build *row = tf_build(rel, "gpu"), *alt;
	const struct lib_facts *tk = system_toolkit(f);
	char want[16], have[16], pkg[48], dir[F_PATH], spec[64];
	int i;

	if (!row || !row->cuda[0] || !tk || is_conda(e)) {
		tf_system_cuda(b, e, rel);
		return;
	}
	vers_truncate(row->cuda, 2, want, sizeof(want));
	vers_truncate(tk->version, 2, have, sizeof(have));
	if (!strcmp(want, have) || major_of(want) <= 0) {
		tf_system_cuda(b, e, rel);
		return;
	}
	buf_addf(b, "TensorFlow %s loads CUDA %s and cuDNN %s from the system (its tested build "
		    "configuration); the toolkit installed is CUDA %s (%s), whose libraries have other "
		    "names (",
		 rel, row->cuda, row->cudnn, have, tk->origin_root);
	for (i = 0; i < ns && i < 3; i++)
		buf_addf(b, "%s%s", i ? ", " : "", sonames[i]);
	buf_addf(b, "%s: not there). Install CUDA %s beside it from NVIDIA's CUDA repository and "
		    "put it on the loader's path:\n",
		 ns > 3 ? ", ..." : "", want);
	STR_FMT(pkg, "cuda-toolkit-%d-%s", major_of(want), strchr(want, '.') ? strchr(want, '.') + 1 : "0");
	fix_install(b, f, pkg, pkg, pkg, NULL);
	STR_FMT(dir, "/usr/local/cuda-%s/lib64", want);
	buf_adds(b, "export LD_LIBRARY_PATH=");
	buf_add_shquoted(b, dir);
	buf_adds(b, "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\n");
	if ((alt = tf_for_cuda(have, rel, e->version))) {
		char amm[16];

		vers_truncate(alt->version, 2, amm, sizeof(amm));
		buf_addf(b, "or install TensorFlow %s, built for the CUDA %s installed (cuDNN %s)%s:\n", amm,
			 alt->cuda, alt->cudnn,
			 major_of(amm) != major_of(rel) ? ", if the code runs on TensorFlow 2" : "");
		if (vers_cmp(amm, "2.1") < 0)
			STR_FMT(spec, "tensorflow-gpu==%s.*", amm);
		else
			STR_FMT(spec, "tensorflow==%s.*", amm);
		if (fw->package[0] && !pkg_eq(fw->package, "tensorflow") && vers_cmp(amm, "2.1") >= 0) {
			add_pip(b, e);
			buf_adds(b, "uninstall -y ");
			buf_add_shquoted(b, fw->package);
			buf_addch(b, '\n');
		}
		add_pip(b, e);
		buf_adds(b, "install ");
		buf_add_shquoted(b, spec);
		buf_addch(b, '\n');
	}
}

/* ---- fw.cpu_only_build ------------------------------------------------------------------- */

static void
check_cpu_only(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	       struct findings *out)
{
	struct finding *fd;
	char rel[40], title[F_TEXT], spec[96];
	struct buf b;

	if (fw->cuda_build != 0 || !has_gpu(f))
		return;
	STR_FMT(title, "%s %s is a CPU-only build on a machine with an NVIDIA GPU", fw->name,
		fw->version[0] ? fw->version : "");
	fd = fw_finding(out, e, fw, "fw.cpu_only_build", SEV_WARN, title);
	if (fw->local_tag[0])
		finding_evidence(fd, "its local version tag is +%s", fw->local_tag);
	if (!strcmp(fw->name, "tensorflow") && pkg_eq(fw->package, "tensorflow-cpu"))
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
		if (!torch_install(&b, f, e, rel)) {
			const struct kb_torch_build *nb = torch_for_driver(f, e->version);
			if (nb) {
				buf_addf(&b, "(torch %s has no build for the CUDA this driver runs; the newest "
					     "release that has is %s)\n",
					 rel, nb->version);
				torch_install(&b, f, e, nb->version);
			} else {
				buf_adds(&b, "see https://pytorch.org/get-started/locally/ for the "
					     "--index-url of your CUDA version\n");
			}
		}
	} else if (!strcmp(fw->name, "tensorflow") && rel[0]) {
		tf_gpu_spec(rel, spec, sizeof(spec));
		buf_addf(&b, "Replace the CPU-only TensorFlow with the GPU build of %s:\n", rel);
		if (fw->package[0] && !pkg_eq(fw->package, "tensorflow") &&
		    !pkg_eq(fw->package, "tensorflow-gpu")) {
			add_pip(&b, e);
			buf_adds(&b, "uninstall -y ");
			buf_add_shquoted(&b, fw->package);
			buf_addch(&b, '\n');
		}
		add_pip(&b, e);
		buf_adds(&b, "install --force-reinstall ");
		buf_add_shquoted(&b, spec);
		buf_addch(&b, '\n');
		if (!tf_has_and_cuda(rel))
			tf_system_cuda(&b, e, rel);
	} else if (!strcmp(fw->name, "jax")) {
		const struct kb_jax_build *row = rel[0] ? kb_jax(rel) : NULL;
		char w[16], best[16] = "";
		size_t i;

		for (i = 0; row && kb_word(row->cuda_plugins, i, w, sizeof(w)) == 0; i++) {
			if (driver_runs(f, w + 4) == 0)
				continue;
			if (!best[0] || vers_cmp(w + 4, best + 4) > 0)
				STR_COPY(best, w);
		}
		if (best[0]) {
			buf_addf(&b, "Install JAX's CUDA plugin for jaxlib %s:\n", rel);
			STR_FMT(spec, "jax[%s]==%s", best, rel);
			add_pip(&b, e);
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
		const struct kb_tf_build *row = tf_build(rel, fw->cuda_build == 0 ? "cpu" : "gpu");
		if (!row)
			row = tf_build(rel, "cpu");
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

static void
check_python(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
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
			tf_gpu_spec(alt, spec, sizeof(spec));
		else if (!strcmp(fw->name, "jax"))
			STR_FMT(spec, "jax==%s", alt);
		else
			STR_FMT(spec, "%s==%s", fw->name, alt);
		if (!strcmp(fw->name, "torch") && fw->cuda_build == 1 && torch_install(&b, f, e, alt)) {
			/* the torch line is written with its index */
		} else {
			add_pip(&b, e);
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

/* ---- fw.arch_not_in_build ------------------------------------------------------------- */

/* Whether one entry of a build's capability list runs on capability gm.gn:
 * sm_XY (cubin) on X.Z with Z >= Y, sm_XYa only on X.Y, compute_XY (PTX)
 * on everything >= X.Y. -1 when the word is not a capability. */
static int
cap_covers(const char *w, int gm, int gn)
{
	bool ptx = false, exact = false;
	const char *d;
	int v, m, n;
	size_t k, i;

	if (!strncmp(w, "sm_", 3)) {
		d = w + 3;
	} else if (!strncmp(w, "compute_", 8)) {
		d = w + 8;
		ptx = true;
	} else if (w[0] >= '1' && w[0] <= '9' && w[1] == '.') {
		/* "7.5" as older builds list it: a cubin */
		if (vers_parse(w, &v, 1) != 1 || w[2] < '0' || w[2] > '9')
			return -1;
		m = w[0] - '0';
		n = w[2] - '0';
		return m == gm && gn >= n;
	} else {
		return -1;
	}
	k = strspn(d, "0123456789");
	if (k < 2 || k > 3)
		return -1;
	if (d[k] == 'a' || d[k] == 'f')
		exact = true;
	else if (d[k])
		return -1;
	v = 0;
	for (i = 0; i < k; i++)
		v = v * 10 + (d[i] - '0');
	m = v / 10;
	n = v % 10;
	if (ptx)
		return gm > m || (gm == m && gn >= n);
	if (exact)
		return gm == m && gn == n;
	return gm == m && gn >= n;
}

static void
check_arch(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	   struct findings *out)
{
	char w[24], label[F_TEXT], title[F_TEXT], rel[40];
	int gi;

	if (strcmp(fw->name, "tensorflow") || fw->cuda_build == 0 || !fw->compute_capabilities[0])
		return;
	vers_release(fw->version, rel, sizeof(rel));
	for (gi = 0; gi < f->ngpus && gi < MAX_GPUS; gi++) {
		const struct gpu_facts *g = &f->gpus[gi];
		int cc[2], known = 0, ok = 0, r;
		size_t i;
		struct finding *fd;
		struct buf b;

		if (vers_parse(g->compute_capability, cc, 2) != 2)
			continue;
		for (i = 0; kb_word(fw->compute_capabilities, i, w, sizeof(w)) == 0; i++) {
			/* lists may be written "sm_75,sm_80" too */
			char *c = strchr(w, ',');
			if (c)
				*c = '\0';
			if ((r = cap_covers(w, cc[0], cc[1])) < 0)
				continue;
			known++;
			ok |= r;
		}
		if (!known || ok)
			continue;
		rule_gpu_label(g, label, sizeof(label));
		STR_FMT(title, "%s %s has no kernels for compute capability %s (%s)", fw->name,
			fw->version, g->compute_capability, label);
		fd = fw_finding(out, e, fw, "fw.arch_not_in_build", SEV_ERROR, title);
		finding_evidence(fd, "built for %s (build_info.py cuda_compute_capabilities)",
				 fw->compute_capabilities);
		finding_evidence(fd, "%s has compute capability %s: no sm_%d%d cubin of its major and no "
				     "compute_ (PTX) entry at or below it, so CUDA reports \"no kernel "
				     "image is available for execution on the device\"",
				 label, g->compute_capability, cc[0], cc[1]);
		buf_init(&b);
		buf_addf(&b, "Install a TensorFlow release built for compute capability %s, or build "
			     "TensorFlow %s from source with TF_CUDA_COMPUTE_CAPABILITIES=%s.\n",
			 g->compute_capability, rel[0] ? rel : "", g->compute_capability);
		finding_fix(fd, b.s);
		buf_release(&b);
	}
}

/* ---- fw.deprecated_gpu_package --------------------------------------------------------- */

static void
check_tf_packages(const struct facts *f, const struct python_env_facts *e, struct findings *out)
{
	static const char *const dists[] = {
		"tensorflow", "tensorflow-gpu", "tensorflow-cpu", "tensorflow-intel", "tf-nightly", NULL,
	};
	const struct pypkg_facts *have[8], *gpu = env_pkg(e, "tensorflow-gpu"), *keep;
	const struct framework_facts *fw = NULL;
	char rel[40], spec[96];
	struct finding *fd;
	struct buf b;
	int i, n = 0;

	for (i = 0; dists[i]; i++)
		if ((have[n] = env_pkg(e, dists[i])))
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
	add_pip(&b, e);
	buf_adds(&b, "uninstall -y");
	if (n >= 2) {
		for (i = 0; i < n; i++) {
			buf_addch(&b, ' ');
			buf_add_shquoted(&b, have[i]->name);
		}
	} else {
		buf_adds(&b, " tensorflow-gpu");
		if (env_pkg(e, "tensorflow"))
			buf_adds(&b, " tensorflow");
	}
	buf_addch(&b, '\n');
	if (rel[0]) {
		if (has_gpu(f) || !env_pkg(e, "tensorflow-cpu"))
			tf_gpu_spec(rel, spec, sizeof(spec));
		else
			STR_FMT(spec, "tensorflow-cpu==%s", rel);
		add_pip(&b, e);
		buf_adds(&b, "install ");
		buf_add_shquoted(&b, spec);
		buf_addch(&b, '\n');
	}
	finding_fix(fd, b.s);
	buf_release(&b);
}

static void wheel_for(const char *soname, int cm, char *out, size_t size);

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

static void
check_and_cuda(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
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
	if (!rel[0] || !tf_has_and_cuda(rel))
		return;
	rt = resolved_stem(fw, "libcudart.so");
	dnn = resolved_stem(fw, "libcudnn.so");
	if (!((rt && !rt->path[0]) || (dnn && !dnn->path[0])))
		return;
	/* the wheel of an unfound library is there: not this (lib.*_missing
	 * says what is wrong) */
	wheel_for(rt && !rt->path[0] ? rt->soname : dnn->soname, major_of(fw->built_cuda), wheel,
		  sizeof(wheel));
	if (!wheel[0] || env_pkg(e, wheel))
		return;
	pins = kb_tf_pins(rel, &n);
	for (i = 0; i < n; i++)
		if (!env_pkg(e, pins[i].package))
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
	add_pip(&b, e);
	buf_adds(&b, "install ");
	buf_add_shquoted(&b, spec);
	buf_addch(&b, '\n');
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* ---- fw.jax_plugin_mismatch -------------------------------------------------------------- */

static void
check_jax(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	  struct findings *out)
{
	const struct pypkg_facts *jaxlib = env_pkg(e, "jaxlib"), *jax = env_pkg(e, "jax");
	const struct pypkg_facts *plug[2] = {NULL, NULL};
	char jl[40], pv[40], title[F_TEXT], spec[96], drv[16];
	int i, k, major = -1, m;
	struct finding *fd;
	struct buf b;

	for (i = 0; i < e->npkgs && i < MAX_PYPKGS; i++) {
		if (!plug[0] && (m = jax_cuda_pkg(e->pkgs[i].name, "plugin")) > 0) {
			plug[0] = &e->pkgs[i];
			major = m;
		} else if (!plug[1] && (m = jax_cuda_pkg(e->pkgs[i].name, "pjrt")) > 0) {
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
		add_pip(&b, e);
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
	if (drv[0] && major_of(drv) > 0 && major_of(drv) < major) {
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
		STR_FMT(want, "cuda%d", major_of(drv));
		if (row && kb_has_word(row->cuda_plugins, want)) {
			buf_addf(&b, "Install JAX's CUDA %d plugin instead:\n", major_of(drv));
			add_pip(&b, e);
			buf_adds(&b, "uninstall -y");
			for (k = 0; k < 2; k++)
				if (plug[k]) {
					buf_addch(&b, ' ');
					buf_add_shquoted(&b, plug[k]->name);
				}
			buf_addch(&b, '\n');
			STR_FMT(spec, "jax[%s]==%s", want, row->version);
			add_pip(&b, e);
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

/* ---- lib.*: the libraries a framework would load --------------------------------------------- */

/* soname stem: "libcublasLt.so.12" -> "cublasLt". */
static void
soname_stem(const char *soname, char *out, size_t size)
{
	const char *so = strstr(soname, ".so");
	size_t n;

	if (!str_starts(soname, "lib") || !so) {
		str_copy(out, size, "");
		return;
	}
	n = (size_t)(so - soname - 3);
	if (n + 1 > size)
		n = size - 1;
	memcpy(out, soname + 3, n);
	out[n] = '\0';
}

/* The number after ".so." in a soname; -1 none. */
static int
soname_major(const char *soname)
{
	const char *so = strstr(soname, ".so.");

	return so ? major_of(so + 4) : -1;
}

/* The pip wheel (without version) that provides a soname, for CUDA major
 * cm; "" when none is known. From CUDA 13 the toolkit wheels dropped the
 * -cuNN suffix (nvidia-cuda-runtime, nvidia-cublas); cuDNN, NCCL and
 * cuSPARSELt kept it. */
static void
wheel_for(const char *soname, int cm, char *out, size_t size)
{
	static const struct {
		const char *stem, *wheel;
		bool keeps_suffix;
	} map[] = {
		{"cudart", "nvidia-cuda-runtime", false}, {"cublas", "nvidia-cublas", false},
		{"cublasLt", "nvidia-cublas", false},     {"cufft", "nvidia-cufft", false},
		{"cufftw", "nvidia-cufft", false},        {"curand", "nvidia-curand", false},
		{"cusolver", "nvidia-cusolver", false},   {"cusolverMg", "nvidia-cusolver", false},
		{"cusparse", "nvidia-cusparse", false},   {"nvrtc", "nvidia-cuda-nvrtc", false},
		{"nvJitLink", "nvidia-nvjitlink", false}, {"cupti", "nvidia-cuda-cupti", false},
		{"nvToolsExt", "nvidia-nvtx", false},     {"cufile", "nvidia-cufile", false},
		{"nccl", "nvidia-nccl", true},            {"cusparseLt", "nvidia-cusparselt", true},
	};
	char stem[32];
	size_t i;

	out[0] = '\0';
	if (cm <= 0)
		return;
	soname_stem(soname, stem, sizeof(stem));
	if (str_starts(stem, "cudnn")) {
		str_fmt(out, size, "nvidia-cudnn-cu%d", cm);
		return;
	}
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (strcmp(map[i].stem, stem))
			continue;
		if (cm >= 13 && !map[i].keeps_suffix)
			str_copy(out, size, map[i].wheel);
		else
			str_fmt(out, size, "%s-cu%d", map[i].wheel, cm);
		return;
	}
}

/* The exact requirement of a wheel in the TF [and-cuda] pins; NULL none. */
static const char *
tf_pin(const char *rel, const char *wheel)
{
	const struct kb_tf_pin *pins;
	size_t n, i;

	if (!rel[0] || !(pins = kb_tf_pins(rel, &n)))
		return NULL;
	for (i = 0; i < n; i++)
		if (pkg_eq(pins[i].package, wheel))
			return pins[i].requirement;
	return NULL;
}

/* "nvidia-cudnn-cu12==8.9.4.25" or "nvidia-cudnn-cu12==8.9.*" for a soname. */
static bool
wheel_spec(const struct framework_facts *fw, const char *soname, char *out, size_t size)
{
	char wheel[48], rel[40];
	const char *pin;
	int cm = major_of(fw->built_cuda);

	if (cm <= 0)
		return false;
	wheel_for(soname, cm, wheel, sizeof(wheel));
	if (!wheel[0])
		return false;
	vers_release(fw->version, rel, sizeof(rel));
	if (!strcmp(fw->name, "tensorflow") && (pin = tf_pin(rel, wheel))) {
		/* the pinned cuDNN must be the major the build loads */
		if (!str_starts(wheel, "nvidia-cudnn") || soname_major(soname) == major_of(pin + 2)) {
			str_fmt(out, size, "%s%s", wheel, pin);
			return true;
		}
	}
	if (str_starts(wheel, "nvidia-cudnn")) {
		int sm = soname_major(soname);
		if (fw->built_cudnn[0] && major_of(fw->built_cudnn) == sm) {
			char mm[16];
			vers_truncate(fw->built_cudnn, 2, mm, sizeof(mm));
			str_fmt(out, size, "%s==%s.*", wheel, mm);
		} else if (sm > 0) {
			str_fmt(out, size, "%s==%d.*", wheel, sm);
		} else {
			str_copy(out, size, wheel);
		}
		return true;
	}
	if (!strcmp(fw->built_cuda, "") || strchr(fw->built_cuda, '.') == NULL || cm >= 13)
		str_copy(out, size, wheel);
	else
		str_fmt(out, size, "%s==%s.*", wheel, fw->built_cuda);
	return true;
}

enum missing_kind { MISS_CUDART, MISS_CUDNN, MISS_OTHER, MISS_N };

/* A copy of soname in the environment's own lib directory (a conda env's
 * cudatoolkit / cudnn packages put them in <env>/lib), which the loader
 * does not search unless something points it there; NULL none. */
static const struct lib_facts *
env_lib_copy(const struct facts *f, const struct python_env_facts *e, const char *soname)
{
	char lib[F_PATH], dir[F_PATH];
	int i;

	if (!e->path[0])
		return NULL;
	STR_FMT(lib, "%s/lib", e->path);
	for (i = 0; i < f->nlibs && i < MAX_LIBS; i++) {
		const struct lib_facts *l = &f->libs[i];
		const char *base = strrchr(l->path, '/');

		/* the file by the name asked for, or its soname (a stand-in
		 * without DT_SONAME gets one from its file name) */
		if (strcmp(l->soname, soname) && (!base || strcmp(base + 1, soname)))
			continue;
		path_dir(l->path, dir, sizeof(dir));
		if (path_same_dir(dir, lib))
			return l;
	}
	return NULL;
}

/* The libraries are in <env>/lib, not on the loader's path: point it there
 * for this environment. */
static void
env_lib_fix(struct buf *b, const struct python_env_facts *e, const char *sonames[], int ns)
{
	char lib[F_PATH], val[F_PATH + 32];
	int i;

	STR_FMT(lib, "%s/lib", e->path);
	buf_adds(b, "The librar");
	buf_adds(b, ns == 1 ? "y exists" : "ies exist");
	buf_addf(b, " in this environment's own lib directory, %s (", lib);
	for (i = 0; i < ns; i++)
		buf_addf(b, "%s%s", i ? ", " : "", sonames[i]);
	buf_adds(b, "), but nothing points the dynamic loader there. Point it there:\n"
		    "export LD_LIBRARY_PATH=");
	buf_add_shquoted(b, lib);
	buf_adds(b, "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\n");
	if (is_conda(e)) {
		buf_adds(b, "and to make it part of the environment's activation:\n"
			    "conda env config vars set -p ");
		buf_add_shquoted(b, e->path);
		STR_FMT(val, "LD_LIBRARY_PATH=%s", lib);
		buf_addch(b, ' ');
		buf_add_shquoted(b, val);
		buf_adds(b, "\nconda deactivate && conda activate ");
		buf_add_shquoted(b, e->path);
		buf_addch(b, '\n');
	}
}

static void
missing_fix(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	    struct finding *fd, const char *all[], int nall)
{
	const char *sonames[MAX_RESOLVED], *inenv[MAX_RESOLVED];
	char rel[40], spec[96];
	struct buf b;
	size_t base;
	int i, specs = 0, ns = 0, nin = 0;

	vers_release(fw->version, rel, sizeof(rel));
	buf_init(&b);
	for (i = 0; i < nall && i < MAX_RESOLVED; i++) {
		const struct lib_facts *l = env_lib_copy(f, e, all[i]);

		if (l) {
			inenv[nin++] = all[i];
			finding_evidence(fd, "%s: %s%s%s, in the environment but not on the loader's path",
					 all[i], l->path, l->version[0] ? " version " : "", l->version);
		} else {
			sonames[ns++] = all[i];
		}
	}
	if (nin) {
		env_lib_fix(&b, e, inenv, nin);
		if (!ns) {
			finding_fix(fd, b.s);
			buf_release(&b);
			return;
		}
		buf_adds(&b, "and for the rest:\n");
	}
	if (!strcmp(fw->name, "tensorflow") && rel[0] && !tf_has_and_cuda(rel)) {
		size_t before = b.len;

		tf_system_fix(&b, f, e, fw, rel, sonames, ns);
		if (b.len == before)
			buf_addf(&b, "Install the CUDA %s libraries TensorFlow %s was built with.\n",
				 fw->built_cuda, rel);
		finding_fix(fd, b.s);
		buf_release(&b);
		return;
	}
	base = b.len;
	if (!strcmp(fw->name, "tensorflow") && rel[0]) {
		STR_FMT(spec, "tensorflow[and-cuda]==%s", rel);
		buf_adds(&b, "Install TensorFlow's CUDA libraries:\n");
		add_pip(&b, e);
		buf_adds(&b, "install ");
		buf_add_shquoted(&b, spec);
		buf_addch(&b, '\n');
		buf_adds(&b, "or the wheel(s) alone:\n");
	} else {
		buf_addf(&b, "Install the pip wheel(s) that provide %s:\n", ns == 1 ? sonames[0] : "them");
	}
	add_pip(&b, e);
	buf_adds(&b, "install");
	for (i = 0; i < ns; i++) {
		if (!wheel_spec(fw, sonames[i], spec, sizeof(spec)))
			continue;
		buf_addch(&b, ' ');
		buf_add_shquoted(&b, spec);
		specs++;
	}
	if (!specs) {
		b.len = base; /* keep what env_lib_fix wrote */
		b.s[base] = '\0';
		buf_addf(&b, "Install the CUDA %s libraries %s needs (%s).\n", fw->built_cuda, fw->name,
			 sonames[0]);
	} else {
		buf_addch(&b, '\n');
	}
	if (!strcmp(fw->name, "torch") && rel[0]) {
		buf_adds(&b, "or reinstall torch, which depends on the exact wheels:\n");
		if (!torch_install(&b, f, e, rel)) {
			add_pip(&b, e);
			buf_adds(&b, "install --force-reinstall ");
			STR_FMT(spec, "torch==%s", rel);
			buf_add_shquoted(&b, spec);
			buf_addch(&b, '\n');
		}
	}
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* The version of cuDNN installed on the machine (f->libs), another major
 * than `want`; NULL when none. */
static const struct lib_facts *
other_cudnn(const struct facts *f, int want)
{
	int i;

	for (i = 0; i < f->nlibs && i < MAX_LIBS; i++) {
		const struct lib_facts *l = &f->libs[i];
		int m;

		if (strcmp(l->name, "cudnn") || !l->version[0] || (m = major_of(l->version)) <= 0)
			continue;
		if (m != want)
			return l;
	}
	return NULL;
}

static void
cudnn_mismatch_fix(const struct python_env_facts *e, const struct framework_facts *fw, struct finding *fd,
		   const char *soname)
{
	char spec[96], rel[40], dir[F_PATH];
	struct buf b;

	vers_release(fw->version, rel, sizeof(rel));
	buf_init(&b);
	if (rel[0] && tf_has_and_cuda(rel)) {
		buf_addf(&b, "Install the cuDNN TensorFlow %s was built with:\n", rel);
		STR_FMT(spec, "tensorflow[and-cuda]==%s", rel);
		add_pip(&b, e);
		buf_adds(&b, "install ");
		buf_add_shquoted(&b, spec);
		buf_addch(&b, '\n');
	} else if (wheel_spec(fw, soname, spec, sizeof(spec))) {
		buf_addf(&b, "Install cuDNN %s into this environment and let the loader find it first:\n",
			 fw->built_cudnn);
		add_pip(&b, e);
		buf_adds(&b, "install ");
		buf_add_shquoted(&b, spec);
		buf_addch(&b, '\n');
		if (e->site_packages[0]) {
			STR_FMT(dir, "%s/nvidia/cudnn/lib", e->site_packages);
			buf_adds(&b, "export LD_LIBRARY_PATH=");
			buf_add_shquoted(&b, dir);
			buf_adds(&b, "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\n");
		}
		if (is_conda(e)) {
			char mm[16];
			vers_truncate(fw->built_cudnn, 2, mm, sizeof(mm));
			buf_adds(&b, "or with conda:\n");
			add_conda(&b, e);
			STR_FMT(spec, "cudnn=%s", mm);
			buf_add_shquoted(&b, spec);
			buf_addch(&b, '\n');
		}
	} else {
		buf_addf(&b, "Install cuDNN %s, the release %s was built with.\n", fw->built_cudnn, fw->name);
	}
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* lib.cudnn_version_mismatch; returns true when it fired for this build
 * (lib.cudnn_missing then stays quiet). */
static bool
check_cudnn_version(const struct facts *f, const struct python_env_facts *e,
		    const struct framework_facts *fw, struct findings *out)
{
	int bm = major_of(fw->built_cudnn), i;
	char title[F_TEXT], built[16];
	bool from_kb = false;
	struct finding *fd;

	if (fw->cuda_build != 1 || bm <= 0)
		return false;
	/* TensorFlow's build_info.py gives only the major ("8"); its tested
	 * build configuration names the minor it needs (2.15: 8.9) */
	STR_COPY(built, fw->built_cudnn);
	if (!strcmp(fw->name, "tensorflow") && !strchr(built, '.')) {
		const struct kb_tf_build *b = kb_tf_build(fw->version, "linux", "gpu");
		if (b && b->cudnn[0] && major_of(b->cudnn) == bm) {
			STR_COPY(built, b->cudnn);
			from_kb = strchr(built, '.') != NULL;
		}
	}
	for (i = 0; i < fw->nresolved && i < MAX_RESOLVED; i++) {
		const struct resolved_lib_facts *r = &fw->resolved[i];
		const struct lib_facts *other;
		int lm;

		if (!str_starts(r->soname, "libcudnn.so"))
			continue;
		if (!r->path[0]) {
			/* not found: is only another major installed? */
			if (soname_major(r->soname) != bm || !(other = other_cudnn(f, bm)))
				continue;
			STR_FMT(title, "%s %s needs cuDNN %d; only cuDNN %s is installed", fw->name,
				fw->version, bm, other->version);
			fd = fw_finding(out, e, fw, "lib.cudnn_version_mismatch", SEV_ERROR, title);
			finding_evidence(fd, "built with cuDNN %s (build_info.py); it loads %s", fw->built_cudnn,
					 r->soname);
			finding_evidence(fd, "%s: not found by the dynamic loader", r->soname);
			finding_evidence(fd, "cuDNN %s at %s: another major, which it cannot use",
					 other->version, other->path);
			cudnn_mismatch_fix(e, fw, fd, r->soname);
			return true;
		}
		if (!r->version[0] || (lm = major_of(r->version)) <= 0)
			continue;
		if (lm != bm) {
			STR_FMT(title, "%s %s was built with cuDNN %s but loads cuDNN %s", fw->name, fw->version,
				fw->built_cudnn, r->version);
		} else if (!strcmp(fw->name, "tensorflow") && strchr(built, '.') &&
			   vers_cmp(r->version, built) < 0) {
			char mm[16];
			vers_truncate(r->version, 2, mm, sizeof(mm));
			if (vers_cmp(mm, built) >= 0)
				continue;
			STR_FMT(title, "%s %s was built with cuDNN %s but loads the older cuDNN %s", fw->name,
				fw->version, built, r->version);
		} else {
			continue;
		}
		fd = fw_finding(out, e, fw, "lib.cudnn_version_mismatch", SEV_ERROR, title);
		if (from_kb)
			finding_evidence(fd, "built with cuDNN %s (build_info.py); TensorFlow %s's tested "
					 "build configuration: cuDNN %s", fw->built_cudnn, fw->version, built);
		else
			finding_evidence(fd, "built with cuDNN %s (build_info.py)", fw->built_cudnn);
		finding_evidence(fd, "%s -> %s (cuDNN %s, via %s)", r->soname, r->path, r->version,
				 r->via[0] ? r->via : "?");
		cudnn_mismatch_fix(e, fw, fd, r->soname);
		return true;
	}
	return false;
}

static void
check_missing(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	      bool skip_cudnn, struct findings *out)
{
	static const char *const ids[MISS_N] = {"lib.cudart_missing", "lib.cudnn_missing", "lib.cuda_lib_missing"};
	const char *sonames[MISS_N][MAX_RESOLVED];
	int ns[MISS_N] = {0, 0, 0}, k, i;
	bool optional_only[MISS_N] = {true, true, true};
	char title[F_TEXT];

	if (fw->cuda_build != 1)
		return;
	for (i = 0; i < fw->nresolved && i < MAX_RESOLVED; i++) {
		const struct resolved_lib_facts *r = &fw->resolved[i];

		if (r->path[0] || !r->soname[0])
			continue;
		if (str_starts(r->soname, "libcudart.so"))
			k = MISS_CUDART;
		else if (str_starts(r->soname, "libcudnn"))
			k = MISS_CUDNN;
		else
			k = MISS_OTHER;
		if (k == MISS_CUDNN && skip_cudnn)
			continue;
		sonames[k][ns[k]++] = r->soname;
		if (!str_starts(r->soname, "libnvinfer"))
			optional_only[k] = false;
	}
	for (k = 0; k < MISS_N; k++) {
		struct finding *fd;

		if (!ns[k])
			continue;
		if (k == MISS_CUDART)
			STR_FMT(title, "%s %s cannot find the CUDA runtime %s", fw->name, fw->version, sonames[k][0]);
		else if (k == MISS_CUDNN)
			STR_FMT(title, "%s %s cannot find cuDNN (%s)", fw->name, fw->version, sonames[k][0]);
		else if (ns[k] == 1)
			STR_FMT(title, "%s %s cannot find the CUDA library %s", fw->name, fw->version,
				sonames[k][0]);
		else
			STR_FMT(title, "%s %s cannot find %d CUDA libraries", fw->name, fw->version, ns[k]);
		fd = fw_finding(out, e, fw, ids[k], optional_only[k] ? SEV_WARN : SEV_ERROR, title);
		if (fw->built_cuda[0])
			finding_evidence(fd, "built for CUDA %s%s%s", fw->built_cuda,
					 fw->built_cudnn[0] ? ", cuDNN " : "", fw->built_cudnn);
		for (i = 0; i < ns[k]; i++)
			finding_evidence(fd, "%s: not found by the dynamic loader (%s%s)", sonames[k][i],
					 fw->extension[0] ? "from " : "run-time dlopen",
					 fw->extension[0] ? fw->extension : "");
		if (optional_only[k])
			finding_evidence(fd, "TensorRT is optional: without it TF-TRT is unavailable");
		missing_fix(f, e, fw, fd, sonames[k], ns[k]);
	}
}

/* lib.cuda_version_mismatch: a library whose version follows CUDA's of
 * another major than the build. */
static void
check_cuda_version(const struct python_env_facts *e, const struct framework_facts *fw,
		   struct findings *out)
{
	static const char *const follows[] = {"cudart", "cublas", "cublasLt", "nvrtc", "nvJitLink", NULL};
	int bm = major_of(fw->built_cuda), i, j;
	struct finding *fd = NULL;
	char title[F_TEXT], stem[32], spec[96];
	struct buf b;

	if (fw->cuda_build != 1 || bm <= 0)
		return;
	buf_init(&b);
	for (i = 0; i < fw->nresolved && i < MAX_RESOLVED; i++) {
		const struct resolved_lib_facts *r = &fw->resolved[i];
		int lm;
		bool f_ = false;

		if (!r->path[0] || !r->version[0] || (lm = major_of(r->version)) <= 0 || lm == bm)
			continue;
		soname_stem(r->soname, stem, sizeof(stem));
		for (j = 0; follows[j]; j++)
			f_ |= !strcmp(stem, follows[j]);
		if (!f_)
			continue;
		if (!fd) {
			STR_FMT(title, "%s %s, built for CUDA %s, loads CUDA %d libraries", fw->name, fw->version,
				fw->built_cuda, lm);
			fd = fw_finding(out, e, fw, "lib.cuda_version_mismatch", SEV_ERROR, title);
			buf_adds(&b, "Install the CUDA libraries of the build's CUDA release and remove the "
				     "foreign copy (or the symlink that renames it):\n");
			add_pip(&b, e);
			buf_adds(&b, "install");
		}
		finding_evidence(fd, "%s -> %s (version %s, via %s)", r->soname, r->path, r->version,
				 r->via[0] ? r->via : "?");
		if (wheel_spec(fw, r->soname, spec, sizeof(spec))) {
			buf_addch(&b, ' ');
			buf_add_shquoted(&b, spec);
		}
	}
	if (fd) {
		buf_addch(&b, '\n');
		finding_fix(fd, b.s);
	}
	buf_release(&b);
}

/* The LD_LIBRARY_PATH value without the entries naming dir; false when
 * LD_LIBRARY_PATH is unset or no entry names it. */
static bool
ldpath_without(const struct facts *f, const char *dir, char *out, size_t size)
{
	const char *v = facts_env_value(f, "LD_LIBRARY_PATH"), *p, *c;
	struct buf b;
	bool dropped = false, first = true;
	char ent[F_PATH];

	if (!v)
		return false;
	buf_init(&b);
	for (p = v;; p = c + 1) {
		size_t n;

		c = strchr(p, ':');
		n = c ? (size_t)(c - p) : strlen(p);
		if (n < sizeof(ent)) {
			memcpy(ent, p, n);
			ent[n] = '\0';
			if (n && path_same_dir(ent, dir)) {
				dropped = true;
			} else if (n) {
				if (!first)
					buf_addch(&b, ':');
				buf_adds(&b, ent);
				first = false;
			}
		}
		if (!c)
			break;
	}
	if (dropped)
		str_copy(out, size, b.s);
	buf_release(&b);
	return dropped;
}

/* The framework's own pip copy of a soname in this environment. */
static const struct lib_facts *
pip_copy(const struct facts *f, const struct python_env_facts *e, const char *soname)
{
	int i;

	if (!e->site_packages[0])
		return NULL;
	for (i = 0; i < f->nlibs && i < MAX_LIBS; i++) {
		const struct lib_facts *l = &f->libs[i];

		if (l->origin == ORIGIN_PIP && !strcmp(l->soname, soname) && l->version[0] &&
		    str_starts(l->path, e->site_packages) && strstr(l->path, "/nvidia/"))
			return l;
	}
	return NULL;
}

static void
check_shadowed(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	       struct findings *out)
{
	char title[F_TEXT], dir[F_PATH], pdir[F_PATH], val[F_PATH * 2];
	int i;

	if (fw->cuda_build == 0)
		return;
	for (i = 0; i < fw->nresolved && i < MAX_RESOLVED; i++) {
		const struct resolved_lib_facts *r = &fw->resolved[i];
		const struct lib_facts *own;
		struct finding *fd;
		bool by_ld, older;
		struct buf b;

		if (!r->path[0] || !r->version[0])
			continue;
		by_ld = !strcmp(r->via, "ld_library_path");
		if (!by_ld && strcmp(r->via, "ld_so_cache"))
			continue;
		if (str_starts(r->path, e->path) && e->path[0])
			continue;
		if (!(own = pip_copy(f, e, r->soname)) || vers_cmp(own->version, r->version) == 0)
			continue;
		older = vers_cmp(r->version, own->version) < 0;
		path_dir(r->path, dir, sizeof(dir));
		path_dir(own->path, pdir, sizeof(pdir));
		STR_FMT(title, "%s %s loads %s %s from %s, not the environment's %s", fw->name, fw->version,
			r->soname, r->version, by_ld ? "LD_LIBRARY_PATH" : "the system", own->version);
		fd = fw_finding(out, e, fw, "lib.shadowed", SEV_WARN, title);
		finding_evidence(fd, "%s -> %s (%s, via %s)", r->soname, r->path, r->version, r->via);
		finding_evidence(fd, "the pip wheel's %s %s (%s) is %s", r->soname, own->version, own->path,
				 older ? "newer" : "older");
		buf_init(&b);
		if (by_ld && ldpath_without(f, dir, val, sizeof(val))) {
			buf_addf(&b, "Drop %s from LD_LIBRARY_PATH so the wheel's copy is used:\n", dir);
			if (val[0]) {
				buf_adds(&b, "export LD_LIBRARY_PATH=");
				buf_add_shquoted(&b, val);
				buf_addch(&b, '\n');
			} else {
				buf_adds(&b, "unset LD_LIBRARY_PATH\n");
			}
		} else if (by_ld) {
			buf_addf(&b, "Drop %s from LD_LIBRARY_PATH so the wheel's copy is used:\n", dir);
			buf_adds(&b, "export LD_LIBRARY_PATH=$(echo \"$LD_LIBRARY_PATH\" | tr : '\\n' | "
				     "grep -v -x -F ");
			buf_add_shquoted(&b, dir);
			buf_adds(&b, " | paste -sd:)\n");
		} else {
			buf_adds(&b, "Put the wheel's directory first for this environment:\n");
			buf_adds(&b, "export LD_LIBRARY_PATH=");
			buf_add_shquoted(&b, pdir);
			buf_adds(&b, "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\n");
		}
		finding_fix(fd, b.s);
		buf_release(&b);
	}
}

/* ---- driver.too_old (framework) ---------------------------------------------------------------- */

static void
check_driver(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	     struct findings *out)
{
	const struct kb_cuda_driver *row;
	char drv[16], title[F_TEXT], rel[40], mm[16], spec[96];
	struct finding *fd;
	struct buf b;

	/* JAX's plugin major is fw.jax_plugin_mismatch's */
	if (fw->cuda_build != 1 || !fw->built_cuda[0] || !strcmp(fw->name, "jax") ||
	    driver_runs(f, fw->built_cuda) != 0)
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
		if (row->linux_minor_compat[0] && major_of(drv) == major_of(mm))
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

		if (t && torch_variant(f, t, cuda, sizeof(cuda))) {
			buf_addf(&b, "or install torch %s built for CUDA %s:\n", t->version, cuda);
			torch_install(&b, f, e, t->version);
		} else if ((t = torch_for_driver(f, e->version))) {
			torch_variant(f, t, cuda, sizeof(cuda));
			buf_addf(&b, "or install torch %s built for CUDA %s, the newest release this "
				     "driver runs:\n",
				 t->version, cuda);
			torch_install(&b, f, e, t->version);
		}
	} else if (!strcmp(fw->name, "tensorflow")) {
		const struct kb_tf_build *r, *best = NULL;
		size_t n, i;

		r = kb_list_tf_builds(&n);
		for (i = 0; i < n; i++)
			if (!strcmp(r[i].platform, "linux") && !strcmp(r[i].kind, "gpu") && r[i].cuda[0] &&
			    !py_outside(e->version, r[i].python_min, r[i].python_max) &&
			    driver_runs(f, r[i].cuda) == 1 && (!best || vers_cmp(r[i].version, best->version) > 0))
				best = &r[i];
		if (best) {
			buf_addf(&b, "or install TensorFlow %s (built for CUDA %s):\n", best->version, best->cuda);
			tf_gpu_spec(best->version, spec, sizeof(spec));
			add_pip(&b, e);
			buf_adds(&b, "install ");
			buf_add_shquoted(&b, spec);
			buf_addch(&b, '\n');
			if (!tf_has_and_cuda(best->version))
				tf_system_cuda(&b, e, best->version);
		}
	} else if (drv[0]) {
		buf_addf(&b, "or install the %s build for CUDA %d.\n", fw->name, major_of(drv));
	}
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* ---- env.ld_library_path_stale (framework) -------------------------------------------------- */

/* The framework consults LD_LIBRARY_PATH: some library was not found, or
 * was found there. A build whose libraries all come by RPATH does not
 * care what LD_LIBRARY_PATH holds. */
static bool
uses_ldpath(const struct framework_facts *fw)
{
	int i;

	for (i = 0; i < fw->nresolved && i < MAX_RESOLVED; i++)
		if (!fw->resolved[i].path[0] || !strcmp(fw->resolved[i].via, "ld_library_path"))
			return true;
	return false;
}

static void
check_ldpath(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	     struct findings *out)
{
	int bm = major_of(fw->built_cuda), i;
	struct finding *fd = NULL;
	char title[F_TEXT];

	if (fw->cuda_build != 1 || bm <= 0 || !uses_ldpath(fw))
		return;
	for (i = 0; i < f->env.nldpath && i < MAX_LDPATH_DIRS; i++) {
		const struct ldpath_dir_facts *d = &f->env.ldpath[i];
		int m = major_of(d->cuda_major);

		if (!d->exists || m <= 0 || m == bm)
			continue;
		if (!fd) {
			STR_FMT(title, "LD_LIBRARY_PATH holds CUDA %d libraries; %s %s needs CUDA %s", m,
				fw->name, fw->version, fw->built_cuda);
			fd = fw_finding(out, e, fw, "env.ld_library_path_stale", SEV_WARN, title);
		}
		finding_evidence(fd, "LD_LIBRARY_PATH entry %d: %s holds CUDA %d libraries", i + 1, d->dir, m);
	}
	if (fd)
		finding_fixf(fd, "Point LD_LIBRARY_PATH at a CUDA %s installation for this environment "
				 "(or drop the CUDA %s-incompatible entries): a directory of another CUDA "
				 "major cannot provide the libraries %s asks for.",
			     fw->built_cuda, fw->built_cuda, fw->name);
}

/* ---- doctor --deep: the framework's own answer --------------------------------------------------- */

/* "libcudnn.so.9.19.0" -> "libcudnn": a library family, the name before ".so". */
static void
lib_family(const char *name, char *out, size_t size)
{
	const char *base = strrchr(name, '/'), *so;
	size_t n;

	base = base ? base + 1 : name;
	so = strstr(base, ".so");
	n = so ? (size_t)(so - base) : strlen(base);
	if (n + 1 > size)
		n = size - 1;
	memcpy(out, base, n);
	out[n] = '\0';
}

/* The real file behind a predicted path, where libs.c recorded one. */
static const char *
real_of(const struct facts *f, const char *path)
{
	int i;

	for (i = 0; i < f->nlibs && i < MAX_LIBS; i++)
		if (!strcmp(f->libs[i].path, path) && f->libs[i].real_path[0])
			return f->libs[i].real_path;
	return path;
}

/* a and b agree on the components both give ("13" vs "13.0.96": yes);
 * true when either is unknown. */
static bool
same_release(const char *a, const char *b)
{
	int va[4], vb[4], na, nb, n, i;

	na = vers_parse(a, va, 4);
	nb = vers_parse(b, vb, 4);
	n = na < nb ? na : nb;
	for (i = 0; i < n; i++)
		if (va[i] != vb[i])
			return false;
	return true;
}

/* The command that makes the framework say why it sees no GPU. */
static void
add_why_command(struct buf *b, const struct python_env_facts *e, const struct framework_facts *fw)
{
	static const struct {
		const char *name, *code;
	} why[] = {
		{"torch", "import torch; print(torch.cuda.is_available()); torch.cuda.init()"},
		{"tensorflow", "import tensorflow as tf; print(tf.config.list_physical_devices('GPU'))"},
		{"jax", "import jax; print(jax.devices('gpu'))"},
		{"cupy", "import cupy; print(cupy.cuda.runtime.getDeviceCount())"},
	};
	size_t i;

	for (i = 0; i < sizeof(why) / sizeof(why[0]); i++) {
		if (strcmp(why[i].name, fw->name))
			continue;
		if (!strcmp(fw->name, "tensorflow"))
			buf_adds(b, "TF_CPP_MIN_LOG_LEVEL=0 ");
		buf_add_shquoted(b, e->interpreter[0] ? e->interpreter : "python3");
		buf_adds(b, " -c ");
		buf_add_shquoted(b, why[i].code);
		buf_addch(b, '\n');
	}
}

/* CUDA_VISIBLE_DEVICES set so that it hides every GPU (env.visible_devices_hides_all's case). */
static bool
visible_devices_empty(const struct facts *f)
{
	const char *v = facts_env_value(f, "CUDA_VISIBLE_DEVICES");

	return v && (!v[0] || v[0] == '-' || !strcmp(v, "none") || !strcmp(v, "NoDevFiles"));
}

/* Whether a finding present in out explains why the framework sees no GPU:
 * one about this framework from the static checks (out->v[first..]), or a
 * machine-wide error below the frameworks (kmod, driver, ...). */
static bool
no_gpu_explained(const struct facts *f, const struct python_env_facts *e, struct findings *out, size_t first)
{
	size_t i;

	if (visible_devices_empty(f))
		return true;
	for (i = 0; i < out->n; i++) {
		const struct finding *fi = &out->v[i];

		if (i >= first && fi->severity >= SEV_WARN && fi->env && !strcmp(fi->env, e->path))
			return true;
		if (!fi->env && fi->severity == SEV_ERROR && layer_rank(fi->layer) < layer_rank("fw"))
			return true;
	}
	return false;
}

/* fw.no_gpu_at_runtime: the framework, asked, uses no GPU (or cannot even
 * be imported, or crashes) on a machine that has one. */
static void
check_live_gpu(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
	       struct findings *out, size_t first)
{
	const struct framework_live_facts *lv = &fw->live;
	bool crashed = lv->state == CHILD_CRASHED;
	bool import_failed = lv->state == CHILD_OK && lv->error[0] && !lv->version[0];
	char title[F_TEXT];
	struct finding *fd;
	struct buf b;

	if (!has_gpu(f) || fw->cuda_build == 0 || (!crashed && lv->state != CHILD_OK))
		return;
	if (!crashed && !import_failed && lv->cuda_available && lv->gpu_count != 0)
		return;
	if (no_gpu_explained(f, e, out, first))
		return;
	if (crashed)
		STR_FMT(title, "importing %s %s crashes the interpreter (signal %d)", fw->name, fw->version,
			lv->signal);
	else if (import_failed)
		STR_FMT(title, "%s %s cannot be imported", fw->name, fw->version);
	else
		STR_FMT(title, "%s %s sees no GPU when it runs", fw->name, fw->version);
	fd = fw_finding(out, e, fw, "fw.no_gpu_at_runtime", SEV_ERROR, title);
	finding_evidence(fd, "static prediction: %s%s%s", fw->cuda_build == 1 ? "a CUDA build" : "build unknown",
			 fw->built_cuda[0] ? " for CUDA " : "", fw->built_cuda);
	if (crashed || import_failed)
		finding_evidence(fd, "live: %s", lv->error);
	else
		finding_evidence(fd, "live: cuda_available %s, %d GPU%s%s%s", lv->cuda_available ? "true" : "false",
				 lv->gpu_count < 0 ? 0 : lv->gpu_count, lv->gpu_count == 1 ? "" : "s",
				 lv->error[0] ? "; " : "", lv->error);
	if (lv->cuda_build == 0)
		finding_evidence(fd, "live: %s says it was built without CUDA", fw->name);
	finding_evidence(fd, "the machine has %d NVIDIA GPU%s%s%s", f->ngpus, f->ngpus == 1 ? "" : "s",
			 f->gpus[0].name[0] ? ": " : "", f->gpus[0].name);
	if (facts_env_value(f, "CUDA_VISIBLE_DEVICES"))
		finding_evidence(fd, "CUDA_VISIBLE_DEVICES=%s", facts_env_value(f, "CUDA_VISIBLE_DEVICES"));
	buf_init(&b);
	buf_addf(&b, "Nothing gpudoctor read from the files explains it; let %s say why:\n", fw->name);
	add_why_command(&b, e, fw);
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* fw.prediction_mismatch: the framework's own answer contradicts what was
 * read from its files: another version imported, another CUDA build, other
 * library files mapped than the loader was predicted to pick. */
static void
check_live_mismatch(const struct facts *f, const struct python_env_facts *e, const struct framework_facts *fw,
		    struct findings *out)
{
	const struct framework_live_facts *lv = &fw->live;
	struct finding *fd = NULL;
	char title[F_TEXT], a[40], b2[40];
	bool other_copy = false, libs = false;
	struct buf b;
	int i, k;

	if (lv->state != CHILD_OK || !lv->version[0])
		return;
	STR_FMT(title, "%s %s: the framework's own answer differs from the prediction", fw->name, fw->version);
#define MISMATCH(...) \
	do { \
		if (!fd) \
			fd = fw_finding(out, e, fw, "fw.prediction_mismatch", SEV_WARN, title); \
		finding_evidence(fd, __VA_ARGS__); \
	} while (0)
	vers_release(fw->version, a, sizeof(a));
	vers_release(lv->version, b2, sizeof(b2));
	if (a[0] && b2[0] && strcmp(a, b2)) {
		other_copy = true;
		MISMATCH("version: predicted %s, imported %s%s%s", fw->version, lv->version,
			 lv->module[0] ? " from " : "", lv->module);
	}
	if (fw->cuda_build >= 0 && lv->cuda_build >= 0 && fw->cuda_build != lv->cuda_build)
		MISMATCH("CUDA build: predicted %s, it says %s", fw->cuda_build ? "yes" : "no",
			 lv->cuda_build ? "yes" : "no");
	if (fw->built_cuda[0] && lv->cuda[0] && !same_release(fw->built_cuda, lv->cuda))
		MISMATCH("built for CUDA: predicted %s, it says %s", fw->built_cuda, lv->cuda);
	if (fw->built_cudnn[0] && lv->cudnn[0] && !same_release(fw->built_cudnn, lv->cudnn))
		MISMATCH("cuDNN: predicted %s, it says %s", fw->built_cudnn, lv->cudnn);
	if (fw->cuda_build == 0 && lv->cuda_available)
		MISMATCH("predicted a CPU-only build, yet it uses a GPU");
	for (i = 0; i < fw->nresolved && i < MAX_RESOLVED; i++) {
		const struct resolved_lib_facts *r = &fw->resolved[i];
		const char *want = r->path[0] ? real_of(f, r->path) : "", *other = NULL;
		char fam[F_NAME], mf[F_NAME];
		bool same = false;

		lib_family(r->soname, fam, sizeof(fam));
		for (k = 0; k < lv->nmapped && k < MAX_LIVE_MAPPED; k++) {
			lib_family(lv->mapped[k], mf, sizeof(mf));
			if (strcmp(fam, mf))
				continue;
			if (r->path[0] && (!strcmp(lv->mapped[k], r->path) || !strcmp(lv->mapped[k], want)))
				same = true;
			else if (!other)
				other = lv->mapped[k];
		}
		if (same || !other)
			continue; /* agrees, or not loaded yet (loaded lazily) */
		libs = true;
		if (r->path[0])
			MISMATCH("%s: predicted %s (%s%s%s), mapped %s", r->soname, r->path,
				 r->version[0] ? r->version : "?", r->via[0] ? ", via " : "", r->via, other);
		else
			MISMATCH("%s: predicted not found, mapped %s", r->soname, other);
	}
#undef MISMATCH
	if (!fd)
		return;
	buf_init(&b);
	buf_adds(&b, "What the framework says is what runs; the prediction missed something:\n");
	if (other_copy)
		buf_addf(&b, "- another %s is imported before the environment's own (user site-packages, "
			     "PYTHONPATH, a .pth file): see `%s -m pip show -f %s` and remove the stray copy.\n",
			 fw->name, e->interpreter[0] ? e->interpreter : "python3", fw->package[0] ? fw->package : fw->name);
	if (libs)
		buf_adds(&b, "- the loader picked other files than predicted (LD_PRELOAD, a library loaded earlier "
			     "under the same soname, a changed LD_LIBRARY_PATH): `LD_DEBUG=libs` on the import shows "
			     "where each one came from.\n");
	if (!other_copy && !libs)
		buf_adds(&b, "- the build's own answer wins over the version files read from site-packages; "
			     "reinstall the package if its files were edited or mixed.\n");
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* ---- XLA's libdevice and ptxas ---------------------------------------------------------- */

/* The nvidia-cuda-nvcc wheel for CUDA major cm: CUDA 13 wheels dropped the
 * -cuNN suffix. */
static void
nvcc_wheel(int cm, char *out, size_t size)
{
	if (cm >= 13)
		str_fmt(out, size, "nvidia-cuda-nvcc==%d.*", cm);
	else
		str_fmt(out, size, "nvidia-cuda-nvcc-cu%d", cm > 0 ? cm : 12);
}

static void
xla_where(struct finding *fd)
{
	finding_evidence(fd, "looked in: XLA_FLAGS --xla_gpu_cuda_data_dir, <site-packages>/nvidia/cuda_nvcc, "
			     "<site-packages>/triton/backends/nvidia/bin, $CUDA_HOME, $CUDA_PATH, /usr/local/cuda, "
			     "/usr/local/cuda-*, PATH");
}

static void
xla_fix(struct finding *fd, const struct python_env_facts *e, const struct framework_facts *fw,
	const char *what)
{
	char spec[48];
	struct buf b;

	nvcc_wheel(major_of(fw->built_cuda), spec, sizeof(spec));
	buf_init(&b);
	buf_addf(&b, "Install %s into the environment:\n", what);
	add_pip(&b, e);
	buf_adds(&b, "install ");
	buf_add_shquoted(&b, spec);
	buf_addf(&b, "\nor point XLA at an installed CUDA %s toolkit:\n"
		     "export XLA_FLAGS=--xla_gpu_cuda_data_dir=/usr/local/cuda-%s\n",
		 fw->built_cuda[0] ? fw->built_cuda : "", fw->built_cuda[0] ? fw->built_cuda : "X.Y");
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* XLA (TensorFlow, JAX) compiles its GPU kernels itself: LLVM links
 * libdevice.10.bc and ptxas turns the PTX into machine code. */
static void
check_xla_toolchain(const struct python_env_facts *e, const struct framework_facts *fw,
		    struct findings *out)
{
	bool jax = !strcmp(fw->name, "jax");
	struct finding *fd;
	char title[F_TEXT];
	int bv[2], pv[2], nb, np;

	if (fw->cuda_build != 1 || (!jax && strcmp(fw->name, "tensorflow")))
		return;
	if (!fw->libdevice[0]) {
		STR_FMT(title, "%s %s cannot find libdevice (nvvm/libdevice/libdevice.10.bc) for XLA", fw->name,
			fw->version);
		fd = fw_finding(out, e, fw, "lib.libdevice_missing", jax ? SEV_ERROR : SEV_WARN, title);
		finding_evidence(fd, jax ? "JAX fails every GPU computation without it"
					 : "TensorFlow falls back from XLA-compiled kernels (jit_compile, some fused ops)");
		xla_where(fd);
		xla_fix(fd, e, fw, "the CUDA compiler wheel (libdevice and ptxas)");
	}
	if (!fw->ptxas[0]) {
		STR_FMT(title, "%s %s: no ptxas found for XLA's GPU compiler", fw->name, fw->version);
		fd = fw_finding(out, e, fw, "lib.ptxas_missing", SEV_WARN, title);
		xla_where(fd);
		xla_fix(fd, e, fw, "ptxas (the CUDA compiler wheel)");
		return;
	}
	nb = vers_parse(fw->built_cuda, bv, 2);
	np = fw->ptxas_version[0] ? vers_parse(fw->ptxas_version, pv, 2) : 0;
	if (nb < 1 || np < 1 || !(pv[0] < bv[0] || (nb == 2 && np == 2 && pv[0] == bv[0] && pv[1] < bv[1])))
		return;
	STR_FMT(title, "ptxas %s cannot compile for CUDA %s PTX (%s %s)", fw->ptxas_version, fw->built_cuda,
		fw->name, fw->version);
	fd = fw_finding(out, e, fw, "lib.ptxas_missing", SEV_WARN, title);
	finding_evidence(fd, "ptxas %s (CUDA %s); %s was built with CUDA %s", fw->ptxas, fw->ptxas_version,
			 fw->name, fw->built_cuda);
	xla_fix(fd, e, fw, "a ptxas at least as new as the build's CUDA");
}

/* ---- the rule ----------------------------------------------------------------------------------- */

void
rule_fw(const struct facts *f, struct findings *out)
{
	int i, j;

	for (i = 0; i < f->npython && i < MAX_PYENVS; i++) {
		const struct python_env_facts *e = &f->python[i];

		if (!strcmp(e->kind, "windows"))
			continue; /* a Windows install seen from WSL2: rule_host.c */
		check_tf_packages(f, e, out);
		for (j = 0; j < e->nframeworks && j < MAX_FRAMEWORKS; j++) {
			const struct framework_facts *fw = &e->frameworks[j];
			size_t first = out->n;
			bool dnn;

			check_cpu_only(f, e, fw, out);
			check_python(f, e, fw, out);
			/* no NVIDIA GPU at all (hw.no_nvidia_gpu says so): what
			 * the GPU path would load does not matter */
			if (f->pci_valid && !has_gpu(f) && !fw->live.ran)
				continue;
			check_arch(f, e, fw, out);
			if (!strcmp(fw->name, "jax"))
				check_jax(f, e, fw, out);
			/* fw.and_cuda_missing explains the lib.*_missing of the
			 * same environment (causes.c) */
			check_and_cuda(f, e, fw, out);
			dnn = check_cudnn_version(f, e, fw, out);
			check_missing(f, e, fw, dnn, out);
			check_cuda_version(e, fw, out);
			check_shadowed(f, e, fw, out);
			check_driver(f, e, fw, out);
			check_ldpath(f, e, fw, out);
			check_xla_toolchain(e, fw, out);
			if (fw->live.ran) {
				/* doctor --deep; the static findings above explain */
				check_live_gpu(f, e, fw, out, first);
				check_live_mismatch(f, e, fw, out);
			}
		}
	}
}
