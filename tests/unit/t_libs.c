/*
 * t_libs.c - probe_libs and probe_driverlibs on a temporary fixture tree
 * (toolkit with version.json and headers, system cuDNN 8, pip wheels with
 * dist-info, a framework-bundled copy, a conda env, LD_LIBRARY_PATH
 * shadowing, driver libraries and toolkit stubs), on this machine (CUDA
 * 13.0 toolkit, cuDNN 9.19), and the library version calls in a child,
 * including one that crashes and one that hangs.
 */
#include "unit.h"
#include "tree.h"

#include "base/buf.h"
#include "base/str.h"
#include "facts.h"
#include "probe/probe.h"
#include "sys/ldcache.h"
#include "sys/root.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>





static void
build_tree(void)
{
	static const struct ldcache_entry ents[] = {
		{"libcudart.so.12", "/usr/local/cuda/lib64/libcudart.so.12", LDCACHE_FLAGS_X8664, 0},
		{"libcudnn.so.8", "/usr/lib/x86_64-linux-gnu/libcudnn.so.8", LDCACHE_FLAGS_X8664, 0},
		{"libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", LDCACHE_FLAGS_X8664, 0},
	};
	const char *sp = "/opt/venv/lib/python3.11/site-packages";
	char p[PATH_MAX], q[PATH_MAX];
	struct buf b;
	FILE *f;

	/* toolkit */
	put("/usr/local/cuda-12.4/lib64/libcudart.so.12.4.127", "fake\n");
	link_to("/usr/local/cuda-12.4/lib64/libcudart.so.12", "libcudart.so.12.4.127");
	link_to("/usr/local/cuda-12.4/lib64/libcudart.so", "libcudart.so.12");
	put("/usr/local/cuda-12.4/lib64/libcublas.so.12", "fake\n");
	put("/usr/local/cuda-12.4/lib64/libcublasLt_static.a", "fake\n");
	put("/usr/local/cuda-12.4/lib64/libcufft.so.11", "fake\n");
	put("/usr/local/cuda-12.4/lib64/libcufftw.so.11", "fake\n");
	put("/usr/local/cuda-12.4/lib64/libnvrtc-builtins.so.12.4", "fake\n");
	put("/usr/local/cuda-12.4/lib64/libnvrtc.alt.so.12", "fake\n");
	put("/usr/local/cuda-12.4/lib64/stubs/libcuda.so", "fake\n");
	put("/usr/local/cuda-12.4/include/cufft.h",
		"#ifndef X\n#define CUFFT_VER_MAJOR 11\n#define CUFFT_VER_MINOR 2\n"
		"  #  define CUFFT_VER_PATCH 1\n#define CUFFT_VER_BUILD 3\n#endif\n");
	put("/usr/local/cuda-12.4/version.json",
		"{\"cuda\": {\"name\": \"CUDA SDK\", \"version\": \"12.4.1\"},\n"
		" \"cuda_cudart\": {\"name\": \"CUDA Runtime (cudart)\", \"version\": \"12.4.127\"},\n"
		" \"libcublas\": {\"name\": \"CUDA cuBLAS\", \"version\": \"12.4.5.8\"}}\n");
	link_to("/usr/local/cuda", "/usr/local/cuda-12.4"); /* absolute: resolved in the root */

	/* distro cuDNN 8 with its header; a stale link; the driver */
	put("/usr/lib/x86_64-linux-gnu/libcudnn.so.8.9.7", "fake\n");
	link_to("/usr/lib/x86_64-linux-gnu/libcudnn.so.8", "libcudnn.so.8.9.7");
	put("/usr/lib/x86_64-linux-gnu/libcudnn_ops_infer.so.8", "fake\n");
	link_to("/usr/lib/x86_64-linux-gnu/libcublas.so.11", "/nowhere/libcublas.so.11");
	put("/usr/include/x86_64-linux-gnu/cudnn_version_v8.h",
		"#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n");
	put("/usr/include/cudnn_version.h",
		"#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n");
	put("/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05", "fake\n");
	link_to("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "libcuda.so.535.104.05");
	link_to("/usr/lib/x86_64-linux-gnu/libcuda.so", "libcuda.so.1");
	put("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.535.104.05", "fake\n");
	link_to("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1", "libnvidia-ml.so.535.104.05");
	link_to("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.2", "/gone/libnvidia-ml.so.2");
	put("/usr/lib/wsl/lib/libcuda.so.1.1", "fake\n");
	link_to("/usr/lib/wsl/lib/libcuda.so.1", "libcuda.so.1.1");

	/* LD_LIBRARY_PATH shadowing the toolkit's cudart */
	put("/ldp/libcudart.so.12", "fake\n");

	/* a venv with nvidia wheels and torch */
	mkdirs("/opt/venv/bin");
	str_fmt(p, sizeof(p), "%s/nvidia/cudnn/lib/libcudnn.so.9", sp);
	put(p, "fake\n");
	str_fmt(p, sizeof(p), "%s/nvidia/cudnn/lib/libcudnn_graph.so.9", sp);
	put(p, "fake\n");
	str_fmt(p, sizeof(p), "%s/nvidia_cudnn_cu12-9.1.0.70.dist-info/RECORD", sp);
	put(p, "nvidia/cudnn/include/cudnn.h,sha256=x,100\n"
	       "nvidia/cudnn/lib/libcudnn.so.9,sha256=y,5\n"
	       "nvidia/cudnn/lib/libcudnn_graph.so.9,sha256=z,5\n"
	       "nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA,,\n");
	str_fmt(p, sizeof(p), "%s/nvidia/cuda_runtime/lib/libcudart.so.12", sp);
	put(p, "fake\n");
	str_fmt(p, sizeof(p), "%s/nvidia_cuda_runtime_cu12-12.1.105.dist-info/RECORD", sp);
	put(p, "nvidia/cuda_runtime/lib/libcudart.so.12,sha256=y,5\n");
	str_fmt(p, sizeof(p), "%s/nvidia_bogus.dist-info/RECORD", sp);
	put(p, "nvidia/cuda_runtime/lib/libcudart.so.12,sha256=y,5\n");
	str_fmt(p, sizeof(p), "%s/torch/lib/libcudnn.so.8", sp);
	put(p, "fake\n");

	/* a conda env */
	mkdirs("/opt/conda/conda-meta");
	put("/opt/conda/lib/libnccl.so.2.18.3", "fake\n");
	link_to("/opt/conda/lib/libnccl.so.2", "libnccl.so.2.18.3");

	buf_init(&b);
	assert_int_equal(ldcache_build(ents, 3, &b), 0);
	mkdirs("/etc");
	str_fmt(q, sizeof(q), "%s/etc/ld.so.cache", tree);
	f = fopen(q, "wb");
	assert_non_null(f);
	fwrite(b.s, 1, b.len, f);
	fclose(f);
	buf_release(&b);
}

static char *saved[8];
static const char *const envs[] = {
	"PATH", "LD_LIBRARY_PATH", "CUDA_HOME", "CUDA_PATH", "CONDA_PREFIX", "VIRTUAL_ENV", "HOME",
	NULL,
};

static int
setup(void **state)
{
	int i;

	(void)state;
	for (i = 0; envs[i]; i++)
		saved[i] = getenv(envs[i]) ? strdup(getenv(envs[i])) : NULL;
	if (tree_create("t_libs") < 0)
		return -1;
	return 0;
}

static void
restore_env(void)
{
	int i;

	for (i = 0; envs[i]; i++) {
		if (saved[i])
			setenv(envs[i], saved[i], 1);
		else
			unsetenv(envs[i]);
	}
}

static int
teardown(void **state)
{
	int i;

	(void)state;
	restore_env();
	for (i = 0; envs[i]; i++)
		free(saved[i]);
	root_set("/");
	return tree_remove();
}

static const struct lib_facts *
find_lib(const struct facts *f, const char *name, const char *path_prefix)
{
	int i;

	for (i = 0; i < f->nlibs; i++)
		if (strcmp(f->libs[i].name, name) == 0 && str_starts(f->libs[i].path, path_prefix))
			return &f->libs[i];
	return NULL;
}

static int
count_lib(const struct facts *f, const char *name)
{
	int i, n = 0;

	for (i = 0; i < f->nlibs; i++)
		n += strcmp(f->libs[i].name, name) == 0;
	return n;
}

static void
fixture_env(void)
{
	setenv("PATH", "/opt/venv/bin:/usr/bin:/bin", 1);
	setenv("LD_LIBRARY_PATH", "/ldp", 1);
	setenv("CONDA_PREFIX", "/opt/conda", 1);
	unsetenv("CUDA_HOME");
	unsetenv("CUDA_PATH");
	unsetenv("VIRTUAL_ENV");
	unsetenv("HOME");
}

static void
test_fixture_tree(void **state)
{
	const char *sp = "/opt/venv/lib/python3.11/site-packages";
	struct facts *f = malloc(sizeof(*f));
	const struct lib_facts *l;
	char p[PATH_MAX];

	(void)state;
	build_tree();
	fixture_env();
	root_set(tree);
	facts_init(f);
	probe_libs(f, NULL);

	/* toolkit cudart: version.json; shadowed by LD_LIBRARY_PATH */
	l = find_lib(f, "cudart", "/usr/local/cuda");
	assert_non_null(l);
	assert_string_equal(l->path, "/usr/local/cuda/lib64/libcudart.so.12");
	assert_string_equal(l->real_path, "/usr/local/cuda-12.4/lib64/libcudart.so.12.4.127");
	assert_string_equal(l->soname, "libcudart.so.12");
	assert_string_equal(l->version, "12.4.127");
	assert_string_equal(l->version_source, "version_json");
	assert_int_equal(l->origin, ORIGIN_TOOLKIT);
	assert_string_equal(l->origin_root, "/usr/local/cuda-12.4");
	assert_string_equal(l->cuda_major, "12");
	assert_true(l->in_ld_cache);
	assert_false(l->loader_pick);

	l = find_lib(f, "cudart", "/ldp/");
	assert_non_null(l);
	assert_true(l->loader_pick);
	assert_false(l->in_ld_cache);
	assert_string_equal(l->version, "12");
	assert_string_equal(l->version_source, "soname");
	assert_int_equal(l->origin, ORIGIN_OTHER);

	l = find_lib(f, "cublas", "/usr/local/cuda/");
	assert_non_null(l);
	assert_string_equal(l->version, "12.4.5.8");
	assert_string_equal(l->version_source, "version_json");
	assert_false(l->loader_pick); /* not in the cache, LD_LIBRARY_PATH or default dirs */

	l = find_lib(f, "cufft", "/usr/local/cuda/");
	assert_non_null(l);
	assert_string_equal(l->version, "11.2.1.3");
	assert_string_equal(l->version_source, "header");
	assert_int_equal(count_lib(f, "cufft"), 1); /* not libcufftw */
	assert_int_equal(count_lib(f, "nvrtc"), 0); /* not builtins, not .alt */
	assert_int_equal(count_lib(f, "cublasLt"), 0); /* not the static archive */

	/* system cuDNN 8: the v8 header, not the stray v9 cudnn_version.h */
	l = find_lib(f, "cudnn", "/usr/lib/x86_64-linux-gnu/");
	assert_non_null(l);
	assert_string_equal(l->path, "/usr/lib/x86_64-linux-gnu/libcudnn.so.8");
	assert_string_equal(l->version, "8.9.7");
	assert_string_equal(l->version_source, "header");
	assert_int_equal(l->origin, ORIGIN_SYSTEM);
	assert_true(l->in_ld_cache);
	assert_true(l->loader_pick);
	l = find_lib(f, "cudnn_ops_infer", "/usr/lib/");
	assert_non_null(l);
	assert_string_equal(l->version, "8.9.7");
	assert_null(find_lib(f, "cublas", "/usr/lib/")); /* dangling link */

	/* pip wheels */
	str_fmt(p, sizeof(p), "%s/nvidia/cudnn/lib/", sp);
	l = find_lib(f, "cudnn", p);
	assert_non_null(l);
	assert_string_equal(l->version, "9.1.0.70");
	assert_string_equal(l->version_source, "dist_info");
	assert_int_equal(l->origin, ORIGIN_PIP);
	assert_string_equal(l->origin_root, sp);
	assert_string_equal(l->cuda_major, "12");
	assert_false(l->loader_pick);
	l = find_lib(f, "cudnn_graph", p);
	assert_non_null(l);
	assert_string_equal(l->version, "9.1.0.70");
	str_fmt(p, sizeof(p), "%s/nvidia/cuda_runtime/lib/", sp);
	l = find_lib(f, "cudart", p);
	assert_non_null(l);
	assert_string_equal(l->version, "12.1.105");
	assert_string_equal(l->cuda_major, "12");

	/* bundled with torch */
	str_fmt(p, sizeof(p), "%s/torch/lib/", sp);
	l = find_lib(f, "cudnn", p);
	assert_non_null(l);
	assert_int_equal(l->origin, ORIGIN_FRAMEWORK);
	str_fmt(p, sizeof(p), "%s/torch", sp);
	assert_string_equal(l->origin_root, p);
	assert_string_equal(l->version, "8");
	assert_int_equal(count_lib(f, "cudnn"), 3);

	/* conda */
	l = find_lib(f, "nccl", "/opt/conda/lib/");
	assert_non_null(l);
	assert_string_equal(l->path, "/opt/conda/lib/libnccl.so.2");
	assert_int_equal(l->origin, ORIGIN_CONDA);
	assert_string_equal(l->origin_root, "/opt/conda");
	assert_string_equal(l->version, "2.18.3");
	assert_string_equal(l->version_source, "filename");

	/* the driver libraries */
	facts_init(f);
	probe_driverlibs(f, NULL);
	{
		int i, cuda = 0, nvml = 0, stubs = 0, wsl = 0;
		for (i = 0; i < f->driver.nlibs; i++) {
			const struct driver_lib_facts *d = &f->driver.libs[i];
			if (d->is_stub) {
				stubs++;
				assert_string_equal(d->found_via, "stubs");
				assert_string_equal(d->version, "");
				assert_false(d->loader_pick);
				assert_false(d->is_elf);
				continue;
			}
			if (!strcmp(d->found_via, "wsl")) {
				wsl++;
				assert_string_equal(d->path, "/usr/lib/wsl/lib/libcuda.so.1");
				assert_string_equal(d->version, "");
				continue;
			}
			if (!strcmp(d->name, "libcuda")) {
				cuda++;
				assert_string_equal(d->path, "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
				assert_string_equal(d->real_path,
					"/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05");
				assert_string_equal(d->version, "535.104.05");
				assert_string_equal(d->found_via, "ld_so_cache");
				assert_true(d->loader_pick);
				assert_false(d->is_elf);
			} else {
				nvml++;
				assert_string_equal(d->path, "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1");
				assert_string_equal(d->version, "535.104.05");
				assert_true(d->loader_pick);
			}
		}
		assert_int_equal(cuda, 1);
		assert_int_equal(nvml, 1);
		assert_int_equal(stubs, 1);
		assert_int_equal(wsl, 1);
		assert_int_equal(f->driver.nlibs, 4);
	}
	root_set("/");
	restore_env();
	free(f);
}

/* The version a library's real file name states (prefix "libcublas.so",
 * file "libcublas.so.13.1.0.3" -> "13.1.0.3"), or "". */
static void
file_version(const char *link, const char *prefix, char *out, size_t size)
{
	char real[PATH_MAX];
	const char *base;

	out[0] = '\0';
	if (!realpath(link, real))
		return;
	base = strrchr(real, '/') + 1;
	if (str_starts(base, prefix) && base[strlen(prefix)] == '.')
		str_copy(out, size, base + strlen(prefix) + 1);
}

/* This machine's toolkit in /usr/local/cuda, whichever it is: each library
 * found there has the version its own file states, a toolkit origin, and
 * the toolkit stub is a stub. */
static void
test_this_machine(void **state)
{
	static const struct {
		const char *name, *soname;
	} want[] = {
		{"cudart", "libcudart.so"},
		{"cublas", "libcublas.so"},
		{"cudnn", "libcudnn.so"},
	};
	struct facts *f;
	const struct lib_facts *l;
	char v[64];
	size_t k;
	int i, checked = 0;

	(void)state;
	REQUIRE_HOST_TOOLKIT(); /* before anything is allocated */
	f = malloc(sizeof(*f));
	root_set("/");
	facts_init(f);
	probe_libs(f, NULL);
	for (k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		l = find_lib(f, want[k].name, "/usr/local/cuda");
		if (!l)
			continue;
		file_version(l->path, want[k].soname, v, sizeof(v));
		if (v[0])
			assert_true(str_starts(l->version, v) || str_starts(v, l->version));
		assert_int_equal(l->origin, ORIGIN_TOOLKIT);
		assert_true(str_starts(l->origin_root, "/usr/local/cuda"));
		checked++;
	}
	assert_true(checked > 0); /* cudart at least: REQUIRE_HOST_TOOLKIT found it */
	for (i = 0; i < f->nlibs; i++)
		assert_true(f->libs[i].version[0] != '\0');
	facts_init(f);
	probe_driverlibs(f, NULL);
	for (i = 0; i < f->driver.nlibs; i++)
		if (strstr(f->driver.libs[i].real_path, "/stubs/")) {
			assert_true(f->driver.libs[i].is_stub);
			assert_true(f->driver.libs[i].is_elf);
		}
	free(f);
}

static struct lib_facts *
add_lib(struct facts *f, const char *name, const char *path)
{
	struct lib_facts *l = &f->libs[f->nlibs++];

	memset(l, 0, sizeof(*l));
	STR_COPY(l->name, name);
	STR_COPY(l->path, path);
	STR_COPY(l->real_path, path);
	return l;
}

/* Build a shared object at path from C source (each library's version
 * call, answering what the test says). */
static void
make_lib(const char *path, const char *soname, const char *source)
{
	char src[PATH_MAX], cmd[3 * PATH_MAX];
	FILE *fp;

	str_fmt(src, sizeof(src), "%s/lib.c", tree);
	fp = fopen(src, "w");
	assert_non_null(fp);
	fprintf(fp, "#include <signal.h>\n#include <stddef.h>\n#include <unistd.h>\n%s\n", source);
	fclose(fp);
	str_fmt(cmd, sizeof(cmd), "cc -shared -fPIC -Wl,-soname,%s -o '%s' '%s'", soname, path, src);
	assert_int_equal(system(cmd), 0);
}

/* The libraries' own answers, for copies whose files say too little: each
 * call's encoding, on libraries built here (not this machine's toolkit). */
static void
test_version_calls(void **state)
{
	struct probe_opts o = {.timeout_ms = 20000};
	struct facts *f = malloc(sizeof(*f));
	struct libver_job *job;
	char cudart[PATH_MAX], cudnn[PATH_MAX], nccl[PATH_MAX], curand[PATH_MAX], jit[PATH_MAX],
		cusparse[PATH_MAX];

	(void)state;
	root_set("/");
	str_fmt(cudart, sizeof(cudart), "%s/libcudart.so.13", tree);
	str_fmt(cudnn, sizeof(cudnn), "%s/libcudnn.so.9", tree);
	str_fmt(nccl, sizeof(nccl), "%s/libnccl.so.2", tree);
	str_fmt(curand, sizeof(curand), "%s/libcurand.so.10", tree);
	str_fmt(jit, sizeof(jit), "%s/libnvJitLink.so.13", tree);
	str_fmt(cusparse, sizeof(cusparse), "%s/libcusparse.so.12", tree);
	make_lib(cudart, "libcudart.so.13", "int cudaRuntimeGetVersion(int *v) { *v = 13000; return 0; }");
	make_lib(cudnn, "libcudnn.so.9", "size_t cudnnGetVersion(void) { return 91900; }");
	make_lib(nccl, "libnccl.so.2", "int ncclGetVersion(int *v) { *v = 22809; return 0; }");
	make_lib(curand, "libcurand.so.10",
		 "int curandGetProperty(int t, int *v) { *v = t == 0 ? 10 : t == 1 ? 4 : 0; return 0; }");
	make_lib(jit, "libnvJitLink.so.13",
		 "int nvJitLinkVersion(unsigned *a, unsigned *b) { *a = 13; *b = 0; return 0; }");
	make_lib(cusparse, "libcusparse.so.12",
		 "int cusparseGetProperty(int t, int *v) { raise(SIGSEGV); return 1; }");
	facts_init(f);
	add_lib(f, "cudart", cudart);
	add_lib(f, "cudnn", cudnn);
	add_lib(f, "nccl", nccl);
	add_lib(f, "curand", curand);
	STR_COPY(add_lib(f, "nvjitlink", jit)->version, "13");
	STR_COPY(add_lib(f, "cusparse", cusparse)->version,
		"12.6.3.3");                        /* exact already: not called (it would crash) */
	add_lib(f, "cudnn", "/etc/os-release");     /* not ELF: skipped */
	job = libver_probe_start(f, &o);
	libver_probe_finish(job, f);
	assert_string_equal(f->libs[0].version, "13.0");
	assert_string_equal(f->libs[0].version_source, "call");
	assert_string_equal(f->libs[1].version, "9.19.0");
	assert_string_equal(f->libs[2].version, "2.28.9");
	assert_string_equal(f->libs[3].version, "10.4.0");
	assert_string_equal(f->libs[4].version, "13.0");
	assert_string_equal(f->libs[4].version_source, "call");
	assert_string_equal(f->libs[5].version, "12.6.3.3");
	assert_string_equal(f->libs[5].version_source, "");
	assert_string_equal(f->libs[6].version, "");
	assert_int_equal(f->nnotes, 0);

	/* --no-load: nothing runs */
	facts_init(f);
	add_lib(f, "cudart", cudart);
	o.no_driver_calls = true;
	libver_probe_finish(libver_probe_start(f, &o), f);
	assert_string_equal(f->libs[0].version, "");
	free(f);
}

/* A cudart in dir whose constructor leaves a mark (the file "ran" beside
 * it) and whose version call answers 13.0. */
static void
make_marking_lib(const char *dir, char *lib, size_t size)
{
	char text[PATH_MAX + 256];

	str_fmt(lib, size, "%s/libcudart.so.13", dir);
	str_fmt(text, sizeof(text),
		"#include <fcntl.h>\n"
		"__attribute__((constructor)) static void mark(void) { close(open(\"%s/ran\", "
		"O_WRONLY | O_CREAT, 0644)); }\n"
		"int cudaRuntimeGetVersion(int *v) { *v = 13000; return 0; }", dir);
	make_lib(lib, "libcudart.so.13", text);
}

/* The version call loads a library only when nobody but root and the
 * caller can change it: one in a directory others can write stays
 * unloaded (its constructor never runs), with a note. */
static void
test_others_library_not_loaded(void **state)
{
	struct probe_opts o = {.timeout_ms = 20000};
	struct facts *f = malloc(sizeof(*f));
	char dir[PATH_MAX], lib[PATH_MAX], mark[PATH_MAX];

	(void)state;
	root_set("/");
	str_fmt(dir, sizeof(dir), "%s/shared", tree);
	str_fmt(mark, sizeof(mark), "%s/ran", dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	make_marking_lib(dir, lib, sizeof(lib));

	/* the caller's own directory: loaded */
	facts_init(f);
	add_lib(f, "cudart", lib);
	libver_probe_finish(libver_probe_start(f, &o), f);
	assert_string_equal(f->libs[0].version, "13.0");
	assert_int_equal(f->nnotes, 0);
	assert_int_equal(unlink(mark), 0);

	/* a directory every user can write: not loaded */
	assert_int_equal(chmod(dir, 0777), 0);
	facts_init(f);
	add_lib(f, "cudart", lib);
	libver_probe_finish(libver_probe_start(f, &o), f);
	assert_string_equal(f->libs[0].version, "");
	assert_int_equal(access(mark, F_OK), -1);
	assert_int_equal(f->nnotes, 1);
	assert_non_null(strstr(f->notes[0].note, "not loaded, its code would run as you"));
	assert_non_null(strstr(f->notes[0].note, "which other users can write"));
	assert_int_equal(chmod(dir, 0755), 0);
	free(f);
}

/* As root: a library that belongs to another user is not loaded. */
static void
test_others_library_not_loaded_as_root(void **state)
{
	struct probe_opts o = {.timeout_ms = 20000};
	struct facts *f;
	char dir[PATH_MAX], lib[PATH_MAX], mark[PATH_MAX];

	(void)state;
	if (geteuid() != 0)
		SKIP_BECAUSE("a file of another user needs root to make (this run is uid %u)",
			     (unsigned)geteuid());
	root_set("/");
	str_fmt(dir, sizeof(dir), "%s/alice", tree);
	str_fmt(mark, sizeof(mark), "%s/ran", dir);
	assert_int_equal(mkdir(dir, 0777), 0);
	make_marking_lib(dir, lib, sizeof(lib));
	assert_int_equal(chmod(dir, 0755), 0);
	assert_int_equal(chown(lib, 65534, 65534), 0);
	f = malloc(sizeof(*f));
	facts_init(f);
	add_lib(f, "cudart", lib);
	libver_probe_finish(libver_probe_start(f, &o), f);
	assert_string_equal(f->libs[0].version, "");
	assert_int_equal(access(mark, F_OK), -1);
	assert_int_equal(f->nnotes, 1);
	assert_non_null(strstr(f->notes[0].note, "belongs to uid 65534"));
	free(f);
}

/* Build a fake cudart whose version call crashes or hangs. */
static void
make_bad_lib(const char *path, const char *body)
{
	char text[512];

	str_fmt(text, sizeof(text), "int cudaRuntimeGetVersion(int *v) { %s *v = 12000; return 0; }", body);
	make_lib(path, "libcudart.so.12", text);
}

static void
test_version_call_crash_and_hang(void **state)
{
	struct probe_opts o = {.timeout_ms = 400};
	struct facts *f = malloc(sizeof(*f));
	char lib[PATH_MAX];

	(void)state;
	root_set("/");
	str_fmt(lib, sizeof(lib), "%s/libcudart.so.12", tree);

	make_bad_lib(lib, "raise(SIGSEGV);");
	facts_init(f);
	STR_COPY(add_lib(f, "cudart", lib)->version, "12");
	libver_probe_finish(libver_probe_start(f, &o), f);
	assert_string_equal(f->libs[0].version, "12");
	assert_int_equal(f->nnotes, 1);
	assert_true(strstr(f->notes[0].note, "crashed") != NULL);

	unlink(lib);
	make_bad_lib(lib, "for (;;) pause();");
	facts_init(f);
	STR_COPY(add_lib(f, "cudart", lib)->version, "12");
	libver_probe_finish(libver_probe_start(f, &o), f);
	assert_string_equal(f->libs[0].version, "12");
	assert_int_equal(f->nnotes, 1);
	assert_true(strstr(f->notes[0].note, "timed out") != NULL);

	unlink(lib);
	make_bad_lib(lib, "");
	facts_init(f);
	STR_COPY(add_lib(f, "cudart", lib)->version, "12");
	libver_probe_finish(libver_probe_start(f, &o), f);
	assert_string_equal(f->libs[0].version, "12.0");
	assert_string_equal(f->libs[0].version_source, "call");
	free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_tree),
		cmocka_unit_test(test_this_machine),
		cmocka_unit_test(test_version_calls),
		cmocka_unit_test(test_version_call_crash_and_hang),
		cmocka_unit_test(test_others_library_not_loaded),
		cmocka_unit_test(test_others_library_not_loaded_as_root),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
