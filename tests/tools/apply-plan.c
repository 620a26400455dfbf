/*
 * apply-plan.c - materialise in a fixture tree what running the steps of a
 * `gpudoctor plan FW --json` (format pip) would install, so that `gpudoctor
 * doctor --root TREE` can judge the result (tests/scripts/plan_apply.sh).
 *
 *   apply-plan ROOT PLAN.json [--home DIR] [--scenario FILE] [--driver VERSION]
 *   apply-plan ROOT --set-driver VERSION [--scenario FILE]
 *
 * --driver names the release the plan's driver step installs (default: the
 * minimum the plan names); --set-driver only changes the machine's driver
 * (to build a machine variant, tests/plan-machines).
 *
 * What it writes, the way the real packages lay their files out:
 *   - a driver upgrade, when the steps start with "# first install the NVIDIA
 *     driver (>= X)" or the plan is blocked by the driver (blockers[].driver_min):
 *     /proc/driver/nvidia/version, /sys/module/nvidia{,_current}/version, every
 *     lib*.so.OLD under the library directories renamed to .so.NEW with the
 *     links and /etc/ld.so.cache entries that named it, and the mock
 *     driver's scenario (cuda_driver_version, nvml_driver, nvml_cuda);
 *   - a Python the plan is blocked on (blockers[].python) or that the steps
 *     name (python3.X -m venv) and the machine lacks: /usr/bin/python3.X, an
 *     empty stand-in as in every fixture;
 *   - the venv of `python3.X -m venv DIR`: pyvenv.cfg, bin/python3 ->
 *     /usr/bin/python3.X, bin/python, bin/python3.X, bin/activate,
 *     lib/python3.X/site-packages;
 *   - `pip install` of the framework: its dist-info (METADATA, RECORD), the
 *     files the probes read (TensorFlow build_info.py and
 *     _pywrap_tensorflow_internal.so with its RPATH; torch/version.py and
 *     torch/lib/libtorch_cuda.so with its RUNPATH; jaxlib, jax-cudaNN-plugin
 *     and -pjrt with the plugin .so files) and the nvidia-* wheels it
 *     depends on (dist-info with RECORD, lib/libX.so.N ELF stand-ins with their
 *     DT_SONAME; cuda-nvcc's ptxas and libdevice).
 *
 * The nvidia-* versions: TensorFlow's [and-cuda] pins come from the
 * knowledge base (kb_tf_pins); PyTorch's and JAX's wheel sets from the table
 * wheel_sets[] below. A step it cannot model (a system CUDA install, conda,
 * a fresh driver install on a machine without one) is an error: the test
 * must not pass on a plan nobody could follow. With a blocked plan (no
 * version) only the blockers are applied; the caller plans again.
 *
 * Exit status 0, or 1 with a message on stderr. Prints one line per action.
 */
#include "elfw.h"

#include "base/buf.h"
#include "base/str.h"
#include "base/vers.h"
#include "kb/kb.h"
#include "sys/ldcache.h"
#include "sys/root.h"

#include <dirent.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define P_MAX 1024
#define MAX_WHEELS 24
#define MAX_LIBS 16
#define MAX_SCENARIO (64u << 10)
#define MAX_TEXT (64u << 10)

static const char *root;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void
die(const char *fmt, ...)
{
	va_list ap;

	fputs("apply-plan: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* ---- files under the root ------------------------------------------------------ */

/* ROOT + machine path. */
static void
host_path(char *out, size_t size, const char *path)
{
	str_fmt(out, size, "%s%s%s", root, path[0] == '/' ? "" : "/", path);
	if (strlen(out) + 1 >= size)
		die("path too long: %s", path);
}

static void
mkdirs_host(const char *hp)
{
	char p[P_MAX], *s;

	STR_COPY(p, hp);
	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			die("mkdir %s: %s", p, strerror(errno));
		*s = '/';
	}
	if (mkdir(p, 0755) < 0 && errno != EEXIST)
		die("mkdir %s: %s", p, strerror(errno));
}

static void
mkdirs(const char *path)
{
	char hp[P_MAX];

	host_path(hp, sizeof(hp), path);
	mkdirs_host(hp);
}

static void
parent_dirs(const char *path)
{
	char d[P_MAX], *s;

	STR_COPY(d, path);
	if ((s = strrchr(d, '/')) && s != d) {
		*s = '\0';
		mkdirs(d);
	}
}

static void
write_file(const char *path, const char *text)
{
	char hp[P_MAX];
	FILE *fp;
	size_t n = strlen(text);

	parent_dirs(path);
	host_path(hp, sizeof(hp), path);
	unlink(hp);
	if (!(fp = fopen(hp, "w")))
		die("cannot write %s: %s", hp, strerror(errno));
	if (fwrite(text, 1, n, fp) != n || fclose(fp) != 0)
		die("cannot write %s", hp);
}

static void
write_elf(const char *path, const char *soname, const char *const *needed, int n,
	  const char *rpath, bool runpath)
{
	char hp[P_MAX];

	parent_dirs(path);
	host_path(hp, sizeof(hp), path);
	unlink(hp);
	if (elfw_write(hp, soname, needed, n, rpath, runpath) < 0)
		die("cannot write %s: %s", hp, strerror(errno));
}

static void
make_link(const char *path, const char *target)
{
	char hp[P_MAX];

	parent_dirs(path);
	host_path(hp, sizeof(hp), path);
	unlink(hp);
	if (symlink(target, hp) < 0)
		die("symlink %s: %s", hp, strerror(errno));
}

static bool
exists(const char *path)
{
	char hp[P_MAX];
	struct stat st;

	host_path(hp, sizeof(hp), path);
	return lstat(hp, &st) == 0;
}

/* ---- the plan --------------------------------------------------------------------- */

struct plan {
	json_t *doc;
	const char *fw;             /* tensorflow, torch, jax */
	const char *version;        /* NULL: blocked */
	bool gpu;
	const char *cuda, *cudnn, *variant, *python_used, *machine_python, *machine_driver;
	bool and_cuda;
};

static const char *
jstr(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* ---- the driver ---------------------------------------------------------------------- */

/* The newest CUDA a Linux driver runs: the newest cuda_driver.tsv row whose
 * own minimum it meets, as 12040. */
static int
driver_cuda_int(const char *driver)
{
	char v[16];

	if (kb_driver_max_cuda(driver, v, sizeof(v)) < 0)
		die("the knowledge base knows no CUDA for driver %s", driver);
	return vers_to_cuda_int(v);
}

/* Replace every "old" in s (cap bytes) by "new". */
static void
replace_all(char *s, size_t cap, const char *old, const char *new)
{
	struct buf b;
	const char *p = s, *q;

	buf_init(&b);
	while ((q = strstr(p, old))) {
		buf_add(&b, p, (size_t)(q - p));
		buf_adds(&b, new);
		p = q + strlen(old);
	}
	buf_adds(&b, p);
	str_copy(s, cap, b.s ? b.s : "");
	buf_release(&b);
}

static void
rewrite_text(const char *path, const char *old, const char *new)
{
	char hp[P_MAX], *text;
	size_t len;

	if (!exists(path))
		return;
	host_path(hp, sizeof(hp), path);
	root_set("/");
	if (!(text = root_read_all(hp, MAX_TEXT, &len, NULL)))
		die("cannot read %s", hp);
	{
		size_t cap = len + 64 * (strlen(new) + 1) + 1;
		char *s = malloc(cap);
		if (!s)
			die("out of memory");
		memcpy(s, text, len + 1);
		replace_all(s, cap, old, new);
		write_file(path, s);
		free(s);
	}
	free(text);
	printf("driver: %s now names %s\n", path, new);
}

/* Library files named lib*.so.OLD in dir: renamed to .so.NEW, and links
 * whose target ends in .so.OLD pointed at .so.NEW. */
static int
rename_driver_libs(const char *dir, const char *old, const char *new)
{
	char hd[P_MAX], suffix[64], from[P_MAX], to[P_MAX], target[P_MAX];
	struct dirent *de;
	DIR *d;
	int n = 0;

	host_path(hd, sizeof(hd), dir);
	if (!(d = opendir(hd)))
		return 0;
	STR_FMT(suffix, ".so.%s", old);
	while ((de = readdir(d))) {
		struct stat st;
		ssize_t k;

		if (!str_starts(de->d_name, "lib"))
			continue;
		str_fmt(from, sizeof(from), "%s/%s", hd, de->d_name);
		if (lstat(from, &st) < 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			k = readlink(from, target, sizeof(target) - 1);
			if (k <= 0)
				continue;
			target[k] = '\0';
			if (!str_ends(target, suffix))
				continue;
			target[strlen(target) - strlen(old)] = '\0';
			STR_FMT(to, "%s%s", target, new);
			unlink(from);
			if (symlink(to, from) < 0)
				die("symlink %s: %s", from, strerror(errno));
			n++;
		} else if (str_ends(de->d_name, suffix)) {
			size_t keep = strlen(from) - strlen(old);
			str_fmt(to, sizeof(to), "%.*s%s", (int)keep, from, new);
			if (rename(from, to) < 0)
				die("rename %s: %s", from, strerror(errno));
			n++;
		}
	}
	closedir(d);
	return n;
}

/* /etc/ld.so.cache entries naming *.so.OLD now name *.so.NEW. */
static void
rewrite_ldcache(const char *old, const char *new)
{
	struct ldcache c;
	struct ldcache_entry *e;
	char (*vals)[P_MAX];
	char suffix[64];
	struct buf out;
	int i, changed = 0;

	root_set(root);
	if (ldcache_load("/etc/ld.so.cache", &c) < 0 || c.n == 0) {
		ldcache_release(&c);
		return;
	}
	STR_FMT(suffix, ".so.%s", old);
	e = calloc((size_t)c.n, sizeof(*e));
	vals = calloc((size_t)c.n, sizeof(*vals));
	if (!e || !vals)
		die("out of memory");
	for (i = 0; i < c.n; i++) {
		e[i] = c.entries[i];
		if (str_ends(e[i].value, suffix)) {
			str_fmt(vals[i], sizeof(vals[i]), "%.*s%s",
				(int)(strlen(e[i].value) - strlen(old)), e[i].value, new);
			e[i].value = vals[i];
			changed++;
		}
	}
	if (changed) {
		buf_init(&out);
		if (ldcache_build(e, c.n, &out) < 0 || out.truncated)
			die("cannot rebuild ld.so.cache");
		{
			char hp[P_MAX];
			FILE *fp;
			host_path(hp, sizeof(hp), "/etc/ld.so.cache");
			if (!(fp = fopen(hp, "wb")) || fwrite(out.s, 1, out.len, fp) != out.len ||
			    fclose(fp) != 0)
				die("cannot write %s", hp);
		}
		buf_release(&out);
		printf("driver: /etc/ld.so.cache: %d entries now name %s\n", changed, new);
	}
	free(e);
	free(vals);
	ldcache_release(&c);
	root_set("/");
}

/* The scenario's driver lines: cuda_driver_version, nvml_driver, nvml_cuda. */
static void
rewrite_scenario(const char *file, const char *new)
{
	char *text, line[1024];
	const char *p;
	size_t len;
	struct buf b;
	FILE *fp;
	int cuda = driver_cuda_int(new);
	bool had_cuda = false, had_nvml = false;

	root_set("/");
	if (!(text = root_read_all(file, MAX_SCENARIO, &len, NULL)))
		die("cannot read scenario %s", file);
	buf_init(&b);
	for (p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		str_fmt(line, sizeof(line), "%.*s", (int)n, p);
		p += n + (e ? 1 : 0);
		if (str_starts(line, "cuda_driver_version ")) {
			buf_addf(&b, "cuda_driver_version %d\n", cuda);
			had_cuda = true;
		} else if (str_starts(line, "nvml_driver ")) {
			buf_addf(&b, "nvml_driver %s\n", new);
			had_nvml = true;
		} else if (str_starts(line, "nvml_cuda ")) {
			buf_addf(&b, "nvml_cuda %d\n", cuda);
		} else {
			buf_addf(&b, "%s\n", line);
		}
	}
	if (!had_cuda)
		buf_addf(&b, "cuda_driver_version %d\n", cuda);
	if (!had_nvml)
		buf_addf(&b, "nvml_driver %s\n", new);
	if (!(fp = fopen(file, "w")) || fwrite(b.s, 1, b.len, fp) != b.len || fclose(fp) != 0)
		die("cannot write scenario %s", file);
	buf_release(&b);
	free(text);
	printf("driver: scenario %s: driver %s, cuda_driver_version %d\n", file, new, cuda);
}

/* The version the machine's driver reports now: /proc, else /sys. */
static bool
current_driver(char *out, size_t size)
{
	static const char *const files[] = { "/sys/module/nvidia/version",
		"/sys/module/nvidia_current/version", NULL };
	char line[512], *p;
	int i;

	root_set(root);
	if (root_read_line("/proc/driver/nvidia/version", line, sizeof(line)) == 0 &&
	    (p = strstr(line, "Kernel Module"))) {
		p += strlen("Kernel Module");
		while (*p == ' ')
			p++;
		str_copy(out, size, p);
		out[strcspn(out, " \t")] = '\0';
		if (out[0])
			goto found;
	}
	for (i = 0; files[i]; i++)
		if (root_read_line(files[i], out, size) == 0 && out[0])
			goto found;
	root_set("/");
	return false;
found:
	root_set("/");
	return true;
}

/* Make the machine's driver `forced` (or want_min): an upgrade unless set,
 * which builds machine variants (--set-driver) in either direction. */
static void
upgrade_driver(const char *want_min, const char *forced, const char *scenario, bool set)
{
	static const char *const libdirs[] = { "/usr/lib/x86_64-linux-gnu",
		"/usr/lib/x86_64-linux-gnu/nvidia/current", "/usr/lib64", "/usr/lib",
		"/lib/x86_64-linux-gnu", "/lib64", NULL };
	char old[64], hp[P_MAX], real[P_MAX];
	const char *new = forced ? forced : want_min;
	int i, n = 0;

	if (!current_driver(old, sizeof(old)))
		die("the plan installs a driver, but this machine has none to upgrade "
		    "(a fresh install is not modelled)");
	if (!strcmp(old, new) || (!set && vers_cmp(old, new) >= 0)) {
		printf("driver: %s already >= %s\n", old, new);
		return;
	}
	if (!set && vers_cmp(new, want_min) < 0)
		die("--driver %s is older than the plan's %s", new, want_min);
	rewrite_text("/proc/driver/nvidia/version", old, new);
	rewrite_text("/sys/module/nvidia/version", old, new);
	rewrite_text("/sys/module/nvidia_current/version", old, new);
	for (i = 0; libdirs[i]; i++) {
		/* merged /usr: lib -> usr/lib is the same directory */
		host_path(hp, sizeof(hp), libdirs[i]);
		if (!realpath(hp, real))
			continue;
		if (i > 0) {
			int j;
			bool seen = false;
			for (j = 0; j < i; j++) {
				char hq[P_MAX], rq[P_MAX];
				host_path(hq, sizeof(hq), libdirs[j]);
				if (realpath(hq, rq) && !strcmp(rq, real))
					seen = true;
			}
			if (seen)
				continue;
		}
		n += rename_driver_libs(libdirs[i], old, new);
	}
	printf("driver: %s -> %s: %d library files and links renamed\n", old, new, n);
	rewrite_ldcache(old, new);
	if (scenario)
		rewrite_scenario(scenario, new);
}

/* ---- wheels ------------------------------------------------------------------------ */

struct wheel {
	const char *pkg;            /* "nvidia-cublas-cu12" */
	const char *version;        /* "12.2.5.6" */
};

/*
 * The nvidia-* wheels PyTorch and JAX CUDA builds bring, per CUDA variant.
 * Sources: 13.0 is the real H200 machine's torch 2.11.0+cu130 environment
 * (../shared/reference/h200/collect_env.txt, pip list); 12.4 the
 * Requires-Dist of torch 2.5.1+cu124 (the same set jax[cuda12] 0.4.31
 * resolved to in tests/fixtures/fw-jax-plugin-mismatch); 11.8, 12.1, 12.6
 * and 12.8 the Requires-Dist of torch 2.7.1+cu118, 2.3.1+cu121, 2.7.1+cu126
 * and 2.7.1+cu128 as PyPI / download.pytorch.org list them (transcribed,
 * not re-checked against the index by this tool's author). JAX's cudaNN
 * extras pin lower bounds only; pip takes the newest, here the newest set
 * of the table for that major plus nvidia-cuda-nvcc.
 */
struct wheel_set {
	const char *cuda;
	struct wheel w[MAX_WHEELS];
};

static const struct wheel_set wheel_sets[] = {
	{ "11.8", {
		{ "nvidia-cuda-runtime-cu11", "11.8.89" }, { "nvidia-cuda-nvrtc-cu11", "11.8.89" },
		{ "nvidia-cuda-cupti-cu11", "11.8.87" }, { "nvidia-cublas-cu11", "11.11.3.6" },
		{ "nvidia-cufft-cu11", "10.9.0.58" }, { "nvidia-curand-cu11", "10.3.0.86" },
		{ "nvidia-cusolver-cu11", "11.4.1.48" }, { "nvidia-cusparse-cu11", "11.7.5.86" },
		{ "nvidia-cudnn-cu11", "9.1.0.70" }, { "nvidia-nccl-cu11", "2.21.5" },
		{ "nvidia-nvtx-cu11", "11.8.86" }, { NULL, NULL } } },
	{ "12.1", {
		{ "nvidia-cuda-runtime-cu12", "12.1.105" }, { "nvidia-cuda-nvrtc-cu12", "12.1.105" },
		{ "nvidia-cuda-cupti-cu12", "12.1.105" }, { "nvidia-cublas-cu12", "12.1.3.1" },
		{ "nvidia-cufft-cu12", "11.0.2.54" }, { "nvidia-curand-cu12", "10.3.2.106" },
		{ "nvidia-cusolver-cu12", "11.4.5.107" }, { "nvidia-cusparse-cu12", "12.1.0.106" },
		{ "nvidia-cudnn-cu12", "8.9.2.26" }, { "nvidia-nccl-cu12", "2.20.5" },
		{ "nvidia-nvtx-cu12", "12.1.105" }, { "nvidia-nvjitlink-cu12", "12.1.105" },
		{ NULL, NULL } } },
	{ "12.4", {
		{ "nvidia-cuda-runtime-cu12", "12.4.127" }, { "nvidia-cuda-nvrtc-cu12", "12.4.127" },
		{ "nvidia-cuda-cupti-cu12", "12.4.127" }, { "nvidia-cublas-cu12", "12.4.5.8" },
		{ "nvidia-cufft-cu12", "11.2.1.3" }, { "nvidia-curand-cu12", "10.3.5.147" },
		{ "nvidia-cusolver-cu12", "11.6.1.9" }, { "nvidia-cusparse-cu12", "12.3.1.170" },
		{ "nvidia-cudnn-cu12", "9.1.0.70" }, { "nvidia-nccl-cu12", "2.21.5" },
		{ "nvidia-nvtx-cu12", "12.4.127" }, { "nvidia-nvjitlink-cu12", "12.4.127" },
		{ NULL, NULL } } },
	{ "12.6", {
		{ "nvidia-cuda-runtime-cu12", "12.6.77" }, { "nvidia-cuda-nvrtc-cu12", "12.6.77" },
		{ "nvidia-cuda-cupti-cu12", "12.6.80" }, { "nvidia-cublas-cu12", "12.6.4.1" },
		{ "nvidia-cufft-cu12", "11.3.0.4" }, { "nvidia-curand-cu12", "10.3.7.77" },
		{ "nvidia-cusolver-cu12", "11.7.1.2" }, { "nvidia-cusparse-cu12", "12.5.4.2" },
		{ "nvidia-cudnn-cu12", "9.5.1.17" }, { "nvidia-nccl-cu12", "2.26.2" },
		{ "nvidia-nvtx-cu12", "12.6.77" }, { "nvidia-nvjitlink-cu12", "12.6.85" },
		{ NULL, NULL } } },
	{ "12.8", {
		{ "nvidia-cuda-runtime-cu12", "12.8.90" }, { "nvidia-cuda-nvrtc-cu12", "12.8.93" },
		{ "nvidia-cuda-cupti-cu12", "12.8.90" }, { "nvidia-cublas-cu12", "12.8.4.1" },
		{ "nvidia-cufft-cu12", "11.3.3.83" }, { "nvidia-curand-cu12", "10.3.9.90" },
		{ "nvidia-cusolver-cu12", "11.7.3.90" }, { "nvidia-cusparse-cu12", "12.5.8.93" },
		{ "nvidia-cudnn-cu12", "9.7.1.26" }, { "nvidia-nccl-cu12", "2.26.2" },
		{ "nvidia-nvtx-cu12", "12.8.90" }, { "nvidia-nvjitlink-cu12", "12.8.93" },
		{ NULL, NULL } } },
	{ "13.0", {
		{ "nvidia-cuda-runtime", "13.0.96" }, { "nvidia-cuda-nvrtc", "13.0.88" },
		{ "nvidia-cuda-cupti", "13.0.85" }, { "nvidia-cublas", "13.1.0.3" },
		{ "nvidia-cufft", "12.0.0.61" }, { "nvidia-curand", "10.4.0.35" },
		{ "nvidia-cusolver", "12.0.4.66" }, { "nvidia-cusparse", "12.6.3.3" },
		{ "nvidia-cudnn-cu13", "9.19.0.56" }, { "nvidia-nccl-cu13", "2.28.9" },
		{ "nvidia-nvtx", "13.0.85" }, { "nvidia-nvjitlink", "13.0.88" },
		{ NULL, NULL } } },
};

static const struct wheel_set *
wheel_set(const char *cuda)
{
	size_t i;

	for (i = 0; i < sizeof(wheel_sets) / sizeof(wheel_sets[0]); i++)
		if (!strcmp(wheel_sets[i].cuda, cuda))
			return &wheel_sets[i];
	return NULL;
}

/* The newest set of a CUDA major ("12"). */
static const struct wheel_set *
wheel_set_major(int major)
{
	const struct wheel_set *best = NULL;
	size_t i;
	int v;

	for (i = 0; i < sizeof(wheel_sets) / sizeof(wheel_sets[0]); i++)
		if (vers_parse(wheel_sets[i].cuda, &v, 1) == 1 && v == major)
			best = &wheel_sets[i];
	return best;
}

/* What one wheel installs: its directory under site-packages and files. */
struct wheel_files {
	char dir[64];               /* "nvidia/cublas" or "nvidia/cu13" */
	int nlibs;
	char libs[MAX_LIBS][64];    /* sonames under dir/lib */
	bool nvcc;                  /* bin/ptxas, nvvm/libdevice/libdevice.10.bc */
};

static void
add_lib(struct wheel_files *wf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
add_lib(struct wheel_files *wf, const char *fmt, ...)
{
	va_list ap;

	if (wf->nlibs >= MAX_LIBS)
		die("too many libraries in one wheel");
	va_start(ap, fmt);
	vsnprintf(wf->libs[wf->nlibs++], sizeof(wf->libs[0]), fmt, ap);
	va_end(ap);
}

/*
 * The layout of nvidia-<stem>[-cuNN]==version: the soname major is the
 * wheel version's major (cuBLAS 12.2.5.6 -> libcublas.so.12), except the
 * CUDA 11 runtime (libcudart.so.11.0), CUPTI (libcupti.so.11.8) and NVRTC
 * (libnvrtc.so.11.2), whose sonames carry a minor. CUDA 13's unsuffixed
 * wheels share nvidia/cu13/.
 */
static void
wheel_layout(const char *pkg, const char *version, struct wheel_files *wf)
{
	char stem[64], *s;
	int v[2] = { 0, 0 }, m;
	bool cu13 = false;

	memset(wf, 0, sizeof(*wf));
	if (!str_starts(pkg, "nvidia-") || vers_parse(version, v, 2) < 1)
		die("not an nvidia wheel: %s %s", pkg, version);
	STR_COPY(stem, pkg + 7);
	if ((s = strstr(stem, "-cu1")) && strlen(s) == 5)
		*s = '\0';
	else
		cu13 = true;          /* CUDA 13's wheels drop the suffix */
	m = v[0];
	if (cu13)
		STR_COPY(wf->dir, "nvidia/cu13");
	else {
		STR_FMT(wf->dir, "nvidia/%s", stem);
		for (s = wf->dir; *s; s++)
			if (*s == '-')
				*s = '_';
	}
	if (!strcmp(stem, "cublas")) {
		add_lib(wf, "libcublas.so.%d", m);
		add_lib(wf, "libcublasLt.so.%d", m);
		add_lib(wf, "libnvblas.so.%d", m);
	} else if (!strcmp(stem, "cuda-runtime")) {
		if (m == 11)
			add_lib(wf, "libcudart.so.11.0");
		else
			add_lib(wf, "libcudart.so.%d", m);
	} else if (!strcmp(stem, "cuda-cupti")) {
		if (m == 11)
			add_lib(wf, "libcupti.so.11.%d", v[1]);
		else
			add_lib(wf, "libcupti.so.%d", m);
	} else if (!strcmp(stem, "cuda-nvrtc")) {
		if (m == 11)
			add_lib(wf, "libnvrtc.so.11.2");
		else
			add_lib(wf, "libnvrtc.so.%d", m);
		add_lib(wf, "libnvrtc-builtins.so.%d.%d", m, v[1]);
	} else if (!strcmp(stem, "cuda-nvcc")) {
		wf->nvcc = true;
	} else if (!strcmp(stem, "cudnn")) {
		static const char *const c8[] = { "adv_infer", "adv_train", "cnn_infer", "cnn_train",
			"ops_infer", "ops_train", NULL };
		static const char *const c9[] = { "adv", "cnn", "engines_precompiled",
			"engines_runtime_compiled", "graph", "heuristic", "ops", NULL };
		const char *const *sub = m >= 9 ? c9 : c8;
		int i;

		STR_COPY(wf->dir, "nvidia/cudnn");
		add_lib(wf, "libcudnn.so.%d", m);
		for (i = 0; sub[i]; i++)
			add_lib(wf, "libcudnn_%s.so.%d", sub[i], m);
	} else if (!strcmp(stem, "cufft")) {
		add_lib(wf, "libcufft.so.%d", m);
		add_lib(wf, "libcufftw.so.%d", m);
	} else if (!strcmp(stem, "curand")) {
		add_lib(wf, "libcurand.so.%d", m);
	} else if (!strcmp(stem, "cusolver")) {
		add_lib(wf, "libcusolver.so.%d", m);
		add_lib(wf, "libcusolverMg.so.%d", m);
	} else if (!strcmp(stem, "cusparse")) {
		add_lib(wf, "libcusparse.so.%d", m);
	} else if (!strcmp(stem, "nccl")) {
		STR_COPY(wf->dir, "nvidia/nccl");
		add_lib(wf, "libnccl.so.%d", m);
	} else if (!strcmp(stem, "nvjitlink")) {
		add_lib(wf, "libnvJitLink.so.%d", m);
	} else if (!strcmp(stem, "nvtx")) {
		if (cu13)
			add_lib(wf, "libnvtx3interop.so.1");
		else
			add_lib(wf, "libnvToolsExt.so.1");
	} else {
		die("no layout for wheel %s", pkg);
	}
}

/* pip's dist-info directory name: "nvidia-cublas-cu12" -> "nvidia_cublas_cu12". */
static void
dist_name(const char *pkg, char *out, size_t size)
{
	char *s;

	str_copy(out, size, pkg);
	for (s = out; *s; s++)
		if (*s == '-' || *s == '.')
			*s = '_';
}

/* NAME-VERSION.dist-info with INSTALLER, METADATA and RECORD (files listed). */
static void
write_dist_info(const char *site, const char *name, const char *version, const char *record)
{
	char dn[128], dir[P_MAX], path[P_MAX];
	struct buf b;

	dist_name(name, dn, sizeof(dn));
	STR_FMT(dir, "%s/%s-%s.dist-info", site, dn, version);
	mkdirs(dir);
	STR_FMT(path, "%s/INSTALLER", dir);
	write_file(path, "pip\n");
	buf_init(&b);
	buf_addf(&b, "Metadata-Version: 2.1\nName: %s\nVersion: %s\n", name, version);
	STR_FMT(path, "%s/METADATA", dir);
	write_file(path, b.s);
	buf_reset(&b);
	buf_adds(&b, record ? record : "");
	buf_addf(&b, "%s-%s.dist-info/INSTALLER,,\n", dn, version);
	buf_addf(&b, "%s-%s.dist-info/METADATA,,\n", dn, version);
	buf_addf(&b, "%s-%s.dist-info/RECORD,,\n", dn, version);
	STR_FMT(path, "%s/RECORD", dir);
	write_file(path, b.s);
	buf_release(&b);
}

/* Install one nvidia wheel; its lib directory (relative to site) into
 * libdir ("" none). */
static void
install_wheel(const char *site, const struct wheel *w, char *libdir, size_t size)
{
	struct wheel_files wf;
	char path[P_MAX], rel[P_MAX];
	struct buf rec;
	int i;

	wheel_layout(w->pkg, w->version, &wf);
	buf_init(&rec);
	for (i = 0; i < wf.nlibs; i++) {
		STR_FMT(rel, "%s/lib/%s", wf.dir, wf.libs[i]);
		STR_FMT(path, "%s/%s", site, rel);
		write_elf(path, wf.libs[i], NULL, 0, NULL, false);
		buf_addf(&rec, "%s,,\n", rel);
	}
	if (wf.nvcc) {
		static const char *const files[] = { "bin/ptxas", "nvvm/libdevice/libdevice.10.bc", NULL };
		for (i = 0; files[i]; i++) {
			STR_FMT(rel, "%s/%s", wf.dir, files[i]);
			STR_FMT(path, "%s/%s", site, rel);
			write_file(path, "");
			buf_addf(&rec, "%s,,\n", rel);
		}
	}
	write_dist_info(site, w->pkg, w->version, rec.s);
	buf_release(&rec);
	str_copy(libdir, size, wf.nlibs ? wf.dir : "");
	printf("wheel: %s==%s\n", w->pkg, w->version);
}

/* Install wheels[0..n); the RPATH/RUNPATH of a consumer `up` levels below
 * site ("$ORIGIN/../../nvidia/x/lib:...") into path, and every soname into
 * sonames (space-separated). */
static void
install_wheels(const char *site, const struct wheel *w, int n, int up, struct buf *path,
	       struct buf *sonames)
{
	char dirs[MAX_WHEELS][64];
	int i, j, nd = 0;

	for (i = 0; i < n && w[i].pkg; i++) {
		char d[64];
		struct wheel_files wf;
		bool seen = false;

		install_wheel(site, &w[i], d, sizeof(d));
		wheel_layout(w[i].pkg, w[i].version, &wf);
		for (j = 0; j < wf.nlibs; j++)
			buf_addf(sonames, "%s ", wf.libs[j]);
		if (!d[0])
			continue;
		for (j = 0; j < nd; j++)
			if (!strcmp(dirs[j], d))
				seen = true;
		if (seen || nd >= MAX_WHEELS)
			continue;
		STR_COPY(dirs[nd], d);
		nd++;
		buf_adds(path, path->len ? ":$ORIGIN" : "$ORIGIN");
		for (j = 0; j < up; j++)
			buf_adds(path, "/..");
		buf_addf(path, "/%s/lib", d);
	}
}

/* The soname in the space-separated list that starts with prefix ("libcudnn.so."). */
static bool
pick_soname(const char *list, const char *prefix, char *out, size_t size)
{
	const char *p = list;

	while (p && *p) {
		size_t n = strcspn(p, " ");
		if (n > strlen(prefix) && !strncmp(p, prefix, strlen(prefix))) {
			str_fmt(out, size, "%.*s", (int)n, p);
			return true;
		}
		p += n;
		while (*p == ' ')
			p++;
	}
	return false;
}

/* ---- frameworks ---------------------------------------------------------------------- */

/* CUDA architectures of TensorFlow's Linux wheels (build_info.py
 * cuda_compute_capabilities): 2.15's is the real wheel's
 * (tests/fixtures/fw-tf215-and-cuda-complete); the CUDA 11 releases up to
 * 2.14 built for sm_35 on (a released 2.x build_info.py, e.g. the 2.4-2.8
 * wheels; tensorflow.org/install/pip of that time: "CUDA architectures
 * 3.5, 5.0, 6.0, 7.0, 7.5, 8.0 and higher"); CUDA 12, from 2.15, cannot
 * build for Kepler at all. */
static const char *
tf_capabilities(const char *version)
{
	if (vers_cmp(version, "2.15") >= 0)
		return "['sm_50', 'sm_60', 'sm_70', 'sm_80', 'compute_90']";
	return "['sm_35', 'sm_50', 'sm_60', 'sm_70', 'sm_75', 'compute_80']";
}

static void
install_tensorflow(const struct plan *p, const char *site, const char *pkg)
{
	char path[P_MAX], cudnn_major[8] = "", text[2048];
	struct wheel w[MAX_WHEELS];
	const struct kb_tf_pin *pins;
	struct buf rpath, sonames, rec;
	size_t npins = 0, i;
	int n = 0;
	const char *needed[1] = { "libtensorflow_framework.so.2" };

	buf_init(&rpath);
	buf_init(&sonames);
	buf_init(&rec);
	if (p->gpu && p->and_cuda && !strcmp(pkg, "tensorflow[and-cuda]")) {
		char rel[40], prel[40];

		pins = kb_tf_pins(p->version, &npins);
		vers_release(p->version, rel, sizeof(rel));
		if (!pins || !npins) {
			/* releases the table lacks: the newest older release's pins */
			size_t nall, k;
			const struct kb_tf_pin *all = kb_list_tf_and_cuda_pins(&nall);
			const char *best = NULL;

			for (k = 0; k < nall; k++)
				if (vers_cmp(all[k].version, p->version) <= 0 &&
				    (!best || vers_cmp(all[k].version, best) > 0))
					best = all[k].version;
			if (!best || !(pins = kb_tf_pins(best, &npins)) || !npins)
				die("the knowledge base has no [and-cuda] pins for TensorFlow %s", p->version);
		}
		vers_release(pins[0].version, prel, sizeof(prel));
		if (strcmp(rel, prel))
			printf("tensorflow: no [and-cuda] pins for %s in the knowledge base: using %s's\n",
			       p->version, pins[0].version);
		for (i = 0; i < npins && n < MAX_WHEELS; i++) {
			if (!str_starts(pins[i].requirement, "=="))
				die("pin %s %s is not exact", pins[i].package, pins[i].requirement);
			w[n].pkg = pins[i].package;
			w[n].version = pins[i].requirement + 2;
			n++;
		}
		install_wheels(site, w, n, 2, &rpath, &sonames);
	} else if (p->gpu) {
		die("TensorFlow %s without [and-cuda] loads a system CUDA: not modelled", p->version);
	}
	if (rpath.len)
		buf_adds(&rpath, ":");
	buf_adds(&rpath, "$ORIGIN/:$ORIGIN/..");
	if (p->cudnn)
		vers_truncate(p->cudnn, 1, cudnn_major, sizeof(cudnn_major));
	/* the Linux wheel is a CUDA build with or without the extra */
	{
		const struct kb_tf_build *b = kb_tf_build(p->version, "linux", "gpu");
		const char *cuda = p->cuda ? p->cuda : b ? b->cuda : "";
		char cm[8] = "";

		if (!cudnn_major[0] && b)
			vers_truncate(b->cudnn, 1, cm, sizeof(cm));
		STR_FMT(text, "# (license header cut)\n\"\"\"Auto-generated module providing information "
			"about the build.\"\"\"\nimport collections\n\nbuild_info = "
			"collections.OrderedDict([('cpu_compiler', '/usr/lib/llvm-18/bin/clang'), "
			"('cuda_compute_capabilities', %s), ('cuda_version', '%s'), ('cudnn_version', "
			"'%s'), ('is_cuda_build', True), ('is_rocm_build', False), "
			"('is_tensorrt_build', False)])\n",
			tf_capabilities(p->version), cuda, cudnn_major[0] ? cudnn_major : cm);
	}
	STR_FMT(path, "%s/tensorflow/python/platform/build_info.py", site);
	write_file(path, text);
	STR_FMT(path, "%s/tensorflow/__init__.py", site);
	write_file(path, "");
	STR_FMT(path, "%s/tensorflow/libtensorflow_framework.so.2", site);
	write_elf(path, "libtensorflow_framework.so.2", NULL, 0, "$ORIGIN", false);
	STR_FMT(path, "%s/tensorflow/python/_pywrap_tensorflow_internal.so", site);
	write_elf(path, NULL, needed, 1, rpath.s, false);
	buf_adds(&rec, "tensorflow/__init__.py,,\ntensorflow/libtensorflow_framework.so.2,,\n"
		       "tensorflow/python/_pywrap_tensorflow_internal.so,,\n"
		       "tensorflow/python/platform/build_info.py,,\n");
	write_dist_info(site, "tensorflow", p->version, rec.s);
	printf("tensorflow: %s (%s), extension RPATH %s\n", p->version,
	       p->gpu ? "GPU" : "the Linux wheel, a CUDA build", rpath.s);
	buf_release(&rpath);
	buf_release(&sonames);
	buf_release(&rec);
}

/* "cu124" from "...whl/cu124"; "" none. */
static void
url_tag(const char *step, char *out, size_t size)
{
	const char *u = strstr(step, "download.pytorch.org/whl/");

	out[0] = '\0';
	if (!u)
		return;
	u += strlen("download.pytorch.org/whl/");
	str_fmt(out, size, "%.*s", (int)strcspn(u, " /'\""), u);
}

static void
install_torch(const struct plan *p, const char *site, const char *step)
{
	char tag[16], full[48], path[P_MAX], text[1024], so[64];
	const char *torch_libs[] = { "libc10.so", "libc10_cuda.so", "libtorch.so", "libtorch_cpu.so" };
	const char *needed[24];
	const struct wheel_set *ws = NULL;
	struct buf rpath, sonames, rec;
	int n = 0, i;
	bool gpu;

	url_tag(step, tag, sizeof(tag));
	if (strchr(p->version, '+'))
		die("unexpected local tag in %s", p->version);
	if (!strcmp(tag, "cpu") || !p->gpu) {
		gpu = false;
		STR_FMT(full, "%s+cpu", p->version);
	} else {
		if (!p->variant)
			die("the torch plan names no CUDA variant");
		if (!(ws = wheel_set(p->variant))) {
			int mv[2];
			if (vers_parse(p->variant, mv, 1) != 1 || !(ws = wheel_set_major(mv[0])) ||
			    vers_cmp(ws->cuda, p->variant) > 0)
				die("no nvidia wheel set for torch variant %s", p->variant);
			printf("torch: no wheel set for CUDA %s in the table: the %s set stands in\n",
			       p->variant, ws->cuda);
		}
		gpu = true;
		/* with the index URL pip names the local tag; PyPI's default has none */
		if (tag[0])
			STR_FMT(full, "%s+%s", p->version, tag);
		else
			STR_COPY(full, p->version);
	}
	buf_init(&rpath);
	buf_init(&sonames);
	buf_init(&rec);
	if (gpu) {
		int nw = 0;
		while (nw < MAX_WHEELS && ws->w[nw].pkg)
			nw++;
		install_wheels(site, ws->w, nw, 2, &rpath, &sonames);
		buf_adds(&rpath, ":$ORIGIN");
	}
	for (i = 0; i < 4; i++) {
		STR_FMT(path, "%s/torch/lib/%s", site, torch_libs[i]);
		write_elf(path, torch_libs[i], NULL, 0, "$ORIGIN", true);
		buf_addf(&rec, "torch/lib/%s,,\n", torch_libs[i]);
	}
	{
		/* version.py carries the CUDA tag even when the dist-info (PyPI's
		 * default wheel) does not */
		char vt[48], t[16], *d;
		const char *c;

		if (gpu && !tag[0]) {
			for (c = p->variant, d = t; *c && d < t + sizeof(t) - 1; c++)
				if (*c != '.')
					*d++ = *c;
			*d = '\0';
			STR_FMT(vt, "%s+cu%s", p->version, t);
		} else {
			STR_COPY(vt, full);
		}
		STR_FMT(text, "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', "
			"'git_version', 'hip']\n__version__ = '%s'\ndebug = False\ncuda: Optional[str] = %s%s%s\n"
			"hip: Optional[str] = None\n", vt, gpu ? "'" : "", gpu ? p->variant : "None",
			gpu ? "'" : "");
	}
	STR_FMT(path, "%s/torch/version.py", site);
	write_file(path, text);
	STR_FMT(path, "%s/torch/__init__.py", site);
	write_file(path, "");
	buf_adds(&rec, "torch/__init__.py,,\ntorch/version.py,,\n");
	if (gpu) {
		static const char *const want[] = { "libcudart.so.", "libcusparse.so.", "libcufft.so.",
			"libcurand.so.", "libcublas.so.", "libcublasLt.so.", "libcudnn.so.",
			"libnccl.so.", NULL };
		static char names[16][64];

		needed[n++] = "libc10_cuda.so";
		for (i = 0; want[i]; i++) {
			if (!pick_soname(sonames.s, want[i], so, sizeof(so)))
				die("torch %s: no %s in its wheels", full, want[i]);
			STR_COPY(names[i], so);
			needed[n++] = names[i];
		}
		needed[n++] = "libc10.so";
		needed[n++] = "libtorch_cpu.so";
		STR_FMT(path, "%s/torch/lib/libtorch_cuda.so", site);
		write_elf(path, "libtorch_cuda.so", needed, n, rpath.s, true);
		buf_adds(&rec, "torch/lib/libtorch_cuda.so,,\n");
	}
	write_dist_info(site, "torch", full, rec.s);
	printf("torch: %s%s%s\n", full, gpu ? ", libtorch_cuda.so RUNPATH " : " (CPU)",
	       gpu ? rpath.s : "");
	buf_release(&rpath);
	buf_release(&sonames);
	buf_release(&rec);
}

static void
install_jax(const struct plan *p, const char *site, const char *spec)
{
	char plugin[32], pjrt[32], path[P_MAX], so[64], dir[64];
	const struct wheel_set *ws;
	struct wheel w[MAX_WHEELS + 1];
	struct buf rpath, sonames;
	int major = 0, n = 0, i;
	static const char *const want[] = { "libcudart.so.", "libcudnn.so.", "libcusolver.so.",
		"libcublas.so.", "libcusparse.so.", "libcufft.so.", NULL };
	static char names[8][64];
	const char *needed[8];

	write_dist_info(site, "jax", p->version, "jax/__init__.py,,\n");
	STR_FMT(path, "%s/jax/__init__.py", site);
	write_file(path, "");
	write_dist_info(site, "jaxlib", p->version, "jaxlib/__init__.py,,\n");
	STR_FMT(path, "%s/jaxlib/__init__.py", site);
	write_file(path, "");
	if (!p->gpu || strstr(spec, "[cpu]") || !strstr(spec, "[cuda")) {
		printf("jax: %s (CPU)\n", p->version);
		return;
	}
	if (sscanf(strstr(spec, "[cuda") + 5, "%d", &major) != 1 || major < 11 || major > 99)
		die("cannot read the CUDA major of %s", spec);
	if (vers_cmp(p->version, "0.4.26") < 0)
		die("jax %s: the monolithic jaxlib+cuda wheels are not modelled", p->version);
	if (!(ws = wheel_set_major(major)))
		die("no nvidia wheel set for CUDA %d", major);
	for (i = 0; ws->w[i].pkg && n < MAX_WHEELS; i++)
		w[n++] = ws->w[i];
	/* jax[cudaNN] brings nvcc for ptxas; CUDA 13's is unsuffixed */
	w[n].pkg = major >= 13 ? "nvidia-cuda-nvcc" : "nvidia-cuda-nvcc-cu12";
	w[n].version = major >= 13 ? "13.0.88" : ws->w[0].version;
	n++;
	buf_init(&rpath);
	buf_init(&sonames);
	install_wheels(site, w, n, 1, &rpath, &sonames);
	STR_FMT(plugin, "jax-cuda%d-plugin", major);
	STR_FMT(pjrt, "jax-cuda%d-pjrt", major);
	STR_FMT(dir, "jax_cuda%d_plugin", major);
	for (i = 0; want[i]; i++) {
		if (!pick_soname(sonames.s, want[i], so, sizeof(so)))
			die("jax: no %s in its wheels", want[i]);
		STR_COPY(names[i], so);
		needed[i] = names[i];
	}
	STR_FMT(path, "%s/%s/_versions.so", site, dir);
	write_elf(path, NULL, needed, i, rpath.s, true);
	{
		char rec[256];
		STR_FMT(rec, "%s/_versions.so,,\n", dir);
		write_dist_info(site, plugin, p->version, rec);
		STR_FMT(rec, "jax_plugins/xla_cuda%d/xla_cuda_plugin.so,,\n", major);
		write_dist_info(site, pjrt, p->version, rec);
	}
	STR_FMT(path, "%s/jax_plugins/xla_cuda%d/xla_cuda_plugin.so", site, major);
	write_elf(path, NULL, NULL, 0, NULL, false);
	printf("jax: %s with %s and %s, _versions.so RUNPATH %s\n", p->version, plugin, pjrt, rpath.s);
	buf_release(&rpath);
	buf_release(&sonames);
}

/* ---- Python and the venv ------------------------------------------------------------- */

/* The machine's interpreter /usr/bin/pythonX.Y; the stand-in when missing. */
static void
ensure_python(const char *minor)
{
	char path[64];

	STR_FMT(path, "/usr/bin/python%s", minor);
	if (exists(path))
		return;
	write_file(path, "");
	printf("python: %s installed (the plan relies on it)\n", path);
}

static void
make_venv(const char *dir, const char *minor, const char *full)
{
	char path[P_MAX], text[512];

	ensure_python(minor);
	STR_FMT(text, "home = /usr/bin\ninclude-system-site-packages = false\nversion = %s\n", full);
	STR_FMT(path, "%s/pyvenv.cfg", dir);
	write_file(path, text);
	STR_FMT(path, "%s/bin/python3", dir);
	STR_FMT(text, "/usr/bin/python%s", minor);
	make_link(path, text);
	STR_FMT(path, "%s/bin/python", dir);
	make_link(path, "python3");
	STR_FMT(path, "%s/bin/python%s", dir, minor);
	make_link(path, "python3");
	STR_FMT(text, "# This file must be used with \"source bin/activate\"\nVIRTUAL_ENV=%s\n"
		"export VIRTUAL_ENV\nPATH=\"$VIRTUAL_ENV/bin:$PATH\"\nexport PATH\n", dir);
	STR_FMT(path, "%s/bin/activate", dir);
	write_file(path, text);
	STR_FMT(path, "%s/lib/python%s/site-packages", dir, minor);
	mkdirs(path);
	printf("venv: %s (Python %s)\n", dir, full);
}

/* "~/x" -> HOME/x. */
static void
expand_home(const char *in, const char *home, char *out, size_t size)
{
	if (in[0] == '~' && (in[1] == '/' || !in[1]))
		str_fmt(out, size, "%s%s", home, in + 1);
	else
		str_copy(out, size, in);
	if (out[0] != '/')
		die("not an absolute path: %s", in);
}

/* The package spec of "python -m pip install SPEC ..." without quotes:
 * "tensorflow[and-cuda]==2.15.0" -> name "tensorflow[and-cuda]", version. */
static void
pip_spec(const char *step, char *name, size_t nsize, char *version, size_t vsize, char *spec,
	 size_t ssize)
{
	const char *s = step + strlen("python -m pip install ");
	char *eq;
	size_t n;

	if (*s == '\'')
		s++;
	n = strcspn(s, "' ");
	str_fmt(spec, ssize, "%.*s", (int)n, s);
	str_copy(name, nsize, spec);
	version[0] = '\0';
	if ((eq = strstr(name, "=="))) {
		str_copy(version, vsize, eq + 2);
		*eq = '\0';
	}
}

/* ---- main ------------------------------------------------------------------------------ */

static int
usage(void)
{
	fprintf(stderr, "usage: apply-plan ROOT PLAN.json [--home DIR] [--scenario FILE] "
			"[--driver VERSION]\n       apply-plan ROOT --set-driver VERSION [--scenario FILE]\n");
	return 1;
}

int
main(int argc, char **argv)
{
	const char *plan_file = NULL, *home = NULL, *scenario = NULL, *driver = NULL, *set = NULL;
	char venv[P_MAX] = "", minor[16] = "", site[P_MAX], full[32];
	struct plan p;
	json_error_t jerr;
	json_t *steps, *blockers, *v;
	size_t i;
	int a, installed = 0;
	bool in_driver = false;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--home") && a + 1 < argc)
			home = argv[++a];
		else if (!strcmp(argv[a], "--scenario") && a + 1 < argc)
			scenario = argv[++a];
		else if (!strcmp(argv[a], "--driver") && a + 1 < argc)
			driver = argv[++a];
		else if (!strcmp(argv[a], "--set-driver") && a + 1 < argc)
			set = argv[++a];
		else if (argv[a][0] == '-')
			return usage();
		else if (!root)
			root = argv[a];
		else if (!plan_file)
			plan_file = argv[a];
		else
			return usage();
	}
	if (root && set && !plan_file) {
		upgrade_driver(set, set, scenario, true);
		return 0;
	}
	if (!root || !plan_file || set)
		return usage();
	if (!home)
		home = getenv("HOME");
	if (!home || home[0] != '/')
		die("no HOME: give --home DIR (the machine's home directory)");

	memset(&p, 0, sizeof(p));
	if (!(p.doc = json_load_file(plan_file, 0, &jerr)))
		die("%s: %s (line %d)", plan_file, jerr.text, jerr.line);
	if (strcmp(jstr(p.doc, "format") ? jstr(p.doc, "format") : "", "pip"))
		die("only --format pip plans are applied");
	p.fw = jstr(p.doc, "framework");
	p.version = jstr(p.doc, "version");
	p.gpu = json_is_true(json_object_get(p.doc, "gpu"));
	v = json_object_get(p.doc, "build");
	if (json_is_object(v)) {
		p.cuda = jstr(v, "cuda");
		p.cudnn = jstr(v, "cudnn");
		p.variant = jstr(v, "variant");
		p.python_used = jstr(v, "python_used");
		p.and_cuda = json_is_true(json_object_get(v, "and_cuda"));
	}
	v = json_object_get(p.doc, "machine");
	if (json_is_object(v)) {
		p.machine_python = jstr(v, "python");
		p.machine_driver = jstr(v, "driver");
	}
	if (!p.fw)
		die("%s: no framework", plan_file);

	/* a blocked plan: apply what it says to change first */
	if (!p.version) {
		int done = 0;

		blockers = json_object_get(p.doc, "blockers");
		for (i = 0; i < json_array_size(blockers); i++) {
			json_t *b = json_array_get(blockers, i);
			const char *dmin = jstr(b, "driver_min"), *py = jstr(b, "python");

			if (dmin) {
				upgrade_driver(dmin, driver, scenario, false);
				done++;
			} else if (py) {
				ensure_python(py);
				done++;
			} else {
				die("blocker not applicable: %s", jstr(b, "what") ? jstr(b, "what") : "?");
			}
		}
		if (!done)
			die("the plan has no version and no blocker to apply");
		printf("blocked plan: %d change%s applied; plan again\n", done, done == 1 ? "" : "s");
		json_decref(p.doc);
		return 0;
	}

	steps = json_object_get(p.doc, "steps");
	for (i = 0; i < json_array_size(steps); i++) {
		const char *s = json_string_value(json_array_get(steps, i));
		char name[128], ver[64], spec[192], dir[P_MAX];
		unsigned mj, mn;

		if (!s)
			continue;
		if (str_starts(s, "# first install the NVIDIA driver (>= ")) {
			char want[32];
			const char *q = s + strlen("# first install the NVIDIA driver (>= ");
			str_fmt(want, sizeof(want), "%.*s", (int)strcspn(q, ")"), q);
			upgrade_driver(want, driver, scenario, false);
			in_driver = true;
			continue;
		}
		if (str_starts(s, "# first install the NVIDIA Windows driver"))
			die("a Windows driver install is not modelled");
		if (str_starts(s, "python"))
			in_driver = false;
		if (s[0] == '#') {
			if (strstr(s, "install both") || strstr(s, "add cuDNN"))
				die("step not modelled (system CUDA/cuDNN): %s", s);
			continue;         /* a remark inside the driver commands */
		}
		if (sscanf(s, "python%u.%u -m venv %1023s", &mj, &mn, dir) == 3 ||
		    sscanf(s, "python3 -m venv %1023s", dir) == 1) {
			if (str_starts(s, "python3 -m venv ")) {
				/* python3 is the machine's; the plan names its version */
				const char *mp = p.machine_python ? p.machine_python : p.python_used;
				int vv[2];
				if (!mp || vers_parse(mp, vv, 2) != 2)
					die("python3 -m venv: the plan does not say which Python python3 is");
				STR_FMT(minor, "%d.%d", vv[0], vv[1]);
			} else {
				STR_FMT(minor, "%u.%u", mj, mn);
			}
			expand_home(dir, home, venv, sizeof(venv));
			if (p.machine_python && str_starts(p.machine_python, minor) &&
			    p.machine_python[strlen(minor)] == '.')
				STR_COPY(full, p.machine_python);
			else
				STR_FMT(full, "%s.0", minor);
			make_venv(venv, minor, full);
			continue;
		}
		if (str_starts(s, ". ") && str_ends(s, "/bin/activate")) {
			char d[P_MAX];
			str_fmt(dir, sizeof(dir), "%.*s", (int)(strlen(s) - 2 - strlen("/bin/activate")), s + 2);
			expand_home(dir, home, d, sizeof(d));
			if (strcmp(d, venv))
				die("activates %s, not the venv made (%s)", d, venv);
			continue;
		}
		if (!strcmp(s, "python -m pip install --upgrade pip"))
			continue;
		if (str_starts(s, "python -m pip install ")) {
			if (!venv[0])
				die("pip install outside a venv: %s", s);
			pip_spec(s, name, sizeof(name), ver, sizeof(ver), spec, sizeof(spec));
			if (strcmp(ver, p.version))
				die("step installs %s, the plan says %s", spec, p.version);
			STR_FMT(site, "%s/lib/python%s/site-packages", venv, minor);
			if (str_starts(name, "tensorflow") && !strcmp(p.fw, "tensorflow"))
				install_tensorflow(&p, site, name);
			else if (!strcmp(name, "torch") && !strcmp(p.fw, "torch"))
				install_torch(&p, site, s);
			else if (str_starts(name, "jax") && !strcmp(p.fw, "jax"))
				install_jax(&p, site, spec);
			else
				die("step installs %s, not %s", name, p.fw);
			installed++;
			continue;
		}
		/* the driver's distro commands (apt, dnf, ubuntu-drivers, reboot) */
		if (in_driver && !venv[0])
			continue;
		die("step not modelled: %s", s);
	}
	if (!installed)
		die("the plan installs nothing");
	if (p.python_used && minor[0] && strcmp(p.python_used, minor))
		die("the venv is Python %s, the plan's build needs %s", minor, p.python_used);
	printf("VIRTUAL_ENV=%s\n", venv);
	json_decref(p.doc);
	return 0;
}
