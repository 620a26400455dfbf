/*
 * t_pyenv.c - probe_python (probe/pyenv.c) against machine trees built in
 * a temporary directory and handed over with root_set(), with the process
 * environment (PATH, HOME, VIRTUAL_ENV, CONDA_PREFIX, CONDA_EXE,
 * PYENV_ROOT) set for each case: a venv on PATH whose python3 links to the
 * system interpreter, conda roots with envs and environments.txt, pyenv
 * versions behind a shim, a Debian system python with dist-packages, an
 * activated venv reached again through symlinks, hostile METADATA, the
 * environment cap, --python, Windows installs seen from WSL2 under /mnt/c;
 * then the real machine, with timings.
 */
#include "unit.h"
#include "tree.h"

#include "facts.h"
#include "probe/probe.h"
#include "sys/root.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *const vars[] = {
	"PATH", "HOME", "VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_EXE", "PYENV_ROOT",
	"PYENV_VERSION", "MAMBA_ROOT_PREFIX", NULL,
};
static char *saved[16];

/* ---- tree building ---------------------------------------------------------------- */






/* A wheel's dist-info as pip writes it: <name>-<version>.dist-info/METADATA. */
static void
dist(const char *site, const char *dirname, const char *name, const char *ver)
{
	char rel[1024], text[512];

	snprintf(rel, sizeof(rel), "%s/%s.dist-info/METADATA", site, dirname);
	snprintf(text, sizeof(text),
		 "Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: x\n\nlong description\n", name,
		 ver);
	put(rel, text);
}

/* conda-meta with python-<ver>, bin/python3 -> python3.X. */
static void
conda_env(const char *prefix, const char *ver)
{
	char rel[1024], xy[16];
	const char *dot = strchr(ver, '.');

	snprintf(xy, sizeof(xy), "%.*s", dot ? (int)(strcspn(dot + 1, ".") + (size_t)(dot - ver) + 1) : 1,
		 ver);
	snprintf(rel, sizeof(rel), "%s/conda-meta/python-%s-h955ad1f_0.json", prefix, ver);
	put(rel, "{\"name\": \"python\"}\n");
	snprintf(rel, sizeof(rel), "%s/conda-meta/python-dateutil-2.9.0-pyhd8ed1ab_0.json", prefix);
	put(rel, "{}\n");
	snprintf(rel, sizeof(rel), "%s/bin/python%s", prefix, xy);
	put(rel, "ELF");
	snprintf(rel, sizeof(rel), "%s/bin/python3", prefix);
	{
		char target[32];
		snprintf(target, sizeof(target), "python%s", xy);
		link_to(rel, target);
	}
	snprintf(rel, sizeof(rel), "%s/lib/python%s/site-packages", prefix, xy);
	mkdirs(rel);
}


static void
clear_env(void)
{
	int i;

	for (i = 0; vars[i]; i++)
		unsetenv(vars[i]);
	setenv("PATH", "/usr/bin", 1);
	setenv("HOME", "/home/u", 1);
}

static int
setup(void **state)
{
	(void)state;
	if (tree_create("t_pyenv") < 0)
		return -1;
	root_set(tree);
	clear_env();
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	root_set("/");
	return tree_remove();
}

static struct facts *
new_facts(void)
{
	struct facts *f = malloc(sizeof(*f));

	assert_non_null(f);
	facts_init(f);
	return f;
}

static const struct python_env_facts *
env_at(const struct facts *f, const char *path)
{
	int i;

	for (i = 0; i < f->npython; i++)
		if (!strcmp(f->python[i].path, path))
			return &f->python[i];
	return NULL;
}

static const char *
pkg(const struct python_env_facts *e, const char *name)
{
	int i;

	for (i = 0; i < e->npkgs; i++)
		if (!strcmp(e->pkgs[i].name, name))
			return e->pkgs[i].version;
	return NULL;
}

static int
nactive(const struct facts *f)
{
	int i, n = 0;

	for (i = 0; i < f->npython; i++)
		n += f->python[i].active;
	return n;
}

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static const struct probe_opts no_opts = {.timeout_ms = 1000};

/* ---- cases -------------------------------------------------------------------------- */

/* A venv on PATH: bin/python3 links to /usr/bin/python3.12, the prefix is
 * still the venv (pyvenv.cfg above bin/), and the system python behind it
 * is listed on its own. */
static void
test_venv_on_path(void **state)
{
	const char *site = "home/u/proj/.venv/lib/python3.12/site-packages";
	const struct python_env_facts *e;
	struct facts *f = new_facts();

	(void)state;
	put("usr/bin/python3.12", "ELF");
	link_to("usr/bin/python3", "python3.12");
	put("usr/lib/python3.12/os.py", "");
	mkdirs("usr/lib/python3/dist-packages");
	put("home/u/proj/.venv/pyvenv.cfg",
	    "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.12.3\n");
	link_to("home/u/proj/.venv/bin/python3", "/usr/bin/python3.12");
	link_to("home/u/proj/.venv/bin/python", "python3");
	dist(site, "torch-2.5.1+cu124", "torch", "2.5.1+cu124");
	dist(site, "nvidia_cudnn_cu12-9.1.0.70", "nvidia-cudnn-cu12", "9.1.0.70");
	dist(site, "nvidia_cublas_cu12-12.4.5.8", "nvidia-cublas-cu12", "12.4.5.8");
	dist(site, "numpy-2.1.0", "numpy", "2.1.0");
	dist(site, "Tensorflow_GPU-2.10.0", "tensorflow-gpu", "2.10.0");
	dist(site, "jax_cuda12_plugin-0.4.30", "jax-cuda12-plugin", "0.4.30");
	dist(site, "tf_keras-2.15.1", "tf_keras", "2.15.1");
	dist(site, "requests-2.32.0", "requests", "2.32.0");
	dist(site, "onnxruntime_gpu-1.22.0", "onnxruntime-gpu", "1.22.0");
	setenv("PATH", "/home/u/proj/.venv/bin:/usr/local/bin:/usr/bin", 1);

	probe_python(f, &no_opts);
	assert_int_equal(f->npython, 2);
	e = &f->python[0];
	assert_string_equal(e->path, "/home/u/proj/.venv");
	assert_string_equal(e->kind, "venv");
	assert_string_equal(e->version, "3.12.3");
	assert_string_equal(e->interpreter, "/home/u/proj/.venv/bin/python3");
	assert_true(e->active);
	assert_string_equal(e->site_packages, "/home/u/proj/.venv/lib/python3.12/site-packages");
	assert_int_equal(e->npkgs, 7);
	assert_string_equal(pkg(e, "torch"), "2.5.1+cu124");
	assert_string_equal(pkg(e, "onnxruntime-gpu"), "1.22.0");
	assert_string_equal(pkg(e, "nvidia-cudnn-cu12"), "9.1.0.70");
	assert_string_equal(pkg(e, "nvidia-cublas-cu12"), "12.4.5.8");
	assert_string_equal(pkg(e, "tensorflow-gpu"), "2.10.0");
	assert_string_equal(pkg(e, "jax-cuda12-plugin"), "0.4.30");
	assert_string_equal(pkg(e, "tf-keras"), "2.15.1");
	assert_null(pkg(e, "numpy"));
	assert_null(pkg(e, "requests"));

	e = &f->python[1];
	assert_string_equal(e->path, "/usr");
	assert_string_equal(e->kind, "system");
	assert_string_equal(e->version, "3.12");
	assert_string_equal(e->interpreter, "/usr/bin/python3");
	assert_false(e->active);
	assert_int_equal(e->npkgs, 0);
	assert_string_equal(e->site_packages, "/usr/lib/python3/dist-packages");
	assert_int_equal(nactive(f), 1);
	free(f);
}

/* Conda: a root found from CONDA_EXE with two envs (and one without
 * python), another user's miniforge, environments.txt naming one more,
 * a duplicate, a missing dir and a relative line. */
static void
test_conda(void **state)
{
	const struct python_env_facts *e;
	struct facts *f = new_facts();

	(void)state;
	conda_env("opt/conda", "3.11.5");
	conda_env("opt/conda/envs/tf", "3.10.14");
	dist("opt/conda/envs/tf/lib/python3.10/site-packages", "tensorflow-2.15.0", "tensorflow",
	     "2.15.0");
	dist("opt/conda/envs/tf/lib/python3.10/site-packages", "nvidia_cudnn_cu12-8.9.4.25",
	     "nvidia-cudnn-cu12", "8.9.4.25");
	conda_env("opt/conda/envs/torch", "3.12.4");
	dist("opt/conda/envs/torch/lib/python3.12/site-packages", "torch-2.4.0", "torch", "2.4.0");
	put("opt/conda/envs/r-only/conda-meta/r-base-4.3.1-h0.json", "{}\n");
	mkdirs("opt/conda/envs/r-only/bin");
	conda_env("home/v/miniforge3", "3.12.1");
	conda_env("home/u/elsewhere/myenv", "3.9.18");
	dist("home/u/elsewhere/myenv/lib/python3.9/site-packages", "cupy_cuda11x-12.3.0",
	     "cupy-cuda11x", "12.3.0");
	put("home/u/.conda/environments.txt",
	    "/opt/conda\n/opt/conda/envs/tf\n/home/u/elsewhere/myenv\n/gone/env\nrelative/env\n\n");
	setenv("CONDA_EXE", "/opt/conda/bin/conda", 1);

	probe_python(f, &no_opts);
	assert_int_equal(f->npython, 5);
	assert_string_equal(f->python[0].path, "/opt/conda");
	assert_string_equal(f->python[1].path, "/opt/conda/envs/tf"); /* envs in name order */
	assert_string_equal(f->python[2].path, "/opt/conda/envs/torch");
	assert_string_equal(f->python[3].path, "/home/v/miniforge3");
	assert_string_equal(f->python[4].path, "/home/u/elsewhere/myenv");
	assert_null(env_at(f, "/opt/conda/envs/r-only"));
	assert_int_equal(nactive(f), 0);

	e = env_at(f, "/opt/conda");
	assert_string_equal(e->kind, "conda");
	assert_string_equal(e->version, "3.11.5");
	assert_string_equal(e->interpreter, "/opt/conda/bin/python3");
	assert_int_equal(e->npkgs, 0);
	e = env_at(f, "/opt/conda/envs/tf");
	assert_string_equal(e->version, "3.10.14");
	assert_int_equal(e->npkgs, 2);
	assert_string_equal(pkg(e, "tensorflow"), "2.15.0");
	assert_string_equal(pkg(e, "nvidia-cudnn-cu12"), "8.9.4.25");
	assert_string_equal(e->site_packages, "/opt/conda/envs/tf/lib/python3.10/site-packages");
	e = env_at(f, "/home/u/elsewhere/myenv");
	assert_string_equal(e->kind, "conda");
	assert_string_equal(e->version, "3.9.18");
	assert_string_equal(pkg(e, "cupy-cuda11x"), "12.3.0");
	free(f);

	/* CONDA_PREFIX: that env is active and listed first; its root is
	 * found through .../envs/NAME without CONDA_EXE */
	unsetenv("CONDA_EXE");
	setenv("CONDA_PREFIX", "/opt/conda/envs/torch", 1);
	f = new_facts();
	probe_python(f, &no_opts);
	assert_int_equal(f->npython, 5);
	assert_string_equal(f->python[0].path, "/opt/conda/envs/torch");
	assert_true(f->python[0].active);
	assert_string_equal(f->python[0].kind, "conda");
	assert_string_equal(f->python[0].version, "3.12.4");
	assert_string_equal(pkg(&f->python[0], "torch"), "2.4.0");
	assert_int_equal(nactive(f), 1);
	assert_non_null(env_at(f, "/opt/conda"));
	free(f);
}

/* pyenv: the shim on PATH leads to the version in ~/.pyenv/version (the
 * active one); every version is listed; a conda installed by pyenv is
 * conda. */
static void
test_pyenv(void **state)
{
	const char *site = "home/u/.pyenv/versions/3.11.7/lib/python3.11/site-packages";
	const struct python_env_facts *e;
	struct facts *f = new_facts();

	(void)state;
	put("home/u/.pyenv/shims/python3", "#!/usr/bin/env bash\nexec pyenv exec \"$0\"\n");
	put("home/u/.pyenv/shims/python", "#!/usr/bin/env bash\n");
	put("home/u/.pyenv/version", "3.11.7\n");
	put("home/u/.pyenv/versions/3.11.7/bin/python3.11", "ELF");
	link_to("home/u/.pyenv/versions/3.11.7/bin/python3", "python3.11");
	put("home/u/.pyenv/versions/3.11.7/lib/python3.11/os.py", "");
	dist(site, "jax-0.4.30", "jax", "0.4.30");
	dist(site, "jaxlib-0.4.30", "jaxlib", "0.4.30");
	dist(site, "jax_cuda12_pjrt-0.4.30", "jax-cuda12-pjrt", "0.4.30");
	put("home/u/.pyenv/versions/2.7.18/bin/python2.7", "ELF");
	link_to("home/u/.pyenv/versions/2.7.18/bin/python", "python2.7");
	conda_env("home/u/.pyenv/versions/miniconda3-latest", "3.12.2");
	put("usr/bin/python3.11", "ELF");
	link_to("usr/bin/python3", "python3.11");
	setenv("PATH", "/home/u/.pyenv/shims:/home/u/.pyenv/bin:/usr/bin", 1);

	probe_python(f, &no_opts);
	assert_int_equal(f->npython, 4);
	e = &f->python[0];
	assert_string_equal(e->path, "/home/u/.pyenv/versions/3.11.7");
	assert_string_equal(e->kind, "pyenv");
	assert_string_equal(e->version, "3.11.7");
	assert_true(e->active);
	assert_string_equal(e->interpreter, "/home/u/.pyenv/versions/3.11.7/bin/python3");
	assert_int_equal(e->npkgs, 3);
	assert_string_equal(pkg(e, "jax-cuda12-pjrt"), "0.4.30");
	assert_string_equal(f->python[1].path, "/usr");
	assert_false(f->python[1].active);
	e = env_at(f, "/home/u/.pyenv/versions/2.7.18");
	assert_non_null(e);
	assert_string_equal(e->kind, "pyenv");
	assert_string_equal(e->version, "2.7.18");
	assert_string_equal(e->interpreter, "/home/u/.pyenv/versions/2.7.18/bin/python");
	e = env_at(f, "/home/u/.pyenv/versions/miniconda3-latest");
	assert_non_null(e);
	assert_string_equal(e->kind, "conda");
	assert_string_equal(e->version, "3.12.2");
	assert_int_equal(nactive(f), 1);
	free(f);

	/* "system" selected: the shim is passed over, /usr/bin's python is
	 * the active one */
	put("home/u/.pyenv/version", "system\n");
	f = new_facts();
	probe_python(f, &no_opts);
	assert_string_equal(f->python[0].path, "/usr");
	assert_true(f->python[0].active);
	assert_int_equal(nactive(f), 1);
	free(f);
}

/* Debian's system python: /bin -> usr/bin (merged /usr, the same env
 * twice on PATH), packages in /usr/local/lib/python3.11/dist-packages and
 * /usr/lib/python3/dist-packages, an egg-info file and directory, a user
 * site, and a leftover /usr/lib/python3.13 holding only dist-packages. */
static void
test_system_dist_packages(void **state)
{
	const struct python_env_facts *e;
	struct facts *f = new_facts();

	(void)state;
	link_to("bin", "usr/bin");
	put("usr/bin/python3.11", "ELF");
	link_to("usr/bin/python3", "python3.11");
	put("usr/lib/python3.11/os.py", "");
	mkdirs("usr/lib/python3.13/dist-packages");
	dist("usr/local/lib/python3.11/dist-packages", "torch-2.3.0", "torch", "2.3.0");
	dist("usr/lib/python3/dist-packages", "cupy_cuda12x-13.0.0", "cupy-cuda12x", "13.0.0");
	dist("usr/lib/python3/dist-packages", "torch-1.13.0", "torch", "1.13.0"); /* shadowed */
	put("usr/lib/python3/dist-packages/tensorrt.egg-info",
	    "Metadata-Version: 1.1\nName: tensorrt\nVersion: 8.6.1\n");
	put("usr/lib/python3/dist-packages/Keras-2.15.0-py3.11.egg-info/PKG-INFO",
	    "Metadata-Version: 1.1\nName: keras\nVersion: 2.15.0\n");
	put("usr/lib/python3/dist-packages/PyYAML-6.0-py3.11.egg-info/PKG-INFO", "Name: PyYAML\n");
	dist("home/u/.local/lib/python3.11/site-packages", "nvidia_nccl_cu12-2.21.5", "nvidia-nccl-cu12",
	     "2.21.5");
	setenv("PATH", "/bin:/usr/bin", 1);

	probe_python(f, &no_opts);
	assert_int_equal(f->npython, 1);
	e = &f->python[0];
	assert_string_equal(e->path, "/usr");
	assert_string_equal(e->kind, "system");
	assert_string_equal(e->version, "3.11");
	assert_true(e->active);
	assert_string_equal(e->interpreter, "/bin/python3");
	assert_int_equal(e->npkgs, 5);
	assert_string_equal(pkg(e, "torch"), "2.3.0");
	assert_string_equal(pkg(e, "cupy-cuda12x"), "13.0.0");
	assert_string_equal(pkg(e, "tensorrt"), "8.6.1");
	assert_string_equal(pkg(e, "keras"), "2.15.0");
	assert_string_equal(pkg(e, "nvidia-nccl-cu12"), "2.21.5");
	/* the dir with the framework, not the user site listed first */
	assert_string_equal(e->site_packages, "/usr/local/lib/python3.11/dist-packages");
	free(f);
}

/* VIRTUAL_ENV through a symlinked path; the same venv again on PATH and
 * named with --python; CONDA_PREFIX too (the venv's python is the one
 * run, so only the venv is active). */
static void
test_active_and_duplicates(void **state)
{
	char *extra[2] = {"/srv/venv/bin/python3", "/data/venv-link"};
	struct probe_opts o = {.timeout_ms = 1000, .nextra_pythons = 2};
	const struct python_env_facts *e;
	struct facts *f = new_facts();

	(void)state;
	o.extra_pythons[0] = extra[0];
	o.extra_pythons[1] = extra[1];
	put("usr/bin/python3.12", "ELF");
	put("srv/venv/pyvenv.cfg", "home = /usr/bin\nversion_info = 3.12.3.final.0\n");
	link_to("srv/venv/bin/python3", "/usr/bin/python3.12");
	dist("srv/venv/lib/python3.12/site-packages", "torch-2.6.0+cpu", "torch", "2.6.0+cpu");
	link_to("data/venv-link", "/srv/venv");
	link_to("data/other-link", "../srv/venv");
	conda_env("opt/conda", "3.11.5");
	setenv("VIRTUAL_ENV", "/data/venv-link", 1);
	setenv("CONDA_PREFIX", "/opt/conda", 1);
	setenv("PATH", "/data/other-link/bin:/srv/venv/bin:/opt/conda/bin", 1);

	probe_python(f, &o);
	assert_int_equal(f->npython, 2);
	e = &f->python[0];
	assert_string_equal(e->path, "/data/venv-link");
	assert_string_equal(e->kind, "venv");
	assert_string_equal(e->version, "3.12.3");
	assert_string_equal(e->interpreter, "/data/venv-link/bin/python3");
	assert_true(e->active);
	assert_string_equal(pkg(e, "torch"), "2.6.0+cpu");
	e = &f->python[1];
	assert_string_equal(e->path, "/opt/conda");
	assert_false(e->active);
	assert_int_equal(nactive(f), 1);
	free(f);

	/* a VIRTUAL_ENV that is gone is a note, not an environment */
	setenv("VIRTUAL_ENV", "/home/u/deleted-venv", 1);
	unsetenv("CONDA_PREFIX");
	f = new_facts();
	probe_python(f, &no_opts);
	assert_true(f->nnotes >= 1);
	assert_non_null(strstr(f->notes[0].note, "deleted-venv"));
	/* nothing activated: the first python on PATH is the active one */
	assert_string_equal(f->python[0].path, "/data/other-link");
	assert_true(f->python[0].active);
	assert_int_equal(nactive(f), 1);
	free(f);
}

/* Hostile and odd metadata: garbage bytes, a 1 MB METADATA, names that
 * the directory name cannot tell, NULs, no METADATA at all. */
static void
test_metadata(void **state)
{
	const char *site = "home/u/venv/lib/python3.12/site-packages";
	const struct python_env_facts *e;
	struct facts *f = new_facts();
	char rel[512], *big, junk[3000];
	size_t i, n = 1 << 20;

	(void)state;
	put("home/u/venv/pyvenv.cfg", "version = 3.12.3\n");
	put("home/u/venv/bin/python3", "ELF");
	setenv("VIRTUAL_ENV", "/home/u/venv", 1);

	/* garbage METADATA behind a clean directory name: the name decides */
	for (i = 0; i < sizeof(junk); i++)
		junk[i] = (char)((i * 131 + 7) & 0xff);
	snprintf(rel, sizeof(rel), "%s/torch-2.1.0.dist-info/METADATA", site);
	put_bytes(rel, junk, sizeof(junk), 0644);
	/* garbage behind an ambiguous name: skipped */
	snprintf(rel, sizeof(rel), "%s/nvidia-junk-cu12.dist-info/METADATA", site);
	put_bytes(rel, junk, sizeof(junk), 0644);
	/* a dashed (non-wheel) directory name: METADATA says what it is */
	dist(site, "nvidia-cuda-runtime-cu12-12.4.127", "nvidia-cuda-runtime-cu12", "12.4.127");
	/* a directory name hiding a relevant name, METADATA 1 MB long */
	big = malloc(n);
	assert_non_null(big);
	memset(big, 'x', n);
	memcpy(big, "Metadata-Version: 2.1\nName: TensorRT_cu12\nVersion: 10.0.1\n\n", 60);
	snprintf(rel, sizeof(rel), "%s/odd-name-thing.dist-info/METADATA", site);
	put_bytes(rel, big, n, 0644);
	/* the same size with no header at all */
	memset(big, 'A', n);
	snprintf(rel, sizeof(rel), "%s/other-odd-thing.dist-info/METADATA", site);
	put_bytes(rel, big, n, 0644);
	free(big);
	/* Name after a blank line is body text, not a header */
	snprintf(rel, sizeof(rel), "%s/body-trick-x.dist-info/METADATA", site);
	put(rel, "Metadata-Version: 2.1\n\nName: torchvision\nVersion: 0.20.0\n");
	/* a NUL inside the headers; CRLF line ends */
	snprintf(rel, sizeof(rel), "%s/nul-name-x.dist-info/METADATA", site);
	put_bytes(rel, "Name: cupy\0-cuda12x\nVersion: 13.3.0\n", 36, 0644);
	snprintf(rel, sizeof(rel), "%s/crlf-name-x.dist-info/METADATA", site);
	put(rel, "Metadata-Version: 2.1\r\nName: jaxlib\r\nVersion: 0.4.31\r\n\r\nbody\r\n");
	/* an over-long name and version; a bad version */
	snprintf(rel, sizeof(rel), "%s/long-name-x.dist-info/METADATA", site);
	{
		char text[700];
		snprintf(text, sizeof(text), "Name: nvidia-%0200d\nVersion: 1.%0100d\n", 0, 0);
		put(rel, text);
	}
	snprintf(rel, sizeof(rel), "%s/badver-name-x.dist-info/METADATA", site);
	put(rel, "Name: keras\nVersion: <script>\n");
	/* no METADATA at all, an empty one, names that end early */
	snprintf(rel, sizeof(rel), "%s/missing-meta-x.dist-info", site);
	mkdirs(rel);
	snprintf(rel, sizeof(rel), "%s/empty-meta-x.dist-info/METADATA", site);
	put(rel, "");
	snprintf(rel, sizeof(rel), "%s/.dist-info", site);
	mkdirs(rel);
	snprintf(rel, sizeof(rel), "%s/-.dist-info", site);
	mkdirs(rel);
	snprintf(rel, sizeof(rel), "%s/torchaudio-.dist-info", site);
	mkdirs(rel);

	probe_python(f, &no_opts);
	assert_int_equal(f->npython, 1);
	e = &f->python[0];
	assert_string_equal(pkg(e, "torch"), "2.1.0");
	assert_string_equal(pkg(e, "nvidia-cuda-runtime-cu12"), "12.4.127");
	assert_string_equal(pkg(e, "tensorrt-cu12"), "10.0.1");
	assert_null(pkg(e, "cupy")); /* the NUL ends the text: no Version */
	assert_string_equal(pkg(e, "jaxlib"), "0.4.31");
	assert_null(pkg(e, "nvidia-junk-cu12"));
	assert_null(pkg(e, "torchvision"));
	assert_null(pkg(e, "torchaudio"));
	assert_null(pkg(e, "keras"));
	/* the long one is cut to fit, never overflows */
	for (i = 0; i < (size_t)e->npkgs; i++) {
		assert_true(strlen(e->pkgs[i].name) < sizeof(e->pkgs[i].name));
		assert_true(strlen(e->pkgs[i].version) < sizeof(e->pkgs[i].version));
	}
	assert_int_equal(e->npkgs, 4);
	free(f);
}

/* Many environments: the list stops at MAX_PYENVS with a note, keeping
 * the slots that --python asked for; and it stays fast. */
static void
test_cap_and_speed(void **state)
{
	static const char *const wheels[] = {
		"nvidia_cublas_cu12-12.4.5.8", "nvidia_cuda_cupti_cu12-12.4.127",
		"nvidia_cuda_nvrtc_cu12-12.4.127", "nvidia_cuda_runtime_cu12-12.4.127",
		"nvidia_cudnn_cu12-9.1.0.70", "nvidia_cufft_cu12-11.2.1.3",
		"nvidia_curand_cu12-10.3.5.147", "nvidia_cusolver_cu12-11.6.1.9",
		"nvidia_cusparse_cu12-12.3.1.170", "nvidia_nccl_cu12-2.21.5",
		"nvidia_nvjitlink_cu12-12.4.127", "nvidia_nvtx_cu12-12.4.127",
		"torch-2.5.1", "torchvision-0.20.1", "triton-3.1.0", "numpy-2.1.0",
		"sympy-1.13.1", "filelock-3.16.1", "jinja2-3.1.4", "networkx-3.4.2", NULL,
	};
	char *extra = "/srv/named";
	struct probe_opts o = {.timeout_ms = 1000, .nextra_pythons = 1};
	struct facts *f = new_facts();
	double t0, ms;
	int i, k;

	(void)state;
	o.extra_pythons[0] = extra;
	conda_env("opt/conda", "3.12.4");
	for (i = 0; i < MAX_PYENVS; i++) { /* more than fit */
		char prefix[128], site[256];
		snprintf(prefix, sizeof(prefix), "opt/conda/envs/e%02d", i);
		conda_env(prefix, "3.12.4");
		snprintf(site, sizeof(site), "%s/lib/python3.12/site-packages", prefix);
		for (k = 0; wheels[k]; k++) {
			char rel[512];
			snprintf(rel, sizeof(rel), "%s/%s.dist-info/METADATA", site, wheels[k]);
			put(rel, "Metadata-Version: 2.1\nName: x\nVersion: 1\n");
		}
		/* what else a real torch env holds: other distributions, modules */
		for (k = 0; k < 100; k++) {
			char rel[512];
			snprintf(rel, sizeof(rel), "%s/%s%03d%s", site, k < 40 ? "dist_" : "module_", k,
				 k < 40 ? "-1.0.dist-info" : "");
			mkdirs(rel);
		}
	}
	conda_env("srv/named", "3.13.0");
	setenv("CONDA_EXE", "/opt/conda/bin/conda", 1);

	t0 = now_ms();
	probe_python(f, &o);
	ms = now_ms() - t0;
	assert_int_equal(f->npython, MAX_PYENVS);
	assert_string_equal(f->python[MAX_PYENVS - 1].path, "/srv/named");
	assert_string_equal(f->python[MAX_PYENVS - 1].version, "3.13.0");
	assert_string_equal(f->python[1].path, "/opt/conda/envs/e00");
	assert_int_equal(f->python[1].npkgs, 14);
	assert_string_equal(pkg(&f->python[1], "torch"), "2.5.1");
	assert_true(f->nnotes >= 1);
	assert_non_null(strstr(f->notes[0].note, "left out"));
	fprintf(stderr,
		"# probe_python: %d environments, %d listed (14 GPU packages among 120 entries each): "
		"%.2f ms\n",
		MAX_PYENVS + 2, f->npython, ms);
	/* timing is a benchmark figure (bench/python.sh), not a test */
	free(f);
}

/* A --python that is no python environment is a note. */
static void
test_extra_not_python(void **state)
{
	char *extra[2] = {"/srv/empty", "/usr/bin/ls"};
	struct probe_opts o = {.timeout_ms = 1000, .nextra_pythons = 2};
	struct facts *f = new_facts();

	(void)state;
	o.extra_pythons[0] = extra[0];
	o.extra_pythons[1] = extra[1];
	mkdirs("srv/empty");
	put("usr/bin/ls", "ELF");
	setenv("PATH", "/nowhere", 1);
	probe_python(f, &o);
	assert_int_equal(f->npython, 0);
	assert_int_equal(f->nnotes, 2);
	free(f);
}

/* ---- Windows installs seen from WSL2 ------------------------------------------------ */

#define WUSER "mnt/c/Users/alice"
#define WPY WUSER "/AppData/Local/Programs/Python"

/* A python.org install as the per-user installer lays it out. */
static void
win_pyorg(const char *prefix, const char *dll)
{
	char rel[512];

	snprintf(rel, sizeof(rel), "%s/python.exe", prefix);
	put(rel, "MZ");
	snprintf(rel, sizeof(rel), "%s/python3.dll", prefix);
	put(rel, "MZ");
	if (dll) {
		snprintf(rel, sizeof(rel), "%s/%s", prefix, dll);
		put(rel, "MZ");
	}
	snprintf(rel, sizeof(rel), "%s/Lib/site-packages", prefix);
	mkdirs(rel);
}

/* The python.org installs, a user site, conda roots with envs (per user and
 * in ProgramData), a Store Python, all-users Program Files; system profiles
 * and odd names skipped; nothing without host.wsl. */
static void
test_windows(void **state)
{
	const struct python_env_facts *e;
	struct facts *f = new_facts();

	(void)state;
	win_pyorg(WPY "/Python311", "python311.dll");
	dist(WPY "/Python311/Lib/site-packages", "tensorflow-2.12.0", "tensorflow", "2.12.0");
	dist(WPY "/Python311/Lib/site-packages", "tensorflow_intel-2.12.0", "tensorflow-intel",
	     "2.12.0");
	dist(WPY "/Python311/Lib/site-packages", "numpy-1.24.3", "numpy", "1.24.3");
	win_pyorg(WPY "/Python39-32", NULL);
	win_pyorg(WPY "/Launcher", NULL); /* the py launcher: no version, not an env */
	/* pip install --user for Python 3.9 */
	dist(WUSER "/AppData/Roaming/Python/Python39/site-packages", "torch-1.13.1", "torch", "1.13.1");
	/* miniconda: root 3.12.2, env tf210 3.10.13 */
	put(WUSER "/miniconda3/conda-meta/python-3.12.2-h2628c8c_0_cpython.json", "{}\n");
	mkdirs(WUSER "/miniconda3/Lib/site-packages");
	put(WUSER "/miniconda3/envs/tf210/conda-meta/python-3.10.13-he1021f5_0.json", "{}\n");
	dist(WUSER "/miniconda3/envs/tf210/Lib/site-packages", "tensorflow-2.10.1", "tensorflow",
	     "2.10.1");
	/* the Store's Python 3.12: pip's packages in LocalCache */
	dist(WUSER "/AppData/Local/Packages/PythonSoftwareFoundation.Python.3.12_qbz5n2kfra8p0"
		   "/LocalCache/local-packages/Python312/site-packages",
	     "jax-0.4.30", "jax", "0.4.30");
	mkdirs(WUSER "/AppData/Local/Packages/Microsoft.WindowsCalculator_8wekyb3d8bbwe");
	/* profiles that hold no person's Python, even when they look like one */
	win_pyorg("mnt/c/Users/Public/AppData/Local/Programs/Python/Python310", "python310.dll");
	win_pyorg("mnt/c/Users/Default/AppData/Local/Programs/Python/Python310", "python310.dll");
	put("mnt/c/Users/desktop.ini", "[.ShellClassInfo]\n");
	/* all users */
	put("mnt/c/ProgramData/anaconda3/conda-meta/python-3.11.7-he1021f5_0.json", "{}\n");
	mkdirs("mnt/c/ProgramData/anaconda3/Lib/site-packages");
	win_pyorg("mnt/c/Program Files/Python313", "python313.dll");
	mkdirs("mnt/c/Program Files/NVIDIA Corporation");

	/* not WSL: /mnt/c is not looked at */
	probe_python(f, &no_opts);
	assert_int_equal(f->npython, 0);

	facts_init(f);
	f->host.valid = f->host.wsl = true;
	probe_python(f, &no_opts);
	assert_int_equal(f->npython, 7);

	e = env_at(f, "/" WPY "/Python311");
	assert_non_null(e);
	assert_string_equal(e->kind, "windows");
	assert_string_equal(e->version, "3.11");
	assert_string_equal(e->interpreter, "");
	assert_false(e->active);
	assert_string_equal(e->site_packages, "/" WPY "/Python311/Lib/site-packages");
	assert_int_equal(e->npkgs, 2);
	assert_string_equal(pkg(e, "tensorflow"), "2.12.0");
	assert_string_equal(pkg(e, "tensorflow-intel"), "2.12.0");

	e = env_at(f, "/" WPY "/Python39-32");
	assert_non_null(e);
	assert_string_equal(e->version, "3.9");
	assert_string_equal(pkg(e, "torch"), "1.13.1"); /* from the user site */
	assert_string_equal(e->site_packages, "/" WUSER "/AppData/Roaming/Python/Python39/site-packages");

	e = env_at(f, "/" WUSER "/miniconda3");
	assert_non_null(e);
	assert_string_equal(e->kind, "windows");
	assert_string_equal(e->version, "3.12.2");
	assert_string_equal(e->site_packages, "/" WUSER "/miniconda3/Lib/site-packages");
	e = env_at(f, "/" WUSER "/miniconda3/envs/tf210");
	assert_non_null(e);
	assert_string_equal(e->kind, "windows");
	assert_string_equal(e->version, "3.10.13");
	assert_string_equal(pkg(e, "tensorflow"), "2.10.1");

	e = env_at(f, "/" WUSER "/AppData/Local/Packages/PythonSoftwareFoundation.Python.3.12_qbz5n2kfra8p0");
	assert_non_null(e);
	assert_string_equal(e->version, "3.12");
	assert_string_equal(pkg(e, "jax"), "0.4.30");

	e = env_at(f, "/mnt/c/ProgramData/anaconda3");
	assert_non_null(e);
	assert_string_equal(e->version, "3.11.7");
	e = env_at(f, "/mnt/c/Program Files/Python313");
	assert_non_null(e);
	assert_string_equal(e->version, "3.13");

	assert_null(env_at(f, "/mnt/c/Users/Public/AppData/Local/Programs/Python/Python310"));
	assert_null(env_at(f, "/" WPY "/Launcher"));
	assert_int_equal(nactive(f), 0);
	free(f);
}

/* The version from python3XX.dll when the directory has another name; the
 * drive from [automount] root of /etc/wsl.conf; hostile names. */
static void
test_windows_names(void **state)
{
	struct facts *f = new_facts();
	const struct python_env_facts *e;

	(void)state;
	put("etc/wsl.conf", "[boot]\nsystemd=true\n# root = /nope/\n[automount]\nenabled = true\n"
			    "root = \"/win/\"\noptions = \"metadata\"\n");
	/* renamed dir: no version in the name, none from the dll either */
	win_pyorg("win/c/Users/bob/AppData/Local/Programs/Python/Python3", "python3.dll");
	/* Python3x with a bad suffix, a bogus major */
	win_pyorg("win/c/Users/bob/AppData/Local/Programs/Python/Python311x", "python311.dll");
	win_pyorg("win/c/Users/bob/AppData/Local/Programs/Python/Python911", "python911.dll");
	/* a good one, found through the automount root */
	win_pyorg("win/c/Users/bob/AppData/Local/Programs/Python/Python310", "python310.dll");
	dist("win/c/Users/bob/AppData/Local/Programs/Python/Python310/Lib/site-packages",
	     "tensorflow-2.10.0", "tensorflow", "2.10.0");
	/* a conda env whose conda-meta lacks python: the dll answers */
	mkdirs("win/c/Users/bob/anaconda3/conda-meta");
	put("win/c/Users/bob/anaconda3/python39.dll", "MZ");
	mkdirs("win/c/Users/bob/anaconda3/Lib/site-packages");
	/* /mnt/c is not where this machine mounts C: */
	win_pyorg("mnt/c/Users/carol/AppData/Local/Programs/Python/Python312", "python312.dll");

	f->host.valid = f->host.wsl = true;
	probe_python(f, &no_opts);
	assert_int_equal(f->npython, 2);
	e = env_at(f, "/win/c/Users/bob/AppData/Local/Programs/Python/Python310");
	assert_non_null(e);
	assert_string_equal(e->version, "3.10");
	assert_string_equal(pkg(e, "tensorflow"), "2.10.0");
	e = env_at(f, "/win/c/Users/bob/anaconda3");
	assert_non_null(e);
	assert_string_equal(e->version, "3.9");
	free(f);
}

/* Caps: at most 8 profiles and 16 envs of one conda root are looked into. */
static void
test_windows_caps(void **state)
{
	struct facts *f = new_facts();
	char rel[256];
	int i;

	(void)state;
	for (i = 0; i < 12; i++) {
		snprintf(rel, sizeof(rel), "mnt/c/Users/u%02d/AppData/Local/Programs/Python/Python311", i);
		win_pyorg(rel, NULL);
	}
	f->host.valid = f->host.wsl = true;
	probe_python(f, &no_opts);
	assert_int_equal(f->npython, 8);
	assert_non_null(env_at(f, "/mnt/c/Users/u07/AppData/Local/Programs/Python/Python311"));
	assert_null(env_at(f, "/mnt/c/Users/u08/AppData/Local/Programs/Python/Python311"));

	facts_init(f);
	put("mnt/c/ProgramData/miniconda3/conda-meta/python-3.11.0-h0.json", "{}\n");
	for (i = 0; i < 20; i++) {
		snprintf(rel, sizeof(rel), "mnt/c/ProgramData/miniconda3/envs/e%02d/conda-meta/python-3.10.1-h0.json", i);
		put(rel, "{}\n");
	}
	f->host.valid = f->host.wsl = true;
	probe_python(f, &no_opts);
	/* 8 users + the root + 16 of its envs, cut at MAX_PYENVS */
	assert_int_equal(f->npython, MAX_PYENVS);
	assert_non_null(env_at(f, "/mnt/c/ProgramData/miniconda3"));
	assert_true(f->nnotes >= 1);
	free(f);
}

/* This machine, as it is: the project's machines carry pyenv 3.11.7. */
static void
test_host(void **state)
{
	struct facts *f;
	double t0, ms;
	int i;
	bool found = false;

	(void)state;
	root_set("/");
	for (i = 0; vars[i]; i++) {
		if (saved[i])
			setenv(vars[i], saved[i], 1);
		else
			unsetenv(vars[i]);
	}
	f = new_facts();
	t0 = now_ms();
	probe_python(f, &no_opts);
	ms = now_ms() - t0;
	fprintf(stderr, "# probe_python on this machine: %d environments, %.2f ms\n", f->npython, ms);
	for (i = 0; i < f->npython; i++) {
		const struct python_env_facts *e = &f->python[i];
		fprintf(stderr, "#   %-7s %-8s %s%s (%d GPU packages)\n", e->kind, e->version, e->path,
			e->active ? " [active]" : "", e->npkgs);
		if (!strcmp(e->version, "3.11.7"))
			found = true;
	}
	assert_true(f->npython <= MAX_PYENVS);
	assert_true(nactive(f) <= 1);
	if (access("/root/.pyenv/versions/3.11.7", F_OK) != 0) {
		free(f);
		SKIP_BECAUSE("no pyenv Python 3.11.7 in /root/.pyenv to look for");
	}
	assert_true(found);
	free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_venv_on_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_conda, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pyenv, setup, teardown),
		cmocka_unit_test_setup_teardown(test_system_dist_packages, setup, teardown),
		cmocka_unit_test_setup_teardown(test_active_and_duplicates, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cap_and_speed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_extra_not_python, setup, teardown),
		cmocka_unit_test_setup_teardown(test_windows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_windows_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_windows_caps, setup, teardown),
		cmocka_unit_test(test_host),
	};
	int i;

	for (i = 0; vars[i]; i++)
		saved[i] = getenv(vars[i]) ? strdup(getenv(vars[i])) : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
