/*
 * fw_common.c - what the framework rules share: distribution names (PEP 503),
 * the pip and conda command prefixes of one environment, the header of every
 * framework finding, and the pip wheel that provides a CUDA soname.
 */
#include "diag/fw_common.h"
#include "diag/fix.h"
#include "diag/rule_util.h"
#include "base/buf.h"
#include "base/path.h"
#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"
#include "kb/runs_on.h"

#include <string.h>

/* ---- small helpers -------------------------------------------------------------- */

int
fw_major_of(const char *v)
{
	int m;

	return vers_parse(v, &m, 1) == 1 ? m : -1;
}

/* PEP 503 comparison of two distribution names. */
bool
fw_pkg_eq(const char *a, const char *b)
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

const struct pypkg_facts *
fw_env_pkg(const struct python_env_facts *e, const char *name)
{
	int i;

	for (i = 0; i < e->npkgs && i < MAX_PYPKGS; i++)
		if (fw_pkg_eq(e->pkgs[i].name, name))
			return &e->pkgs[i];
	return NULL;
}

/* "jax-cuda13-plugin" -> 13 for kind "plugin"; -1 otherwise. */
int
fw_jax_cuda_pkg(const char *name, const char *kind)
{
	char want[48];
	int v;

	if (strncmp(name, "jax-cuda", 8) != 0 || vers_parse(name + 8, &v, 1) != 1 || v <= 0 || v > 99)
		return -1;
	STR_FMT(want, "jax-cuda%d-%s", v, kind);
	return fw_pkg_eq(name, want) ? v : -1;
}

/* An NVIDIA GPU this environment could use. */
bool
fw_has_gpu(const struct facts *f)
{
	return f->ngpus > 0 || (f->host.wsl && f->host.wsl_libcuda);
}

/* "<interpreter> -m pip " of this environment. */
void
fw_add_pip(struct buf *b, const struct python_env_facts *e)
{
	char py[F_PATH];

	if (e->interpreter[0])
		STR_COPY(py, e->interpreter);
	else
		STR_FMT(py, "%s/bin/python", e->path);
	buf_add_shquoted(b, py);
	buf_adds(b, " -m pip ");
}

bool
fw_is_conda(const struct python_env_facts *e)
{
	return !strcmp(e->kind, "conda");
}

/* "conda install -p <env> -c conda-forge " */
void
fw_add_conda(struct buf *b, const struct python_env_facts *e)
{
	buf_adds(b, "conda install -p ");
	buf_add_shquoted(b, e->path);
	buf_adds(b, " -c conda-forge ");
}

struct finding *
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


/* ---- lib.*: the libraries a framework would load --------------------------------------------- */

/* soname stem: "libcublasLt.so.12" -> "cublasLt". */
void
fw_soname_stem(const char *soname, char *out, size_t size)
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
int
fw_soname_major(const char *soname)
{
	const char *so = strstr(soname, ".so.");

	return so ? fw_major_of(so + 4) : -1;
}

/* The pip wheel (without version) that provides a soname, for CUDA major
 * cm; "" when none is known. From CUDA 13 the toolkit wheels dropped the
 * -cuNN suffix (nvidia-cuda-runtime, nvidia-cublas); cuDNN, NCCL and
 * cuSPARSELt kept it. */
void
fw_wheel_for(const char *soname, int cm, char *out, size_t size)
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
	fw_soname_stem(soname, stem, sizeof(stem));
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
		if (fw_pkg_eq(pins[i].package, wheel))
			return pins[i].requirement;
	return NULL;
}

/* "nvidia-cudnn-cu12==8.9.4.25" or "nvidia-cudnn-cu12==8.9.*" for a soname. */
bool
fw_wheel_spec(const struct framework_facts *fw, const char *soname, char *out, size_t size)
{
	char wheel[48], rel[40];
	const char *pin;
	int cm = fw_major_of(fw->built_cuda);

	if (cm <= 0)
		return false;
	fw_wheel_for(soname, cm, wheel, sizeof(wheel));
	if (!wheel[0])
		return false;
	vers_release(fw->version, rel, sizeof(rel));
	if (!strcmp(fw->name, "tensorflow") && (pin = tf_pin(rel, wheel))) {
		/* the pinned cuDNN must be the major the build loads */
		if (!str_starts(wheel, "nvidia-cudnn") || fw_soname_major(soname) == fw_major_of(pin + 2)) {
			str_fmt(out, size, "%s%s", wheel, pin);
			return true;
		}
	}
	if (str_starts(wheel, "nvidia-cudnn")) {
		int sm = fw_soname_major(soname);
		if (fw->built_cudnn[0] && fw_major_of(fw->built_cudnn) == sm) {
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

/* ---- the GPU code of an installed build ------------------------------------------------- */

/* Append capability word w ("8.0") to a space-separated list. */
static void
add_cc(char *list, size_t size, const char *w)
{
	size_t len = strlen(list);

	if (!kb_has_word(list, w))
		str_fmt(list + len, size - len, "%s%s", len ? " " : "", w);
}

/*
 * TensorFlow's build_info list into machine code and PTX: "sm_XY" is a
 * cubin, "compute_XY" a cubin and PTX (2.3 on), a bare "X.Y" both (the
 * releases before 2.3 wrote the list that way).
 */
static void
tf_build_info_code(const char *list, struct build_code *b)
{
	char w[24], cc[16];
	size_t i;

	for (i = 0; kb_word(list, i, w, sizeof(w)) == 0; i++) {
		char *c = strchr(w, ','), *d;
		bool ptx = false, sass = true;
		size_t k;

		if (c)
			*c = '\0';
		if (!strncmp(w, "sm_", 3)) {
			d = w + 3;
		} else if (!strncmp(w, "compute_", 8)) {
			d = w + 8;
			ptx = true;
		} else {
			int v[2];
			if (vers_parse(w, v, 2) != 2)
				continue;
			STR_FMT(cc, "%d.%d", v[0], v[1]);
			add_cc(b->sass, sizeof(b->sass), cc);
			add_cc(b->ptx, sizeof(b->ptx), cc);
			continue;
		}
		k = strspn(d, "0123456789");
		if (k < 2 || k > 3)
			continue;
		STR_FMT(cc, "%.*s.%c%s", (int)k - 1, d, d[k - 1], d[k] == 'a' || d[k] == 'f' ? (char[]){d[k], 0} : "");
		if (sass)
			add_cc(b->sass, sizeof(b->sass), cc);
		if (ptx)
			add_cc(b->ptx, sizeof(b->ptx), cc);
	}
}

bool
fw_installed_code(const struct framework_facts *fw, struct build_code *b)
{
	char cuda[16] = "";

	if (fw->built_cuda[0])
		vers_truncate(fw->built_cuda, 2, cuda, sizeof(cuda));
	runs_code_from_kb(fw->name, fw->version, "linux", cuda, b);
	if (fw->targets.file[0]) {
		STR_COPY(b->sass, fw->targets.sass);
		STR_COPY(b->ptx, fw->targets.ptx);
		STR_COPY(b->ptx_isa, fw->targets.ptx_isa);
		STR_COPY(b->from, "fatbin");
		b->kb_source = NULL;
		return b->sass[0] || b->ptx[0];
	}
	if (!strcmp(fw->name, "tensorflow") && fw->compute_capabilities[0]) {
		b->sass[0] = b->ptx[0] = '\0';
		tf_build_info_code(fw->compute_capabilities, b);
		STR_COPY(b->from, "build_info");
		b->kb_source = NULL;
		return true;
	}
	return b->from[0] != '\0';
}
