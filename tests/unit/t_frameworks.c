/*
 * t_frameworks.c - probe_frameworks on a temporary fixture tree whose
 * framework extensions and CUDA library stand-ins are real ELF files built
 * here with cc (so DT_NEEDED, DT_RPATH and DT_RUNPATH are what a linker
 * writes): the H200 venv (torch 2.11.0+cu130 must take the pip wheel's
 * cuDNN 9.19, not the system's 9.14; jax 0.11.2 with its cuda13 plugin;
 * cupy-cuda13x), TensorFlow 2.15 [and-cuda] with an RPATH that beats
 * LD_LIBRARY_PATH, TF 1.15's build_info format, tensorflow-cpu, a Windows
 * build_info, torch +cpu, jax with a mismatched plugin, missing libraries,
 * hostile Python files, and the time 20 environments take.
 */
#include "unit.h"

#include "base/buf.h"
#include "base/str.h"
#include "base/xalloc.h"
#include "facts.h"
#include "probe/probe.h"
#include "sys/ldcache.h"
#include "sys/root.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define VENV "/opt/torch/.venv/lib/python3.12/site-packages"
#define TF215 "/opt/tf215/lib/python3.11/site-packages"

static char tmpdir[PATH_MAX];  /* the root */
static char scratch[PATH_MAX]; /* build products that are not in the root */
static char *saved_ldpath;
static bool built;

static void
mkdirs(const char *mpath)
{
	char p[PATH_MAX], *s;

	str_fmt(p, sizeof(p), "%s%s", tmpdir, mpath);
	for (s = p + strlen(tmpdir) + 1; *s; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	}
	mkdir(p, 0755);
}

static void
put(const char *mpath, const char *text)
{
	char p[PATH_MAX], dir[PATH_MAX], *slash;
	FILE *f;

	str_copy(dir, sizeof(dir), mpath);
	slash = strrchr(dir, '/');
	*slash = '\0';
	mkdirs(dir);
	str_fmt(p, sizeof(p), "%s%s", tmpdir, mpath);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void
run(const char *cmd)
{
	if (system(cmd) != 0)
		fail_msg("command failed: %s", cmd);
}

/* A stand-in shared library with this soname, in the scratch dir. */
static void
stub_lib(const char *soname)
{
	char cmd[3 * PATH_MAX];

	str_fmt(cmd, sizeof(cmd),
		"cd '%s' && printf 'int stub_%%s(void) { return 1; }\\n' x > s.c && "
		"cc -shared -fPIC -Wl,-soname,%s -o '%s' s.c",
		scratch, soname, soname);
	run(cmd);
}

/* Copy a scratch file into the root at mpath. */
static void
install(const char *scratch_name, const char *mpath)
{
	char cmd[3 * PATH_MAX], dir[PATH_MAX], *slash;

	str_copy(dir, sizeof(dir), mpath);
	slash = strrchr(dir, '/');
	*slash = '\0';
	mkdirs(dir);
	str_fmt(cmd, sizeof(cmd), "cp '%s/%s' '%s%s'", scratch, scratch_name, tmpdir, mpath);
	run(cmd);
}

/* An extension at mpath in the root, linked against scratch libs. */
static void
extension(const char *mpath, const char *ldflags)
{
	char cmd[4 * PATH_MAX], dir[PATH_MAX], *slash;

	str_copy(dir, sizeof(dir), mpath);
	slash = strrchr(dir, '/');
	*slash = '\0';
	mkdirs(dir);
	str_fmt(cmd, sizeof(cmd),
		"cd '%s' && printf 'int ext(void) { return 2; }\\n' > e.c && "
		"cc -shared -fPIC -o '%s%s' e.c %s -L'%s'",
		scratch, tmpdir, mpath, ldflags, scratch);
	run(cmd);
}

static void
link_to(const char *mpath, const char *target)
{
	char p[PATH_MAX];

	str_fmt(p, sizeof(p), "%s%s", tmpdir, mpath);
	assert_int_equal(symlink(target, p), 0);
}

static void
write_ldcache(void)
{
	static const struct ldcache_entry ents[] = {
		{"libcudnn.so.9", "/usr/lib/x86_64-linux-gnu/libcudnn.so.9", LDCACHE_FLAGS_NATIVE, 0},
		{"libcudart.so.13", "/usr/local/cuda-13.0/lib64/libcudart.so.13", LDCACHE_FLAGS_NATIVE, 0},
		{"libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6", LDCACHE_FLAGS_NATIVE, 0},
	};
	char path[PATH_MAX];
	struct buf b;
	FILE *f;

	buf_init(&b);
	assert_int_equal(ldcache_build(ents, 3, &b), 0);
	mkdirs("/etc");
	str_fmt(path, sizeof(path), "%s/etc/ld.so.cache", tmpdir);
	f = fopen(path, "wb");
	assert_non_null(f);
	fwrite(b.s, 1, b.len, f);
	fclose(f);
	buf_release(&b);
}

/* The H200 venv: torch 2.11.0+cu130, jax 0.11.2 + cuda13 plugin,
 * cupy-cuda13x, nvidia wheels; the system's cuDNN 9.14 in ld.so.cache. */
static void
build_h200(const char *site)
{
	char p[PATH_MAX];

	str_fmt(p, sizeof(p), "%s/nvidia/cudnn/lib/libcudnn.so.9", site);
	install("libcudnn.so.9", p);
	str_fmt(p, sizeof(p), "%s/nvidia_cudnn_cu13-9.19.0.56.dist-info/RECORD", site);
	put(p, "nvidia/cudnn/include/cudnn.h,sha256=x,100\n"
	       "nvidia/cudnn/lib/libcudnn.so.9,sha256=y,5\n"
	       "nvidia_cudnn_cu13-9.19.0.56.dist-info/METADATA,,\n");
	str_fmt(p, sizeof(p), "%s/nvidia/cu13/lib/libcudart.so.13", site);
	install("libcudart.so.13", p);
	str_fmt(p, sizeof(p), "%s/nvidia_cuda_runtime-13.0.88.dist-info/RECORD", site);
	put(p, "nvidia/cu13/lib/libcudart.so.13,sha256=y,5\n");
	str_fmt(p, sizeof(p), "%s/nvidia/cu13/lib/libcublas.so.13", site);
	install("libcublas.so.13", p);
	str_fmt(p, sizeof(p), "%s/nvidia_cublas-13.1.0.3.dist-info/RECORD", site);
	put(p, "nvidia/cu13/lib/libcublas.so.13,sha256=y,5\n");

	str_fmt(p, sizeof(p), "%s/torch/version.py", site);
	put(p, "from typing import Optional\n\n"
	       "__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip', 'xpu']\n"
	       "__version__ = '2.11.0+cu130'\n"
	       "debug = False\n"
	       "cuda: Optional[str] = '13.0'\n"
	       "git_version = '70d99e998b4955e0049b13a3b2a3a4f5e1d8b2c1'\n"
	       "hip: Optional[str] = None\n"
	       "xpu: Optional[str] = None\n");
	str_fmt(p, sizeof(p), "%s/torch/lib/libtorch_cuda.so", site);
	extension(p, "-Wl,--enable-new-dtags "
		     "-Wl,-rpath,'$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN/../../nvidia/cu13/lib' "
		     "-Wl,--no-as-needed -l:libcudart.so.13 -l:libcublas.so.13 -l:libcudnn.so.9 "
		     "-l:libnccl.so.2");

	str_fmt(p, sizeof(p), "%s/jax_plugins/xla_cuda13/xla_cuda_plugin.so", site);
	extension(p, "-Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/../../nvidia/cu13/lib' "
		     "-Wl,--no-as-needed -l:libcudart.so.13");
	str_fmt(p, sizeof(p), "%s/jax_cuda13_plugin/_solver.so", site);
	extension(p, "-Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/../nvidia/cu13/lib' "
		     "-Wl,--no-as-needed -l:libcublas.so.13");

	str_fmt(p, sizeof(p), "%s/cupy_backends/cuda/api/runtime.cpython-312-x86_64-linux-gnu.so",
		site);
	extension(p, "-Wl,--no-as-needed -l:libcudart.so.13");
}

static void
build_tree(void)
{
	if (built)
		return;
	stub_lib("libcudnn.so.9");
	stub_lib("libcudart.so.13");
	stub_lib("libcublas.so.13");
	stub_lib("libnccl.so.2");
	stub_lib("libcudnn.so.8");
	stub_lib("libcudart.so.12");

	/* the system: cuDNN 9.14 in the distro dir, a CUDA 13.0 toolkit */
	install("libcudnn.so.9", "/usr/lib/x86_64-linux-gnu/libcudnn.so.9.14.0");
	link_to("/usr/lib/x86_64-linux-gnu/libcudnn.so.9", "libcudnn.so.9.14.0");
	install("libcudart.so.13", "/usr/local/cuda-13.0/lib64/libcudart.so.13.0.96");
	link_to("/usr/local/cuda-13.0/lib64/libcudart.so.13", "libcudart.so.13.0.96");
	write_ldcache();
	/* LD_LIBRARY_PATH: an old cuDNN 8 that TF's RPATH must beat */
	install("libcudnn.so.8", "/ldp/libcudnn.so.8");

	build_h200(VENV);

	/* TF 2.15 [and-cuda]: build_info as a dict, RPATH into nvidia/ */
	put(TF215 "/tensorflow/python/platform/build_info.py",
		"# Copyright 2023 The TensorFlow Authors. All Rights Reserved.\n"
		"\"\"\"Auto-generated module providing information about the build.\"\"\"\n"
		"import collections\n\n"
		"build_info = collections.OrderedDict([('cpu_compiler', '/usr/lib/llvm-17/bin/clang'), "
		"('cuda_compute_capabilities', ['sm_50', 'sm_60', 'sm_70', 'sm_80', 'compute_90']), "
		"('cuda_version', '12.2'), ('cudnn_version', '8'), ('is_cuda_build', True), "
		"('is_rocm_build', False), ('is_tensorrt_build', True)])\n");
	extension(TF215 "/tensorflow/python/_pywrap_tensorflow_internal.so",
		"-Wl,--disable-new-dtags -Wl,-rpath,'$ORIGIN/../../nvidia/cublas/lib:"
		"$ORIGIN/../../nvidia/cuda_runtime/lib:$ORIGIN/../../nvidia/cudnn/lib'");
	install("libcudnn.so.8", TF215 "/nvidia/cudnn/lib/libcudnn.so.8");
	put(TF215 "/nvidia_cudnn_cu12-8.9.4.25.dist-info/RECORD",
		"nvidia/cudnn/lib/libcudnn.so.8,sha256=q,9\n");
	install("libcudart.so.12", TF215 "/nvidia/cuda_runtime/lib/libcudart.so.12");
	install("libcudart.so.12", TF215 "/nvidia/cublas/lib/libcublas.so.12");
	install("libcudart.so.12", TF215 "/nvidia/cublas/lib/libcublasLt.so.12");

	/* TF 1.15, its module-level build_info; no extension, no CUDA 10 */
	put("/opt/tf115/lib/python3.7/site-packages/tensorflow/python/platform/build_info.py",
		"# Copyright 2017 The TensorFlow Authors. All Rights Reserved.\n"
		"is_rocm_build = False\nis_cuda_build = True\n"
		"cuda_version_number = '10.0'\ncudnn_version_number = '7'\n");

	/* TF 1.15 as its wheel installs it: tensorflow/ a stub, the package in
	 * tensorflow_core/ (build_info.py of gen_build_info.py, 1.15) */
	put("/opt/tfcore/lib/python3.7/site-packages/tensorflow/__init__.py", "\n");
	put("/opt/tfcore/lib/python3.7/site-packages/tensorflow_core/python/platform/build_info.py",
		"\n# Copyright 2017 The TensorFlow Authors. All Rights Reserved.\n"
		"\"\"\"Generates a Python module containing information about the build.\"\"\"\n"
		"from __future__ import absolute_import\n"
		"from __future__ import division\nfrom __future__ import print_function\n\n"
		"is_rocm_build = False\nis_cuda_build = True\n\n"
		"cuda_version_number = '10.0'\ncudnn_version_number = '7'\n");
	extension("/opt/tfcore/lib/python3.7/site-packages/tensorflow_core/python/"
		"_pywrap_tensorflow_internal.so", "-Wl,--disable-new-dtags -Wl,-rpath,'$ORIGIN/:$ORIGIN/..'");

	/* tensorflow-cpu 2.15: a dict build_info */
	put("/opt/tfcpu/lib/python3.11/site-packages/tensorflow/python/platform/build_info.py",
		"build_info = {'cpu_compiler': '/usr/bin/gcc', 'is_cuda_build': False, "
		"'is_rocm_build': False, 'is_tensorrt_build': False}\n");

	/* a Windows-era build_info: '64_112' */
	put("/opt/tfwin/lib/site-packages/tensorflow/python/platform/build_info.py",
		"build_info = collections.OrderedDict([('cuda_compute_capabilities', ['sm_35', "
		"'compute_80']), ('cuda_version', '64_112'), ('cudart_dll_name', 'cudart64_112.dll'), "
		"('cudnn_version', '64_8'), ('is_cuda_build', True)])\n");

	/* torch +cpu */
	put("/opt/cpu/lib/python3.12/site-packages/torch/version.py",
		"__version__ = '2.5.1+cpu'\ndebug = False\ncuda: Optional[str] = None\n"
		"hip: Optional[str] = None\n");
	mkdirs("/opt/cpu/lib/python3.12/site-packages/torch/lib");

	/* jax whose plugin is not jaxlib's version; no plugin files */
	mkdirs("/opt/jaxbad/lib/python3.12/site-packages/jax");

	/* hostile Python files */
	put("/opt/bad/lib/python3.12/site-packages/tensorflow/python/platform/build_info.py",
		"build_info = {'cuda_version': '12.2, 'cudnn_version': \n 'cuda_compute_capabilities': "
		"['sm_1', 'sm_2', 'sm_3', 'sm_4', 'sm_5', 'sm_6', 'sm_7', 'sm_8', 'sm_9', 'sm_10', "
		"'sm_11', 'sm_12', 'sm_13', 'sm_14', 'sm_15', 'sm_16', 'sm_17', 'sm_18', 'sm_19', "
		"'sm_20', 'sm_21', 'sm_22', 'sm_23', 'sm_24', 'sm_25', 'sm_26', 'sm_27', 'sm_28', "
		"'sm_29', 'sm_30', 'sm_31', 'sm_32', 'sm_33', 'sm_34', 'sm_35', 'sm_36'], "
		"'is_cuda_build': ");
	put("/opt/bad/lib/python3.12/site-packages/torch/version.py",
		"__version__ = '2.4.0\ncuda = \ncuda:\nhip = [\n");

	built = true;
}

static int
setup(void **state)
{
	(void)state;
	saved_ldpath = getenv("LD_LIBRARY_PATH") ? strdup(getenv("LD_LIBRARY_PATH")) : NULL;
	str_copy(tmpdir, sizeof(tmpdir), "/tmp/t_frameworks.XXXXXX");
	str_copy(scratch, sizeof(scratch), "/tmp/t_frameworks_cc.XXXXXX");
	if (!mkdtemp(tmpdir) || !mkdtemp(scratch))
		return -1;
	return 0;
}

static int
teardown(void **state)
{
	char cmd[2 * PATH_MAX + 16];

	(void)state;
	if (saved_ldpath)
		setenv("LD_LIBRARY_PATH", saved_ldpath, 1);
	else
		unsetenv("LD_LIBRARY_PATH");
	free(saved_ldpath);
	root_set("/");
	str_fmt(cmd, sizeof(cmd), "rm -rf '%s' '%s'", tmpdir, scratch);
	return system(cmd) == 0 ? 0 : -1;
}

static struct python_env_facts *
add_env(struct facts *f, const char *prefix, const char *site, const char *version)
{
	struct python_env_facts *e = &f->python[f->npython++];

	STR_COPY(e->path, prefix);
	STR_COPY(e->site_packages, site);
	STR_COPY(e->version, version);
	STR_COPY(e->kind, "venv");
	return e;
}

static void
add_pkg(struct python_env_facts *e, const char *name, const char *version)
{
	STR_COPY(e->pkgs[e->npkgs].name, name);
	STR_COPY(e->pkgs[e->npkgs].version, version);
	e->npkgs++;
}

static void
h200_pkgs(struct python_env_facts *e)
{
	add_pkg(e, "torch", "2.11.0"); /* the dist-info dir name drops +cu130 */
	add_pkg(e, "jax", "0.11.2");
	add_pkg(e, "jaxlib", "0.11.2");
	add_pkg(e, "jax-cuda13-plugin", "0.11.2");
	add_pkg(e, "jax-cuda13-pjrt", "0.11.2");
	add_pkg(e, "cupy-cuda13x", "14.2.0");
	add_pkg(e, "nvidia-cudnn-cu13", "9.19.0.56");
	add_pkg(e, "nvidia-cuda-runtime", "13.0.88");
}

static struct facts *
new_facts(void)
{
	struct facts *f = xcalloc(1, sizeof(*f));

	facts_init(f);
	root_set(tmpdir);
	setenv("LD_LIBRARY_PATH", "/ldp", 1);
	return f;
}

static const struct framework_facts *
find_fw(const struct python_env_facts *e, const char *name)
{
	int i;

	for (i = 0; i < e->nframeworks; i++)
		if (strcmp(e->frameworks[i].name, name) == 0)
			return &e->frameworks[i];
	return NULL;
}

static const struct resolved_lib_facts *
find_res(const struct framework_facts *fw, const char *soname)
{
	int i;

	for (i = 0; i < fw->nresolved; i++)
		if (strcmp(fw->resolved[i].soname, soname) == 0)
			return &fw->resolved[i];
	return NULL;
}

/* torch, jax, cupy on the H200 layout. */
static void
test_h200_venv(void **state)
{
	struct probe_opts o = {.timeout_ms = 5000};
	const struct resolved_lib_facts *r;
	const struct framework_facts *fw;
	struct python_env_facts *e;
	struct facts *f;

	(void)state;
	build_tree();
	f = new_facts();
	/* libs.c found the pip cudart and read a more exact version */
	STR_COPY(f->libs[0].name, "cudart");
	STR_COPY(f->libs[0].real_path, VENV "/nvidia/cu13/lib/libcudart.so.13");
	STR_COPY(f->libs[0].version, "13.0.96");
	f->nlibs = 1;
	e = add_env(f, "/opt/torch/.venv", VENV, "3.12.3");
	h200_pkgs(e);
	probe_frameworks(f, &o);
	assert_int_equal(e->nframeworks, 3);

	fw = find_fw(e, "torch");
	assert_non_null(fw);
	assert_string_equal(fw->package, "torch");
	assert_string_equal(fw->version, "2.11.0+cu130");
	assert_string_equal(fw->local_tag, "cu130");
	assert_string_equal(fw->built_cuda, "13.0");
	assert_int_equal(fw->cuda_build, 1);
	assert_string_equal(fw->compute_capabilities, "");
	assert_string_equal(fw->extension, VENV "/torch/lib/libtorch_cuda.so");
	assert_int_equal(fw->nresolved, 4); /* libc.so.6 is not a CUDA library */
	r = find_res(fw, "libcudnn.so.9");
	assert_non_null(r);
	assert_true(r->needed);
	assert_string_equal(r->path, VENV "/nvidia/cudnn/lib/libcudnn.so.9");
	assert_string_equal(r->version, "9.19.0.56"); /* the wheel's RECORD, not 9.14.0 */
	assert_string_equal(r->via, "runpath");
	r = find_res(fw, "libcudart.so.13");
	assert_non_null(r);
	assert_string_equal(r->path, VENV "/nvidia/cu13/lib/libcudart.so.13");
	assert_string_equal(r->version, "13.0.96"); /* facts->libs first */
	r = find_res(fw, "libcublas.so.13");
	assert_non_null(r);
	assert_string_equal(r->version, "13.1.0.3");
	r = find_res(fw, "libnccl.so.2");
	assert_non_null(r);
	assert_true(r->needed);
	assert_string_equal(r->path, "");
	assert_string_equal(r->via, "");
	assert_string_equal(r->version, "");

	fw = find_fw(e, "jax");
	assert_non_null(fw);
	assert_string_equal(fw->package, "jaxlib");
	assert_string_equal(fw->version, "0.11.2");
	assert_string_equal(fw->plugin, "jax-cuda13-plugin 0.11.2, jax-cuda13-pjrt 0.11.2");
	assert_string_equal(fw->built_cuda, "13");
	assert_int_equal(fw->cuda_build, 1);
	assert_string_equal(fw->extension, VENV "/jax_plugins/xla_cuda13/xla_cuda_plugin.so");
	assert_int_equal(fw->nresolved, 2);
	r = find_res(fw, "libcudart.so.13");
	assert_non_null(r);
	assert_string_equal(r->path, VENV "/nvidia/cu13/lib/libcudart.so.13");
	r = find_res(fw, "libcublas.so.13"); /* from jax_cuda13_plugin/_solver.so */
	assert_non_null(r);
	assert_string_equal(r->path, VENV "/nvidia/cu13/lib/libcublas.so.13");

	fw = find_fw(e, "cupy");
	assert_non_null(fw);
	assert_string_equal(fw->package, "cupy-cuda13x");
	assert_string_equal(fw->version, "14.2.0");
	assert_string_equal(fw->built_cuda, "13");
	assert_int_equal(fw->cuda_build, 1);
	assert_int_equal(fw->nresolved, 1);
	/* no rpath: the toolkit's copy through ld.so.cache */
	assert_string_equal(fw->resolved[0].path, "/usr/local/cuda-13.0/lib64/libcudart.so.13");
	assert_string_equal(fw->resolved[0].via, "ld_so_cache");
	assert_string_equal(fw->resolved[0].version, "13.0.96"); /* the file name */
	free(f);
}

static void
test_tf215_and_cuda(void **state)
{
	struct probe_opts o = {.timeout_ms = 5000};
	const struct resolved_lib_facts *r;
	const struct framework_facts *fw;
	struct python_env_facts *e;
	struct facts *f;
	int i;

	(void)state;
	build_tree();
	f = new_facts();
	e = add_env(f, "/opt/tf215", TF215, "3.11");
	add_pkg(e, "tensorflow", "2.15.0.post1");
	add_pkg(e, "nvidia-cudnn-cu12", "8.9.4.25");
	probe_frameworks(f, &o);
	assert_int_equal(e->nframeworks, 1);
	fw = &e->frameworks[0];
	assert_string_equal(fw->name, "tensorflow");
	assert_string_equal(fw->package, "tensorflow");
	assert_string_equal(fw->version, "2.15.0.post1");
	assert_string_equal(fw->built_cuda, "12.2");
	assert_string_equal(fw->built_cudnn, "8");
	assert_int_equal(fw->cuda_build, 1);
	assert_string_equal(fw->compute_capabilities, "sm_50 sm_60 sm_70 sm_80 compute_90");
	assert_string_equal(fw->extension, TF215 "/tensorflow/python/_pywrap_tensorflow_internal.so");
	/* the dso loader's list for 2.15: cudart cublas cublasLt cufft curand
	 * cusolver cusparse cudnn nccl */
	assert_int_equal(fw->nresolved, 9);
	for (i = 0; i < fw->nresolved; i++)
		assert_false(fw->resolved[i].needed);
	r = find_res(fw, "libcudnn.so.8");
	assert_non_null(r);
	assert_string_equal(r->path, TF215 "/nvidia/cudnn/lib/libcudnn.so.8");
	assert_string_equal(r->via, "rpath"); /* DT_RPATH comes before LD_LIBRARY_PATH's copy */
	assert_string_equal(r->version, "8.9.4.25");
	r = find_res(fw, "libcudart.so.12");
	assert_non_null(r);
	assert_string_equal(r->path, TF215 "/nvidia/cuda_runtime/lib/libcudart.so.12");
	assert_string_equal(r->version, "12");
	r = find_res(fw, "libcublasLt.so.12");
	assert_non_null(r);
	assert_string_equal(r->path, TF215 "/nvidia/cublas/lib/libcublasLt.so.12");
	r = find_res(fw, "libcufft.so.11");
	assert_non_null(r);
	assert_string_equal(r->path, "");
	r = find_res(fw, "libnccl.so.2");
	assert_non_null(r);
	assert_string_equal(r->path, "");
	free(f);
}

static void
test_tf_other_builds(void **state)
{
	struct probe_opts o = {.timeout_ms = 5000};
	const struct resolved_lib_facts *r;
	const struct framework_facts *fw;
	struct python_env_facts *e1, *e2, *e3, *e4, *e5;
	struct facts *f;

	(void)state;
	build_tree();
	f = new_facts();
	e5 = add_env(f, "/opt/tfcore", "/opt/tfcore/lib/python3.7/site-packages", "3.7");
	add_pkg(e5, "tensorflow-gpu", "1.15.5");
	e1 = add_env(f, "/opt/tf115", "/opt/tf115/lib/python3.7/site-packages", "3.7");
	add_pkg(e1, "tensorflow_gpu", "1.15.5");
	e2 = add_env(f, "/opt/tfcpu", "/opt/tfcpu/lib/python3.11/site-packages", "3.11");
	add_pkg(e2, "tensorflow-cpu", "2.15.0");
	e3 = add_env(f, "/opt/tfwin", "/opt/tfwin/lib/site-packages", "3.9");
	add_pkg(e3, "tensorflow", "2.4.0");
	e4 = add_env(f, "/opt/tfnofiles", "/opt/tf115/lib", "3.11"); /* no build_info */
	add_pkg(e4, "tensorflow-cpu", "2.16.1");
	probe_frameworks(f, &o);

	assert_int_equal(e1->nframeworks, 1);
	fw = &e1->frameworks[0];
	assert_string_equal(fw->package, "tensorflow_gpu");
	assert_string_equal(fw->built_cuda, "10.0");
	assert_string_equal(fw->built_cudnn, "7");
	assert_int_equal(fw->cuda_build, 1);
	assert_string_equal(fw->extension, "");
	r = find_res(fw, "libcudart.so.10.0");
	assert_non_null(r);
	assert_false(r->needed);
	assert_string_equal(r->path, "");
	assert_non_null(find_res(fw, "libcudnn.so.7"));
	assert_null(find_res(fw, "libnvinfer.so.5")); /* TensorRT is optional */

	assert_int_equal(e2->nframeworks, 1);
	fw = &e2->frameworks[0];
	assert_string_equal(fw->package, "tensorflow-cpu");
	assert_int_equal(fw->cuda_build, 0);
	assert_string_equal(fw->built_cuda, "");
	assert_int_equal(fw->nresolved, 0);

	fw = &e3->frameworks[0];
	assert_string_equal(fw->built_cuda, "11.2");
	assert_string_equal(fw->built_cudnn, "8");
	assert_string_equal(fw->compute_capabilities, "sm_35 compute_80");
	assert_int_equal(fw->cuda_build, 1);
	assert_non_null(find_res(fw, "libcudart.so.11.0"));

	fw = &e4->frameworks[0];
	assert_int_equal(fw->cuda_build, 0); /* from the package name */
	assert_int_equal(fw->nresolved, 0);

	/* tensorflow_core/: build_info and extension found there */
	assert_int_equal(e5->nframeworks, 1);
	fw = &e5->frameworks[0];
	assert_string_equal(fw->version, "1.15.5");
	assert_string_equal(fw->built_cuda, "10.0");
	assert_string_equal(fw->built_cudnn, "7");
	assert_int_equal(fw->cuda_build, 1);
	assert_non_null(strstr(fw->extension, "/tensorflow_core/python/_pywrap_tensorflow_internal.so"));
	r = find_res(fw, "libcusolver.so.10.0");
	assert_non_null(r);
	assert_string_equal(r->path, "");
	free(f);
}

static void
test_torch_cpu_and_jax_mismatch(void **state)
{
	struct probe_opts o = {.timeout_ms = 5000};
	const struct framework_facts *fw;
	struct python_env_facts *e1, *e2, *e3;
	struct facts *f;

	(void)state;
	build_tree();
	f = new_facts();
	e1 = add_env(f, "/opt/cpu", "/opt/cpu/lib/python3.12/site-packages", "3.12");
	add_pkg(e1, "torch", "2.5.1+cpu");
	e2 = add_env(f, "/opt/jaxbad", "/opt/jaxbad/lib/python3.12/site-packages", "3.12");
	add_pkg(e2, "jax", "0.4.31");
	add_pkg(e2, "jaxlib", "0.4.30");
	add_pkg(e2, "jax_cuda12_plugin", "0.4.31");
	add_pkg(e2, "jax-cuda12-pjrt", "0.4.31");
	e3 = add_env(f, "/opt/oldjax", "/opt/jaxbad/lib/python3.12/site-packages", "3.10");
	add_pkg(e3, "jaxlib", "0.4.13+cuda12.cudnn89");
	probe_frameworks(f, &o);

	assert_int_equal(e1->nframeworks, 1);
	fw = &e1->frameworks[0];
	assert_string_equal(fw->version, "2.5.1+cpu");
	assert_string_equal(fw->local_tag, "cpu");
	assert_int_equal(fw->cuda_build, 0);
	assert_string_equal(fw->built_cuda, "");
	assert_string_equal(fw->extension, "");
	assert_int_equal(fw->nresolved, 0);

	assert_int_equal(e2->nframeworks, 1);
	fw = &e2->frameworks[0];
	assert_string_equal(fw->name, "jax");
	assert_string_equal(fw->version, "0.4.30");
	assert_string_equal(fw->plugin, "jax-cuda12-plugin 0.4.31, jax-cuda12-pjrt 0.4.31");
	assert_string_equal(fw->built_cuda, "12");
	assert_int_equal(fw->cuda_build, 1);
	assert_string_equal(fw->extension, ""); /* the plugin's files are missing */

	fw = &e3->frameworks[0];
	assert_string_equal(fw->local_tag, "cuda12.cudnn89");
	assert_string_equal(fw->built_cuda, "12");
	assert_string_equal(fw->built_cudnn, "8.9");
	assert_int_equal(fw->cuda_build, 1);
	assert_string_equal(fw->plugin, "");
	free(f);
}

static void
test_hostile_files(void **state)
{
	struct probe_opts o = {.timeout_ms = 5000};
	const struct framework_facts *fw;
	struct python_env_facts *e;
	struct facts *f;

	(void)state;
	build_tree();
	f = new_facts();
	e = add_env(f, "/opt/bad", "/opt/bad/lib/python3.12/site-packages", "3.12");
	add_pkg(e, "tensorflow", "not-a-version");
	add_env(f, "/gone", "/gone/lib/python3.12/site-packages", "3.12");
	add_env(f, "/empty", "", "");
	probe_frameworks(f, &o);
	assert_int_equal(e->nframeworks, 2);
	fw = find_fw(e, "tensorflow");
	assert_non_null(fw);
	assert_string_equal(fw->built_cuda, "");   /* unterminated string */
	assert_int_equal(fw->cuda_build, -1);       /* no value */
	assert_true(strlen(fw->compute_capabilities) < sizeof(fw->compute_capabilities));
	assert_true(str_starts(fw->compute_capabilities, "sm_1 sm_2 "));
	assert_int_equal(fw->nresolved, 0);         /* no version, no dso list */
	fw = find_fw(e, "torch");
	assert_non_null(fw);
	assert_string_equal(fw->version, "");
	assert_string_equal(fw->built_cuda, "");
	assert_int_equal(fw->cuda_build, -1);
	assert_int_equal(f->python[1].nframeworks, 0);
	assert_int_equal(f->python[2].nframeworks, 0);
	free(f);
}

/* 20 environments, each a copy of the H200 venv: facts holds 16
 * (MAX_PYENVS), so two runs, 16 and 4. */
static void
test_speed(void **state)
{
	struct probe_opts o = {.timeout_ms = 5000};
	const struct resolved_lib_facts *r;
	struct timespec t0, t1;
	char cmd[3 * PATH_MAX], site[F_PATH];
	struct facts *f;
	double ms = 0;
	int i, k, n = 0, envs = 0;

	(void)state;
	build_tree();
	for (i = 0; i < 20; i++) {
		str_fmt(site, sizeof(site), "/opt/e%02d/lib/python3.12/site-packages", i);
		str_fmt(cmd, sizeof(cmd), "mkdir -p '%s/opt/e%02d/lib/python3.12' && cp -a '%s%s' '%s%s'",
			tmpdir, i, tmpdir, VENV, tmpdir, site);
		run(cmd);
	}
	for (k = 0; k < 20; k += MAX_PYENVS) {
		f = new_facts();
		for (i = k; i < 20 && f->npython < MAX_PYENVS; i++) {
			str_fmt(site, sizeof(site), "/opt/e%02d/lib/python3.12/site-packages", i);
			h200_pkgs(add_env(f, site, site, "3.12"));
		}
		clock_gettime(CLOCK_MONOTONIC, &t0);
		probe_frameworks(f, &o);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms += (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
		for (i = 0; i < f->npython; i++)
			n += f->python[i].nframeworks;
		envs += f->npython;
		r = find_res(find_fw(&f->python[f->npython - 1], "torch"), "libcudnn.so.9");
		assert_non_null(r);
		assert_string_equal(r->version, "9.19.0.56");
		assert_true(str_starts(r->path, "/opt/e"));
		free(f);
	}
	printf("# probe_frameworks: %d environments, %d frameworks in %.2f ms\n", envs, n, ms);
	assert_int_equal(envs, 20);
	assert_int_equal(n, 3 * envs);
	/* timing is a benchmark figure (bench/python.sh), not a test */
}

/* Where XLA finds libdevice and ptxas: the nvidia-cuda-nvcc wheel (its
 * version from the dist-info), else the newest /usr/local/cuda-N.M, and
 * XLA_FLAGS' --xla_gpu_cuda_data_dir before both. */
static void
test_xla_toolchain(void **state)
{
	struct probe_opts o = {.timeout_ms = 5000};
#define XSITE "/opt/xla/lib/python3.12/site-packages"
#define YSITE "/opt/xlb/lib/python3.12/site-packages"
	const struct framework_facts *fw;
	struct python_env_facts *e1, *e2;
	char path[4096];
	struct facts *f;

	(void)state;
	build_tree();
	put(XSITE "/nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc", "BC");
	put(XSITE "/nvidia/cuda_nvcc/bin/ptxas", "ELF");
	put(XSITE "/nvidia_cuda_nvcc_cu12-12.4.131.dist-info/METADATA", "Name: nvidia-cuda-nvcc-cu12\n");
	put("/usr/local/cuda-11.8/bin/ptxas", "ELF");
	put("/usr/local/cuda-12.6/bin/ptxas", "ELF");
	put("/usr/local/cuda-12.6/nvvm/libdevice/libdevice.10.bc", "BC");
	put("/opt/tk/bin/ptxas", "ELF");
	put("/opt/tk/nvvm/libdevice/libdevice.10.bc", "BC");
	put("/opt/tk/version.json", "{\"cuda\" : {\"name\" : \"CUDA SDK\", \"version\" : \"12.8.1\"}}");
	mkdirs(YSITE);
	unsetenv("XLA_FLAGS");
	unsetenv("CUDA_HOME");
	unsetenv("CUDA_PATH");
	str_copy(path, sizeof(path), getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	setenv("PATH", "/nonexistent/bin", 1);

	f = new_facts();
	e1 = add_env(f, "/opt/xla", XSITE, "3.12");
	add_pkg(e1, "jax", "0.4.31");
	add_pkg(e1, "jaxlib", "0.4.31");
	add_pkg(e1, "jax-cuda12-plugin", "0.4.31");
	e2 = add_env(f, "/opt/xlb", YSITE, "3.12");
	add_pkg(e2, "jaxlib", "0.4.31");
	add_pkg(e2, "jax-cuda12-plugin", "0.4.31");
	probe_frameworks(f, &o);
	setenv("PATH", path, 1);
	assert_non_null(fw = find_fw(e1, "jax"));
	assert_string_equal(fw->libdevice, XSITE "/nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc");
	assert_string_equal(fw->ptxas, XSITE "/nvidia/cuda_nvcc/bin/ptxas");
	assert_string_equal(fw->ptxas_version, "12.4");
	assert_non_null(fw = find_fw(e2, "jax"));
	assert_string_equal(fw->libdevice, "/usr/local/cuda-12.6/nvvm/libdevice/libdevice.10.bc");
	assert_string_equal(fw->ptxas, "/usr/local/cuda-12.6/bin/ptxas");
	assert_string_equal(fw->ptxas_version, "12.6");
	free(f);

	setenv("XLA_FLAGS", "--xla_gpu_enable_triton=false --xla_gpu_cuda_data_dir=/opt/tk", 1);
	f = new_facts();
	e1 = add_env(f, "/opt/xla", XSITE, "3.12");
	add_pkg(e1, "jaxlib", "0.4.31");
	add_pkg(e1, "jax-cuda12-plugin", "0.4.31");
	probe_frameworks(f, &o);
	unsetenv("XLA_FLAGS");
	assert_non_null(fw = find_fw(e1, "jax"));
	assert_string_equal(fw->libdevice, "/opt/tk/nvvm/libdevice/libdevice.10.bc");
	assert_string_equal(fw->ptxas, "/opt/tk/bin/ptxas");
	assert_string_equal(fw->ptxas_version, "12.8");
	free(f);

	/* a CPU-only jaxlib looks for neither */
	f = new_facts();
	e2 = add_env(f, "/opt/xlb", YSITE, "3.12");
	add_pkg(e2, "jaxlib", "0.4.31");
	probe_frameworks(f, &o);
	assert_non_null(fw = find_fw(e2, "jax"));
	assert_int_equal(fw->cuda_build, 0);
	assert_string_equal(fw->libdevice, "");
	assert_string_equal(fw->ptxas, "");
	free(f);
#undef XSITE
#undef YSITE
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_h200_venv),
		cmocka_unit_test(test_tf215_and_cuda),
		cmocka_unit_test(test_tf_other_builds),
		cmocka_unit_test(test_torch_cpu_and_jax_mismatch),
		cmocka_unit_test(test_hostile_files),
		cmocka_unit_test(test_xla_toolchain),
		cmocka_unit_test(test_speed),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
