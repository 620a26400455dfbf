/*
 * t_rules_host.c - rule_host on hand-built facts: AVX, WSL2 driver
 * missing or shadowed by a Linux driver, containers without GPU access,
 * Secure Boot, unsupported platforms, TensorFlow >= 2.11 in a Windows
 * Python seen from WSL2 (and rule_fw leaving such an env alone). Positive
 * and negative cases.
 */
#include "rules_facts.h"

static void
test_no_avx(void **state)
{
	struct facts *f = healthy_h200();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	f->host.cpu_avx = f->host.cpu_avx2 = f->host.cpu_avx512f = false;
	STR_COPY(f->host.hypervisor, "KVM");
	run_rule(rule_host, f, &fs);
	fd = find_id(&fs, "host.no_avx");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_true(evidence_has(fd, "/proc/cpuinfo"));
	assert_true(fix_has(fd, "host-passthrough"));
	findings_release(&fs);

	/* AVX without AVX2: information only */
	f->host.cpu_avx = true;
	run_rule(rule_host, f, &fs);
	fd = find_id(&fs, "host.no_avx");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_INFO);
	findings_release(&fs);

	/* unknown CPU, or an ARM CPU (no AVX flag at all): nothing */
	f->host.cpu_avx = f->host.cpu_avx2 = false;
	f->host.cpu_valid = false;
	run_rule(rule_host, f, &fs);
	assert_false(findings_has(&fs, "host.no_avx"));
	findings_release(&fs);
	f->host.cpu_valid = true;
	STR_COPY(f->host.arch, "aarch64");
	run_rule(rule_host, f, &fs);
	assert_false(findings_has(&fs, "host.no_avx"));
	findings_release(&fs);
	free(f);
}

static struct facts *
wsl_box(void)
{
	struct facts *f = facts_new();

	host_ubuntu(f, 1000);
	STR_COPY(f->host.kernel_release, "5.15.167.4-microsoft-standard-WSL2");
	f->host.wsl = f->host.wsl_dxg = f->host.wsl_lib_dir = f->host.wsl_libcuda = true;
	add_driver_lib(f, "libcuda", "/usr/lib/wsl/lib/libcuda.so.1", "", false, true);
	return f;
}

static void
test_wsl_driver_missing(void **state)
{
	struct facts *f = wsl_box();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	run_rule(rule_host, f, &fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);

	f->host.wsl_libcuda = false;
	f->driver.nlibs = 0;
	run_rule(rule_host, f, &fs);
	fd = find_id(&fs, "host.wsl_driver_missing");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_true(evidence_has(fd, "/usr/lib/wsl/lib"));
	assert_true(fix_has(fd, "Windows"));
	assert_true(fix_has(fd, "Do not install a Linux NVIDIA driver"));
	findings_release(&fs);

	/* WSL 1: no /dev/dxg */
	f->host.wsl_dxg = f->host.wsl_lib_dir = false;
	run_rule(rule_host, f, &fs);
	fd = find_id(&fs, "host.wsl_driver_missing");
	assert_non_null(fd);
	assert_true(evidence_has(fd, "/dev/dxg absent"));
	assert_true(fix_has(fd, "wsl --set-version"));
	findings_release(&fs);

	/* host facts not valid: nothing */
	f->host.valid = false;
	run_rule(rule_host, f, &fs);
	assert_false(findings_has(&fs, "host.wsl_driver_missing"));
	findings_release(&fs);
	free(f);
}

static void
test_wsl_linux_driver(void **state)
{
	struct facts *f = wsl_box();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	/* a symlink into /usr/lib/wsl/lib is fine */
	add_driver_lib(f, "libcuda", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "", false, false);
	STR_COPY(f->driver.libs[1].real_path, "/usr/lib/wsl/lib/libcuda.so.1");
	run_rule(rule_host, f, &fs);
	assert_false(findings_has(&fs, "host.wsl_linux_driver_installed"));
	findings_release(&fs);

	add_driver_lib(f, "libcuda", "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.14", "550.54.14",
		       false, true);
	run_rule(rule_host, f, &fs);
	fd = find_id(&fs, "host.wsl_linux_driver_installed");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_true(evidence_has(fd, "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.14"));
	assert_true(fix_has(fd, "sudo apt-get remove --purge"));
	assert_true(fix_has(fd, "sudo rm /usr/lib/x86_64-linux-gnu/libcuda.so.550.54.14"));
	findings_release(&fs);

	/* as root on Fedora: dnf, no sudo */
	f->host.uid = 0;
	STR_COPY(f->host.pkg_manager, "dnf");
	run_rule(rule_host, f, &fs);
	fd = find_id(&fs, "host.wsl_linux_driver_installed");
	assert_non_null(fd);
	assert_true(fix_has(fd, "dnf remove"));
	assert_false(fix_has(fd, "sudo"));
	findings_release(&fs);

	/* not WSL: never */
	f->host.wsl = false;
	run_rule(rule_host, f, &fs);
	assert_false(findings_has(&fs, "host.wsl_linux_driver_installed"));
	findings_release(&fs);
	free(f);
}

static void
test_container_no_gpu(void **state)
{
	struct facts *f = healthy_h200();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	/* started without --gpus: no nodes, no driver libs, only the stub */
	f->kmod.ndevnodes = 0;
	add_devnode(f, "/dev/nvidiactl", false, false);
	f->driver.nlibs = 0;
	add_driver_lib(f, "libcuda", "/usr/local/cuda/lib64/stubs/libcuda.so", "", true, false);
	f->driver.cuda_state = CHILD_LOAD_FAILED;
	run_rule(rule_host, f, &fs);
	fd = find_id(&fs, "host.container_no_gpu");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_true(evidence_has(fd, "/usr/local/cuda/lib64/stubs/libcuda.so"));
	assert_true(evidence_has(fd, "NVIDIA_VISIBLE_DEVICES=0"));
	assert_true(fix_has(fd, "--gpus all"));
	findings_release(&fs);

	STR_COPY(f->host.container_kind, "kubernetes");
	run_rule(rule_host, f, &fs);
	fd = find_id(&fs, "host.container_no_gpu");
	assert_non_null(fd);
	assert_true(fix_has(fd, "nvidia.com/gpu"));
	findings_release(&fs);

	/* a node exists: the container has the GPU */
	add_devnode(f, "/dev/nvidia0", true, true);
	run_rule(rule_host, f, &fs);
	assert_false(findings_has(&fs, "host.container_no_gpu"));
	findings_release(&fs);

	/* not a container */
	f->kmod.ndevnodes = 0;
	f->host.container = false;
	run_rule(rule_host, f, &fs);
	assert_false(findings_has(&fs, "host.container_no_gpu"));
	findings_release(&fs);
	free(f);
}

static void
test_container_on_gpu_less_host(void **state)
{
	struct facts *f = cpu_only_toolkit();
	struct findings fs;

	(void)state;
	f->host.container = true;
	STR_COPY(f->host.container_kind, "docker");
	run_rule(rule_host, f, &fs);
	/* no GPU on the PCI bus at all: hw.no_nvidia_gpu, not this */
	assert_false(findings_has(&fs, "host.container_no_gpu"));
	findings_release(&fs);
	free(f);
}

static struct facts *
secure_boot_box(void)
{
	struct facts *f = laptop();

	f->host.secure_boot = 1;
	f->kmod.nvidia = f->kmod.nvidia_uvm = false;
	f->kmod.nvidia_module_installed = true;
	STR_COPY(f->kmod.nvidia_module_path,
		 "/lib/modules/6.12.5-200.fc41.x86_64/extra/nvidia/nvidia.ko.xz");
	f->gpus[0].kernel_driver[0] = '\0';
	return f;
}

static void
test_secure_boot(void **state)
{
	struct facts *f = secure_boot_box();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	run_rule(rule_host, f, &fs);
	fd = find_id(&fs, "host.secure_boot_blocks_driver");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_true(evidence_has(fd, "nvidia.ko.xz"));
	assert_true(fix_has(fd, "sudo mokutil --import /etc/pki/akmods/certs/public_key.der"));
	findings_release(&fs);

	/* Debian: the DKMS key */
	STR_COPY(f->host.os_id, "debian");
	STR_COPY(f->host.pkg_manager, "apt");
	run_rule(rule_host, f, &fs);
	fd = find_id(&fs, "host.secure_boot_blocks_driver");
	assert_non_null(fd);
	assert_true(fix_has(fd, "mokutil --import /var/lib/dkms/mok.pub"));
	findings_release(&fs);

	/* negatives: Secure Boot off or unknown, module loaded, nothing installed */
	f->host.secure_boot = 0;
	run_rule(rule_host, f, &fs);
	assert_false(findings_has(&fs, "host.secure_boot_blocks_driver"));
	findings_release(&fs);
	f->host.secure_boot = -1;
	run_rule(rule_host, f, &fs);
	assert_false(findings_has(&fs, "host.secure_boot_blocks_driver"));
	findings_release(&fs);
	f->host.secure_boot = 1;
	f->kmod.nvidia = true;
	run_rule(rule_host, f, &fs);
	assert_false(findings_has(&fs, "host.secure_boot_blocks_driver"));
	findings_release(&fs);
	f->kmod.nvidia = false;
	f->kmod.modules_cut = true; /* the nvidia line may be past the cut */
	run_rule(rule_host, f, &fs);
	assert_false(findings_has(&fs, "host.secure_boot_blocks_driver"));
	findings_release(&fs);
	f->kmod.modules_cut = false;
	f->kmod.nvidia_module_installed = false;
	f->driver.nlibs = 0;
	run_rule(rule_host, f, &fs);
	assert_false(findings_has(&fs, "host.secure_boot_blocks_driver"));
	findings_release(&fs);
	free(f);
}

static void
test_unsupported_platform(void **state)
{
	struct facts *f = healthy_h200();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	STR_COPY(f->host.arch, "armv7l");
	run_rule(rule_host, f, &fs);
	fd = find_id(&fs, "host.unsupported_os");
	assert_non_null(fd);
	assert_true(evidence_has(fd, "armv7l"));
	findings_release(&fs);
	STR_COPY(f->host.arch, "aarch64");
	run_rule(rule_host, f, &fs);
	assert_false(findings_has(&fs, "host.unsupported_os"));
	findings_release(&fs);
	f->host.arch[0] = '\0';
	run_rule(rule_host, f, &fs);
	assert_false(findings_has(&fs, "host.unsupported_os"));
	findings_release(&fs);
	free(f);
}

#define WIN_PY "/mnt/c/Users/alice/AppData/Local/Programs/Python/Python311"

/* A Windows Python seen from WSL2, as probe/pyenv.c records one. */
static struct python_env_facts *
win_env(struct facts *f, const char *prefix, const char *version)
{
	struct python_env_facts *e = add_pyenv(f, prefix, "windows", version);

	e->interpreter[0] = '\0';
	STR_FMT(e->site_packages, "%s/Lib/site-packages", prefix);
	return e;
}

static void
test_windows_tf(void **state)
{
	struct facts *f = wsl_box();
	struct python_env_facts *e, *old, *lin;
	struct findings fs;
	const struct finding *fd;

	(void)state;
	e = win_env(f, WIN_PY, "3.11");
	add_pkg(e, "tensorflow", "2.12.0");
	add_pkg(e, "tensorflow-intel", "2.12.0");
	old = win_env(f, "/mnt/c/Users/alice/miniconda3/envs/tf210", "3.10.13");
	add_pkg(old, "tensorflow", "2.10.1");
	/* a Linux env with the same TensorFlow: fine, it has the GPU */
	lin = add_pyenv(f, "/home/alice/.venvs/tf", "venv", "3.11.9");
	add_pkg(lin, "tensorflow", "2.15.0");

	run_rule(rule_host, f, &fs);
	assert_int_equal(count_id(&fs, "host.windows_native_tf_gpu"), 1);
	fd = find_id(&fs, "host.windows_native_tf_gpu");
	assert_int_equal(fd->severity, SEV_WARN);
	assert_string_equal(fd->env, WIN_PY);
	assert_non_null(strstr(fd->title, "tensorflow 2.12.0"));
	assert_true(evidence_has(fd, "tensorflow 2.12.0 in " WIN_PY "/Lib/site-packages"));
	assert_true(evidence_has(fd, "Python 3.11"));
	assert_true(fix_has(fd, "pip install \"tensorflow[and-cuda]\""));
	assert_true(fix_has(fd, "pip install \"tensorflow<2.11\""));
	assert_true(fix_has(fd, "conda install -c conda-forge cudatoolkit=11.2 cudnn=8.1.0"));
	assert_true(fix_has(fd, "this environment has Python 3.11"));
	findings_release(&fs);

	/* only tensorflow-intel (the Windows build itself), Python 3.10: no
	 * "this environment has" remark; a pre-release counts */
	e->npkgs = 0;
	add_pkg(e, "tensorflow-intel", "2.11.0rc2");
	STR_COPY(e->version, "3.10");
	run_rule(rule_host, f, &fs);
	fd = find_id(&fs, "host.windows_native_tf_gpu");
	assert_non_null(fd);
	assert_true(evidence_has(fd, "tensorflow-intel 2.11.0rc2"));
	assert_false(fix_has(fd, "this environment has"));
	findings_release(&fs);

	/* 2.10 and older on Windows had GPU builds; tensorflow-cpu says so
	 * itself; an unknown version says nothing */
	e->npkgs = 0;
	add_pkg(e, "tensorflow", "2.10.0");
	add_pkg(e, "tensorflow-cpu", "2.15.0");
	add_pkg(e, "tensorflow-gpu", "");
	run_rule(rule_host, f, &fs);
	assert_false(findings_has(&fs, "host.windows_native_tf_gpu"));
	findings_release(&fs);

	/* the same env recorded as a Linux kind: not this rule's */
	e->npkgs = 0;
	add_pkg(e, "tensorflow", "2.16.1");
	STR_COPY(e->kind, "conda");
	run_rule(rule_host, f, &fs);
	assert_false(findings_has(&fs, "host.windows_native_tf_gpu"));
	findings_release(&fs);
	free(f);
}

/* rule_fw leaves Windows environments alone: tensorflow + tensorflow-intel
 * is the normal Windows install, not two competing distributions. */
static void
test_windows_not_fw(void **state)
{
	struct facts *f = wsl_box();
	struct python_env_facts *e;
	struct findings fs;

	(void)state;
	e = win_env(f, WIN_PY, "3.11");
	add_pkg(e, "tensorflow", "2.12.0");
	add_pkg(e, "tensorflow-intel", "2.12.0");
	add_fw(e, "tensorflow", "tensorflow", "2.12.0", "", "", -1);
	run_rule(rule_fw, f, &fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);
	STR_COPY(e->kind, "system");
	run_rule(rule_fw, f, &fs);
	assert_true(findings_has(&fs, "fw.deprecated_gpu_package")); /* the guard is what holds */
	findings_release(&fs);
	free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_avx),
		cmocka_unit_test(test_wsl_driver_missing),
		cmocka_unit_test(test_wsl_linux_driver),
		cmocka_unit_test(test_container_no_gpu),
		cmocka_unit_test(test_container_on_gpu_less_host),
		cmocka_unit_test(test_secure_boot),
		cmocka_unit_test(test_unsupported_platform),
		cmocka_unit_test(test_windows_tf),
		cmocka_unit_test(test_windows_not_fw),
	};

	return cmocka_run_group_tests_name("rules_host", tests, NULL, NULL);
}
