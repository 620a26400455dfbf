/*
 * t_probes.c - the file probes (host, pci, kmod, devnodes, env) against
 * small machine trees built in a temporary directory and handed over with
 * root_set(): os-release variants, CPU flags, WSL and container markers,
 * the SecureBoot efivar, a sysfs PCI tree (plain directories and the
 * symlinked layout of a real machine), /proc/modules and both
 * /proc/driver/nvidia/version formats, modprobe.d blacklists, installed
 * modules, device-node permissions, and LD_LIBRARY_PATH.
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
#include <sys/sysmacros.h>
#include <unistd.h>

static const struct probe_opts opts = {.timeout_ms = 1000};

/* ---- tree building ---------------------------------------------------------------- */







static int
setup(void **state)
{
	(void)state;
	if (tree_create("t_probes") < 0)
		return -1;
	root_set(tree);
	unsetenv("KUBERNETES_SERVICE_HOST");
	unsetenv("container");
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

/* ---- host --------------------------------------------------------------------------- */

static void
check_os(const char *os_release, const char *id, const char *pm)
{
	struct facts *f = new_facts();

	put("etc/os-release", os_release);
	probe_host(f, &opts);
	assert_true(f->host.valid);
	assert_string_equal(f->host.os_id, id);
	assert_string_equal(f->host.pkg_manager, pm);
	free(f);
}

static void
test_os_release(void **state)
{
	struct facts *f;

	(void)state;
	check_os("PRETTY_NAME=\"Ubuntu 22.04.4 LTS\"\nNAME=\"Ubuntu\"\nVERSION_ID=\"22.04\"\n"
		 "ID=ubuntu\nID_LIKE=debian\n",
		 "ubuntu", "apt");
	check_os("ID=debian\nVERSION_ID=\"12\"\n", "debian", "apt");
	check_os("ID=\"rocky\"\nID_LIKE=\"rhel centos fedora\"\n", "rocky", "dnf");
	check_os("ID=fedora\n", "fedora", "dnf");
	check_os("ID=\"opensuse-leap\"\nID_LIKE=\"suse opensuse\"\n", "opensuse-leap", "zypper");
	check_os("ID=sles\n", "sles", "zypper");
	check_os("ID=arch\n", "arch", "pacman");
	check_os("ID=endeavouros\nID_LIKE=arch\n", "endeavouros", "pacman");
	/* unknown id: decided by ID_LIKE, else unknown */
	check_os("ID=neon\nID_LIKE=\"ubuntu debian\"\n", "neon", "apt");
	check_os("ID=ultramarine\nID_LIKE='fedora'\n", "ultramarine", "dnf");
	check_os("ID=nixos\n", "nixos", "");
	check_os("# comment\n\n  \nGARBAGE\n=x\nID=\n", "", "");

	f = new_facts();
	put("etc/os-release", "ID=ubuntu\nVERSION_ID=\"24.04\"\nPRETTY_NAME=\"Ubuntu \\\"Noble\\\"\"\n");
	probe_host(f, &opts);
	assert_string_equal(f->host.os_version_id, "24.04");
	assert_string_equal(f->host.os_pretty, "Ubuntu \"Noble\"");
	free(f);

	/* fallback to /usr/lib/os-release; none at all */
	{
		char p[1024];
		snprintf(p, sizeof(p), "%s/etc/os-release", tree);
		unlink(p);
	}
	put("usr/lib/os-release", "ID=almalinux\n");
	f = new_facts();
	probe_host(f, &opts);
	assert_string_equal(f->host.pkg_manager, "dnf");
	free(f);
	{
		char p[1024];
		snprintf(p, sizeof(p), "%s/usr/lib/os-release", tree);
		unlink(p);
	}
	f = new_facts();
	probe_host(f, &opts);
	assert_string_equal(f->host.os_id, "");
	assert_string_equal(f->host.pkg_manager, "");
	assert_true(f->nnotes > 0);
	free(f);
}

static void
test_os_release_garbage(void **state)
{
	unsigned char junk[4096];
	struct facts *f = new_facts();
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)(i * 131 + 7);
	junk[100] = '=';
	put_bytes("etc/os-release", junk, sizeof(junk), 0644);
	put_bytes("proc/cpuinfo", junk, sizeof(junk), 0644);
	put_bytes("proc/sys/kernel/osrelease", junk, sizeof(junk), 0644);
	put_bytes("proc/1/cgroup", junk, sizeof(junk), 0644);
	put_bytes("sys/class/dmi/id/sys_vendor", junk, sizeof(junk), 0644);
	probe_host(f, &opts);
	assert_true(f->host.valid);
	assert_true(strlen(f->host.os_pretty) < sizeof(f->host.os_pretty));
	free(f);
}

static const char cpuinfo_avx[] =
	"processor\t: 0\nvendor_id\t: GenuineIntel\n"
	"model name\t: Intel(R) Xeon(R) Platinum 8480+\n"
	"flags\t\t: fpu vme lm avx avx2 fma avx512f hypervisor\n\n"
	"processor\t: 1\nmodel name\t: Intel(R) Xeon(R) Platinum 8480+\n"
	"flags\t\t: fpu vme lm\n\n";

static void
test_cpuinfo(void **state)
{
	struct facts *f = new_facts();

	(void)state;
	put("proc/cpuinfo", cpuinfo_avx);
	put("proc/sys/kernel/osrelease", "6.8.0-45-generic\n");
	put("sys/class/dmi/id/sys_vendor", "QEMU\n");
	put("sys/class/dmi/id/product_name", "Standard PC (Q35 + ICH9, 2009)\n");
	probe_host(f, &opts);
	assert_true(f->host.cpu_valid);
	assert_int_equal(f->host.cpu_count, 2);
	assert_string_equal(f->host.cpu_model, "Intel(R) Xeon(R) Platinum 8480+");
	assert_true(f->host.cpu_avx && f->host.cpu_avx2 && f->host.cpu_fma && f->host.cpu_avx512f);
	assert_string_equal(f->host.kernel_release, "6.8.0-45-generic");
	/* not the running system: arch from the lm flag, no glibc */
	assert_string_equal(f->host.arch, "x86_64");
	assert_string_equal(f->host.glibc_version, "");
	assert_string_equal(f->host.hypervisor, "QEMU Standard PC (Q35 + ICH9, 2009)");
	free(f);

	/* an old CPU without AVX; "avx512f" alone is not "avx" */
	f = new_facts();
	put("proc/cpuinfo", "processor\t: 0\nmodel name\t: Intel(R) Core(TM)2 Duo CPU\n"
			    "flags\t\t: fpu sse2 ssse3 avx512f_x\n");
	put("proc/sys/kernel/osrelease", "5.4.0-1-aarch64\n");
	probe_host(f, &opts);
	assert_int_equal(f->host.cpu_count, 1);
	assert_false(f->host.cpu_avx);
	assert_false(f->host.cpu_avx2);
	assert_false(f->host.cpu_avx512f);
	assert_false(f->host.cpu_fma);
	assert_string_equal(f->host.hypervisor, "");
	assert_string_equal(f->host.arch, "aarch64");
	free(f);

	/* no cpuinfo */
	{
		char p[1024];
		snprintf(p, sizeof(p), "%s/proc/cpuinfo", tree);
		unlink(p);
	}
	f = new_facts();
	probe_host(f, &opts);
	assert_false(f->host.cpu_valid);
	assert_int_equal(f->host.cpu_count, 0);
	free(f);
}

static void
test_host_identity(void **state)
{
	struct facts *f = new_facts();

	(void)state;
	probe_host(f, &opts);
	assert_int_equal(f->host.uid, (unsigned)geteuid());
	assert_true(f->host.ngids >= 1);
	assert_int_equal(f->host.gids[0], (unsigned)getegid());
	free(f);

	/* on the running system: uname and glibc */
	root_set("/");
	f = new_facts();
	probe_host(f, &opts);
	assert_true(f->host.arch[0] != '\0');
	assert_true(f->host.glibc_version[0] >= '2');
	free(f);
	root_set(tree);
}

static void
test_wsl(void **state)
{
	struct facts *f = new_facts();

	(void)state;
	put("proc/sys/kernel/osrelease", "6.6.87.2-1\n");
	put("proc/version", "Linux version 6.6.87.2-1 (gcc) #1 SMP\n");
	probe_host(f, &opts);
	assert_false(f->host.wsl);
	assert_false(f->host.wsl_dxg);
	free(f);

	f = new_facts();
	put("proc/sys/kernel/osrelease", "5.15.153.1-microsoft-standard-WSL2\n");
	probe_host(f, &opts);
	assert_true(f->host.wsl);
	assert_false(f->host.wsl_dxg);
	assert_false(f->host.wsl_lib_dir);
	free(f);

	f = new_facts();
	put("proc/sys/kernel/osrelease", "6.6.87.2-1\n");
	put("proc/version", "Linux version 4.4.0-19041-Microsoft (Microsoft@Microsoft.com)\n");
	probe_host(f, &opts);
	assert_true(f->host.wsl);
	free(f);

	f = new_facts();
	put("proc/version", "Linux version 6.6.87.2-1\n");
	put("dev/dxg", "");
	mkdirs("usr/lib/wsl/lib");
	probe_host(f, &opts);
	assert_true(f->host.wsl);
	assert_true(f->host.wsl_dxg);
	assert_true(f->host.wsl_lib_dir);
	assert_false(f->host.wsl_libcuda);
	free(f);

	f = new_facts();
	put("usr/lib/wsl/lib/libcuda.so.1", "");
	probe_host(f, &opts);
	assert_true(f->host.wsl_libcuda);
	free(f);
}

static void
check_container(const char *kind)
{
	struct facts *f = new_facts();

	probe_host(f, &opts);
	if (kind) {
		assert_true(f->host.container);
		assert_string_equal(f->host.container_kind, kind);
	} else {
		assert_false(f->host.container);
		assert_string_equal(f->host.container_kind, "");
	}
	free(f);
}

static void
test_containers(void **state)
{
	char p[1024];

	(void)state;
	put("proc/1/cgroup", "0::/init.scope\n");
	check_container(NULL);

	put(".dockerenv", "");
	check_container("docker");
	snprintf(p, sizeof(p), "%s/.dockerenv", tree);
	unlink(p);

	put("run/.containerenv", "engine=\"podman-4.9\"\n");
	check_container("podman");
	snprintf(p, sizeof(p), "%s/run/.containerenv", tree);
	unlink(p);

	put("proc/1/cgroup", "12:memory:/docker/4f1c0a\n11:cpu:/docker/4f1c0a\n");
	check_container("docker");
	put("proc/1/cgroup", "0::/kubepods.slice/kubepods-besteffort.slice/cri-containerd-1.scope\n");
	check_container("kubernetes");
	put("proc/1/cgroup", "0::/lxc.payload.c1/init.scope\n");
	check_container("lxc");
	put("proc/1/cgroup", "0::/\n");
	check_container(NULL);

	setenv("KUBERNETES_SERVICE_HOST", "10.96.0.1", 1);
	check_container("kubernetes");
	unsetenv("KUBERNETES_SERVICE_HOST");

	setenv("container", "systemd-nspawn", 1);
	check_container("systemd-nspawn");
	/* a value that is not a plain word is not copied into the facts */
	setenv("container", "x; rm -rf /", 1);
	check_container(NULL);
	unsetenv("container");
}

static void
check_secure_boot(int want)
{
	struct facts *f = new_facts();

	probe_host(f, &opts);
	assert_int_equal(f->host.secure_boot, want);
	free(f);
}

#define SB_VAR "sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"

static void
test_secure_boot(void **state)
{
	const unsigned char on[5] = {6, 0, 0, 0, 1}, off[5] = {6, 0, 0, 0, 0};

	(void)state;
	check_secure_boot(-1); /* no /sys/firmware at all: unknown */
	mkdirs("sys/firmware/acpi");
	check_secure_boot(0); /* legacy BIOS boot */
	mkdirs("sys/firmware/efi/efivars");
	check_secure_boot(-1); /* EFI, but efivars not mounted */
	put("sys/firmware/efi/efivars/Boot0000-8be4df61-93ca-11d2-aa0d-00e098032b8c", "x");
	check_secure_boot(0); /* efivars without SecureBoot */
	put_bytes(SB_VAR, on, sizeof(on), 0644);
	check_secure_boot(1);
	put_bytes(SB_VAR, off, sizeof(off), 0644);
	check_secure_boot(0);
	put_bytes(SB_VAR, on, 3, 0644);
	check_secure_boot(-1); /* truncated */
	put_bytes(SB_VAR, "\6\0\0\0\x7f", 5, 0644);
	check_secure_boot(-1); /* nonsense value */
}

/* ---- pci --------------------------------------------------------------------------- */

/* One PCI function's attributes under dir (relative to the tree). */
static void
pci_function(const char *dir, const char *vendor, const char *device, const char *cls,
	     const char *driver)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/vendor", dir);
	put(p, vendor);
	snprintf(p, sizeof(p), "%s/device", dir);
	put(p, device);
	snprintf(p, sizeof(p), "%s/class", dir);
	put(p, cls);
	if (driver) {
		char t[256];
		snprintf(p, sizeof(p), "%s/driver", dir);
		snprintf(t, sizeof(t), "../../../bus/pci/drivers/%s", driver);
		link_to(p, t);
	}
}

static void
h200_attrs(const char *dir)
{
	char p[512];

	pci_function(dir, "0x10de\n", "0x2335\n", "0x030200\n", "nvidia");
	snprintf(p, sizeof(p), "%s/subsystem_vendor", dir);
	put(p, "0x10de\n");
	snprintf(p, sizeof(p), "%s/subsystem_device", dir);
	put(p, "0x18bf\n");
	snprintf(p, sizeof(p), "%s/numa_node", dir);
	put(p, "-1\n");
	snprintf(p, sizeof(p), "%s/current_link_speed", dir);
	put(p, "32.0 GT/s PCIe\n");
	snprintf(p, sizeof(p), "%s/max_link_speed", dir);
	put(p, "32.0 GT/s PCIe\n");
	snprintf(p, sizeof(p), "%s/current_link_width", dir);
	put(p, "16\n");
	snprintf(p, sizeof(p), "%s/max_link_width", dir);
	put(p, "16\n");
	snprintf(p, sizeof(p), "%s/boot_vga", dir);
	put(p, "0\n");
}

static void
check_pci(struct facts *f)
{
	const struct gpu_facts *g;

	assert_int_equal(f->ngpus, 2);
	g = &f->gpus[0];
	assert_string_equal(g->pci_bus_id, "0000:00:06.0");
	assert_int_equal(g->vendor, 0x10de);
	assert_int_equal(g->device, 0x2335);
	assert_int_equal(g->class_code, 0x030200);
	assert_int_equal(g->subsys_vendor, 0x10de);
	assert_int_equal(g->subsys_device, 0x18bf);
	assert_string_equal(g->kernel_driver, "nvidia");
	assert_int_equal(g->numa_node, -1);
	assert_string_equal(g->link_speed_cur, "32.0 GT/s PCIe");
	assert_string_equal(g->link_speed_max, "32.0 GT/s PCIe");
	assert_int_equal(g->link_width_cur, 16);
	assert_int_equal(g->link_width_max, 16);
	assert_false(g->boot_vga);
	assert_true(g->kb_known);
	assert_string_equal(g->name, "NVIDIA H200");
	assert_string_equal(g->architecture, "Hopper");
	assert_string_equal(g->compute_capability, "9.0");
	/* the second: unknown to the kb, unbound, sorted after the first */
	g = &f->gpus[1];
	assert_string_equal(g->pci_bus_id, "0000:41:00.0");
	assert_int_equal(g->device, 0x1fff);
	assert_false(g->kb_known);
	assert_string_equal(g->name, "");
	assert_string_equal(g->kernel_driver, "");
	assert_int_equal(g->numa_node, 1);
	assert_int_equal(g->link_width_cur, 0);
	assert_int_equal(g->temperature_c, -1); /* gpu_facts_init ran */

	assert_int_equal(f->nother_gpus, 1);
	assert_string_equal(f->other_gpus[0].pci_bus_id, "0000:00:02.0");
	assert_int_equal(f->other_gpus[0].vendor, 0x8086);
	assert_int_equal(f->other_gpus[0].device, 0x9a49);
	assert_string_equal(f->other_gpus[0].kernel_driver, "i915");
	assert_true(f->other_gpus[0].boot_vga);
}

static void
other_functions(const char *base)
{
	char d[256];

	/* Intel iGPU, boot VGA */
	snprintf(d, sizeof(d), "%s/0000:00:02.0", base);
	pci_function(d, "0x8086\n", "0x9a49\n", "0x030000\n", "i915");
	snprintf(d, sizeof(d), "%s/0000:00:02.0/boot_vga", base);
	put(d, "1\n");
	/* NVIDIA HD audio function: not a GPU */
	snprintf(d, sizeof(d), "%s/0000:00:06.1", base);
	pci_function(d, "0x10de\n", "0x22ba\n", "0x040300\n", "snd_hda_intel");
	/* a bridge */
	snprintf(d, sizeof(d), "%s/0000:00:00.0", base);
	pci_function(d, "0x8086\n", "0x1237\n", "0x060000\n", NULL);
	/* an unknown NVIDIA GPU with odd attributes */
	snprintf(d, sizeof(d), "%s/0000:41:00.0", base);
	pci_function(d, "0x10de\n", "0x1fff\n", "0x030000\n", NULL);
	snprintf(d, sizeof(d), "%s/0000:41:00.0/numa_node", base);
	put(d, "1\n");
	snprintf(d, sizeof(d), "%s/0000:41:00.0/current_link_width", base);
	put(d, "garbage\n");
	/* a BMC's VGA and WSL2's render device: display functions, not GPUs */
	snprintf(d, sizeof(d), "%s/0000:03:00.0", base);
	pci_function(d, "0x1a03\n", "0x2000\n", "0x030000\n", "ast");
	snprintf(d, sizeof(d), "%s/2bd6:00:00.0", base);
	pci_function(d, "0x1414\n", "0x008e\n", "0x030200\n", "dxgkrnl");
	/* garbage ids: skipped */
	snprintf(d, sizeof(d), "%s/0000:42:00.0", base);
	pci_function(d, "vendor?\n", "", "0x03", NULL);
}

static void
test_pci_plain_dirs(void **state)
{
	struct facts *f = new_facts();

	(void)state;
	h200_attrs("sys/bus/pci/devices/0000:00:06.0");
	other_functions("sys/bus/pci/devices");
	mkdirs("sys/bus/pci/devices/not-a-bus-id");
	probe_pci(f, &opts);
	check_pci(f);
	free(f);
}

static void
test_pci_symlinks(void **state)
{
	struct facts *f = new_facts();
	const char *names[] = {"0000:00:00.0", "0000:00:02.0", "0000:00:06.0", "0000:00:06.1",
			       "0000:03:00.0", "0000:41:00.0", "0000:42:00.0", "2bd6:00:00.0"};
	size_t i;

	(void)state;
	/* the real layout: entries link into /sys/devices, and the driver
	 * links are relative to the device directory there */
	h200_attrs("sys/devices/pci0000:00/0000:00:06.0");
	other_functions("sys/devices/pci0000:00");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char rel[256], target[256];
		snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s", names[i]);
		snprintf(target, sizeof(target), "../../../devices/pci0000:00/%s", names[i]);
		link_to(rel, target);
	}
	probe_pci(f, &opts);
	check_pci(f);
	free(f);
}

static void
test_pci_absent(void **state)
{
	struct facts *f = new_facts();

	(void)state;
	probe_pci(f, &opts);
	assert_int_equal(f->ngpus, 0);
	assert_int_equal(f->nother_gpus, 0);
	assert_true(f->nnotes > 0);
	free(f);
}

/* ---- kmod ---------------------------------------------------------------------------- */

static void
test_modules(void **state)
{
	struct facts *f = new_facts();
	int k;

	(void)state;
	probe_kmod(f, &opts);
	assert_false(f->kmod.modules_readable);
	assert_false(f->kmod.nvidia);
	free(f);

	put("proc/modules",
	    "nvidia_uvm 1830912 0 - Live 0xffffffffc080c000 (O)\n"
	    "nvidia 14299136 1 nvidia_uvm, Live 0xffffffffc0400000 (O)\n"
	    "nvidia_drmx 1 0 - Live 0x0\n"
	    "ext4 1 0 - Live 0x0\n");
	f = new_facts();
	probe_kmod(f, &opts);
	assert_true(f->kmod.modules_readable);
	assert_true(f->kmod.nvidia);
	assert_true(f->kmod.nvidia_uvm);
	assert_false(f->kmod.nvidia_modeset);
	assert_false(f->kmod.nvidia_drm);
	assert_false(f->kmod.nouveau);
	free(f);

	put("proc/modules", "nouveau 2297856 1 - Live 0x0\nnvidia_drm 1 0 - Live 0x0\n"
			    "nvidia_modeset 1 1 nvidia_drm, Live 0x0\n");
	f = new_facts();
	probe_kmod(f, &opts);
	assert_true(f->kmod.nouveau);
	assert_true(f->kmod.nvidia_drm);
	assert_true(f->kmod.nvidia_modeset);
	assert_false(f->kmod.nvidia);
	assert_false(f->kmod.nvidia_uvm);
	free(f);

	/* Debian's renamed modules */
	put("proc/modules", "nvidia_current_uvm 1 0 - Live 0x0\nnvidia_current 1 1 nvidia_current_uvm, Live 0x0\n"
			    "nvidia_tesla_470_drm 1 0 - Live 0x0\nnvidia_currentx 1 0 - Live 0x0\n");
	f = new_facts();
	probe_kmod(f, &opts);
	assert_true(f->kmod.nvidia);
	assert_true(f->kmod.nvidia_uvm);
	assert_true(f->kmod.nvidia_drm);
	assert_false(f->kmod.nvidia_modeset);
	free(f);

	put("proc/modules", "");
	f = new_facts();
	probe_kmod(f, &opts);
	assert_true(f->kmod.modules_readable);
	assert_false(f->kmod.nvidia || f->kmod.nouveau);
	free(f);

	/* past the 1 MiB cap: read in part, said so, nvidia unknown */
	{
		size_t line = strlen("filler_module_000000 16384 0 - Live 0x0\n"), n = (1u << 20) / line + 2;
		char *big = malloc(n * line + 64), *p = big;
		size_t i;

		assert_non_null(big);
		for (i = 0; i < n; i++)
			p += sprintf(p, "filler_module_%06zu 16384 0 - Live 0x0\n", i);
		strcpy(p, "nvidia 14299136 0 - Live 0x0\n");
		put("proc/modules", big);
		free(big);
	}
	f = new_facts();
	root_on_cut(NULL, NULL);
	probe_kmod(f, &opts);
	assert_true(f->kmod.modules_readable);
	assert_true(f->kmod.modules_cut);
	assert_false(f->kmod.nvidia);
	assert_false(kmod_list_whole(f));
	for (k = 0; k < f->nnotes && !strstr(f->notes[k].note, "unknown, not absent"); k++)
		;
	assert_true(k < f->nnotes);
	free(f);
	put("proc/modules", "");
}

static void
test_version_file(void **state)
{
	struct facts *f = new_facts();

	(void)state;
	put("proc/driver/nvidia/version",
	    "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  (nixbld@)  \n"
	    "GCC version:  gcc version 14.3.0 (GCC) \n");
	probe_kmod(f, &opts);
	assert_string_equal(f->kmod.nvidia_version, "580.159.04");
	assert_string_equal(f->kmod.flavour, "open");
	assert_string_equal(f->kmod.version_line,
			    "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  "
			    "Release Build  (nixbld@)");
	free(f);

	put("proc/driver/nvidia/version",
	    "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n");
	f = new_facts();
	probe_kmod(f, &opts);
	assert_string_equal(f->kmod.nvidia_version, "535.104.05");
	assert_string_equal(f->kmod.flavour, "proprietary");
	free(f);

	/* aarch64 wording, and a version line without a version: sysfs fallback */
	put("proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  570.86.15  Release Build\n");
	f = new_facts();
	probe_kmod(f, &opts);
	assert_string_equal(f->kmod.nvidia_version, "570.86.15");
	free(f);

	put("proc/driver/nvidia/version", "NVRM version: something else entirely\n");
	put("sys/module/nvidia/version", "550.54.14\n");
	f = new_facts();
	probe_kmod(f, &opts);
	assert_string_equal(f->kmod.nvidia_version, "550.54.14");
	assert_string_equal(f->kmod.flavour, "");
	free(f);

	put("sys/module/nvidia/version", "not a version\n");
	f = new_facts();
	probe_kmod(f, &opts);
	assert_string_equal(f->kmod.nvidia_version, "");
	free(f);
}

static void
test_blacklist(void **state)
{
	struct facts *f = new_facts();

	(void)state;
	put("etc/modprobe.d/alsa.conf", "options snd slots=1\n");
	put("etc/modprobe.d/commented.conf", "# blacklist nouveau\n  #blacklist nouveau\n");
	put("etc/modprobe.d/wrong-suffix.txt", "blacklist nouveau\n");
	put("etc/modprobe.d/other.conf", "blacklist nouveau_x\noptions nouveau modeset=1\n");
	probe_kmod(f, &opts);
	assert_false(f->kmod.nouveau_blacklisted);
	assert_string_equal(f->kmod.nouveau_blacklist_file, "");
	free(f);

	put("usr/lib/modprobe.d/nvidia-graphics-drivers.conf",
	    "# comment\noptions  nouveau  debug=0 modeset=0\n");
	f = new_facts();
	probe_kmod(f, &opts);
	assert_true(f->kmod.nouveau_blacklisted);
	assert_string_equal(f->kmod.nouveau_blacklist_file,
			    "/usr/lib/modprobe.d/nvidia-graphics-drivers.conf");
	free(f);

	put("etc/modprobe.d/blacklist-nouveau.conf", "blacklist nouveau\r\noptions nouveau modeset=0\n");
	f = new_facts();
	probe_kmod(f, &opts);
	assert_true(f->kmod.nouveau_blacklisted);
	assert_string_equal(f->kmod.nouveau_blacklist_file, "/etc/modprobe.d/blacklist-nouveau.conf");
	free(f);
}

static void
test_installed_module(void **state)
{
	struct facts *f = new_facts();

	(void)state;
	put("proc/sys/kernel/osrelease", "6.8.0-45-generic\n");
	put("lib/modules/6.8.0-45-generic/kernel/drivers/net/e1000.ko.zst", "");
	probe_host(f, &opts);
	probe_kmod(f, &opts);
	assert_false(f->kmod.nvidia_module_installed);
	assert_string_equal(f->kmod.nvidia_module_path, "");
	free(f);

	put("lib/modules/6.8.0-45-generic/updates/dkms/nvidia.ko.zst", "");
	f = new_facts();
	probe_host(f, &opts);
	probe_kmod(f, &opts);
	assert_true(f->kmod.nvidia_module_installed);
	assert_string_equal(f->kmod.nvidia_module_path,
			    "/lib/modules/6.8.0-45-generic/updates/dkms/nvidia.ko.zst");
	free(f);

	/* another kernel's module does not count; kernel/nvidia-580/ does */
	put("proc/sys/kernel/osrelease", "6.9.1\n");
	put("lib/modules/6.9.1/kernel/nvidia-580/nvidia.ko", "");
	f = new_facts();
	probe_host(f, &opts);
	probe_kmod(f, &opts);
	assert_true(f->kmod.nvidia_module_installed);
	assert_string_equal(f->kmod.nvidia_module_path, "/lib/modules/6.9.1/kernel/nvidia-580/nvidia.ko");
	free(f);

	/* Debian's renamed module; its -uvm sibling alone does not count */
	put("proc/sys/kernel/osrelease", "6.1.0-13-amd64\n");
	put("lib/modules/6.1.0-13-amd64/updates/dkms/nvidia-current-uvm.ko", "");
	f = new_facts();
	probe_host(f, &opts);
	probe_kmod(f, &opts);
	assert_false(f->kmod.nvidia_module_installed);
	free(f);
	put("lib/modules/6.1.0-13-amd64/updates/dkms/nvidia-current.ko", "");
	f = new_facts();
	probe_host(f, &opts);
	probe_kmod(f, &opts);
	assert_true(f->kmod.nvidia_module_installed);
	assert_string_equal(f->kmod.nvidia_module_path,
			    "/lib/modules/6.1.0-13-amd64/updates/dkms/nvidia-current.ko");
	free(f);

	/* kernel release unknown */
	f = new_facts();
	probe_kmod(f, &opts);
	assert_false(f->kmod.nvidia_module_installed);
	free(f);

	/* names shorter than "nvidia" (is_nvidia_ko once stepped 6 bytes
	 * into them before comparing) and near misses are not the module */
	put("proc/sys/kernel/osrelease", "6.2.0-short\n");
	put("lib/modules/6.2.0-short/updates/dkms/a", "");
	put("lib/modules/6.2.0-short/updates/dkms/nv", "");
	put("lib/modules/6.2.0-short/updates/dkms/.ko", "");
	put("lib/modules/6.2.0-short/updates/dkms/nvidi.ko", "");
	put("lib/modules/6.2.0-short/updates/dkms/nvidia-", "");
	put("lib/modules/6.2.0-short/kernel/nv", "");
	f = new_facts();
	probe_host(f, &opts);
	probe_kmod(f, &opts);
	assert_false(f->kmod.nvidia_module_installed);
	assert_string_equal(f->kmod.nvidia_module_path, "");
	free(f);
}

/* ---- devnodes ---------------------------------------------------------------------- */

static const struct devnode_facts *
node(const struct facts *f, const char *path)
{
	const struct devnode_facts *d = facts_devnode(f, path);

	if (!d)
		fail_msg("%s not recorded", path);
	return d;
}

static void
test_devnodes(void **state)
{
	struct facts *f = new_facts();
	const struct devnode_facts *d;
	struct stat st;
	char p[1024];

	(void)state;
	/* nothing there: the always-named nodes are recorded as missing */
	probe_devnodes(f, &opts);
	assert_int_equal(f->kmod.ndevnodes, 3);
	assert_false(node(f, "/dev/nvidiactl")->exists);
	assert_false(node(f, "/dev/nvidia-uvm")->exists);
	assert_false(node(f, "/dev/nvidia0")->exists);
	assert_null(facts_devnode(f, "/dev/nvidia-modeset"));
	assert_null(facts_devnode(f, "/dev/dxg"));
	free(f);

	put_bytes("dev/nvidiactl", "", 0, 0666);
	put_bytes("dev/nvidia0", "", 0, 0600);
	put_bytes("dev/nvidia3", "", 0, 0660);
	put_bytes("dev/nvidia-uvm-tools", "", 0, 0666);
	put_bytes("dev/nvidia-caps/nvidia-cap1", "", 0, 0400);
	put_bytes("dev/nvidiafoo", "", 0, 0666);
	snprintf(p, sizeof(p), "%s/dev/nvidia0", tree);
	assert_int_equal(stat(p, &st), 0);

	/* two GPUs bound to nvidia: /dev/nvidia1 is named even though missing */
	f = new_facts();
	f->ngpus = 2;
	snprintf(f->gpus[0].kernel_driver, sizeof(f->gpus[0].kernel_driver), "nvidia");
	snprintf(f->gpus[1].kernel_driver, sizeof(f->gpus[1].kernel_driver), "nvidia");
	/* the probing process: another user, not in the file's group */
	f->host.valid = true;
	f->host.uid = (unsigned)st.st_uid + 1;
	f->host.gids[0] = (unsigned)st.st_gid + 1;
	f->host.ngids = 1;
	probe_devnodes(f, &opts);
	d = node(f, "/dev/nvidiactl");
	assert_true(d->exists);
	assert_false(d->is_char); /* a plain file stands in for the node */
	assert_int_equal(d->mode, 0666);
	assert_true(d->accessible);
	d = node(f, "/dev/nvidia0");
	assert_true(d->exists);
	assert_int_equal(d->mode, 0600);
	assert_int_equal(d->uid, (unsigned)st.st_uid);
	assert_false(d->accessible);
	assert_false(node(f, "/dev/nvidia1")->exists);
	assert_false(node(f, "/dev/nvidia-uvm")->exists);
	assert_false(node(f, "/dev/nvidia3")->accessible); /* 0660, not in the group */
	assert_true(node(f, "/dev/nvidia-uvm-tools")->exists);
	assert_true(node(f, "/dev/nvidia-caps/nvidia-cap1")->exists);
	assert_null(facts_devnode(f, "/dev/nvidia2"));
	assert_null(facts_devnode(f, "/dev/nvidiafoo"));
	/* order: the fixed nodes, then /dev/nvidiaN by number */
	assert_string_equal(f->kmod.devnodes[0].path, "/dev/nvidiactl");
	assert_string_equal(f->kmod.devnodes[1].path, "/dev/nvidia-uvm");

	/* the same nodes judged for their owner, a group member, and root */
	f->host.uid = (unsigned)st.st_uid;
	probe_devnodes(f, &opts);
	assert_true(node(f, "/dev/nvidia0")->accessible);
	f->host.uid = (unsigned)st.st_uid + 1;
	f->host.gids[1] = (unsigned)st.st_gid;
	f->host.ngids = 2;
	probe_devnodes(f, &opts);
	assert_true(node(f, "/dev/nvidia3")->accessible);
	assert_false(node(f, "/dev/nvidia0")->accessible);
	assert_false(node(f, "/dev/nvidia-caps/nvidia-cap1")->accessible);
	f->host.uid = 0;
	probe_devnodes(f, &opts);
	assert_true(node(f, "/dev/nvidia0")->accessible);
	assert_true(node(f, "/dev/nvidia-caps/nvidia-cap1")->accessible);
	assert_false(node(f, "/dev/nvidia1")->accessible); /* missing stays inaccessible */
	free(f);
}

static void
test_devnodes_real_identity(void **state)
{
	struct facts *f = new_facts();
	char p[1024];

	(void)state;
	/* 0600 owned by another uid, judged for this process as probe_host
	 * records it: only root may open it */
	put_bytes("dev/nvidia0", "", 0, 0600);
	snprintf(p, sizeof(p), "%s/dev/nvidia0", tree);
	if (geteuid() == 0)
		assert_int_equal(chown(p, 12345, 12345), 0);
	probe_host(f, &opts);
	probe_devnodes(f, &opts);
	/* root opens anything that exists; anyone else here is its owner */
	assert_true(node(f, "/dev/nvidia0")->accessible);
	assert_int_equal(node(f, "/dev/nvidia0")->uid, geteuid() == 0 ? 12345u : (unsigned)geteuid());
	free(f);

	if (geteuid() == 0) {
		/* a real character device, as on a machine */
		snprintf(p, sizeof(p), "%s/dev/nvidiactl", tree);
		assert_int_equal(mknod(p, S_IFCHR | 0666, makedev(1, 3)), 0);
		assert_int_equal(chmod(p, 0666), 0); /* past the umask */
		f = new_facts();
		probe_host(f, &opts);
		probe_devnodes(f, &opts);
		assert_true(node(f, "/dev/nvidiactl")->is_char);
		assert_int_equal(node(f, "/dev/nvidiactl")->mode, 0666);
		free(f);
	} else {
		/* not root: a file of ours with no permission for us */
		put_bytes("dev/nvidia-uvm", "", 0, 0000);
		f = new_facts();
		probe_host(f, &opts);
		probe_devnodes(f, &opts);
		assert_true(node(f, "/dev/nvidia-uvm")->exists);
		assert_false(node(f, "/dev/nvidia-uvm")->accessible);
		free(f);
	}
}

/* ---- env --------------------------------------------------------------------------- */

static void
test_env(void **state)
{
	struct facts *f = new_facts();
	const struct env_var_facts *v;
	const struct ldpath_dir_facts *d;

	(void)state;
	put("opt/cuda/lib64/libcudart.so.12", "");
	put("opt/cuda/lib64/libcudart.so.12.4.127", "");
	put("opt/cuda/lib64/libcublas.so.12", "");
	put("opt/cuda/lib64/libcudnn.so.9", "");
	put("opt/cuda/lib64/libcudart_static.a", "");
	put("opt/cuda/lib64/libfoo.so.1", "");
	put("usr/lib/old/libcudart.so.10.1", "");
	put("usr/lib/old/libcudart.so.11.0", "");
	link_to("usr/lib/linked", "/opt/cuda/lib64");
	setenv("LD_LIBRARY_PATH", "/opt/cuda/lib64::/missing/dir:/usr/lib/old:/usr/lib/linked:", 1);
	setenv("CUDA_VISIBLE_DEVICES", "", 1);
	setenv("XLA_FLAGS", "--xla_gpu_cuda_data_dir=/usr/local/cuda", 1);
	unsetenv("TF_GPU_ALLOCATOR");
	setenv("NCCL_P2P_DISABLE", "1", 1);
	probe_env(f, &opts);
	unsetenv("NCCL_P2P_DISABLE");

	assert_int_equal(f->env.nvars, 21);
	assert_string_equal(facts_env_value(f, "NCCL_P2P_DISABLE"), "1");
	v = facts_env(f, "CUDA_VISIBLE_DEVICES");
	assert_non_null(v);
	assert_true(v->set);
	assert_string_equal(v->value, "");
	v = facts_env(f, "TF_GPU_ALLOCATOR");
	assert_non_null(v);
	assert_false(v->set);
	assert_string_equal(facts_env_value(f, "XLA_FLAGS"), "--xla_gpu_cuda_data_dir=/usr/local/cuda");
	assert_non_null(facts_env(f, "VIRTUAL_ENV"));

	assert_int_equal(f->env.nldpath, 6);
	d = &f->env.ldpath[0];
	assert_string_equal(d->dir, "/opt/cuda/lib64");
	assert_true(d->exists);
	assert_int_equal(d->ncuda_libs, 4);
	assert_string_equal(d->cuda_major, "12");
	d = &f->env.ldpath[1];
	assert_string_equal(d->dir, ".");
	assert_false(d->exists);
	d = &f->env.ldpath[2];
	assert_string_equal(d->dir, "/missing/dir");
	assert_false(d->exists);
	assert_int_equal(d->ncuda_libs, 0);
	assert_string_equal(d->cuda_major, "");
	d = &f->env.ldpath[3];
	assert_int_equal(d->ncuda_libs, 2);
	assert_string_equal(d->cuda_major, "11");
	/* a link inside the root is followed inside the root */
	d = &f->env.ldpath[4];
	assert_string_equal(d->dir, "/usr/lib/linked");
	assert_true(d->exists);
	assert_int_equal(d->ncuda_libs, 4);
	assert_string_equal(f->env.ldpath[5].dir, ".");
	free(f);

	/* empty LD_LIBRARY_PATH: set, but no directories; unset: none */
	setenv("LD_LIBRARY_PATH", "", 1);
	f = new_facts();
	probe_env(f, &opts);
	assert_true(facts_env(f, "LD_LIBRARY_PATH")->set);
	assert_int_equal(f->env.nldpath, 0);
	free(f);
	unsetenv("LD_LIBRARY_PATH");
	f = new_facts();
	probe_env(f, &opts);
	assert_false(facts_env(f, "LD_LIBRARY_PATH")->set);
	assert_int_equal(f->env.nldpath, 0);
	free(f);

	/* more entries than the table holds */
	{
		char many[2048];
		size_t len = 0;
		int i;
		for (i = 0; i < 40; i++)
			len += (size_t)snprintf(many + len, sizeof(many) - len, "/x%d:", i);
		setenv("LD_LIBRARY_PATH", many, 1);
	}
	f = new_facts();
	probe_env(f, &opts);
	assert_int_equal(f->env.nldpath, MAX_LDPATH_DIRS);
	assert_true(f->nnotes > 0);
	free(f);
	unsetenv("LD_LIBRARY_PATH");
	unsetenv("CUDA_VISIBLE_DEVICES");
	unsetenv("XLA_FLAGS");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_os_release, setup, teardown),
		cmocka_unit_test_setup_teardown(test_os_release_garbage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpuinfo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_identity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wsl, setup, teardown),
		cmocka_unit_test_setup_teardown(test_containers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_secure_boot, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pci_plain_dirs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pci_symlinks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pci_absent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_modules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_version_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_blacklist, setup, teardown),
		cmocka_unit_test_setup_teardown(test_installed_module, setup, teardown),
		cmocka_unit_test_setup_teardown(test_devnodes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_devnodes_real_identity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_env, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
