/*
 * fw_release.c - which release, CUDA variant or toolkit a framework fix
 * proposes: whether the driver runs a CUDA release; the release and variant
 * that run on this machine, asked of plan_make() (the one decision of
 * which code runs on which GPU with which driver, plan/plan.h); the torch
 * wheel index for a release, the TensorFlow build for a CUDA release and
 * the system CUDA a pre-[and-cuda] TensorFlow needs.
 */
#include "diag/fw_common.h"
#include "diag/fix.h"
#include "diag/rule_util.h"
#include "base/buf.h"
#include "base/path.h"
#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"
#include "plan/plan.h"

#include <string.h>

/* ---- the driver and CUDA releases ------------------------------------------------------ */

/*
 * Whether the driver runs CUDA `cuda` (major.minor, or a major alone):
 * 1 yes (directly or by minor-version compatibility), 0 no, -1 unknown.
 */
int
fw_driver_runs(const struct facts *f, const char *cuda)
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

/* ---- what runs on this machine: the plan's one decision ----------------------------------- */

bool
fw_plan(const struct facts *f, const struct python_env_facts *e, int pfw, const char *want,
	const char *cc, struct plan *p)
{
	struct plan_machine m;

	plan_machine_from_facts(f, &m);
	if (fw_has_gpu(f) && !m.gpu_present) {
		/* WSL2: the GPU is there, behind the Windows driver */
		m.gpu_present = true;
		m.gpu_known = false;
	}
	if (cc && cc[0])
		STR_COPY(m.compute_capability, cc);
	STR_COPY(m.python, e->version);
	return plan_make(&m, pfw, want, p) == 0 && p->ok;
}

bool
fw_torch_variant(const struct facts *f, const struct python_env_facts *e, const char *version,
		 char *out, size_t size)
{
	static struct plan p;

	out[0] = '\0';
	if (!fw_plan(f, e, PLAN_TORCH, version, NULL, &p) || !p.gpu || !p.variant[0])
		return false;
	str_copy(out, size, p.variant);
	return true;
}

/* `pip install torch==V --index-url .../cuXYZ` line(s) for a torch release. */
bool
fw_torch_install(struct buf *b, const struct facts *f, const struct python_env_facts *e,
	      const char *version)
{
	const struct kb_torch_build *row = kb_torch(version);
	char cuda[16], tag[16], spec[64];

	if (!row || !fw_torch_variant(f, e, row->version, cuda, sizeof(cuda)))
		return false;
	torch_tag(cuda, tag, sizeof(tag));
	if (!tag[0])
		return false;
	STR_FMT(spec, "torch==%s", row->version);
	fw_add_pip(b, e);
	buf_adds(b, "install --force-reinstall ");
	buf_add_shquoted(b, spec);
	buf_addf(b, " --index-url %s%s\n", TORCH_INDEX, tag);
	return true;
}

/* Python py (may be "") is not in a known [min, max]. */
bool
fw_py_outside(const char *py, const char *min, const char *max)
{
	int v[2];

	return vers_parse(py, v, 2) == 2 && (min[0] || max[0]) && !kb_in_range(py, min, max);
}

bool
fw_newest(const struct facts *f, const struct python_env_facts *e, int pfw, char *out, size_t size)
{
	static struct plan p;

	out[0] = '\0';
	if (!fw_plan(f, e, pfw, NULL, NULL, &p) || !p.gpu)
		return false;
	str_copy(out, size, p.version);
	return true;
}

/* The TensorFlow tested build row for a release (exact, else its minor). */
const struct kb_tf_build *
fw_tf_build(const char *version, const char *kind)
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

bool
fw_tf_has_and_cuda(const char *version)
{
	const struct kb_tf_feature *ft = version[0] ? kb_tf_features(version) : NULL;

	return ft && ft->and_cuda_extra;
}

/* The pip requirement that installs the GPU TensorFlow `version`. */
void
fw_tf_gpu_spec(const char *version, char *out, size_t size)
{
	if (fw_tf_has_and_cuda(version))
		str_fmt(out, size, "tensorflow[and-cuda]==%s", version);
	else if (vers_cmp(version, "2.1") < 0)
		str_fmt(out, size, "tensorflow-gpu==%s", version);
	else
		str_fmt(out, size, "tensorflow==%s", version);
}

/* The CUDA/cuDNN a pre-[and-cuda] TensorFlow needs from outside pip. */
void
fw_tf_system_cuda(struct buf *b, const struct python_env_facts *e, const char *version)
{
	const struct kb_tf_build *row = fw_tf_build(version, "gpu");
	char spec[64];

	if (!row || !row->cuda[0])
		return;
	buf_addf(b, "TensorFlow %s loads CUDA %s and cuDNN %s from the system (its tested build "
		    "configuration): install that toolkit and cuDNN and put their lib64 directories in "
		    "LD_LIBRARY_PATH",
		 version, row->cuda, row->cudnn);
	if (fw_is_conda(e)) {
		buf_adds(b, ", or into this conda environment:\n");
		fw_add_conda(b, e);
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
		    fw_py_outside(py, r[i].python_min, r[i].python_max))
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
void
fw_tf_system_fix(struct buf *b, const struct facts *f, const struct python_env_facts *e,
	      const struct framework_facts *fw, const char *rel, const char *sonames[], int ns)
{
	const struct kb_tf_build *row = fw_tf_build(rel, "gpu"), *alt;
	const struct lib_facts *tk = system_toolkit(f);
	char want[16], have[16], pkg[48], dir[F_PATH], spec[64];
	int i;

	if (!row || !row->cuda[0] || !tk || fw_is_conda(e)) {
		fw_tf_system_cuda(b, e, rel);
		return;
	}
	vers_truncate(row->cuda, 2, want, sizeof(want));
	vers_truncate(tk->version, 2, have, sizeof(have));
	if (!strcmp(want, have) || fw_major_of(want) <= 0) {
		fw_tf_system_cuda(b, e, rel);
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
	STR_FMT(pkg, "cuda-toolkit-%d-%s", fw_major_of(want), strchr(want, '.') ? strchr(want, '.') + 1 : "0");
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
			 fw_major_of(amm) != fw_major_of(rel) ? ", if the code runs on TensorFlow 2" : "");
		if (vers_cmp(amm, "2.1") < 0)
			STR_FMT(spec, "tensorflow-gpu==%s.*", amm);
		else
			STR_FMT(spec, "tensorflow==%s.*", amm);
		if (fw->package[0] && !fw_pkg_eq(fw->package, "tensorflow") && vers_cmp(amm, "2.1") >= 0) {
			fw_add_pip(b, e);
			buf_adds(b, "uninstall -y ");
			buf_add_shquoted(b, fw->package);
			buf_addch(b, '\n');
		}
		fw_add_pip(b, e);
		buf_adds(b, "install ");
		buf_add_shquoted(b, spec);
		buf_addch(b, '\n');
	}
}
