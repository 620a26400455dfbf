/*
 * libs.c - every copy of the CUDA libraries a framework may load: cudart,
 * cuBLAS/cuBLASLt, cuFFT, cuRAND, cuSOLVER, cuSPARSE, cuDNN and its
 * sub-libraries, NCCL, NVRTC, nvJitLink, TensorRT (probe_libs).
 *
 * Where: the directories ld.so.cache names for these sonames,
 * LD_LIBRARY_PATH, $CUDA_HOME/$CUDA_PATH, /usr/local/cuda*, /opt/cuda, the
 * loader's default directories, $CONDA_PREFIX/lib, and in every Python
 * site-packages found (venvs on PATH, $VIRTUAL_ENV, $CONDA_PREFIX,
 * ~/.local, the system's dist-packages) the nvidia-* wheels' nvidia/<x>/lib
 * and the copies frameworks bundle (torch/lib, tensorflow, jaxlib,
 * jax_plugins/<x>). Each directory is scanned once (by real path), the
 * number of directories is capped, and nothing is loaded: the version calls
 * are libver.c's, in a child.
 *
 * One row per real file; `path` is its soname-named link when there is
 * one. The version is the most exact of (in this order of trust):
 * dist-info RECORD listing the file, version header next to it, the
 * toolkit's version.json, the file name, the soname; a less trusted source
 * only refines a more trusted one, never contradicts it.
 */
#include "probe/probe.h"
#include "base/str.h"
#include "base/vers.h"
#include "base/xalloc.h"
#include "sys/elf.h"
#include "sys/ldcache.h"
#include "sys/ldresolve.h"
#include "sys/root.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_SCAN_DIRS 256
#define MAX_SITES 32
#define MAX_DISTINFO 256
#define MAX_RECORD (4u << 20)
#define MAX_RECORDS_TOTAL (32u << 20) /* all RECORD files under one directory */
#define MAX_HEADER (1u << 20)

#if defined(__x86_64__)
#define TRIPLET "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define TRIPLET "aarch64-linux-gnu"
#else
#define TRIPLET ""
#endif

/* File base name (between "lib" and ".so") -> lib_facts.name. */
static const struct libdef {
	const char *base;
	const char *name;
	const char *json_key;   /* key in a toolkit's version.json */
	const char *header;     /* version header, "" none */
	const char *macro;      /* prefix of its MAJOR/MINOR/PATCH(/BUILD) macros */
} libdefs[] = {
	{"cudart", "cudart", "cuda_cudart", "cuda_runtime_api.h", ""},
	{"cublas", "cublas", "libcublas", "cublas_api.h", "CUBLAS_VER_"},
	{"cublasLt", "cublasLt", "libcublas", "cublas_api.h", "CUBLAS_VER_"},
	{"cufft", "cufft", "libcufft", "cufft.h", "CUFFT_VER_"},
	{"curand", "curand", "libcurand", "curand.h", "CURAND_VER_"},
	{"cusolver", "cusolver", "libcusolver", "cusolver_common.h", "CUSOLVER_VER_"},
	{"cusparse", "cusparse", "libcusparse", "cusparse.h", "CUSPARSE_VER_"},
	{"cudnn", "cudnn", "", "cudnn", "CUDNN_"},
	{"cudnn_ops", "cudnn_ops", "", "cudnn", "CUDNN_"},
	{"cudnn_cnn", "cudnn_cnn", "", "cudnn", "CUDNN_"},
	{"cudnn_adv", "cudnn_adv", "", "cudnn", "CUDNN_"},
	{"cudnn_graph", "cudnn_graph", "", "cudnn", "CUDNN_"},
	{"cudnn_engines_precompiled", "cudnn_engines_precompiled", "", "cudnn", "CUDNN_"},
	{"cudnn_engines_runtime_compiled", "cudnn_engines_runtime_compiled", "", "cudnn", "CUDNN_"},
	{"cudnn_heuristic", "cudnn_heuristic", "", "cudnn", "CUDNN_"},
	{"cudnn_ops_infer", "cudnn_ops_infer", "", "cudnn", "CUDNN_"},
	{"cudnn_ops_train", "cudnn_ops_train", "", "cudnn", "CUDNN_"},
	{"cudnn_cnn_infer", "cudnn_cnn_infer", "", "cudnn", "CUDNN_"},
	{"cudnn_cnn_train", "cudnn_cnn_train", "", "cudnn", "CUDNN_"},
	{"cudnn_adv_infer", "cudnn_adv_infer", "", "cudnn", "CUDNN_"},
	{"cudnn_adv_train", "cudnn_adv_train", "", "cudnn", "CUDNN_"},
	{"nccl", "nccl", "", "nccl.h", "NCCL_"},
	{"nvrtc", "nvrtc", "cuda_nvrtc", "", ""},
	{"nvJitLink", "nvjitlink", "libnvjitlink", "", ""},
	{"nvinfer", "tensorrt", "", "NvInferVersion.h", "NV_TENSORRT_"},
};
#define NLIBDEFS ((int)(sizeof(libdefs) / sizeof(libdefs[0])))

/* Packages inside site-packages whose bundled copies are a framework's. */
static const char *const frameworks[] = {
	"torch", "tensorflow", "jaxlib", "jax_plugins", "cupy", "cupy_backends", "paddle",
	"mxnet", "onnxruntime", NULL,
};

struct distrec {
	char *rel;               /* path in RECORD, relative to its root */
	long long size;          /* -1 unknown */
	int pkg;                 /* index in distidx.pkgs */
};

struct distpkg {
	char name[F_NAME];       /* nvidia_cudnn_cu13 */
	char version[32];        /* 9.19.0.56 */
};

/* The RECORD files of the dist-info dirs under one directory. */
struct distidx {
	char dir[F_PATH];
	int n, cap;
	struct distrec *recs;
	int npkgs;
	struct distpkg *pkgs;
};

struct ctx {
	struct facts *f;
	const struct ldcache *cache;   /* ldcache_system(); NULL when none */
	const char *ldpath;
	int ndirs;
	char dirs[MAX_SCAN_DIRS][F_PATH];
	int nsites;
	char sites[MAX_SITES][F_PATH];
	unsigned char score[MAX_LIBS];
	bool full_noted, dirs_noted;
	int nidx;
	struct distidx *idx;
	int ncached;
	char (*cached)[F_PATH];  /* real paths of the cache's entries for our libs */
	bool cached_done;
};

/* ---- names ------------------------------------------------------------------ */

static const char *
base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void
dir_name(const char *path, char *out, size_t size)
{
	const char *s = strrchr(path, '/');

	if (!s) {
		str_copy(out, size, ".");
	} else if (s == path) {
		str_copy(out, size, "/");
	} else {
		size_t n = (size_t)(s - path);
		if (n >= size)
			n = size - 1;
		memcpy(out, path, n);
		out[n] = '\0';
	}
}

/* The libdef of a file name "lib<base>.so" or "lib<base>.so.<digits...>";
 * *suffix points after ".so." ("" when none). */
static const struct libdef *
libdef_of(const char *fname, const char **suffix)
{
	const char *so;
	size_t n;
	int i;

	if (strncmp(fname, "lib", 3) != 0)
		return NULL;
	so = strstr(fname + 3, ".so");
	if (!so)
		return NULL;
	if (so[3] == '\0') {
		*suffix = "";
	} else if (so[3] == '.' && so[4] >= '0' && so[4] <= '9') {
		const char *p;
		for (p = so + 4; *p; p++)
			if (!((*p >= '0' && *p <= '9') || *p == '.'))
				return NULL;
		*suffix = so + 4;
	} else {
		return NULL;
	}
	n = (size_t)(so - (fname + 3));
	for (i = 0; i < NLIBDEFS; i++)
		if (strlen(libdefs[i].base) == n && strncmp(fname + 3, libdefs[i].base, n) == 0)
			return &libdefs[i];
	return NULL;
}

static const struct libdef *
libdef_by_name(const char *name)
{
	int i;

	for (i = 0; i < NLIBDEFS; i++)
		if (strcmp(libdefs[i].name, name) == 0)
			return &libdefs[i];
	return NULL;
}

static int
ncomp(const char *v)
{
	int tmp[8];

	return v && *v ? vers_parse(v, tmp, 8) : 0;
}

/* The major number a soname promises ("libcudnn.so.9" -> 9), -1 none. */
static int
soname_major(const char *soname)
{
	const char *so = strstr(soname, ".so.");
	int v;

	if (!so || vers_parse(so + 4, &v, 1) != 1)
		return -1;
	return v;
}

/* b refines a when it has more components and agrees on a's. */
static bool
refines(const char *a, const char *b)
{
	int va[8], vb[8], na = vers_parse(a, va, 8), nb = vers_parse(b, vb, 8), i;

	if (nb <= na)
		return false;
	for (i = 0; i < na; i++)
		if (va[i] != vb[i])
			return false;
	return true;
}

/* ---- scanning ---------------------------------------------------------------- */

static void
add_file(struct ctx *c, const struct libdef *def, const char *path)
{
	struct facts *f = c->f;
	char real[F_PATH], pdir[F_PATH], rdir[F_PATH];
	struct elf_info *info;
	struct lib_facts *l;
	struct stat st;
	int i, score;

	if (root_realpath(path, real, sizeof(real)) < 0 || root_stat(real, &st) < 0 ||
	    !S_ISREG(st.st_mode))
		return;
	dir_name(path, pdir, sizeof(pdir));
	dir_name(real, rdir, sizeof(rdir));
	for (i = 0; i < f->nlibs; i++) {
		l = &f->libs[i];
		if (strcmp(l->real_path, real) != 0)
			continue;
		score = (strcmp(base_name(path), l->soname) == 0 ? 2 : 0) + !strcmp(pdir, rdir);
		if (score > c->score[i]) {
			STR_COPY(l->path, path);
			c->score[i] = (unsigned char)score;
		}
		return;
	}
	if (f->nlibs >= MAX_LIBS) {
		if (!c->full_noted)
			facts_note(f, "libs", "more than %d CUDA library files: the rest not listed",
				MAX_LIBS);
		c->full_noted = true;
		return;
	}
	l = &f->libs[f->nlibs];
	memset(l, 0, sizeof(*l));
	STR_COPY(l->name, def->name);
	STR_COPY(l->path, path);
	STR_COPY(l->real_path, real);
	info = xmalloc(sizeof(*info));
	if (elf_read(real, info) == 0 && info->soname[0])
		STR_COPY(l->soname, info->soname);
	free(info);
	if (!l->soname[0]) {
		/* libcudart.so.12.4.127 -> libcudart.so.12 */
		const char *suffix = "";
		int major;

		if (!libdef_of(base_name(real), &suffix) || !*suffix) {
			suffix = "";
			libdef_of(base_name(path), &suffix);
		}
		if (*suffix && vers_parse(suffix, &major, 1) == 1)
			STR_FMT(l->soname, "lib%s.so.%d", def->base, major);
		else
			STR_FMT(l->soname, "lib%s.so", def->base);
	}
	c->score[f->nlibs] = (unsigned char)((strcmp(base_name(path), l->soname) == 0 ? 2 : 0) +
		!strcmp(pdir, rdir));
	f->nlibs++;
}

/* Scan `dir` once (by real path) for our libraries. */
static void
scan_dir(struct ctx *c, const char *dir)
{
	char real[F_PATH], path[F_PATH];
	char **names;
	int n, i;

	if (dir[0] != '/' || root_realpath(dir, real, sizeof(real)) < 0 || !root_is_dir(real))
		return;
	for (i = 0; i < c->ndirs; i++)
		if (strcmp(c->dirs[i], real) == 0)
			return;
	if (c->ndirs >= MAX_SCAN_DIRS) {
		if (!c->dirs_noted)
			facts_note(c->f, "libs", "more than %d library directories: the rest not scanned",
				MAX_SCAN_DIRS);
		c->dirs_noted = true;
		return;
	}
	STR_COPY(c->dirs[c->ndirs], real);
	c->ndirs++;
	n = root_list(real, &names);
	for (i = 0; i < n; i++) {
		const struct libdef *def;
		const char *suffix;

		if (!(def = libdef_of(names[i], &suffix)))
			continue;
		str_fmt(path, sizeof(path), "%s/%s", strcmp(dir, "/") ? dir : "", names[i]);
		add_file(c, def, path);
	}
	root_free_list(names, n);
}

/* scan_dir of a formatted path */
#define SCAN_FMT(c, ...)                                  \
	do {                                              \
		char scan_dir_[F_PATH];                   \
		str_fmt(scan_dir_, sizeof(scan_dir_), __VA_ARGS__); \
		scan_dir((c), scan_dir_);                 \
	} while (0)

static void
scan_list(struct ctx *c, const char *list)
{
	const char *p = list;

	while (p && *p) {
		char dir[F_PATH];
		size_t n = strcspn(p, ":;");

		if (n > 0 && n < sizeof(dir)) {
			memcpy(dir, p, n);
			dir[n] = '\0';
			while (n > 1 && dir[n - 1] == '/')
				dir[--n] = '\0';
			scan_dir(c, dir);
		}
		p += n;
		if (*p)
			p++;
	}
}

/* A toolkit root: lib64, lib, targets/<t>/lib. */
static void
scan_toolkit(struct ctx *c, const char *top)
{
	char dir[F_PATH];
	char **names;
	int n, i;

	SCAN_FMT(c, "%s/lib64", top);
	SCAN_FMT(c, "%s/lib", top);
	str_fmt(dir, sizeof(dir), "%s/targets", top);
	n = root_list(dir, &names);
	for (i = 0; i < n; i++)
		SCAN_FMT(c, "%s/targets/%s/lib", top, names[i]);
	root_free_list(names, n);
}

static void
scan_cache_dirs(struct ctx *c)
{
	int i;

	for (i = 0; c->cache && i < c->cache->n; i++) {
		const struct ldcache_entry *e = &c->cache->entries[i];
		const char *suffix;
		char dir[F_PATH];

		if (e->flags != LDCACHE_FLAGS_NATIVE || e->value[0] != '/' ||
		    !libdef_of(e->key, &suffix))
			continue;
		dir_name(e->value, dir, sizeof(dir));
		scan_dir(c, dir);
	}
}

/* ---- python sites -------------------------------------------------------------- */

static void
add_site(struct ctx *c, const char *dir)
{
	char real[F_PATH];
	int i;

	if (root_realpath(dir, real, sizeof(real)) < 0 || !root_is_dir(real))
		return;
	for (i = 0; i < c->nsites; i++)
		if (strcmp(c->sites[i], dir) == 0)
			return;
	if (c->nsites < MAX_SITES)
		STR_COPY(c->sites[c->nsites++], dir);
}

/* prefix/lib/python3*\/{site,dist}-packages */
static void
add_prefix_sites(struct ctx *c, const char *prefix)
{
	char dir[F_PATH];
	char **names;
	int n, i;

	str_fmt(dir, sizeof(dir), "%s/lib", prefix);
	n = root_list(dir, &names);
	for (i = 0; i < n; i++) {
		if (!str_starts(names[i], "python3"))
			continue;
		str_fmt(dir, sizeof(dir), "%s/lib/%s/site-packages", prefix, names[i]);
		add_site(c, dir);
		str_fmt(dir, sizeof(dir), "%s/lib/%s/dist-packages", prefix, names[i]);
		add_site(c, dir);
	}
	root_free_list(names, n);
}

static void
find_sites(struct ctx *c)
{
	const char *path = getenv("PATH"), *p, *v;

	for (p = path; p && *p;) {
		size_t n = strcspn(p, ":");
		char dir[F_PATH];

		if (n > 4 && n < sizeof(dir) && p[0] == '/') {
			memcpy(dir, p, n);
			dir[n] = '\0';
			while (n > 1 && dir[n - 1] == '/')
				dir[--n] = '\0';
			if (str_ends(dir, "/bin")) {
				dir[n - 4] = '\0';
				if (dir[0])
					add_prefix_sites(c, dir);
			}
		}
		p += n;
		if (*p)
			p++;
	}
	if ((v = getenv("VIRTUAL_ENV")) && v[0] == '/')
		add_prefix_sites(c, v);
	if ((v = getenv("CONDA_PREFIX")) && v[0] == '/')
		add_prefix_sites(c, v);
	if ((v = getenv("HOME")) && v[0] == '/') {
		char dir[F_PATH];
		str_fmt(dir, sizeof(dir), "%s/.local", v);
		add_prefix_sites(c, dir);
	}
	add_site(c, "/usr/lib/python3/dist-packages");
	add_prefix_sites(c, "/usr/local");
}

static void
scan_site(struct ctx *c, const char *site)
{
	static const char *const bundles[] = {
		"torch/lib", "tensorflow", "tensorflow/python", "jaxlib", "jaxlib/cuda",
		"tensorrt_libs", "tensorrt", "cupy/.data/lib", NULL,
	};
	char dir[F_PATH];
	char **names;
	int n, i;

	str_fmt(dir, sizeof(dir), "%s/nvidia", site);
	n = root_list(dir, &names);
	for (i = 0; i < n; i++)
		SCAN_FMT(c, "%s/nvidia/%s/lib", site, names[i]);
	root_free_list(names, n);
	for (i = 0; bundles[i]; i++)
		SCAN_FMT(c, "%s/%s", site, bundles[i]);
	str_fmt(dir, sizeof(dir), "%s/jax_plugins", site);
	n = root_list(dir, &names);
	for (i = 0; i < n; i++) {
		SCAN_FMT(c, "%s/jax_plugins/%s", site, names[i]);
		SCAN_FMT(c, "%s/jax_plugins/%s/lib", site, names[i]);
	}
	root_free_list(names, n);
}

/* ---- origin -------------------------------------------------------------------- */

/* The site-packages/dist-packages directory a path lies in; false if none. */
static bool
site_of(const char *path, char *site, size_t size, const char **rest)
{
	const char *m = strstr(path, "/site-packages/");

	if (!m)
		m = strstr(path, "/dist-packages/");
	if (!m)
		return false;
	{
		size_t n = (size_t)(m - path) + strlen("/site-packages");
		if (n >= size)
			return false;
		memcpy(site, path, n);
		site[n] = '\0';
		*rest = m + strlen("/site-packages/");
	}
	return true;
}

static bool
conda_prefix_of(const char *path, char *out, size_t size)
{
	char cur[F_PATH], probe[F_PATH];
	int up;

	dir_name(path, cur, sizeof(cur));
	for (up = 0; up < 4 && strcmp(cur, "/") != 0; up++) {
		str_fmt(probe, sizeof(probe), "%s/conda-meta", cur);
		if (root_is_dir(probe)) {
			str_copy(out, size, cur);
			return true;
		}
		dir_name(cur, probe, sizeof(probe));
		STR_COPY(cur, probe);
	}
	return false;
}

/* "/usr/local/cuda-13.0/lib/x" -> "/usr/local/cuda-13.0". */
static bool
toolkit_root_of(const char *path, char *out, size_t size)
{
	const char *p, *best = NULL;

	if (!str_starts(path, "/usr/local/cuda") && !str_starts(path, "/opt/cuda") &&
	    !str_starts(path, "/opt/nvidia/"))
		return false;
	/* the deepest component named cuda* before lib/targets */
	for (p = path; (p = strchr(p, '/')); p++) {
		if (str_starts(p + 1, "cuda"))
			best = p + 1;
		if (str_starts(p + 1, "lib") || str_starts(p + 1, "targets/"))
			break;
	}
	if (best) {
		size_t n = strcspn(best, "/") + (size_t)(best - path);
		str_copy(out, size < n + 1 ? size : n + 1, path);
	} else {
		str_copy(out, size, "/opt/nvidia");
	}
	return true;
}

static void
classify(struct lib_facts *l)
{
	const char *p = l->real_path, *rest;
	char site[F_PATH], prefix[F_PATH];
	int i;

	if (site_of(p, site, sizeof(site), &rest) || site_of(l->path, site, sizeof(site), &rest)) {
		size_t n = strcspn(rest, "/");
		if (str_starts(rest, "nvidia/") || str_starts(rest, "tensorrt_libs/")) {
			l->origin = ORIGIN_PIP;
			STR_COPY(l->origin_root, site);
			return;
		}
		for (i = 0; frameworks[i]; i++) {
			if (strlen(frameworks[i]) == n && strncmp(rest, frameworks[i], n) == 0) {
				l->origin = ORIGIN_FRAMEWORK;
				STR_FMT(l->origin_root, "%s/%.*s", site, (int)n, rest);
				return;
			}
		}
		l->origin = ORIGIN_PIP;
		STR_COPY(l->origin_root, site);
		return;
	}
	if (conda_prefix_of(p, prefix, sizeof(prefix))) {
		l->origin = ORIGIN_CONDA;
		STR_COPY(l->origin_root, prefix);
		return;
	}
	if (toolkit_root_of(p, prefix, sizeof(prefix)) ||
	    toolkit_root_of(l->path, prefix, sizeof(prefix))) {
		l->origin = ORIGIN_TOOLKIT;
		STR_COPY(l->origin_root, prefix);
		return;
	}
	if (str_starts(p, "/usr/local/nvidia/") || str_starts(p, "/usr/lib/wsl/")) {
		l->origin = ORIGIN_DRIVER;
		return;
	}
	if (str_starts(p, "/usr/lib") || str_starts(p, "/lib")) {
		l->origin = ORIGIN_SYSTEM;
		return;
	}
	l->origin = ORIGIN_OTHER;
}

/* ---- dist-info ------------------------------------------------------------------- */

static bool
distinfo_wanted(const char *name)
{
	return str_ends(name, ".dist-info") &&
		(str_starts(name, "nvidia_") || str_starts(name, "nvidia-") ||
		 str_starts(name, "tensorrt"));
}

/* Index the shared libraries one dist-info's RECORD lists; returns the
 * bytes read. */
static size_t
load_record(struct distidx *x, const char *dir, const char *name)
{
	char path[F_PATH], *data, *line, *next;
	struct distpkg *pkg;
	const char *dash;
	size_t len;

	str_fmt(path, sizeof(path), "%s/%s/RECORD", dir, name);
	data = root_read_all(path, MAX_RECORD, &len, NULL);
	if (!data)
		return 0;
	x->pkgs = xrealloc(x->pkgs, (size_t)(x->npkgs + 1) * sizeof(*x->pkgs));
	pkg = &x->pkgs[x->npkgs];
	dash = strchr(name, '-');
	if (!dash || dash >= name + strlen(name) - strlen(".dist-info")) {
		free(data);
		return len;
	}
	{
		size_t nlen = (size_t)(dash - name);
		size_t vlen = strlen(dash + 1) - strlen(".dist-info");
		str_copy(pkg->name, nlen + 1 < sizeof(pkg->name) ? nlen + 1 : sizeof(pkg->name), name);
		str_copy(pkg->version, vlen + 1 < sizeof(pkg->version) ? vlen + 1 : sizeof(pkg->version),
			dash + 1);
	}
	if (!ncomp(pkg->version)) {
		free(data);
		return len;
	}
	for (line = data; line && *line; line = next) {
		char *comma, *last, *b;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		comma = strchr(line, ',');
		if (!comma)
			continue;
		*comma = '\0';
		b = strrchr(line, '/');
		b = b ? b + 1 : line;
		if (!str_starts(b, "lib") || !strstr(b, ".so"))
			continue;
		if (x->n == x->cap) {
			x->cap = x->cap ? x->cap * 2 : 64;
			x->recs = xrealloc(x->recs, (size_t)x->cap * sizeof(*x->recs));
		}
		x->recs[x->n].rel = xstrdup(line);
		last = strrchr(comma + 1, ',');
		x->recs[x->n].size = last && last[1] ? strtoll(last + 1, NULL, 10) : -1;
		x->recs[x->n].pkg = x->npkgs;
		x->n++;
	}
	x->npkgs++;
	free(data);
	return len;
}

static struct distidx *
distidx_get(struct ctx *c, const char *dir)
{
	struct distidx *x;
	char **names;
	int n, i, used = 0;
	size_t bytes = 0;

	for (i = 0; i < c->nidx; i++)
		if (strcmp(c->idx[i].dir, dir) == 0)
			return &c->idx[i];
	c->idx = xrealloc(c->idx, (size_t)(c->nidx + 1) * sizeof(*c->idx));
	x = &c->idx[c->nidx++];
	memset(x, 0, sizeof(*x));
	STR_COPY(x->dir, dir);
	n = root_list(dir, &names);
	for (i = 0; i < n; i++) {
		if (!distinfo_wanted(names[i]))
			continue;
		if (used >= MAX_DISTINFO || bytes >= MAX_RECORDS_TOTAL) {
			facts_note(c->f, "libs", "%s: more package records than read (%d, %zu bytes): "
					 "a library of the others has no version here", dir, used, bytes);
			break;
		}
		bytes += load_record(x, dir, names[i]);
		used++;
	}
	root_free_list(names, n);
	return x;
}

static void
distidx_free(struct ctx *c)
{
	int i, k;

	for (i = 0; i < c->nidx; i++) {
		for (k = 0; k < c->idx[i].n; k++)
			free(c->idx[i].recs[k].rel);
		free(c->idx[i].recs);
		free(c->idx[i].pkgs);
	}
	free(c->idx);
}

/* Relative path of p under dir, or NULL. */
static const char *
rel_to(const char *p, const char *dir)
{
	size_t n = strlen(dir);

	if (strncmp(p, dir, n) == 0 && p[n] == '/')
		return p + n + 1;
	return NULL;
}

/* The dist-info package listing this file; NULL if none. */
static const struct distpkg *
distinfo_match(struct ctx *c, const struct lib_facts *l)
{
	char dir[F_PATH];
	struct distidx *x;
	struct stat st;
	int i;

	if (l->origin == ORIGIN_TOOLKIT && l->origin_root[0]) {
		long long size = root_stat(l->real_path, &st) == 0 ? (long long)st.st_size : -1;
		str_fmt(dir, sizeof(dir), "%s/dist-info", l->origin_root);
		x = distidx_get(c, dir);
		for (i = 0; i < x->n; i++) {
			const char *b = base_name(x->recs[i].rel);
			if ((strcmp(b, base_name(l->real_path)) == 0 ||
			     strcmp(b, base_name(l->path)) == 0) &&
			    (x->recs[i].size < 0 || size < 0 || x->recs[i].size == size))
				return &x->pkgs[x->recs[i].pkg];
		}
		return NULL;
	}
	if (l->origin == ORIGIN_PIP || l->origin == ORIGIN_FRAMEWORK) {
		const char *rest, *r1, *r2;
		if (!site_of(l->real_path, dir, sizeof(dir), &rest) &&
		    !site_of(l->path, dir, sizeof(dir), &rest))
			return NULL;
		x = distidx_get(c, dir);
		r1 = rel_to(l->real_path, dir);
		r2 = rel_to(l->path, dir);
		for (i = 0; i < x->n; i++)
			if ((r1 && strcmp(x->recs[i].rel, r1) == 0) ||
			    (r2 && strcmp(x->recs[i].rel, r2) == 0))
				return &x->pkgs[x->recs[i].pkg];
	}
	return NULL;
}

/* ---- headers, version.json ------------------------------------------------------- */

/* Value of `#define NAME <int>` in text, following one macro alias; -1. */
static long
define_value(const char *text, const char *name, int depth)
{
	size_t n = strlen(name);
	const char *p = text;

	while ((p = strstr(p, "define"))) {
		const char *q = p + 6, *line = p;
		char alias[F_NAME];
		size_t k = 0;

		p = q;
		while (line > text && line[-1] != '\n' && line[-1] != '#' &&
		       (line[-1] == ' ' || line[-1] == '\t'))
			line--;
		if (line == text || line[-1] != '#')
			continue;
		if (*q != ' ' && *q != '\t')
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, name, n) != 0 || (q[n] != ' ' && q[n] != '\t'))
			continue;
		q += n;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q >= '0' && *q <= '9')
			return strtol(q, NULL, 10);
		while (k + 1 < sizeof(alias) && ((*q >= 'A' && *q <= 'Z') || *q == '_' ||
						  (*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'z')))
			alias[k++] = *q++;
		alias[k] = '\0';
		if (k && depth < 2)
			return define_value(text, alias, depth + 1);
		return -1;
	}
	return -1;
}

static bool
header_version(const char *file, const struct libdef *def, char *out, size_t size)
{
	char name[F_NAME];
	long v[4];
	size_t len;
	char *text;
	int i;

	text = root_read_all(file, MAX_HEADER, &len, NULL);
	if (!text)
		return false;
	out[0] = '\0';
	if (strcmp(def->name, "cudart") == 0) {
		long cv = define_value(text, "CUDART_VERSION", 0);
		if (cv > 0 && cv < 1000000)
			vers_from_cuda_int((int)cv, out, size);
	} else {
		static const char *const parts[4] = {"MAJOR", "MINOR", "PATCH", "BUILD"};
		for (i = 0; i < 4; i++) {
			str_fmt(name, sizeof(name), "%s%s", def->macro, parts[i]);
			v[i] = define_value(text, name, 0);
			if (v[i] < 0 && i == 2) {
				str_fmt(name, sizeof(name), "%sPATCHLEVEL", def->macro);
				v[i] = define_value(text, name, 0);
			}
			if (v[i] < 0 || v[i] > 100000000)
				break;
		}
		if (i == 3)
			str_fmt(out, size, "%ld.%ld.%ld", v[0], v[1], v[2]);
		else if (i == 4)
			str_fmt(out, size, "%ld.%ld.%ld.%ld", v[0], v[1], v[2], v[3]);
	}
	free(text);
	return out[0] != '\0';
}

/* Version from a header of this library next to it (../include), or in the
 * system include dirs for a system copy. */
static bool
version_from_headers(const struct lib_facts *l, const struct libdef *def, char *out, size_t size)
{
	char dirs[4][F_PATH], file[F_PATH], d[F_PATH];
	const char *names[4];
	char vname[F_NAME];
	int nd = 0, nn = 0, i, k, major = soname_major(l->soname);

	if (!def->header[0])
		return false;
	if (strcmp(def->header, "cudnn") == 0) {
		if (major > 0) {
			STR_FMT(vname, "cudnn_version_v%d.h", major);
			names[nn++] = vname;
		}
		names[nn++] = "cudnn_version.h";
		names[nn++] = "cudnn.h";
	} else {
		names[nn++] = def->header;
	}
	dir_name(l->real_path, d, sizeof(d));
	str_fmt(dirs[nd++], F_PATH, "%s/../include", d);
	dir_name(l->path, d, sizeof(d));
	str_fmt(dirs[nd++], F_PATH, "%s/../include", d);
	if (l->origin == ORIGIN_SYSTEM) {
		str_copy(dirs[nd++], F_PATH, "/usr/include/" TRIPLET);
		str_copy(dirs[nd++], F_PATH, "/usr/include");
	}
	for (i = 0; i < nd; i++) {
		for (k = 0; k < nn; k++) {
			str_fmt(file, sizeof(file), "%s/%s", dirs[i], names[k]);
			if (header_version(file, def, out, size))
				return true;
		}
	}
	return false;
}

static bool
version_from_json(const struct lib_facts *l, const struct libdef *def, char *out, size_t size)
{
	char path[F_PATH];
	json_t *root, *o, *v;
	char *data;
	size_t len;
	bool ok = false;

	if (l->origin != ORIGIN_TOOLKIT || !l->origin_root[0])
		return false;
	if (def->json_key[0]) {
		str_fmt(path, sizeof(path), "%s/version.json", l->origin_root);
		data = root_read_all(path, 1u << 20, &len, NULL);
		if (data) {
			root = json_loadb(data, len, 0, NULL);
			o = root ? json_object_get(root, def->json_key) : NULL;
			v = o ? json_object_get(o, "version") : NULL;
			if (v && json_is_string(v) && ncomp(json_string_value(v)) > 0) {
				str_copy(out, size, json_string_value(v));
				ok = true;
			}
			json_decref(root);
			free(data);
		}
	}
	if (!ok && strcmp(def->name, "cudart") == 0) {
		const char *p;
		str_fmt(path, sizeof(path), "%s/version.txt", l->origin_root);
		data = root_read_all(path, 4096, &len, NULL);
		if (data && (p = strstr(data, "CUDA Version ")) && ncomp(p + 13) > 0) {
			str_copy(out, size, p + 13);
			out[strcspn(out, " \t\r\n")] = '\0';
			ok = true;
		}
		free(data);
	}
	return ok;
}

static bool
version_from_filename(const char *path, char *out, size_t size)
{
	const char *suffix;

	if (!libdef_of(base_name(path), &suffix) || ncomp(suffix) < 2)
		return false;
	str_copy(out, size, suffix);
	return true;
}

/* Candidate v from source src: taken when there is none yet, or when it
 * refines what there is; ignored when its major contradicts the soname. */
static void
offer(struct lib_facts *l, const char *v, const char *src)
{
	int major = soname_major(l->soname), vm;

	if (!v || !*v || vers_parse(v, &vm, 1) != 1)
		return;
	if (major >= 0 && vm != major)
		return;
	if (!l->version[0] || refines(l->version, v)) {
		STR_COPY(l->version, v);
		STR_COPY(l->version_source, src);
	}
}

static void
set_cuda_major_from(struct lib_facts *l, const char *s)
{
	int v;

	if (!l->cuda_major[0] && vers_parse(s, &v, 1) == 1 && v > 0 && v < 100)
		STR_FMT(l->cuda_major, "%d", v);
}

/* "nvidia_cudnn_cu13" -> "13"; "" when the name has no _cuNN / -cuNN. */
static void
cu_suffix(const char *s, char *out, size_t size)
{
	const char *p;

	out[0] = '\0';
	for (p = s; (p = strstr(p, "cu")); p += 2) {
		if ((p == s || p[-1] == '_' || p[-1] == '-' || p[-1] == '/') && p[2] >= '1' &&
		    p[2] <= '9') {
			int v;
			if (vers_parse(p + 2, &v, 1) == 1 && v < 100) {
				const char *e = p + 2;
				while (*e >= '0' && *e <= '9')
					e++;
				if (*e == '\0' || *e == '_' || *e == '-' || *e == '/' || *e == 'x') {
					str_fmt(out, size, "%d", v);
					return;
				}
			}
		}
	}
}

static void
find_versions(struct ctx *c, struct lib_facts *l)
{
	const struct libdef *def = libdef_by_name(l->name);
	const struct distpkg *pkg;
	char v[64], tmp[16];

	if (!def)
		return;
	pkg = distinfo_match(c, l);
	if (pkg) {
		offer(l, pkg->version, "dist_info");
		cu_suffix(pkg->name, tmp, sizeof(tmp));
		if (tmp[0])
			STR_COPY(l->cuda_major, tmp);
	}
	if (ncomp(l->version) < 3 && version_from_headers(l, def, v, sizeof(v)))
		offer(l, v, "header");
	if (ncomp(l->version) < 3 && version_from_json(l, def, v, sizeof(v)))
		offer(l, v, "version_json");
	if (version_from_filename(l->real_path, v, sizeof(v)) ||
	    version_from_filename(l->path, v, sizeof(v)))
		offer(l, v, "filename");
	if (!l->version[0]) {
		const char *so = strstr(l->soname, ".so.");
		if (so && ncomp(so + 4) > 0)
			offer(l, so + 4, "soname");
	}
}

static void
find_cuda_major(struct lib_facts *l)
{
	char tmp[16];

	if (l->origin == ORIGIN_TOOLKIT) {
		const char *b = base_name(l->origin_root);
		if (str_starts(b, "cuda-"))
			set_cuda_major_from(l, b + 5);
	}
	if (l->origin == ORIGIN_PIP || l->origin == ORIGIN_FRAMEWORK) {
		cu_suffix(l->real_path, tmp, sizeof(tmp));
		if (!tmp[0])
			cu_suffix(l->path, tmp, sizeof(tmp));
		if (tmp[0])
			set_cuda_major_from(l, tmp);
	}
	if (strcmp(l->name, "cudart") == 0) {
		const char *so = strstr(l->soname, ".so.");
		if (so)
			set_cuda_major_from(l, so + 4);
	}
}

/* A library without a CUDA major takes the one of the cudart beside it. */
static void
cuda_major_from_neighbours(struct facts *f)
{
	char d1[F_PATH], d2[F_PATH];
	int i, k;

	for (i = 0; i < f->nlibs; i++) {
		if (f->libs[i].cuda_major[0])
			continue;
		dir_name(f->libs[i].real_path, d1, sizeof(d1));
		for (k = 0; k < f->nlibs; k++) {
			if (strcmp(f->libs[k].name, "cudart") || !f->libs[k].cuda_major[0])
				continue;
			dir_name(f->libs[k].real_path, d2, sizeof(d2));
			if (strcmp(d1, d2) == 0) {
				STR_COPY(f->libs[i].cuda_major, f->libs[k].cuda_major);
				break;
			}
		}
	}
}

/* ---- the loader's view ------------------------------------------------------------ */

static void
load_cached_reals(struct ctx *c)
{
	int i;

	c->cached_done = true;
	if (!c->cache)
		return;
	c->cached = xcalloc((size_t)c->cache->n + 1, sizeof(*c->cached));
	for (i = 0; i < c->cache->n; i++) {
		const struct ldcache_entry *e = &c->cache->entries[i];
		const char *suffix;

		if (e->flags != LDCACHE_FLAGS_NATIVE || !libdef_of(e->key, &suffix) ||
		    root_realpath(e->value, c->cached[c->ncached], F_PATH) < 0)
			continue;
		c->ncached++;
	}
}

static void
loader_view(struct ctx *c)
{
	struct facts *f = c->f;
	int i, k;

	load_cached_reals(c);
	for (i = 0; i < f->nlibs; i++) {
		struct lib_facts *l = &f->libs[i];
		struct ld_result r;
		char real[F_PATH];

		for (k = 0; k < c->ncached; k++)
			if (strcmp(c->cached[k], l->real_path) == 0)
				l->in_ld_cache = true;
		/* one resolution per soname, shared by its copies */
		for (k = 0; k < i; k++)
			if (strcmp(f->libs[k].soname, l->soname) == 0)
				break;
		if (k < i)
			continue;
		if (!ldresolve(l->soname, NULL, c->ldpath, c->cache, &r) ||
		    root_realpath(r.path, real, sizeof(real)) < 0)
			continue;
		for (k = i; k < f->nlibs; k++)
			if (strcmp(f->libs[k].soname, l->soname) == 0 &&
			    strcmp(f->libs[k].real_path, real) == 0)
				f->libs[k].loader_pick = true;
	}
}

/* ---- the probe -------------------------------------------------------------------- */

void
probe_libs(struct facts *f, const struct probe_opts *o)
{
	struct ctx *c = xcalloc(1, sizeof(*c));
	char top[F_PATH];
	const char *v;
	char **names;
	int n, i;

	(void)o;
	c->f = f;
	c->ldpath = getenv("LD_LIBRARY_PATH");
	c->cache = ldcache_system();

	scan_cache_dirs(c);
	scan_list(c, c->ldpath);
	if ((v = getenv("CUDA_HOME")) && v[0] == '/')
		scan_toolkit(c, v);
	if ((v = getenv("CUDA_PATH")) && v[0] == '/')
		scan_toolkit(c, v);
	scan_toolkit(c, "/usr/local/cuda");
	n = root_list("/usr/local", &names);
	for (i = 0; i < n; i++) {
		if (!str_starts(names[i], "cuda-"))
			continue;
		str_fmt(top, sizeof(top), "/usr/local/%s", names[i]);
		scan_toolkit(c, top);
	}
	root_free_list(names, n);
	scan_toolkit(c, "/opt/cuda");
	for (i = 0; ldresolve_default_dirs[i]; i++)
		scan_dir(c, ldresolve_default_dirs[i]);
	if ((v = getenv("CONDA_PREFIX")) && v[0] == '/')
		SCAN_FMT(c, "%s/lib", v);
	find_sites(c);
	for (i = 0; i < c->nsites; i++)
		scan_site(c, c->sites[i]);

	for (i = 0; i < f->nlibs; i++) {
		classify(&f->libs[i]);
		find_versions(c, &f->libs[i]);
		find_cuda_major(&f->libs[i]);
	}
	cuda_major_from_neighbours(f);
	loader_view(c);

	distidx_free(c);
	free(c->cached);
	free(c);
}
