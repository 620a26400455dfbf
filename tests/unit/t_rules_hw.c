/*
 * t_rules_hw.c - rule_hw on hand-built facts: no GPU, architecture too old
 * for the toolkit or the driver, little memory, MX-series parts, degraded
 * PCIe links (width always; speed only while busy), hybrid graphics.
 */
#include "rules_facts.h"

static void
test_no_gpu(void **state)
{
	struct facts *f = cpu_only_toolkit();
	struct findings fs;
	const struct finding *fd;
	struct other_gpu_facts *o;

	(void)state;
	o = &f->other_gpus[f->nother_gpus++];
	STR_COPY(o->pci_bus_id, "0000:00:02.0");
	o->vendor = 0x1a03;
	o->device = 0x2000;
	STR_COPY(o->kernel_driver, "ast");
	run_rule(rule_hw, f, &fs);
	fd = find_id(&fs, "hw.no_nvidia_gpu");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_true(evidence_has(fd, "0x10de"));
	assert_true(evidence_has(fd, "1a03:2000"));
	assert_true(evidence_has(fd, "/usr/local/cuda-13.0/lib/libcudart.so.13"));
	assert_false(findings_has(&fs, "hw.hybrid_graphics"));
	findings_release(&fs);

	/* the PCI probe could not read the bus: no conclusion */
	facts_note(f, "pci", "cannot read /sys/bus/pci/devices: Permission denied");
	f->pci_valid = false;
	run_rule(rule_hw, f, &fs);
	assert_false(findings_has(&fs, "hw.no_nvidia_gpu"));
	findings_release(&fs);
	free(f);

	/* WSL: no PCI function, the GPU comes through /dev/dxg */
	f = cpu_only_toolkit();
	f->host.wsl = f->host.wsl_dxg = true;
	run_rule(rule_hw, f, &fs);
	assert_false(findings_has(&fs, "hw.no_nvidia_gpu"));
	findings_release(&fs);
	/* NVML sees a GPU although sysfs did not */
	f->host.wsl = f->host.wsl_dxg = false;
	f->driver.nvml_device_count = 1;
	run_rule(rule_hw, f, &fs);
	assert_false(findings_has(&fs, "hw.no_nvidia_gpu"));
	findings_release(&fs);
	free(f);

	f = healthy_h200();
	run_rule(rule_hw, f, &fs);
	assert_int_equal(fs.n, 0);
	findings_release(&fs);
	free(f);
}

static void
test_arch_too_old(void **state)
{
	struct facts *f = healthy_h200();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	/* a Tesla K80 (3.7, last CUDA 11.8) with the CUDA 13 toolkit */
	STR_COPY(f->gpus[0].name, "Tesla K80");
	f->gpus[0].device = 0x102d;
	STR_COPY(f->gpus[0].compute_capability, "3.7");
	STR_COPY(f->driver.version, "470.256.02");
	run_rule(rule_hw, f, &fs);
	fd = find_id(&fs, "hw.arch_too_old");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_true(strstr(fd->title, "Tesla K80") != NULL);
	assert_true(evidence_has(fd, "11.8"));
	assert_true(evidence_has(fd, "13.0.96"));
	assert_true(fix_has(fd, "CUDA 11.8 or older"));
	findings_release(&fs);

	/* a Pascal GTX 1080 Ti with CUDA 12.4: fine */
	STR_COPY(f->gpus[0].name, "NVIDIA GeForce GTX 1080 Ti");
	STR_COPY(f->gpus[0].compute_capability, "6.1");
	STR_COPY(f->driver.version, "550.54.14");
	f->nlibs = 0;
	add_lib(f, "cudart", "/usr/local/cuda-12.4/lib64/libcudart.so.12", "libcudart.so.12",
		"12.4.127", ORIGIN_TOOLKIT, "/usr/local/cuda-12.4", true, true);
	run_rule(rule_hw, f, &fs);
	assert_false(findings_has(&fs, "hw.arch_too_old"));
	findings_release(&fs);

	/* the same GPU under the 590 driver, which dropped Pascal */
	STR_COPY(f->driver.version, "590.44.01");
	run_rule(rule_hw, f, &fs);
	fd = find_id(&fs, "hw.arch_too_old");
	assert_non_null(fd);
	assert_true(evidence_has(fd, "590.44.01"));
	assert_true(fix_has(fd, "580"));
	findings_release(&fs);

	/* unknown compute capability: nothing */
	f->gpus[0].compute_capability[0] = '\0';
	run_rule(rule_hw, f, &fs);
	assert_false(findings_has(&fs, "hw.arch_too_old"));
	findings_release(&fs);
	free(f);
}

static void
test_low_vram_and_weak(void **state)
{
	struct facts *f = laptop();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	STR_COPY(f->gpus[0].name, "NVIDIA GeForce MX150");
	f->gpus[0].device = 0x1d10;
	STR_COPY(f->gpus[0].compute_capability, "6.1");
	f->gpus[0].memory_total_mib = 2002;
	run_rule(rule_hw, f, &fs);
	fd = find_id(&fs, "hw.low_vram");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_true(evidence_has(fd, "2002 MiB"));
	fd = find_id(&fs, "hw.weak_gpu");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	findings_release(&fs);

	/* a 4 GiB card reports a little under 4096 MiB: not low */
	STR_COPY(f->gpus[0].name, "NVIDIA GeForce GTX 1650");
	f->gpus[0].memory_total_mib = 3911;
	run_rule(rule_hw, f, &fs);
	assert_false(findings_has(&fs, "hw.low_vram"));
	assert_false(findings_has(&fs, "hw.weak_gpu"));
	findings_release(&fs);

	/* "TMX" inside a word is not an MX part; unknown memory is not low */
	STR_COPY(f->gpus[0].name, "NVIDIA RTX A2000 TMX12");
	f->gpus[0].memory_total_mib = 0;
	run_rule(rule_hw, f, &fs);
	assert_false(findings_has(&fs, "hw.weak_gpu"));
	assert_false(findings_has(&fs, "hw.low_vram"));
	findings_release(&fs);
	free(f);
}

static void
test_pcie(void **state)
{
	struct facts *f = healthy_h200();
	struct findings fs;
	const struct finding *fd;
	struct gpu_facts *g = &f->gpus[0];

	(void)state;
	/* idle GPU at Gen1: power saving, not a problem */
	STR_COPY(g->link_speed_cur, "2.5 GT/s PCIe");
	run_rule(rule_hw, f, &fs);
	assert_false(findings_has(&fs, "hw.pcie_link_degraded"));
	findings_release(&fs);

	/* busy and still slow: degraded */
	g->utilization_gpu = 87;
	run_rule(rule_hw, f, &fs);
	fd = find_id(&fs, "hw.pcie_link_degraded");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_true(evidence_has(fd, "current_link_speed 2.5 GT/s PCIe"));
	assert_true(evidence_has(fd, "87%"));
	findings_release(&fs);

	/* width below max: always */
	g->utilization_gpu = 0;
	STR_COPY(g->link_speed_cur, "32.0 GT/s PCIe");
	g->link_width_cur = 8;
	run_rule(rule_hw, f, &fs);
	fd = find_id(&fs, "hw.pcie_link_degraded");
	assert_non_null(fd);
	assert_true(strstr(fd->title, "x8 of x16") != NULL);
	assert_true(evidence_has(fd, "/sys/bus/pci/devices/0000:00:06.0/current_link_width 8"));
	findings_release(&fs);

	/* unknown width */
	g->link_width_cur = 0;
	run_rule(rule_hw, f, &fs);
	assert_false(findings_has(&fs, "hw.pcie_link_degraded"));
	findings_release(&fs);
	free(f);
}

static void
test_hybrid(void **state)
{
	struct facts *f = laptop();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	run_rule(rule_hw, f, &fs);
	fd = find_id(&fs, "hw.hybrid_graphics");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_INFO);
	assert_true(evidence_has(fd, "8086:46a6"));
	findings_release(&fs);

	/* the dGPU has no driver bound: still a note (kmod.nvidia_not_loaded
	 * is the problem), but the fix says how to switch graphics back */
	f->gpus[0].kernel_driver[0] = '\0';
	run_rule(rule_hw, f, &fs);
	fd = find_id(&fs, "hw.hybrid_graphics");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_INFO);
	assert_true(fix_has(fd, "sudo prime-select on-demand"));
	findings_release(&fs);

	/* a server's BMC VGA is not hybrid graphics */
	f->other_gpus[0].vendor = 0x1a03;
	run_rule(rule_hw, f, &fs);
	assert_false(findings_has(&fs, "hw.hybrid_graphics"));
	findings_release(&fs);
	free(f);
}

/* Four A100s on the bus, NVML answers for three. */
static struct facts *
four_a100(void)
{
	struct facts *f = healthy_h200();
	static const char *const bus[] = {"00000000:07:00.0", "00000000:0F:00.0", "00000000:47:00.0",
					  "00000000:4E:00.0"};
	int i;

	f->ngpus = 0;
	for (i = 0; i < 4; i++) {
		struct gpu_facts *g = add_gpu(f, bus[i], 0x20b2, "NVIDIA A100-SXM4-80GB", "8.0");
		STR_COPY(g->kernel_driver, "nvidia");
		g->nvml_valid = true;
		g->memory_total_mib = 81920;
	}
	f->driver.nvml_device_count = 4;
	f->host.container = false; /* a server, not the reference VM's container */
	return f;
}

static void
test_gpu_missing(void **state)
{
	struct facts *f = four_a100();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	run_rule(rule_hw, f, &fs);
	assert_false(findings_has(&fs, "hw.gpu_missing"));
	findings_release(&fs);

	/* one fell off the bus: bound to nvidia, not in NVML */
	f->gpus[2].nvml_valid = false;
	f->driver.nvml_device_count = 3;
	run_rule(rule_hw, f, &fs);
	fd = find_id(&fs, "hw.gpu_missing");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_string_equal(fd->title, "1 of the 4 NVIDIA GPUs on the PCI bus does not answer the driver");
	assert_true(evidence_has(fd, "NVML counts 3 GPUs; /sys/bus/pci/devices lists 4"));
	assert_true(evidence_has(fd, "00000000:47:00.0 NVIDIA A100-SXM4-80GB: bound to nvidia, but NVML does not list it"));
	assert_true(fix_has(fd, "sudo dmesg | grep -iE 'NVRM|Xid'"));
	assert_true(fix_has(fd, "nvidia-smi -r -i 00000000:47:00.0"));
	findings_release(&fs);

	/* given to a virtual machine: a note */
	STR_COPY(f->gpus[2].kernel_driver, "vfio-pci");
	run_rule(rule_hw, f, &fs);
	fd = find_id(&fs, "hw.gpu_missing");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_INFO);
	assert_true(evidence_has(fd, "bound to vfio-pci"));
	assert_false(fix_has(fd, "nvidia-smi -r"));
	findings_release(&fs);

	/* nouveau holds it: kmod.nouveau_loaded says so, not this rule */
	STR_COPY(f->gpus[2].kernel_driver, "nouveau");
	run_rule(rule_hw, f, &fs);
	assert_false(findings_has(&fs, "hw.gpu_missing"));
	findings_release(&fs);

	/* in a container sysfs shows the host's GPUs: not judged */
	STR_COPY(f->gpus[2].kernel_driver, "nvidia");
	f->host.container = true;
	run_rule(rule_hw, f, &fs);
	assert_false(findings_has(&fs, "hw.gpu_missing"));
	findings_release(&fs);

	/* NVML did not start: nothing to compare */
	f->host.container = false;
	f->driver.nvml_init_rc = 9;
	run_rule(rule_hw, f, &fs);
	assert_false(findings_has(&fs, "hw.gpu_missing"));
	findings_release(&fs);
	free(f);
}

static void
test_mixed_models(void **state)
{
	struct facts *f = four_a100();
	struct findings fs;
	const struct finding *fd;

	(void)state;
	run_rule(rule_hw, f, &fs);
	assert_false(findings_has(&fs, "hw.mixed_models"));
	findings_release(&fs);

	STR_COPY(f->gpus[1].name, "NVIDIA A100-PCIE-40GB");
	f->gpus[1].memory_total_mib = 40960;
	run_rule(rule_hw, f, &fs);
	fd = find_id(&fs, "hw.mixed_models");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_INFO);
	assert_true(evidence_has(fd, "nvidia-smi 1: 00000000:0F:00.0 NVIDIA A100-PCIE-40GB, compute 8.0, 40960 MiB"));
	/* the fix keeps a job on the three of one model, in nvidia-smi's order */
	assert_true(fix_has(fd, "export CUDA_DEVICE_ORDER=PCI_BUS_ID"));
	assert_true(fix_has(fd, "export CUDA_VISIBLE_DEVICES=0,2,3   # the NVIDIA A100-SXM4-80GBs"));
	findings_release(&fs);
	free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_gpu),
		cmocka_unit_test(test_arch_too_old),
		cmocka_unit_test(test_low_vram_and_weak),
		cmocka_unit_test(test_pcie),
		cmocka_unit_test(test_hybrid),
		cmocka_unit_test(test_gpu_missing),
		cmocka_unit_test(test_mixed_models),
	};

	return cmocka_run_group_tests_name("rules_hw", tests, NULL, NULL);
}
