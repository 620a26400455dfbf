/*
 * rules_facts.h - hand-built machines for the rule tests (t_rules_*.c):
 * a healthy H200 server (after a real H200 machine), a laptop with
 * hybrid graphics, a CPU-only machine with a CUDA toolkit (after
 * the CPU-only machine with a CUDA 13.0 toolkit (tests/fixtures/cpu-only-toolkit)), plus small builders and
 * lookups over findings. Header-only; every function is static inline so
 * a test file uses what it needs.
 */
#ifndef GPUDOCTOR_RULES_FACTS_H
#define GPUDOCTOR_RULES_FACTS_H

#include "unit.h"

#include "base/str.h"
#include "base/vers.h"
#include "diag/finding.h"
#include "diag/rule.h"
#include "facts.h"

#include <stdlib.h>
#include <string.h>

static inline struct facts *
facts_new(void)
{
	struct facts *f = malloc(sizeof(*f));

	assert_non_null(f);
	facts_init(f);
	f->pci_valid = true; /* a probed machine whose PCI bus could be listed */
	return f;
}

static inline struct gpu_facts *
add_gpu(struct facts *f, const char *bus, unsigned device, const char *name, const char *cc)
{
	struct gpu_facts *g = &f->gpus[f->ngpus++];

	gpu_facts_init(g);
	STR_COPY(g->pci_bus_id, bus);
	g->vendor = 0x10de;
	g->device = device;
	g->class_code = 0x030000;
	STR_COPY(g->name, name);
	STR_COPY(g->compute_capability, cc);
	return g;
}

static inline struct devnode_facts *
add_devnode(struct facts *f, const char *path, bool exists, bool accessible)
{
	struct devnode_facts *d = &f->kmod.devnodes[f->kmod.ndevnodes++];

	memset(d, 0, sizeof(*d));
	STR_COPY(d->path, path);
	d->exists = exists;
	d->is_char = exists;
	d->mode = 0666;
	d->accessible = accessible;
	return d;
}

static inline struct driver_lib_facts *
add_driver_lib(struct facts *f, const char *name, const char *path, const char *version,
	       bool stub, bool pick)
{
	struct driver_lib_facts *l = &f->driver.libs[f->driver.nlibs++];

	memset(l, 0, sizeof(*l));
	STR_COPY(l->name, name);
	STR_COPY(l->path, path);
	STR_COPY(l->real_path, path);
	STR_COPY(l->version, version);
	STR_COPY(l->found_via, pick ? "ld_so_cache" : "default");
	l->is_stub = stub;
	l->loader_pick = pick;
	l->is_elf = true;
	return l;
}

static inline struct lib_facts *
add_lib(struct facts *f, const char *name, const char *path, const char *soname,
	const char *version, int origin, const char *root, bool in_cache, bool pick)
{
	struct lib_facts *l = &f->libs[f->nlibs++];

	memset(l, 0, sizeof(*l));
	STR_COPY(l->name, name);
	STR_COPY(l->path, path);
	STR_COPY(l->real_path, path);
	STR_COPY(l->soname, soname);
	STR_COPY(l->version, version);
	STR_COPY(l->version_source, "filename");
	l->origin = origin;
	STR_COPY(l->origin_root, root);
	l->in_ld_cache = in_cache;
	l->loader_pick = pick;
	return l;
}

static inline void
set_env(struct facts *f, const char *name, const char *value)
{
	struct env_var_facts *v = NULL;
	int i;

	/* set again: the new value, as in a shell */
	for (i = 0; i < f->env.nvars; i++)
		if (!strcmp(f->env.vars[i].name, name))
			v = &f->env.vars[i];
	if (!v)
		v = &f->env.vars[f->env.nvars++];

	STR_COPY(v->name, name);
	v->set = true;
	STR_COPY(v->value, value);
}

/* As `unset NAME` in a shell: the variable stays listed, not set. */
static inline void
unset_env(struct facts *f, const char *name)
{
	int i;

	for (i = 0; i < f->env.nvars; i++)
		if (!strcmp(f->env.vars[i].name, name)) {
			f->env.vars[i].set = false;
			f->env.vars[i].value[0] = '\0';
		}
}

static inline struct ldpath_dir_facts *
add_ldpath(struct facts *f, const char *dir, bool exists, const char *major)
{
	struct ldpath_dir_facts *d = &f->env.ldpath[f->env.nldpath++];

	STR_COPY(d->dir, dir);
	d->exists = exists;
	STR_COPY(d->cuda_major, major);
	return d;
}

static inline struct proc_facts *
add_proc(struct facts *f, unsigned pid, const char *bus, uint64_t mib, const char *name,
	 bool alive, char state)
{
	struct proc_facts *p = &f->procs[f->nprocs++];

	memset(p, 0, sizeof(*p));
	p->pid = pid;
	STR_COPY(p->gpu_bus_id, bus);
	p->used_mib = mib;
	STR_COPY(p->name, name);
	p->alive = alive;
	p->state = state;
	STR_COPY(p->type, "compute");
	return p;
}

static inline struct python_env_facts *
add_pyenv(struct facts *f, const char *prefix, const char *kind, const char *version)
{
	struct python_env_facts *e = &f->python[f->npython++];
	char mm[16];

	memset(e, 0, sizeof(*e));
	STR_COPY(e->path, prefix);
	STR_FMT(e->interpreter, "%s/bin/python3", prefix);
	STR_COPY(e->kind, kind);
	STR_COPY(e->version, version);
	vers_truncate(version, 2, mm, sizeof(mm));
	STR_FMT(e->site_packages, "%s/lib/python%s/site-packages", prefix, mm);
	return e;
}

static inline struct pypkg_facts *
add_pkg(struct python_env_facts *e, const char *name, const char *version)
{
	struct pypkg_facts *p = &e->pkgs[e->npkgs++];

	STR_COPY(p->name, name);
	STR_COPY(p->version, version);
	return p;
}

/* A framework; cuda/cudnn "" unknown, cuda_build -1/0/1. */
static inline struct framework_facts *
add_fw(struct python_env_facts *e, const char *name, const char *package, const char *version,
       const char *cuda, const char *cudnn, int cuda_build)
{
	struct framework_facts *fw = &e->frameworks[e->nframeworks++];
	const char *plus = strchr(version, '+');

	memset(fw, 0, sizeof(*fw));
	STR_COPY(fw->name, name);
	STR_COPY(fw->package, package);
	STR_COPY(fw->version, version);
	if (plus)
		STR_COPY(fw->local_tag, plus + 1);
	STR_COPY(fw->built_cuda, cuda);
	STR_COPY(fw->built_cudnn, cudnn);
	fw->cuda_build = cuda_build;
	return fw;
}

/* A library the framework needs; path "" = not found. */
static inline struct resolved_lib_facts *
add_resolved(struct framework_facts *fw, const char *soname, const char *path, const char *version,
	     const char *via, bool needed)
{
	struct resolved_lib_facts *r = &fw->resolved[fw->nresolved++];

	memset(r, 0, sizeof(*r));
	STR_COPY(r->soname, soname);
	STR_COPY(r->path, path);
	STR_COPY(r->version, version);
	STR_COPY(r->via, path[0] ? via : "");
	r->needed = needed;
	return r;
}

static inline void
host_ubuntu(struct facts *f, unsigned uid)
{
	struct host_facts *h = &f->host;

	h->valid = true;
	STR_COPY(h->os_id, "ubuntu");
	STR_COPY(h->os_like, "debian");
	STR_COPY(h->os_version_id, "24.04");
	STR_COPY(h->os_pretty, "Ubuntu 24.04.3 LTS");
	STR_COPY(h->pkg_manager, "apt");
	STR_COPY(h->kernel_release, "6.8.0-51-generic");
	STR_COPY(h->arch, "x86_64");
	h->cpu_valid = true;
	STR_COPY(h->cpu_model, "AMD EPYC 9554 64-Core Processor");
	h->cpu_count = 16;
	h->cpu_avx = h->cpu_avx2 = h->cpu_avx512f = h->cpu_fma = true;
	h->uid = uid;
}

#define H200_VENV "/opt/torch/.venv"
#define H200_SITE H200_VENV "/lib/python3.12/site-packages"

/* The H200's venv (docs/gpu-h200.md): torch 2.11.0+cu130 resolving its
 * CUDA libraries by RPATH to the pip wheels (cuDNN 9.19.0.56, not the
 * system's 9.14), jax 0.11.2 with the cuda13 plugin and pjrt, cupy-cuda13x. */
static inline void
h200_venv(struct facts *f)
{
	struct python_env_facts *e = add_pyenv(f, H200_VENV, "venv", "3.12.3");
	struct framework_facts *fw;

	e->active = true;
	add_pkg(e, "torch", "2.11.0+cu130");
	add_pkg(e, "nvidia-cuda-runtime", "13.0.96");
	add_pkg(e, "nvidia-cublas", "13.1.0.3");
	add_pkg(e, "nvidia-cudnn-cu13", "9.19.0.56");
	add_pkg(e, "nvidia-nccl-cu13", "2.28.9");
	add_pkg(e, "nvidia-cusparselt-cu13", "0.8.0");
	add_pkg(e, "jax", "0.11.2");
	add_pkg(e, "jaxlib", "0.11.2");
	add_pkg(e, "jax-cuda13-plugin", "0.11.2");
	add_pkg(e, "jax-cuda13-pjrt", "0.11.2");
	add_pkg(e, "cupy-cuda13x", "14.2.0");

	fw = add_fw(e, "torch", "torch", "2.11.0+cu130", "13.0", "", 1);
	STR_COPY(fw->extension, H200_SITE "/torch/lib/libtorch_cuda.so");
	add_resolved(fw, "libcudart.so.13", H200_SITE "/nvidia/cu13/lib/libcudart.so.13", "13.0.96", "rpath", true);
	add_resolved(fw, "libcusparse.so.12", H200_SITE "/nvidia/cu13/lib/libcusparse.so.12", "12.6.3.3", "rpath",
		     true);
	add_resolved(fw, "libcufft.so.12", H200_SITE "/nvidia/cu13/lib/libcufft.so.12", "12.0.0.61", "rpath", true);
	add_resolved(fw, "libcufile.so.0", H200_SITE "/nvidia/cu13/lib/libcufile.so.0", "0", "rpath", true);
	add_resolved(fw, "libcusparseLt.so.0", H200_SITE "/nvidia/cusparselt/lib/libcusparseLt.so.0", "0.8.0",
		     "rpath", true);
	add_resolved(fw, "libnccl.so.2", H200_SITE "/nvidia/nccl/lib/libnccl.so.2", "2.28.9", "rpath", true);
	add_resolved(fw, "libcurand.so.10", H200_SITE "/nvidia/cu13/lib/libcurand.so.10", "10.4.0.35", "rpath", true);
	add_resolved(fw, "libcublas.so.13", H200_SITE "/nvidia/cu13/lib/libcublas.so.13", "13.1.0.3", "rpath", true);
	add_resolved(fw, "libcublasLt.so.13", H200_SITE "/nvidia/cu13/lib/libcublasLt.so.13", "13.1.0.3", "rpath",
		     true);
	add_resolved(fw, "libcudnn.so.9", H200_SITE "/nvidia/cudnn/lib/libcudnn.so.9", "9.19.0.56", "rpath", true);

	fw = add_fw(e, "jax", "jaxlib", "0.11.2", "13", "", 1);
	STR_COPY(fw->plugin, "jax-cuda13-plugin 0.11.2, jax-cuda13-pjrt 0.11.2");
	STR_COPY(fw->extension, H200_SITE "/jax_plugins/xla_cuda13/xla_cuda_plugin.so");
	/* no nvidia-cuda-nvcc wheel there: XLA finds the 13.0 toolkit */
	STR_COPY(fw->libdevice, "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
	STR_COPY(fw->ptxas, "/usr/local/cuda/bin/ptxas");
	STR_COPY(fw->ptxas_version, "13.0");

	fw = add_fw(e, "cupy", "cupy-cuda13x", "14.2.0", "13", "", 1);
	STR_COPY(fw->extension, H200_SITE "/cupy_backends/cuda/api/runtime.cpython-312-x86_64-linux-gnu.so");
}

/*
 * The H200 of a real H200 machine: Ubuntu 24.04 container, driver
 * 580.159.04 (open module), CUDA 13.0, one GPU at 0000:00:06.0, toolkit
 * 13.0 in /usr/local/cuda-13.0, system cuDNN 9.14 and pip cuDNN 9.19.
 */
static inline struct facts *
healthy_h200(void)
{
	struct facts *f = facts_new();
	struct gpu_facts *g;

	host_ubuntu(f, 0);
	f->host.container = true;
	STR_COPY(f->host.container_kind, "docker");
	STR_COPY(f->host.kernel_release, "6.18.44-fc-v657-gpu");

	g = add_gpu(f, "0000:00:06.0", 0x2335, "NVIDIA H200", "9.0");
	g->class_code = 0x030200;
	g->subsys_vendor = 0x10de;
	g->subsys_device = 0x18bf;
	STR_COPY(g->kernel_driver, "nvidia");
	STR_COPY(g->link_speed_cur, "32.0 GT/s PCIe");
	STR_COPY(g->link_speed_max, "32.0 GT/s PCIe");
	g->link_width_cur = g->link_width_max = 16;
	g->kb_known = true;
	STR_COPY(g->architecture, "Hopper");
	g->cuda_valid = true;
	g->cuda_index = 0;
	STR_COPY(g->uuid, "GPU-0488de22-0688-4512-984a-a9517a925ed0");
	g->memory_total_mib = 143771;
	g->nvml_valid = true;
	g->memory_used_mib = 0;
	g->memory_free_mib = 143771;
	g->temperature_c = 32;
	g->power_mw = 106000;
	g->power_limit_mw = 700000;
	g->persistence_mode = 1;
	g->compute_mode = 0;
	g->mig_mode = 0;
	g->utilization_gpu = 0;
	g->ecc_mode = 1;

	f->kmod.modules_readable = true;
	f->kmod.nvidia = f->kmod.nvidia_uvm = true;
	STR_COPY(f->kmod.nvidia_version, "580.159.04");
	STR_COPY(f->kmod.flavour, "open");
	add_devnode(f, "/dev/nvidia0", true, true);
	add_devnode(f, "/dev/nvidiactl", true, true);
	add_devnode(f, "/dev/nvidia-uvm", true, true);
	add_devnode(f, "/dev/nvidia-uvm-tools", true, true);

	add_driver_lib(f, "libcuda", "/usr/local/nvidia/lib64/libcuda.so.1", "580.159.04", false, true);
	add_driver_lib(f, "libnvidia-ml", "/usr/local/nvidia/lib64/libnvidia-ml.so.1", "580.159.04",
		       false, true);
	add_driver_lib(f, "libcuda", "/usr/local/cuda-13.0/targets/x86_64-linux/lib/stubs/libcuda.so",
		       "", true, false);
	STR_COPY(f->driver.version, "580.159.04");
	STR_COPY(f->driver.version_source, "nvml");
	STR_COPY(f->driver.cuda_version, "13.0");
	f->driver.cuda_state = CHILD_OK;
	STR_COPY(f->driver.cuda_loaded_path, "/usr/local/nvidia/lib64/libcuda.so.1");
	f->driver.cuda_driver_version = 13000;
	f->driver.cuinit_called = true;
	f->driver.cuinit_rc = 0;
	STR_COPY(f->driver.cuinit_name, "CUDA_SUCCESS");
	f->driver.cuda_device_count = 1;
	f->driver.nvml_state = CHILD_OK;
	f->driver.nvml_init_rc = 0;
	STR_COPY(f->driver.nvml_driver_version, "580.159.04");
	f->driver.nvml_cuda_version = 13000;
	f->driver.nvml_device_count = 1;

	add_lib(f, "cudart", "/usr/local/cuda-13.0/lib64/libcudart.so.13", "libcudart.so.13", "13.0.96",
		ORIGIN_TOOLKIT, "/usr/local/cuda-13.0", true, true);
	add_lib(f, "cublas", "/usr/local/cuda-13.0/lib64/libcublas.so.13", "libcublas.so.13", "13.1.0.3",
		ORIGIN_TOOLKIT, "/usr/local/cuda-13.0", true, true);
	add_lib(f, "cufft", "/usr/local/cuda-13.0/lib64/libcufft.so.12", "libcufft.so.12", "12.0.0.61",
		ORIGIN_TOOLKIT, "/usr/local/cuda-13.0", true, true);
	add_lib(f, "cupti", "/usr/local/cuda-13.0/lib64/libcupti.so.13", "libcupti.so.13", "2025.3.1",
		ORIGIN_TOOLKIT, "/usr/local/cuda-13.0", true, true);
	add_lib(f, "cudnn", "/lib/x86_64-linux-gnu/libcudnn.so.9", "libcudnn.so.9", "9.14.0",
		ORIGIN_SYSTEM, "/lib/x86_64-linux-gnu", true, true);
	add_lib(f, "cudnn",
		"/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9",
		"libcudnn.so.9", "9.19.0", ORIGIN_PIP,
		"/opt/torch/.venv/lib/python3.12/site-packages", false, false);
	add_lib(f, "cudart",
		"/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cu13/lib/libcudart.so.13",
		"libcudart.so.13", "13.0.96", ORIGIN_PIP,
		"/opt/torch/.venv/lib/python3.12/site-packages", false, false);

	set_env(f, "NVIDIA_VISIBLE_DEVICES", "0");
	h200_venv(f);
	return f;
}

/* A Fedora laptop: Intel iGPU + GeForce RTX 3060 Laptop GPU, user uid 1000. */
static inline struct facts *
laptop(void)
{
	struct facts *f = facts_new();
	struct gpu_facts *g;
	struct other_gpu_facts *o;

	host_ubuntu(f, 1000);
	STR_COPY(f->host.os_id, "fedora");
	f->host.os_like[0] = '\0';
	STR_COPY(f->host.os_version_id, "41");
	STR_COPY(f->host.pkg_manager, "dnf");
	STR_COPY(f->host.kernel_release, "6.12.5-200.fc41.x86_64");
	STR_COPY(f->host.cpu_model, "12th Gen Intel(R) Core(TM) i7-12700H");
	f->host.secure_boot = 0;

	g = add_gpu(f, "0000:01:00.0", 0x2520, "NVIDIA GeForce RTX 3060 Laptop GPU", "8.6");
	STR_COPY(g->kernel_driver, "nvidia");
	o = &f->other_gpus[f->nother_gpus++];
	STR_COPY(o->pci_bus_id, "0000:00:02.0");
	o->vendor = 0x8086;
	o->device = 0x46a6;
	o->class_code = 0x030000;
	STR_COPY(o->kernel_driver, "i915");
	o->boot_vga = true;

	f->kmod.modules_readable = true;
	f->kmod.nvidia = f->kmod.nvidia_uvm = true;
	STR_COPY(f->kmod.nvidia_version, "565.77");
	add_devnode(f, "/dev/nvidia0", true, true);
	add_devnode(f, "/dev/nvidiactl", true, true);
	add_devnode(f, "/dev/nvidia-uvm", true, true);
	add_driver_lib(f, "libcuda", "/usr/lib64/libcuda.so.1", "565.77", false, true);
	STR_COPY(f->driver.version, "565.77");
	STR_COPY(f->driver.cuda_version, "12.7");
	f->driver.cuda_state = CHILD_OK;
	f->driver.cuinit_called = true;
	f->driver.cuda_device_count = 1;
	f->driver.nvml_state = CHILD_OK;
	STR_COPY(f->driver.nvml_driver_version, "565.77");
	f->driver.nvml_device_count = 1;
	return f;
}

/* the CPU-only machine with a CUDA 13.0 toolkit (tests/fixtures/cpu-only-toolkit): Debian 12, CUDA 13.0 + cuDNN 9
 * in /usr/local/cuda-13.0, no driver, no GPU. */
static inline struct facts *
cpu_only_toolkit(void)
{
	struct facts *f = facts_new();

	host_ubuntu(f, 1000);
	STR_COPY(f->host.os_id, "debian");
	f->host.os_like[0] = '\0';
	STR_COPY(f->host.os_version_id, "12");
	STR_COPY(f->host.kernel_release, "6.1.0-28-amd64");
	f->kmod.modules_readable = true;
	add_driver_lib(f, "libcuda", "/usr/local/cuda-13.0/lib64/stubs/libcuda.so", "", true, false);
	add_lib(f, "cudart", "/usr/local/cuda-13.0/lib/libcudart.so.13", "libcudart.so.13", "13.0.96",
		ORIGIN_TOOLKIT, "/usr/local/cuda-13.0", true, true);
	add_lib(f, "cublas", "/usr/local/cuda-13.0/lib/libcublas.so.13", "libcublas.so.13", "13.1.0.3",
		ORIGIN_TOOLKIT, "/usr/local/cuda-13.0", true, true);
	add_lib(f, "cudnn", "/usr/local/cuda-13.0/lib/libcudnn.so.9", "libcudnn.so.9", "9.19.0",
		ORIGIN_TOOLKIT, "/usr/local/cuda-13.0", true, true);
	f->driver.cuda_state = CHILD_LOAD_FAILED;
	STR_COPY(f->driver.cuda_error, "libcuda.so.1: cannot open shared object file: No such file or directory");
	f->driver.nvml_state = CHILD_LOAD_FAILED;
	return f;
}

/* ---- lookups over findings ---------------------------------------------------------- */

static inline const struct finding *
find_id(const struct findings *fs, const char *id)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i].id, id))
			return &fs->v[i];
	return NULL;
}

/* The first finding with this id about environment env. */
static inline const struct finding *
find_id_env(const struct findings *fs, const char *id, const char *env)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i].id, id) && fs->v[i].env && !strcmp(fs->v[i].env, env))
			return &fs->v[i];
	return NULL;
}

static inline size_t
count_id(const struct findings *fs, const char *id)
{
	size_t i, n = 0;

	for (i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i].id, id))
			n++;
	return n;
}

static inline size_t
count_at_least(const struct findings *fs, enum severity sev)
{
	size_t i, n = 0;

	for (i = 0; i < fs->n; i++)
		if (fs->v[i].severity >= sev)
			n++;
	return n;
}

/* Some evidence line contains needle. */
static inline bool
evidence_has(const struct finding *fd, const char *needle)
{
	int i;

	for (i = 0; i < fd->nevidence; i++)
		if (strstr(fd->evidence[i], needle))
			return true;
	return false;
}

static inline bool
fix_has(const struct finding *fd, const char *needle)
{
	return fd->fix && strstr(fd->fix, needle);
}

/* Title: one line, no full stop at the end. */
static inline void
assert_title_ok(const struct finding *fd)
{
	size_t n = strlen(fd->title);

	assert_true(n > 0);
	assert_null(strchr(fd->title, '\n'));
	assert_true(fd->title[n - 1] != '.');
}

/* Run one rule on f into a fresh list (released by the caller). */
static inline void
run_rule(void (*rule)(const struct facts *, struct findings *), const struct facts *f,
	 struct findings *fs)
{
	size_t i;

	findings_init(fs);
	rule(f, fs);
	for (i = 0; i < fs->n; i++)
		assert_title_ok(&fs->v[i]);
}

/* Dump findings when a test fails (cmocka prints stdout). */
static inline void
dump(const struct findings *fs)
{
	size_t i;
	int j;

	for (i = 0; i < fs->n; i++) {
		print_message("%s %s: %s\n", severity_name(fs->v[i].severity), fs->v[i].id,
			      fs->v[i].title);
		for (j = 0; j < fs->v[i].nevidence; j++)
			print_message("    - %s\n", fs->v[i].evidence[j]);
		if (fs->v[i].fix)
			print_message("    fix: %s\n", fs->v[i].fix);
	}
}

#endif
