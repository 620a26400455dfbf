/*
 * t_rules_kmod.c - rule_kmod on hand-built facts: nouveau (per-distro
 * initramfs command), nvidia not loaded, device nodes missing or closed,
 * nvidia_uvm missing; none of them in WSL or with /proc/modules unread.
 */
#include "rules_facts.h"

static struct facts *
nouveau_box(const char *os, const char *pm, unsigned uid)
{
	struct facts *f = laptop();

	STR_COPY(f->host.os_id, os);
	STR_COPY(f->host.pkg_manager, pm);
	f->host.uid = uid;
	f->nother_gpus = 0;
	STR_COPY(f->gpus[0].name, "NVIDIA GeForce RTX 3090");
	f->gpus[0].device = 0x2204;
	STR_COPY(f->gpus[0].kernel_driver, "nouveau");
	f->kmod.nvidia = f->kmod.nvidia_uvm = false;
	f->kmod.nouveau = true;
	f->kmod.nvidia_version[0] = '\0';
	f->kmod.ndevnodes = 0;
	f->driver.nlibs = 0;
	f->driver.cuda_state = CHILD_LOAD_FAILED;
	return f;
}

static void
test_nouveau(void **state)
{
	struct facts *f = nouveau_box("fedora", "dnf", 1000);
	struct findings fs;
	const struct finding *fd;

	(void)state;
	run_rule(rule_kmod, f, &fs);
	fd = find_id(&fs, "kmod.nouveau_loaded");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_string_equal(fd->title, "The nouveau driver holds NVIDIA GeForce RTX 3090 (0000:01:00.0)");
	assert_true(evidence_has(fd, "/proc/modules lists nouveau"));
	assert_true(fix_has(fd, "/etc/modprobe.d/blacklist-nouveau.conf"));
	assert_true(fix_has(fd, "options nouveau modeset=0"));
	assert_true(fix_has(fd, "sudo dracut --force"));
	assert_false(fix_has(fd, "update-initramfs"));
	assert_true(fix_has(fd, "akmod-nvidia"));
	/* not also "nvidia not loaded": nouveau is the cause */
	assert_false(findings_has(&fs, "kmod.nvidia_not_loaded"));
	findings_release(&fs);
	free(f);

	f = nouveau_box("debian", "apt", 0);
	f->kmod.nouveau_blacklisted = true;
	STR_COPY(f->kmod.nouveau_blacklist_file, "/etc/modprobe.d/nvidia-blacklists-nouveau.conf");
	run_rule(rule_kmod, f, &fs);
	fd = find_id(&fs, "kmod.nouveau_loaded");
	assert_non_null(fd);
	assert_true(fix_has(fd, "update-initramfs -u"));
	assert_false(fix_has(fd, "sudo "));
	assert_false(fix_has(fd, "tee /etc/modprobe.d/blacklist-nouveau.conf"));
	assert_true(evidence_has(fd, "nvidia-blacklists-nouveau.conf"));
	findings_release(&fs);
	free(f);

	f = nouveau_box("arch", "pacman", 1000);
	run_rule(rule_kmod, f, &fs);
	fd = find_id(&fs, "kmod.nouveau_loaded");
	assert_non_null(fd);
	assert_true(fix_has(fd, "sudo mkinitcpio -P"));
	findings_release(&fs);

	/* WSL, or no nouveau: nothing */
	f->host.wsl = true;
	run_rule(rule_kmod, f, &fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);
	free(f);
	f = laptop();
	run_rule(rule_kmod, f, &fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);
	free(f);
}

static void
test_not_loaded(void **state)
{
	struct facts *f = laptop();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	f->kmod.nvidia = f->kmod.nvidia_uvm = false;
	f->gpus[0].kernel_driver[0] = '\0';
	f->kmod.nvidia_module_installed = true;
	STR_COPY(f->kmod.nvidia_module_path, "/lib/modules/6.12.5-200.fc41.x86_64/extra/nvidia.ko.xz");
	run_rule(rule_kmod, f, &fs);
	fd = find_id(&fs, "kmod.nvidia_not_loaded");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_true(evidence_has(fd, "/proc/modules does not list nvidia"));
	assert_true(fix_has(fd, "sudo modprobe nvidia"));
	findings_release(&fs);

	/* user space installed, no module for this kernel: build it */
	f->kmod.nvidia_module_installed = false;
	run_rule(rule_kmod, f, &fs);
	fd = find_id(&fs, "kmod.nvidia_not_loaded");
	assert_non_null(fd);
	assert_true(evidence_has(fd, "no nvidia.ko under /lib/modules/6.12.5-200.fc41.x86_64"));
	assert_true(fix_has(fd, "sudo dnf install -y kernel-devel-6.12.5-200.fc41.x86_64"));
	assert_true(fix_has(fd, "dkms autoinstall"));
	findings_release(&fs);

	/* nothing installed: install the driver */
	f->driver.nlibs = 0;
	run_rule(rule_kmod, f, &fs);
	fd = find_id(&fs, "kmod.nvidia_not_loaded");
	assert_non_null(fd);
	assert_true(fix_has(fd, "rpmfusion"));
	findings_release(&fs);

	/* secure boot on with the module installed: that finding owns it */
	f->host.secure_boot = 1;
	f->kmod.nvidia_module_installed = true;
	run_rule(rule_kmod, f, &fs);
	assert_false(findings_has(&fs, "kmod.nvidia_not_loaded"));
	findings_release(&fs);

	/* /proc/modules read in part: nvidia may be past the cut, nothing */
	f->host.secure_boot = 0;
	f->kmod.modules_cut = true;
	run_rule(rule_kmod, f, &fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);

	/* /proc/modules unread: nothing */
	f->kmod.modules_cut = false;
	f->kmod.modules_readable = false;
	run_rule(rule_kmod, f, &fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);
	free(f);
}

static void
test_device_nodes(void **state)
{
	struct facts *f = laptop();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	f->kmod.ndevnodes = 0;
	add_devnode(f, "/dev/nvidiactl", false, false);
	add_devnode(f, "/dev/nvidia0", false, false);
	add_devnode(f, "/dev/nvidia-uvm", true, true);
	run_rule(rule_kmod, f, &fs);
	fd = find_id(&fs, "kmod.device_nodes_missing");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_true(evidence_has(fd, "/dev/nvidiactl does not exist"));
	assert_true(fix_has(fd, "sudo nvidia-modprobe -c=0 -u"));
	findings_release(&fs);

	/* present but closed to this user (group video, mode 0660) */
	f->kmod.ndevnodes = 0;
	add_devnode(f, "/dev/nvidiactl", true, true);
	fd = NULL;
	{
		struct devnode_facts *d = add_devnode(f, "/dev/nvidia0", true, false);
		d->mode = 0660;
		d->gid = 44;
	}
	add_devnode(f, "/dev/nvidia-uvm", true, true);
	run_rule(rule_kmod, f, &fs);
	fd = find_id(&fs, "kmod.device_nodes_missing");
	assert_non_null(fd);
	assert_true(strstr(fd->title, "/dev/nvidia0 is not accessible") != NULL);
	assert_true(evidence_has(fd, "mode 0660"));
	assert_true(fix_has(fd, "getent group 44"));
	assert_true(fix_has(fd, "usermod -aG"));
	findings_release(&fs);

	/* healthy nodes, and no devnode facts at all: nothing */
	f->kmod.devnodes[1].accessible = true;
	run_rule(rule_kmod, f, &fs);
	assert_false(findings_has(&fs, "kmod.device_nodes_missing"));
	findings_release(&fs);
	f->kmod.ndevnodes = 0;
	run_rule(rule_kmod, f, &fs);
	assert_false(findings_has(&fs, "kmod.device_nodes_missing"));
	findings_release(&fs);
	free(f);
}

static void
test_uvm(void **state)
{
	struct facts *f = laptop();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	f->kmod.nvidia_uvm = false;
	f->driver.cuinit_rc = 999;
	run_rule(rule_kmod, f, &fs);
	fd = find_id(&fs, "kmod.uvm_missing");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_true(evidence_has(fd, "cuInit returned 999"));
	assert_true(fix_has(fd, "sudo modprobe nvidia-uvm"));
	assert_true(fix_has(fd, "sudo nvidia-modprobe -u -c=0"));
	findings_release(&fs);

	/* CUDA not tried yet: a warning (nvidia-modprobe may load it on demand) */
	f->driver.cuinit_called = false;
	run_rule(rule_kmod, f, &fs);
	fd = find_id(&fs, "kmod.uvm_missing");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	findings_release(&fs);

	/* cuInit worked (it loaded the module meanwhile): nothing */
	f->driver.cuinit_called = true;
	f->driver.cuinit_rc = 0;
	run_rule(rule_kmod, f, &fs);
	assert_false(findings_has(&fs, "kmod.uvm_missing"));
	findings_release(&fs);
	free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nouveau),
		cmocka_unit_test(test_not_loaded),
		cmocka_unit_test(test_device_nodes),
		cmocka_unit_test(test_uvm),
	};

	return cmocka_run_group_tests_name("rules_kmod", tests, NULL, NULL);
}
