/*
 * frameworks.c - what each Python environment's TensorFlow, PyTorch, JAX
 * and CuPy was built for, and which CUDA library files it would really
 * load (probe_frameworks), read from files alone: no Python is run.
 *
 * Input: facts->python[] (site_packages and the GPU-relevant packages, from
 * pyenv.c) and facts->libs[] (libs.c, for versions). Per framework:
 *
 *   tensorflow  tensorflow/python/platform/build_info.py: a dict or
 *               OrderedDict `build_info` (2.x) or module-level
 *               cuda_version_number / cudnn_version_number / is_cuda_build
 *               (1.x); in 1.15 and 2.0 wheels all of it is under
 *               tensorflow_core/ instead; extension
 *               python/_pywrap_tensorflow_internal.so, else
 *               libtensorflow_framework.so.2/.1; libraries: its CUDA
 *               DT_NEEDED plus the sonames TF's dso loader dlopens for that
 *               release (kb_tf_sonames; TensorRT left out, it is optional)
 *   torch       torch/version.py (__version__, cuda, hip); extension
 *               torch/lib/libtorch_cuda.so (absent in CPU builds)
 *   jax         jaxlib and the jax-cudaNN-plugin / -pjrt wheels; extension
 *               jax_plugins/xla_cudaNN/xla_cuda_plugin.so (the .so files of
 *               jax_cudaNN_plugin/ add their DT_NEEDED), old jaxlib+cudaNN:
 *               jaxlib/xla_extension.so
 *   cupy        cupy-cudaNNx / cupy-cudaNNN; cupy_backends/cuda/api/runtime*.so
 *
 * The GPU code each CUDA build carries comes from fw_targets.c.
 *
 * For CUDA builds of tensorflow and jax, also the libdevice.10.bc and ptxas
 * XLA would use and the CUDA release of that ptxas (xla_toolchain).
 *
 * Each library is resolved with sys/ldresolve.c (the extension's RPATH or
 * RUNPATH with $ORIGIN, LD_LIBRARY_PATH, the root's /etc/ld.so.cache, the
 * default directories). Its version, as libs.c would give it: the
 * facts->libs[] row of the same real file, else the nvidia-* wheel whose
 * RECORD lists it, else the file name. Not modelled: libraries already
 * loaded under the same soname, and the RPATHs of the objects that load the
 * extension.
 */
#include "probe/probe.h"
#include "probe/fw_targets.h"
#include "base/path.h"
#include "base/str.h"
#include "base/vers.h"
#include "base/xalloc.h"
#include "kb/kb.h"
#include "sys/elf.h"
#include "sys/ldcache.h"
#include "sys/ldresolve.h"
#include "sys/root.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PYFILE (256u << 10)     /* build_info.py, version.py */
#define MAX_RECORD (4u << 20)
#define MAX_RECORDS_TOTAL (32u << 20)
#define MAX_DISTINFO 256
#define MAX_PLUGIN_SOS 16
#define MAX_TF_SONAMES 32

/* RECORD files of the nvidia-* wheels of one site-packages directory. */
struct wheel {
	char version[40];
	char *record;
};

struct site_wheels {
	char site[F_PATH];
	int n;
	struct wheel *w;
};

struct ctx {
	struct facts *f;
	const char *ldpath;
	const struct ldcache *cache;   /* ldcache_system(); NULL when none */
	int nsites;
	struct site_wheels *sites;
	bool full_noted;
	bool windows;                  /* the environment is a Windows one (WSL2 /mnt/c):
	                                  its DLLs are not for this loader */
};

/* ---- names ---------------------------------------------------------------- */

static const char *
base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* A package name under PEP 503 normalisation: lower case, each run of
 * '-', '_', '.' one '-'. */
static void
norm_name(const char *s, char *out, size_t size)
{
	size_t n = 0;

	for (; *s && n + 1 < size; s++) {
		if (*s == '-' || *s == '_' || *s == '.') {
			if (n == 0 || out[n - 1] != '-')
				out[n++] = '-';
		} else {
			out[n++] = (char)(*s >= 'A' && *s <= 'Z' ? *s + 32 : *s);
		}
	}
	out[n] = '\0';
}

static bool
pkg_name_eq(const char *a, const char *b)
{
	char na[F_NAME], nb[F_NAME];

	norm_name(a, na, sizeof(na));
	norm_name(b, nb, sizeof(nb));
	return strcmp(na, nb) == 0;
}

static const struct pypkg_facts *
env_pkg(const struct python_env_facts *e, const char *name)
{
	int i;

	for (i = 0; i < e->npkgs && i < MAX_PYPKGS; i++)
		if (pkg_name_eq(e->pkgs[i].name, name))
			return &e->pkgs[i];
	return NULL;
}

/* "jax-cuda13-plugin" with kind "plugin" -> 13; -1 when name is not
 * jax-cudaNN-<kind>. */
static int
jax_cuda_pkg(const char *name, const char *kind)
{
	char norm[F_NAME], want[F_NAME];
	int v;

	norm_name(name, norm, sizeof(norm));
	if (!str_starts(norm, "jax-cuda") || vers_parse(norm + 8, &v, 1) != 1 || v <= 0 || v > 99)
		return -1;
	STR_FMT(want, "jax-cuda%d-%s", v, kind);
	return strcmp(norm, want) == 0 ? v : -1;
}

/* s is a dotted number: "12.2", "8". */
static bool
numeric(const char *s)
{
	size_t n = strlen(s);

	return n && *s >= '0' && *s <= '9' && s[n - 1] != '.' && strspn(s, "0123456789.") == n;
}

/* CUDA libraries a framework needs; the driver's own (libcuda,
 * libnvidia-*) are driverlibs.c's. */
static bool
is_cuda_lib(const char *soname)
{
	static const char *const stems[] = {
		"cudart", "cublas", "cublasLt", "cufft", "cufftw", "curand", "cusolver",
		"cusolverMg", "cusparse", "cusparseLt", "nccl", "nvrtc", "nvJitLink", "nvToolsExt",
		"nvtx3interop", "cupti", "cufile", "nvinfer", "nvinfer_plugin", "nvshmem_host",
		"nvperf_host", NULL,
	};
	const char *so;
	size_t n;
	int i;

	if (!str_starts(soname, "lib") || !(so = strstr(soname + 3, ".so")))
		return false;
	n = (size_t)(so - (soname + 3));
	if (n >= 5 && strncmp(soname + 3, "cudnn", 5) == 0)
		return true;
	for (i = 0; stems[i]; i++)
		if (strlen(stems[i]) == n && strncmp(soname + 3, stems[i], n) == 0)
			return true;
	return false;
}

/* ---- Python literals -------------------------------------------------------- */

static const char *
skip_space(const char *p, bool newlines)
{
	while (*p == ' ' || *p == '\t' || (newlines && (*p == '\n' || *p == '\r')))
		p++;
	return p;
}

/* Append n bytes of w to out[size] after a space when out is not empty;
 * cut when full. */
static void
append_word(char *out, size_t size, const char *w, size_t n)
{
	size_t len = strlen(out);

	if (len && len + 1 < size)
		out[len++] = ' ';
	if (len + n + 1 > size)
		n = size - 1 - len;
	memcpy(out + len, w, n);
	out[len + n] = '\0';
}

/* A quoted string at p (one line); *end after its closing quote. */
static bool
py_string(const char *p, const char **s, size_t *n, const char **end)
{
	char q = *p;
	const char *e;

	if (q != '\'' && q != '"')
		return false;
	for (e = p + 1; *e && *e != q && *e != '\n'; e++)
		if (*e == '\\' && e[1] && e[1] != '\n')
			e++;
	if (*e != q)
		return false;
	*s = p + 1;
	*n = (size_t)(e - p - 1);
	*end = e + 1;
	return true;
}

/*
 * The literal at p into out[size]: a string's contents; a list or tuple of
 * strings as its items joined by spaces; True, False, None and numbers as
 * written. Returns false for anything else.
 */
static bool
py_literal(const char *p, char *out, size_t size)
{
	const char *s, *e;
	size_t n;

	out[0] = '\0';
	if (py_string(p, &s, &n, &e)) {
		append_word(out, size, s, n);
		return true;
	}
	if (*p == '[' || *p == '(') {
		char close = *p == '[' ? ']' : ')';
		int items = 0;

		for (p = skip_space(p + 1, true); *p && *p != close && items < 256; items++) {
			if (!py_string(p, &s, &n, &e))
				return false;
			append_word(out, size, s, n);
			p = skip_space(e, true);
			if (*p == ',')
				p = skip_space(p + 1, true);
		}
		return *p == close;
	}
	n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._");
	if (n == 0)
		return false;
	append_word(out, size, p, n);
	return true;
}

/* `name = literal` or `name: annotation = literal` at the start of a line. */
static bool
py_assignment(const char *text, const char *name, char *out, size_t size)
{
	size_t n = strlen(name);
	const char *line;

	for (line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		const char *q;

		if (strncmp(line, name, n) != 0)
			continue;
		q = skip_space(line + n, false);
		if (*q == ':')
			while (*q && *q != '=' && *q != '\n')
				q++;
		if (*q != '=' || q[1] == '=')
			continue;
		if (py_literal(skip_space(q + 1, false), out, size))
			return true;
	}
	return false;
}

/* The value of key 'key' wherever the text maps it: {'key': v},
 * OrderedDict([('key', v)]) or x['key'] = v. */
static bool
py_key(const char *text, const char *key, char *out, size_t size)
{
	size_t n = strlen(key);
	const char *p;

	for (p = text; (p = strstr(p, key)); p += n) {
		const char *q = p + n;

		if (p == text || (p[-1] != '\'' && p[-1] != '"') || *q != p[-1])
			continue;
		q = skip_space(q + 1, true);
		if (*q == ']') {
			q = skip_space(q + 1, false);
			if (*q != '=' || q[1] == '=')
				continue;
		} else if (*q != ':' && *q != ',') {
			continue;
		}
		if (py_literal(skip_space(q + 1, true), out, size))
			return true;
	}
	return false;
}

/* Windows builds write '64_112' for CUDA 11.2 and '64_8' for cuDNN 8. */
static void
windows_version(char *v, size_t size, bool cuda)
{
	char digits[16];
	size_t n;

	if (!str_starts(v, "64_"))
		return;
	STR_COPY(digits, v + 3);
	n = strlen(digits);
	if (n == 0 || strspn(digits, "0123456789") != n)
		return;
	if (cuda && n >= 3)
		str_fmt(v, size, "%.*s.%s", (int)(n - 1), digits, digits + n - 1);
	else
		str_copy(v, size, digits);
}

static char *
read_site_file(const char *site, const char *rel)
{
	char path[F_PATH];
	size_t len;

	str_fmt(path, sizeof(path), "%s/%s", site, rel);
	return root_read_all(path, MAX_PYFILE, &len, NULL);
}

static bool
site_has(const char *site, const char *rel)
{
	char path[F_PATH];

	str_fmt(path, sizeof(path), "%s/%s", site, rel);
	return root_exists(path);
}

/* ---- versions of resolved files ---------------------------------------------- */

static void
load_site_wheels(struct site_wheels *s, struct facts *f)
{
	size_t total = 0;
	char **names;
	int n, i;

	n = root_list(s->site, &names);
	for (i = 0; i < n; i++) {
		const char *name = names[i], *dash;
		char path[F_PATH];
		struct wheel *w;
		size_t len, vlen;
		char *data;

		if (!str_ends(name, ".dist-info") ||
		    !(str_starts(name, "nvidia_") || str_starts(name, "nvidia-")))
			continue;
		dash = strchr(name, '-');
		if (!dash || dash[1] < '0' || dash[1] > '9')
			continue;
		if (s->n >= MAX_DISTINFO || total >= MAX_RECORDS_TOTAL) {
			facts_note(f, "frameworks", "%s: more nvidia-* package records than read (%d, "
				   "%zu bytes): a library of the others has no version here", s->site,
				   s->n, total);
			break;
		}
		str_fmt(path, sizeof(path), "%s/%s/RECORD", s->site, name);
		if (!(data = root_read_all(path, MAX_RECORD, &len, NULL)))
			continue;
		total += len;
		s->w = xrealloc(s->w, (size_t)(s->n + 1) * sizeof(*s->w));
		w = &s->w[s->n++];
		vlen = strlen(dash + 1) - strlen(".dist-info");
		str_copy(w->version, vlen + 1 < sizeof(w->version) ? vlen + 1 : sizeof(w->version),
			dash + 1);
		w->record = data;
	}
	root_free_list(names, n);
}

static struct site_wheels *
site_wheels(struct ctx *c, const char *site)
{
	struct site_wheels *s;
	int i;

	for (i = 0; i < c->nsites; i++)
		if (strcmp(c->sites[i].site, site) == 0)
			return &c->sites[i];
	c->sites = xrealloc(c->sites, (size_t)(c->nsites + 1) * sizeof(*c->sites));
	s = &c->sites[c->nsites++];
	memset(s, 0, sizeof(*s));
	STR_COPY(s->site, site);
	load_site_wheels(s, c->f);
	return s;
}

/* The version of the nvidia-* wheel whose RECORD lists `path`. */
static bool
wheel_version(struct ctx *c, const char *path, char *out, size_t size)
{
	const char *m = strstr(path, "/site-packages/");
	struct site_wheels *s;
	char site[F_PATH];
	const char *rel;
	size_t n, rlen;
	int i;

	if (!m)
		m = strstr(path, "/dist-packages/");
	if (!m)
		return false;
	n = (size_t)(m - path) + strlen("/site-packages");
	if (n >= sizeof(site))
		return false;
	memcpy(site, path, n);
	site[n] = '\0';
	rel = path + n + 1;
	rlen = strlen(rel);
	s = site_wheels(c, site);
	for (i = 0; i < s->n; i++) {
		const char *p;

		for (p = s->w[i].record; (p = strstr(p, rel)); p += rlen) {
			if ((p == s->w[i].record || p[-1] == '\n') && p[rlen] == ',') {
				str_copy(out, size, s->w[i].version);
				return true;
			}
		}
	}
	return false;
}

/* "libcudnn.so.9.14.0" -> "9.14.0"; false without a numeric suffix. */
static bool
filename_version(const char *path, char *out, size_t size)
{
	const char *so = strstr(base_name(path), ".so.");
	size_t n;

	if (!so || so[4] < '0' || so[4] > '9')
		return false;
	n = strlen(so + 4);
	if (strspn(so + 4, "0123456789.") != n)
		return false;
	str_copy(out, size, so + 4);
	return true;
}

/* A candidate whose major contradicts the soname's is not this file's
 * version (libs.c's rule). */
static bool
agrees_with_soname(const char *soname, const char *v)
{
	const char *so = strstr(soname, ".so.");
	int a, b;

	if (!so || vers_parse(so + 4, &a, 1) != 1)
		return true;
	return vers_parse(v, &b, 1) == 1 && a == b;
}

static void
lib_version(struct ctx *c, struct resolved_lib_facts *r, const char *real)
{
	struct facts *f = c->f;
	char v[40];
	int i;

	for (i = 0; i < f->nlibs && i < MAX_LIBS; i++) {
		if (f->libs[i].version[0] && strcmp(f->libs[i].real_path, real) == 0) {
			STR_COPY(r->version, f->libs[i].version);
			return;
		}
	}
	if ((wheel_version(c, r->path, v, sizeof(v)) ||
	     (strcmp(real, r->path) != 0 && wheel_version(c, real, v, sizeof(v)))) &&
	    agrees_with_soname(r->soname, v)) {
		STR_COPY(r->version, v);
		return;
	}
	if (filename_version(real, v, sizeof(v)) || filename_version(r->path, v, sizeof(v)))
		STR_COPY(r->version, v);
}

/* ---- resolution --------------------------------------------------------------- */

/* The extension the loader resolves for; rpath/runpath point into info. */
struct consumer {
	bool valid;
	struct elf_info info;
	char origin[F_PATH];
	struct ld_consumer ld;
};

static void
consumer_load(struct consumer *k, const char *path)
{
	memset(k, 0, sizeof(*k));
	if (!path[0] || elf_read(path, &k->info) < 0 || !k->info.is_elf)
		return;
	k->valid = true;
	path_dir(path, k->origin, sizeof(k->origin));
	k->ld.rpath = k->info.has_rpath ? k->info.rpath : NULL;
	k->ld.runpath = k->info.has_runpath ? k->info.runpath : NULL;
	k->ld.origin = k->origin;
	k->ld.elf_class = k->info.elf_class;
	k->ld.machine = k->info.machine;
}

static void
resolve(struct ctx *c, struct framework_facts *fw, const char *soname, bool needed,
	const struct consumer *k)
{
	struct resolved_lib_facts *r;
	char dir[F_PATH], rdir[F_PATH], real[F_PATH];
	struct ld_result lr;
	int i;

	if (c->windows)
		return;
	for (i = 0; i < fw->nresolved; i++) {
		if (strcmp(fw->resolved[i].soname, soname) == 0) {
			fw->resolved[i].needed |= needed;
			return;
		}
	}
	if (fw->nresolved >= MAX_RESOLVED) {
		if (!c->full_noted)
			facts_note(c->f, "frameworks", "%s needs more than %d CUDA libraries: the rest not listed",
				fw->name, MAX_RESOLVED);
		c->full_noted = true;
		return;
	}
	r = &fw->resolved[fw->nresolved++];
	memset(r, 0, sizeof(*r));
	STR_COPY(r->soname, soname);
	r->needed = needed;
	if (!ldresolve(soname, k && k->valid ? &k->ld : NULL, c->ldpath,
		       c->cache, &lr))
		return;
	STR_COPY(r->via, ld_how_name(lr.how));
	/* the directory without ".." and links, the file by the name asked for */
	path_dir(lr.path, dir, sizeof(dir));
	if (root_realpath(dir, rdir, sizeof(rdir)) == 0)
		STR_FMT(r->path, "%s/%s", strcmp(rdir, "/") ? rdir : "", base_name(lr.path));
	else
		STR_COPY(r->path, lr.path);
	if (root_realpath(r->path, real, sizeof(real)) < 0)
		STR_COPY(real, r->path);
	lib_version(c, r, real);
}

static void
resolve_needed(struct ctx *c, struct framework_facts *fw, const struct consumer *k)
{
	int i;

	for (i = 0; k->valid && i < k->info.nneeded && i < ELF_MAX_NEEDED; i++)
		if (is_cuda_lib(k->info.needed[i]))
			resolve(c, fw, k->info.needed[i], true, k);
}

static struct framework_facts *
new_framework(struct python_env_facts *e, const char *name)
{
	struct framework_facts *fw;

	if (e->nframeworks >= MAX_FRAMEWORKS)
		return NULL;
	fw = &e->frameworks[e->nframeworks++];
	memset(fw, 0, sizeof(*fw));
	STR_COPY(fw->name, name);
	fw->cuda_build = -1;
	return fw;
}

static void
set_local_tag(struct framework_facts *fw)
{
	const char *plus = strchr(fw->version, '+');

	if (plus)
		STR_COPY(fw->local_tag, plus + 1);
}

/* The first of rels that exists under site, into out (machine path). */
static bool
first_existing(const char *site, const char *const *rels, char *out, size_t size)
{
	int i;

	for (i = 0; rels[i]; i++) {
		str_fmt(out, size, "%s/%s", site, rels[i]);
		if (root_exists(out))
			return true;
	}
	out[0] = '\0';
	return false;
}

/* ---- XLA's libdevice and ptxas (tensorflow, jax) ------------------------------ */

#define MAX_TOOLKIT_DIRS 16
#define MAX_VERSION_FILE (64u << 10)

/* "12.4" from the first "cuda-N.M" in path (/usr/local/cuda-12.4/bin); false
 * without one. */
static bool
path_cuda_version(const char *path, char *out, size_t size)
{
	const char *p;
	int v[2];

	for (p = path; (p = strstr(p, "cuda-")); p += 5) {
		if (vers_parse(p + 5, v, 2) == 2 && p[5] >= '0' && p[5] <= '9') {
			str_fmt(out, size, "%d.%d", v[0], v[1]);
			return true;
		}
	}
	return false;
}

/* The CUDA release of a toolkit directory: its real path's "cuda-N.M", else
 * version.json ("cuda": {"version": "13.0.48"}), else version.txt
 * ("CUDA Version 11.8.0"). */
static void
toolkit_version(const char *dir, char *out, size_t size)
{
	char real[F_PATH], path[F_PATH], *text, *p;
	size_t len;
	int v[2];

	out[0] = '\0';
	if (path_cuda_version(dir, out, size))
		return;
	if (root_realpath(dir, real, sizeof(real)) == 0 && path_cuda_version(real, out, size))
		return;
	str_fmt(path, sizeof(path), "%s/version.json", dir);
	if ((text = root_read_all(path, MAX_VERSION_FILE, &len, NULL))) {
		if ((p = strstr(text, "\"cuda\"")) && (p = strstr(p, "\"version\"")) &&
		    (p = strchr(p + 9, ':')) && (p = strchr(p, '"')) && vers_parse(p + 1, v, 2) == 2)
			str_fmt(out, size, "%d.%d", v[0], v[1]);
		free(text);
		if (out[0])
			return;
	}
	str_fmt(path, sizeof(path), "%s/version.txt", dir);
	if ((text = root_read_all(path, MAX_VERSION_FILE, &len, NULL))) {
		if ((p = strstr(text, "CUDA Version ")) && vers_parse(p + 13, v, 2) == 2)
			str_fmt(out, size, "%d.%d", v[0], v[1]);
		free(text);
	}
}

/* "12.4" from site's nvidia_cuda_nvcc_cuNN-12.4.131.dist-info; "" none. */
static void
nvcc_wheel_version(const char *site, char *out, size_t size)
{
	char **names;
	int n, i, v[2];

	out[0] = '\0';
	n = root_list(site, &names);
	for (i = 0; i < n && !out[0]; i++) {
		const char *dash;

		if (!str_ends(names[i], ".dist-info") ||
		    !(str_starts(names[i], "nvidia_cuda_nvcc") || str_starts(names[i], "nvidia-cuda-nvcc")))
			continue;
		if ((dash = strchr(names[i], '-')) && vers_parse(dash + 1, v, 2) == 2)
			str_fmt(out, size, "%d.%d", v[0], v[1]);
	}
	root_free_list(names, n);
}

/* Look in a toolkit-shaped directory: nvvm/libdevice/libdevice.10.bc and
 * bin/ptxas; the first found of each is kept. */
static void
xla_try_dir(struct framework_facts *fw, const char *dir, const char *version)
{
	char path[F_PATH];

	if (!dir || dir[0] != '/')
		return;
	if (!fw->libdevice[0]) {
		str_fmt(path, sizeof(path), "%s/nvvm/libdevice/libdevice.10.bc", dir);
		if (root_exists(path))
			STR_COPY(fw->libdevice, path);
	}
	if (!fw->ptxas[0]) {
		str_fmt(path, sizeof(path), "%s/bin/ptxas", dir);
		if (root_exists(path)) {
			STR_COPY(fw->ptxas, path);
			if (version)
				str_copy(fw->ptxas_version, sizeof(fw->ptxas_version), version);
			else
				toolkit_version(dir, fw->ptxas_version, sizeof(fw->ptxas_version));
		}
	}
}

/* The directory XLA_FLAGS' --xla_gpu_cuda_data_dir= names, into out. */
static bool
xla_data_dir(char *out, size_t size)
{
	const char *flags = getenv("XLA_FLAGS"), *p;
	size_t n;

	if (!flags || !(p = strstr(flags, "--xla_gpu_cuda_data_dir=")))
		return false;
	p += strlen("--xla_gpu_cuda_data_dir=");
	if (*p == '"' || *p == '\'')
		p++;
	n = strcspn(p, " \t\"'");
	if (n == 0 || n >= size)
		return false;
	memcpy(out, p, n);
	out[n] = '\0';
	return true;
}

/* /usr/local/cuda-N.M directories, newest first. */
static void
xla_versioned_toolkits(struct framework_facts *fw)
{
	char **names, *best[MAX_TOOLKIT_DIRS];
	int n, i, j, nb = 0;

	n = root_list("/usr/local", &names);
	for (i = 0; i < n && nb < MAX_TOOLKIT_DIRS; i++) {
		char *t;

		if (!str_starts(names[i], "cuda-") || names[i][5] < '0' || names[i][5] > '9')
			continue;
		best[nb++] = names[i];
		for (j = nb - 1; j > 0 && vers_cmp(best[j] + 5, best[j - 1] + 5) > 0; j--) {
			t = best[j];
			best[j] = best[j - 1];
			best[j - 1] = t;
		}
	}
	for (i = 0; i < nb && (!fw->libdevice[0] || !fw->ptxas[0]); i++) {
		char dir[F_PATH];

		str_fmt(dir, sizeof(dir), "/usr/local/%s", best[i]);
		xla_try_dir(fw, dir, NULL);
	}
	root_free_list(names, n);
}

/* ptxas on PATH (its toolkit is the directory above bin/). */
static void
xla_path_ptxas(struct framework_facts *fw)
{
	const char *p = getenv("PATH"), *end;

	for (; p && *p && !fw->ptxas[0]; p = *end ? end + 1 : end) {
		char dir[F_PATH], path[F_PATH];
		size_t n;

		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		n = (size_t)(end - p);
		if (n == 0 || n >= sizeof(dir) || *p != '/')
			continue;
		memcpy(dir, p, n);
		dir[n] = '\0';
		str_fmt(path, sizeof(path), "%s/ptxas", dir);
		if (!root_exists(path))
			continue;
		STR_COPY(fw->ptxas, path);
		if (str_ends(dir, "/bin")) {
			dir[n - 4] = '\0';
			toolkit_version(dir, fw->ptxas_version, sizeof(fw->ptxas_version));
		} else {
			path_cuda_version(dir, fw->ptxas_version, sizeof(fw->ptxas_version));
		}
	}
}

/* Where XLA finds libdevice.10.bc and ptxas, in its order: XLA_FLAGS'
 * --xla_gpu_cuda_data_dir, the nvidia-cuda-nvcc wheel (nvidia/cuda_nvcc, or
 * nvidia/cu13 for CUDA 13), CUDA_HOME / CUDA_PATH,
 * /usr/local/cuda, /usr/local/cuda-N.M (newest first), ptxas on PATH.
 * (Triton's bundled ptxas serves Triton only, never XLA.) */
static void
xla_toolchain(struct framework_facts *fw, const char *site)
{
	static const char *const envs[] = { "CUDA_HOME", "CUDA_PATH", NULL };
	char dir[F_PATH], v[16];
	int i;

	if (fw->cuda_build != 1)
		return;
	if (xla_data_dir(dir, sizeof(dir)))
		xla_try_dir(fw, dir, NULL);
	/* the nvidia-cuda-nvcc wheel: nvidia/cuda_nvcc up to CUDA 12, the one
	 * nvidia/cu13 tree of all CUDA 13 wheels after */
	str_fmt(dir, sizeof(dir), "%s/nvidia/cuda_nvcc", site);
	if (!root_is_dir(dir))
		str_fmt(dir, sizeof(dir), "%s/nvidia/cu13", site);
	if (root_is_dir(dir)) {
		nvcc_wheel_version(site, v, sizeof(v));
		xla_try_dir(fw, dir, v);
	}
	for (i = 0; envs[i]; i++)
		xla_try_dir(fw, getenv(envs[i]), NULL);
	xla_try_dir(fw, "/usr/local/cuda", NULL);
	if (!fw->libdevice[0] || !fw->ptxas[0])
		xla_versioned_toolkits(fw);
	if (!fw->ptxas[0])
		xla_path_ptxas(fw);
}

/* ---- TensorFlow --------------------------------------------------------------- */

static void
tf_build_info(struct framework_facts *fw, const char *site, const char *pkgdir)
{
	char rel[64], v[32];
	char *text;

	STR_FMT(rel, "%s/python/platform/build_info.py", pkgdir);
	text = read_site_file(site, rel);

	if (!text)
		return;
	if (py_key(text, "cuda_version", fw->built_cuda, sizeof(fw->built_cuda)) ||
	    py_assignment(text, "cuda_version_number", fw->built_cuda, sizeof(fw->built_cuda)))
		windows_version(fw->built_cuda, sizeof(fw->built_cuda), true);
	if (py_key(text, "cudnn_version", fw->built_cudnn, sizeof(fw->built_cudnn)) ||
	    py_assignment(text, "cudnn_version_number", fw->built_cudnn, sizeof(fw->built_cudnn)))
		windows_version(fw->built_cudnn, sizeof(fw->built_cudnn), false);
	if (!numeric(fw->built_cuda))
		fw->built_cuda[0] = '\0';
	if (!numeric(fw->built_cudnn))
		fw->built_cudnn[0] = '\0';
	py_key(text, "cuda_compute_capabilities", fw->compute_capabilities,
		sizeof(fw->compute_capabilities));
	if (py_key(text, "is_cuda_build", v, sizeof(v)) ||
	    py_assignment(text, "is_cuda_build", v, sizeof(v))) {
		if (strcmp(v, "True") == 0)
			fw->cuda_build = 1;
		else if (strcmp(v, "False") == 0)
			fw->cuda_build = 0;
	}
	free(text);
}

static void
tf_dlopened(struct ctx *c, struct framework_facts *fw, const struct consumer *k)
{
	const struct kb_tf_soname *rows[MAX_TF_SONAMES];
	char rel[40], soname[F_NAME];
	size_t n, i;
	int cudnn_major;

	vers_release(fw->version, rel, sizeof(rel));
	n = kb_tf_sonames(rel, rows, MAX_TF_SONAMES);
	if (n > MAX_TF_SONAMES)
		n = MAX_TF_SONAMES;
	if (vers_parse(fw->built_cudnn, &cudnn_major, 1) != 1)
		cudnn_major = -1;
	for (i = 0; i < n; i++) {
		if (str_starts(rows[i]->library, "nvinfer") || !rows[i]->linux_soname[0])
			continue;
		STR_COPY(soname, rows[i]->linux_soname);
		/* the build's own cuDNN major is what its loader asks for */
		if (strcmp(rows[i]->library, "cudnn") == 0 && cudnn_major > 0)
			STR_FMT(soname, "libcudnn.so.%d", cudnn_major);
		resolve(c, fw, soname, false, k);
	}
}

static void
probe_tensorflow(struct ctx *c, struct python_env_facts *e)
{
	static const char *const pkgs[] = {
		"tensorflow", "tensorflow-gpu", "tensorflow-cpu", "tf-nightly", "tensorflow-intel",
		"tensorflow-macos", NULL,
	};
	static const char *const exts[] = {
		"python/_pywrap_tensorflow_internal.so", "libtensorflow_framework.so.2",
		"libtensorflow_framework.so.1", NULL,
	};
	const struct pypkg_facts *p = NULL;
	struct framework_facts *fw;
	struct consumer *k;
	const char *pkgdir;
	char rels[4][64];
	const char *relp[4];
	int i;

	for (i = 0; pkgs[i] && !p; i++)
		p = env_pkg(e, pkgs[i]);
	/* 1.15 and 2.0 wheels hold the package in tensorflow_core/ (tensorflow/
	 * is a forwarding stub); 2.1 on, tensorflow/ */
	pkgdir = site_has(e->site_packages, "tensorflow_core/python/platform/build_info.py") &&
		!site_has(e->site_packages, "tensorflow/python/platform/build_info.py") ?
		"tensorflow_core" : "tensorflow";
	if (!p && !site_has(e->site_packages, "tensorflow/python/platform/build_info.py") &&
	    strcmp(pkgdir, "tensorflow_core") != 0)
		return;
	if (!(fw = new_framework(e, "tensorflow")))
		return;
	if (p) {
		STR_COPY(fw->package, p->name);
		STR_COPY(fw->version, p->version);
		set_local_tag(fw);
	}
	tf_build_info(fw, e->site_packages, pkgdir);
	if (fw->cuda_build < 0 && p &&
	    (pkg_name_eq(p->name, "tensorflow-cpu") || pkg_name_eq(p->name, "tensorflow-macos")))
		fw->cuda_build = 0;
	for (i = 0; exts[i]; i++) {
		STR_FMT(rels[i], "%s/%s", pkgdir, exts[i]);
		relp[i] = rels[i];
	}
	relp[i] = NULL;
	first_existing(e->site_packages, relp, fw->extension, sizeof(fw->extension));
	if (fw->cuda_build == 0)
		return;
	xla_toolchain(fw, e->site_packages);
	probe_fw_targets(e, fw, pkgdir);
	k = xmalloc(sizeof(*k));
	consumer_load(k, fw->extension);
	resolve_needed(c, fw, k);
	tf_dlopened(c, fw, k);
	free(k);
}

/* ---- PyTorch ------------------------------------------------------------------ */

static void
probe_torch(struct ctx *c, struct python_env_facts *e)
{
	const struct pypkg_facts *p = env_pkg(e, "torch");
	struct framework_facts *fw;
	struct consumer *k;
	char v[64], hip[64];
	bool have_cuda = false, cuda_none = false;
	char *text;

	if (!p && !site_has(e->site_packages, "torch/version.py"))
		return;
	if (!(fw = new_framework(e, "torch")))
		return;
	STR_COPY(fw->package, "torch");
	if (p)
		STR_COPY(fw->version, p->version);
	hip[0] = '\0';
	if ((text = read_site_file(e->site_packages, "torch/version.py"))) {
		/* version.py carries the local tag a dist-info name may drop */
		if (py_assignment(text, "__version__", v, sizeof(v)) && v[0] &&
		    (!fw->version[0] || (strchr(v, '+') && !strchr(fw->version, '+'))))
			STR_COPY(fw->version, v);
		if (py_assignment(text, "cuda", v, sizeof(v))) {
			if (strcmp(v, "None") == 0) {
				cuda_none = true;
			} else if (numeric(v)) {
				STR_COPY(fw->built_cuda, v);
				have_cuda = true;
			}
		}
		if (py_assignment(text, "hip", v, sizeof(v)) && strcmp(v, "None") != 0)
			STR_COPY(hip, v);
		free(text);
	}
	set_local_tag(fw);
	str_fmt(fw->extension, sizeof(fw->extension), "%s/torch/lib/libtorch_cuda.so", e->site_packages);
	if (!root_exists(fw->extension))
		fw->extension[0] = '\0';
	if (have_cuda)
		fw->cuda_build = 1;
	else if (cuda_none || hip[0] || strcmp(fw->local_tag, "cpu") == 0 ||
		 str_starts(fw->local_tag, "rocm"))
		fw->cuda_build = 0;
	else if (fw->extension[0] || (str_starts(fw->local_tag, "cu") && numeric(fw->local_tag + 2)))
		fw->cuda_build = 1;
	else if (site_has(e->site_packages, "torch/lib"))
		fw->cuda_build = 0; /* its libraries are there, the CUDA one is not */
	if (fw->cuda_build != 0)
		probe_fw_targets(e, fw, "");
	if (!fw->extension[0])
		return;
	k = xmalloc(sizeof(*k));
	consumer_load(k, fw->extension);
	resolve_needed(c, fw, k);
	free(k);
}

/* ---- JAX ---------------------------------------------------------------------- */

/* jaxlib's old local tag "cuda12.cudnn89" -> built_cuda 12, cudnn 8.9. */
static void
jaxlib_tag(struct framework_facts *fw)
{
	const char *t = fw->local_tag, *d;
	int v;

	if (str_starts(t, "cuda") && vers_parse(t + 4, &v, 1) == 1) {
		fw->cuda_build = 1;
		STR_FMT(fw->built_cuda, "%d", v);
	}
	if ((d = strstr(t, "cudnn")) && d[5] >= '1' && d[5] <= '9') {
		size_t n = strspn(d + 5, "0123456789");
		if (n == 1)
			STR_FMT(fw->built_cudnn, "%c", d[5]);
		else if (n == 2)
			STR_FMT(fw->built_cudnn, "%c.%c", d[5], d[6]);
		else if (n >= 3)
			STR_FMT(fw->built_cudnn, "%c.%c.%.*s", d[5], d[6], (int)(n - 2), d + 7);
	}
}

/* DT_NEEDED CUDA libraries of the plugin package's own .so files. */
static void
jax_plugin_sos(struct ctx *c, struct framework_facts *fw, const char *site, int major)
{
	char dir[F_PATH], path[F_PATH];
	struct consumer *k;
	char **names;
	int n, i, used = 0;

	str_fmt(dir, sizeof(dir), "%s/jax_cuda%d_plugin", site, major);
	n = root_list(dir, &names);
	k = xmalloc(sizeof(*k));
	for (i = 0; i < n && used < MAX_PLUGIN_SOS; i++) {
		if (!str_ends(names[i], ".so"))
			continue;
		used++;
		str_fmt(path, sizeof(path), "%s/%s", dir, names[i]);
		consumer_load(k, path);
		if (!fw->extension[0] && k->valid)
			STR_COPY(fw->extension, path);
		resolve_needed(c, fw, k);
	}
	free(k);
	root_free_list(names, n);
}

static void
probe_jax(struct ctx *c, struct python_env_facts *e)
{
	const struct pypkg_facts *jax = env_pkg(e, "jax"), *jaxlib = env_pkg(e, "jaxlib");
	const struct pypkg_facts *plugin = NULL, *pjrt = NULL;
	struct framework_facts *fw;
	struct consumer *k;
	int i, major = -1, pm;

	for (i = 0; i < e->npkgs && i < MAX_PYPKGS; i++) {
		if (!plugin && (pm = jax_cuda_pkg(e->pkgs[i].name, "plugin")) > 0) {
			plugin = &e->pkgs[i];
			major = pm;
		} else if (!pjrt && (pm = jax_cuda_pkg(e->pkgs[i].name, "pjrt")) > 0) {
			pjrt = &e->pkgs[i];
			if (major < 0)
				major = pm;
		}
	}
	if (!jax && !jaxlib && !plugin && !pjrt)
		return;
	if (!(fw = new_framework(e, "jax")))
		return;
	STR_COPY(fw->package, jaxlib ? "jaxlib" : "jax");
	STR_COPY(fw->version, jaxlib ? jaxlib->version : jax ? jax->version : "");
	set_local_tag(fw);
	if (plugin || pjrt) {
		char a[F_NAME], b[F_NAME];

		norm_name((plugin ? plugin : pjrt)->name, a, sizeof(a));
		if (plugin && pjrt) {
			norm_name(pjrt->name, b, sizeof(b));
			STR_FMT(fw->plugin, "%s %s, %s %s", a, plugin->version, b, pjrt->version);
		} else {
			STR_FMT(fw->plugin, "%s %s", a, (plugin ? plugin : pjrt)->version);
		}
	}
	if (major > 0) {
		fw->cuda_build = 1;
		STR_FMT(fw->built_cuda, "%d", major);
	} else if (jaxlib) {
		fw->cuda_build = 0;
		jaxlib_tag(fw);
	}
	if (fw->cuda_build != 1)
		return;
	xla_toolchain(fw, e->site_packages);
	if (major > 0)
		str_fmt(fw->extension, sizeof(fw->extension), "%s/jax_plugins/xla_cuda%d/xla_cuda_plugin.so",
			e->site_packages, major);
	else
		str_fmt(fw->extension, sizeof(fw->extension), "%s/jaxlib/xla_extension.so",
			e->site_packages);
	if (!root_exists(fw->extension))
		fw->extension[0] = '\0';
	probe_fw_targets(e, fw, "");
	k = xmalloc(sizeof(*k));
	consumer_load(k, fw->extension);
	resolve_needed(c, fw, k);
	free(k);
	if (major > 0)
		jax_plugin_sos(c, fw, e->site_packages, major);
}

/* ---- CuPy --------------------------------------------------------------------- */

/* normalised "cupy-cuda13x" -> "13", "cupy-cuda117" -> "11.7"; "" for
 * other names. */
static void
cupy_cuda(const char *norm, char *out, size_t size)
{
	const char *d;
	size_t n;

	out[0] = '\0';
	if (!str_starts(norm, "cupy-cuda"))
		return;
	d = norm + 9;
	n = strspn(d, "0123456789");
	if (n >= 2 && d[n] == 'x' && d[n + 1] == '\0')
		str_fmt(out, size, "%.*s", (int)n, d);
	else if (n == 3 && d[n] == '\0')
		str_fmt(out, size, "%.2s.%c", d, d[2]);
	else if (n == 2 && d[n] == '\0')
		str_fmt(out, size, "%c.%c", d[0], d[1]);
}

/* The first <dir>/<prefix>*.so under site. */
static bool
find_so(const char *site, const char *dir, const char *prefix, char *out, size_t size)
{
	char d[F_PATH];
	char **names;
	int n, i;
	bool ok = false;

	str_fmt(d, sizeof(d), "%s/%s", site, dir);
	n = root_list(d, &names);
	for (i = 0; i < n && !ok; i++) {
		if (str_starts(names[i], prefix) && str_ends(names[i], ".so")) {
			str_fmt(out, size, "%s/%s", d, names[i]);
			ok = true;
		}
	}
	root_free_list(names, n);
	return ok;
}

static void
probe_cupy(struct ctx *c, struct python_env_facts *e)
{
	const struct pypkg_facts *p = NULL;
	struct framework_facts *fw;
	struct consumer *k;
	char norm[F_NAME];
	int i;

	for (i = 0; i < e->npkgs && i < MAX_PYPKGS && !p; i++) {
		norm_name(e->pkgs[i].name, norm, sizeof(norm));
		if (strcmp(norm, "cupy") == 0 || str_starts(norm, "cupy-cuda") ||
		    str_starts(norm, "cupy-rocm"))
			p = &e->pkgs[i];
	}
	if (!p)
		return;
	if (!(fw = new_framework(e, "cupy")))
		return;
	STR_COPY(fw->package, p->name);
	STR_COPY(fw->version, p->version);
	set_local_tag(fw);
	cupy_cuda(norm, fw->built_cuda, sizeof(fw->built_cuda));
	if (fw->built_cuda[0])
		fw->cuda_build = 1;
	else if (str_starts(norm, "cupy-rocm"))
		fw->cuda_build = 0;
	if (!find_so(e->site_packages, "cupy_backends/cuda/api", "runtime", fw->extension,
		     sizeof(fw->extension)) &&
	    !find_so(e->site_packages, "cupy/cuda", "", fw->extension, sizeof(fw->extension)))
		fw->extension[0] = '\0';
	if (fw->cuda_build == 0 || !fw->extension[0])
		return;
	probe_fw_targets(e, fw, "");
	k = xmalloc(sizeof(*k));
	consumer_load(k, fw->extension);
	if (fw->cuda_build < 0 && k->valid)
		for (i = 0; i < k->info.nneeded && i < ELF_MAX_NEEDED; i++)
			if (str_starts(k->info.needed[i], "libcudart.so"))
				fw->cuda_build = 1;
	resolve_needed(c, fw, k);
	free(k);
}

/* ---- the probe ---------------------------------------------------------------- */

void
probe_frameworks(struct facts *f, const struct probe_opts *o)
{
	struct ctx c;
	int i;

	(void)o;
	memset(&c, 0, sizeof(c));
	c.f = f;
	c.ldpath = getenv("LD_LIBRARY_PATH");
	for (i = 0; i < f->npython && i < MAX_PYENVS; i++) {
		struct python_env_facts *e = &f->python[i];

		e->nframeworks = 0;
		if (!e->site_packages[0] || !root_is_dir(e->site_packages))
			continue;
		if (!c.cache)
			c.cache = ldcache_system();
		c.windows = !strcmp(e->kind, "windows");
		probe_tensorflow(&c, e);
		probe_torch(&c, e);
		probe_jax(&c, e);
		probe_cupy(&c, e);
	}
	for (i = 0; i < c.nsites; i++) {
		int k;
		for (k = 0; k < c.sites[i].n; k++)
			free(c.sites[i].w[k].record);
		free(c.sites[i].w);
	}
	free(c.sites);
}
