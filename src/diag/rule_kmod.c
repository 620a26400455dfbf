/*
 * rule_kmod.c - findings about the kernel side: nvidia not loaded, nouveau
 * holding the GPU, /dev/nvidia* missing or closed to this user, nvidia_uvm
 * missing.
 *
 * Pure: reads facts only. None of these apply in WSL (the GPU comes through
 * /dev/dxg there), and nothing is concluded when /proc/modules could not be
 * read. Secure Boot refusing the module is host.secure_boot_blocks_driver,
 * not kmod.nvidia_not_loaded.
 */
#include "diag/fix.h"
#include "diag/rule.h"
#include "diag/rule_util.h"
#include "base/buf.h"
#include "base/str.h"

#include <string.h>

static const struct driver_lib_facts *
driver_libcuda(const struct facts *f)
{
	int i;

	for (i = 0; i < f->driver.nlibs && i < MAX_DRIVER_LIBS; i++)
		if (!strcmp(f->driver.libs[i].name, "libcuda") && !f->driver.libs[i].is_stub)
			return &f->driver.libs[i];
	return NULL;
}

static const struct gpu_facts *
nouveau_bound(const struct facts *f)
{
	int i;

	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++)
		if (!strcmp(f->gpus[i].kernel_driver, "nouveau"))
			return &f->gpus[i];
	return NULL;
}

static bool
applies(const struct facts *f)
{
	return f->ngpus > 0 && !f->host.wsl && kmod_list_whole(f);
}

/* ---- kmod.nouveau_loaded -------------------------------------------------------- */

static void
check_nouveau(const struct facts *f, struct findings *out)
{
	const struct kmod_facts *k = &f->kmod;
	const struct gpu_facts *g = nouveau_bound(f);
	const char *sudo = fix_sudo(f);
	char label[F_NAME + 32];
	struct finding *fd;
	struct buf b;

	if (f->ngpus == 0 || f->host.wsl || (!k->nouveau && !g))
		return;
	if (!k->modules_readable && !g)
		return;
	if (g) {
		rule_gpu_label(g, label, sizeof(label));
		fd = findings_add(out, "kmod.nouveau_loaded", SEV_ERROR, "The nouveau driver holds %s",
				  label);
	} else {
		fd = findings_add(out, "kmod.nouveau_loaded", k->nvidia ? SEV_WARN : SEV_ERROR,
				  "The nouveau kernel module is loaded");
	}
	if (k->nouveau)
		finding_evidence(fd, "/proc/modules lists nouveau");
	if (g)
		finding_evidence(fd, "/sys/bus/pci/devices/%s/driver -> nouveau", g->pci_bus_id);
	if (k->nouveau_blacklisted)
		finding_evidence(fd, "nouveau is blacklisted in %s, yet loaded: the initramfs was not "
				     "rebuilt or the machine not rebooted since",
				 k->nouveau_blacklist_file[0] ? k->nouveau_blacklist_file : "/etc/modprobe.d");
	if (k->nvidia)
		finding_evidence(fd, "/proc/modules also lists nvidia");
	buf_init(&b);
	if (!k->nouveau_blacklisted) {
		buf_adds(&b, "Keep nouveau from loading, rebuild the initramfs and reboot:\n");
		buf_addf(&b, "printf 'blacklist nouveau\\noptions nouveau modeset=0\\n' | %stee "
			     "/etc/modprobe.d/blacklist-nouveau.conf\n",
			 sudo);
	} else {
		buf_adds(&b, "The blacklist exists; rebuild the initramfs so it applies at boot, and "
			     "reboot:\n");
	}
	fix_rebuild_initramfs(&b, f);
	buf_addf(&b, "%sreboot\n", sudo);
	if (!k->nvidia_module_installed && !driver_libcuda(f)) {
		buf_adds(&b, "Then install the NVIDIA driver (its packages also blacklist nouveau):\n");
		fix_install_driver(&b, f);
	}
	if (f->host.secure_boot == 1)
		buf_adds(&b, "Secure Boot is on: the nvidia module must be signed with an enrolled key "
			     "(the driver installer asks for a MOK password; enroll it at the next "
			     "boot).\n");
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* ---- kmod.nvidia_not_loaded ------------------------------------------------------ */

static bool
secure_boot_blocks(const struct facts *f)
{
	return f->host.secure_boot == 1 && (f->kmod.nvidia_module_installed || driver_libcuda(f));
}

static void
check_not_loaded(const struct facts *f, struct findings *out)
{
	const struct kmod_facts *k = &f->kmod;
	const struct driver_lib_facts *l = driver_libcuda(f);
	const char *sudo = fix_sudo(f);
	char label[F_NAME + 32];
	struct finding *fd;
	struct buf b;
	int i;

	if (!applies(f) || k->nvidia || k->nouveau || nouveau_bound(f) || secure_boot_blocks(f))
		return;
	rule_gpu_label(&f->gpus[0], label, sizeof(label));
	fd = findings_add(out, "kmod.nvidia_not_loaded", SEV_ERROR,
			  "The nvidia kernel module is not loaded for %s%s", label,
			  f->ngpus > 1 ? " and the other GPUs" : "");
	finding_evidence(fd, "/proc/modules does not list nvidia");
	for (i = 0; i < f->ngpus && i < MAX_GPUS; i++)
		if (f->gpus[i].kernel_driver[0])
			finding_evidence(fd, "/sys/bus/pci/devices/%s/driver -> %s", f->gpus[i].pci_bus_id,
					 f->gpus[i].kernel_driver);
	if (k->nvidia_module_installed)
		finding_evidence(fd, "the module is installed: %s",
				 k->nvidia_module_path[0] ? k->nvidia_module_path : "nvidia.ko");
	else if (f->host.kernel_release[0])
		finding_evidence(fd, "no nvidia.ko under /lib/modules/%s", f->host.kernel_release);
	if (l)
		finding_evidence(fd, "user-space driver %s%s%s is installed", l->path,
				 l->version[0] ? " " : "", l->version);
	buf_init(&b);
	if (!strcmp(f->gpus[0].kernel_driver, "vfio-pci"))
		buf_adds(&b, "The GPU is bound to vfio-pci, i.e. reserved for passthrough to a virtual "
			     "machine. Remove its id from the vfio-pci.ids= kernel parameter or "
			     "/etc/modprobe.d to use it here.\n");
	if (k->nvidia_module_installed) {
		buf_addf(&b, "%smodprobe nvidia\n", sudo);
		buf_addf(&b, "%sdmesg | grep -i -E 'nvidia|NVRM' | tail\n", sudo);
		buf_adds(&b, "If modprobe fails after a kernel update, rebuild the module for the running "
			     "kernel: ");
		buf_addf(&b, "%sdkms autoinstall\n", sudo);
	} else if (l) {
		buf_adds(&b, "The user-space driver is installed but there is no module for the running "
			     "kernel (often after a kernel update). Install the kernel headers and build "
			     "it:\n");
		if (f->host.kernel_release[0]) {
			char deb[F_NAME + 32], rpm[F_NAME + 32];
			STR_FMT(deb, "linux-headers-%s", f->host.kernel_release);
			STR_FMT(rpm, "kernel-devel-%s", f->host.kernel_release);
			fix_install(&b, f, deb, rpm, "kernel-default-devel", "linux-headers");
		}
		buf_addf(&b, "%sdkms autoinstall\n%smodprobe nvidia\n", sudo, sudo);
	} else {
		buf_adds(&b, "No NVIDIA driver is installed. Install it:\n");
		fix_install_driver(&b, f);
	}
	finding_fix(fd, b.s);
	buf_release(&b);
}

/* ---- kmod.device_nodes_missing --------------------------------------------------- */

static bool
is_gpu_node(const char *path)
{
	const char *p;

	if (!str_starts(path, "/dev/nvidia") || !path[11])
		return false;
	for (p = path + 11; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

static void
check_nodes(const struct facts *f, struct findings *out)
{
	const struct kmod_facts *k = &f->kmod;
	const struct devnode_facts *ctl = facts_devnode(f, "/dev/nvidiactl");
	const char *sudo = fix_sudo(f);
	bool ctl_missing, gpu_missing, any_gpu_node = false;
	const struct devnode_facts *closed = NULL;
	struct finding *fd;
	struct buf b;
	int i;

	if (!applies(f) || !k->nvidia || k->ndevnodes <= 0)
		return;
	ctl_missing = !ctl || !ctl->exists;
	for (i = 0; i < k->ndevnodes && i < MAX_DEVNODES; i++) {
		const struct devnode_facts *d = &k->devnodes[i];
		if (is_gpu_node(d->path) && d->exists)
			any_gpu_node = true;
		if (d->exists && !d->accessible && !closed &&
		    (is_gpu_node(d->path) || !strcmp(d->path, "/dev/nvidiactl") ||
		     !strcmp(d->path, "/dev/nvidia-uvm")))
			closed = d;
	}
	gpu_missing = !any_gpu_node;
	if (ctl_missing || gpu_missing) {
		fd = findings_add(out, "kmod.device_nodes_missing", SEV_ERROR,
				  "The nvidia module is loaded but %s missing",
				  ctl_missing && gpu_missing ? "/dev/nvidiactl and /dev/nvidia0 are"
				  : ctl_missing		     ? "/dev/nvidiactl is"
							     : "every /dev/nvidiaN node is");
		finding_evidence(fd, "/proc/modules lists nvidia");
		if (ctl_missing)
			finding_evidence(fd, "/dev/nvidiactl does not exist");
		if (gpu_missing)
			finding_evidence(fd, "no /dev/nvidia[0-9]+ exists for %d GPU(s)", f->ngpus);
		buf_init(&b);
		if (f->host.container) {
			buf_adds(&b, "Inside a container the nodes come from the runtime: start it with "
				     "--gpus all (docker) or the nvidia.com/gpu resource (kubernetes).\n");
		} else {
			buf_adds(&b, "Create the nodes (the driver's setuid helper does this on first use; "
				     "udev rules of the driver package normally do it at boot):\n");
			buf_addf(&b, "%snvidia-modprobe -c=0 -u\n", sudo);
			buf_addf(&b, "%snvidia-smi\n", sudo);
		}
		finding_fix(fd, b.s);
		buf_release(&b);
	}
	if (closed) {
		fd = findings_add(out, "kmod.device_nodes_missing", SEV_ERROR,
				  "%s is not accessible to this user (uid %u)", closed->path, f->host.uid);
		finding_evidence(fd, "%s mode %04o owner %u:%u; this process lacks read/write access",
				 closed->path, closed->mode & 07777, closed->uid, closed->gid);
		buf_init(&b);
		if (f->host.uid == 0 || f->host.container) {
			buf_adds(&b, "Even root cannot open it: a container's device cgroup or a security "
				     "module (SELinux, AppArmor) blocks it. Start the container with "
				     "--gpus all (or --device for each /dev/nvidia* node) and check the audit "
				     "log.\n");
		} else if (closed->gid != 0 && (closed->mode & 060) == 060) {
			buf_addf(&b, "Add this user to the group that owns the node, then log out and in:\n"
				     "%susermod -aG \"$(getent group %u | cut -d: -f1)\" \"$USER\"\n",
				 sudo, closed->gid);
		} else {
			buf_adds(&b, "The driver creates the nodes with mode 0666 unless told otherwise. "
				     "Look for NVreg_DeviceFileMode / NVreg_DeviceFileGID / "
				     "NVreg_DeviceFileUID in /etc/modprobe.d and remove them, or add this "
				     "user to the group they name, then reload the driver or reboot:\n");
			buf_adds(&b, "grep -r NVreg_DeviceFile /etc/modprobe.d /lib/modprobe.d\n");
		}
		finding_fix(fd, b.s);
		buf_release(&b);
	}
}

/* ---- kmod.uvm_missing --------------------------------------------------------------- */

static void
check_uvm(const struct facts *f, struct findings *out)
{
	const struct kmod_facts *k = &f->kmod;
	const struct devnode_facts *uvm = facts_devnode(f, "/dev/nvidia-uvm");
	const struct driver_facts *d = &f->driver;
	const char *sudo = fix_sudo(f);
	bool node_missing = uvm && !uvm->exists;
	bool cuda_failed, cuda_ok;
	struct finding *fd;
	struct buf b;

	if (!applies(f) || !k->nvidia || (k->nvidia_uvm && !node_missing))
		return;
	cuda_ok = d->cuda_state == CHILD_OK && d->cuinit_called && d->cuinit_rc == 0;
	cuda_failed = d->cuda_state == CHILD_OK && d->cuinit_called && d->cuinit_rc != 0;
	if (cuda_ok)
		return;
	fd = findings_add(out, "kmod.uvm_missing", cuda_failed || f->host.container ? SEV_ERROR : SEV_WARN,
			  "%s: CUDA cannot initialise",
			  !k->nvidia_uvm ? "The nvidia_uvm kernel module is not loaded"
					 : "/dev/nvidia-uvm is missing");
	if (!k->nvidia_uvm)
		finding_evidence(fd, "/proc/modules lists nvidia but not nvidia_uvm");
	if (node_missing)
		finding_evidence(fd, "/dev/nvidia-uvm does not exist");
	if (cuda_failed)
		finding_evidence(fd, "cuInit returned %d%s%s%s", d->cuinit_rc, d->cuinit_name[0] ? " (" : "",
				 d->cuinit_name, d->cuinit_name[0] ? ")" : "");
	buf_init(&b);
	if (f->host.container) {
		buf_adds(&b, "Load it on the host (a container cannot load modules), then restart the "
			     "container:\n");
	}
	buf_addf(&b, "%smodprobe nvidia-uvm\n%snvidia-modprobe -u -c=0\n", sudo, sudo);
	buf_addf(&b, "To load it at every boot: echo nvidia-uvm | %stee /etc/modules-load.d/nvidia-uvm.conf\n",
		 sudo);
	finding_fix(fd, b.s);
	buf_release(&b);
}

void
rule_kmod(const struct facts *f, struct findings *out)
{
	check_nouveau(f, out);
	check_not_loaded(f, out);
	check_nodes(f, out);
	check_uvm(f, out);
}
