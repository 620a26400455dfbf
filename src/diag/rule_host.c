/*
 * rule_host.c - findings about the host: a CPU without AVX, WSL2 without
 * (or with the wrong) driver, TensorFlow >= 2.11 in a Windows Python seen
 * from WSL2 (no GPU there), a container started without GPU access,
 * Secure Boot refusing the unsigned nvidia module, a platform no CUDA
 * build exists for.
 *
 * Pure: reads facts only. Unknown facts (host.valid false, secure_boot -1,
 * an empty arch) never lead to a finding.
 */
#include "diag/fix.h"
#include "diag/rule.h"
#include "base/buf.h"
#include "base/str.h"
#include "base/vers.h"

#include <string.h>

static bool
is_x86(const char *arch)
{
	return !strcmp(arch, "x86_64") || !strcmp(arch, "amd64") || !strcmp(arch, "i686") ||
	       !strcmp(arch, "i386") || !strcmp(arch, "i586");
}

static bool
probe_noted(const struct facts *f, const char *probe)
{
	int i;

	for (i = 0; i < f->nnotes && i < MAX_PROBE_NOTES; i++)
		if (!strcmp(f->notes[i].probe, probe))
			return true;
	return false;
}

static const struct driver_lib_facts *
first_lib(const struct facts *f, const char *name, bool want_stub)
{
	int i;

	for (i = 0; i < f->driver.nlibs && i < MAX_DRIVER_LIBS; i++) {
		const struct driver_lib_facts *l = &f->driver.libs[i];
		if (!strcmp(l->name, name) && l->is_stub == want_stub)
			return l;
	}
	return NULL;
}

static bool
under_wsl_dir(const char *path)
{
	return str_starts(path, "/usr/lib/wsl/");
}

/* A non-stub libcuda or NVML that is not the Windows driver's. */
static const struct driver_lib_facts *
linux_driver_lib(const struct facts *f)
{
	int i;

	for (i = 0; i < f->driver.nlibs && i < MAX_DRIVER_LIBS; i++) {
		const struct driver_lib_facts *l = &f->driver.libs[i];
		const char *real = l->real_path[0] ? l->real_path : l->path;
		if (l->is_stub || !l->path[0])
			continue;
		if (strcmp(l->name, "libcuda") && strcmp(l->name, "libnvidia-ml"))
			continue;
		if (!under_wsl_dir(l->path) && !under_wsl_dir(real))
			return l;
	}
	return NULL;
}

/* ---- host.no_avx ------------------------------------------------------------ */

static void
check_avx(const struct facts *f, struct findings *out)
{
	const struct host_facts *h = &f->host;
	struct finding *fd;
	struct buf b;

	if (!h->cpu_valid || !is_x86(h->arch))
		return;
	if (!h->cpu_avx) {
		fd = findings_add(out, "host.no_avx", SEV_ERROR,
				  "The CPU %s has no AVX: prebuilt TensorFlow stops with \"Illegal instruction\"",
				  h->cpu_model[0] ? h->cpu_model : "of this machine");
		finding_evidence(fd, "/proc/cpuinfo flags lack avx");
		buf_init(&b);
		buf_adds(&b, "Official TensorFlow wheels (since 1.6) are compiled for AVX. Use a build "
			     "without AVX (build TensorFlow from source, or a community/conda build), "
			     "or PyTorch, whose wheels do not require AVX.\n");
		if (h->hypervisor[0]) {
			finding_evidence(fd, "running in a virtual machine (hypervisor: %s)", h->hypervisor);
			buf_adds(&b, "This is a virtual machine: the host CPU probably has AVX and the VM's "
				     "CPU model hides it. Pass the host CPU through (libvirt "
				     "<cpu mode='host-passthrough'/>, QEMU -cpu host, Proxmox CPU type "
				     "\"host\") and restart the VM.\n");
		} else {
			buf_adds(&b, "If the CPU should have AVX, check that it is not disabled in the "
				     "firmware settings.\n");
		}
		finding_fix(fd, b.s);
		buf_release(&b);
		return;
	}
	if (!h->cpu_avx2) {
		fd = findings_add(out, "host.no_avx", SEV_INFO,
				  "The CPU %s has AVX but no AVX2: builds compiled for AVX2 will not run",
				  h->cpu_model[0] ? h->cpu_model : "of this machine");
		finding_evidence(fd, "/proc/cpuinfo flags have avx but lack avx2");
		finding_fix(fd, "Official TensorFlow and PyTorch wheels only need AVX. A build that was "
				"compiled with -mavx2 (some conda or custom builds) stops with \"Illegal "
				"instruction\" here; use the official wheels.");
	}
}

/* ---- WSL2 ------------------------------------------------------------------- */

static void
check_wsl_driver_missing(const struct facts *f, struct findings *out)
{
	const struct host_facts *h = &f->host;
	struct finding *fd;

	if (!h->valid || !h->wsl || h->wsl_libcuda)
		return;
	fd = findings_add(out, "host.wsl_driver_missing", SEV_ERROR,
			  "WSL has no CUDA driver from Windows (/usr/lib/wsl/lib/libcuda.so.1 is missing)");
	finding_evidence(fd, "/dev/dxg %s", h->wsl_dxg ? "present" : "absent");
	finding_evidence(fd, "/usr/lib/wsl/lib %s%s", h->wsl_lib_dir ? "present" : "absent",
			 h->wsl_lib_dir ? " but holds no libcuda.so.1" : "");
	if (!h->wsl_dxg)
		finding_fix(fd, "There is no GPU paravirtualisation (/dev/dxg): this is WSL 1, or Windows "
				"does not expose the GPU to WSL.\n"
				"In Windows PowerShell: wsl --update; wsl --set-version <distro> 2; "
				"wsl --shutdown\n"
				"Install or update the NVIDIA Windows driver (a current Game Ready or Studio "
				"driver includes WSL support). Do not install a Linux NVIDIA driver inside WSL.");
	else
		finding_fix(fd, "Install or update the NVIDIA driver on Windows (a current Game Ready or "
				"Studio driver includes the WSL libraries), then run wsl --shutdown in "
				"Windows PowerShell and reopen WSL.\n"
				"Do not install a Linux NVIDIA driver inside WSL: only the CUDA toolkit "
				"(cuda-toolkit-XX-Y from NVIDIA's wsl-ubuntu repository, never the \"cuda\" "
				"or \"cuda-drivers\" packages).");
}

static void
wsl_remove_cmds(struct buf *b, const struct facts *f)
{
	const char *sudo = fix_sudo(f);
	const char *pm = fix_pkg_manager(f);

	if (!strcmp(pm, "dnf"))
		buf_addf(b, "%sdnf remove -y '*nvidia*' 'cuda-drivers*'\n", sudo);
	else if (!strcmp(pm, "zypper"))
		buf_addf(b, "%szypper remove -y 'nvidia-*'\n", sudo);
	else if (!strcmp(pm, "pacman"))
		buf_addf(b, "%spacman -Rns nvidia-utils\n", sudo);
	else
		buf_addf(b, "%sapt-get remove --purge -y '^nvidia-.*' '^libnvidia-.*' "
			    "'^cuda-drivers.*'\n",
			 sudo);
}

static void
check_wsl_linux_driver(const struct facts *f, struct findings *out)
{
	const struct host_facts *h = &f->host;
	const struct driver_lib_facts *l;
	struct finding *fd;
	struct buf b;

	if (!h->valid || !h->wsl)
		return;
	l = linux_driver_lib(f);
	if (!l && !f->kmod.nvidia && !f->kmod.nvidia_module_installed)
		return;
	fd = findings_add(out, "host.wsl_linux_driver_installed", SEV_ERROR,
			  "A Linux NVIDIA driver is installed inside WSL and shadows the Windows driver");
	if (l)
		finding_evidence(fd, "%s%s%s %s (not under /usr/lib/wsl/lib)%s", l->name,
				 l->version[0] ? " " : "", l->version, l->path,
				 l->loader_pick ? ", and the loader picks it" : "");
	if (f->kmod.nvidia)
		finding_evidence(fd, "/proc/modules lists nvidia");
	if (f->kmod.nvidia_module_installed)
		finding_evidence(fd, "kernel module installed: %s",
				 f->kmod.nvidia_module_path[0] ? f->kmod.nvidia_module_path : "nvidia.ko");
	if (h->wsl_libcuda)
		finding_evidence(fd, "the Windows driver's /usr/lib/wsl/lib/libcuda.so.1 is present");
	buf_init(&b);
	buf_adds(&b, "WSL gets its driver from Windows (/usr/lib/wsl/lib). Remove the Linux driver "
		     "packages inside WSL:\n");
	wsl_remove_cmds(&b, f);
	if (l) {
		buf_adds(&b, "If the library was copied by hand rather than installed by a package, "
			     "delete it:\n");
		buf_adds(&b, fix_sudo(f));
		buf_adds(&b, "rm ");
		buf_add_shquoted(&b, l->path);
		buf_addch(&b, '\n');
	}
	buf_addf(&b, "%sldconfig\n", fix_sudo(f));
	buf_adds(&b, "Then run wsl --shutdown in Windows PowerShell and reopen WSL.");
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* ---- host.windows_native_tf_gpu ------------------------------------------------ */

/* The TensorFlow distribution of a Windows environment that is 2.11 or
 * newer (TensorFlow's Windows GPU builds end with 2.10); NULL when none. */
static const struct pypkg_facts *
windows_tf(const struct python_env_facts *e)
{
	static const char *const dists[] = {"tensorflow", "tensorflow-intel", "tensorflow-gpu", NULL};
	int i, k;

	for (i = 0; dists[i]; i++)
		for (k = 0; k < e->npkgs && k < MAX_PYPKGS; k++) {
			const struct pypkg_facts *p = &e->pkgs[k];
			if (!strcmp(p->name, dists[i]) && p->version[0] && vers_cmp(p->version, "2.11") >= 0)
				return p;
		}
	return NULL;
}

void
rule_windows_tf_env(const struct facts *f, const struct python_env_facts *e, struct findings *out)
{
	const struct pypkg_facts *tf;
	struct finding *fd;
	struct buf b;
	char py[48];
	bool old_py;

	(void)f;
	if (strcmp(e->kind, "windows") || !(tf = windows_tf(e)))
		return;
	/* TensorFlow 2.10, the last with Windows GPU builds: Python 3.7-3.10 */
	old_py = !e->version[0] || vers_cmp(e->version, "3.10") <= 0;
	fd = findings_add(out, "host.windows_native_tf_gpu", SEV_WARN,
			  "%s %s in a Windows Python cannot use the GPU: TensorFlow has no "
			  "native Windows GPU support after 2.10",
			  tf->name, tf->version);
	finding_env(fd, e->path);
	finding_evidence(fd, "%s %s in %s", tf->name, tf->version,
			 e->site_packages[0] ? e->site_packages : e->path);
	/* an environment found on this machine is one seen from WSL2; one a
	 * log states has no place here */
	if (e->site_packages[0])
		finding_evidence(fd, "a native Windows Python%s%s, seen from WSL2 at %s",
				 e->version[0] ? " " : "", e->version, e->path);
	else
		finding_evidence(fd, "a native Windows Python%s%s", e->version[0] ? " " : "", e->version);
	buf_init(&b);
	buf_adds(&b, "TensorFlow 2.11 and later run on the CPU only on native Windows. Either "
		     "run TensorFlow inside WSL2, in a Linux virtual environment (the pip "
		     "wheels bring CUDA and cuDNN; the Windows driver serves WSL2):\n");
	buf_adds(&b, "python3 -m venv ~/.venvs/tf\n");
	buf_adds(&b, ". ~/.venvs/tf/bin/activate\n");
	buf_adds(&b, "pip install \"tensorflow[and-cuda]\"\n");
	if (old_py)
		py[0] = '\0';
	else
		STR_FMT(py, " (this environment has Python %s)", e->version);
	buf_addf(&b, "Or, on Windows, use TensorFlow 2.10 with CUDA 11.2 and cuDNN 8.1 and "
		     "Python 3.10 or older%s, in a conda environment (in the Anaconda Prompt):\n",
		 py);
	buf_adds(&b, "conda create -n tf210 python=3.10 -y\n");
	buf_adds(&b, "conda activate tf210\n");
	buf_adds(&b, "conda install -c conda-forge cudatoolkit=11.2 cudnn=8.1.0 -y\n");
	buf_adds(&b, "pip install \"tensorflow<2.11\"\n");
	buf_adds(&b, "The steps for this machine: gpudoctor plan tensorflow --os wsl2 (or "
		     "--os windows).");
	finding_fix(fd, b.s);
	buf_release(&b);
}

static void
check_windows_tf(const struct facts *f, struct findings *out)
{
	int i;

	for (i = 0; i < f->npython && i < MAX_PYENVS; i++)
		rule_windows_tf_env(f, &f->python[i], out);
}

/* ---- host.container_no_gpu --------------------------------------------------- */

static bool
any_devnode_exists(const struct facts *f)
{
	int i;

	for (i = 0; i < f->kmod.ndevnodes && i < MAX_DEVNODES; i++)
		if (f->kmod.devnodes[i].exists)
			return true;
	return false;
}

static void
check_container(const struct facts *f, struct findings *out)
{
	const struct host_facts *h = &f->host;
	const char *nvd = facts_env_value(f, "NVIDIA_VISIBLE_DEVICES");
	const struct driver_lib_facts *stub;
	struct finding *fd;
	bool pci_unknown = !f->pci_valid;

	if (!h->valid || !h->container || h->wsl)
		return;
	/* a host without NVIDIA GPU is hw.no_nvidia_gpu, not a container problem */
	if (f->ngpus == 0 && !pci_unknown)
		return;
	if (probe_noted(f, "devnodes") || any_devnode_exists(f) || first_lib(f, "libcuda", false))
		return;
	if (f->driver.cuda_state == CHILD_OK)
		return;
	fd = findings_add(out, "host.container_no_gpu", SEV_ERROR,
			  "This %s container was started without access to the GPU",
			  h->container_kind[0] ? h->container_kind : "");
	if (f->ngpus > 0)
		finding_evidence(fd, "sysfs shows %d NVIDIA GPU(s), e.g. %s", f->ngpus,
				 f->gpus[0].pci_bus_id);
	finding_evidence(fd, "no /dev/nvidia* device node exists in the container");
	stub = first_lib(f, "libcuda", true);
	if (stub)
		finding_evidence(fd, "no driver libcuda.so.1 is mounted; only the stub %s", stub->path);
	else
		finding_evidence(fd, "no driver libcuda.so.1 is mounted");
	if (nvd)
		finding_evidence(fd, "NVIDIA_VISIBLE_DEVICES=%s", nvd);
	if (!strcmp(h->container_kind, "kubernetes"))
		finding_fix(fd, "Request the GPU in the pod spec: resources: limits: nvidia.com/gpu: 1 "
				"(the NVIDIA device plugin or GPU Operator must run on the node).");
	else if (!strcmp(h->container_kind, "podman"))
		finding_fix(fd, "Start the container with the GPU through CDI: podman run --device "
				"nvidia.com/gpu=all ...\n"
				"On the host, once: sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml "
				"(from nvidia-container-toolkit).");
	else
		finding_fix(fd, "Start the container with the GPU: docker run --gpus all ... (compose: "
				"deploy.resources.reservations.devices with capabilities: [gpu]).\n"
				"On the host, install nvidia-container-toolkit, then: sudo nvidia-ctk runtime "
				"configure --runtime=docker && sudo systemctl restart docker");
}

/* ---- host.secure_boot_blocks_driver ------------------------------------------ */

static void
check_secure_boot(const struct facts *f, struct findings *out)
{
	const struct kmod_facts *k = &f->kmod;
	const struct driver_lib_facts *l = first_lib(f, "libcuda", false);
	const char *pm = fix_pkg_manager(f);
	const char *sudo = fix_sudo(f);
	struct finding *fd;
	struct buf b;
	int i;

	if (f->host.secure_boot != 1 || f->host.wsl || f->ngpus == 0)
		return;
	if (!kmod_list_whole(f) || k->nvidia || k->nouveau)
		return;
	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++)
		if (!strcmp(f->gpus[i].kernel_driver, "nouveau"))
			return;
	if (!k->nvidia_module_installed && !l)
		return;
	fd = findings_add(out, "host.secure_boot_blocks_driver", SEV_ERROR,
			  "Secure Boot is on and the nvidia kernel module is not loaded");
	finding_evidence(fd, "Secure Boot enabled (SecureBoot EFI variable is 1)");
	finding_evidence(fd, "/proc/modules does not list nvidia");
	if (k->nvidia_module_installed)
		finding_evidence(fd, "the module is installed: %s",
				 k->nvidia_module_path[0] ? k->nvidia_module_path : "nvidia.ko");
	if (l)
		finding_evidence(fd, "the user-space driver is installed: %s%s%s", l->path,
				 l->version[0] ? " " : "", l->version);
	buf_init(&b);
	buf_adds(&b, "The kernel refuses a module not signed with an enrolled key. Enroll the key "
		     "the module was signed with, then reboot and choose \"Enroll MOK\" in the blue "
		     "MOK manager screen (it asks for the password you set now):\n");
	if (!strcmp(pm, "dnf"))
		buf_addf(&b, "%smokutil --import /etc/pki/akmods/certs/public_key.der\n", sudo);
	else if (!strcmp(f->host.os_id, "ubuntu") || strstr(f->host.os_like, "ubuntu"))
		buf_addf(&b, "%supdate-secureboot-policy --enroll-key\n", sudo);
	else if (!strcmp(pm, "apt"))
		buf_addf(&b, "%smokutil --import /var/lib/dkms/mok.pub\n", sudo);
	else
		buf_addf(&b, "%smokutil --import /path/to/the/signing/key.der\n", sudo);
	buf_addf(&b, "%sreboot\n", sudo);
	buf_adds(&b, "Check with: mokutil --sb-state; sudo modprobe nvidia (\"Key was rejected by "
		     "service\" means the key is still not enrolled).\n"
		     "Alternatively, disable Secure Boot in the firmware settings.");
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* ---- host.unsupported_os ------------------------------------------------------ */

static void
check_platform(const struct facts *f, struct findings *out)
{
	const char *a = f->host.arch;
	struct finding *fd;

	if (!a[0] || !strcmp(a, "x86_64") || !strcmp(a, "amd64") || !strcmp(a, "aarch64") ||
	    !strcmp(a, "arm64") || !strcmp(a, "ppc64le"))
		return;
	fd = findings_add(out, "host.unsupported_os", SEV_ERROR,
			  "No CUDA build of any framework exists for the %s platform", a);
	finding_evidence(fd, "uname machine: %s", a);
	finding_fix(fd, "CUDA and the GPU builds of TensorFlow, PyTorch and JAX exist for 64-bit "
			"x86_64 and aarch64 Linux only. Install a 64-bit x86_64 (or aarch64) system.");
}

void
rule_host(const struct facts *f, struct findings *out)
{
	check_avx(f, out);
	check_wsl_driver_missing(f, out);
	check_wsl_linux_driver(f, out);
	check_windows_tf(f, out);
	check_container(f, out);
	check_secure_boot(f, out);
	check_platform(f, out);
}
