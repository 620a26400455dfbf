/*
 * t_rules_driver.c - rule_driver on hand-built facts: libcuda missing,
 * version mismatch, driver too old (with and without minor-version
 * compatibility), cuInit failures by code, forward compatibility, crashed
 * and hung probes, no visible device. Each cuInit code has one owner.
 */
#include "rules_facts.h"

static struct facts *
ubuntu_3090(const char *kver)
{
	struct facts *f = healthy_h200();

	f->host.container = false;
	f->host.uid = 1000;
	f->env.nvars = 0;
	STR_COPY(f->gpus[0].name, "NVIDIA GeForce RTX 3090");
	STR_COPY(f->gpus[0].pci_bus_id, "0000:01:00.0");
	f->gpus[0].device = 0x2204;
	STR_COPY(f->gpus[0].compute_capability, "8.6");
	STR_COPY(f->kmod.nvidia_version, kver);
	STR_COPY(f->driver.version, kver);
	STR_COPY(f->driver.nvml_driver_version, kver);
	STR_COPY(f->driver.libs[0].version, kver);
	STR_COPY(f->driver.libs[1].version, kver);
	STR_COPY(f->driver.libs[0].path, "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
	STR_COPY(f->driver.libs[1].path, "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1");
	return f;
}

static void
test_libcuda_missing(void **state)
{
	struct facts *f = ubuntu_3090("535.104.05");
	struct findings fs;
	const struct finding *fd;

	(void)state;
	run_rule(rule_driver, f, &fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);

	/* only the toolkit stub is left */
	f->driver.nlibs = 0;
	add_driver_lib(f, "libcuda", "/usr/local/cuda-13.0/lib64/stubs/libcuda.so", "", true, false);
	f->driver.cuda_state = CHILD_LOAD_FAILED;
	STR_COPY(f->driver.cuda_error, "libcuda.so.1: cannot open shared object file");
	f->driver.nvml_state = CHILD_LOAD_FAILED;
	f->driver.cuda_version[0] = '\0';
	run_rule(rule_driver, f, &fs);
	fd = find_id(&fs, "driver.libcuda_missing");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_true(evidence_has(fd, "only the CUDA toolkit's stub /usr/local/cuda-13.0/lib64/stubs/"
				     "libcuda.so, which is not a driver"));
	assert_true(evidence_has(fd, "cannot open shared object file"));
	assert_true(fix_has(fd, "sudo apt install -y libnvidia-compute-535 nvidia-utils-535"));
	findings_release(&fs);

	/* Fedora */
	STR_COPY(f->host.os_id, "fedora");
	STR_COPY(f->host.os_like, "");
	STR_COPY(f->host.pkg_manager, "dnf");
	run_rule(rule_driver, f, &fs);
	fd = find_id(&fs, "driver.libcuda_missing");
	assert_non_null(fd);
	assert_true(fix_has(fd, "sudo dnf install -y xorg-x11-drv-nvidia-cuda-libs"));
	findings_release(&fs);

	/* module not loaded: kmod's finding, not this one */
	f->kmod.nvidia = false;
	run_rule(rule_driver, f, &fs);
	assert_false(findings_has(&fs, "driver.libcuda_missing"));
	findings_release(&fs);
	free(f);
}

static void
test_version_mismatch(void **state)
{
	struct facts *f = ubuntu_3090("535.104.05");
	struct findings fs;
	const struct finding *fd;

	(void)state;
	/* the driver packages were upgraded to 550, the old module still runs */
	STR_COPY(f->driver.libs[0].version, "550.54.14");
	STR_COPY(f->driver.libs[1].version, "550.54.14");
	f->driver.nvml_init_rc = 18;
	f->driver.nvml_driver_version[0] = '\0';
	run_rule(rule_driver, f, &fs);
	fd = find_id(&fs, "driver.version_mismatch");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_int_equal(count_id(&fs, "driver.version_mismatch"), 1);
	assert_true(evidence_has(fd, "kernel module 535.104.05 (/proc/driver/nvidia/version), "
				     "libcuda.so.550.54.14 (/usr/lib/x86_64-linux-gnu/libcuda.so.1)"));
	assert_true(evidence_has(fd, "NVML_ERROR_LIB_RM_VERSION_MISMATCH"));
	assert_true(fix_has(fd, "sudo reboot"));
	assert_true(fix_has(fd, "sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia"));
	findings_release(&fs);

	/* an old copy found first: remove it (path with a space is quoted) */
	STR_COPY(f->kmod.nvidia_version, "550.54.14");
	STR_COPY(f->driver.libs[0].version, "470.82.01");
	STR_COPY(f->driver.libs[0].path, "/opt/old driver/libcuda.so.1");
	f->driver.nvml_init_rc = 0;
	run_rule(rule_driver, f, &fs);
	fd = find_id(&fs, "driver.version_mismatch");
	assert_non_null(fd);
	assert_true(fix_has(fd, "sudo rm '/opt/old driver/libcuda.so.1'"));
	findings_release(&fs);

	/* only NVML's init code */
	STR_COPY(f->driver.libs[0].version, "550.54.14");
	f->driver.nvml_init_rc = 18;
	run_rule(rule_driver, f, &fs);
	assert_true(findings_has(&fs, "driver.version_mismatch"));
	findings_release(&fs);

	/* all equal; a file-name version of "1" proves nothing */
	f->driver.nvml_init_rc = 0;
	STR_COPY(f->driver.libs[1].version, "1");
	run_rule(rule_driver, f, &fs);
	assert_false(findings_has(&fs, "driver.version_mismatch"));
	findings_release(&fs);
	free(f);
}

/* An RTX 4090 (Ada, CUDA 11.8 on) with the 515 driver of mid-2022. */
static void
test_gpu_newer_than_driver(void **state)
{
	struct facts *f = ubuntu_3090("515.65.01");
	struct findings fs;
	const struct finding *fd;

	(void)state;
	STR_COPY(f->gpus[0].name, "NVIDIA GeForce RTX 4090");
	f->gpus[0].device = 0x2684;
	STR_COPY(f->gpus[0].compute_capability, "8.9");
	STR_COPY(f->driver.cuda_version, "11.7");
	f->driver.cuda_driver_version = 11070;
	f->nlibs = 0;
	run_rule(rule_driver, f, &fs);
	fd = find_id(&fs, "driver.too_old");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_non_null(strstr(fd->title, "515.65.01 predates"));
	assert_true(evidence_has(fd, "Ada Lovelace architecture (compute capability 8.9) arrived "
				     "with CUDA 11.8"));
	assert_true(evidence_has(fd, "its first drivers are branch 520 (520.61.05)"));
	assert_true(fix_has(fd, "520.61.05 or newer"));
	findings_release(&fs);

	/* the card's launch driver, 520.56.06, is of that branch: fine */
	STR_COPY(f->driver.version, "520.56.06");
	run_rule(rule_driver, f, &fs);
	assert_false(findings_has(&fs, "driver.too_old"));
	findings_release(&fs);
	STR_COPY(f->driver.version, "515.65.01");

	/* the RTX 3090 (Ampere, CUDA 11.1 on) is known to 515 */
	STR_COPY(f->gpus[0].compute_capability, "8.6");
	run_rule(rule_driver, f, &fs);
	assert_false(findings_has(&fs, "driver.too_old"));
	findings_release(&fs);
	free(f);
}

static void
test_too_old(void **state)
{
	struct facts *f = ubuntu_3090("535.104.05");
	struct findings fs;
	const struct finding *fd;

	(void)state;
	STR_COPY(f->driver.cuda_version, "12.2");
	f->driver.cuda_driver_version = 12020;
	/* the loader picks the CUDA 13.0 runtime: another major */
	run_rule(rule_driver, f, &fs);
	fd = find_id(&fs, "driver.too_old");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_true(evidence_has(fd, "13.0.96"));
	assert_true(evidence_has(fd, "580.65.06"));
	assert_true(fix_has(fd, "580.65.06 or newer"));
	assert_true(fix_has(fd, "sudo ubuntu-drivers install"));
	findings_release(&fs);

	/* CUDA 12.4 runtime on a CUDA 12.2 driver: minor-version compatible */
	f->nlibs = 0;
	add_lib(f, "cudart", "/usr/local/cuda-12.4/lib64/libcudart.so.12", "libcudart.so.12",
		"12.4.131", ORIGIN_TOOLKIT, "/usr/local/cuda-12.4", true, true);
	run_rule(rule_driver, f, &fs);
	fd = find_id(&fs, "driver.too_old");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_true(fix_has(fd, "550.54.14"));
	findings_release(&fs);

	/* the driver's CUDA unknown: judged from the table */
	f->driver.cuda_version[0] = '\0';
	f->driver.cuda_driver_version = 0;
	f->driver.nvml_cuda_version = 0;
	STR_COPY(f->driver.version, "470.256.02");
	run_rule(rule_driver, f, &fs);
	fd = find_id(&fs, "driver.too_old");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	findings_release(&fs);

	/* runtime older than the driver: fine */
	STR_COPY(f->driver.cuda_version, "13.0");
	run_rule(rule_driver, f, &fs);
	assert_false(findings_has(&fs, "driver.too_old"));
	findings_release(&fs);
	free(f);
}

static void
test_init_failed(void **state)
{
	struct facts *f = ubuntu_3090("580.159.04");
	struct findings fs;
	const struct finding *fd;

	(void)state;
	f->driver.cuinit_rc = 999;
	f->driver.cuinit_name[0] = '\0';
	run_rule(rule_driver, f, &fs);
	fd = find_id(&fs, "driver.init_failed");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_true(evidence_has(fd, "cuInit returned 999 (CUDA_ERROR_UNKNOWN)"));
	assert_true(fix_has(fd, "sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm"));
	findings_release(&fs);

	f->driver.cuinit_rc = 34;
	STR_COPY(f->driver.cuda_loaded_path, "/usr/local/cuda/lib64/stubs/libcuda.so.1");
	run_rule(rule_driver, f, &fs);
	fd = find_id(&fs, "driver.init_failed");
	assert_non_null(fd);
	assert_true(evidence_has(fd, "CUDA_ERROR_STUB_LIBRARY"));
	assert_true(evidence_has(fd, "/usr/local/cuda/lib64/stubs/libcuda.so.1"));
	assert_true(fix_has(fd, "LD_LIBRARY_PATH"));
	findings_release(&fs);

	/* codes owned elsewhere */
	f->driver.cuinit_rc = 100;
	run_rule(rule_driver, f, &fs);
	assert_false(findings_has(&fs, "driver.init_failed"));
	assert_true(findings_has(&fs, "driver.no_visible_device"));
	findings_release(&fs);
	f->driver.cuinit_rc = 804;
	run_rule(rule_driver, f, &fs);
	assert_false(findings_has(&fs, "driver.init_failed"));
	assert_true(findings_has(&fs, "driver.forward_compat_unsupported"));
	findings_release(&fs);
	f->driver.cuinit_rc = 803;
	run_rule(rule_driver, f, &fs);
	assert_false(findings_has(&fs, "driver.init_failed"));
	assert_true(findings_has(&fs, "driver.version_mismatch"));
	findings_release(&fs);
	free(f);
}

static void
test_forward_compat(void **state)
{
	struct facts *f = ubuntu_3090("535.104.05");
	struct findings fs;
	const struct finding *fd;

	(void)state;
	STR_COPY(f->driver.cuda_loaded_path, "/usr/local/cuda-12.4/compat/libcuda.so.1");
	f->driver.cuinit_rc = 804;
	run_rule(rule_driver, f, &fs);
	fd = find_id(&fs, "driver.forward_compat_unsupported");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_true(evidence_has(fd, "/usr/local/cuda-12.4/compat/libcuda.so.1"));
	assert_true(fix_has(fd, "/usr/local/cuda-12.4/compat"));
	findings_release(&fs);

	/* compat libcuda picked on a GeForce, cuInit not tried: a warning */
	f->driver.cuda_state = CHILD_NOT_RUN;
	f->driver.cuinit_called = false;
	run_rule(rule_driver, f, &fs);
	fd = find_id(&fs, "driver.forward_compat_unsupported");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	findings_release(&fs);

	/* on an H200 (datacenter) the compat package is supported */
	f->gpus[0].device = 0x2335;
	run_rule(rule_driver, f, &fs);
	assert_false(findings_has(&fs, "driver.forward_compat_unsupported"));
	findings_release(&fs);
	free(f);
}

static void
test_probe_crashed_and_timeout(void **state)
{
	struct facts *f = ubuntu_3090("580.159.04");
	struct findings fs;
	const struct finding *fd;

	(void)state;
	f->driver.cuda_state = CHILD_CRASHED;
	f->driver.cuda_signal = 11;
	f->driver.nvml_state = CHILD_CRASHED;
	run_rule(rule_driver, f, &fs);
	fd = find_id(&fs, "driver.probe_crashed");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_int_equal(count_id(&fs, "driver.probe_crashed"), 1);
	assert_true(evidence_has(fd, "signal 11 (SIGSEGV)"));
	assert_true(evidence_has(fd, "/usr/local/nvidia/lib64/libcuda.so.1"));
	findings_release(&fs);

	f->driver.cuda_state = CHILD_TIMEOUT;
	f->driver.nvml_state = CHILD_TIMEOUT;
	f->driver.cuda_ms = 5003;
	run_rule(rule_driver, f, &fs);
	fd = find_id(&fs, "driver.probe_timeout");
	assert_non_null(fd);
	assert_true(evidence_has(fd, "5003 ms"));
	assert_true(fix_has(fd, "Xid"));
	assert_false(findings_has(&fs, "driver.probe_crashed"));
	findings_release(&fs);
	free(f);
}

static void
test_no_visible_device(void **state)
{
	struct facts *f = ubuntu_3090("580.159.04");
	struct findings fs;
	const struct finding *fd;

	(void)state;
	f->driver.cuinit_rc = 0;
	f->driver.cuda_device_count = 0;
	f->gpus[0].mig_mode = 1;
	run_rule(rule_driver, f, &fs);
	fd = find_id(&fs, "driver.no_visible_device");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_true(evidence_has(fd, "NVML sees 1 GPU(s)"));
	assert_true(evidence_has(fd, "MIG mode is enabled on 0000:01:00.0"));
	assert_true(fix_has(fd, "sudo nvidia-smi -i 0 -mig 0"));
	findings_release(&fs);

	/* CUDA_VISIBLE_DEVICES=-1 explains it: env's finding */
	set_env(f, "CUDA_VISIBLE_DEVICES", "-1");
	run_rule(rule_driver, f, &fs);
	assert_false(findings_has(&fs, "driver.no_visible_device"));
	findings_release(&fs);

	/* nodes closed to the user: kmod's finding */
	f->env.nvars = 0;
	f->kmod.devnodes[0].accessible = false;
	run_rule(rule_driver, f, &fs);
	assert_false(findings_has(&fs, "driver.no_visible_device"));
	findings_release(&fs);
	free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_libcuda_missing),
		cmocka_unit_test(test_version_mismatch),
		cmocka_unit_test(test_too_old),
		cmocka_unit_test(test_gpu_newer_than_driver),
		cmocka_unit_test(test_init_failed),
		cmocka_unit_test(test_forward_compat),
		cmocka_unit_test(test_probe_crashed_and_timeout),
		cmocka_unit_test(test_no_visible_device),
	};

	return cmocka_run_group_tests_name("rules_driver", tests, NULL, NULL);
}
